// relo/detail/errors.hpp — the error policy, in one place: every exception relo throws is thrown here.
//
//   std::bad_alloc              an allocation or commit failed, or an inplace_vector would exceed its
//                               capacity (P0843); a refused reservation of address space (pinned_vector's,
//                               vm_arena's) says how large it was and names the limits that refuse one;
//                               (relo::vector's and small_vector's large blocks take the heap instead);
//                               a block larger than max_block_bytes (with its header and alignment slack),
//                               or at an alignment that is no power of two or above max_block_alignment,
//                               refused before any upstream is asked (check_block_size)
//   std::bad_array_new_length   an allocator asked for more than max_size() objects (as std::allocator)
//   std::length_error           pinned_vector growth beyond its reservation (through max_size())
//   std::length_error           a size beyond max_size() (arithmetic overflow of n * sizeof(T) included)
//   std::out_of_range           at(i) with i >= size()
//   std::invalid_argument       a resource's options out of their documented range
//   std::bad_optional_access    value() of an empty optional_ref
// Precondition violations are not errors: RELO_EXPECTS (detail/contracts.hpp) checks them in hardened and
// debug builds. The throwing functions are out of line and cold, so the paths that call them stay small.
// Layer 0, configuration and errors (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_ERRORS_HPP
#define RELO_DETAIL_ERRORS_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <new>
#include <optional>

#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

[[noreturn]] RELO_COLD inline void throw_bad_alloc() { throw std::bad_alloc(); }

/// The largest block any relo resource or allocator hands out or asks its upstream for, header and
/// alignment slack included: PTRDIFF_MAX, so that the difference of two pointers into a block is
/// representable and no upstream's rounding (to an alignment, a page, a size class) can wrap around to a
/// smaller block than was asked for.
inline constexpr std::size_t max_block_bytes = static_cast<std::size_t>(PTRDIFF_MAX);

/// The largest alignment any relo resource or allocator hands out or asks its upstream for: 2^61 (where
/// max_block_bytes is 2^63 - 1), the largest at which a block of one byte still fits with a header of up
/// to the alignment in front of it and the alignment's slack. One bound for every resource, headers or
/// not, so that all of them answer an alignment alike; it also keeps fits_in_block's sums below SIZE_MAX.
inline constexpr std::size_t max_block_alignment = (max_block_bytes >> 2) + 1;
static_assert((max_block_alignment & (max_block_alignment - 1)) == 0, "a power of two");

/// Whether a block of `bytes` at `alignment`, with `header` bytes in front of it, fits in max_block_bytes:
/// the alignment is a power of two up to max_block_alignment, and the bytes, the header rounded up to the
/// alignment and the slack hold at most max_block_bytes together. The slack is what aligning inside a
/// larger block costs, or what an upstream adds rounding the size up to its alignment: alignment - 1
/// bytes, and at least alignof(std::max_align_t) - 1 (a resource may raise a small alignment to that of
/// its header or chunks). So what a resource asks of its upstream passes the same rule. Computed without
/// overflow whatever the three are.
constexpr bool fits_in_block(std::size_t bytes, std::size_t alignment, std::size_t header = 0) noexcept {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > max_block_alignment ||
        header > max_block_bytes)
        return false;
    const std::size_t granule = alignment > alignof(std::max_align_t) ? alignment : alignof(std::max_align_t);
    const std::size_t extra = ((header + alignment - 1) & ~(alignment - 1)) + (granule - 1);  // (< 2^63 + 2^62)
    return extra <= max_block_bytes && bytes <= max_block_bytes - extra;
}

/// std::bad_alloc unless fits_in_block(bytes, alignment, header): every resource and allocator calls it
/// with the alignment it was given, before the alignment enters its own arithmetic and before its
/// upstream is asked, so that a size or an alignment computed wrongly (near SIZE_MAX, or no power of two)
/// is refused whatever the resource's and the upstream's arithmetic would do with it.
RELO_ALWAYS_INLINE inline void check_block_size(std::size_t bytes, std::size_t alignment, std::size_t header = 0) {
    if (RELO_UNLIKELY(!fits_in_block(bytes, alignment, header))) throw_bad_alloc();
}

/// The std::bad_alloc of a reservation of address space, or of a commit in one, that the system refused,
/// naming its size and the limits that refuse one.
class reservation_failure : public std::bad_alloc {
public:
    enum class step { reserve, commit };
    explicit reservation_failure(std::size_t bytes, step what = step::reserve) noexcept {
        if (what == step::reserve) {
            std::snprintf(what_, sizeof what_,
                          "relo: cannot reserve %zu bytes of address space: the process's address space (RLIMIT_AS, "
                          "128 TiB on x86-64) or its number of mappings (vm.max_map_count on Linux) is used up",
                          bytes);
        } else {
            std::snprintf(what_, sizeof what_,
                          "relo: cannot commit %zu bytes of a reservation: the system's memory (its commit limit, "
                          "a cgroup's) or the process's number of mappings (vm.max_map_count on Linux) is used up",
                          bytes);
        }
    }
    const char* what() const noexcept override { return what_; }

private:
    char what_[224];
};

[[noreturn]] RELO_COLD inline void throw_reservation_failure(std::size_t bytes) { throw reservation_failure(bytes); }
[[noreturn]] RELO_COLD inline void throw_commit_failure(std::size_t bytes) {
    throw reservation_failure(bytes, reservation_failure::step::commit);
}
[[noreturn]] RELO_COLD inline void throw_bad_array_new_length() { throw std::bad_array_new_length(); }
#if defined(RELO_DETAIL_LIBSTDCXX_COMPONENTS)
// libstdc++'s own throwing functions (what its containers call): <stdexcept> would bring <string>.
[[noreturn]] RELO_COLD inline void throw_length_error(const char* what) { std::__throw_length_error(what); }
[[noreturn]] RELO_COLD inline void throw_out_of_range(const char* what) { std::__throw_out_of_range(what); }
[[noreturn]] RELO_COLD inline void throw_invalid_argument(const char* what) { std::__throw_invalid_argument(what); }
#else
[[noreturn]] RELO_COLD inline void throw_length_error(const char* what) { throw std::length_error(what); }
[[noreturn]] RELO_COLD inline void throw_out_of_range(const char* what) { throw std::out_of_range(what); }
[[noreturn]] RELO_COLD inline void throw_invalid_argument(const char* what) { throw std::invalid_argument(what); }
#endif
[[noreturn]] RELO_COLD inline void throw_bad_optional_access() { throw std::bad_optional_access(); }

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_ERRORS_HPP
