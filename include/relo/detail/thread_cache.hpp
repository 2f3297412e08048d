// relo/detail/thread_cache.hpp — how relo keeps memory per thread for the thread's next use, in one place:
// the chunk cache (relo/chunk_cache.hpp), the reservation cache (detail/reservation.hpp) and the warm-block
// cache (detail/large_block.hpp) are each a State held here.
//
// A State is a trivially destructible struct with `bool closed` and `bool guarded`, in a thread_local that
// needs no guard variable on the fast path. Before a thread first keeps something, arm() makes a second
// thread_local whose destructor, when the thread ends, gives everything back (Empty) and closes the cache:
// what the thread releases after that (another thread_local's destructor may) goes straight back.
//
// What all threads' caches keep together is bounded too, by one budget for the process (the warm budget,
// relo/warm_memory.hpp): a cache keeps a block only after taking its bytes from the budget, and gives them
// back when the block leaves the cache. Threads that each keep a little are fine; a pool of threads that
// each built a large structure and went idle keeps the budget in all, not its per-thread bounds times the
// threads.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_THREAD_CACHE_HPP
#define RELO_DETAIL_THREAD_CACHE_HPP

#include <atomic>
#include <cstddef>
#include <type_traits>

namespace relo::detail {

/// The bytes all threads' caches keep, and the most they may keep together (relo::set_warm_memory_limit).
inline std::atomic<std::size_t> warm_bytes_of_process{0};
inline std::atomic<std::size_t> warm_memory_limit_bytes{std::size_t{32} << 20};

/// Takes `bytes` of the process's warm budget for a block a cache is about to keep; false, nothing taken,
/// when less is left.
inline bool take_warm_budget(std::size_t bytes) noexcept {
    const std::size_t limit = warm_memory_limit_bytes.load(std::memory_order_relaxed);
    std::size_t held = warm_bytes_of_process.load(std::memory_order_relaxed);
    do {
        if (bytes > limit || held > limit - bytes) return false;
    } while (!warm_bytes_of_process.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
    return true;
}

/// What the process's warm budget has left now (other threads may take it before this one does).
inline std::size_t warm_budget_left() noexcept {
    const std::size_t limit = warm_memory_limit_bytes.load(std::memory_order_relaxed);
    const std::size_t held = warm_bytes_of_process.load(std::memory_order_relaxed);
    return held < limit ? limit - held : 0;
}

/// Gives back the budget of `bytes` a cache no longer keeps.
inline void return_warm_budget(std::size_t bytes) noexcept {
    warm_bytes_of_process.fetch_sub(bytes, std::memory_order_relaxed);
}

template <class State, void (*Empty)(State&) noexcept>
class thread_cache {
    static_assert(std::is_trivially_destructible_v<State>, "relo: a thread cache's state outlives its closer");

public:
    /// The calling thread's state.
    static State& state() noexcept {
        thread_local State s{};
        return s;
    }

    /// Makes sure the calling thread's cache is emptied when the thread ends.
    static void arm(State& s) noexcept {
        if (s.guarded) return;
        s.guarded = true;
        thread_local closer c;
        (void)c;
    }

private:
    struct closer {
        ~closer() {
            State& s = state();
            Empty(s);
            s.closed = true;
        }
    };
};

}  // namespace relo::detail

#endif  // RELO_DETAIL_THREAD_CACHE_HPP
