// relo/detail/os_memory.hpp — layer 1: every call relo makes to the operating system's virtual memory.
//
// Nothing else in relo calls mmap, mremap, mprotect, madvise or munmap. Every failure is checked here and
// becomes std::bad_alloc, or a `false` return where the caller has a fallback. Non-Linux POSIX systems
// get portable fallbacks (no mremap) in this file and nowhere else.
//
// All sizes are in bytes and are rounded up to whole pages here, so callers may pass exact byte counts
// as long as they pass the same count for the same block every time.
#ifndef RELO_DETAIL_OS_MEMORY_HPP
#define RELO_DETAIL_OS_MEMORY_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#define RELO_HAS_MALLOC_USABLE_SIZE 1
#else
#define RELO_HAS_MALLOC_USABLE_SIZE 0
#endif

#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"

#if defined(__linux__) && defined(MREMAP_MAYMOVE)
#define RELO_HAS_MREMAP 1
#else
#define RELO_HAS_MREMAP 0
#endif

#ifndef MAP_NORESERVE
#define MAP_NORESERVE 0
#endif
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

namespace relo::detail::os {

/// The virtual-memory page size (read once).
inline std::size_t page_size() noexcept {
    static const std::size_t size = [] {
        long s = ::sysconf(_SC_PAGESIZE);
        return s > 0 ? static_cast<std::size_t>(s) : std::size_t{4096};
    }();
    return size;
}

/// `bytes` rounded up to a whole number of pages; SIZE_MAX-safe (saturates to a value mmap rejects).
inline std::size_t round_up_to_pages(std::size_t bytes) noexcept {
    const std::size_t mask = page_size() - 1;
    if (bytes > SIZE_MAX - mask) return SIZE_MAX & ~mask;
    return (bytes + mask) & ~mask;
}

/// The bytes a malloc block of `requested` bytes really holds (malloc_usable_size where the C library
/// has it, otherwise `requested`).
inline std::size_t malloc_usable_bytes(void* p, std::size_t requested) noexcept {
#if RELO_HAS_MALLOC_USABLE_SIZE
    (void)requested;
    return ::malloc_usable_size(p);
#else
    (void)p;
    return requested;
#endif
}

/// Unmap a range obtained from reserve() (or a page-aligned part of one).
inline void release(void* p, std::size_t bytes) noexcept {
    if (p != nullptr && bytes != 0) (void)::munmap(p, round_up_to_pages(bytes));
}

/// Reserve `bytes` of address space with no access and no backing store; nullptr on failure.
inline void* try_reserve(std::size_t bytes) noexcept {
    void* p = ::mmap(nullptr, round_up_to_pages(bytes), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

/// Reserve `bytes` of address space with no access and no backing store. Throws std::bad_alloc.
inline void* reserve(std::size_t bytes) {
    void* p = try_reserve(bytes);
    if (p == nullptr) throw_bad_alloc();
    return p;
}

/// Reserve `bytes` of address space as try_reserve() does, starting at a multiple of `alignment` (a power
/// of two, a multiple of the page size): an over-sized reservation is trimmed. nullptr on failure.
inline void* try_reserve_aligned(std::size_t bytes, std::size_t alignment) noexcept {
    const std::size_t length = round_up_to_pages(bytes);
    if (alignment <= page_size()) return try_reserve(length);
    if (length > SIZE_MAX - alignment) return nullptr;
    char* raw = static_cast<char*>(try_reserve(length + alignment));
    if (raw == nullptr) return nullptr;
    const std::uintptr_t mask = alignment - 1;
    char* aligned = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(raw) + mask) & ~mask);
    if (aligned != raw) release(raw, static_cast<std::size_t>(aligned - raw));
    const std::size_t tail = static_cast<std::size_t>((raw + length + alignment) - (aligned + length));
    if (tail != 0) release(aligned + length, tail);
    return aligned;
}

/// Make reserved pages readable and writable. `p` must be page-aligned. False on failure.
inline bool commit(void* p, std::size_t bytes) noexcept {
    return ::mprotect(p, round_up_to_pages(bytes), PROT_READ | PROT_WRITE) == 0;
}

/// Give committed pages back to the system; they stay readable and writable (and read as zeros).
inline void discard(void* p, std::size_t bytes) noexcept {
#if defined(MADV_DONTNEED)
    (void)::madvise(p, round_up_to_pages(bytes), MADV_DONTNEED);
#else
    (void)p;
    (void)bytes;
#endif
}

/// Give committed pages back to the system and make them inaccessible again (the range stays reserved).
inline void decommit(void* p, std::size_t bytes) noexcept {
    discard(p, bytes);
    (void)::mprotect(p, round_up_to_pages(bytes), PROT_NONE);
}

/// The size of a transparent huge page (a PMD mapping), or 0 where relo does not use them.
constexpr std::size_t huge_page_size() noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && (defined(__x86_64__) || defined(__aarch64__))
    return std::size_t{2} << 20;
#else
    return 0;
#endif
}

/// Ask for transparent huge pages on a range (advice only; ignored where unsupported).
inline void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#if defined(MADV_HUGEPAGE)
    (void)::madvise(p, round_up_to_pages(bytes), MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

/// Resize the mapping at `p` without moving it. Shrinking always succeeds; growing succeeds when the
/// address space after the mapping is free. Never throws; false means nothing changed.
inline bool remap_in_place(void* p, std::size_t old_bytes, std::size_t new_bytes) noexcept {
    const std::size_t old_len = round_up_to_pages(old_bytes);
    const std::size_t new_len = round_up_to_pages(new_bytes);
    if (old_len == new_len) return true;
#if RELO_HAS_MREMAP
    return ::mremap(p, old_len, new_len, 0) != MAP_FAILED;
#else
    if (new_len < old_len) {
        release(static_cast<char*>(p) + new_len, old_len - new_len);
        return true;
    }
    return false;
#endif
}

/// Move the pages of [p, p + old_bytes) to `target` (page-aligned, inside address space the caller
/// reserved), resized to new_bytes; the old range is unmapped. Where the kernel can, page-table entries
/// move and no byte is copied. Throws std::bad_alloc; on a throw nothing changed.
inline void* remap_to(void* p, std::size_t old_bytes, std::size_t new_bytes, void* target) {
    const std::size_t old_len = round_up_to_pages(old_bytes);
    const std::size_t new_len = round_up_to_pages(new_bytes);
#if RELO_HAS_MREMAP && defined(MREMAP_FIXED)
    void* q = ::mremap(p, old_len, new_len, MREMAP_MAYMOVE | MREMAP_FIXED, target);
    if (q != MAP_FAILED) return q;
#endif
    // Portable path (and the kernel's refusal, e.g. a range that spans several mappings): copy.
    if (!commit(target, new_len)) throw_bad_alloc();
    std::memcpy(target, p, old_len < new_len ? old_len : new_len);
    release(p, old_len);
    return target;
}

}  // namespace relo::detail::os

#endif  // RELO_DETAIL_OS_MEMORY_HPP
