// The engine's C ABI for WebAssembly (python/manila/server/web/engine.js is its only caller):
// one entry, the API's call(route, body) (manila/api.hpp), which answers a POST route of
// the HTTP API exactly as the Python server does. JavaScript writes the route's and the
// body's UTF-8 bytes into the input buffer, calls manila_call, and reads the status and
// the answer's JSON text; it knows nothing of the formats.
//
// Errors: the standard library for wasm32-wasi is built without exception support, and
// there is nothing to unwind with. A bad input is an answer, never a throw (the readers
// collect problems); only the engine's own refusals of a board the readers let through
// ("strict": false beyond any game) and true bugs throw. A throw renders the answer the
// server gives for that exception (answer_for_exception) and traps; JS sees the trap, reads
// that answer and starts a fresh instance (the trapped one may hold half-done work). A
// trap with no throw (a bug) leaves the answer set before the call: the server's 500.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <typeinfo>

#include "manila/api.hpp"

// MANILA_NATIVE: compiled for this machine instead, into the fuzz target (cpp/fuzz/), which
// calls the entry points directly and keeps the C++ exceptions.
#if defined(MANILA_NATIVE)
#define MANILA_EXPORT(name) extern "C"
#else
#define MANILA_EXPORT(name) extern "C" __attribute__((export_name(#name), visibility("default")))
#endif

// Progress of long work (a review): done of total items; the host returns 0 to stop it
// (the answer is then call's 503). engine.js passes it to the caller's onProgress.
#if defined(MANILA_NATIVE)
extern "C" std::int32_t manila_progress(std::int32_t, std::int32_t) { return 1; }
#else
extern "C" __attribute__((import_module("manila"), import_name("progress"))) std::int32_t
manila_progress(std::int32_t done, std::int32_t total);
#endif

namespace {

std::string input;
manila::Answer answer;
std::string_view route;  // the call's, for the answer a throw renders

bool report(int done, int total) { return manila_progress(done, total) != 0; }

}  // namespace

#if !defined(MANILA_NATIVE)
// The engine throws only std::exception's descendants (std::invalid_argument for bad input,
// std::logic_error for a broken invariant), each with std::exception as its first base.
extern "C" void* __cxa_allocate_exception(std::size_t size) noexcept {
    static char room[256];  // the instance is dropped after the throw: one exception at most
    return size <= sizeof room ? room : nullptr;
}

extern "C" [[noreturn]] void __cxa_throw(void* thrown, std::type_info* type, void (*)(void*)) {
    const char* what = thrown ? static_cast<std::exception*>(thrown)->what() : "unknown error";
    answer = manila::answer_for_exception(type ? *type : typeid(void), what, route);
    __builtin_trap();
}

// thread_local objects with destructors register them here; the one thread of an instance
// never ends (the page drops the whole instance), so there is nothing to run.
extern "C" int __cxa_thread_atexit(void (*)(void*), void*, void*) { return 0; }
#endif

// Room for n bytes of input (the route, then the body); valid until the next call.
MANILA_EXPORT(manila_input) char* manila_input(std::int32_t n) {
    input.assign(static_cast<std::size_t>(n < 0 ? 0 : n), '\0');
    return input.data();
}

// Answers the route (the input's first route_length bytes) for the body (the rest); returns
// the status. The answer's text is at manila_answer, manila_answer_length bytes long.
MANILA_EXPORT(manila_call) std::int32_t manila_call(std::int32_t route_length) {
    const std::string_view all(input);
    const std::size_t split =
        route_length < 0 ? 0 : std::min(all.size(), static_cast<std::size_t>(route_length));
    // Whatever stops the call without an answer (a trap that is no throw) leaves this one.
    answer = manila::answer_for_exception(typeid(std::exception), "");
    route = all.substr(0, split);
    answer = manila::call(route, all.substr(split), report);
    return answer.status;
}

MANILA_EXPORT(manila_status) std::int32_t manila_status() { return answer.status; }

MANILA_EXPORT(manila_answer) const char* manila_answer() { return answer.body.data(); }

MANILA_EXPORT(manila_answer_length) std::int32_t manila_answer_length() {
    return static_cast<std::int32_t>(answer.body.size());
}
