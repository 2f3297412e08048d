// tests/multipool_resource_test.cpp — relo::multipool_resource: the size classes, alignment of every power
// of two at every class boundary, chunk growth and what the upstream sees (a checking upstream), reuse of
// freed blocks, requests passed to the upstream, failures, release(), composition with
// monotonic_resource, containers under random operations, winking out.
#include "relo/multipool_resource.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory_resource>
#include <new>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "checking_resource.hpp"
#include "relo/monotonic_resource.hpp"
#include "relo/resource_allocator.hpp"
#include "resource_workout.hpp"

namespace relo_test {
namespace {

using relo::multipool_options;
using relo::multipool_resource;

multipool_options with_classes(std::size_t per_doubling) {
    multipool_options o;
    o.classes_per_doubling = per_doubling;
    return o;
}

std::vector<std::size_t> block_sizes(const multipool_resource& r) {
    std::vector<std::size_t> sizes;
    for (std::size_t i = 0; i < r.pool_count(); ++i) sizes.push_back(r.stats(i).block_size);
    return sizes;
}

/// The pool a block of `bytes` at `alignment` came from: the one whose blocks in use went up.
std::size_t pool_of(multipool_resource& r, std::size_t bytes, std::size_t alignment) {
    std::vector<std::size_t> before;
    for (std::size_t i = 0; i < r.pool_count(); ++i) before.push_back(r.stats(i).blocks_in_use);
    void* p = r.allocate(bytes, alignment);
    std::size_t found = r.pool_count();
    for (std::size_t i = 0; i < r.pool_count(); ++i)
        if (r.stats(i).blocks_in_use != before[i]) found = i;
    r.deallocate(p, bytes, alignment);
    return found;
}

TEST(MultipoolResource, SizeClasses) {
    checking_resource upstream;
    multipool_resource powers(&upstream);
    EXPECT_EQ(block_sizes(powers), (std::vector<std::size_t>{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}));
    multipool_resource halves(with_classes(2), &upstream);
    const auto h = block_sizes(halves);
    EXPECT_EQ(std::vector<std::size_t>(h.begin(), h.begin() + 8), (std::vector<std::size_t>{8, 12, 16, 24, 32, 48, 64, 96}));
    EXPECT_EQ(h.back(), 4096u);
    multipool_resource quarters(with_classes(4), &upstream);
    const auto q = block_sizes(quarters);
    EXPECT_EQ(std::vector<std::size_t>(q.begin(), q.begin() + 10),
              (std::vector<std::size_t>{8, 10, 12, 14, 16, 20, 24, 28, 32, 40}));
    // Every request goes to the smallest class that holds it and is aligned as asked.
    for (multipool_resource* r : {&powers, &halves, &quarters}) {
        const auto sizes = block_sizes(*r);
        for (std::size_t alignment = 1; alignment <= 8192; alignment *= 2) {
            for (std::size_t bytes = 1; bytes <= 4097; ++bytes) {
                std::size_t expected = sizes.size();
                for (std::size_t i = 0; i < sizes.size() && expected == sizes.size(); ++i) {
                    const std::size_t natural = std::min<std::size_t>(sizes[i] & (~sizes[i] + 1), 4096);
                    if (sizes[i] >= bytes && natural >= alignment) expected = i;
                }
                ASSERT_EQ(pool_of(*r, bytes, alignment), expected) << bytes << " bytes at " << alignment;
            }
        }
    }
}

// The classes for any largest block: 8, then per doubling 2^e the k sizes 2^e + m * 2^e / k (m = 1..k),
// as long as they fit in max_block (the resource counts and sizes them without a loop per class).
TEST(MultipoolResource, ClassesForEveryLargestBlock) {
    std::vector<std::size_t> largest;
    for (std::size_t b = 8; b <= 5000; ++b) largest.push_back(b);
    for (std::size_t p = std::size_t{1} << 13; p <= (std::size_t{1} << 20); p *= 2)
        for (std::size_t b : {p - 1, p, p + 1, p + p / 4, p + p / 2 + 1})
            if (b <= (std::size_t{1} << 20)) largest.push_back(b);
    checking_resource upstream;
    for (std::size_t k : {1, 2, 4}) {
        for (std::size_t b : largest) {
            std::vector<std::size_t> expected{8};
            for (std::size_t e = 8; e < b; e *= 2)
                for (std::size_t m = 1; m <= k; ++m)
                    if (e + m * e / k <= b) expected.push_back(e + m * e / k);
            multipool_options o = with_classes(k);
            o.max_block = b;
            multipool_resource r(o, &upstream);
            ASSERT_EQ(block_sizes(r), expected) << "classes_per_doubling " << k << ", max_block " << b;
        }
    }
    EXPECT_EQ(upstream.live_blocks(), 0u);
}

// Requests go to the smallest class that holds them (and is aligned as asked) whatever the largest block:
// the classes of requests up to 1 KiB come from a table, the others are computed, and a largest block
// below 1 KiB, or between two classes, ends the table early.
TEST(MultipoolResource, RequestsFindTheirClassForAnyLargestBlock) {
    checking_resource upstream;
    for (std::size_t k : {1, 2, 4}) {
        for (std::size_t b : {8, 9, 15, 16, 17, 100, 127, 128, 129, 500, 1000, 1023, 1024, 1025, 1100, 1536}) {
            multipool_options o = with_classes(k);
            o.max_block = b;
            multipool_resource r(o, &upstream);
            const auto sizes = block_sizes(r);
            for (std::size_t alignment : {1, 4, 8, 16, 64}) {
                for (std::size_t bytes = 1; bytes <= b + 2; ++bytes) {
                    std::size_t expected = sizes.size();
                    for (std::size_t i = 0; i < sizes.size() && expected == sizes.size(); ++i)
                        if (sizes[i] >= bytes && (sizes[i] & (~sizes[i] + 1)) >= alignment) expected = i;
                    ASSERT_EQ(pool_of(r, bytes, alignment), expected)
                        << bytes << " bytes at " << alignment << ", " << k << " per doubling, max_block " << b;
                }
            }
        }
    }
    EXPECT_EQ(upstream.live_blocks(), 0u);
}

TEST(MultipoolResource, EveryAlignmentAtEveryClassBoundary) {
    for (std::size_t per_doubling : {1, 2, 4}) {
        checking_resource upstream;
        {
            multipool_resource r(with_classes(per_doubling), &upstream);
            std::vector<std::pair<char*, std::size_t>> blocks;
            for (std::size_t size : block_sizes(r)) {
                for (std::size_t alignment = 1; alignment <= 16384; alignment *= 2) {
                    for (std::size_t bytes : {size - 1, size, size + 1}) {
                        for (int repeat = 0; repeat < 3; ++repeat) {
                            auto* p = static_cast<char*>(r.allocate(bytes, alignment));
                            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u) << bytes << " at " << alignment;
                            std::memset(p, 0x2e, bytes);
                            blocks.emplace_back(p, bytes);
                        }
                    }
                }
            }
            std::vector<std::pair<char*, std::size_t>> sorted = blocks;
            std::sort(sorted.begin(), sorted.end());
            for (std::size_t i = 1; i < sorted.size(); ++i) ASSERT_LE(sorted[i - 1].first + sorted[i - 1].second, sorted[i].first);
            EXPECT_EQ(r.upstream_bytes(), upstream.live_bytes());
        }
        EXPECT_EQ(upstream.live_blocks(), 0u);
    }
}

// libstdc++ 12's pool resource returns 8-aligned blocks for 16-aligned requests of 17-24 bytes.
TEST(MultipoolResource, SixteenAlignedRequestsOfSeventeenToTwentyFourBytes) {
    for (std::size_t per_doubling : {1, 2, 4}) {
        multipool_resource r(with_classes(per_doubling));
        std::mt19937 rng(3);
        std::vector<std::pair<void*, std::size_t>> live;
        for (int i = 0; i < 100000; ++i) {
            const std::size_t bytes = 17 + rng() % 8;
            void* p = r.allocate(bytes, 16);
            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % 16, 0u);
            live.emplace_back(p, bytes);
            if (rng() % 3 == 0) {
                const std::size_t k = rng() % live.size();
                r.deallocate(live[k].first, live[k].second, 16);
                live[k] = live.back();
                live.pop_back();
            }
        }
    }
}

// A resource is made per data structure or per subsystem: it must stay small. The default options keep
// their pools inside it; finer classes take one table from the upstream, counted and given back.
TEST(MultipoolResource, SmallWithItsPoolsInsideOrInOneUpstreamTable) {
    EXPECT_LE(sizeof(multipool_resource), 1024u);
    checking_resource upstream;
    {
        multipool_resource powers(&upstream);
        EXPECT_EQ(upstream.live_blocks(), 0u);
        EXPECT_EQ(powers.upstream_bytes(), 0u);
        multipool_resource quarters(with_classes(4), &upstream);
        EXPECT_EQ(upstream.live_blocks(), 1u);
        EXPECT_EQ(quarters.upstream_bytes(), upstream.live_bytes());
        void* p = quarters.allocate(40);
        quarters.release();
        EXPECT_EQ(upstream.live_blocks(), 1u);  // (the table stays: the resource is still usable)
        p = quarters.allocate(40);
        quarters.deallocate(p, 40);
    }
    EXPECT_EQ(upstream.live_blocks(), 0u);
}

TEST(MultipoolResource, ChunksGrowFromAFewBlocksUpToTheCap) {
    checking_resource upstream;
    multipool_options o;
    o.first_blocks = 4;
    o.max_chunk = 4096;
    multipool_resource r(o, &upstream);
    std::vector<void*> blocks;
    for (int i = 0; i < 1000; ++i) blocks.push_back(r.allocate(64, 8));
    std::vector<std::size_t> sizes;
    for (const auto& [p, b] : upstream.live()) sizes.push_back(b.bytes);
    std::sort(sizes.begin(), sizes.end());
    // 4, 8, 16, 32 and then 64 blocks of 64 bytes (4096), each with the chunk's header and room to align
    // the blocks to 64 in a chunk the upstream aligned to 16.
    const std::size_t header = sizes.front() - 4 * 64;
    EXPECT_GT(header, 0u);
    EXPECT_LE(header, 64u + 48u);
    for (const auto& [p, b] : upstream.live()) EXPECT_EQ(b.alignment, alignof(std::max_align_t));
    EXPECT_EQ(sizes[1], 8 * 64 + header);
    EXPECT_EQ(sizes[3], 32 * 64 + header);
    EXPECT_EQ(sizes.back(), 64 * 64 + header);
    EXPECT_EQ(r.stats(3).block_size, 64u);
    EXPECT_EQ(r.stats(3).blocks_in_use, 1000u);
    EXPECT_EQ(r.stats(3).chunks, upstream.live_blocks());
    EXPECT_EQ(r.bytes_in_use(), 1000u * 64);
    for (void* p : blocks) r.deallocate(p, 64, 8);
    EXPECT_EQ(r.bytes_in_use(), 0u);
    // Freed blocks are used again before any new chunk: the last freed first.
    const std::size_t chunks = upstream.live_blocks();
    EXPECT_EQ(r.allocate(64, 8), blocks.back());
    for (int i = 0; i < 999; ++i) r.allocate(50, 8);
    EXPECT_EQ(upstream.live_blocks(), chunks);
}

// The first chunk of every pool but the first one the resource fills is cut from one block of 2 KiB while
// it has room (a small structure goes through several classes); what the upstream sees, what the
// introspection says, and that release() starts over.
TEST(MultipoolResource, FirstChunksOfLaterPoolsShareOneBlock) {
    checking_resource upstream;
    multipool_resource r(&upstream);  // (first chunks of 8 blocks: those of 16, 32 and 64 bytes fit in one)
    for (int round = 0; round < 2; ++round) {
        std::vector<std::pair<char*, std::size_t>> blocks;
        for (std::size_t bytes : {8, 16, 32, 64, 16, 64}) {
            auto* p = static_cast<char*>(r.allocate(bytes, 8));  // (at 8: the 8-byte class too)
            std::memset(p, static_cast<int>(bytes), bytes);
            blocks.emplace_back(p, bytes);
        }
        ASSERT_EQ(upstream.live_blocks(), 2u) << "the first pool's chunk, and the block of the others' first";
        std::vector<std::size_t> sizes;
        for (const auto& [p, b] : upstream.live()) sizes.push_back(b.bytes);
        std::sort(sizes.begin(), sizes.end());
        EXPECT_EQ(sizes.back(), 2048u);
        std::size_t held = 0;
        for (std::size_t i = 0; i < 4; ++i) {
            EXPECT_EQ(r.stats(i).chunks, 1u) << "class " << i;
            EXPECT_GT(r.stats(i).bytes_held, 8 * r.stats(i).block_size);
            held += r.stats(i).bytes_held;
        }
        EXPECT_EQ(r.stats(0).bytes_held, sizes.front());
        EXPECT_LE(held - sizes.front(), 2048u) << "the others' first chunks, inside the block";
        EXPECT_EQ(r.upstream_bytes(), upstream.live_bytes()) << "the block counted once";
        for (const auto& [p, bytes] : blocks)
            for (std::size_t k = 0; k < bytes; ++k) ASSERT_EQ(static_cast<unsigned char>(p[k]), bytes);
        std::sort(blocks.begin(), blocks.end());
        for (std::size_t i = 1; i < blocks.size(); ++i)
            ASSERT_LE(blocks[i - 1].first + blocks[i - 1].second, blocks[i].first);
        // A first chunk of more than half the block (8 blocks of 128 bytes) takes a chunk of its own.
        void* large = r.allocate(128, 8);
        EXPECT_EQ(upstream.live_blocks(), 3u);
        EXPECT_EQ(r.stats(4).bytes_held, upstream.live_bytes() - sizes[0] - sizes[1]);
        r.deallocate(large, 128, 8);
        for (const auto& [p, bytes] : blocks) r.deallocate(p, bytes, 8);
        EXPECT_EQ(r.bytes_in_use(), 0u);
        r.release();
        EXPECT_EQ(upstream.live_blocks(), 0u);
        EXPECT_EQ(r.upstream_bytes(), 0u);
    }
}

TEST(MultipoolResource, LargeRequestsGoToTheUpstreamAndReleaseGivesEverythingBack) {
    checking_resource upstream;
    multipool_resource r(&upstream);
    void* big = r.allocate(100000, 64);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big) % 64, 0u);
    EXPECT_EQ(r.upstream_blocks(), 1u);
    void* aligned = r.allocate(100, 8192);  // more aligned than any class: the upstream too
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned) % 8192, 0u);
    EXPECT_EQ(r.upstream_blocks(), 2u);
    r.deallocate(big, 100000, 64);
    EXPECT_EQ(r.upstream_blocks(), 1u);
    for (int i = 0; i < 100; ++i) r.allocate(static_cast<std::size_t>(8 + i * 40), 8);
    r.allocate(50000, 8);
    EXPECT_EQ(r.upstream_bytes(), upstream.live_bytes());
    r.release();
    EXPECT_EQ(upstream.live_blocks(), 0u);
    EXPECT_EQ(r.bytes_in_use(), 0u);
    EXPECT_EQ(r.upstream_bytes(), 0u);
    r.release();
    void* again = r.allocate(24, 8);
    std::memset(again, 1, 24);
    EXPECT_EQ(upstream.live_blocks(), 1u);
}

TEST(MultipoolResource, PoolsNeverAskTheUpstreamForMoreThanAPage) {
    checking_resource upstream;
    multipool_options o;
    o.max_block = std::size_t{1} << 16;
    multipool_resource r(o, &upstream);
    for (std::size_t size = 8; size <= o.max_block; size *= 2) r.allocate(size, size < 4096 ? size : 4096);
    EXPECT_EQ(r.upstream_blocks(), 0u);
    EXPECT_LE(upstream.largest_alignment_asked(), 4096u);
}

TEST(MultipoolResource, UpstreamFailureIsBadAllocAndChangesNothing) {
    checking_resource upstream;
    multipool_resource r(&upstream);
    void* kept = r.allocate(40, 8);
    const std::size_t in_use = r.bytes_in_use(), held = r.upstream_bytes();
    upstream.fail_after(0);
    EXPECT_THROW(r.allocate(1000, 8), std::bad_alloc);  // a new pool's first chunk
    EXPECT_THROW(r.allocate(100000, 8), std::bad_alloc);  // passed through
    EXPECT_EQ(r.bytes_in_use(), in_use);
    EXPECT_EQ(r.upstream_bytes(), held);
    EXPECT_EQ(r.stats(6).blocks_in_use, 0u);
    upstream.fail_after(-1);
    EXPECT_NO_THROW(r.allocate(1000, 8));
    r.deallocate(kept, 40, 8);
}

// The upstream failing at each of its allocations under containers: std::bad_alloc, the containers as
// their guarantee says, nothing leaked; alone and over a monotonic resource.
TEST(MultipoolResource, UpstreamFailuresUnderContainers) {
    EXPECT_GE(at_every_upstream_failure([](std::pmr::memory_resource* upstream) { return std::make_unique<multipool_resource>(upstream); }), 5);
    multipool_options fine;
    fine.classes_per_doubling = 4;
    fine.first_blocks = 1;
    EXPECT_GE(at_every_upstream_failure([&](std::pmr::memory_resource* upstream) { return std::make_unique<multipool_resource>(fine, upstream); }),
              5);
    struct over_monotonic {
        relo::monotonic_resource monotonic;
        multipool_resource pool{&monotonic};
        explicit over_monotonic(std::pmr::memory_resource* upstream) : monotonic(upstream) {}
    };
    EXPECT_GE(at_every_upstream_failure([](std::pmr::memory_resource* upstream) {
        const auto both = std::make_shared<over_monotonic>(upstream);
        return std::shared_ptr<multipool_resource>(both, &both->pool);  // (the pool, keeping both alive)
    }), 5);
}

TEST(MultipoolResource, OptionsOutOfRange) {
    multipool_options o;
    o.classes_per_doubling = 3;
    EXPECT_THROW(multipool_resource{o}, std::invalid_argument);
    o = {};
    o.max_block = std::size_t{1} << 21;
    EXPECT_THROW(multipool_resource{o}, std::invalid_argument);
    o = {};
    o.max_block = 5000;  // classes up to the largest that fits
    const multipool_resource r(o);
    EXPECT_EQ(r.stats(r.pool_count() - 1).block_size, 4096u);
}

TEST(MultipoolResource, TryExpandWithinTheClass) {
    multipool_resource r;
    void* p = r.allocate(40, 8);
    EXPECT_TRUE(r.try_expand(p, 40, 64, 8));
    EXPECT_TRUE(r.try_expand(p, 64, 33, 8));
    EXPECT_FALSE(r.try_expand(p, 64, 65, 8));
    r.deallocate(p, 33, 8);
}

template <class R, class = void>
struct expands_without_alignment : std::false_type {};
template <class R>
struct expands_without_alignment<R, std::void_t<decltype(std::declval<R&>().try_expand(nullptr, std::size_t{1},
                                                                                         std::size_t{9}))>>
    : std::true_type {};

// A block allocated as (1 byte, alignment 8) is in the 8-byte class. try_expand without an alignment took
// max_align_t's, which named the 16-byte class, and said yes to 9 bytes: one past the block's end (found
// under AddressSanitizer, a multipool over a monotonic resource). The alignment is now required.
TEST(MultipoolResource, TryExpandTakesTheAllocationsAlignment) {
    static_assert(!expands_without_alignment<multipool_resource>::value,
                  "a try_expand without the allocation's alignment would answer for another class");
    relo::monotonic_resource mono;
    multipool_resource r(&mono);
    auto* p = static_cast<unsigned char*>(r.allocate(1, 8));
    EXPECT_FALSE(r.try_expand(p, 1, 9, 8));
    EXPECT_TRUE(r.try_expand(p, 1, 8, 8));
    p[7] = 1;
    r.deallocate(p, 8, 8);
}

// Found by tests/fuzz/multipool_fuzz.cpp: a small block that its alignment sent to the upstream was
// "expanded" to its size class, past its end.
TEST(MultipoolResource, TryExpandKnowsBlocksOfTheUpstream) {
    multipool_options o;
    o.max_block = 256;
    multipool_resource r(o);
    void* p = r.allocate(49, 4096);  // (no class is aligned so: the upstream's)
    EXPECT_EQ(r.upstream_blocks(), 1u);
    EXPECT_FALSE(r.try_expand(p, 49, 60, 4096));
    EXPECT_FALSE(r.try_expand(p, 49, 50, 4096));
    void* q = r.allocate(49, 8);  // (class 64)
    EXPECT_TRUE(r.try_expand(q, 49, 60, 8));
    r.deallocate(q, 60, 8);
    r.deallocate(p, 49, 4096);
}

// Found by tests/fuzz/multipool_monotonic_fuzz.cpp: a zero-byte block passed to the upstream ended where
// it began, at the start of the upstream's next block.
TEST(MultipoolResource, ZeroByteBlocksOfTheUpstreamAreDistinct) {
    checking_resource upstream;
    multipool_options o;
    o.max_block = 16;
    multipool_resource r(o, &upstream);
    char* p = static_cast<char*>(r.allocate(0, 2048));
    ASSERT_EQ(upstream.live().size(), 1u);
    const auto& [raw, block] = *upstream.live().begin();
    EXPECT_LT(p, static_cast<char*>(raw) + block.bytes);  // (inside the upstream's block)
    r.deallocate(p, 0, 2048);
    EXPECT_EQ(upstream.live_blocks(), 0u);
}

TEST(MultipoolResource, OverAMonotonicResource) {
    checking_resource upstream;
    {
        relo::monotonic_resource mono(&upstream);
        multipool_resource pool(&mono);
        random_container_workout(pool, 11, 50000);
        EXPECT_GT(mono.upstream_bytes(), 0u);
        pool.release();
        mono.release();
        EXPECT_EQ(upstream.live_blocks(), 0u);
    }
}

TEST(MultipoolResource, ContainersUnderRandomOperations) {
    for (std::size_t per_doubling : {1, 4}) {
        checking_resource upstream;
        multipool_resource r(with_classes(per_doubling), &upstream);
        random_container_workout(r, static_cast<unsigned>(20 + per_doubling), 100000);
    }
}

TEST(MultipoolResource, WinkingOut) {
    checking_resource upstream;
    multipool_resource r(&upstream);
    for (int round = 0; round < 3; ++round) {
        using inner = std::pmr::vector<std::pmr::string>;
        auto* outer = new (r.allocate(sizeof(std::pmr::vector<inner>), alignof(std::pmr::vector<inner>)))
            std::pmr::vector<inner>(&r);
        for (int i = 0; i < 500; ++i) {
            outer->emplace_back();
            for (int j = 0; j < 10; ++j) outer->back().emplace_back("long enough to live on the heap " + std::to_string(j));
        }
        r.release();  // no destructor runs
        EXPECT_EQ(upstream.live_blocks(), 0u);
    }
}


}  // namespace
}  // namespace relo_test
