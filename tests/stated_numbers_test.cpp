// tests/stated_numbers_test.cpp — the numbers the headers, README.md and docs/ state as facts of the code
// (sizes, defaults, limits), each checked here, so that a change that makes one false fails. Measured
// numbers (times, ratios) are not facts of the code: they live, dated, in docs/measurements/ only. What
// C++ cannot reach (relo.sh, the CMake files, the debuggers' scripts) tests/stated_facts.py checks.
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <ratio>
#include <stdexcept>
#include <utility>

#include <gtest/gtest.h>

#include "relo/relo.hpp"

namespace relo_test {
namespace {

constexpr std::size_t kib = std::size_t{1} << 10;
constexpr std::size_t mib = std::size_t{1} << 20;
constexpr std::size_t gib = std::size_t{1} << 30;

// Private constants a header's comment states: an explicit instantiation may name a private member (access
// is not checked there: [temp.spec.general]), and hands it to a friend function of a tag.
template <class Tag, typename Tag::type Member>
struct reach {
    friend typename Tag::type get(Tag) { return Member; }
};
struct small_vector_most_inline {
    using type = const std::size_t*;
    friend type get(small_vector_most_inline);
};
template struct reach<small_vector_most_inline, &relo::small_vector_base<char>::max_inline_capacity>;
struct sync_batch_for {
    using type = std::size_t (*)(std::size_t) noexcept;
    friend type get(sync_batch_for);
};
template struct reach<sync_batch_for, &relo::synchronized_multipool_resource::batch_for>;
struct sync_shards_for {
    using type = std::size_t (*)(unsigned) noexcept;
    friend type get(sync_shards_for);
};
template struct reach<sync_shards_for, &relo::synchronized_multipool_resource::shards_for>;
struct sync_bin_tables {
    using type = const std::size_t*;
    friend type get(sync_bin_tables);
};
template struct reach<sync_bin_tables, &relo::synchronized_multipool_resource::thread_table::slots>;
struct multipool_mark_room {
    using type = bool (*)(std::size_t) noexcept;
    friend type get(multipool_mark_room);
};
template struct reach<multipool_mark_room, &relo::multipool_resource::has_room_for_mark>;

// relo/inplace_vector.hpp, docs/stability.md and docs/decisions.md: "sizeof(inplace_vector<char, 5>) == 6".
static_assert(sizeof(relo::inplace_vector<char, 5>) == 6);
// relo/inplace_vector.hpp and docs/decisions.md: the size is the smallest of uint8_t and uint16_t that holds
// N, size_t beyond 65535, and size_t past 255 when the elements are 16-bit integers.
static_assert(std::is_same_v<relo::detail::inplace_size_t<255, char>, std::uint8_t>);
static_assert(std::is_same_v<relo::detail::inplace_size_t<256, char>, std::uint16_t>);
static_assert(std::is_same_v<relo::detail::inplace_size_t<65535, char>, std::uint16_t>);
static_assert(std::is_same_v<relo::detail::inplace_size_t<65536, char>, std::size_t>);
static_assert(std::is_same_v<relo::detail::inplace_size_t<255, std::int16_t>, std::uint8_t>);
static_assert(std::is_same_v<relo::detail::inplace_size_t<256, std::int16_t>, std::size_t>);
// relo/small_vector.hpp, docs/decisions.md and docs/design.md: 56 bytes for <int, 8> (pointer, size,
// capacity, 8 ints); the default inline capacity makes the object about 64 bytes, with at least one element.
static_assert(sizeof(relo::small_vector<int, 8>) == 56);
static_assert(sizeof(relo::small_vector<int>) == 64);
static_assert(relo::detail::default_small_capacity<char[100]> == 1);
// relo/vector.hpp's storage in docs/design.md: three pointers and the allocator (the default one is empty).
static_assert(sizeof(relo::vector<int>) == 3 * sizeof(int*));
// docs/design.md: an iterator is one pointer in a class; docs/settings.md, docs/decisions.md and
// relo/detail/abi.hpp: with RELO_BOUNDED_ITERATORS, three (the storage's bounds).
#if defined(RELO_BOUNDED_ITERATORS)
static_assert(sizeof(relo::vector<int>::iterator) == 3 * sizeof(int*));
#else
static_assert(sizeof(relo::vector<int>::iterator) == sizeof(int*));
#endif

// relo/small_vector.hpp and docs/design.md: N at most 65535 (what the free slots can record).
TEST(StatedNumbers, SmallVectorInlineCapacityBound) {
    EXPECT_EQ(*get(small_vector_most_inline{}), 65535u);
    EXPECT_EQ((relo::small_vector<char, 65535>::inline_capacity_v), 65535u);
}

// relo/page_allocator.hpp and docs/measurements/thresholds.md, the defaults' table.
static_assert(relo::page_allocator_policy::relocatable_mapping_threshold == (RELO_OS_WINDOWS ? 64 * kib : 32 * mib));
static_assert(relo::page_allocator_policy::other_mapping_threshold == 128 * kib);
static_assert(relo::page_allocator_policy::reservation_factor == 16);
static_assert(relo::page_allocator_policy::realloc_threshold == 1 * kib);
static_assert(relo::page_allocator_policy::huge_page_threshold == SIZE_MAX, "no huge pages by default");
static_assert(relo::large_block_policy::huge_page_threshold == 2 * mib);
// relo/page_allocator.hpp: large_block_policy's large blocks from 2 MiB for trivially relocatable T, other
// T at page_allocator_policy's threshold; docs/portability.md: 16 times the size reserved (above).
static_assert(relo::large_block_policy::relocatable_mapping_threshold == 2 * mib);
static_assert(relo::large_block_policy::other_mapping_threshold == relo::page_allocator_policy::other_mapping_threshold);
// relo/detail/large_block.hpp, docs/decisions.md and docs/vector_performance.md: the warm-block cache keeps
// at most 256 blocks.
static_assert(relo::detail::warm_block_cache_state::slots == 256);
// relo/detail/large_block.hpp, relo/commit_policy.hpp, docs/decisions.md and docs/vector_performance.md:
// a huge page is 2 MiB (where relo uses them), so one replaces 512 faults of 4 KiB pages.
static_assert(relo::detail::os::huge_page_size() == 0 || relo::detail::os::huge_page_size() == 2 * mib);
static_assert(2 * mib / relo::geometric_commit::rule.first_step == 512);
// relo/growth.hpp, docs/guide.md and docs/headers.md: the default factor is 2; growth_1_5 and
// growth_factor<3, 2> grow by 1.5, growth_1_6 by 1.6.
static_assert(std::is_same_v<relo::vector<int>::growth_policy, relo::growth_2>);
static_assert(std::is_same_v<relo::small_vector<int>::growth_policy, relo::growth_2>);
static_assert(relo::growth_2::num == 2 && relo::growth_2::den == 1);
static_assert(relo::growth_1_5::num == 3 && relo::growth_1_5::den == 2);
static_assert(std::is_same_v<relo::growth_factor<3, 2>, relo::growth_1_5>);
static_assert(relo::growth_1_6::num == 8 && relo::growth_1_6::den == 5);
static_assert(relo::detail::next_capacity<relo::growth_1_5>(10, 11, 1000) == 15);
static_assert(relo::detail::next_capacity<std::ratio<7, 5>>(10, 11, 1000) == 14);
// relo/commit_policy.hpp (and relo/warm_memory.hpp, docs/decisions.md): the commit rules; geometric_commit
// is pinned_vector's default (relo/pinned_vector.hpp, docs/headers.md).
static_assert(relo::geometric_commit::rule.first_step == 4 * kib && relo::geometric_commit::rule.max_step == 64 * mib &&
              relo::geometric_commit::rule.retained_minimum == 2 * mib &&
              relo::geometric_commit::rule.huge_page_threshold == SIZE_MAX);
static_assert(relo::huge_page_commit::rule.first_step == 4 * kib && relo::huge_page_commit::rule.max_step == 64 * mib &&
              relo::huge_page_commit::rule.huge_page_threshold == 2 * mib &&
              relo::huge_page_commit::rule.retained_minimum == 2 * mib);
static_assert(relo::page_commit::rule.first_step == 4 * kib && relo::page_commit::rule.max_step == 4 * kib &&
              relo::page_commit::rule.huge_page_threshold == SIZE_MAX && relo::page_commit::rule.retained_minimum == 4 * kib);
static_assert(std::is_same_v<relo::pinned_vector<int>::commit_policy, relo::geometric_commit>);
// relo/pinned_vector.hpp, docs/decisions.md and docs/headers.md: 4 GiB reserved by default on 64-bit systems
// (256 MiB on 32-bit ones), so that a 47-bit address space (128 TiB) holds 32,768 (about 32,000) of them and
// 20,000 take 78 TiB; relo/vm_arena.hpp: 16 GiB.
constexpr std::size_t tib = gib << 10;
static_assert(relo::pinned_vector<int>::default_reservation == (sizeof(void*) >= 8 ? 4 * gib : 256 * mib));
static_assert(sizeof(void*) < 8 || 128 * tib / relo::pinned_vector<int>::default_reservation == 32768);
static_assert(sizeof(void*) < 8 || 20000 * relo::pinned_vector<int>::default_reservation / tib == 78);
static_assert(sizeof(void*) < 8 || relo::vm_arena::default_reservation == 16 * gib);
// relo/detail/errors.hpp: the largest block is PTRDIFF_MAX (2^63 - 1), the largest alignment 2^61.
static_assert(relo::detail::max_block_bytes == static_cast<std::size_t>(PTRDIFF_MAX));
static_assert(sizeof(void*) < 8 || relo::detail::max_block_alignment == std::size_t{1} << 61);
// relo/multipool_resource.hpp ("at most that alignment less 16 bytes"), relo/resource_scope.hpp (a 16-byte
// header), docs/decisions.md (chunks at 16-byte alignment): the alignment of std::max_align_t, which the
// code uses, is 16 where those pages say so.
#if defined(__x86_64__) || defined(__aarch64__) || defined(_M_X64) || defined(_M_ARM64)
static_assert(alignof(std::max_align_t) == 16);
#endif
// docs/life_in_a_process.md: PTHREAD_DESTRUCTOR_ITERATIONS is 4 on glibc.
#if defined(__GLIBC__)
static_assert(PTHREAD_DESTRUCTOR_ITERATIONS == 4);
#endif

// relo/pinned_vector.hpp, docs/headers.md and docs/settings.md: each thread keeps at most
// reservation_cache_limit() reservations, 4 by default, at most 8; relo/warm_memory.hpp: warm_memory()
// reads at most 8 entries.
TEST(StatedNumbers, ReservationCacheBounds) {
    static_assert(relo::detail::reservation_cache_slots == 8);
    const std::size_t before = relo::reservation_cache_limit();
    relo::set_reservation_cache_limit(100);
    EXPECT_EQ(relo::reservation_cache_limit(), 8u);
    relo::set_reservation_cache_limit(before);
}

// docs/debugging.md's example: a pinned_vector<int> of 5 elements has capacity 1024, 4096 bytes committed of
// 4294967296 reserved; a multipool (below) has 10 size classes.
TEST(StatedNumbers, DebuggingPagesPinnedVector) {
    if (sizeof(void*) < 8 || relo::detail::os::page_size() != 4 * kib) GTEST_SKIP() << "4 KiB pages, 64-bit";
    relo::trim_reservation_cache();  // (a cached reservation may come with more pages committed)
    relo::pinned_vector<int> pinned;
    for (int i = 0; i < 5; ++i) pinned.push_back(i * i);
    EXPECT_EQ(pinned.capacity(), 1024u);
    EXPECT_EQ(pinned.committed_bytes(), 4096u);
    EXPECT_EQ(pinned.reserved_bytes(), 4294967296u);
}

// relo/detail/large_block.hpp and docs/decisions.md: from the huge-page threshold on, a block is committed
// in whole huge pages only where that adds at most an eighth to it.
TEST(StatedNumbers, HugePagesAddAtMostAnEighth) {
    if (relo::detail::os::huge_page_size() == 0 || relo::detail::os::page_size() != 4 * kib)
        GTEST_SKIP() << "no huge pages here";
    const relo::detail::large_block_options opt{16, 2 * mib};
    using relo::detail::large_block;
    EXPECT_EQ(large_block::committed_length(911 * 4 * kib, opt), 4 * mib);  // 113 pages: less than an eighth
    EXPECT_EQ(large_block::committed_length(910 * 4 * kib, opt), 910 * 4 * kib);  // 114 pages: more
    EXPECT_EQ(large_block::committed_length(2 * mib - 4 * kib, opt), 2 * mib - 4 * kib);  // below the threshold
}

// relo/growth.hpp and relo/vector.hpp: the first allocation holds at least 24 bytes' worth of elements.
TEST(StatedNumbers, FirstAllocationHolds24Bytes) {
    relo::vector<char> bytes;
    bytes.push_back('a');
    EXPECT_GE(bytes.capacity(), 24u);
    relo::vector<int> ints;
    ints.push_back(1);
    EXPECT_GE(ints.capacity() * sizeof(int), 24u);
    relo::vector<std::pair<long, long>> pairs;
    pairs.push_back({1, 2});
    EXPECT_GE(pairs.capacity(), 1u);
}

// relo/multipool_resource.hpp: "under 1 KiB", "the pools live in it when there are at most 16 (the default
// options make 10)", classes from 8 bytes (also docs/headers.md) to max_block 4096; docs/debugging.md: 10
// size classes.
TEST(StatedNumbers, MultipoolDefaults) {
    static_assert(sizeof(relo::multipool_resource) < 1 * kib);
    const relo::multipool_resource pools;
    EXPECT_EQ(pools.pool_count(), 10u);
    EXPECT_EQ(pools.stats(0).block_size, 8u);
    EXPECT_EQ(pools.stats(9).block_size, 4096u);
    EXPECT_EQ(relo::multipool_options{}.max_block, 4096u);
    EXPECT_EQ(relo::multipool_options{}.classes_per_doubling, 1u);
    // More than 16 classes take a table of pools from the upstream (upstream_bytes() says so).
    relo::test_resource upstream;
    relo::multipool_options sixteen;
    sixteen.max_block = std::size_t{1} << 18;  // 8 bytes to 256 KiB: 16 classes
    const relo::multipool_resource inline_pools(sixteen, &upstream);
    EXPECT_EQ(inline_pools.pool_count(), 16u);
    EXPECT_EQ(upstream.bytes_in_use(), 0u);
    relo::multipool_options seventeen;
    seventeen.max_block = std::size_t{1} << 19;
    const relo::multipool_resource table(seventeen, &upstream);
    EXPECT_EQ(table.pool_count(), 17u);
    EXPECT_GT(upstream.bytes_in_use(), 0u);
}

// relo/multipool_resource.hpp: the options' ranges (max_block from 8 to 1 MiB, classes_per_doubling 1, 2 or
// 4, first_blocks and max_chunk at least 1); docs/headers.md: "2 or 4 classes per doubling".
TEST(StatedNumbers, MultipoolOptionRanges) {
    const auto made = [](std::size_t max_block, std::size_t per_doubling, std::size_t first_blocks, std::size_t max_chunk) {
        relo::multipool_options o;
        o.max_block = max_block;
        o.classes_per_doubling = per_doubling;
        o.first_blocks = first_blocks;
        o.max_chunk = max_chunk;
        try {
            relo::multipool_resource pools(o);
            return true;
        } catch (const std::invalid_argument&) {
            return false;
        }
    };
    EXPECT_TRUE(made(8, 1, 1, 1));
    EXPECT_TRUE(made(mib, 4, 1, 1));
    EXPECT_TRUE(made(4096, 2, 8, 64 * kib));
    EXPECT_FALSE(made(7, 1, 8, 64 * kib));
    EXPECT_FALSE(made(mib + 1, 1, 8, 64 * kib));
    EXPECT_FALSE(made(4096, 3, 8, 64 * kib));
    EXPECT_FALSE(made(4096, 8, 8, 64 * kib));
    EXPECT_FALSE(made(4096, 1, 0, 64 * kib));
    EXPECT_FALSE(made(4096, 1, 8, 0));
}

// relo/multipool_resource.hpp: a class's blocks are aligned to the largest power of two dividing its size,
// at most 4096 bytes (a request aligned more goes to the upstream); the classes of requests up to 1 KiB are
// looked up in rows of 128, 256 and 512 entries; in hardened builds a free block of 16 bytes or more
// carries the mark.
TEST(StatedNumbers, MultipoolClassAlignmentAndTable) {
    relo::multipool_options o;
    o.max_block = 8 * kib;
    relo::multipool_resource pools(o);
    void* aligned_4096 = pools.allocate(8 * kib, 4 * kib);
    EXPECT_EQ(pools.upstream_blocks(), 0u);
    void* aligned_8192 = pools.allocate(8 * kib, 8 * kib);
    EXPECT_EQ(pools.upstream_blocks(), 1u);
    pools.deallocate(aligned_8192, 8 * kib, 8 * kib);
    pools.deallocate(aligned_4096, 8 * kib, 4 * kib);
    using rows = relo::detail::multipool_class_rows;
    static_assert(rows::limit == 1 * kib);
    static_assert(rows::row_of(0) == 0 && rows::row_of(1) == 128 && rows::row_of(2) == 128 + 256);
    static_assert(sizeof(rows::index) == 128 + 256 + 512);
    EXPECT_FALSE(get(multipool_mark_room{})(15));
    EXPECT_TRUE(get(multipool_mark_room{})(16) || sizeof(void*) < 8);
}

// relo/synchronized_multipool_resource.hpp and docs/decisions.md: a batch is 16 KiB of blocks, at least 16
// and at most 1,024; the shards are a power of two, at least four and twice the hardware threads, at most
// 64; a thread's table finds the bins of the last four resources it used.
TEST(StatedNumbers, SynchronizedMultipoolBatchesAndShards) {
    const auto batch = get(sync_batch_for{});
    EXPECT_EQ(batch(16), 1024u);
    EXPECT_EQ(batch(8), 1024u);
    EXPECT_EQ(batch(64), 256u);
    EXPECT_EQ(batch(1024), 16u);
    EXPECT_EQ(batch(4096), 16u);
    const auto shards = get(sync_shards_for{});
    EXPECT_EQ(shards(0), 4u);
    EXPECT_EQ(shards(2), 4u);
    EXPECT_EQ(shards(3), 8u);
    EXPECT_EQ(shards(16), 32u);
    EXPECT_EQ(shards(32), 64u);
    EXPECT_EQ(shards(1000), 64u);
    EXPECT_EQ(*get(sync_bin_tables{}), 4u);
}

// relo/monotonic_resource.hpp: the first chunk holds `first_chunk` bytes, at least 64.
TEST(StatedNumbers, MonotonicFirstChunkAtLeast64) {
    relo::test_resource upstream;
    relo::monotonic_resource mono(1, &upstream);
    (void)mono.allocate(1, 1);
    EXPECT_EQ(upstream.bytes_in_use(), 64u);
}

// relo/resource_scope.hpp, docs/decisions.md and docs/choosing_a_resource.md: each block carries its resource
// in a 16-byte header (T's alignment when larger).
TEST(StatedNumbers, ResourceScopeHeader) {
    relo::test_resource upstream;
    const relo::resource_scope scope(&upstream);
    relo::current_resource_allocator<int> ints;
    int* p = ints.allocate(1);
    EXPECT_EQ(upstream.bytes_in_use(), sizeof(int) + alignof(std::max_align_t));
    ints.deallocate(p, 1);
    struct alignas(64) line {
        char bytes[64];
    };
    relo::current_resource_allocator<line> lines;
    line* q = lines.allocate(1);
    EXPECT_EQ(upstream.bytes_in_use(), 64u + 64u);
    lines.deallocate(q, 1);
}

// relo/warm_memory.hpp, relo/chunk_cache.hpp, relo/page_allocator.hpp, relo/detail/large_block.hpp,
// relo/detail/reservation.hpp, docs/settings.md, docs/headers.md, docs/decisions.md and
// docs/vector_performance.md: the caches' default bounds (8 MiB, 64 MiB, 4 reservations and 32 MiB), at
// most 8 + 64 + 32 + 4 x 2 = 112 MiB a thread (docs/headers.md, docs/decisions.md), 7 GiB for 64 threads.
TEST(StatedNumbers, WarmMemoryBounds) {
    EXPECT_EQ(relo::chunk_cache_limit(), 8 * mib);
    EXPECT_EQ(relo::large_block_cache_limit(), 64 * mib);
    EXPECT_EQ(relo::reservation_cache_limit(), 4u);
    EXPECT_EQ(relo::detail::reservation_cache_committed_budget, 32 * mib);
    const std::size_t per_thread = relo::chunk_cache_limit() + relo::large_block_cache_limit() +
                                   relo::detail::reservation_cache_committed_budget +
                                   relo::reservation_cache_limit() * relo::geometric_commit::rule.retained_minimum;
    EXPECT_EQ(per_thread, 112 * mib);
    EXPECT_EQ(64 * per_thread, 7 * gib);
}

// relo/detail/thread_cache.hpp: the idle clock's tick, the margin an idle time is measured with, is at most
// 10 ms (16 ms on Windows), and no finer than the coarse clock's resolution on this system (else a cache
// could count as idle before the delay has passed).
TEST(StatedNumbers, IdleClockTick) {
    constexpr std::int64_t tick = relo::detail::idle_clock_tick_ns;
    EXPECT_GT(tick, 0);
    EXPECT_LE(tick, std::int64_t{16} * 1000 * 1000);
#if !defined(_WIN32) && defined(CLOCK_MONOTONIC_COARSE)
    timespec resolution{};
    ASSERT_EQ(::clock_getres(CLOCK_MONOTONIC_COARSE, &resolution), 0);
    EXPECT_LE(std::int64_t{resolution.tv_sec} * 1000 * 1000 * 1000 + resolution.tv_nsec, tick);
#endif
}

// docs/settings.md: RELO_WARM_MEMORY_LIMIT's sizes are digits, then nothing or K, M, G, each also written KB or
// KiB in any case, all binary ("64M", "64MB" and "64MiB" are 64 MiB; "4T" is not a size); the idle delay's
// milliseconds are digits only.
TEST(StatedNumbers, SettingsSizes) {
    const auto parsed = [](const char* text, bool suffixes = true) {
        std::uint64_t value = 12345;
        return relo::detail::parse_setting(text, value, suffixes) ? value : std::uint64_t{12345};
    };
    for (const char* text : {"64M", "64MB", "64MiB", "64m", "64mb", "64mib", "64MIB"}) EXPECT_EQ(parsed(text), 64 * mib) << text;
    EXPECT_EQ(parsed("3K"), 3 * kib);
    EXPECT_EQ(parsed("2G"), 2 * std::uint64_t{gib});
    EXPECT_EQ(parsed("100"), 100u);
    EXPECT_EQ(parsed("4T"), 12345u);
    EXPECT_EQ(parsed("1000", false), 1000u);
    EXPECT_EQ(parsed("1K", false), 12345u);
}

// relo/detail/config.hpp's version is the project's (CMakeLists.txt, the package's files).
constexpr int project_version[] = {RELO_TEST_PROJECT_VERSION};
static_assert(RELO_VERSION_MAJOR == project_version[0] && RELO_VERSION_MINOR == project_version[1] &&
              RELO_VERSION_PATCH == project_version[2]);
static_assert(RELO_VERSION == RELO_VERSION_MAJOR * 10000 + RELO_VERSION_MINOR * 100 + RELO_VERSION_PATCH);

// docs/settings.md, docs/headers.md, docs/decisions.md, docs/life_in_a_process.md and relo/warm_memory.hpp: the
// warm budget's defaults, 64 MiB and 1 s, as the build states them (the tests settings_* read them in a
// process of their own, with and without the environment's).
static_assert(RELO_DEFAULT_WARM_MEMORY_LIMIT == 64 * mib);
static_assert(RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS == 1000);

}  // namespace
}  // namespace relo_test
