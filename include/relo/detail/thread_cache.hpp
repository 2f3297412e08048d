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
//
// And over time: a cache whose State derives from reclaimable_cache is listed in a registry while its
// thread lives, and any thread may empty the caches whose owners have not visited them for a while
// (empty_idle_caches: relo::trim_idle_warm_memory, and every thread's activity once the idle delay has
// passed). The owner's side stays free of locks and read-modify-writes, because a cache sits on the path
// of every chunk a resource takes: the owner marks each visit with plain stores and a compiler fence
// (owner_visit), the emptying thread claims the idle caches, runs os::process_wide_fence() (membarrier:
// every running thread executes a full fence), and empties a claimed cache only if its owner is not in it
// and has not come back since it was found idle; an owner that comes back to a claimed cache waits until
// the claim ends. On another POSIX system, which has no such fence, the owner's mark is a sequentially
// consistent store instead (a full fence on its side: the same protocol, Dekker's, in the C++ model), and
// so it is under ThreadSanitizer, which models no process-wide fence. On Windows nothing is emptied before
// its thread ends (os::process_wide_fence_ready says why): the budget alone bounds it.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_THREAD_CACHE_HPP
#define RELO_DETAIL_THREAD_CACHE_HPP

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>

#include "relo/detail/config.hpp"
#include "relo/detail/os_memory.hpp"
#include "relo/detail/sanitizers.hpp"

namespace relo::detail {

/// The bytes all threads' caches keep, and the most they may keep together (relo::set_warm_memory_limit).
inline std::atomic<std::size_t> warm_bytes_of_process{0};
inline std::atomic<std::size_t> warm_memory_limit_bytes{std::size_t{32} << 20};

/// How long a thread's caches stay unused before another thread's activity gives them back
/// (relo::set_warm_memory_idle_delay; docs/measurements/memory_resources.md, "Idle threads").
inline std::atomic<std::int64_t> warm_memory_idle_delay_ns{std::int64_t{1000} * 1000 * 1000};

/// The part of a thread cache's State another thread reads to empty it while the owner stays away.
struct reclaimable_cache {
    std::atomic<std::size_t> visits;  // odd while the owner is inside; one more at each entry and at each exit
    std::atomic<bool> claimed;        // another thread is emptying the cache, or deciding whether to
};

/// A reclaimable cache in the registry (held by the thread's closer). Past `empty`, the fields belong to
/// the thread holding the registry's lock.
struct reclaimable_entry {
    reclaimable_cache* cache;
    std::size_t (*empty)(reclaimable_cache&) noexcept;  // gives everything back; returns the bytes
    reclaimable_entry* next;
    reclaimable_entry* previous;
    std::size_t seen_visits;  // `visits` when last read
    std::int64_t idle_since_ns;  // when `visits` was first seen at that value
    bool emptied;                // since `visits` had that value
    bool claimed;                // in this pass
};

/// Every living thread's reclaimable caches.
struct reclaimable_registry {
    std::mutex lock;
    reclaimable_entry* first = nullptr;
    std::atomic<std::int64_t> next_pass_ns{0};  // activity looks for idle caches again from then on
};
inline reclaimable_registry reclaimable_caches;

inline std::int64_t steady_now_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Whether the owner's mark is itself a full fence (a sequentially consistent store, as the claim is):
/// another POSIX system, which has no process-wide fence, and ThreadSanitizer, which models none. Else the
/// marks and the claim are relaxed stores and acquire loads with compiler fences between, made full fences
/// by os::process_wide_fence() on the emptying side. (Not on Windows: os::process_wide_fence_ready.)
inline constexpr bool owner_marks_fenced = RELO_TSAN || (!RELO_OS_WINDOWS && !RELO_HAS_LINUX_VM);
inline constexpr std::memory_order visit_mark_order =
    owner_marks_fenced ? std::memory_order_seq_cst : std::memory_order_relaxed;
inline constexpr std::memory_order visit_read_order =
    owner_marks_fenced ? std::memory_order_seq_cst : std::memory_order_acquire;

/// Whether caches can be emptied by another thread here (the owners' marks are fences, or a process-wide
/// fence exists).
inline bool idle_caches_can_be_emptied() noexcept { return owner_marks_fenced || os::process_wide_fence_ready(); }

/// Empties every registered cache whose owner has not visited it for `idle_for` (nanoseconds) and is
/// not in it, with the registry's lock held; returns the bytes given back.
inline std::size_t empty_idle_caches_locked(std::int64_t idle_for) noexcept {
    if (!idle_caches_can_be_emptied()) return 0;
    const std::int64_t now = steady_now_ns();
    bool any = false;
    for (reclaimable_entry* e = reclaimable_caches.first; e != nullptr; e = e->next) {
        e->claimed = false;
        const std::size_t visits = e->cache->visits.load(visit_read_order);
        if (visits != e->seen_visits) {
            e->seen_visits = visits;
            e->idle_since_ns = now;
            e->emptied = false;
        }
        if (visits % 2 != 0 || e->emptied || now - e->idle_since_ns < idle_for) continue;
        e->cache->claimed.store(true, visit_mark_order);
        e->claimed = any = true;
    }
    if (!any) return 0;
    const bool fenced = owner_marks_fenced || os::process_wide_fence();  // (cannot fail once it has worked)
    std::size_t given_back = 0;
    for (reclaimable_entry* e = reclaimable_caches.first; e != nullptr; e = e->next) {
        if (!e->claimed) continue;
        // The owner's mark made before the fence is seen now; a visit after it sees the claim and waits.
        if (fenced && e->cache->visits.load(visit_read_order) == e->seen_visits) {
            given_back += e->empty(*e->cache);
            e->emptied = true;
        }
        e->cache->claimed.store(false, std::memory_order_release);
    }
    return given_back;
}

/// Empties the caches idle for at least `idle_for`, waiting for the registry's lock.
inline std::size_t empty_idle_caches(std::int64_t idle_for) noexcept {
    std::lock_guard<std::mutex> hold(reclaimable_caches.lock);
    return empty_idle_caches_locked(idle_for);
}

/// Activity's look for idle caches: at most one pass per half idle delay in the process, never waiting
/// for another pass. True if it gave something back.
RELO_NOINLINE inline bool empty_idle_caches_if_due() noexcept {
    const std::int64_t now = steady_now_ns();
    if (now < reclaimable_caches.next_pass_ns.load(std::memory_order_relaxed)) return false;
    std::unique_lock<std::mutex> hold(reclaimable_caches.lock, std::try_to_lock);
    if (!hold.owns_lock()) return false;
    const std::int64_t delay = warm_memory_idle_delay_ns.load(std::memory_order_relaxed);
    reclaimable_caches.next_pass_ns.store(now + (delay > 2 ? delay / 2 : 1), std::memory_order_relaxed);
    return empty_idle_caches_locked(delay) != 0;
}

/// The owner's side: marks a visit to its own cache for as long as it lives. A visit that finds the
/// cache claimed waits for the claim to end; every 256th visit looks for other threads' idle caches
/// once it has left its own (a clock read; a pass at most once per half idle delay in the process).
class owner_visit {
public:
    RELO_ALWAYS_INLINE explicit owner_visit(reclaimable_cache& c) noexcept
        : cache_(c), entered_(c.visits.load(std::memory_order_relaxed) + 1) {
        c.visits.store(entered_, visit_mark_order);
        if constexpr (!owner_marks_fenced)
            std::atomic_signal_fence(std::memory_order_seq_cst);  // (the fence process_wide_fence() completes)
        if (RELO_UNLIKELY(c.claimed.load(visit_read_order))) wait_for_claim(c);
    }
    RELO_ALWAYS_INLINE ~owner_visit() {
        const std::size_t left = entered_ + 1;  // (only the owner writes `visits`)
        cache_.visits.store(left, std::memory_order_release);
        if (RELO_UNLIKELY(left % 512 == 0)) empty_idle_caches_if_due();
    }
    owner_visit(const owner_visit&) = delete;
    owner_visit& operator=(const owner_visit&) = delete;

private:
    RELO_NOINLINE static void wait_for_claim(reclaimable_cache& c) noexcept {
        while (c.claimed.load(std::memory_order_acquire)) std::this_thread::yield();
    }

    reclaimable_cache& cache_;
    std::size_t entered_;
};

/// Takes `bytes` of the process's warm budget for a block a cache is about to keep; false, nothing taken,
/// when less is left (after giving back idle threads' caches, if a look for them is due).
inline bool take_warm_budget(std::size_t bytes) noexcept {
    const std::size_t limit = warm_memory_limit_bytes.load(std::memory_order_relaxed);
    if (bytes > limit) return false;
    bool looked = false;
    std::size_t held = warm_bytes_of_process.load(std::memory_order_relaxed);
    for (;;) {
        if (held > limit - bytes) {
            if (looked || !empty_idle_caches_if_due()) return false;
            looked = true;
            held = warm_bytes_of_process.load(std::memory_order_relaxed);
            continue;
        }
        if (warm_bytes_of_process.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed)) return true;
    }
}

/// What the process's warm budget has left now for a block of `wanted` bytes (other threads may take it
/// before this one does; when less than `wanted` is left, idle threads' caches are given back first if a
/// look for them is due).
inline std::size_t warm_budget_left(std::size_t wanted) noexcept {
    const std::size_t limit = warm_memory_limit_bytes.load(std::memory_order_relaxed);
    std::size_t held = warm_bytes_of_process.load(std::memory_order_relaxed);
    if ((held >= limit || limit - held < wanted) && empty_idle_caches_if_due())
        held = warm_bytes_of_process.load(std::memory_order_relaxed);
    return held < limit ? limit - held : 0;
}

/// Gives back the budget of `bytes` a cache no longer keeps.
inline void return_warm_budget(std::size_t bytes) noexcept {
    warm_bytes_of_process.fetch_sub(bytes, std::memory_order_relaxed);
}

template <class State, auto Empty>
class thread_cache {
    static_assert(std::is_trivially_destructible_v<State>, "relo: a thread cache's state outlives its closer");
    static constexpr bool reclaimable = std::is_base_of_v<reclaimable_cache, State>;

public:
    /// The calling thread's state.
    static State& state() noexcept {
        thread_local State s{};
        return s;
    }

    /// f(the calling thread's state), inside a visit of its owner (for a reader or a trim of a reclaimable
    /// cache: another thread may empty it meanwhile otherwise).
    template <class F>
    static auto visit(F f) noexcept {
        static_assert(reclaimable, "relo: only a reclaimable cache has visits");
        State& s = state();
        const owner_visit inside(s);
        return f(s);
    }

    /// Makes sure the calling thread's cache is emptied when the thread ends (and, for a reclaimable
    /// cache, lists it in the registry).
    static void arm(State& s) noexcept {
        if (s.guarded) return;
        s.guarded = true;
        thread_local closer c;
        (void)c;
    }

private:
    static std::size_t empty_from_registry(reclaimable_cache& c) noexcept { return Empty(static_cast<State&>(c)); }

    struct closer {
        reclaimable_entry entry{};

        closer() noexcept {
            if constexpr (reclaimable) {
                // (Only where another thread can empty it: elsewhere a thread's end may not run its
                // closer, mingw-w64's, and the registry would keep its entry.)
                if (!idle_caches_can_be_emptied()) return;
                entry.cache = &state();
                entry.empty = &empty_from_registry;
                entry.seen_visits = ~std::size_t{0};  // (seen as a visit on the first pass)
                std::lock_guard<std::mutex> hold(reclaimable_caches.lock);
                entry.next = reclaimable_caches.first;
                if (entry.next != nullptr) entry.next->previous = &entry;
                reclaimable_caches.first = &entry;
            }
        }
        ~closer() {
            if constexpr (reclaimable) {
                if (entry.cache != nullptr) {
                    std::lock_guard<std::mutex> hold(reclaimable_caches.lock);
                    (entry.previous != nullptr ? entry.previous->next : reclaimable_caches.first) = entry.next;
                    if (entry.next != nullptr) entry.next->previous = entry.previous;
                }
            }
            State& s = state();
            Empty(s);
            s.closed = true;
        }
    };
};

}  // namespace relo::detail

#endif  // RELO_DETAIL_THREAD_CACHE_HPP
