// relo/detail/thread_cache.hpp — how relo keeps memory per thread for the thread's next use, in one place:
// the chunk cache (relo/chunk_cache.hpp), the reservation cache (detail/reservation.hpp) and the warm-block
// cache (detail/large_block.hpp) are each a State held here.
//
// A State is a trivially destructible struct with `bool closed` and `bool guarded`, in a thread_local that
// needs no guard variable on the fast path. Before a thread first keeps something, arm() makes a second
// thread_local whose destructor, when the thread ends, gives everything back (Empty) and closes the cache:
// what the thread releases after that (another thread_local's destructor may) goes straight back. (On
// Windows the State is on the heap and a fiber-local slot's callback closes it: see thread_part.)
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
// the claim ends. On Windows and other POSIX systems, which have no such fence here, the owner's mark is a
// sequentially consistent store instead (a full fence on its side: the same protocol, Dekker's, in the
// C++ model), and so it is under ThreadSanitizer, which models no process-wide fence.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_THREAD_CACHE_HPP
#define RELO_DETAIL_THREAD_CACHE_HPP

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
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
/// Windows and other POSIX systems, where os::process_wide_fence() has no fence to run, and
/// ThreadSanitizer, which models none. Else (Linux) the marks and the claim are relaxed stores and acquire
/// loads with compiler fences between, made full fences by os::process_wide_fence() on the emptying side.
inline constexpr bool owner_marks_fenced = RELO_TSAN || !RELO_HAS_LINUX_VM;
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
#if RELO_OS_WINDOWS
        thread_part* const part = current_part();
        if (RELO_LIKELY(part != nullptr)) return part->state;
        return start_thread_part();
#else
        thread_local State s{};
        return s;
#endif
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

    /// Gives back what the calling thread's cache s keeps, inside a visit; returns the bytes. (A closed
    /// cache keeps nothing and is left alone: on Windows the ended threads' closed state is one.)
    static std::size_t empty(State& s) noexcept { return s.closed ? 0 : Empty(s); }
    /// The same, making the visit.
    static std::size_t trim() noexcept {
        return visit([](State& s) { return empty(s); });
    }

    /// Makes sure the calling thread's cache is emptied when the thread ends (and, for a reclaimable
    /// cache, lists it in the registry).
    static void arm(State& s) noexcept {
        if (s.guarded) return;
        s.guarded = true;
#if RELO_OS_WINDOWS
        // (The thread's part was made with its end's callback: only the registry is left.)
        thread_part* const part = current_part();
        if (part != nullptr && &part->state == &s) enlist(part->entry, s);
#else
        thread_local closer c;
        (void)c;
#endif
    }

private:
    static std::size_t empty_from_registry(reclaimable_cache& c) noexcept { return Empty(static_cast<State&>(c)); }

    /// Lists the thread's cache s in the registry, where another thread may empty it once it is idle.
    static void enlist([[maybe_unused]] reclaimable_entry& entry, [[maybe_unused]] State& s) noexcept {
        if constexpr (reclaimable) {
            if (!idle_caches_can_be_emptied()) return;
            entry.cache = &s;
            entry.empty = &empty_from_registry;
            entry.seen_visits = ~std::size_t{0};  // (seen as a visit on the first pass)
            std::lock_guard<std::mutex> hold(reclaimable_caches.lock);
            entry.next = reclaimable_caches.first;
            if (entry.next != nullptr) entry.next->previous = &entry;
            reclaimable_caches.first = &entry;
        }
    }

    /// At the thread's end: takes its cache off the registry (waiting for a pass that holds it: none sees
    /// it after), gives everything back and closes it.
    static void close([[maybe_unused]] reclaimable_entry& entry, State& s) noexcept {
        if constexpr (reclaimable) {
            if (entry.cache != nullptr) {
                std::lock_guard<std::mutex> hold(reclaimable_caches.lock);
                (entry.previous != nullptr ? entry.previous->next : reclaimable_caches.first) = entry.next;
                if (entry.next != nullptr) entry.next->previous = entry.previous;
            }
        }
        Empty(s);
        s.closed = true;
    }

#if RELO_OS_WINDOWS
    // mingw-w64's GCC emulates thread_local storage and frees a thread's before its thread_local
    // destructors run: a closer there read a new, empty state and left the thread's memory and budget
    // kept for good. So on Windows a thread's state lives on the heap, found through a native TLS slot
    // (valid to the thread's very end), and a fiber-local slot's callback, which the system runs with the
    // state's address when the thread ends, gives it back (after the thread_local destructors or before
    // them: from then on the TLS slot names the closed state of ended threads). The slot is the fiber's
    // that first used the state: a program of fibers has it given back when that fiber ends or is deleted
    // on its thread (its thread goes on without caches); a fiber deleted on another thread leaves it to
    // its thread (which may then end without giving it back: bounded by the warm budget).
    struct thread_part {
        State state{};
        reclaimable_entry entry{};
        DWORD thread = ::GetCurrentThreadId();
    };
    struct slots {
        DWORD part;        // TlsAlloc: the thread's part
        DWORD end;         // FlsAlloc: the same, for the callback at the thread's end
        bool usable;
        // (At the program's end, or a DLL's unloading: no thread's end calls into its code after. The TLS
        // slot stays, for what is destroyed later: the callback pointed this thread's at the closed state.)
        ~slots() {
            if (end != FLS_OUT_OF_INDEXES) (void)::FlsFree(end);
        }
    };
    static const slots& windows_slots() noexcept {
        static const slots made = [] {
            slots s{::TlsAlloc(), ::FlsAlloc(&at_thread_end), false};
            s.usable = s.part != TLS_OUT_OF_INDEXES && s.end != FLS_OUT_OF_INDEXES;
            return s;
        }();
        return made;
    }
    /// The calling thread's part, or null before its first. (TlsGetValue clears the thread's last error:
    /// kept, as the C runtime keeps it around its own per-thread data.)
    static thread_part* current_part() noexcept {
        const DWORD error = ::GetLastError();
        void* const part = ::TlsGetValue(windows_slots().part);
        ::SetLastError(error);
        return static_cast<thread_part*>(part);
    }
    /// The state of the threads that ended (and of those relo could not give one): closed, so what they
    /// give back goes straight back and a trim leaves it alone; armed, so nothing lists it. Shared: only
    /// the visits' counter is written, an atomic that nothing reads.
    static thread_part& ended_part() noexcept {
        static thread_part part;
        static const bool closed = (part.state.closed = part.state.guarded = true);
        (void)closed;
        return part;
    }
    RELO_NOINLINE static State& start_thread_part() noexcept {
        const slots& s = windows_slots();
        if (!s.usable) return ended_part().state;
        auto* const part = new (std::nothrow) thread_part{};
        if (part == nullptr) return ended_part().state;
        if (!::FlsSetValue(s.end, part) || !::TlsSetValue(s.part, part)) {
            (void)::FlsSetValue(s.end, nullptr);
            delete part;
            return ended_part().state;
        }
        return part->state;
    }
    static void WINAPI at_thread_end(void* p) noexcept {
        auto* const part = static_cast<thread_part*>(p);
        if (part->thread != ::GetCurrentThreadId()) return;  // (a fiber deleted on another thread)
        (void)::TlsSetValue(windows_slots().part, &ended_part());
        close(part->entry, part->state);
        delete part;
    }
#else
    struct closer {
        reclaimable_entry entry{};
        closer() noexcept { enlist(entry, state()); }
        ~closer() { close(entry, state()); }
    };
#endif
};

}  // namespace relo::detail

#endif  // RELO_DETAIL_THREAD_CACHE_HPP
