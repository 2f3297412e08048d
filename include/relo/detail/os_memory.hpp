// relo/detail/os_memory.hpp — every call relo makes to the operating system's virtual memory,
// and the C library's calls whose spelling differs between systems.
//
// Nothing else in relo calls mmap, mremap, mprotect, madvise, munmap, VirtualAlloc or VirtualFree. Every
// failure is checked here and becomes std::bad_alloc, or a `false` return where the caller has a
// fallback. Three backends, chosen here and nowhere else:
//   - Linux: mremap (growth in place, page-table moves), madvise (pages given back, transparent huge
//     pages), MAP_NORESERVE, malloc_usable_size.
//   - Any other POSIX system: what POSIX alone offers (mmap, mprotect, munmap): growth in place by a
//     mapping asked for right after the old one, moves by copying, pages given back by mapping fresh ones
//     over them, no malloc_usable_size. -DRELO_PORTABLE_POSIX forces it on Linux, which is how it is tested.
//   - Windows: VirtualAlloc's reserve (MEM_RESERVE) and commit (MEM_COMMIT), VirtualFree's decommit and
//     release; a reservation cannot grow in place, so a block past its reservation moves by copying
//     (docs/portability.md measures it); _msize; _aligned_malloc.
//
// All sizes are in bytes and are rounded up to whole pages here, so callers may pass exact byte counts
// as long as they pass the same count for the same block every time. A range given to release() is a
// whole reservation, as reserve() made it: Windows can only give back whole ones.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_OS_MEMORY_HPP
#define RELO_DETAIL_OS_MEMORY_HPP

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(_WIN32)
#include <malloc.h>
#define RELO_OS_WINDOWS 1
#define RELO_HAS_LINUX_VM 0
#define RELO_HAS_MALLOC_USABLE_SIZE 1  // (_msize)
#else
#include <sys/mman.h>
#include <unistd.h>
#define RELO_OS_WINDOWS 0
#if !defined(RELO_PORTABLE_POSIX) && (defined(__GLIBC__) || defined(__linux__))
#include <malloc.h>
#define RELO_HAS_MALLOC_USABLE_SIZE 1
#define RELO_HAS_LINUX_VM 1  // mremap, madvise, MAP_NORESERVE, transparent huge pages
#else
#define RELO_HAS_MALLOC_USABLE_SIZE 0
#define RELO_HAS_LINUX_VM 0
#endif
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif
#endif

#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/sync.hpp"  // (atomic; on Windows windows.h, lean: WIN32_LEAN_AND_MEAN, NOMINMAX)

#if RELO_HAS_LINUX_VM && defined(MREMAP_MAYMOVE)
#define RELO_HAS_MREMAP 1
#else
#define RELO_HAS_MREMAP 0
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail::os {

#if !RELO_OS_WINDOWS
/// mmap's flags for address space that is reserved, not backed: MAP_NORESERVE where the system has it.
#if RELO_HAS_LINUX_VM && defined(MAP_NORESERVE)
inline constexpr int reserve_flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
#else
inline constexpr int reserve_flags = MAP_PRIVATE | MAP_ANONYMOUS;
#endif
#endif

/// The virtual-memory page size, from the system.
inline std::size_t system_page_size() noexcept {
#if RELO_OS_WINDOWS
    SYSTEM_INFO info;
    ::GetSystemInfo(&info);
    const long s = static_cast<long>(info.dwPageSize);
#else
    const long s = ::sysconf(_SC_PAGESIZE);
#endif
    return s > 0 ? static_cast<std::size_t>(s) : std::size_t{4096};
}

/// The virtual-memory page size (read once per thread that finds none yet: each reads the same value, so
/// a race only repeats the call; not a guarded static, which a child of fork may find half made).
inline std::size_t page_size() noexcept {
    RELO_CONSTINIT static atomic<std::size_t> size{0};
    std::size_t s = size.load(memory_order_relaxed);
    if (RELO_UNLIKELY(s == 0)) {
        s = system_page_size();
        size.store(s, memory_order_relaxed);
    }
    return s;
}

/// `bytes` rounded up to a whole number of pages; SIZE_MAX-safe (saturates to a value the system rejects).
inline std::size_t round_up_to_pages(std::size_t bytes) noexcept {
    const std::size_t mask = page_size() - 1;
    if (bytes > SIZE_MAX - mask) return SIZE_MAX & ~mask;
    return (bytes + mask) & ~mask;
}

/// The bytes a malloc block of `requested` bytes really holds (malloc_usable_size or _msize where the C
/// library has it, otherwise `requested`).
inline std::size_t malloc_usable_bytes(void* p, std::size_t requested) noexcept {
#if RELO_OS_WINDOWS
    (void)requested;
    return ::_msize(p);
#elif RELO_HAS_MALLOC_USABLE_SIZE
    (void)requested;
    return ::malloc_usable_size(p);
#else
    (void)p;
    return requested;
#endif
}

/// `bytes` (rounded up to a multiple of `alignment`, a power of two above alignof(max_align_t)) from the
/// C library's heap; nullptr on failure. Given back with aligned_free().
inline void* aligned_malloc(std::size_t bytes, std::size_t alignment) noexcept {
    const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;  // (what aligned_alloc asks)
#if RELO_OS_WINDOWS
    return ::_aligned_malloc(rounded == 0 ? alignment : rounded, alignment);
#else
    return std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
#endif
}
/// What malloc_usable_bytes() is to malloc, for a block of aligned_malloc().
inline std::size_t aligned_usable_bytes(void* p, std::size_t requested, std::size_t alignment) noexcept {
#if RELO_OS_WINDOWS
    (void)p;  // (_aligned_msize is not in every C runtime mingw-w64 targets)
    (void)alignment;
    return requested;
#else
    (void)alignment;
    return malloc_usable_bytes(p, requested);
#endif
}
inline void aligned_free(void* p) noexcept {
#if RELO_OS_WINDOWS
    ::_aligned_free(p);
#else
    std::free(p);
#endif
}

// A block of the C library's heap at `alignment` (any power of two): malloc up to alignof(max_align_t),
// aligned_malloc beyond. The one place relo's allocators take a heap block (page_allocator's small blocks,
// a large block's stand-in for a reservation).
inline bool over_aligned(std::size_t alignment) noexcept { return alignment > alignof(std::max_align_t); }
inline void* heap_allocate(std::size_t bytes, std::size_t alignment) noexcept {
    return over_aligned(alignment) ? aligned_malloc(bytes, alignment) : std::malloc(bytes == 0 ? 1 : bytes);
}
inline void heap_free(void* p, std::size_t alignment) noexcept {
    if (over_aligned(alignment)) {
        aligned_free(p);
    } else {
        std::free(p);
    }
}
inline std::size_t heap_usable_bytes(void* p, std::size_t requested, std::size_t alignment) noexcept {
    return over_aligned(alignment) ? aligned_usable_bytes(p, requested, alignment) : malloc_usable_bytes(p, requested);
}

/// The reservations relo holds: large blocks, pinned_vector's and vm_arena's ranges, cached ones included
/// (one to a few of the kernel's mappings each). detail/large_block.hpp takes no more past its limit.
inline atomic<std::size_t> reservations_held{0};
inline void count_reservation() noexcept { reservations_held.fetch_add(1, memory_order_relaxed); }
inline void uncount_reservation() noexcept { reservations_held.fetch_sub(1, memory_order_relaxed); }

/// Unmaps a page-aligned part of a reservation (POSIX) without ending it.
inline void unmap_part(void* p, std::size_t bytes) noexcept {
#if !RELO_OS_WINDOWS
    if (bytes != 0) (void)::munmap(p, round_up_to_pages(bytes));
#else
    (void)p;
    (void)bytes;
#endif
}

/// Gives back a whole reservation, [p, p + bytes), as reserve() made it; on POSIX systems also what is
/// left of one whose other pages moved away (remap_to), bytes 0 when nothing is.
inline void release(void* p, std::size_t bytes) noexcept {
    if (p == nullptr) return;
    uncount_reservation();
#if RELO_OS_WINDOWS
    (void)bytes;
    (void)::VirtualFree(p, 0, MEM_RELEASE);
#else
    unmap_part(p, bytes);
#endif
}

/// Reserve `bytes` of address space with no access and no backing store; nullptr on failure.
inline void* try_reserve(std::size_t bytes) noexcept {
#if RELO_OS_WINDOWS
    void* p = ::VirtualAlloc(nullptr, round_up_to_pages(bytes), MEM_RESERVE, PAGE_NOACCESS);
#else
    void* p = ::mmap(nullptr, round_up_to_pages(bytes), PROT_NONE, reserve_flags, -1, 0);
    if (p == MAP_FAILED) p = nullptr;
#endif
    if (p != nullptr) count_reservation();
    return p;
}

/// Reserve `bytes` of address space with no access and no backing store. Throws std::bad_alloc.
inline void* reserve(std::size_t bytes) {
    void* p = try_reserve(bytes);
    if (p == nullptr) throw_bad_alloc();
    return p;
}

/// Reserve `bytes` of address space as try_reserve() does, starting at a multiple of `alignment` (a power
/// of two, a multiple of the page size). nullptr on failure.
inline void* try_reserve_aligned(std::size_t bytes, std::size_t alignment) noexcept {
    const std::size_t length = round_up_to_pages(bytes);
    if (alignment <= page_size()) return try_reserve(length);
    if (length > SIZE_MAX - alignment) return nullptr;
    const std::uintptr_t mask = alignment - 1;
#if RELO_OS_WINDOWS
    // A reservation is given back whole, never trimmed: find an aligned address in a larger one, give
    // that back and reserve at the address (another thread may take it meanwhile: then try again).
    for (int attempt = 0; attempt < 8; ++attempt) {
        void* raw = try_reserve(length + alignment);
        if (raw == nullptr) return nullptr;
        const auto aligned = (reinterpret_cast<std::uintptr_t>(raw) + mask) & ~mask;
        (void)::VirtualFree(raw, 0, MEM_RELEASE);  // (the count stays: this reservation takes its place)
        if (void* p = ::VirtualAlloc(reinterpret_cast<void*>(aligned), length, MEM_RESERVE, PAGE_NOACCESS)) return p;
        uncount_reservation();
    }
    return nullptr;
#else
    // An over-sized reservation, trimmed.
    char* raw = static_cast<char*>(try_reserve(length + alignment));
    if (raw == nullptr) return nullptr;
    char* aligned = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(raw) + mask) & ~mask);
    unmap_part(raw, static_cast<std::size_t>(aligned - raw));
    unmap_part(aligned + length, static_cast<std::size_t>((raw + length + alignment) - (aligned + length)));
    return aligned;
#endif
}

/// Make reserved pages readable and writable. `p` must be page-aligned. False on failure.
inline bool commit(void* p, std::size_t bytes) noexcept {
#if RELO_OS_WINDOWS
    return ::VirtualAlloc(p, round_up_to_pages(bytes), MEM_COMMIT, PAGE_READWRITE) != nullptr;
#else
    return ::mprotect(p, round_up_to_pages(bytes), PROT_READ | PROT_WRITE) == 0;
#endif
}

/// Give committed pages back to the system and make them inaccessible again (the range stays reserved).
inline void decommit(void* p, std::size_t bytes) noexcept {
#if RELO_OS_WINDOWS
    (void)::VirtualFree(p, round_up_to_pages(bytes), MEM_DECOMMIT);
#elif RELO_HAS_LINUX_VM
    (void)::madvise(p, round_up_to_pages(bytes), MADV_DONTNEED);
    (void)::mprotect(p, round_up_to_pages(bytes), PROT_NONE);
#else
    // (Fresh reserved pages mapped over the range: the old ones go back; POSIX has nothing lighter.)
    (void)::mmap(p, round_up_to_pages(bytes), PROT_NONE, reserve_flags | MAP_FIXED, -1, 0);
#endif
}

/// The size of a transparent huge page (a PMD mapping), or 0 where relo does not use them. (Windows'
/// large pages need a privilege and are committed when reserved, which reserve-then-commit cannot use.)
constexpr std::size_t huge_page_size() noexcept {
#if RELO_HAS_LINUX_VM && defined(MADV_HUGEPAGE) && (defined(__x86_64__) || defined(__aarch64__))
    return std::size_t{2} << 20;
#else
    return 0;
#endif
}

/// `bytes` rounded up to whole huge pages (to whole pages where relo uses none).
inline std::size_t round_up_to_huge_pages(std::size_t bytes) noexcept {
    const std::size_t unit = huge_page_size() != 0 ? huge_page_size() : page_size();
    return (bytes + unit - 1) / unit * unit;
}

/// Ask for transparent huge pages on a range (advice only; ignored where unsupported).
inline void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#if RELO_HAS_LINUX_VM && defined(MADV_HUGEPAGE)
    (void)::madvise(p, round_up_to_pages(bytes), MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

/// Grow the reservation at `p` (its last mapping, old_bytes long) without moving it, when the address
/// space after it is free. Never throws; false means nothing changed. (Windows: always false. A second
/// reservation right after the first would have to be given back on its own.)
inline bool remap_in_place(void* p, std::size_t old_bytes, std::size_t new_bytes) noexcept {
    const std::size_t old_len = round_up_to_pages(old_bytes);
    const std::size_t new_len = round_up_to_pages(new_bytes);
    if (new_len <= old_len) return new_len == old_len;
#if RELO_OS_WINDOWS
    (void)p;
    return false;
#elif RELO_HAS_MREMAP
    return ::mremap(p, old_len, new_len, 0) != MAP_FAILED;
#else
    // A reservation asked for right after the mapping: where the system puts it there, the two are one
    // range to munmap (and to commit in, page by page). Without MAP_FIXED nothing else is overwritten.
    char* const end = static_cast<char*>(p) + old_len;
    void* q = ::mmap(end, new_len - old_len, PROT_NONE, reserve_flags, -1, 0);
    if (q == MAP_FAILED) return false;
    if (q == end) return true;
    (void)::munmap(q, new_len - old_len);
    return false;
#endif
}

/// Copy [p, p + old_bytes) to `target` (the start of a reservation the caller made), committing new_bytes
/// there, then give back the whole old reservation, [p, p + old_reserved). Throws std::bad_alloc; on a
/// throw nothing changed.
inline void copy_to(void* p, std::size_t old_bytes, std::size_t old_reserved, std::size_t new_bytes, void* target) {
    const std::size_t old_len = round_up_to_pages(old_bytes);
    const std::size_t new_len = round_up_to_pages(new_bytes);
    if (!commit(target, new_len)) throw_bad_alloc();
    std::memcpy(target, p, old_len < new_len ? old_len : new_len);
    release(p, old_reserved);
}

/// Move the pages of [p, p + old_bytes) to `target` (the start of a reservation the caller made), resized
/// to new_bytes and committed, then give back the whole old reservation, [p, p + old_reserved). Where the
/// kernel can, page-table entries move and no byte is copied: one call per kernel mapping of the old
/// range, whose starts after the first are mapping_starts (ascending; those past old_bytes are ignored),
/// since the kernel refuses a move that spans mappings (and kernels before 6.17 unmap the destination
/// before refusing). Returns how many bytes moved as pages, from p on (0: all were copied; the new range
/// then is one mapping). Throws std::bad_alloc; on a throw nothing changed.
inline std::size_t remap_to(void* p, std::size_t old_bytes, std::size_t old_reserved, std::size_t new_bytes,
                            void* target, const std::size_t* mapping_starts, std::size_t mapping_start_count) {
#if RELO_HAS_MREMAP && defined(MREMAP_FIXED)
    const std::size_t old_len = round_up_to_pages(old_bytes);
    const std::size_t new_len = round_up_to_pages(new_bytes);
    char* const from = static_cast<char*>(p);
    char* const to = static_cast<char*>(target);
    // The new pages first: what may fail does so before anything moves.
    if (new_len >= old_len && (new_len == old_len || commit(to + old_len, new_len - old_len))) {
        // Moves the mappings of [0, limit) from `src` to `dst`, one call each, up to the first the kernel
        // refuses (its limit on mappings); returns how far it got.
        const auto move_mappings = [&](char* src, char* dst, std::size_t limit) noexcept {
            std::size_t done = 0;
            for (std::size_t k = 0; k <= mapping_start_count && done < limit; ++k) {
                const std::size_t end = k < mapping_start_count ? mapping_starts[k] : limit;
                if (end <= done || end > limit) continue;
                if (::mremap(src + done, end - done, end - done, MREMAP_MAYMOVE | MREMAP_FIXED, dst + done) == MAP_FAILED)
                    break;
                done = end;
            }
            return done;
        };
        const std::size_t moved = move_mappings(from, to, old_len);  // (what the kernel refused is copied)
        if (moved == old_len || commit(to + moved, old_len - moved)) {
            std::memcpy(to + moved, from + moved, old_len - moved);
            release(from + moved, old_reserved - moved);  // (the moved pages left holes: nothing to give back)
            return moved;
        }
        // Not even a copy fits: the moved pages go back, best effort, and nothing changed.
        (void)move_mappings(to, from, moved);
        throw_bad_alloc();
    }
#else
    (void)mapping_starts;
    (void)mapping_start_count;
#endif
    copy_to(p, old_bytes, old_reserved, new_bytes, target);
    return 0;
}

/// Copies an environment variable's value into `buffer` (`size` bytes; a longer value is written as
/// "(too long)", which no setting reads); false when it is unset. relo reads each of its settings once, at its first use (docs/settings.md); like any read
/// of the environment it must not race the host's own setenv or putenv.
inline bool environment_variable(const char* name, char* buffer, std::size_t size) noexcept {
    const char* value = buffer;
#if RELO_OS_WINDOWS
    // (The process's environment, not a C runtime's copy of it, which a DLL with its own runtime has.)
    const DWORD n = ::GetEnvironmentVariableA(name, buffer, static_cast<DWORD>(size));
    if (n == 0) return false;
    const bool too_long = n >= size;
#else
    value = std::getenv(name);
    if (value == nullptr) return false;
    const bool too_long = std::strlen(value) >= size;
#endif
    if (too_long) value = "(too long)";  // (not a value of relo's, rather than a part of one)
    if (value != buffer) {
        std::size_t i = 0;
        for (; i + 1 < size && value[i] != '\0'; ++i) buffer[i] = value[i];
        buffer[i] = '\0';
    }
    return true;
}

}  // namespace detail::os

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_OS_MEMORY_HPP
