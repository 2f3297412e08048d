// relo/detail/sync.hpp — the threading primitives of relo's process-wide state: atomics and fences over
// the compiler's builtins.
//
// Every relo::vector's unit carries the thread caches (its default allocator keeps large blocks warm), and
// with libstdc++ in C++20 <atomic>, <mutex>, <thread> and <chrono> together cost a unit several times what
// <vector> costs (docs/measurements/build_cost.md). So with GCC and Clang the atomics are the __atomic
// builtins (what libstdc++'s and libc++'s std::atomic call; ThreadSanitizer sees them alike); another
// compiler gets std::atomic.
//   * detail::atomic<T>: load, store, exchange, compare_exchange_weak/strong, fetch_add, fetch_sub, as
//     std::atomic, for an integer, bool, enumeration or pointer T; constant-initialized from a constexpr value;
//   * detail::memory_order_relaxed ... seq_cst, atomic_thread_fence, atomic_signal_fence.
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

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_SYNC_HPP
