// relo/page_allocator.hpp — relo's default allocator: malloc for small blocks, reserved mappings for large ones.
//
// relo::page_allocator<T> is a standard Allocator (stateless, always equal) that also offers the expansion
// protocol of docs/expansion_protocol.md:
//   allocate_at_least(n)          reports the block's real size (malloc_usable_size, or whole pages);
//   try_expand(p, old_n, new_n)   resizes a block in place, never moving it: a large block commits more of
//                                 its reservation; a small one grows within the malloc chunk's slack;
//   may_expand(n)                 whether try_expand can grow a block allocate_at_least returned (a large
//                                 one only): containers skip the call otherwise;
//   prefers_new_block(p, used_n, old_n, new_n)
//                                 whether a growth had better move into a new block (the thread's cached
//                                 block whose warm pages hold it) than fault fresh pages in place;
//   reallocate(p, old_n, new_n)   moves the *bytes* when it cannot grow in place (realloc, or for a large
//                                 block mremap into a larger reservation: page-table entries move, nothing
//                                 is copied). Containers call it only for trivially relocatable types.
//
// A large block (detail/large_block.hpp) reserves several times its size in address space and commits
// pages as it grows, so growth in place almost always succeeds, whatever the element type; a policy may
// give them transparent huge pages from a threshold on (large_block_policy: from 2 MiB; the default: 4 KiB
// pages only). By default trivially relocatable types use large blocks from 32 MiB (64 KiB on Windows; they
// move into a larger reservation by mremap when theirs is used up: no element is copied; one that grows
// past 32 MiB from the heap stays there, below) and other types
// from 128 KiB; below that, malloc and realloc. A large block is a reservation only while relo can keep its pages warm (its live
// reserved blocks and all its warm caches within the warm budget and a thread's large-block cache), or from
// 32 MiB; past that it comes from the heap, as std::vector's would (docs/settings.md, "Where a large block
// comes from"). A trivially relocatable type's heap block that grows past 32 MiB stays on the heap
// (realloc: glibc moves a block it mapped itself by mremap). A released large block, a reservation or a
// heap block of 32 MiB or more, stays warm in its thread's cache for the next one
// (large_block_cache_limit()). Whether a block is malloc'ed or large is a pure function of its size in bytes
// and of T, so deallocate(p, n) needs no lookup; a large block's header says whether it is a reservation or,
// when the system gave none (or relo holds reservation_limit() of them), a block from the heap. docs/measurements/thresholds.md has the measurements behind
// both policies.
//
// During constant evaluation every request goes to std::allocator<T>.
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_PAGE_ALLOCATOR_HPP
#define RELO_PAGE_ALLOCATOR_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <type_traits>

#include "relo/detail/allocation.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/large_block.hpp"
#include "relo/detail/os_memory.hpp"
#include "relo/relocation.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// Where page_allocator switches from malloc to its own large blocks, and how those behave. A custom
/// policy is any type with these static members (heap_maps_fresh_from may be left out: then 32 MiB); pass
/// it as page_allocator's second argument.
/// docs/measurements/thresholds.md has the measurements behind each value.
struct page_allocator_policy {
    /// For trivially relocatable T: blocks of at least this many bytes are large blocks; below it they
    /// grow by realloc in the heap, as std::vector's blocks live there. Where the heap has warm memory,
    /// realloc copies into it (a copy of a warm page costs a small part of a fault) or extends in place;
    /// where it has none, glibc maps the block itself and realloc moves its pages with mremap, as a large
    /// block's growth would. A page that mremap moved costs a fault in the host at its next touch where a
    /// hypervisor shadows the guest's page tables, which no minor-fault count shows, so relo's own
    /// mappings below this size made long-lived programs slower than std::vector there. Why 32 MiB
    /// (heap_maps_fresh_from): from there on glibc maps every block fresh, and a large block's
    /// reservation and its warm cache fault no more (docs/measurements/thresholds.md, "A moved page's
    /// cost, and relocatable types from the heap below 32 MiB"). On Windows 64 KiB: its realloc
    /// (HeapReAlloc) copies a large block at every growth, slower than std::vector's own growth
    /// (docs/measurements/portability.md).
    static constexpr std::size_t relocatable_mapping_threshold =
        RELO_OS_WINDOWS ? std::size_t{64} << 10 : std::size_t{32} << 20;
    /// For other T: blocks of at least this many bytes are large blocks (they grow in place, which no
    /// malloc can do for them: no element is moved). Why 128 KiB: the thresholds around it measured
    /// slower for the thesis's test type and std::string, fresh and long-lived
    /// (docs/measurements/thresholds.md, "Other types: large blocks from 128 KiB").
    static constexpr std::size_t other_mapping_threshold = std::size_t{128} << 10;
    /// A large block reserves this many times its size in address space, to grow into in place.
    static constexpr std::size_t reservation_factor = 16;
    /// Large blocks committing at least this many bytes use transparent huge pages (SIZE_MAX: never).
    /// Never by default: where huge pages are cold (the host must back them anew) they made large vectors
    /// slower than std::vector, where they are warm faster; the same bytes on 4 KiB pages cost the same on
    /// every machine (docs/measurements/thresholds.md, "Huge pages for the other types").
    /// large_block_policy uses them from 2 MiB.
    static constexpr std::size_t huge_page_threshold = static_cast<std::size_t>(-1);
    /// New large blocks of at least this many bytes are reservations whatever relo holds (a trivially
    /// relocatable type's heap block that grows past it stays on the heap, by realloc). Smaller ones are
    /// reservations while relo's live large blocks commit no more than the warm budget can keep
    /// (warm_memory_limit()), so that every page relo maps serves again warm, and come from the heap past
    /// it, where the pages std::vector's blocks free are. Why 32 MiB: glibc maps every block that large
    /// fresh (its mmap threshold rises no further), so a reservation faults no more than the heap would.
    static constexpr std::size_t heap_maps_fresh_from = std::size_t{32} << 20;
    /// Small blocks below this many bytes grow by malloc-copy-free (which hits malloc's per-thread cache)
    /// rather than by realloc (which does not); from it on, realloc may extend the block in place.
    static constexpr std::size_t realloc_threshold = 1024;
};

/// Large blocks with huge pages for every element type from 2 MiB: trivially relocatable vectors grow
/// by committing pages in place and by mremap into larger reservations, 2 MiB at a fault. The fastest
/// policy where a huge page's first touch is cheap, and slower than std::vector where it is cold; measure
/// before choosing it (docs/measurements/thresholds.md).
struct large_block_policy : page_allocator_policy {
    /// For trivially relocatable T: large blocks from 2 MiB (other T: page_allocator_policy's threshold).
    static constexpr std::size_t relocatable_mapping_threshold = std::size_t{2} << 20;
    /// Large blocks committing at least 2 MiB use transparent huge pages.
    static constexpr std::size_t huge_page_threshold = std::size_t{2} << 20;
};

/// (The warm-block cache is one of relo/warm_memory.hpp's three.)
/// The most committed bytes of released large blocks (on 4 KiB pages) each thread keeps warm for its next
/// large blocks (default 64 MiB, as much as glibc keeps at the top of its heap once its mmap threshold has
/// risen; measured in docs/measurements/thresholds.md, "Warm blocks"; 0 keeps none). Applies from the next
/// block released.
inline std::size_t large_block_cache_limit() noexcept {
    return detail::large_block_cache_limit_bytes.load(detail::memory_order_relaxed);
}
/// Sets large_block_cache_limit() for every thread, from the next block released.
inline void set_large_block_cache_limit(std::size_t bytes) noexcept {
    detail::large_block_cache_limit_bytes.store(bytes, detail::memory_order_relaxed);
}

/// Committed bytes the calling thread's warm-block cache holds.
inline std::size_t large_block_cache_bytes() noexcept {
    return detail::warm_block_thread_cache::visit([](const detail::warm_block_cache_state& c) { return c.held; });
}

/// Gives the calling thread's cached large blocks back (reservations to the system, heap blocks to the heap).
inline void trim_large_block_cache() noexcept { (void)detail::warm_block_thread_cache::trim(); }

/// The most reservations of address space relo holds before its containers' large blocks come from the
/// heap instead (default 16,384). A reservation is a large block (kept warm in a cache or not), a
/// pinned_vector's or a vm_arena's range; the kernel counts two or more mappings for each, and refuses
/// any mapping past vm.max_map_count (65,530 by default on Linux): then the C library's malloc fails too,
/// and so would every vector. A block on the heap grows by realloc, as std::vector's would, and stays
/// there. pinned_vector and vm_arena need their reservation and take it up to the system's limit.
inline std::size_t reservation_limit() noexcept {
    return detail::large_block_reservation_limit.load(detail::memory_order_relaxed);
}
/// Sets reservation_limit() for the whole process, from the next large block on.
inline void set_reservation_limit(std::size_t count) noexcept {
    detail::large_block_reservation_limit.store(count, detail::memory_order_relaxed);
}
/// The reservations of address space relo holds now, cached ones included.
inline std::size_t reservations_held() noexcept {
    return detail::os::reservations_held.load(detail::memory_order_relaxed);
}

namespace detail {

/// Policy::heap_maps_fresh_from, or page_allocator_policy's for a policy written before it existed.
template <class Policy, class = void>
struct heap_maps_fresh_from_of : std::integral_constant<std::size_t, page_allocator_policy::heap_maps_fresh_from> {};
template <class Policy>
struct heap_maps_fresh_from_of<Policy, std::void_t<decltype(Policy::heap_maps_fresh_from)>>
    : std::integral_constant<std::size_t, Policy::heap_maps_fresh_from> {};

/// page_allocator's work on bytes, shared by every element type with the same policy, alignment and mapping
/// threshold: what allocating, resizing and giving back cost in code is paid once per program instead of
/// once per element type (a unit using vectors of forty types compiled to more code when each type had its
/// own copy: docs/measurements/build_cost.md, "Targets and where they stand"). Out of line: its callers are growth paths, where
/// a call is nothing beside the allocation.
template <class Policy, std::size_t Alignment, std::size_t Threshold>
struct page_blocks {
    /// A large block keeps its header (its lengths, where its mappings begin) in front of the elements.
    static constexpr std::size_t header_bytes = Alignment > 64 ? Alignment : 64;
    static_assert(large_block::header_size <= 64, "a large block's header fits before the elements");
    static constexpr std::size_t usable_size_query_bytes = 256;

    // (An object, passed by reference: by value, its 32 bytes went through the stack in every
    // destructor that gives a block back.)
    static constexpr large_block_options options{Policy::reservation_factor, Policy::huge_page_threshold, Alignment,
                                                 heap_maps_fresh_from_of<Policy>::value};
    static constexpr bool is_mapped(std::size_t bytes) noexcept { return bytes >= Threshold; }

    /// A block of at least `bytes` (> 0 or 0), and the bytes it holds: a malloc block's usable size (kept
    /// below the threshold, so that giving it back still recognises it), a large block's committed bytes.
    /// A small block inline (a vector's first blocks: the call measured in a churn of tiny vectors), the
    /// rest out of line.
    RELO_ALWAYS_INLINE static allocation_result<void*> allocate(std::size_t bytes) {
        if (bytes < usable_size_query_bytes && !is_mapped(bytes)) return {malloc_block(bytes), bytes};
        return allocate_larger(bytes);
    }
    RELO_NOINLINE static allocation_result<void*> allocate_larger(std::size_t bytes) {
        if (is_mapped(bytes)) {
            const auto block = large_block::allocate(header_bytes, bytes, options);
            return {block.data, block.usable_bytes};
        }
        void* p = malloc_block(bytes);
        // A small chunk's slack is a few bytes, not worth the call (it was a measurable part of a
        // small_vector's push_back workload: docs/measurements/small_vectors.md).
        if (bytes < usable_size_query_bytes) return {p, bytes};
        std::size_t usable = usable_bytes(p, bytes);
        if (usable >= Threshold) usable = Threshold - 1;
        return {p, usable > bytes ? usable : bytes};
    }

    static void deallocate(void* p, std::size_t bytes) noexcept {
        if (is_mapped(bytes)) {
            large_block::release(p, header_bytes, options);
        } else {
            free_block(p);
        }
    }

    RELO_NOINLINE static bool try_expand(void* p, std::size_t old_bytes, std::size_t new_bytes) noexcept {
        if (is_mapped(old_bytes))
            return is_mapped(new_bytes) && large_block::resize_in_place(p, header_bytes, old_bytes, new_bytes, options);
        if (is_mapped(new_bytes) || new_bytes < old_bytes) return false;
        // Below usable_size_query_bytes the slack is a few bytes, reported nowhere (allocate), and the
        // query reads the next chunk's header: a cache miss on every growth (a measurable part of a
        // Boost.Graph build whose edge lists grow to 8 elements: docs/measurements/applications.md).
        if (old_bytes < usable_size_query_bytes) return false;
        return usable_bytes(p, old_bytes) >= new_bytes;
    }

    static bool prefers_new_block(void* p, std::size_t used_bytes, std::size_t old_bytes, std::size_t new_bytes) noexcept {
        // (A growth from a large block is one to a large block.)
        return is_mapped(old_bytes) &&
               large_block::warm_block_beats_growth(p, header_bytes, used_bytes, new_bytes, options);
    }

    // (Out of line whole: inlined, the small blocks' copy, whose size the compiler then bounds, became a
    // `rep movsq`, slower than memcpy's call for a growing vector of 40 ints: docs/measurements/build_cost.md,
    // "Targets and where they stand".)
    RELO_NOINLINE static void* reallocate(void* p, std::size_t old_bytes, std::size_t new_bytes) {
        const bool old_mapped = is_mapped(old_bytes);
        const bool new_mapped = is_mapped(new_bytes);
        if (old_mapped && new_mapped) return large_block::reallocate(p, header_bytes, old_bytes, new_bytes, options);
        if (!old_mapped && !new_mapped && Alignment <= alignof(std::max_align_t) && old_bytes >= Policy::realloc_threshold) {
            void* q = std::realloc(p, new_bytes == 0 ? 1 : new_bytes);
            if (q == nullptr) throw_bad_alloc();
            return q;
        }
        // A block growing past heap_maps_fresh_from stays on the heap (large_block::grow_heap_block).
        if (new_mapped && !old_mapped && new_bytes >= options.heap_maps_fresh_from &&
            large_block::realloc_moves_pages(options))
            return large_block::grow_heap_block(p, header_bytes, old_bytes, new_bytes, options);
        // Small blocks, blocks crossing the malloc/large boundary, over-aligned malloc blocks:
        // allocate, copy, free.
        void* q = new_mapped ? allocate(new_bytes).ptr : malloc_block(new_bytes);
        std::memcpy(q, p, old_bytes < new_bytes ? old_bytes : new_bytes);
        deallocate(p, old_bytes);
        return q;
    }

    static void* malloc_block(std::size_t bytes) {
        void* p = os::heap_allocate(bytes, Alignment);
        if (p == nullptr) throw_bad_alloc();
        return p;
    }
    static void free_block(void* p) noexcept { os::heap_free(p, Alignment); }
    static std::size_t usable_bytes(void* p, std::size_t requested) noexcept {
        return os::heap_usable_bytes(p, requested, Alignment);
    }
};

/// page_allocator<T, Policy>::mapping_threshold().
template <class T, class Policy>
constexpr std::size_t mapping_threshold_of() noexcept {
    if constexpr (alignof(T) > 4096) {
        return std::numeric_limits<std::size_t>::max();  // a page cannot promise the alignment
    } else if constexpr (is_trivially_relocatable_v<T>) {
        return Policy::relocatable_mapping_threshold;
    } else {
        return Policy::other_mapping_threshold;
    }
}

}  // namespace detail

/// relo's default allocator: malloc for small blocks, reserved mappings that grow in place for large
/// ones (which are which: this header's opening comment), with the expansion protocol's allocate_at_least,
/// try_expand and reallocate (docs/expansion_protocol.md). Stateless; every instance is equal.
template <class T, class Policy = page_allocator_policy>
class page_allocator {
public:
    /// The standard allocator's member types: it propagates on move assignment and swap, not on copy
    /// assignment, and instances are always equal.
    ///@{
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using propagate_on_container_copy_assignment = std::false_type;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    using is_always_equal = std::true_type;
    ///@}

    /// The allocator of U with the same policy.
    template <class U>
    struct rebind {
        using other = page_allocator<U, Policy>;  ///< `page_allocator<U, Policy>`
    };

    /// Stateless: nothing to construct or copy; never throws.
    ///@{
    constexpr page_allocator() noexcept = default;
    template <class U>
    constexpr page_allocator(const page_allocator<U, Policy>&) noexcept {}
    ///@}
    /// From std::allocator (both are stateless): code ported from std::vector that passes
    /// std::allocator<T>() to a constructor compiles unchanged.
    template <class U>
    constexpr page_allocator(const std::allocator<U>&) noexcept {}

    /// Blocks of at least this many bytes are large blocks (reserved mappings); smaller ones come from malloc.
    static constexpr std::size_t mapping_threshold() noexcept { return detail::mapping_threshold_of<T, Policy>(); }

    /// The most objects of T a block can hold: PTRDIFF_MAX / sizeof(T).
    static constexpr size_type max_size() noexcept {
        return static_cast<size_type>(std::numeric_limits<std::ptrdiff_t>::max()) / sizeof(T);
    }

    /// Allocates room for n objects. Throws std::bad_array_new_length if n > max_size(), else
    /// std::bad_alloc on failure.
    [[nodiscard]] RELO_CONSTEXPR20 T* allocate(size_type n) { return allocate_at_least(n).ptr; }

    /// Allocates room for at least n objects and reports how many the block really holds.
    [[nodiscard]] RELO_CONSTEXPR20 allocation_result<T*> allocate_at_least(size_type n) {
        if (detail::is_constant_evaluated()) return {std::allocator<T>{}.allocate(n), n};
        if (n > max_size()) detail::throw_bad_array_new_length();
        const auto block = blocks_of<T>::allocate(n * sizeof(T));
        const std::size_t count = block.count / sizeof(T);
        return {static_cast<T*>(block.ptr), count > n ? count : n};
    }

    /// Gives back the block at p. n is the count allocate() was asked for, or, for allocate_at_least(), any
    /// count from the one asked for to the one returned. Never throws.
    RELO_CONSTEXPR20 void deallocate(T* p, size_type n) noexcept {
        if (detail::is_constant_evaluated()) {
            std::allocator<T>{}.deallocate(p, n);
            return;
        }
        blocks_of<T>::deallocate(p, n * sizeof(T));
    }

    /// Resizes the block at p (holding old_n objects) in place to hold new_n objects; never moves it.
    /// Growing works for a mapping when the address space behind it is free, and for a malloc block
    /// within its slack; shrinking works for a mapping (the tail pages are returned). Returns false and
    /// changes nothing otherwise.
    bool try_expand(T* p, size_type old_n, size_type new_n) noexcept {
        if (new_n > max_size()) return false;
        return blocks_of<T>::try_expand(p, old_n * sizeof(T), new_n * sizeof(T));
    }

    /// Whether try_expand can grow a block of n objects that allocate_at_least returned: only a large
    /// block can. A malloc block's count already holds its usable size (allocate_at_least), so a
    /// container skips the call and its query of the usable size (docs/measurements/vector.md,
    /// "Inserting ranges, and growth calls in registers").
    static constexpr bool may_expand(size_type n) noexcept {
        constexpr std::size_t t = mapping_threshold();  // (the fewest objects reaching it, without overflow)
        return n >= t / sizeof(T) + (t % sizeof(T) != 0);
    }

    /// Whether a container growing the block at p (old_n objects, the first used_n constructed) to new_n
    /// had better move them into a new block than grow it in place: true where the block
    /// allocate_at_least(new_n) would take from the thread's warm-block cache is a reservation whose
    /// committed pages hold new_n objects, and growing in place would fault in fresh pages of at least an
    /// eighth of the used_n objects' bytes (a move copies no more than std::vector's growth always does).
    /// A hint, asked once before try_expand (docs/expansion_protocol.md).
    bool prefers_new_block(T* p, size_type used_n, size_type old_n, size_type new_n) const noexcept {
        if (new_n > max_size()) return false;
        return blocks_of<T>::prefers_new_block(p, used_n * sizeof(T), old_n * sizeof(T), new_n * sizeof(T));
    }

    /// Resizes the block at p (holding old_n objects) to hold new_n objects, moving its bytes (not
    /// objects) if it cannot be resized in place; the first min(old_n, new_n) objects' bytes are kept.
    /// Only for trivially relocatable contents. Throws std::bad_alloc; then p is untouched.
    [[nodiscard]] T* reallocate(T* p, size_type old_n, size_type new_n) {
        if (new_n > max_size()) detail::throw_bad_array_new_length();
        return static_cast<T*>(blocks_of<T>::reallocate(p, old_n * sizeof(T), new_n * sizeof(T)));
    }

    template <class U>
    friend constexpr bool operator==(const page_allocator&, const page_allocator<U, Policy>&) noexcept {
        return true;
    }
    template <class U>
    friend constexpr bool operator!=(const page_allocator&, const page_allocator<U, Policy>&) noexcept {
        return false;
    }

private:
    // (A template, so that page_allocator<T> names an incomplete T until a member is used.)
    template <class U>
    using blocks_of = detail::page_blocks<Policy, alignof(U), detail::mapping_threshold_of<U, Policy>()>;
};

/// The allocator relo's containers use unless told otherwise.
template <class T>
using default_allocator = page_allocator<T>;

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_PAGE_ALLOCATOR_HPP
