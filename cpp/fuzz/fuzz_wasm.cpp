// The page's engine entry points (cpp/wasm/entry.cpp), compiled natively: the fuzzer's bytes
// become the int32 input buffer JavaScript would fill, then the spot table and the placement
// advice are asked for. Only std::invalid_argument (a refusal naming the field) may come out.
//
// Input: the first byte chooses the entry point; each later byte is one int32 in -127..127,
// except 0x80, which takes the next four bytes as a whole int32 (the extremes stay reachable).
#define MANILA_NATIVE 1
#include "../wasm/entry.cpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "manila/cancel.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    std::vector<std::int32_t> values;
    for (std::size_t i = 1; i < size; ++i) {
        if (data[i] == 0x80 && i + 4 < size) {
            std::int32_t v;
            std::memcpy(&v, data + i + 1, sizeof v);
            values.push_back(v);
            i += 4;
        } else {
            values.push_back(static_cast<std::int8_t>(data[i]));
        }
    }
    std::int32_t* in = manila_input(static_cast<std::int32_t>(values.size()));
    std::copy(values.begin(), values.end(), in);
    // A legal early placement search takes seconds: the fuzzer wants many inputs a second.
    const manila::CancelScope scope(std::make_shared<manila::CancelToken>(0.05));
    try {
        if (data[0] & 1)
            manila_advise_placement();
        else
            manila_analyse();
    } catch (const std::invalid_argument&) {
    } catch (const manila::Cancelled&) {
    }
    return 0;
}
