// tests/parked_thread.hpp — a thread that keeps memory warm, then stays idle until it is resumed: what
// another thread may give back (warm_memory_test, life_events_test).
#ifndef RELO_TESTS_PARKED_THREAD_HPP
#define RELO_TESTS_PARKED_THREAD_HPP

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "relo/warm_memory.hpp"

namespace relo_test {

/// A thread that runs `fill`, reports what its caches keep (unless `report_kept` is false: a look at them is
/// a visit), then waits (idle) until resumed and runs `then`.
class parked_thread {
public:
    parked_thread(std::function<void()> fill, std::function<void()> then, bool report_kept = true)
        : thread_([this, fill = std::move(fill), then = std::move(then), report_kept] {
              fill();
              {
                  std::unique_lock<std::mutex> lock(mutex_);
                  if (report_kept) kept_ = relo::warm_memory().total();
                  parked_ = true;
                  changed_.notify_all();
                  changed_.wait(lock, [this] { return resumed_; });
              }
              then();
          }) {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return parked_; });
    }
    parked_thread(const parked_thread&) = delete;
    parked_thread& operator=(const parked_thread&) = delete;
    ~parked_thread() { resume_and_join(); }

    /// What the thread's caches kept when it parked.
    std::size_t kept() const noexcept { return kept_; }

    void resume_and_join() {
        if (!thread_.joinable()) return;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            resumed_ = true;
        }
        changed_.notify_all();
        thread_.join();
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool parked_ = false;
    bool resumed_ = false;
    std::size_t kept_ = 0;
    std::thread thread_;  // (last: started once the rest is made)
};

}  // namespace relo_test

#endif  // RELO_TESTS_PARKED_THREAD_HPP
