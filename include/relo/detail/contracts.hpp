// relo/detail/contracts.hpp — hardening: what a violated precondition does.
//
// Preconditions (operator[] in range, front/back/pop_back on a non-empty container, unchecked push on a
// non-full one, iterators and ranges inside the container, a resource given back only its own blocks,
// with their size and alignment, once) are checked when any of these is set:
//
//   RELO_HARDENED                  relo's own switch (-DRELO_HARDENED; -DRELO_HARDENED=0 turns checks
//                                  off, debug builds included)
//   _GLIBCXX_ASSERTIONS            libstdc++'s hardening, which users already set
//   _LIBCPP_HARDENING_MODE         libc++'s (any mode but _LIBCPP_HARDENING_MODE_NONE), or the older
//                                  _LIBCPP_ENABLE_ASSERTIONS
//   no NDEBUG                      debug builds
//
// A violation writes one line to stderr, "relo: <container or resource>::<operation>: <what, with the
// values>", and traps (__builtin_trap: SIGILL, which no handler of abort() intercepts). Every check is O(1)
// (a resource's ownership test is O(log chunks)), so a hardened build keeps its complexity. With checks
// off they cost nothing. In a constant expression a violated check is a compile error.
//
// The switch only changes checks, never a layout or what a function writes: translation units built with
// and without it can share containers and resources.
// Layer 0, configuration and errors (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_CONTRACTS_HPP
#define RELO_DETAIL_CONTRACTS_HPP

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#if defined(RELO_HARDENED)
// (-DRELO_HARDENED defines it as 1 and "#define RELO_HARDENED" as nothing: both turn checks on. The
// arithmetic tells 0 from an empty definition: 0 - 0 - 1 is -1, and "0 - - 1" is 1.)
#if (0 - RELO_HARDENED - 1) == -1
#define RELO_PRECONDITIONS_CHECKED 0
#else
#define RELO_PRECONDITIONS_CHECKED 1
#endif
#elif defined(_GLIBCXX_ASSERTIONS) || !defined(NDEBUG)
#define RELO_PRECONDITIONS_CHECKED 1
#elif defined(_LIBCPP_HARDENING_MODE) && defined(_LIBCPP_HARDENING_MODE_NONE)
#if _LIBCPP_HARDENING_MODE != _LIBCPP_HARDENING_MODE_NONE
#define RELO_PRECONDITIONS_CHECKED 1
#else
#define RELO_PRECONDITIONS_CHECKED 0
#endif
#elif defined(_LIBCPP_ENABLE_ASSERTIONS)
#if _LIBCPP_ENABLE_ASSERTIONS
#define RELO_PRECONDITIONS_CHECKED 1
#else
#define RELO_PRECONDITIONS_CHECKED 0
#endif
#else
#define RELO_PRECONDITIONS_CHECKED 0
#endif

#if defined(__MINGW32__)
// (MinGW's printf is Microsoft's, which may not know %zu: the messages go through MinGW's own, the GNU one.)
#define RELO_PRINTF_FORMAT(f, a) __attribute__((format(gnu_printf, f, a)))
#elif defined(__GNUC__) || defined(__clang__)
#define RELO_PRINTF_FORMAT(f, a) __attribute__((format(printf, f, a)))
#else
#define RELO_PRINTF_FORMAT(f, a)
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// Stops the program at once (no destructors, no atexit handlers).
[[noreturn]] inline void trap() noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_trap();
#else
    std::abort();
#endif
}

/// vfprintf with the C99 conversions (%zu, %td) on every platform, for relo's messages.
inline void vprint_to(std::FILE* out, const char* format, va_list args) noexcept {
#if defined(__MINGW32__)
    __mingw_vfprintf(out, format, args);
#else
    std::vfprintf(out, format, args);
#endif
}
/// vsnprintf with the same conversions: what would have been written (as vsnprintf returns).
inline int vprint_into(char* buffer, std::size_t size, const char* format, va_list args) noexcept {
#if defined(__MINGW32__)
    return __mingw_vsnprintf(buffer, size, format, args);
#else
    return std::vsnprintf(buffer, size, format, args);
#endif
}
RELO_PRINTF_FORMAT(3, 4) inline int print_into(char* buffer, std::size_t size, const char* format, ...) noexcept {
    va_list args;
    va_start(args, format);
    const int n = vprint_into(buffer, size, format, args);
    va_end(args);
    return n;
}
RELO_PRINTF_FORMAT(2, 3) inline void print_to(std::FILE* out, const char* format, ...) noexcept {
    va_list args;
    va_start(args, format);
    vprint_to(out, format, args);
    va_end(args);
}

/// Writes "relo: " and the message to stderr, then traps. Defined whether or not checks are on, so that
/// a program may call it in its own checks of relo's contracts.
[[noreturn]] RELO_COLD RELO_PRINTF_FORMAT(1, 2) inline void contract_violated(const char* format, ...) noexcept {
    std::fputs("relo: ", stderr);
    va_list args;
    va_start(args, format);
    vprint_to(stderr, format, args);
    va_end(args);
    std::fputc('\n', stderr);
    std::fflush(stderr);
    trap();
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#if RELO_PRECONDITIONS_CHECKED
/// A precondition: when cond is false, the message (a printf format and its values) and a trap.
#define RELO_EXPECTS_MSG(cond, ...)                                                      \
    do {                                                                                 \
        if (RELO_UNLIKELY(!(cond))) ::relo::detail::contract_violated(__VA_ARGS__);      \
    } while (false)
/// An internal invariant: the condition's text and where it is, when it does not hold.
#define RELO_EXPECTS(cond) \
    RELO_EXPECTS_MSG(cond, "internal precondition violated: %s (%s:%d)", #cond, __FILE__, __LINE__)
#else
#define RELO_EXPECTS_MSG(cond, ...) ((void)0)
#define RELO_EXPECTS(cond) ((void)0)
#endif

#endif  // RELO_DETAIL_CONTRACTS_HPP
