// relo/detail/config.hpp — language-level switches shared by every header.
//
// C++20 is the primary standard; every public header also compiles in C++17. Features that need C++20
// (constexpr allocation, <=>, concepts) are enabled here with feature-test macros and nowhere else.
// Layer 0, configuration and errors (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_CONFIG_HPP
#define RELO_DETAIL_CONFIG_HPP

#include <cassert>
#include <cstddef>
#include <type_traits>
#include <version>

/// relo's version (docs/stability.md says what each part promises): RELO_VERSION is major * 10000 + minor
/// * 100 + patch, as CMake's project() and the package state it (tests/stated_numbers_test.cpp checks).
#define RELO_VERSION_MAJOR 0
#define RELO_VERSION_MINOR 1
#define RELO_VERSION_PATCH 0
#define RELO_VERSION (RELO_VERSION_MAJOR * 10000 + RELO_VERSION_MINOR * 100 + RELO_VERSION_PATCH)

#if __cplusplus >= 202002L && defined(__cpp_constexpr_dynamic_alloc) && defined(__cpp_lib_constexpr_dynamic_alloc)
#define RELO_HAS_CONSTEXPR_ALLOC 1
#define RELO_CONSTEXPR20 constexpr
#else
#define RELO_HAS_CONSTEXPR_ALLOC 0
#define RELO_CONSTEXPR20 inline
#endif

#if __cplusplus >= 202002L && defined(__cpp_lib_three_way_comparison) && defined(__cpp_impl_three_way_comparison) && \
    defined(__cpp_concepts)
#define RELO_HAS_THREE_WAY 1
#else
#define RELO_HAS_THREE_WAY 0
#endif

#if __cplusplus >= 202002L && defined(__cpp_lib_ranges) && defined(__cpp_concepts)
#define RELO_HAS_RANGES 1
#else
#define RELO_HAS_RANGES 0
#endif

#if __cplusplus >= 202002L && defined(__cpp_concepts)
#define RELO_HAS_CONCEPTS 1
#else
#define RELO_HAS_CONCEPTS 0
#endif

#if defined(__cpp_lib_containers_ranges)
#define RELO_HAS_FROM_RANGE 1
#else
#define RELO_HAS_FROM_RANGE 0
#endif

// A static that must have no first initialization at run time (a child of fork could find one that another
// thread left half done, and wait for it for good): C++20 builds check that none has.
#if defined(__cpp_constinit)
#define RELO_CONSTINIT constinit
#else
#define RELO_CONSTINIT
#endif

#if defined(__GNUC__) || defined(__clang__)
#define RELO_LIKELY(x) __builtin_expect(!!(x), 1)
#define RELO_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RELO_NOINLINE __attribute__((noinline))
#define RELO_COLD __attribute__((noinline, cold))
// An attribute only: it goes on member functions, which RELO_CONSTEXPR20 may already declare inline.
#define RELO_ALWAYS_INLINE __attribute__((always_inline))
#else
#define RELO_LIKELY(x) (x)
#define RELO_UNLIKELY(x) (x)
#define RELO_NOINLINE
#define RELO_COLD
#define RELO_ALWAYS_INLINE
#endif

// std::addressof without its call in a debug build (on a push's path).
#if defined(__has_builtin)
#if __has_builtin(__builtin_addressof)
#define RELO_ADDRESSOF(x) __builtin_addressof(x)
#endif
#endif
#ifndef RELO_ADDRESSOF
#define RELO_ADDRESSOF(x) std::addressof(x)
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

// The builtin where there is one: in C++23, libstdc++ 12's std::is_constant_evaluated() is `if consteval`,
// which Clang 14 answers with true at run time inside a constexpr function called from another (the
// large-block and memmove paths were skipped: tests/page_allocator_test.cpp, Config.*).
#if defined(__has_builtin)
#if __has_builtin(__builtin_is_constant_evaluated)
#define RELO_HAS_BUILTIN_IS_CONSTANT_EVALUATED 1
#endif
#endif

RELO_ALWAYS_INLINE constexpr bool is_constant_evaluated() noexcept {
#if defined(RELO_HAS_BUILTIN_IS_CONSTANT_EVALUATED)
    return __builtin_is_constant_evaluated();
#elif defined(__cpp_lib_is_constant_evaluated)
    return std::is_constant_evaluated();
#else
    return false;
#endif
}

/// Tells the optimizer that `value` is read from memory here, so that it lives there (on a path that calls
/// out of line: a value kept in a callee-saved register instead takes one from the loop around that path).
template <class T>
inline void keep_in_memory(const T& value) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __asm__ volatile("" : : "m"(value));
#else
    (void)value;
#endif
}

/// floor(log2 x), for x >= 1 (the multipool's size classes, the profiler's histograms).
constexpr unsigned floor_log2(unsigned long long x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    return static_cast<unsigned>(63 - __builtin_clzll(x));
#else
    unsigned e = 0;
    while (x >>= 1) ++e;
    return e;
#endif
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

// Hardening: what a violated precondition does (RELO_EXPECTS, RELO_EXPECTS_MSG).
#include "contracts.hpp"

#endif  // RELO_DETAIL_CONFIG_HPP
