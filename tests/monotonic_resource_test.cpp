// tests/monotonic_resource_test.cpp — relo::monotonic_resource: alignment at every chunk boundary, chunk
// growth and what the upstream sees (a checking upstream), the initial buffer and release() returning to
// it, reclamation and in-place expansion at the top, upstream failures, the arena-backed form, containers
// under random operations, winking out.
#include "relo/monotonic_resource.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <list>
#include <memory_resource>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "checking_resource.hpp"
#include "relo/resource_allocator.hpp"
#include "relo/vector.hpp"
#include "resource_workout.hpp"

namespace relo_test {
namespace {

using relo::monotonic_resource;

/// Blocks must not overlap and must lie where they can be written.
void expect_disjoint(std::vector<std::pair<char*, std::size_t>> blocks) {
    std::sort(blocks.begin(), blocks.end());
    for (std::size_t i = 1; i < blocks.size(); ++i)
        ASSERT_LE(blocks[i - 1].first + blocks[i - 1].second, blocks[i].first) << "blocks overlap";
}

TEST(MonotonicResource, EveryAlignmentAtEveryChunkBoundary) {
    checking_resource upstream;
    for (std::size_t alignment = 1; alignment <= 8192; alignment *= 2) {
        monotonic_resource mono(256, &upstream);
        std::vector<std::pair<char*, std::size_t>> blocks;
        // Sizes around the space left in the current chunk, so that blocks land at chunk ends and starts.
        for (int round = 0; round < 6; ++round) {
            const std::size_t left = mono.remaining();
            for (std::size_t bytes : {left > 8 ? left - 8 : std::size_t{1}, left, left + 1, std::size_t{24}}) {
                auto* p = static_cast<char*>(mono.allocate(bytes, alignment));
                ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u) << bytes << " at " << alignment;
                std::memset(p, 0x3c, bytes);
                blocks.emplace_back(p, bytes);
            }
        }
        expect_disjoint(blocks);
        EXPECT_EQ(mono.upstream_bytes(), upstream.live_bytes());
        EXPECT_EQ(mono.chunk_count(), upstream.live_blocks());
    }
    EXPECT_LE(upstream.largest_alignment_asked(), alignof(std::max_align_t)) << "larger alignments are made inside";
    EXPECT_EQ(upstream.live_blocks(), 0u) << "the destructor gives every chunk back";
}

TEST(MonotonicResource, ChunksGrowGeometricallyAndReleaseGivesThemBack) {
    checking_resource upstream;
    monotonic_resource mono(1024, &upstream);
    for (int i = 0; i < 10000; ++i) mono.allocate(100, 8);
    const std::size_t chunks = mono.chunk_count();
    EXPECT_GE(chunks, 5u);
    EXPECT_LE(chunks, 12u) << "doubling chunks: about log2(10^6 / 1024)";
    std::vector<std::size_t> sizes;
    for (const auto& [p, b] : upstream.live()) sizes.push_back(b.bytes);
    std::sort(sizes.begin(), sizes.end());
    EXPECT_EQ(sizes.front(), 1024u);
    for (std::size_t i = 1; i < sizes.size(); ++i) EXPECT_EQ(sizes[i], 2 * sizes[i - 1]);
    EXPECT_GE(mono.bytes_in_use(), 10000u * 100);
    EXPECT_LE(mono.bytes_in_use(), mono.upstream_bytes());

    mono.release();
    EXPECT_EQ(upstream.live_blocks(), 0u);
    EXPECT_EQ(mono.upstream_bytes(), 0u);
    EXPECT_EQ(mono.bytes_in_use(), 0u);
    mono.release();  // safe to repeat
    // After release() the chunks start small again.
    mono.allocate(10, 8);
    ASSERT_EQ(upstream.live_blocks(), 1u);
    EXPECT_EQ(upstream.live().begin()->second.bytes, 1024u);
}

TEST(MonotonicResource, LargeRequestsGetAChunkOfTheirOwn) {
    checking_resource upstream;
    monotonic_resource mono(1024, &upstream);
    void* big = mono.allocate(1 << 20, 64);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big) % 64, 0u);
    EXPECT_EQ(mono.chunk_count(), 1u);
    EXPECT_GE(upstream.live_bytes(), std::size_t{1} << 20);
    EXPECT_LT(upstream.live_bytes(), (std::size_t{1} << 20) + 256);
}

// Requests that each outgrow the next chunk still make the chunks grow: later ones share a chunk.
TEST(MonotonicResource, RequestsLargerThanTheFirstChunkStillGrowTheChunks) {
    checking_resource upstream;
    monotonic_resource mono(1024, &upstream);
    for (int i = 0; i < 1024; ++i) mono.allocate(4096, 16);
    EXPECT_LE(mono.chunk_count(), 16u) << "about log2(4 MiB / 1 KiB) chunks, not one a request";
    EXPECT_GE(mono.bytes_in_use(), std::size_t{1024} * 4096);
    EXPECT_LE(mono.upstream_bytes(), std::size_t{12} << 20);
}

TEST(MonotonicResource, InitialBufferFirstAndAgainAfterRelease) {
    checking_resource upstream;
    alignas(64) char buffer[1000];
    monotonic_resource mono(buffer, sizeof buffer, &upstream);
    void* first = mono.allocate(100, 8);
    EXPECT_EQ(first, buffer);
    while (upstream.live_blocks() == 0) mono.allocate(100, 8);
    EXPECT_EQ(upstream.live().begin()->second.bytes, monotonic_resource::default_first_chunk);
    mono.release();
    EXPECT_EQ(upstream.live_blocks(), 0u);
    EXPECT_EQ(mono.allocate(100, 8), buffer) << "release() goes back to the initial buffer (LWG 3120)";
}

TEST(MonotonicResource, TheTopIsReclaimedAndExpandsInPlace) {
    checking_resource upstream;
    monotonic_resource mono(4096, &upstream);
    auto* a = static_cast<char*>(mono.allocate(100, 8));
    auto* b = static_cast<char*>(mono.allocate(200, 8));
    const std::size_t in_use = mono.bytes_in_use();
    mono.deallocate(a, 100, 8);  // not the top
    EXPECT_EQ(mono.bytes_in_use(), in_use);
    EXPECT_TRUE(mono.try_expand(b, 200, 1000));
    EXPECT_FALSE(mono.try_expand(a, 100, 150));
    EXPECT_FALSE(mono.try_expand(b, 1000, 100000)) << "beyond the chunk";
    EXPECT_TRUE(mono.try_expand(b, 1000, 300));
    mono.deallocate(b, 300, 8);
    EXPECT_EQ(mono.allocate(50, 8), b);
}

// Blocks whose size is a multiple of 1 KiB are a cache line apart, so that many of them walked in step do
// not all start in the same cache sets; the top of such a block is still reclaimed and expanded in place.
TEST(MonotonicResource, BlocksOfWholeKibibytesStartInDifferentCacheSets) {
    checking_resource upstream;
    monotonic_resource mono(std::size_t{1} << 20, &upstream);
    std::vector<std::pair<char*, std::size_t>> blocks;
    std::vector<std::uintptr_t> sets;
    for (int i = 0; i < 64; ++i) {
        auto* p = static_cast<char*>(mono.allocate(4096, 64));
        std::memset(p, i, 4096);
        blocks.emplace_back(p, 4096);
        sets.push_back(reinterpret_cast<std::uintptr_t>(p) % 4096 / 64);
    }
    expect_disjoint(blocks);
    std::sort(sets.begin(), sets.end());
    EXPECT_EQ(std::unique(sets.begin(), sets.end()) - sets.begin(), 64) << "each block in other sets of a 4 KiB way";
    for (int i = 0; i < 64; ++i) EXPECT_EQ(blocks[i].first[4095], static_cast<char>(i));

    auto* top = static_cast<char*>(mono.allocate(2048, 16));
    EXPECT_TRUE(mono.try_expand(top, 2048, 3072)) << "the top, a whole number of KiB";
    EXPECT_TRUE(mono.try_expand(top, 3072, 3000));
    EXPECT_TRUE(mono.try_expand(top, 3000, 4096));
    mono.deallocate(top, 4096, 16);
    EXPECT_EQ(mono.allocate(1024, 16), top) << "reclaimed";
    auto* next = static_cast<char*>(mono.allocate(100, 1));
    EXPECT_EQ(next, top + 1024 + 64);
    EXPECT_EQ(static_cast<char*>(mono.allocate(100, 1)), next + 100) << "other sizes end to end";

    // Aligned beyond a line: no line after (it would land in the same sets anyway, and cost a whole
    // alignment step).
    auto* page = static_cast<char*>(mono.allocate(4096, 4096));
    EXPECT_EQ(static_cast<char*>(mono.allocate(4096, 4096)), page + 4096);
}

// A whole-KiB block that fills what is left still fits, and the top is still found.
TEST(MonotonicResource, AWholeKibibyteBlockFillsABufferExactly) {
    checking_resource upstream;
    alignas(64) char buffer[4096];
    monotonic_resource mono(buffer, sizeof buffer, &upstream);
    void* whole = mono.allocate(4096, 16);
    EXPECT_EQ(whole, buffer);
    EXPECT_EQ(upstream.live_blocks(), 0u);
    EXPECT_EQ(mono.remaining(), 0u);
    mono.deallocate(whole, 4096, 16);
    EXPECT_EQ(mono.remaining(), sizeof buffer) << "the top reclaimed";

    auto* b = static_cast<char*>(mono.allocate(1000, 16));
    EXPECT_TRUE(mono.try_expand(b, 1000, 4096, 16)) << "to the buffer's end";
    EXPECT_EQ(mono.remaining(), 0u);
    EXPECT_TRUE(mono.try_expand(b, 4096, 2048, 16));
    EXPECT_EQ(mono.remaining(), sizeof buffer - 2048 - 64);
    EXPECT_TRUE(mono.try_expand(b, 2048, 3000, 16));
    EXPECT_EQ(mono.remaining(), sizeof buffer - 3000);
    EXPECT_EQ(upstream.live_blocks(), 0u);

    // A chunk made for one whole-KiB request: the block fills it, no line past its end.
    mono.release();
    (void)mono.allocate(sizeof buffer, 16);
    void* own = mono.allocate(8192, 16);
    ASSERT_EQ(upstream.live_blocks(), 1u);
    EXPECT_LE(mono.remaining(), upstream.live().begin()->second.bytes - 8192);
    EXPECT_EQ(mono.bytes_in_use(), sizeof buffer + 8192) << "nothing counted beyond the chunk";
    mono.deallocate(own, 8192, 16);
    EXPECT_EQ(mono.bytes_in_use(), sizeof buffer);
}

TEST(MonotonicResource, UpstreamFailureIsBadAllocAndChangesNothing) {
    checking_resource upstream;
    monotonic_resource mono(1024, &upstream);
    mono.allocate(1000, 8);
    const std::size_t in_use = mono.bytes_in_use(), held = mono.upstream_bytes();
    upstream.fail_after(0);
    EXPECT_THROW(mono.allocate(5000, 8), std::bad_alloc);
    EXPECT_EQ(mono.bytes_in_use(), in_use);
    EXPECT_EQ(mono.upstream_bytes(), held);
    EXPECT_THROW(mono.allocate(SIZE_MAX - 8, 8), std::bad_alloc) << "a size that cannot be represented";
    upstream.fail_after(-1);
    EXPECT_NO_THROW(mono.allocate(5000, 8));
}

// The upstream failing at each of its allocations under containers: std::bad_alloc, the containers as
// their guarantee says, nothing leaked.
TEST(MonotonicResource, UpstreamFailuresUnderContainers) {
    EXPECT_GE(at_every_upstream_failure([](std::pmr::memory_resource* upstream) { return std::make_unique<monotonic_resource>(upstream); }), 5);
}

TEST(MonotonicResource, OverAnArena) {
    relo::vm_arena arena(std::size_t{64} << 20);
    arena.allocate(10, 1);
    const std::size_t before = arena.used();
    {
        monotonic_resource mono(&arena);
        relo::vector<int, relo::resource_allocator<int, monotonic_resource>> v(&mono);
        v.push_back(0);
        const int* data = v.data();
        for (int i = 1; i < 1000000; ++i) v.push_back(i);
        EXPECT_EQ(v.data(), data) << "grows in place at the arena's top";
        EXPECT_EQ(mono.chunk_count(), 0u);
        EXPECT_GE(mono.bytes_in_use(), 1000000 * sizeof(int));
        mono.release();
        EXPECT_EQ(arena.used(), before);
    }
    EXPECT_EQ(arena.used(), before);
}

// A relo::vector grows in place while it is the most recent block of the current chunk.
TEST(MonotonicResource, ReloVectorGrowsInPlaceAtTheTop) {
    monotonic_resource mono(std::size_t{1} << 20);
    relo::vector<std::string, relo::resource_allocator<std::string, monotonic_resource>> v(&mono);
    v.emplace_back("first");
    const std::string* data = v.data();
    while (v.size() < 10000) v.emplace_back(std::to_string(v.size()));
    EXPECT_EQ(v.data(), data);
    EXPECT_EQ(v[9999], "9999");
}

TEST(MonotonicResource, ContainersUnderRandomOperations) {
    checking_resource upstream;
    {
        monotonic_resource mono(512, &upstream);
        random_container_workout(mono, 7, 200000);
    }
    alignas(16) char buffer[2048];
    monotonic_resource on_stack(buffer, sizeof buffer);
    random_container_workout(on_stack, 8, 50000);
    relo::vm_arena arena(std::size_t{1} << 30);
    monotonic_resource on_arena(&arena);
    random_container_workout(on_arena, 9, 50000);
}

// Winking out: containers of containers built in the resource are abandoned without their destructors;
// release() gives all their memory back (LeakSanitizer, under ASan, finds nothing).
TEST(MonotonicResource, WinkingOut) {
    checking_resource upstream;
    monotonic_resource mono(&upstream);
    for (int round = 0; round < 3; ++round) {
        using inner = std::pmr::vector<std::pmr::string>;
        auto* outer = new (mono.allocate(sizeof(std::pmr::vector<inner>), alignof(std::pmr::vector<inner>)))
            std::pmr::vector<inner>(&mono);
        for (int i = 0; i < 1000; ++i) {
            outer->emplace_back();
            for (int j = 0; j < 20; ++j) outer->back().emplace_back("a string long enough to allocate " + std::to_string(j));
        }
        EXPECT_GT(mono.upstream_bytes(), 1000u * 20 * 32);
        mono.release();  // no destructor runs
        EXPECT_EQ(upstream.live_blocks(), 0u);
    }
}


// resource_allocator's C++20 conveniences (those of polymorphic_allocator), each checked against what the
// resource saw: sizes, alignments, construction and destruction, and the memory back when a constructor throws.
struct built_from {
    static inline int alive = 0;
    int a;
    std::string b;
    built_from(int a_, std::string b_) : a(a_), b(std::move(b_)) {
        if (a < 0) throw std::invalid_argument("negative");
        ++alive;
    }
    ~built_from() { --alive; }
};

TEST(ResourceAllocator, PolymorphicAllocatorConveniences) {
    checking_resource resource;
    relo::resource_allocator<int, checking_resource> alloc(&resource);

    void* bytes = alloc.allocate_bytes(100);
    ASSERT_EQ(resource.live().at(bytes).bytes, 100u);
    EXPECT_EQ(resource.live().at(bytes).alignment, alignof(std::max_align_t));
    void* aligned = alloc.allocate_bytes(10, 64);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned) % 64, 0u);
    alloc.deallocate_bytes(aligned, 10, 64);
    alloc.deallocate_bytes(bytes, 100);

    double* d = alloc.allocate_object<double>(7);
    EXPECT_EQ(resource.live().at(d).bytes, 7 * sizeof(double));
    EXPECT_EQ(resource.live().at(d).alignment, alignof(double));
    alloc.deallocate_object(d, 7);
    EXPECT_THROW((void)alloc.allocate_object<double>(std::size_t(-1) / sizeof(double) + 1), std::bad_array_new_length);
    EXPECT_THROW((void)alloc.allocate(alloc.max_size() + 1), std::bad_array_new_length);

    built_from* x = alloc.new_object<built_from>(3, std::string(40, 'x'));
    EXPECT_EQ(x->a, 3);
    EXPECT_EQ(x->b, std::string(40, 'x'));
    EXPECT_EQ(built_from::alive, 1);
    EXPECT_EQ(resource.live().at(x).bytes, sizeof(built_from));
    EXPECT_THROW((void)alloc.new_object<built_from>(-1, "y"), std::invalid_argument);
    EXPECT_EQ(resource.live_blocks(), 1u) << "a throwing constructor's memory goes back";
    alloc.delete_object(x);
    EXPECT_EQ(built_from::alive, 0);
    EXPECT_EQ(resource.live_blocks(), 0u);
    // (checking_resource also fails the test on a deallocation of another size or alignment.)
}

}  // namespace
}  // namespace relo_test
