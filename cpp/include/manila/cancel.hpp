// Stopping a long computation from outside: a server whose request ran out of time or whose
// client went away, Ctrl-C on the command line.
//
// A CancelToken is set for the calling thread (CancelScope); the engine's long loops (the
// placement search's turns, every exact evaluation, every bot decision of a rollout, a
// ladder's games) call check_cancelled(), which throws Cancelled once the token is
// cancelled or past its deadline. The work between two checks is a few milliseconds at
// most. parallel_for hands the caller's token to its threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace manila {

// The longest time limit a caller may give a computation, in seconds (a day): a bound on
// what callers may ask, far from the clock's overflow.
inline constexpr double kMaxSeconds = 86400.0;

// The computation was stopped: nothing was wrong with its input (not std::invalid_argument).
class Cancelled : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class CancelToken {
  public:
    // time_limit: seconds from now after which the token counts as cancelled (0: none).
    // Throws std::invalid_argument unless it is 0..kMaxSeconds.
    explicit CancelToken(double time_limit = 0.0);

    void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
    // Cancelled, or past the deadline.
    bool cancelled() const noexcept;
    double time_limit() const noexcept { return time_limit_; }
    // Why check_cancelled() stopped: "cancelled" or the time limit that ran out.
    std::string reason() const;

  private:
    std::atomic<bool> cancelled_{false};
    double time_limit_ = 0.0;
    std::int64_t deadline_ns_ = 0;  // steady clock; 0: none
};

// The token this thread's computations obey (null: none).
const std::shared_ptr<CancelToken>& current_cancel_token() noexcept;

// Sets this thread's token until the end of the scope (null: none), then restores the one
// before. Scopes nest.
class CancelScope {
  public:
    explicit CancelScope(std::shared_ptr<CancelToken> token);
    ~CancelScope();
    CancelScope(const CancelScope&) = delete;
    CancelScope& operator=(const CancelScope&) = delete;

  private:
    std::shared_ptr<CancelToken> previous_;
};

// Sets this thread's token (null: none) and returns the one it replaces: for a caller that
// cannot hold a scope open (Python's `with`).
std::shared_ptr<CancelToken> exchange_cancel_token(std::shared_ptr<CancelToken> token);

// Throws Cancelled if this thread's token says stop. A thread-local read when no token is
// set; a clock read when the token has a deadline.
void check_cancelled();

}  // namespace manila
