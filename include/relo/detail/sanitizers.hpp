// relo/detail/sanitizers.hpp — what relo tells AddressSanitizer about memory it holds but has not handed out.
//
// Under AddressSanitizer (GCC's -fsanitize=address or Clang's), and unless RELO_NO_SANITIZER_ANNOTATIONS is
// defined:
//   - the resources poison what they hold and did not hand out (a pool's free blocks, a monotonic chunk's
//     or an arena's bytes above the top), so a use after deallocate(), release(), rewind() or reset() is
//     reported as one after free() is;
//   - the containers annotate the unused part of their capacity (__sanitizer_annotate_contiguous_container,
//     as libstdc++ and libc++ do for std::vector), so reading data()[size()] is a container-overflow.
// Without AddressSanitizer every function here is empty.
// Layer 0, configuration and errors (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_SANITIZERS_HPP
#define RELO_DETAIL_SANITIZERS_HPP

#include <cstddef>
#include <cstdint>

#if !defined(RELO_NO_SANITIZER_ANNOTATIONS)
#if defined(__SANITIZE_ADDRESS__)
#define RELO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RELO_ASAN 1
#endif
#endif
#endif
#ifndef RELO_ASAN
#define RELO_ASAN 0
#endif

// ThreadSanitizer (which models no process-wide fence: relo's thread caches then order their owner's
// visits with sequentially consistent atomics instead, as on a POSIX system without one,
// detail/thread_cache.hpp).
#if defined(__SANITIZE_THREAD__)
#define RELO_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RELO_TSAN 1
#endif
#endif
#ifndef RELO_TSAN
#define RELO_TSAN 0
#endif

#if RELO_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// Whether relo::vector and relo::small_vector annotate the unused capacity of storage from Allocator under
/// AddressSanitizer (true unless specialized otherwise): an allocator that checks or reuses the memory
/// itself, or hands out storage not aligned to 8 bytes on purpose, may turn it off. (libc++ has the same
/// switch for std::vector: __asan_annotate_container_with_allocator.)
template <class Allocator>
struct sanitizer_annotations {
    static constexpr bool value = true;
};

RELO_ABI_NAMESPACE_END
}  // namespace relo

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// [p, p + bytes) may not be read or written until unpoisoned.
inline void poison(const void* p, std::size_t bytes) noexcept {
#if RELO_ASAN
    __asan_poison_memory_region(p, bytes);
#else
    (void)p;
    (void)bytes;
#endif
}

/// [p, p + bytes) may be used again.
inline void unpoison(const void* p, std::size_t bytes) noexcept {
#if RELO_ASAN
    __asan_unpoison_memory_region(p, bytes);
#else
    (void)p;
    (void)bytes;
#endif
}

/// Whether the byte at p is poisoned (always false without AddressSanitizer).
inline bool is_poisoned(const void* p) noexcept {
#if RELO_ASAN
    return __asan_address_is_poisoned(p) != 0;
#else
    (void)p;
    return false;
#endif
}

/// A contiguous container's storage [first, last), whose part from old_end on was unusable, now has its
/// part from new_end on unusable. The storage is annotated only when it
/// starts 8-aligned (what AddressSanitizer asks), and up to its last 8-aligned byte (so that the bytes after
/// it, another object's, are never touched): the few bytes past that stay usable.
inline void annotate_contiguous(const void* first, const void* last, const void* old_end, const void* new_end) noexcept {
#if RELO_ASAN
    const auto begin = reinterpret_cast<std::uintptr_t>(first);
    const auto end = reinterpret_cast<std::uintptr_t>(last) & ~std::uintptr_t{7};
    if (begin % 8 != 0 || end <= begin) return;
    const auto clamp = [&](const void* p) {
        const auto q = reinterpret_cast<std::uintptr_t>(p);
        return reinterpret_cast<const void*>(q < end ? q : end);
    };
    const void* from = clamp(old_end);
    const void* to = clamp(new_end);
    if (from != to) __sanitizer_annotate_contiguous_container(first, reinterpret_cast<const void*>(end), from, to);
#else
    (void)first;
    (void)last;
    (void)old_end;
    (void)new_end;
#endif
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_SANITIZERS_HPP
