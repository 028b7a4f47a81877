// The page's engine entry (cpp/wasm/entry.cpp), compiled natively: the fuzzer's bytes
// become a request JavaScript could send, and manila_call answers it. Nothing may come out
// but an answer: a bad body is a 400, never an exception, and an engine's refusal is caught
// by call itself (in WebAssembly, entry.cpp's __cxa_throw renders the same answer).
//
// Input: the first byte chooses the route (kRoutes, or one no route has), the rest is the
// body as it is.
#define MANILA_NATIVE 1
#include "../wasm/entry.cpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "manila/cancel.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    constexpr std::size_t routes = sizeof manila::kRoutes / sizeof manila::kRoutes[0];
    const std::string route = data[0] < routes ? manila::kRoutes[data[0]] : "/v1/nowhere";
    char* in = manila_input(static_cast<std::int32_t>(route.size() + size - 1));
    std::memcpy(in, route.data(), route.size());
    std::memcpy(in + route.size(), data + 1, size - 1);
    // A legal early placement search takes seconds: the fuzzer wants many inputs a second.
    const manila::CancelScope scope(std::make_shared<manila::CancelToken>(0.05));
    try {
        const int status = manila_call(static_cast<std::int32_t>(route.size()));
        if (status != 200 && status != 400 && status != 404) __builtin_trap();
    } catch (const manila::Cancelled&) {
    }
    return 0;
}
