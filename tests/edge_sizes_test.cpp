// tests/edge_sizes_test.cpp — sizes no block can hold, asked of every resource, allocator and container:
// SIZE_MAX and a little less, 2^63 and a little more or less (detail::max_block_bytes, the largest block
// relo hands out, is 2^63 - 1), 2^62, at alignments 1 to 4096; and alignments no block can have (2^62,
// 2^63, huge ones that are no power of two; detail::max_block_alignment is 2^61) at small sizes. Each must
// be refused with std::bad_alloc (std::length_error where a container's max_size() is passed), before any
// upstream is asked for more than max_block_bytes or what detail::fits_in_block refuses, and leave what
// refused it as it was. Under AddressSanitizer a size that wraps (bytes + a header, bytes + the
// alignment's slack) writes past the block it buys: the sanitizer configuration of ./relo.sh test runs
// this file too.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory_resource>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "relo/inplace_vector.hpp"
#include "relo/memory_resource.hpp"
#include "relo/page_allocator.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/profiling_resource.hpp"
#include "relo/resource_allocator.hpp"
#include "relo/small_vector.hpp"
#include "relo/test_resource.hpp"
#include "relo/vector.hpp"
#include "relo/vm_arena.hpp"

#include "checking_resource.hpp"
#include "sanitizers.hpp"

#if RELO_TEST_ASAN
// A block no reservation can hold (2^62 bytes) goes to the heap, as std::allocator's would: AddressSanitizer's
// malloc then answers nullptr, as malloc does, rather than ending the program (its default for a size it
// cannot serve).
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
#endif

namespace {

using relo_test::checking_resource;
constexpr std::size_t max_block = relo::detail::max_block_bytes;
constexpr std::size_t two_to_63 = std::size_t{1} << 63;
constexpr std::size_t two_to_62 = std::size_t{1} << 62;
constexpr std::size_t two_to_61 = std::size_t{1} << 61;

using relo::detail::fits_in_block;
static_assert(max_block == two_to_63 - 1, "the largest block is PTRDIFF_MAX bytes");
// fits_in_block(bytes, alignment, header): the header rounded up to the alignment, and a slack of
// alignment - 1 bytes, at least 15 (alignof(std::max_align_t) - 1).
static_assert(alignof(std::max_align_t) == 16, "the slack below is 15 bytes at least");
static_assert(fits_in_block(max_block - 15, 1) && !fits_in_block(max_block - 14, 1) &&
              !fits_in_block(max_block - 15, 1, 1));
static_assert(!fits_in_block(0, 1, SIZE_MAX) && !fits_in_block(SIZE_MAX, 1) && !fits_in_block(0, 1, two_to_63));
static_assert(fits_in_block(two_to_62, 1, two_to_62 - 16) && !fits_in_block(two_to_62, 1, two_to_62 - 15));
static_assert(fits_in_block(max_block - 8191, 4096, 48) && !fits_in_block(max_block - 8190, 4096, 48));
// The alignment: a power of two up to 2^61, where a block of a byte still fits with a header of up to it.
static_assert(relo::detail::max_block_alignment == two_to_61);
static_assert(fits_in_block(1, two_to_61, two_to_61) && fits_in_block(two_to_62, two_to_61, 16));
static_assert(!fits_in_block(two_to_62 + 1, two_to_61, 16) && !fits_in_block(0, two_to_61, max_block));
static_assert(!fits_in_block(1, two_to_62) && !fits_in_block(0, two_to_63) && !fits_in_block(0, two_to_63, 16));
static_assert(!fits_in_block(1, 0) && !fits_in_block(1, 3) && !fits_in_block(1, 24) && !fits_in_block(1, SIZE_MAX));
static_assert(!fits_in_block(1, two_to_63 + 1, 16) && !fits_in_block(1, two_to_62 + two_to_63) &&
              !fits_in_block(1, SIZE_MAX - 15));

/// Sizes beyond any block, most of which wrap when a header or an alignment's slack is added: every resource
/// refuses them before its upstream (safe to send towards the global heap, even under AddressSanitizer).
const std::size_t wrapping_sizes[] = {SIZE_MAX,        SIZE_MAX - 1,    SIZE_MAX - 8,    SIZE_MAX - 15,
                                      SIZE_MAX - 64,   SIZE_MAX - 4095, SIZE_MAX - 4096, SIZE_MAX - 8192,
                                      two_to_63,       two_to_63 + 1,   two_to_63 + 4096};
/// Sizes that fit in a block's arithmetic (nothing added to them wraps) but in no machine: the upstream may
/// be asked, and refuses. (Not sent to the global heap under AddressSanitizer, whose operator new aborts on
/// them rather than throw.)
const std::size_t unholdable_sizes[] = {max_block,     max_block - 1, max_block - 8, max_block - 4095, max_block - 4096 * 3,
                                        two_to_62 + 1, two_to_62,     two_to_62 - 1, std::size_t{1} << 48};
const std::size_t alignments[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

/// The least count n of T for which n * sizeof(T) wraps (SIZE_MAX for one-byte T, where nothing wraps).
template <class T>
constexpr std::size_t wrapping_count() {
    return sizeof(T) > 1 ? SIZE_MAX / sizeof(T) + 1 : SIZE_MAX;
}

template <class Resource>
void expect_refused(Resource& r, std::size_t bytes, std::size_t alignment) {
    void* p = nullptr;
    EXPECT_THROW(p = r.allocate(bytes, alignment), std::bad_alloc) << bytes << " bytes at alignment " << alignment;
    (void)p;
}

/// Every edge size at every alignment, through the resource's own allocate and through
/// std::pmr::memory_resource (do_allocate); then the resource still works: a small block comes and goes.
template <class Resource>
void expect_all_refused(Resource& r, bool global_heap_behind) {
    std::pmr::memory_resource& erased = r;
    for (std::size_t alignment : alignments) {
        for (std::size_t bytes : wrapping_sizes) {
            expect_refused(r, bytes, alignment);
            expect_refused(erased, bytes, alignment);
        }
        if (global_heap_behind && RELO_TEST_ASAN) continue;
        for (std::size_t bytes : unholdable_sizes) {
            expect_refused(r, bytes, alignment);
            expect_refused(erased, bytes, alignment);
        }
    }
    void* p = r.allocate(100, 16);
    std::memset(p, 0x5a, 100);
    r.deallocate(p, 100, 16);
}

/// The upstream was never asked for more than a block can hold, nor for anything detail::fits_in_block
/// refuses (what a resource asks of its upstream passes the rule the resource checked).
void expect_asked_within_a_block(const checking_resource& upstream) {
    EXPECT_LE(upstream.largest_bytes_asked(), max_block) << "an upstream was asked for more than a block holds";
    EXPECT_EQ(upstream.requests_beyond_a_block(), 0u) << "an upstream was asked for what detail::fits_in_block refuses";
}

/// After the refusals: the upstream was never asked for more than a block can hold, and holds what it
/// held before.
void expect_upstream_untouched(const checking_resource& upstream, std::size_t live_before) {
    expect_asked_within_a_block(upstream);
    EXPECT_EQ(upstream.live_blocks(), live_before);
}

TEST(EdgeSizes, MonotonicResource) {
    checking_resource upstream;
    {
        relo::monotonic_resource r(&upstream);
        expect_all_refused(r, false);
        const std::size_t held = r.upstream_bytes();
        expect_all_refused(r, false);
        EXPECT_EQ(r.upstream_bytes(), held);
        expect_upstream_untouched(upstream, upstream.live_blocks());
    }
    alignas(std::max_align_t) char buffer[512];
    relo::monotonic_resource from_buffer(buffer, sizeof buffer, &upstream);
    expect_all_refused(from_buffer, false);
    relo::vm_arena arena(std::size_t{1} << 24);
    relo::monotonic_resource over_arena(&arena);
    expect_all_refused(over_arena, false);
    EXPECT_EQ(over_arena.bytes_in_use(), 0u);
    expect_upstream_untouched(upstream, 0);
}

TEST(EdgeSizes, VmArena) {
    relo::vm_arena arena(std::size_t{1} << 24);
    void* first = arena.allocate(64);
    const std::size_t used = arena.used();
    expect_all_refused(arena, false);
    EXPECT_EQ(arena.used(), used);
    EXPECT_EQ(arena.allocate(64, 64), static_cast<char*>(first) + 64);
}

TEST(EdgeSizes, MultipoolResource) {
    checking_resource upstream;
    relo::multipool_resource r(&upstream);
    const std::size_t live = upstream.live_blocks();
    expect_all_refused(r, false);
    EXPECT_EQ(r.bytes_in_use(), 0u);
    expect_upstream_untouched(upstream, live + 1);  // (the small block's chunk)
    checking_resource under;
    relo::monotonic_resource monotonic(&under);
    relo::multipool_resource over_monotonic(&monotonic);
    expect_all_refused(over_monotonic, false);
    expect_asked_within_a_block(under);
}

TEST(EdgeSizes, SynchronizedMultipoolResource) {
    checking_resource upstream;
    relo::synchronized_multipool_resource r(&upstream);
    expect_all_refused(r, false);
    expect_asked_within_a_block(upstream);
}

TEST(EdgeSizes, TestResource) {
    checking_resource upstream;
    relo::test_resource r(&upstream, "edges");
    expect_all_refused(r, false);
    EXPECT_EQ(r.total_blocks(), 1u);  // (the small block; no refusal is counted as a block)
    EXPECT_EQ(r.blocks_in_use(), 0u);
    EXPECT_EQ(r.problems(), 0u);
    expect_upstream_untouched(upstream, 0);
    // Over the global heap, whose aligned operator new (libstdc++ 12) rounds SIZE_MAX up to 0 and
    // returns a real, empty block: the resource refuses it itself.
    relo::test_resource over_heap("edges over the heap");
    expect_all_refused(over_heap, true);
    EXPECT_EQ(over_heap.total_blocks(), 1u);
    EXPECT_EQ(over_heap.blocks_in_use(), 0u);
    EXPECT_EQ(over_heap.total_bytes(), 100u);
}

TEST(EdgeSizes, ProfilingResource) {
    checking_resource upstream;
    relo::profiling_resource r(&upstream);
    expect_all_refused(r, false);
    relo::allocation_profile p = r.profile();
    EXPECT_EQ(p.allocations, 1u);  // (the small block; refusals are not recorded)
    EXPECT_EQ(p.total_bytes, 100u);
    EXPECT_EQ(p.peak_bytes_in_use, 100u);
    expect_upstream_untouched(upstream, 0);
    // Over the global heap: SIZE_MAX - 8 + the 16-byte header used to wrap to 7 bytes, and the header was
    // written past them.
    relo::profiling_resource over_heap;
    expect_all_refused(over_heap, true);
    p = over_heap.profile();
    EXPECT_EQ(p.allocations, 1u);
    EXPECT_EQ(p.bytes_in_use, 0u);
    // Over a multipool, which would have handed out a block of the wrapped size's class.
    relo::multipool_resource pools(&upstream);
    relo::profiling_resource over_pools(&pools);
    expect_all_refused(over_pools, false);
    expect_asked_within_a_block(upstream);
}

TEST(EdgeSizes, ResourceAllocator) {
    checking_resource upstream;
    relo::multipool_resource pools(&upstream);
    relo::resource_allocator<int, relo::multipool_resource> a(&pools);
    relo::resource_allocator<std::string, std::pmr::memory_resource> erased(&pools);
    EXPECT_LE(a.max_size() * sizeof(int) + alignof(int), max_block);
    EXPECT_THROW((void)a.allocate(a.max_size() + 1), std::bad_array_new_length);
    EXPECT_THROW((void)a.allocate(SIZE_MAX), std::bad_array_new_length);
    EXPECT_THROW((void)a.allocate(SIZE_MAX / sizeof(int) + 1), std::bad_array_new_length);  // (n * 4 wraps)
    EXPECT_THROW((void)a.allocate(a.max_size()), std::bad_alloc);
    EXPECT_THROW((void)erased.allocate(erased.max_size() + 1), std::bad_array_new_length);
    EXPECT_THROW((void)erased.allocate(erased.max_size()), std::bad_alloc);
    for (std::size_t alignment : alignments)
        for (std::size_t bytes : wrapping_sizes) {
            void* p = nullptr;
            EXPECT_THROW(p = a.allocate_bytes(bytes, alignment), std::bad_alloc) << bytes << " at " << alignment;
            (void)p;
        }
    // In place: never to a size beyond max_size(), and the block is untouched.
    int* p = a.allocate(4);
    p[3] = 7;
    EXPECT_FALSE(a.try_expand(p, 4, a.max_size() + 1));
    EXPECT_FALSE(a.try_expand(p, 4, SIZE_MAX));
    EXPECT_FALSE(a.try_expand(p, 4, SIZE_MAX / sizeof(int) + 1));
    EXPECT_EQ(p[3], 7);
    a.deallocate(p, 4);
    expect_asked_within_a_block(upstream);
}

TEST(EdgeSizes, TryExpandOfResources) {
    checking_resource upstream;
    relo::monotonic_resource monotonic(&upstream);
    relo::vm_arena arena(std::size_t{1} << 24);
    relo::multipool_resource pools(&upstream);
    const std::size_t targets[] = {SIZE_MAX, SIZE_MAX - 64, two_to_63, max_block, two_to_62, std::size_t{1} << 48};
    for (std::size_t target : targets) {
        char* m = static_cast<char*>(monotonic.allocate(64, 8));  // (the block at the top: the one that may grow)
        m[63] = 1;
        EXPECT_FALSE(monotonic.try_expand(m, 64, target, 8)) << target;
        EXPECT_EQ(m[63], 1);
        char* v = static_cast<char*>(arena.allocate(64, 8));
        v[63] = 2;
        const std::size_t used = arena.used();
        EXPECT_FALSE(arena.try_expand(v, 64, target, 8)) << target;
        EXPECT_EQ(arena.used(), used);
        EXPECT_EQ(v[63], 2);
        char* q = static_cast<char*>(pools.allocate(64, 8));
        EXPECT_FALSE(pools.try_expand(q, 64, target, 8)) << target;
        pools.deallocate(q, 64, 8);
    }
    expect_upstream_untouched(upstream, upstream.live_blocks());
}

// ---- Alignments no block can have, at small sizes: 2^62 and 2^63, and huge values that are no power of
// two. (offset + alignment wrapped to a small number in the multipool's and the profiling resource's
// header arithmetic, and their upstream was asked for 2^63 + 1 bytes at alignment 2^63.) Each is refused
// with std::bad_alloc before an upstream is asked; the resource then works as before.

/// The largest alignment a resource may ask an upstream for (2^61).
constexpr std::size_t largest_alignment = relo::detail::max_block_alignment;
const std::size_t small_sizes[] = {0, 1, 8, 64};
const std::size_t huge_alignments[] = {two_to_62, two_to_63};
/// Where the request reaches the edge rule: the paths to an upstream. (The bump paths of vm_arena and
/// monotonic_resource take an alignment that is no power of two as a precondition violation.)
const std::size_t huge_non_powers[] = {SIZE_MAX,      SIZE_MAX - 15, two_to_63 + 1,  two_to_63 + two_to_62,
                                       two_to_62 + 8, two_to_62 - 1, two_to_63 - 16, std::size_t{3} << 40};

template <class Resource>
void expect_alignments_refused(Resource& r, bool non_powers, const checking_resource* upstream = nullptr) {
    const std::size_t requests = upstream != nullptr ? upstream->requests() : 0;
    std::pmr::memory_resource& erased = r;
    for (std::size_t bytes : small_sizes) {
        for (std::size_t alignment : huge_alignments) {
            expect_refused(r, bytes, alignment);
            expect_refused(erased, bytes, alignment);
        }
        if (!non_powers) continue;
        for (std::size_t alignment : huge_non_powers) {
            expect_refused(r, bytes, alignment);
            expect_refused(erased, bytes, alignment);
        }
    }
    if (upstream != nullptr) {
        EXPECT_EQ(upstream->requests(), requests) << "refused only once the upstream was asked";
    }
}

/// Small alignments that are no power of two, for the resources whose allocate() checks the request
/// first (test_resource, profiling_resource, resource_allocator::allocate_bytes); elsewhere they are a
/// precondition violation, as for std::pmr::memory_resource.
const std::size_t small_non_powers[] = {0, 3, 24, 100, 4095};

template <class Resource>
void expect_small_non_powers_refused(Resource& r) {
    std::pmr::memory_resource& erased = r;
    for (std::size_t bytes : small_sizes)
        for (std::size_t alignment : small_non_powers) {
            expect_refused(r, bytes, alignment);
            expect_refused(erased, bytes, alignment);
        }
}

/// At the largest alignment: the resource may ask the upstream (which refuses it), within the bounds.
template <class Resource>
void expect_largest_alignment_refused_by_upstream(Resource& r) {
    for (std::size_t bytes : small_sizes) expect_refused(r, bytes, largest_alignment);
}

/// The checking upstream saw neither a size nor an alignment beyond a block's, nor an alignment that is
/// no power of two, and holds what it held.
void expect_upstream_saw_no_bad_alignment(const checking_resource& upstream, std::size_t live_before) {
    expect_upstream_untouched(upstream, live_before);
    EXPECT_LE(upstream.largest_alignment_asked(), largest_alignment)
        << "an upstream was asked for an alignment beyond any block's";
    EXPECT_EQ(upstream.non_power_alignments_asked(), 0u)
        << "an upstream was asked for an alignment that is no power of two";
}

/// A few ordinary blocks come and go, over-aligned ones included.
template <class Resource>
void expect_usable(Resource& r) {
    void* p = r.allocate(100, 16);
    std::memset(p, 0x5a, 100);
    void* q = r.allocate(64, 4096);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q) % 4096, 0u);
    std::memset(q, 0x6b, 64);
    void* big = r.allocate(100000, 64);
    std::memset(big, 0x7c, 100000);
    r.deallocate(big, 100000, 64);
    r.deallocate(q, 64, 4096);
    r.deallocate(p, 100, 16);
}

TEST(EdgeSizes, HugeAlignmentsMonotonicResource) {
    checking_resource upstream;
    {
        relo::monotonic_resource r(&upstream);
        expect_alignments_refused(r, false, &upstream);
        EXPECT_EQ(r.upstream_bytes(), 0u);
        expect_largest_alignment_refused_by_upstream(r);
        expect_upstream_saw_no_bad_alignment(upstream, 0);
        expect_usable(r);
        r.release();
        expect_usable(r);
        expect_alignments_refused(r, false, &upstream);
    }
    alignas(std::max_align_t) char buffer[512];
    relo::monotonic_resource from_buffer(buffer, sizeof buffer, &upstream);
    expect_alignments_refused(from_buffer, false, &upstream);
    expect_usable(from_buffer);
    from_buffer.release();
    relo::vm_arena arena(std::size_t{1} << 24);
    relo::monotonic_resource over_arena(&arena);
    expect_alignments_refused(over_arena, false);
    expect_largest_alignment_refused_by_upstream(over_arena);
    EXPECT_EQ(over_arena.bytes_in_use(), 0u);
    expect_usable(over_arena);
    over_arena.release();
    EXPECT_EQ(over_arena.bytes_in_use(), 0u);
    expect_upstream_saw_no_bad_alignment(upstream, 0);
}

TEST(EdgeSizes, HugeAlignmentsVmArena) {
    relo::vm_arena arena(std::size_t{1} << 24);
    void* first = arena.allocate(64);
    const std::size_t used = arena.used();
    expect_alignments_refused(arena, false);
    expect_largest_alignment_refused_by_upstream(arena);
    EXPECT_EQ(arena.used(), used);
    EXPECT_EQ(arena.allocate(64, 64), static_cast<char*>(first) + 64);
    expect_usable(arena);
    arena.reset();
    EXPECT_EQ(arena.used(), 0u);
    expect_usable(arena);
}

TEST(EdgeSizes, HugeAlignmentsMultipoolResource) {
    checking_resource upstream;
    relo::multipool_resource r(&upstream);
    expect_alignments_refused(r, true, &upstream);
    expect_largest_alignment_refused_by_upstream(r);
    expect_refused(r, 0, 0);  // (n = max(bytes, alignment) = 0 indexed the table of classes at n - 1)
    EXPECT_EQ(r.bytes_in_use(), 0u);
    EXPECT_EQ(r.upstream_blocks(), 0u);
    expect_upstream_saw_no_bad_alignment(upstream, 0);
    expect_usable(r);
    r.release();
    EXPECT_EQ(upstream.live_blocks(), 0u);
    expect_usable(r);
    expect_alignments_refused(r, true, &upstream);
    checking_resource under;
    relo::monotonic_resource monotonic(&under);
    relo::multipool_resource over_monotonic(&monotonic);
    expect_alignments_refused(over_monotonic, true, &under);
    expect_usable(over_monotonic);
    expect_upstream_saw_no_bad_alignment(under, under.live_blocks());
}

TEST(EdgeSizes, HugeAlignmentsSynchronizedMultipoolResource) {
    checking_resource upstream;
    relo::synchronized_multipool_resource r(&upstream);
    const std::size_t live = upstream.live_blocks();
    expect_alignments_refused(r, true, &upstream);
    expect_refused(r, 0, 0);
    expect_largest_alignment_refused_by_upstream(r);
    expect_upstream_saw_no_bad_alignment(upstream, live);
    expect_usable(r);
    r.release();
    expect_usable(r);
}

TEST(EdgeSizes, HugeAlignmentsTestResource) {
    checking_resource upstream;
    relo::test_resource r(&upstream, "alignments");
    expect_alignments_refused(r, true, &upstream);
    expect_small_non_powers_refused(r);
    expect_largest_alignment_refused_by_upstream(r);
    EXPECT_EQ(r.total_blocks(), 0u);
    expect_upstream_saw_no_bad_alignment(upstream, 0);
    expect_usable(r);
    EXPECT_EQ(r.blocks_in_use(), 0u);
    EXPECT_EQ(r.problems(), 0u);
}

TEST(EdgeSizes, HugeAlignmentsProfilingResource) {
    checking_resource upstream;
    relo::profiling_resource r(&upstream);
    expect_alignments_refused(r, true, &upstream);
    expect_small_non_powers_refused(r);
    expect_largest_alignment_refused_by_upstream(r);
    EXPECT_EQ(r.profile().allocations, 0u);  // (refusals are not recorded)
    expect_upstream_saw_no_bad_alignment(upstream, 0);
    expect_usable(r);
    const relo::allocation_profile p = r.profile();
    EXPECT_EQ(p.allocations, 3u);
    EXPECT_EQ(p.bytes_in_use, 0u);
    // Over a multipool, whose own pass-through to the upstream had the same wrap.
    relo::multipool_resource pools(&upstream);
    relo::profiling_resource over_pools(&pools);
    expect_alignments_refused(over_pools, true, &upstream);
    expect_usable(over_pools);
    expect_upstream_saw_no_bad_alignment(upstream, upstream.live_blocks());
}

TEST(EdgeSizes, HugeAlignmentsResourceAllocator) {
    checking_resource upstream;
    relo::multipool_resource pools(&upstream);
    relo::resource_allocator<int, relo::multipool_resource> a(&pools);
    const std::size_t requests = upstream.requests();
    for (std::size_t bytes : small_sizes) {
        for (std::size_t alignment : huge_alignments) {
            void* p = nullptr;
            EXPECT_THROW(p = a.allocate_bytes(bytes, alignment), std::bad_alloc) << bytes << " at " << alignment;
            (void)p;
        }
        for (std::size_t alignment : huge_non_powers) {
            void* p = nullptr;
            EXPECT_THROW(p = a.allocate_bytes(bytes, alignment), std::bad_alloc) << bytes << " at " << alignment;
            (void)p;
        }
        for (std::size_t alignment : small_non_powers) {
            void* p = nullptr;
            EXPECT_THROW(p = a.allocate_bytes(bytes, alignment), std::bad_alloc) << bytes << " at " << alignment;
            (void)p;
        }
    }
    EXPECT_EQ(upstream.requests(), requests) << "refused only once the upstream was asked";
    int* p = a.allocate(4);
    p[3] = 7;
    a.deallocate(p, 4);
    expect_upstream_saw_no_bad_alignment(upstream, upstream.live_blocks());
}

// Over the global heap, which the refusals must not reach (AddressSanitizer's operator new aborts on such
// an alignment rather than throw).
TEST(EdgeSizes, HugeAlignmentsOverTheGlobalHeap) {
    relo::profiling_resource profiler;
    expect_alignments_refused(profiler, true);
    expect_usable(profiler);
    EXPECT_EQ(profiler.profile().allocations, 3u);
    relo::test_resource checked("alignments over the heap");
    expect_alignments_refused(checked, true);
    expect_usable(checked);
    EXPECT_EQ(checked.total_blocks(), 3u);
    relo::multipool_resource pools(std::pmr::new_delete_resource());
    expect_alignments_refused(pools, true);
    expect_usable(pools);
    EXPECT_EQ(pools.upstream_blocks(), 0u);
}

/// Sizes within a few headers and alignments of max_block_bytes, where each resource's own check and
/// what it then asks of its upstream meet: whatever a resource passes on must pass the rule again.
template <class Resource>
void expect_edge_requests_within_a_block(Resource& r) {
    std::vector<std::size_t> alignments_to_try(std::begin(alignments), std::end(alignments));
    alignments_to_try.push_back(largest_alignment);
    for (std::size_t alignment : alignments_to_try)
        for (std::size_t below : {std::size_t{0}, std::size_t{4096}, std::size_t{8192}, alignment, 2 * alignment})
            for (std::size_t k = 0; k < 80; ++k) expect_refused(r, max_block - below - k, alignment);
}

TEST(EdgeSizes, WhatEachResourcePassesOnFitsABlock) {
    checking_resource upstream;
    {
        relo::monotonic_resource monotonic(&upstream);
        expect_edge_requests_within_a_block(monotonic);
        relo::multipool_resource pools(&upstream);
        expect_edge_requests_within_a_block(pools);
        relo::synchronized_multipool_resource shared(&upstream);
        expect_edge_requests_within_a_block(shared);
        relo::test_resource checked(&upstream, "edges");
        expect_edge_requests_within_a_block(checked);
        relo::profiling_resource profiler(&upstream);
        expect_edge_requests_within_a_block(profiler);
        relo::profiling_resource over_pools(&pools);
        expect_edge_requests_within_a_block(over_pools);
        relo::multipool_resource over_monotonic(&monotonic);
        expect_edge_requests_within_a_block(over_monotonic);
        EXPECT_GT(upstream.requests(), 0u);  // (some reached it, and it refused them)
    }
    expect_upstream_untouched(upstream, 0);
}

struct alignas(64) over_aligned {
    char bytes[64];
    friend bool operator==(const over_aligned& a, const over_aligned& b) { return std::memcmp(a.bytes, b.bytes, 64) == 0; }
};

template <class T>
void page_allocator_edges() {
    relo::page_allocator<T> a;
    T* p = nullptr;
    EXPECT_THROW(p = a.allocate(a.max_size() + 1), std::bad_array_new_length);
    EXPECT_THROW(p = a.allocate(SIZE_MAX), std::bad_array_new_length);
    EXPECT_THROW(p = a.allocate(wrapping_count<T>()), std::bad_array_new_length);
    EXPECT_THROW(p = a.allocate(a.max_size()), std::bad_alloc);
    EXPECT_THROW((void)a.allocate_at_least(a.max_size()), std::bad_alloc);
    EXPECT_THROW((void)a.allocate_at_least(a.max_size() - 1), std::bad_alloc);
    EXPECT_THROW((void)a.allocate_at_least(two_to_62 / sizeof(T)), std::bad_alloc);
    // try_expand and reallocate of a small block (malloc's) and of a large one (a mapping: from the threshold).
    const std::size_t small = 4;
    const std::size_t large = relo::page_allocator<T>::mapping_threshold() / sizeof(T) + 1;
    const std::size_t targets[] = {a.max_size() + 1, a.max_size(), SIZE_MAX, wrapping_count<T>(), two_to_62 / sizeof(T)};
    for (std::size_t n : {small, large}) {
        p = a.allocate(n);
        std::memset(static_cast<void*>(p), 0x3c, n * sizeof(T));
        for (std::size_t target : targets) {
            EXPECT_FALSE(a.try_expand(p, n, target)) << n << " to " << target;
            if constexpr (relo::is_trivially_relocatable_v<T>) {
                T* q = nullptr;
                EXPECT_THROW(q = a.reallocate(p, n, target), std::bad_alloc) << n << " to " << target;
                (void)q;
            }
            const unsigned char* bytes = reinterpret_cast<const unsigned char*>(p);
            EXPECT_EQ(bytes[0], 0x3c);
            EXPECT_EQ(bytes[n * sizeof(T) - 1], 0x3c);
        }
        a.deallocate(p, n);
    }
}

TEST(EdgeSizes, PageAllocator) {
    page_allocator_edges<char>();
    page_allocator_edges<int>();
    page_allocator_edges<std::string>();
    page_allocator_edges<over_aligned>();
}

// ---- Containers: reserve, resize, insert, assign and the constructors at max_size(), max_size() + 1,
// SIZE_MAX and wrapping_count<T>() (where n * sizeof(T) wraps), on a container holding a few elements.

/// The size a container may really reach at max_size(): a fixed or reserved capacity of a few MiB at most.
template <class C>
bool max_size_is_holdable(const C& c) {
    return c.max_size() * sizeof(typename C::value_type) <= (std::size_t{64} << 20);
}

template <class C, class = void>
struct has_allocator : std::false_type {};
template <class C>
struct has_allocator<C, std::void_t<decltype(std::declval<const C&>().get_allocator())>> : std::true_type {};

/// A copy on the same allocator (a std::pmr container's plain copy would draw from the default resource,
/// the global heap).
template <class C>
C copy_of(const C& c) {
    if constexpr (has_allocator<C>::value) return C(c, c.get_allocator());
    else return C(c);
}
/// C(n, args..., the allocator of `like`) where C takes one.
template <class C, class... Args>
C made_like(const C& like, std::size_t n, const Args&... args) {
    if constexpr (has_allocator<C>::value) return C(n, args..., like.get_allocator());
    else return C(n, args...);
}

template <class C>
void expect_unchanged(const C& c, const std::vector<typename C::value_type>& model, const char* what, std::size_t n) {
    ASSERT_EQ(c.size(), model.size()) << what << "(" << n << ") changed the container";
    for (std::size_t i = 0; i < model.size(); ++i) EXPECT_EQ(c[i], model[i]) << what << "(" << n << ")";
}

/// Runs op(c, n) on a copy of `filled`: beyond max_size() it must throw `too_large`; at max_size() it may
/// succeed only where that much is holdable, and otherwise throw std::bad_alloc or std::length_error. A
/// throw leaves the container as it was.
template <class C, class TooLarge, class Op>
void expect_refusal(const C& filled, const char* what, Op op, bool adds_to_size = false) {
    using T = typename C::value_type;
    const std::vector<T> model(filled.begin(), filled.end());
    const std::size_t max = filled.max_size();
    const std::size_t counts[] = {max, max + 1, max + 8, SIZE_MAX, SIZE_MAX - 1, wrapping_count<T>()};
    constexpr bool too_large_is_bad_alloc = std::is_same_v<TooLarge, std::bad_alloc>;
    for (std::size_t n : counts) {
        C c = copy_of(filled);
        const bool beyond = adds_to_size ? n > max - c.size() : n > max;
        try {
            op(c, n);
            EXPECT_TRUE(!beyond && max_size_is_holdable(c)) << what << "(" << n << ") did not throw";
            continue;
        } catch (const std::bad_alloc&) {
            EXPECT_TRUE(!beyond || too_large_is_bad_alloc)
                << what << "(" << n << ") threw std::bad_alloc beyond max_size()";
        } catch (const std::length_error&) {
            EXPECT_TRUE(beyond && !too_large_is_bad_alloc)
                << what << "(" << n << ") threw std::length_error " << (beyond ? "(not its error)" : "at max_size()");
        }
        expect_unchanged(c, model, what, n);
    }
}

/// constructor_max: the most elements a constructor accepts (0: a default-constructed container's
/// max_size(); a pinned_vector's constructors reserve what they are asked for, up to PTRDIFF_MAX bytes).
template <class C, class TooLarge = std::length_error>
void container_edges(const C& filled, std::size_t constructor_max = 0) {
    using T = typename C::value_type;
    const T value = filled.front();
    expect_refusal<C, TooLarge>(filled, "reserve", [](C& c, std::size_t n) { c.reserve(n); });
    expect_refusal<C, TooLarge>(filled, "resize", [](C& c, std::size_t n) { c.resize(n); });
    expect_refusal<C, TooLarge>(filled, "resize(n, value)", [&](C& c, std::size_t n) { c.resize(n, value); });
    const bool adds = true;
    expect_refusal<C, TooLarge>(
        filled, "insert(begin, n, value)", [&](C& c, std::size_t n) { c.insert(c.begin(), n, value); }, adds);
    expect_refusal<C, TooLarge>(
        filled, "insert(end, n, value)", [&](C& c, std::size_t n) { c.insert(c.end(), n, value); }, adds);
    expect_refusal<C, TooLarge>(filled, "assign(n, value)", [&](C& c, std::size_t n) { c.assign(n, value); });
    // insert(pos, n) where size() + n wraps: n from SIZE_MAX - size() + 1 on.
    C c = copy_of(filled);
    const std::vector<T> model(filled.begin(), filled.end());
    for (std::size_t n : {SIZE_MAX - c.size() + 1, SIZE_MAX - c.size() + 2, SIZE_MAX - c.size()}) {
        EXPECT_THROW(c.insert(c.begin() + 1, n, value), TooLarge) << n;
        expect_unchanged(c, model, "insert(begin + 1, n, value)", n);
    }
    // The constructors: nothing to leave unchanged, nothing may leak (the sanitizer configuration checks).
    // At the most they accept only where no machine holds it.
    const std::size_t max = constructor_max != 0 ? constructor_max : made_like(filled, 0).max_size();
    for (std::size_t n : {max + 1, SIZE_MAX, wrapping_count<T>()}) {
        EXPECT_THROW((void)made_like(filled, n), TooLarge) << n;
        EXPECT_THROW((void)made_like(filled, n, value), TooLarge) << n;
    }
    if (max >= (std::size_t{1} << 40) / sizeof(T)) {
        EXPECT_ANY_THROW((void)made_like(filled, max));
        EXPECT_ANY_THROW((void)made_like(filled, max, value));
    }
}

template <class C>
C filled_with(std::initializer_list<typename C::value_type> values, C c = C()) {
    for (const auto& v : values) c.push_back(v);
    return c;
}

TEST(EdgeSizes, Vector) {
    container_edges(filled_with<relo::vector<int>>({1, 2, 3}));
    container_edges(filled_with<relo::vector<std::string>>({"a long string, past the small-string buffer", "b", ""}));
    container_edges(filled_with<relo::vector<over_aligned>>({over_aligned{{1}}, over_aligned{{2}}}));
}

TEST(EdgeSizes, VectorOnResources) {
    checking_resource upstream;
    {
        relo::multipool_resource pools(&upstream);
        using on_pools = relo::vector<int, relo::resource_allocator<int, relo::multipool_resource>>;
        container_edges(filled_with<on_pools>({1, 2, 3}, on_pools(&pools)));
        relo::test_resource checked(&upstream, "edges");
        container_edges(filled_with<relo::pmr::vector<int>>({1, 2, 3}, relo::pmr::vector<int>(&checked)));
        container_edges(filled_with<relo::pmr::vector<std::string>>({"x", "y"}, relo::pmr::vector<std::string>(&checked)));
        EXPECT_EQ(checked.blocks_in_use(), 0u);
        EXPECT_EQ(checked.problems(), 0u);
    }
    expect_upstream_untouched(upstream, 0);
}

TEST(EdgeSizes, SmallVector) {
    container_edges(filled_with<relo::small_vector<int, 8>>({1, 2, 3}));
    container_edges(filled_with<relo::small_vector<int, 2>>({1, 2, 3}));  // (on the heap)
    container_edges(filled_with<relo::small_vector<std::string, 4>>({"a long string, past the small-string buffer", "b"}));
}

TEST(EdgeSizes, PinnedVector) {
    using pinned = relo::pinned_vector<int>;
    container_edges(filled_with<pinned>({1, 2, 3}, pinned(relo::max_capacity, 1000)), max_block / sizeof(int));
    using pinned_strings = relo::pinned_vector<std::string>;
    container_edges(filled_with<pinned_strings>({"a", "b"}, pinned_strings(relo::max_capacity, 100)),
                    max_block / sizeof(std::string));
}

TEST(EdgeSizes, InplaceVector) {
    container_edges<relo::inplace_vector<int, 40>, std::bad_alloc>(filled_with<relo::inplace_vector<int, 40>>({1, 2, 3}));
    container_edges<relo::inplace_vector<std::string, 8>, std::bad_alloc>(
        filled_with<relo::inplace_vector<std::string, 8>>({"a", "b"}));
}

}  // namespace
