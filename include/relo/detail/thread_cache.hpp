// relo/detail/thread_cache.hpp — how relo keeps memory per thread for the thread's next use, in one place:
// the chunk cache (relo/chunk_cache.hpp), the reservation cache (detail/reservation.hpp) and the warm-block
// cache (detail/large_block.hpp) are each a State held here.
//
// A State is a trivially destructible struct with `bool closed` and `bool guarded`, in a thread_local that
// needs no guard variable on the fast path. Before a thread first keeps something, arm() makes a second
// thread_local whose destructor, when the thread ends, gives everything back (Empty) and closes the cache:
// what the thread releases after that (another thread_local's destructor may) goes straight back.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_THREAD_CACHE_HPP
#define RELO_DETAIL_THREAD_CACHE_HPP

#include <type_traits>

namespace relo::detail {

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
