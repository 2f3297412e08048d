// relo/detail/bump.hpp — bump allocation, the fast path of relo::vm_arena and
// relo::monotonic_resource.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_BUMP_HPP
#define RELO_DETAIL_BUMP_HPP

#include <cstddef>
#include <cstdint>

#include "relo/detail/config.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// `bytes` at a multiple of `alignment` (a power of two) from [top, end): the block, with top moved past
/// it; nullptr, and top unchanged, when it does not fit (also when aligning would wrap around).
RELO_ALWAYS_INLINE inline void* bump(char*& top, char* end, std::size_t bytes, std::size_t alignment) noexcept {
    RELO_EXPECTS(alignment != 0 && (alignment & (alignment - 1)) == 0);
    const std::uintptr_t from = reinterpret_cast<std::uintptr_t>(top);
    const std::uintptr_t start = (from + alignment - 1) & ~(std::uintptr_t{alignment} - 1);
    const std::uintptr_t limit = reinterpret_cast<std::uintptr_t>(end);
    if (RELO_UNLIKELY(start < from || start > limit || bytes > limit - start)) return nullptr;
    top = reinterpret_cast<char*>(start + bytes);
    return reinterpret_cast<void*>(start);
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_BUMP_HPP
