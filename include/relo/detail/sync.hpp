// relo/detail/sync.hpp — the threading primitives of relo's process-wide state: atomics and fences, a
// lock, yielding, over the compiler's builtins and the system's calls.
//
// Every relo::vector's unit carries the thread caches (its default allocator keeps large blocks warm), and
// with libstdc++ in C++20 <atomic>, <mutex>, <thread> and <chrono> together cost a unit several times what
// <vector> costs (docs/measurements/build_cost.md). So with GCC and Clang the atomics are the __atomic
// builtins (what libstdc++'s and libc++'s std::atomic call; ThreadSanitizer sees them alike); another
// compiler gets std::atomic. The lock is always the system's: a pthread mutex or an SRWLOCK.
//   * detail::atomic<T>: load, store, exchange, compare_exchange_weak/strong, fetch_add, fetch_sub, as
//     std::atomic, for an integer, bool, enumeration or pointer T; constant-initialized from a constexpr value;
//   * detail::memory_order_relaxed ... seq_cst, atomic_thread_fence, atomic_signal_fence;
//   * detail::os_lock: lock, try_lock, unlock; constant-initialized and never destroyed (trivially
//     destructible), so that a thread ending during or after static destruction may still take one;
//   * detail::yield_thread().
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_SYNC_HPP
#define RELO_DETAIL_SYNC_HPP

#include <cstddef>
#include <type_traits>

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <pthread.h>
#include <sched.h>
#endif
#if defined(__GNUC__) || defined(__clang__)
#define RELO_DETAIL_ATOMIC_BUILTINS 1
#else
#include <atomic>
#define RELO_DETAIL_ATOMIC_BUILTINS 0
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

#if RELO_DETAIL_ATOMIC_BUILTINS
enum class memory_order : int {
    relaxed = __ATOMIC_RELAXED,
    acquire = __ATOMIC_ACQUIRE,
    release = __ATOMIC_RELEASE,
    acq_rel = __ATOMIC_ACQ_REL,
    seq_cst = __ATOMIC_SEQ_CST,
};
inline constexpr memory_order memory_order_relaxed = memory_order::relaxed;
inline constexpr memory_order memory_order_acquire = memory_order::acquire;
inline constexpr memory_order memory_order_release = memory_order::release;
inline constexpr memory_order memory_order_acq_rel = memory_order::acq_rel;
inline constexpr memory_order memory_order_seq_cst = memory_order::seq_cst;

inline void atomic_thread_fence(memory_order order) noexcept { __atomic_thread_fence(static_cast<int>(order)); }
inline void atomic_signal_fence(memory_order order) noexcept { __atomic_signal_fence(static_cast<int>(order)); }

template <class T>
class atomic {
    static_assert((std::is_integral_v<T> || std::is_enum_v<T> || std::is_pointer_v<T>) &&
                      (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8),
                  "relo::detail::atomic holds an integer, bool, enumeration or pointer (what the builtins take)");

public:
    constexpr atomic() noexcept : value_() {}
    constexpr atomic(T value) noexcept : value_(value) {}  // NOLINT: as std::atomic's
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;

    T load(memory_order order = memory_order_seq_cst) const noexcept {
        return __atomic_load_n(&value_, static_cast<int>(order));
    }
    void store(T value, memory_order order = memory_order_seq_cst) noexcept {
        __atomic_store_n(&value_, value, static_cast<int>(order));
    }
    T exchange(T value, memory_order order = memory_order_seq_cst) noexcept {
        return __atomic_exchange_n(&value_, value, static_cast<int>(order));
    }
    bool compare_exchange_weak(T& expected, T desired, memory_order success, memory_order failure) noexcept {
        return __atomic_compare_exchange_n(&value_, &expected, desired, true, static_cast<int>(success),
                                           static_cast<int>(failure));
    }
    bool compare_exchange_weak(T& expected, T desired, memory_order order = memory_order_seq_cst) noexcept {
        return compare_exchange_weak(expected, desired, order, failure_order(order));
    }
    bool compare_exchange_strong(T& expected, T desired, memory_order success, memory_order failure) noexcept {
        return __atomic_compare_exchange_n(&value_, &expected, desired, false, static_cast<int>(success),
                                           static_cast<int>(failure));
    }
    bool compare_exchange_strong(T& expected, T desired, memory_order order = memory_order_seq_cst) noexcept {
        return compare_exchange_strong(expected, desired, order, failure_order(order));
    }
    template <class U = T, std::enable_if_t<std::is_integral_v<U>, int> = 0>
    T fetch_add(T delta, memory_order order = memory_order_seq_cst) noexcept {
        return __atomic_fetch_add(&value_, delta, static_cast<int>(order));
    }
    template <class U = T, std::enable_if_t<std::is_integral_v<U>, int> = 0>
    T fetch_sub(T delta, memory_order order = memory_order_seq_cst) noexcept {
        return __atomic_fetch_sub(&value_, delta, static_cast<int>(order));
    }

private:
    // (std::atomic's rule: a release or acq_rel exchange fails as a relaxed or acquire load.)
    static constexpr memory_order failure_order(memory_order order) noexcept {
        return order == memory_order_release   ? memory_order_relaxed
               : order == memory_order_acq_rel ? memory_order_acquire
                                               : order;
    }

    alignas(sizeof(T)) T value_;
};
#else
using std::atomic;
using std::atomic_signal_fence;
using std::atomic_thread_fence;
using std::memory_order;
using std::memory_order_acq_rel;
using std::memory_order_acquire;
using std::memory_order_relaxed;
using std::memory_order_release;
using std::memory_order_seq_cst;
#endif

/// A lock with a constant initializer and no destructor: a global one is ready before any constructor
/// runs and still usable after every destructor has.
class os_lock {
public:
    constexpr os_lock() noexcept = default;
    os_lock(const os_lock&) = delete;
    os_lock& operator=(const os_lock&) = delete;

#if defined(_WIN32)
    void lock() noexcept { ::AcquireSRWLockExclusive(&lock_); }
    bool try_lock() noexcept { return ::TryAcquireSRWLockExclusive(&lock_) != 0; }
    void unlock() noexcept { ::ReleaseSRWLockExclusive(&lock_); }

private:
    SRWLOCK lock_ = SRWLOCK_INIT;
#else
    void lock() noexcept { ::pthread_mutex_lock(&lock_); }
    bool try_lock() noexcept { return ::pthread_mutex_trylock(&lock_) == 0; }
    void unlock() noexcept { ::pthread_mutex_unlock(&lock_); }

private:
    pthread_mutex_t lock_ = PTHREAD_MUTEX_INITIALIZER;
#endif
};
static_assert(std::is_trivially_destructible_v<os_lock>);

/// Holds an os_lock for its life (std::lock_guard's part).
class os_lock_hold {
public:
    explicit os_lock_hold(os_lock& lock) noexcept : lock_(lock) { lock_.lock(); }
    ~os_lock_hold() { lock_.unlock(); }
    os_lock_hold(const os_lock_hold&) = delete;
    os_lock_hold& operator=(const os_lock_hold&) = delete;

private:
    os_lock& lock_;
};

/// Lets another thread run (std::this_thread::yield).
inline void yield_thread() noexcept {
#if defined(_WIN32)
    ::SwitchToThread();
#else
    ::sched_yield();
#endif
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_SYNC_HPP
