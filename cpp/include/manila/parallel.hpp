// A minimal parallel loop for the engine's batch entry points.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace manila {

inline int hardware_threads() {
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// Runs body(i) for i in 0..n-1 on up to `threads` threads (the caller's among them),
// handing out indices one at a time; rethrows the first failure once all have stopped.
template <class Body>
void parallel_for(int n, int threads, Body body) {
    threads = std::max(1, std::min(threads, n));
    if (threads == 1) {
        for (int i = 0; i < n; ++i) body(i);
        return;
    }
    std::atomic<int> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    auto worker = [&] {
        for (int i; (i = next.fetch_add(1)) < n;) {
            try {
                body(i);
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
}

}  // namespace manila
