// relo/growth.hpp — growth policies: by how much a container's capacity grows when it is full.
//
// A policy is any type with integral static members `num` and `den` (num > den > 0), read as the factor
// num/den — relo::growth_factor, or std::ratio itself (`relo::vector<T, A, std::ratio<7, 5>>`).
//
// The growth rule, stated here once: when `required` elements must fit in a container of capacity c,
// its new capacity is max(required, c x num/den), at least c + 1, at most max_size() (never
// overflowing: detail::next_capacity). relo::vector's first allocation holds at least 24 bytes' worth of
// elements (no 1-2-4 reallocations of tiny vectors); small_vector's first heap block
// follows the rule from N. reserve(n) asks for exactly n (the capacity may be more, when the allocator's
// block holds more: relo::vector's page allocator rounds to its blocks). The default, growth_2, and the measurement
// that chose it: docs/measurements/thresholds.md.
// Layer 1, vocabulary (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_GROWTH_HPP
#define RELO_GROWTH_HPP

#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {
// (std::gcd's <numeric> would cost every container's unit more than the rest of this header.)
constexpr std::intmax_t gcd(std::intmax_t a, std::intmax_t b) noexcept { return b == 0 ? a : gcd(b, a % b); }
}  // namespace detail

/// Growth by the factor Num/Den (reduced), e.g. growth_factor<3, 2> grows by 1.5.
template <std::intmax_t Num, std::intmax_t Den = 1>
struct growth_factor {
    static_assert(Den > 0, "relo::growth_factor: the denominator must be positive");
    static_assert(Num > Den, "relo::growth_factor: the factor must be greater than 1");
    static constexpr std::intmax_t num = Num / detail::gcd(Num, Den);  ///< the reduced numerator
    static constexpr std::intmax_t den = Den / detail::gcd(Num, Den);  ///< the reduced denominator
    using type = growth_factor<num, den>;                              ///< the reduced factor (as std::ratio's)
};

using growth_1_5 = growth_factor<3, 2>;  ///< capacity × 1.5 (MSVC's and folly's factor)
using growth_1_6 = growth_factor<8, 5>;  ///< capacity × 1.6
using growth_2 = growth_factor<2>;       ///< capacity × 2: the default (libstdc++'s and libc++'s factor)

namespace detail {

/// The capacity after growing from `current` to hold at least `required` elements, never above `max`.
/// Precondition: required <= max. Never overflows: a product that would exceed `max` is clamped to it.
template <class Growth>
constexpr std::size_t next_capacity(std::size_t current, std::size_t required, std::size_t max) noexcept {
    static_assert(Growth::den > 0 && Growth::num > Growth::den, "relo: a growth factor must be greater than 1");
    constexpr auto num = static_cast<std::uintmax_t>(Growth::num);
    constexpr auto den = static_cast<std::uintmax_t>(Growth::den);
    // grown = current * num / den, computed as current + floor(current * (num - den) / den) so that it
    // cannot overflow: split current = q * den + r (r * step fits: num and den are small ratios).
    constexpr auto step = num - den;
    const std::size_t q = current / den;
    const std::size_t r = current % den;
    std::size_t grown = max;
    if (current >= max || q > (max - current) / step) {
        grown = max;
    } else {
        const std::size_t extra = static_cast<std::size_t>(q * step + r * step / den);
        grown = extra > max - current ? max : current + extra;
        if (grown == current) grown = current + 1;  // small capacities must still grow
    }
    if (grown < required) grown = required;
    return grown < max ? grown : max;
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_GROWTH_HPP
