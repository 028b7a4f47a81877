// A minimal parallel loop for the engine's batch entry points.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <vector>

#include "manila/cancel.hpp"

// WebAssembly (cpp/wasm/) has one thread and a standard library built without threads:
// there the loop runs in the caller and the engine's locks lock nothing. libc++ says so
// with _LIBCPP_HAS_NO_THREADS up to LLVM 19, with _LIBCPP_HAS_THREADS == 0 from LLVM 20.
#if defined(_LIBCPP_HAS_NO_THREADS) || (defined(_LIBCPP_HAS_THREADS) && !_LIBCPP_HAS_THREADS)
#define MANILA_NO_THREADS 1
#else
#define MANILA_NO_THREADS 0
#include <mutex>
#include <thread>
#endif

namespace manila {

#if MANILA_NO_THREADS
struct Mutex {};
struct Lock {
    explicit Lock(Mutex&) {}
};
inline int hardware_threads() { return 1; }
#else
using Mutex = std::mutex;
using Lock = std::lock_guard<std::mutex>;
inline int hardware_threads() {
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}
#endif

// Runs body(i) for i in 0..n-1 on up to `threads` threads (the caller's among them);
// rethrows the first failure once all have stopped. Indices go out in runs of neighbours,
// so that threads seldom touch the same counter or write into the same cache lines. The
// threads obey the caller's cancel token (manila/cancel.hpp).
template <class Body>
void parallel_for(int n, int threads, Body body) {
    threads = std::max(1, std::min(threads, n));
    if (threads == 1 || MANILA_NO_THREADS) {
        for (int i = 0; i < n; ++i) body(i);
        return;
    }
#if !MANILA_NO_THREADS
    const int run = std::max(1, n / (threads * 16));
    std::atomic<int> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    const std::shared_ptr<CancelToken> token = current_cancel_token();  // a copy: see below
    auto worker = [&] {
        const CancelScope scope(token);  // the caller runs one too, changing its own token
        for (int first; (first = next.fetch_add(run)) < n;) {
            const int last = std::min(n, first + run);
            try {
                for (int i = first; i < last; ++i) body(i);
            } catch (...) {
                if (!failed.exchange(true)) failure = std::current_exception();
                next.store(n);
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
#endif
}

}  // namespace manila
