#include "manila/cancel.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

namespace manila {
namespace {

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

thread_local std::shared_ptr<CancelToken> current;
thread_local const CancelToken* current_raw = nullptr;  // current.get(), read without a copy

}  // namespace

CancelToken::CancelToken(double time_limit) : time_limit_(time_limit) {
    if (!std::isfinite(time_limit) || time_limit < 0 || time_limit > kMaxSeconds)
        throw std::invalid_argument("time_limit: must be 0 (none) to " +
                                    std::to_string(static_cast<int>(kMaxSeconds)) + " seconds");
    if (time_limit > 0) deadline_ns_ = now_ns() + static_cast<std::int64_t>(time_limit * 1e9);
}

bool CancelToken::cancelled() const noexcept {
    if (cancelled_.load(std::memory_order_relaxed)) return true;
    return deadline_ns_ != 0 && now_ns() >= deadline_ns_;
}

std::string CancelToken::reason() const {
    if (cancelled_.load(std::memory_order_relaxed) || deadline_ns_ == 0) return "cancelled";
    char text[64];
    std::snprintf(text, sizeof text, "the time limit of %g s ran out", time_limit_);
    return text;
}

const std::shared_ptr<CancelToken>& current_cancel_token() noexcept { return current; }

std::shared_ptr<CancelToken> exchange_cancel_token(std::shared_ptr<CancelToken> token) {
    std::shared_ptr<CancelToken> previous = std::move(current);
    current = std::move(token);
    current_raw = current.get();
    return previous;
}

CancelScope::CancelScope(std::shared_ptr<CancelToken> token)
    : previous_(exchange_cancel_token(std::move(token))) {}

CancelScope::~CancelScope() { exchange_cancel_token(std::move(previous_)); }

void check_cancelled() {
    const CancelToken* token = current_raw;
    if (token != nullptr && token->cancelled()) throw Cancelled(token->reason());
}

}  // namespace manila
