// relo/detail/thread_cache.hpp — how relo keeps memory per thread for the thread's next use, in one place:
// the chunk cache (relo/chunk_cache.hpp), the reservation cache (detail/reservation.hpp), the warm-block
// cache (detail/large_block.hpp) and the synchronized multipool's bins are each a State held here.
//
// Only its own thread touches a cache: no lock, no registry, no other thread's visit. A thread's State
// lives in a part on the heap, found through a thread_local pointer (on Windows a native TLS slot:
// mingw-w64 frees its emulated thread_local storage before thread_local destructors run), made at the
// thread's first use with a callback for the thread's end: a pthread key's destructor (a fiber-local
// slot's on Windows), which gives everything back (Empty), closes the cache and frees the part; what the
// thread releases after that goes straight back (the thread's pointer names a shared closed part).
//
// The process's warm budget (relo/warm_memory.hpp) is one atomic counter: a cache keeps a block only after
// taking its bytes from it, and gives them back when the block leaves. A thread gives its caches back
// itself: at its end, on trim_warm_memory(), and at its first keep in a cache after keeping nothing there
// for the idle delay (what it held was not asked for meanwhile: it goes first). A thread that never comes
// back keeps what it holds, within the budget (as gperftools' thread caches do).
//
// fork(): relo registers no handler. The child's thread is the forking one, whose caches are whole (but
// for a signal handler that forked inside one: that cache is left busy and the child goes without it);
// the other threads' parts are abandoned there, their pages shared copy-on-write with the parent, and the
// budget goes on counting them, so the child keeps at most the budget less what they held.
//
// A signal handler that uses relo while its thread is inside one of its caches (a visit open) finds the
// cache busy and goes straight to the heap and the system instead, leaving the interrupted visit alone.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_THREAD_CACHE_HPP
#define RELO_DETAIL_THREAD_CACHE_HPP

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "relo/detail/config.hpp"
#include "relo/detail/os_memory.hpp"
#include "relo/detail/sync.hpp"
#include "relo/detail/warm_settings.hpp"

#if !RELO_OS_WINDOWS
#include <pthread.h>
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// Whether the caches keep anything: -DRELO_DETAIL_NO_WARM_CACHES builds them out (every block straight back,
/// no visit), for measuring what they cost (docs/testing.md). Not for mixing with other units.
#ifdef RELO_DETAIL_NO_WARM_CACHES
inline constexpr bool warm_caches_built = false;
#else
inline constexpr bool warm_caches_built = true;
#endif

/// The bytes all threads' caches keep together.
inline atomic<std::size_t> warm_bytes_of_process{0};

/// Gives the calling thread's synchronized-pool bins back (set by relo/synchronized_multipool_resource.hpp
/// when it makes a pool, for relo::trim_warm_memory).
inline atomic<void (*)() noexcept> trim_own_bins{nullptr};

/// The part of every thread cache's State that thread_cache reads and writes (only its own thread does).
struct thread_cache_state {
    atomic<bool> busy;  // a visit is open: a signal handler that interrupts it does without the cache
    bool closed;        // the ended threads' shared state: what is given to it goes straight back
    std::int64_t kept_at_ns;  // the last keep (idle_clock_ns), 0 before the first
    /// When this copy of relo ends (the program's end, the library's unloading): whether the calling
    /// thread's state is given back and freed. A State whose give-back may wait for other threads gives
    /// back only what needs no wait, and says whether anything is left.
    static constexpr bool let_go_at_copy_end(thread_cache_state&) noexcept { return true; }
};

/// A visit of the calling thread to its own cache, for as long as this object lives: marks the cache busy,
/// so that a signal handler that interrupts the visit and uses relo leaves it alone (inside() is false
/// there: its caller uses the closed state). The closed state is shared by every ended thread and never
/// marked. (Relaxed stores and compiler fences: only the thread and its handlers read the mark.)
class owner_visit {
public:
    RELO_ALWAYS_INLINE explicit owner_visit(thread_cache_state& c) noexcept
        : cache_(c), inside_(!c.closed && !c.busy.load(memory_order_relaxed)) {
        if (!inside_) return;
        cache_.busy.store(true, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
    }
    RELO_ALWAYS_INLINE ~owner_visit() {
        if (!inside_) return;
        atomic_signal_fence(memory_order_seq_cst);
        cache_.busy.store(false, memory_order_relaxed);
    }
    owner_visit(const owner_visit&) = delete;
    owner_visit& operator=(const owner_visit&) = delete;

    /// False for a visit of a closed cache, or one nested in another visit of the thread (a signal handler).
    bool inside() const noexcept { return inside_; }

private:
    thread_cache_state& cache_;
    bool inside_;
};

/// Takes `bytes` of the process's warm budget for a block a cache is about to keep; false, nothing taken,
/// when less is left.
inline bool take_warm_budget(std::size_t bytes) noexcept {
    const std::size_t limit = warm_memory_limit_setting();
    if (!warm_caches_built || bytes > limit) return false;
    std::size_t held = warm_bytes_of_process.load(memory_order_relaxed);
    do {
        if (held > limit - bytes) return false;
    } while (!warm_bytes_of_process.compare_exchange_weak(held, held + bytes, memory_order_relaxed));
    return true;
}

/// What the process's warm budget has left now (other threads may take it before this one does).
inline std::size_t warm_budget_left() noexcept {
    const std::size_t limit = warm_memory_limit_setting();
    const std::size_t held = warm_bytes_of_process.load(memory_order_relaxed);
    return held < limit ? limit - held : 0;
}

/// Gives back the budget of `bytes` a cache no longer keeps.
inline void return_warm_budget(std::size_t bytes) noexcept {
    warm_bytes_of_process.fetch_sub(bytes, memory_order_relaxed);
}

template <class State, auto Empty>
class thread_cache {
    static_assert(std::is_trivially_destructible_v<State>, "relo: a thread cache's state is freed with its part");
    static_assert(std::is_base_of_v<thread_cache_state, State>, "relo: a thread cache's state is a thread_cache_state");

public:
    /// The calling thread's state.
    RELO_ALWAYS_INLINE static State& state() noexcept {
        thread_part* const part = current_part();
        if (RELO_LIKELY(part != nullptr)) return part->state;
        return start_thread_part();
    }

    /// The calling thread's state, or null before its first use (a fast path that leaves the first to a
    /// slow one).
    RELO_ALWAYS_INLINE static State* existing_state() noexcept {
        thread_part* const part = current_part();
        return RELO_LIKELY(part != nullptr) ? &part->state : nullptr;
    }

    /// f(the calling thread's state) inside a visit; f(the closed state) where the visit is nested.
    template <class F>
    static auto visit(F f) noexcept {
        State& s = state();
        const owner_visit inside(s);
        return f(visited(inside, s));
    }
    /// s, or the closed state where the visit is not inside it (not to be touched).
    static State& visited(const owner_visit& v, State& s) noexcept { return v.inside() ? s : ended_part().state; }

    /// Gives back what the calling thread's cache s keeps, inside a visit; returns the bytes. (A closed
    /// cache keeps nothing and is left alone.)
    static std::size_t empty(State& s) noexcept { return s.closed ? 0 : Empty(s); }
    /// The same, making the visit.
    static std::size_t trim() noexcept {
        return visit([](State& s) { return empty(s); });
    }

    /// Called inside a visit about to keep a block in s (not closed): when s kept nothing for the idle delay,
    /// what it holds goes back first (nothing asked for it since); the keep's time is noted.
    static void keeping(State& s) noexcept {
        const std::int64_t now = idle_clock_ns();
        if (s.kept_at_ns != 0 && idle_long_enough(s.kept_at_ns, now, warm_memory_idle_delay_setting())) (void)Empty(s);
        s.kept_at_ns = now;
    }

    /// The calling thread's cache given back when it kept nothing for `idle_for` (any time: idle_for <= 0);
    /// the bytes.
    static std::size_t trim_if_idle(std::int64_t idle_for) noexcept {
        return visit([idle_for](State& s) {
            return s.closed || !idle_long_enough(s.kept_at_ns, idle_clock_ns(), idle_for) ? std::size_t{0} : Empty(s);
        });
    }

private:
    struct closed_tag {};
    struct thread_part {
        State state{};
#if RELO_OS_WINDOWS
        DWORD thread = ::GetCurrentThreadId();
#endif
        thread_part() noexcept = default;
        /// The ended threads' part, closed (constant-initialized).
        constexpr explicit thread_part(closed_tag) noexcept
#if RELO_OS_WINDOWS
            : thread(0)
#endif
        {
            state.closed = true;
        }
    };

    /// At the thread's end: gives everything back, closes the part and frees it.
    static void close(thread_part* part) noexcept {
        Empty(part->state);
        part->state.closed = true;
        delete part;
    }

    /// The state of the threads that ended (and of those relo could not give one): closed, so what they
    /// give back goes straight back and a trim leaves it alone. Shared, and never written.
    static thread_part& ended_part() noexcept {
        RELO_CONSTINIT static thread_part part{closed_tag{}};  // (no guard: see RELO_CONSTINIT)
        return part;
    }

#if RELO_OS_WINDOWS
    // The part's address is in a native TLS slot (valid to the thread's very end), and a fiber-local
    // slot's callback, which the system runs with it when the thread ends, gives it back (after the
    // thread_local destructors or before them: from then on the TLS slot names the closed part). The slot
    // is the fiber's that first used the state: a program of fibers has it given back when that fiber
    // ends or is deleted on its thread (its thread goes on without caches); a fiber deleted on another
    // thread leaves it to its thread (which may then end without giving it back: bounded by the warm
    // budget).
    struct slots {
        DWORD part;  // TlsAlloc: the thread's part
        DWORD end;   // FlsAlloc: the same, for the callback at the thread's end
        atomic<bool> usable;
        slots() noexcept : part(::TlsAlloc()), end(::FlsAlloc(&at_thread_end)), usable(false) {
            usable.store(part != TLS_OUT_OF_INDEXES && end != FLS_OUT_OF_INDEXES);
        }
        // At the program's end, or a DLL's unloading, as on POSIX: no part made after, no thread's end
        // calling into the code after. (The TLS slot stays, for what is destroyed later: the callback
        // points this thread's at the closed part.)
        ~slots() {
            if (!usable.exchange(false)) return;
            if (end != FLS_OUT_OF_INDEXES) (void)::FlsFree(end);
        }
    };
    static slots& thread_slots() noexcept {
        static slots made;
        return made;
    }
    /// The calling thread's part, or null before its first. (TlsGetValue clears the thread's last error:
    /// kept, as the C runtime keeps it around its own per-thread data.)
    RELO_ALWAYS_INLINE static thread_part* current_part() noexcept {
        const DWORD error = ::GetLastError();
        void* const part = ::TlsGetValue(thread_slots().part);
        ::SetLastError(error);
        return static_cast<thread_part*>(part);
    }
    RELO_NOINLINE static State& start_thread_part() noexcept {
        slots& s = thread_slots();
        if (!s.usable.load(memory_order_acquire)) return ended_part().state;
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
        (void)::TlsSetValue(thread_slots().part, &ended_part());
        close(part);
    }
#else
    // The part's address is in a thread_local pointer (constant-initialized: no guard), and in a pthread
    // key whose destructor gives it back at the thread's end. The key is deleted when this copy of relo is
    // unloaded (or the program ends), after the calling thread's part is given back: no thread's end calls
    // into code that is gone (other living threads' parts are left on the heap, what they hold within the
    // budget), and a part made after that is not made (the thread uses the closed one).
    //
    // The key is made by pthread_once at the first use, not by a guarded static's constructor: a child
    // forked while another thread was inside such a constructor waited for that thread for good at its
    // own first use (glibc's pthread_once starts it again in the child). Its deletion is registered then
    // with atexit, which glibc ties to the module that calls it (run when it is unloaded), as a static's
    // destructor would be.
    static inline thread_local thread_part* current_ = nullptr;
    struct slots {
        pthread_key_t end{};
        atomic<bool> usable{false};
    };
    static inline slots slots_{};  // (constant-initialized: no guard)
    static inline pthread_once_t slots_made_ = PTHREAD_ONCE_INIT;
    static void make_slots() noexcept {
        const bool made = ::pthread_key_create(&slots_.end, &at_thread_end) == 0;
        slots_.usable.store(made, memory_order_release);
        if (made) (void)std::atexit(&unmake_slots);
    }
    static void unmake_slots() noexcept {
        if (!slots_.usable.exchange(false)) return;
        (void)::pthread_key_delete(slots_.end);
        // The calling thread's own (what is destroyed after this goes straight back).
        thread_part* const part = current_;
        if (part != nullptr && part != &ended_part() && State::let_go_at_copy_end(part->state)) {
            current_ = &ended_part();
            close(part);
        }
    }
    static slots& thread_slots() noexcept {
        (void)::pthread_once(&slots_made_, &make_slots);
        return slots_;
    }
    RELO_ALWAYS_INLINE static thread_part* current_part() noexcept { return current_; }
    RELO_NOINLINE static State& start_thread_part() noexcept {
        slots& s = thread_slots();
        if (!s.usable.load(memory_order_acquire)) {
            current_ = &ended_part();  // (this copy has ended: no slow path again)
            return ended_part().state;
        }
        auto* const part = new (std::nothrow) thread_part{};
        if (part == nullptr) return ended_part().state;
        if (::pthread_setspecific(s.end, part) != 0) {
            delete part;
            return ended_part().state;
        }
        current_ = part;
        return part->state;
    }
    static void at_thread_end(void* p) noexcept {
        current_ = &ended_part();
        close(static_cast<thread_part*>(p));
    }
#endif
};

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_THREAD_CACHE_HPP
