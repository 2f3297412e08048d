// relo/detail/thread_cache.hpp — how relo keeps memory per thread for the thread's next use, in one place:
// the chunk cache (relo/chunk_cache.hpp), the reservation cache (detail/reservation.hpp), the warm-block
// cache (detail/large_block.hpp) and the synchronized multipool's bins are each a State held here.
//
// A thread's State lives in a part on the heap, found through a thread_local pointer (on Windows a native
// TLS slot: mingw-w64 frees its emulated thread_local storage before thread_local destructors run), made
// at the thread's first use with a callback for the thread's end: a pthread key's destructor (a fiber-local
// slot's on Windows). The callback gives everything back (Empty), closes the cache and frees the part;
// what the thread releases after that goes straight back (the thread's pointer names a shared closed
// part). A key's destructor runs after every thread_local destructor of the thread and again in a later
// round when another key's destructor first uses the cache; a part whose thread ends without it (a first
// use in the system's last round) is never freed, and stays on the heap, not in a dead thread's storage.
//
// What all threads' caches keep together is bounded too, by one budget for the process (the warm budget,
// relo/warm_memory.hpp): a cache keeps a block only after taking its bytes from the budget, and gives them
// back when the block leaves the cache. Threads that each keep a little are fine; a pool of threads that
// each built a large structure and went idle keeps the budget in all, not its per-thread bounds times the
// threads.
//
// And over time: a cache whose State derives from reclaimable_cache is listed in a registry once it keeps
// something, and any thread may empty the caches whose owners have not visited them for a while
// (empty_idle_caches: relo::trim_idle_warm_memory, and every thread's activity once the idle delay has
// passed). The owner's side takes no lock and no read-modify-write: it marks each visit with a plain store
// and a compiler fence, the emptying thread claims an idle cache, runs os::process_wide_fence() (Linux's
// membarrier: every running thread executes a full fence), reads the mark again and empties the cache
// only if its owner is not in it and has not come back since it was found idle. Until the process is
// registered for that fence (at the first keep if the process has one thread then, else at the first
// pass that finds idle caches), and for good where it cannot be (another system, a sandbox that denies
// membarrier, RELO_MEMBARRIER=0, ThreadSanitizer), the owner's mark is a sequentially consistent store
// instead: the same protocol, Dekker's, in the C++ model. An owner that comes back to a claimed cache
// leaves it and waits until the claim ends. A visit that finds its own cache already visited (a signal
// handler interrupting the owner inside it) uses the closed part instead: it works, straight to the
// system, and leaves the interrupted visit's cache alone. No system call is made for any of this before
// a thread first keeps something.
//
// fork(): the registry's lock is one of detail/fork_guard.hpp's, taken last, with every other thread's
// listed cache claimed and no owner inside one; in the child those threads' parts (which no thread owns
// there) are emptied and freed.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_THREAD_CACHE_HPP
#define RELO_DETAIL_THREAD_CACHE_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "relo/detail/config.hpp"
#include "relo/detail/contracts.hpp"
#include "relo/detail/fork_guard.hpp"
#include "relo/detail/os_memory.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/detail/sync.hpp"

#if !RELO_OS_WINDOWS
#include <pthread.h>
#include <time.h>
#endif

// The build's defaults of the warm budget's settings (docs/settings.md, which says why each is what it is):
// -DRELO_DEFAULT_WARM_MEMORY_LIMIT=<bytes> (0: no cache keeps anything) and
// -DRELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS=<milliseconds>, the same in every unit of a program. The
// environment's RELO_WARM_MEMORY_LIMIT and RELO_WARM_MEMORY_IDLE_DELAY_MS win over them.
#ifndef RELO_DEFAULT_WARM_MEMORY_LIMIT
#define RELO_DEFAULT_WARM_MEMORY_LIMIT (std::uint64_t{32} << 20)
#endif
#ifndef RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS
#define RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS 1000
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// The bytes all threads' caches keep together.
inline atomic<std::size_t> warm_bytes_of_process{0};

// The warm budget's two settings (docs/settings.md): the most all threads' caches keep together
// (relo::set_warm_memory_limit) and how long a thread's caches stay unused before another thread's
// activity gives them back (relo::set_warm_memory_idle_delay). Each starts unread: its first use reads
// the environment a host program gives (RELO_WARM_MEMORY_LIMIT, RELO_WARM_MEMORY_IDLE_DELAY_MS), else
// takes the build's default; a setter called before that first use wins over both.
inline constexpr std::size_t unread_limit = ~std::size_t{0};
inline constexpr std::int64_t unread_delay = -1;
inline atomic<std::size_t> warm_memory_limit_bytes{unread_limit};
inline atomic<std::int64_t> warm_memory_idle_delay_ns{unread_delay};
static_assert(std::is_integral_v<decltype(RELO_DEFAULT_WARM_MEMORY_LIMIT)> && RELO_DEFAULT_WARM_MEMORY_LIMIT >= 0,
              "relo: RELO_DEFAULT_WARM_MEMORY_LIMIT is a number of bytes");
static_assert(std::is_integral_v<decltype(RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS)> &&
                  RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS >= 0,
              "relo: RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS is a number of milliseconds");

/// The value of a setting: a decimal count, then (when `suffixes`) nothing or a binary multiple written
/// K, KB or KiB (M, G alike; any case). False, `value` untouched, for anything else (a sign, spaces, other
/// letters, overflow).
inline bool parse_setting(const char* text, std::uint64_t& value, bool suffixes = true) noexcept {
    std::uint64_t n = 0;
    const char* p = text;
    for (; *p >= '0' && *p <= '9'; ++p) {
        const std::uint64_t digit = static_cast<std::uint64_t>(*p - '0');
        if (n > (~std::uint64_t{0} - digit) / 10) return false;
        n = n * 10 + digit;
    }
    if (p == text) return false;
    unsigned shift = 0;
    if (*p != '\0') {
        switch (*p++) {
            case 'K': case 'k': shift = 10; break;
            case 'M': case 'm': shift = 20; break;
            case 'G': case 'g': shift = 30; break;
            default: return false;
        }
        if ((p[0] == 'i' || p[0] == 'I') && (p[1] == 'B' || p[1] == 'b')) p += 2;
        else if (p[0] == 'B' || p[0] == 'b') p += 1;
        if (!suffixes || *p != '\0' || n > (~std::uint64_t{0} >> shift)) return false;
    }
    value = n << shift;
    return true;
}

/// A setting from the environment: true and its value when the variable is set to one (an empty value is
/// unset); when it is set to something else, false and the text (at most `size` - 1 characters) in `bad`.
inline bool environment_setting(const char* name, std::uint64_t& value, bool suffixes, char* bad,
                                std::size_t size) noexcept {
    bad[0] = '\0';
    char text[64];
    if (!os::environment_variable(name, text, sizeof text) || text[0] == '\0') return false;
    if (parse_setting(text, value, suffixes)) return true;
    for (std::size_t i = 0; i + 1 < size && text[i] != '\0'; ++i, bad[i] = '\0') bad[i] = text[i];
    return false;
}

/// Reads the settings not read yet (from the environment, else the build's defaults; docs/settings.md).
/// Threads that race here read the same environment; a setter's value is never replaced; the one whose
/// value is stored says on stderr that a value the environment gave was not a number.
RELO_NOINLINE inline void read_warm_memory_settings() noexcept {
    char bad[64];
    const char* const bad_format = "relo: %s=\"%s\" is not %s: ignored\n";
    if (warm_memory_limit_bytes.load(memory_order_relaxed) == unread_limit) {
        std::uint64_t bytes = RELO_DEFAULT_WARM_MEMORY_LIMIT;
        environment_setting("RELO_WARM_MEMORY_LIMIT", bytes, true, bad, sizeof bad);
        if (bytes >= unread_limit) bytes = unread_limit - 1;
        std::size_t expected = unread_limit;
        if (warm_memory_limit_bytes.compare_exchange_strong(expected, static_cast<std::size_t>(bytes),
                                                            memory_order_relaxed) && bad[0] != '\0')
            print_to(stderr, bad_format, "RELO_WARM_MEMORY_LIMIT", bad, "a size (digits, then nothing, K, KB, KiB, M, MB, MiB, G, GB or GiB)");
    }
    if (warm_memory_idle_delay_ns.load(memory_order_relaxed) == unread_delay) {
        std::uint64_t ms = RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS;
        environment_setting("RELO_WARM_MEMORY_IDLE_DELAY_MS", ms, false, bad, sizeof bad);
        const std::uint64_t most = static_cast<std::uint64_t>(INT64_MAX / (1000 * 1000));
        std::int64_t expected = unread_delay;
        if (warm_memory_idle_delay_ns.compare_exchange_strong(
                expected, ms >= most ? INT64_MAX : static_cast<std::int64_t>(ms) * 1000 * 1000, memory_order_relaxed) &&
            bad[0] != '\0')
            print_to(stderr, bad_format, "RELO_WARM_MEMORY_IDLE_DELAY_MS", bad, "a number of milliseconds");
    }
}

/// The warm budget, in bytes (relo::warm_memory_limit).
inline std::size_t warm_memory_limit_setting() noexcept {
    const std::size_t bytes = warm_memory_limit_bytes.load(memory_order_relaxed);
    if (RELO_LIKELY(bytes != unread_limit)) return bytes;
    read_warm_memory_settings();
    return warm_memory_limit_bytes.load(memory_order_relaxed);
}

/// The idle delay, in nanoseconds (relo::warm_memory_idle_delay).
inline std::int64_t warm_memory_idle_delay_setting() noexcept {
    const std::int64_t ns = warm_memory_idle_delay_ns.load(memory_order_relaxed);
    if (RELO_LIKELY(ns != unread_delay)) return ns;
    read_warm_memory_settings();
    return warm_memory_idle_delay_ns.load(memory_order_relaxed);
}

/// The clock of idle times, read where a cache keeps a block: a coarse one, whose tick is far below the
/// idle delay and whose read costs less than CLOCK_MONOTONIC's (docs/measurements/memory_resources.md,
/// "A guest's costs").
inline std::int64_t idle_clock_ns() noexcept {
#if RELO_OS_WINDOWS
    return static_cast<std::int64_t>(::GetTickCount64()) * 1000 * 1000;
#elif defined(CLOCK_MONOTONIC_COARSE)
    timespec t;
    ::clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000 * 1000 * 1000 + t.tv_nsec;
#else
    timespec t;
    ::clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000 * 1000 * 1000 + t.tv_nsec;
#endif
}

/// The idle clock's tick: an idle time measured with it may be this much longer than the real one.
inline std::int64_t idle_clock_tick_ns() noexcept {
#if RELO_OS_WINDOWS
    return std::int64_t{16} * 1000 * 1000;  // (GetTickCount64's resolution, at most)
#elif defined(CLOCK_MONOTONIC_COARSE)
    // (read as page_size() is: no guarded static)
    RELO_CONSTINIT static atomic<std::int64_t> tick{0};
    std::int64_t ns = tick.load(memory_order_relaxed);
    if (ns == 0) {
        timespec t{};
        ns = ::clock_getres(CLOCK_MONOTONIC_COARSE, &t) == 0 && (t.tv_sec != 0 || t.tv_nsec != 0)
                 ? std::int64_t{t.tv_sec} * 1000 * 1000 * 1000 + t.tv_nsec
                 : std::int64_t{10} * 1000 * 1000;
        tick.store(ns, memory_order_relaxed);
    }
    return ns;
#else
    return 1;
#endif
}

/// Whether a cache whose owner last visited at `since` (idle clock) has been idle for `idle_for` at `now`:
/// for a nonzero time, by at least a tick more than measured (never before the time has passed).
/// A time beyond what the clock can add a tick to (nanoseconds::max()) is never.
inline bool idle_long_enough(std::int64_t since, std::int64_t now, std::int64_t idle_for) noexcept {
    const std::int64_t tick = idle_clock_tick_ns();
    return idle_for <= 0 || (idle_for <= INT64_MAX - tick && now - since >= idle_for + tick);
}

/// The part of a thread cache's State another thread reads to empty it while the owner stays away.
struct reclaimable_cache {
    atomic<std::size_t> visits;      // odd while the owner is inside; one more at each entry and at each exit
    atomic<bool> claimed;            // another thread is emptying the cache, or deciding whether to
    atomic<std::size_t> kept_visit;  // the owner's last visit that kept a block (its `visits` inside)
    atomic<std::int64_t> kept_at_ns; // and when (idle_clock_ns)
};

/// A reclaimable cache in the registry (in its thread's part). Past `release`, the fields belong to the
/// thread holding the registry's lock.
struct reclaimable_entry {
    reclaimable_cache* cache;
    std::size_t (*empty)(reclaimable_cache&) noexcept;  // gives everything back; returns the bytes
    void (*release)(reclaimable_entry&) noexcept;       // frees the part (a fork's child: its thread is gone)
    void* part;                                          // (the thread_cache's part holding this entry)
    const void* owner;                                   // the owning thread's thread_mark
    reclaimable_entry* next;
    reclaimable_entry* previous;
    std::size_t seen_visits;     // `visits` when last read
    std::int64_t idle_since_ns;  // when the owner last visited, as far as is known
    bool emptied;                // since `visits` had that value
    bool claimed;                // in this pass
};

/// An address of the calling thread's own: which thread owns a part (in a fork's child, the forking one).
inline thread_local char thread_mark = 0;

/// How many visits the calling thread has open (of different caches, or a handler's of another cache): a
/// visit opened inside another that finds its cache claimed does without it rather than wait (the claim
/// may be a fork's, which waits for the visit it is inside).
inline thread_local int open_visits = 0;

void registry_fork_prepare(fork_guard&) noexcept;
void registry_fork_parent(fork_guard&) noexcept;
void registry_fork_child(fork_guard&) noexcept;

/// Whether owners mark their visits with fences of their own (sequentially consistent stores): until the
/// process is registered for os::process_wide_fence(), and for good where it cannot be. Owners read it
/// without ordering: it only ever goes from true to false, after the registration.
inline atomic<bool> visit_marks_fenced{true};

/// Every living thread's reclaimable caches that have kept something.
struct reclaimable_registry {
    reclaimable_entry* first = nullptr;
    atomic<bool> fence_tried{false};  // the registration for os::process_wide_fence() was made or begun
    atomic<bool> first_keep_seen{false};  // (the first keep looks whether the process has one thread)
    atomic<const void*> holder{nullptr};  // the thread_mark of the thread holding the lock
    bool fence_ready = false;  // (under the lock) registered: owners' marks may be plain stores
    atomic<bool> fence_failed{false};  // a fence failed after the registration (a sandbox entered late)
    bool fork_fenced = true;                // (the forking thread's) the prepare handler's fence held
    atomic<std::int64_t> next_pass_ns{0};  // activity looks for idle caches again from then on
    fork_guard at_fork{&registry_fork_prepare, &registry_fork_parent, &registry_fork_child};
};
inline reclaimable_registry reclaimable_caches;

/// The registry's lock, which every fork takes (detail/fork_guard.hpp); the registry's node listed at its
/// first use. (By an atomic pointer, not a guarded static: a child forked while another thread was inside
/// the static's first initialization waited for that thread for good, in its first use of the registry.)
inline os_lock& registry_lock() noexcept {
    if (RELO_UNLIKELY(fork_guards.last.load(memory_order_acquire) != &reclaimable_caches.at_fork))
        set_last_fork_guard(reclaimable_caches.at_fork);
    return thread_cache_registry_lock();
}

/// The registry's lock, held for this object's life, unless this thread holds it already (a signal
/// handler that interrupted it: owns() is false, and the caller does without) or, `try_only`, another
/// thread does.
class registry_hold {
public:
    explicit registry_hold(bool try_only = false) noexcept {
        os_lock& m = registry_lock();
        if (reclaimable_caches.holder.load(memory_order_relaxed) == &thread_mark) return;
        if (try_only) {
            owns_ = m.try_lock();
        } else {
            m.lock();
            owns_ = true;
        }
        if (owns_) reclaimable_caches.holder.store(&thread_mark, memory_order_relaxed);
    }
    ~registry_hold() {
        if (!owns_) return;
        reclaimable_caches.holder.store(nullptr, memory_order_relaxed);
        registry_lock().unlock();
    }
    registry_hold(const registry_hold&) = delete;
    registry_hold& operator=(const registry_hold&) = delete;
    bool owns() const noexcept { return owns_; }

private:
    bool owns_ = false;
};

/// Registers the process for the process-wide fence, once, without the registry's lock (which others
/// wait for meanwhile otherwise): at the first keep where the process has one thread then (quick), else at
/// the first pass that finds idle caches (a grace period of the kernel's, once, on the thread that runs
/// the pass); both costs: docs/measurements/memory_resources.md, "A guest's costs". Never under
/// ThreadSanitizer, which models no such fence.
RELO_NOINLINE inline void register_process_fence(bool only_if_cheap) noexcept {
    if (RELO_TSAN || reclaimable_caches.fence_tried.load(memory_order_relaxed)) return;
    if (only_if_cheap && (reclaimable_caches.first_keep_seen.exchange(true, memory_order_relaxed) ||
                          !os::single_threaded()))
        return;
    if (reclaimable_caches.fence_tried.exchange(true, memory_order_relaxed)) return;
    if (!os::register_process_wide_fence()) return;
    const registry_hold hold;
    if (!hold.owns()) return;  // (the marks stay fences of their own)
    reclaimable_caches.fence_ready = true;
    visit_marks_fenced.store(false, memory_order_relaxed);
}

/// After claiming: every owner's mark made before is seen, and every owner's visit after sees the claim
/// (their marks are fences of their own, or the process-wide fence makes them so). False: not so.
inline bool claims_fenced_locked() noexcept {
    if (!reclaimable_caches.fence_ready || os::process_wide_fence()) return true;
    reclaimable_caches.fence_failed.store(true, memory_order_relaxed);
    return false;
}

/// Before a fork: takes the registry's lock, claims every listed cache and waits for the owners inside
/// one to leave it (a visit never waits inside for a claim or this lock: it backs out), so that every
/// cache is whole at the fork. (Not the forking thread's own: a handler that forks may have interrupted
/// one of its visits.)
inline void registry_fork_prepare(fork_guard&) noexcept {
    // (The lock: taken by detail::fork_prepare before this.)
    reclaimable_caches.holder.store(&thread_mark, memory_order_relaxed);
    // (Not the forking thread's: other libraries' fork handlers registered before relo's run while these
    // claims hold, and may use relo on this thread.)
    for (reclaimable_entry* e = reclaimable_caches.first; e != nullptr; e = e->next)
        if (e->owner != &thread_mark) e->cache->claimed.store(true, memory_order_seq_cst);
    reclaimable_caches.fork_fenced = claims_fenced_locked();
    for (reclaimable_entry* e = reclaimable_caches.first; e != nullptr; e = e->next) {
        if (e->owner == &thread_mark) continue;
        while (e->cache->visits.load(memory_order_seq_cst) % 2 != 0) yield_thread();
    }
}
inline void registry_fork_parent(fork_guard&) noexcept {
    for (reclaimable_entry* e = reclaimable_caches.first; e != nullptr; e = e->next)
        e->cache->claimed.store(false, memory_order_release);
    reclaimable_caches.holder.store(nullptr, memory_order_relaxed);  // (the lock: detail::fork_parent's)
}
/// The child's only thread is the forking one: every other thread's part is emptied (whole: its owner
/// was not inside it) and freed; only taken off the list where the fence failed before the fork (its owner
/// may have been inside it unseen).
inline void registry_fork_child(fork_guard&) noexcept {
    for (reclaimable_entry* e = reclaimable_caches.first; e != nullptr;) {
        reclaimable_entry* const next = e->next;
        e->cache->claimed.store(false, memory_order_relaxed);
        if (e->owner != &thread_mark) {
            (e->previous != nullptr ? e->previous->next : reclaimable_caches.first) = next;
            if (next != nullptr) next->previous = e->previous;
            if (reclaimable_caches.fork_fenced) {
                (void)e->empty(*e->cache);
                e->release(*e);
            }
        }
        e = next;
    }
    reclaimable_caches.holder.store(nullptr, memory_order_relaxed);  // (the lock: detail::fork_child's)
}

/// When e's owner last visited its cache, as far as is known now, `visits` being its mark read now (with
/// the registry's lock held): as last seen if unchanged; else the visit that kept a block if no other came
/// after it (its stamp is seen: the visit's exit released it); else some time since the last look: now.
inline std::int64_t idle_since(const reclaimable_entry& e, std::size_t visits, std::int64_t now) noexcept {
    if (visits == e.seen_visits) return e.idle_since_ns;
    if (visits == e.cache->kept_visit.load(memory_order_relaxed) + 1)
        return e.cache->kept_at_ns.load(memory_order_relaxed);
    return now;
}

/// Empties every registered cache whose owner has not visited it for `idle_for` (nanoseconds) and is
/// not in it, with the registry's lock held; returns the bytes given back.
inline std::size_t empty_idle_caches_locked(std::int64_t idle_for) noexcept {
    const std::int64_t now = idle_clock_ns();
    bool any = false;
    std::size_t given_back = 0;
    for (reclaimable_entry* e = reclaimable_caches.first; e != nullptr; e = e->next) {
        e->claimed = false;
        reclaimable_cache& c = *e->cache;
        const std::size_t visits = c.visits.load(memory_order_seq_cst);
        if (visits != e->seen_visits) {
            e->idle_since_ns = idle_since(*e, visits, now);
            e->seen_visits = visits;
            e->emptied = false;
        }
        if (visits % 2 != 0 || e->emptied || !idle_long_enough(e->idle_since_ns, now, idle_for)) continue;
        e->claimed = true;
        if (e->owner == &thread_mark) {
            // The calling thread's own: emptied inside a visit of its own (a signal handler that visits
            // it meanwhile finds it visited and leaves it alone), not claimed (it would wait for itself).
            c.visits.store(visits + 1, memory_order_relaxed);
            atomic_signal_fence(memory_order_seq_cst);
            given_back += e->empty(c);
            atomic_signal_fence(memory_order_seq_cst);
            c.visits.store(visits + 2, memory_order_release);
            e->seen_visits = visits + 2;
            e->emptied = true;
            e->claimed = false;
            continue;
        }
        c.claimed.store(true, memory_order_seq_cst);
        any = true;
    }
    if (!any) return given_back;
    const bool fenced = claims_fenced_locked();
    for (reclaimable_entry* e = reclaimable_caches.first; e != nullptr; e = e->next) {
        if (!e->claimed) continue;
        // An owner's entry made before the claim is seen now; a visit after it sees the claim and waits.
        if (fenced && e->cache->visits.load(memory_order_seq_cst) == e->seen_visits) {
            given_back += e->empty(*e->cache);
            e->emptied = true;
        }
        e->cache->claimed.store(false, memory_order_release);
    }
    return given_back;
}

/// Whether a pass now would find a cache idle for `idle_for` that it has not emptied (a read of the list
/// without the lock's wait: false when the lock is taken).
inline bool idle_caches_found(std::int64_t idle_for) noexcept {
    const registry_hold hold(true);
    if (!hold.owns()) return false;
    const std::int64_t now = idle_clock_ns();
    for (reclaimable_entry* e = reclaimable_caches.first; e != nullptr; e = e->next) {
        const std::size_t visits = e->cache->visits.load(memory_order_seq_cst);
        const bool emptied = visits == e->seen_visits && e->emptied;
        if (visits % 2 == 0 && !emptied && idle_long_enough(idle_since(*e, visits, now), now, idle_for)) return true;
    }
    return false;
}

/// Before a pass that may empty caches: the registration, once some are idle (see register_process_fence).
inline void register_process_fence_if_idle_caches(std::int64_t idle_for) noexcept {
    if (!RELO_TSAN && !reclaimable_caches.fence_tried.load(memory_order_relaxed) && idle_caches_found(idle_for))
        register_process_fence(false);
}

/// Empties the caches idle for at least `idle_for`, waiting for the registry's lock.
inline std::size_t empty_idle_caches(std::int64_t idle_for) noexcept {
    register_process_fence_if_idle_caches(idle_for);
    const registry_hold hold;
    return hold.owns() ? empty_idle_caches_locked(idle_for) : 0;
}

/// Activity's look for idle caches: at most one pass per half idle delay in the process, never waiting
/// for another pass. True if it gave something back.
RELO_NOINLINE inline bool empty_idle_caches_if_due() noexcept {
    const std::int64_t now = idle_clock_ns();
    if (now < reclaimable_caches.next_pass_ns.load(memory_order_relaxed)) return false;
    const std::int64_t delay = warm_memory_idle_delay_setting();
    register_process_fence_if_idle_caches(delay);
    const registry_hold hold(true);
    if (!hold.owns()) return false;
    // (A delay set meanwhile reset the next pass to now, which this store may undo: the setter stores the
    // delay, then the reset; this pass stores its schedule, then reads the delay again. Sequentially
    // consistent, so that one of the two sees the other's first store.)
    reclaimable_caches.next_pass_ns.store(now + (delay > 2 ? delay / 2 : 1), memory_order_seq_cst);
    if (warm_memory_idle_delay_ns.load(memory_order_seq_cst) != delay)
        reclaimable_caches.next_pass_ns.store(0, memory_order_relaxed);
    return empty_idle_caches_locked(delay) != 0;
}

/// The owner's side: marks a visit to its own cache for as long as it lives. A visit that finds the
/// cache claimed leaves it, waits for the claim to end and comes in again; one that finds it visited already (a signal handler that
/// interrupted a visit of the same thread) is not inside(): its caller uses the closed part instead.
/// Every 256th visit looks for other threads' idle caches once it has left its own (a clock read; a pass
/// at most once per half idle delay in the process).
class owner_visit {
public:
    RELO_ALWAYS_INLINE explicit owner_visit(reclaimable_cache& c) noexcept
        : cache_(c), entered_(c.visits.load(memory_order_relaxed) + 1) {
        if (RELO_UNLIKELY(entered_ % 2 == 0)) return;  // (nested: the interrupted visit is still inside)
        mark_entry();
        if (RELO_UNLIKELY(c.claimed.load(memory_order_seq_cst))) wait_for_claim();
        if (RELO_LIKELY(inside())) ++open_visits;
    }
    RELO_ALWAYS_INLINE ~owner_visit() {
        if (RELO_UNLIKELY(!inside())) return;
        --open_visits;
        const std::size_t left = entered_ + 1;  // (only the owner writes `visits`)
        cache_.visits.store(left, memory_order_release);
        if (RELO_UNLIKELY(left % 512 == 0 && open_visits == 0)) empty_idle_caches_if_due();
    }
    owner_visit(const owner_visit&) = delete;
    owner_visit& operator=(const owner_visit&) = delete;

    /// False for a visit nested in another of the same thread: the cache is not to be touched.
    bool inside() const noexcept { return entered_ % 2 != 0; }
    /// Notes that this visit kept a block: the cache's idle time counts from now.
    void kept() const noexcept {
        cache_.kept_visit.store(entered_, memory_order_relaxed);
        cache_.kept_at_ns.store(idle_clock_ns(), memory_order_relaxed);
    }

private:
    /// The entry's mark: a fence of its own, or a plain store and a compiler fence that the emptying
    /// thread's process-wide fence completes.
    RELO_ALWAYS_INLINE void mark_entry() noexcept {
        if (RELO_LIKELY(!visit_marks_fenced.load(memory_order_relaxed))) {
            cache_.visits.store(entered_, memory_order_relaxed);
            atomic_signal_fence(memory_order_seq_cst);
        } else {
            cache_.visits.store(entered_, memory_order_seq_cst);
        }
    }
    /// Out of the cache while it is claimed (the claimer sees the visits change, and a fork's handler
    /// waits for no one inside), then in again.
    /// Inside another visit of the thread, it leaves and does without the cache (not inside()).
    RELO_NOINLINE void wait_for_claim() noexcept {
        do {
            cache_.visits.store(entered_ + 1, memory_order_release);
            if (open_visits != 0) {
                entered_ = 0;  // (not inside: the caller uses the closed part)
                return;
            }
            while (cache_.claimed.load(memory_order_acquire)) yield_thread();
            entered_ = cache_.visits.load(memory_order_relaxed) + 1;  // (a handler's visits came meanwhile)
            mark_entry();
        } while (cache_.claimed.load(memory_order_seq_cst));
    }

    reclaimable_cache& cache_;
    std::size_t entered_;
};
/// Takes `bytes` of the process's warm budget for a block a cache is about to keep; false, nothing taken,
/// when less is left (after giving back idle threads' caches, if a look for them is due and `may_look`:
/// a caller that holds a lock the look could wait for passes false).
inline bool take_warm_budget(std::size_t bytes, bool may_look = true) noexcept {
    const std::size_t limit = warm_memory_limit_setting();
    if (bytes > limit) return false;
    bool looked = !may_look;
    std::size_t held = warm_bytes_of_process.load(memory_order_relaxed);
    for (;;) {
        if (held > limit - bytes) {
            if (looked || !empty_idle_caches_if_due()) return false;
            looked = true;
            held = warm_bytes_of_process.load(memory_order_relaxed);
            continue;
        }
        if (warm_bytes_of_process.compare_exchange_weak(held, held + bytes, memory_order_relaxed)) return true;
    }
}

/// What the process's warm budget has left now for a block of `wanted` bytes (other threads may take it
/// before this one does; when less than `wanted` is left, idle threads' caches are given back first if a
/// look for them is due).
inline std::size_t warm_budget_left(std::size_t wanted) noexcept {
    const std::size_t limit = warm_memory_limit_setting();
    std::size_t held = warm_bytes_of_process.load(memory_order_relaxed);
    if ((held >= limit || limit - held < wanted) && empty_idle_caches_if_due())
        held = warm_bytes_of_process.load(memory_order_relaxed);
    return held < limit ? limit - held : 0;
}

/// Gives back the budget of `bytes` a cache no longer keeps.
inline void return_warm_budget(std::size_t bytes) noexcept {
    warm_bytes_of_process.fetch_sub(bytes, memory_order_relaxed);
}

template <class State, auto Empty>
class thread_cache {
    static_assert(std::is_trivially_destructible_v<State>, "relo: a thread cache's state is freed with its part");
    static constexpr bool reclaimable = std::is_base_of_v<reclaimable_cache, State>;

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

    /// f(the calling thread's state), inside a visit of its owner (for a reader or a trim of a reclaimable
    /// cache: another thread may empty it meanwhile otherwise); f(the closed state) in a nested visit.
    template <class F>
    static auto visit(F f) noexcept {
        static_assert(reclaimable, "relo: only a reclaimable cache has visits");
        State& s = state();
        const owner_visit inside(s);
        return f(visited(inside, s));
    }
    /// s, or the closed state where the visit is nested in another of the thread (not to be touched).
    static State& visited(const owner_visit& v, State& s) noexcept { return v.inside() ? s : ended_part().state; }

    /// Gives back what the calling thread's cache s keeps, inside a visit; returns the bytes. (A closed
    /// cache keeps nothing and is left alone: the ended threads' closed state is one.)
    static std::size_t empty(State& s) noexcept { return s.closed ? 0 : Empty(s); }
    /// The same, making the visit.
    static std::size_t trim() noexcept {
        return visit([](State& s) { return empty(s); });
    }

    /// Called by a thread about to keep something in its cache s: lists a reclaimable cache in the
    /// registry (once), where another thread may empty it once it is idle.
    static void arm(State& s) noexcept {
        if (s.guarded) return;
        if constexpr (reclaimable) {
            thread_part* const part = current_part();
            if (part != nullptr && &part->state == &s && !enlist(*part)) return;  // (listed at a later keep)
        }
        s.guarded = true;
    }

private:
    struct closed_tag {};
    struct thread_part {
        State state{};
        reclaimable_entry entry{};
#if RELO_OS_WINDOWS
        DWORD thread = ::GetCurrentThreadId();
#endif
        thread_part() noexcept = default;
        /// The ended threads' part, closed and armed (constant-initialized).
        constexpr explicit thread_part(closed_tag) noexcept
#if RELO_OS_WINDOWS
            : thread(0)
#endif
        {
            state.closed = true;
            state.guarded = true;
        }
    };

    static std::size_t empty_from_registry(reclaimable_cache& c) noexcept { return Empty(static_cast<State&>(c)); }
    static void release_from_registry(reclaimable_entry& e) noexcept { delete static_cast<thread_part*>(e.part); }

    /// Lists the thread's part in the registry; false when a signal handler interrupted this thread while
    /// it held the registry's lock (not listed: it would wait for itself).
    static bool enlist(thread_part& part) noexcept {
        if constexpr (reclaimable) {
            register_process_fence(true);
            const registry_hold hold;
            if (!hold.owns()) return false;
            reclaimable_entry& entry = part.entry;
            entry.cache = &part.state;
            entry.empty = &empty_from_registry;
            entry.release = &release_from_registry;
            entry.owner = &thread_mark;
            entry.part = &part;
            entry.seen_visits = ~std::size_t{0};  // (seen as a visit on the first pass)
            entry.next = reclaimable_caches.first;
            if (entry.next != nullptr) entry.next->previous = &entry;
            reclaimable_caches.first = &entry;
        }
        return true;
    }

    /// At the thread's end: takes its part off the registry (waiting for a pass that holds it: none sees
    /// it after) and gives everything back, both under the registry's lock, which every fork takes: a child
    /// finds the part listed and whole (and gives it back itself) or gone and empty, never gone with its
    /// warm budget still counted. Then closes it and frees it.
    static void close(thread_part* part) noexcept {
        if constexpr (reclaimable) {
            reclaimable_entry& entry = part->entry;
            if (entry.cache != nullptr) {
                const registry_hold hold;
                (entry.previous != nullptr ? entry.previous->next : reclaimable_caches.first) = entry.next;
                if (entry.next != nullptr) entry.next->previous = entry.previous;
                Empty(part->state);
                part->state.closed = true;
                delete part;
                return;
            }
        }
        Empty(part->state);
        part->state.closed = true;
        delete part;
    }

    /// The state of the threads that ended (and of those relo could not give one): closed, so what they
    /// give back goes straight back and a trim leaves it alone; armed, so nothing lists it. Shared: only
    /// the visits' counter is written, an atomic whose parity then means nothing (a visit of it is at
    /// worst taken as nested, which uses it all the same).
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
        // At the program's end, or a DLL's unloading, as on POSIX: the idle caches emptied, no part made
        // after, no thread's end calling into the code after. (The TLS slot stays, for what is destroyed
        // later: the callback points this thread's at the closed part.)
        ~slots() {
            if (!usable.exchange(false)) return;
            (void)empty_idle_caches(0);
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
    // unloaded (or the program ends), after the idle parts have been emptied: no thread's end calls into
    // code that is gone, and a part made after that is not made (the thread uses the closed one).
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
        (void)empty_idle_caches(0);
        (void)::pthread_key_delete(slots_.end);
        // The calling thread's own (what is destroyed after this goes straight back).
        if (thread_part* const part = current_; part != nullptr && part != &ended_part()) {
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
        if (!s.usable.load(memory_order_acquire)) return ended_part().state;
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
