// tests/page_allocator_test.cpp — relo::page_allocator: both block kinds, the expansion protocol, and the
// crossings between malloc and mappings.
#include "relo/page_allocator.hpp"
#include "relo/warm_memory.hpp"

#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "element_kinds.hpp"
#include "mapped_ints.hpp"
#include "os_probes.hpp"

namespace relo_test {
namespace {

// By default trivially relocatable types use large blocks from 32 MiB (64 KiB on Windows); the large
// blocks' own tests use large_block_policy (from 2 MiB, with huge pages), and those of the warm-block cache
// and of page moves a policy whose ints take large blocks from 64 KiB (mapped_ints.hpp).
using large_int_allocator = relo::page_allocator<int, relo::large_block_policy>;
constexpr std::size_t threshold_ints = large_int_allocator::mapping_threshold() / sizeof(int);

void fill(int* p, std::size_t n) { std::iota(p, p + n, 1); }
void expect_filled(const int* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(p[i], static_cast<int>(i) + 1) << "at " << i;
}

// Every allocator and container asks detail::is_constant_evaluated() whether it may call the OS, memmove or
// the sanitizer: at run time, from inside constexpr functions, the answer must be no (Clang 14's `if
// consteval` said yes in C++23), and in a constant expression yes.
constexpr bool asked_inside() noexcept { return relo::detail::is_constant_evaluated(); }
constexpr int answer_through_two_calls(int n) noexcept { return asked_inside() ? -1 : n; }
static_assert(answer_through_two_calls(4) == -1);

TEST(Config, ConstantEvaluationIsToldFromRunTime) {
    volatile int n = 4;
    EXPECT_EQ(answer_through_two_calls(n), 4);
    EXPECT_FALSE(asked_inside());
}

TEST(PageAllocator, IsAStandardStatelessAllocator) {
    relo::page_allocator<int> a;
    relo::page_allocator<long> b(a);
    EXPECT_TRUE(a == b);
    EXPECT_FALSE(a != b);
    static_assert(std::allocator_traits<relo::page_allocator<int>>::is_always_equal::value);
    static_assert(std::is_same_v<std::allocator_traits<relo::page_allocator<int>>::rebind_alloc<char>,
                                 relo::page_allocator<char>>);
    static_assert(relo::page_allocator<std::string>::mapping_threshold() ==
                  relo::page_allocator_policy::other_mapping_threshold);
    static_assert(relo::page_allocator_policy::other_mapping_threshold == (std::size_t{128} << 10));
    static_assert(relo::page_allocator<int>::mapping_threshold() ==
                  relo::page_allocator_policy::relocatable_mapping_threshold);
    static_assert(large_int_allocator::mapping_threshold() == (std::size_t{2} << 20));
    static_assert(relo::page_allocator<std::string, relo::large_block_policy>::mapping_threshold() ==
                  relo::page_allocator_policy::other_mapping_threshold);
}

// Below the threshold (32 MiB; 64 KiB on Windows, whose realloc copies) a trivially relocatable type's
// block is the heap's, grown by realloc, and takes no reservation; from it on it is a large block.
TEST(PageAllocator, RelocatableTypesComeFromTheHeapBelowTheThreshold) {
    static_assert(relo::page_allocator<int>::mapping_threshold() ==
                  (RELO_OS_WINDOWS ? std::size_t{64} << 10 : std::size_t{32} << 20));
    static_assert(RELO_OS_WINDOWS || relo::page_allocator_policy::relocatable_mapping_threshold ==
                                         relo::page_allocator_policy::heap_maps_fresh_from);
    relo::trim_large_block_cache();
    const std::size_t held = relo::reservations_held();
    relo::page_allocator<int> a;
    const std::size_t threshold = relo::page_allocator<int>::mapping_threshold() / sizeof(int);
    std::size_t n = 100;
    int* p = a.allocate(n);
    fill(p, n);
    for (std::size_t next : {threshold / 8, threshold / 2, threshold - 1}) {
        p = a.reallocate(p, n, next);
        expect_filled(p, n);
        fill(p, next);
        n = next;
        EXPECT_EQ(relo::reservations_held(), held) << n << " ints: a heap block";
    }
    EXPECT_FALSE(a.may_expand(n));
    p = a.reallocate(p, n, threshold + 1);
    expect_filled(p, n);
    if (RELO_OS_WINDOWS) {
        EXPECT_EQ(relo::reservations_held(), held + 1) << "from the threshold on: a reservation";
        EXPECT_EQ((reinterpret_cast<std::uintptr_t>(p) - 64) % relo::detail::os::page_size(), 0u) << "a large block";
    } else {
        // From heap_maps_fresh_from on, a block crossing it stays on the heap (realloc'ed, no fresh pages)...
        EXPECT_EQ(relo::reservations_held(), held) << "past the threshold: still the heap's block";
        fill(p, threshold + 1);
        const std::size_t grown = threshold + threshold / 4;  // (40 MiB: within the cache's 64)
        p = a.reallocate(p, threshold + 1, grown);
        expect_filled(p, threshold + 1);
        EXPECT_EQ(relo::reservations_held(), held) << "a heap block grows by realloc";
        fill(p, grown);
        // ...and is kept warm when it dies, for the next block that crosses it.
        a.deallocate(p, grown);
        EXPECT_GE(relo::large_block_cache_bytes(), grown * sizeof(int));
        int* q = a.allocate(threshold / 2);
        fill(q, threshold / 2);
        int* crossed = a.reallocate(q, threshold / 2, threshold + 1);
        EXPECT_EQ(crossed, p) << "the cached heap block";
        expect_filled(crossed, threshold / 2);
        EXPECT_EQ(relo::large_block_cache_bytes(), 0u);
        p = crossed;
    }
    a.deallocate(p, threshold + 1);
    relo::trim_large_block_cache();
    EXPECT_EQ(relo::reservations_held(), held);
    EXPECT_EQ(relo::large_block_cache_bytes(), 0u);
}

// A heap block past the warm-block cache's limit keeps its first pages up to the limit (realloc shrinks
// it), and serves the next block that crosses the threshold.
TEST(PageAllocator, AHeapBlockPastTheCacheLimitIsKeptInPart) {
    if (RELO_OS_WINDOWS) GTEST_SKIP() << "crossing the 64 KiB threshold takes a reservation";
    relo::trim_warm_memory();  // (every cache of the thread: the budget left decides what is kept)
    const std::size_t limit = relo::large_block_cache_limit();
    ASSERT_EQ(limit, std::size_t{64} << 20);
    relo::page_allocator<int> a;
    const std::size_t threshold = relo::page_allocator<int>::mapping_threshold() / sizeof(int);
    const std::size_t large = threshold * 5 / 2;  // 80 MiB
    int* p = a.allocate(threshold - 1);
    fill(p, threshold - 1);
    p = a.reallocate(p, threshold - 1, large);
    expect_filled(p, threshold - 1);
    fill(p, large);
    a.deallocate(p, large);
    EXPECT_EQ(relo::large_block_cache_bytes(), limit) << "the first 64 MiB kept";
    {
        // A heap block serves only a block past the threshold, at malloc's alignment.
        relo::page_allocator<std::string> strings;
        std::string* s = strings.allocate(std::size_t{1} << 13);  // 256 KiB: a large block of another type
        EXPECT_EQ(relo::large_block_cache_bytes(), limit);
        strings.deallocate(s, std::size_t{1} << 13);
        struct alignas(64) line {
            char bytes[64];
        };
        relo::page_allocator<line> lines;
        line* l = lines.allocate((std::size_t{40} << 20) / sizeof(line));
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(l) % 64, 0u);
        EXPECT_EQ(relo::large_block_cache_bytes(), limit) << "an over-aligned block takes no heap block";
        lines.deallocate(l, (std::size_t{40} << 20) / sizeof(line));
        relo::trim_large_block_cache();  // (the over-aligned block's reservation went to the cache too)
        p = a.allocate(threshold - 1);
        fill(p, threshold - 1);
        p = a.reallocate(p, threshold - 1, large);
        a.deallocate(p, large);
        ASSERT_EQ(relo::large_block_cache_bytes(), limit);
    }
    int* q = a.allocate(threshold - 1);
    fill(q, threshold - 1);
    q = a.reallocate(q, threshold - 1, threshold + threshold / 2);  // 48 MiB: fits what was kept
    expect_filled(q, threshold - 1);
    EXPECT_EQ(relo::large_block_cache_bytes(), 0u) << "taken";
    a.deallocate(q, threshold + threshold / 2);
    relo::trim_large_block_cache();
    EXPECT_EQ(relo::large_block_cache_bytes(), 0u);
}

TEST(PageAllocator, RelocatableTypesUseMappingsFromTheThreshold) {
    mapped_int_allocator a;
    const std::size_t threshold = mapped_int_allocator::mapping_threshold() / sizeof(int);
    std::size_t n = 10;
    int* p = a.allocate(n);
    fill(p, n);
    // From malloc to a mapping, past its reservation (16x), and back: the bytes survive every move.
    for (std::size_t next : {threshold * 4, threshold * 64, threshold / 3, std::size_t{7}}) {
        p = a.reallocate(p, n, next);
        expect_filled(p, std::min(n, next));
        fill(p, next);
        n = next;
    }
    a.deallocate(p, n);
    auto big = a.allocate_at_least(threshold * 2);
    EXPECT_GE(big.count, threshold * 2);
    EXPECT_EQ((64 + big.count * sizeof(int)) % relo::detail::os::page_size(), 0u) << "a mapping: whole pages";
    fill(big.ptr, big.count);
    a.deallocate(big.ptr, big.count);
}

// Sets the warm-block cache's limit for a test, starting and ending with an empty cache, under a process
// budget of 256 MiB: the blocks it makes are reservations (within the budget) and the cache's own limit
// is what is tested.
struct warm_cache_limit {
    std::size_t saved = relo::large_block_cache_limit();
    std::size_t saved_budget = relo::warm_memory_limit();
    explicit warm_cache_limit(std::size_t bytes) {
        relo::trim_large_block_cache();
        relo::set_large_block_cache_limit(bytes);
        relo::set_warm_memory_limit(std::size_t{256} << 20);
    }
    ~warm_cache_limit() {
        relo::trim_large_block_cache();
        relo::set_large_block_cache_limit(saved);
        relo::set_warm_memory_limit(saved_budget);
    }
};

constexpr std::size_t mib = std::size_t{1} << 20;

TEST(WarmBlockCache, TheNextLargeBlockOfTheThreadIsTheLastReleasedOneWithItsPages) {
    warm_cache_limit limit(32 * mib);
    mapped_int_allocator a;
    const std::size_t n = 4 * mib / sizeof(int);
    int* p = a.allocate(n);
    fill(p, n);
    a.deallocate(p, n);
    EXPECT_GE(relo::large_block_cache_bytes(), 4 * mib);
    EXPECT_GE(resident_pages(p, 4 * mib), 4 * mib / page() * 9 / 10) << "kept committed and resident";
    // A smaller block fits in its reservation: the same block, every page still there, and growing into
    // them needs no new commit.
    const std::size_t m = 1 * mib / sizeof(int);
    int* q = a.allocate(m);
    EXPECT_EQ(q, p);
    EXPECT_EQ(relo::large_block_cache_bytes(), 0u);
    fill(q, m);
    ASSERT_TRUE(a.try_expand(q, m, n));
    fill(q, n);
    EXPECT_GE(resident_pages(q, 4 * mib), 4 * mib / page() * 9 / 10);
    a.deallocate(q, n);
    relo::trim_large_block_cache();
    EXPECT_EQ(relo::large_block_cache_bytes(), 0u);
    EXPECT_EQ(resident_pages(p, page()), static_cast<std::size_t>(-1)) << "trimmed: unmapped";
}

// (Each block is made under a limit that lets it be a reservation, and given back under the limit tested:
// relo maps no more than its cache can keep, so a block made under a small limit comes from the heap.)
TEST(WarmBlockCache, KeepsAtMostItsLimitAndNothingAtZero) {
    mapped_int_allocator a;
    const std::size_t n = 8 * mib / sizeof(int);
    {
        warm_cache_limit limit(64 * mib);
        int* p = a.allocate(n);
        fill(p, n);
        relo::set_large_block_cache_limit(3 * mib);
        a.deallocate(p, n);
        EXPECT_EQ(relo::large_block_cache_bytes(), 3 * mib) << "cut to the limit";
        EXPECT_LE(resident_pages(p, 8 * mib), 3 * mib / page());
        relo::set_large_block_cache_limit(64 * mib);
        int* q = a.allocate(n);  // the cached block, committed again beyond what it kept
        EXPECT_EQ(q, p);
        fill(q, n);
        expect_filled(q, n);
        a.deallocate(q, n);
    }
    {
        warm_cache_limit limit(64 * mib);
        int* p = a.allocate(n);
        relo::set_large_block_cache_limit(0);
        a.deallocate(p, n);
        EXPECT_EQ(relo::large_block_cache_bytes(), 0u);
        EXPECT_EQ(resident_pages(p, page()), static_cast<std::size_t>(-1)) << "given back at once";
    }
    {
        warm_cache_limit limit(64 * mib);  // room for 256 blocks at most, the oldest go first
        std::vector<std::pair<int*, std::size_t>> blocks;
        const std::size_t base_count = 100 * 1024 / sizeof(int);  // (above the 64 KiB threshold)
        for (std::size_t i = 0; i < 300; ++i) blocks.emplace_back(a.allocate(base_count + i * 16), base_count + i * 16);
        for (auto [p, count] : blocks) a.deallocate(p, count);
        EXPECT_GE(relo::large_block_cache_bytes(), std::size_t{256} * 100 * 1024);
        for (std::size_t i = 0; i < 44; ++i)
            EXPECT_EQ(resident_pages(blocks[i].first, page()), static_cast<std::size_t>(-1)) << "the oldest went: " << i;
        EXPECT_NE(resident_pages(blocks[44].first, page()), static_cast<std::size_t>(-1)) << "the newest stay";
        EXPECT_NE(resident_pages(blocks[299].first, page()), static_cast<std::size_t>(-1)) << "the newest stay";
    }
    {
        warm_cache_limit limit(64 * mib);
        std::vector<int*> blocks;
        const std::size_t count = mib / sizeof(int);
        for (std::size_t i = 0; i < 5; ++i) blocks.push_back(a.allocate(count));
        relo::set_large_block_cache_limit(3 * mib + 512 * 1024);  // room for three 1 MiB blocks: the oldest go first
        for (int* p : blocks) a.deallocate(p, count);
        EXPECT_LE(relo::large_block_cache_bytes(), 3 * mib + 512 * 1024);
        for (std::size_t i = 0; i < 2; ++i)
            EXPECT_EQ(resident_pages(blocks[i], page()), static_cast<std::size_t>(-1)) << "over the bytes: " << i;
        EXPECT_NE(resident_pages(blocks[2], page()), static_cast<std::size_t>(-1));
    }
}

TEST(WarmBlockCache, ShrinkingGivesPagesBackAndHugePageBlocksAreNotCached) {
    warm_cache_limit limit(32 * mib);
    mapped_int_allocator a;
    const std::size_t n = 8 * mib / sizeof(int);
    int* p = a.allocate(n);
    fill(p, n);
    ASSERT_TRUE(a.try_expand(p, n, n / 8));
    EXPECT_EQ(resident_pages(reinterpret_cast<char*>(p) + 2 * mib, 6 * mib - 64), 0u);
    expect_filled(p, n / 8);
    a.deallocate(p, n / 8);
    EXPECT_LE(relo::large_block_cache_bytes(), 2 * mib);
    relo::trim_large_block_cache();

    relo::page_allocator<std::string, relo::large_block_policy> huge;  // (huge pages from 2 MiB)
    const std::size_t strings = 4 * mib / sizeof(std::string);
    std::string* s = huge.allocate(strings);
    huge.deallocate(s, strings);
    EXPECT_EQ(relo::large_block_cache_bytes(), 0u);
}

TEST(WarmBlockCache, AThreadGivesItsBlocksBackWhenItEnds) {
    warm_cache_limit limit(32 * mib);
    int* released = nullptr;
    std::size_t held_by_thread = 0;
    std::thread([&] {
        mapped_int_allocator a;
        const std::size_t n = 2 * mib / sizeof(int);
        released = a.allocate(n);
        fill(released, n);
        a.deallocate(released, n);
        held_by_thread = relo::large_block_cache_bytes();
    }).join();
    EXPECT_GE(held_by_thread, 2 * mib);
    EXPECT_EQ(relo::large_block_cache_bytes(), 0u) << "each thread has its own cache";
    EXPECT_EQ(resident_pages(released, page()), static_cast<std::size_t>(-1)) << "unmapped at the thread's end";
}

// A type relo moves element by element (not trivially relocatable), with a move that may or may not throw.
template <bool NothrowMove>
struct moved_one_by_one {
    int value = 0;
    explicit moved_one_by_one(int v) noexcept : value(v) {}
    moved_one_by_one(const moved_one_by_one& o) noexcept(NothrowMove) : value(o.value) {}
    moved_one_by_one(moved_one_by_one&& o) noexcept(NothrowMove) : value(o.value) { o.value = -1; }
    moved_one_by_one& operator=(const moved_one_by_one&) = default;
    ~moved_one_by_one() { value = -2; }
};
template <bool NothrowMove>
using moved_vector = relo::vector<moved_one_by_one<NothrowMove>>;

// A full vector of `bytes` of elements (a large block: 128 KiB or more), its values 0, 1, 2...
template <class Vector>
Vector full_vector(std::size_t bytes) {
    Vector v;
    v.reserve(bytes / sizeof(typename Vector::value_type));
    while (v.size() < v.capacity()) v.emplace_back(static_cast<int>(v.size()));
    return v;
}
template <class Vector>
void cache_a_block_of(std::size_t bytes) {
    Vector v = full_vector<Vector>(bytes);
}
template <class Vector>
void expect_values(const Vector& v) {
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i].value, static_cast<int>(i)) << "at " << i;
}

TEST(WarmBlockCache, AGrowthThatWouldFaultAnEighthOfWhatItMovesTakesAWarmBlockInstead) {
    warm_cache_limit limit(32 * mib);
    for (const bool by_push : {true, false}) {
        relo::trim_large_block_cache();  // (the last round's vector)
        auto v = full_vector<moved_vector<true>>(mib);
        const auto* in_place = v.data();
        const std::size_t full = v.capacity();
        cache_a_block_of<moved_vector<true>>(3 * mib);  // its pages hold the grown vector
        ASSERT_GE(relo::large_block_cache_bytes(), 3 * mib);
        if (by_push) {
            v.emplace_back(static_cast<int>(v.size()));  // doubles: 1 MiB of fresh pages in place
            EXPECT_GE(v.capacity(), 2 * full);
        } else {
            v.reserve(full + full / 4);  // 256 KiB of fresh pages in place, against 1 MiB moved
            EXPECT_GE(v.capacity(), full + full / 4);
        }
        EXPECT_NE(v.data(), in_place) << "moved into the warm block, by_push " << by_push;
        EXPECT_GE(relo::large_block_cache_bytes(), mib) << "the block it left is cached in its turn";
        EXPECT_LT(relo::large_block_cache_bytes(), 3 * mib);
        expect_values(v);
    }
}

TEST(WarmBlockCache, AGrowthGrowsInPlaceWhereAMoveWouldCopyMoreThanItSaves) {
    warm_cache_limit limit(32 * mib);
    auto v = full_vector<moved_vector<true>>(mib);
    const auto* in_place = v.data();
    cache_a_block_of<moved_vector<true>>(3 * mib);
    const std::size_t cached = relo::large_block_cache_bytes();
    v.reserve(v.capacity() + v.capacity() / 16);  // 64 KiB of fresh pages in place, against 1 MiB moved
    EXPECT_EQ(v.data(), in_place);
    EXPECT_EQ(relo::large_block_cache_bytes(), cached) << "the warm block stays cached";
    expect_values(v);
}

TEST(WarmBlockCache, AWarmBlockTooSmallForTheGrowthWantedLeavesTheGrowthInPlace) {
    // (A cached block that holds the size needed but not the size wanted: growth in place, where taking
    // the block could serve the first only and the allocation of the second would go to the heap.)
    warm_cache_limit limit(32 * mib);
    auto v = full_vector<moved_vector<true>>(mib);
    const auto* in_place = v.data();
    cache_a_block_of<moved_vector<true>>(mib + mib / 4);
    const std::size_t cached = relo::large_block_cache_bytes();
    v.emplace_back(static_cast<int>(v.size()));
    EXPECT_EQ(v.data(), in_place);
    EXPECT_EQ(relo::large_block_cache_bytes(), cached);
    expect_values(v);
}

TEST(WarmBlockCache, AGrowthWhoseMoveMayThrowStaysInPlace) {
    warm_cache_limit limit(32 * mib);
    auto v = full_vector<moved_vector<false>>(mib);
    const auto* in_place = v.data();
    cache_a_block_of<moved_vector<false>>(3 * mib);
    v.emplace_back(static_cast<int>(v.size()));
    EXPECT_EQ(v.data(), in_place) << "a copy (move_if_noexcept) costs more than the fault it saves";
    expect_values(v);
}

TEST(WarmBlockCache, AGrowthTakesNoCachedHeapBlock) {
    // (A heap block grows in place only within its usable size; the vector's reservation, for its life.)
    if (RELO_OS_WINDOWS) GTEST_SKIP() << "crossing the 64 KiB threshold takes a reservation";
    relo::trim_warm_memory();  // (every cache of the thread: the budget left decides what is kept)
    relo::page_allocator<int> a;
    const std::size_t threshold = relo::page_allocator<int>::mapping_threshold() / sizeof(int);
    int* p = a.allocate(threshold - 1);
    p = a.reallocate(p, threshold - 1, threshold + threshold / 4);  // crosses 32 MiB on the heap
    fill(p, threshold + threshold / 4);
    a.deallocate(p, threshold + threshold / 4);
    const std::size_t cached = relo::large_block_cache_bytes();
    ASSERT_GE(cached, 40 * mib) << "the 40 MiB heap block is cached";
    {
        auto v = full_vector<moved_vector<true>>(16 * mib);
        const auto* in_place = v.data();
        v.emplace_back(static_cast<int>(v.size()));  // to 32 MiB and more: the heap block would hold it
        EXPECT_EQ(v.data(), in_place);
        EXPECT_EQ(relo::large_block_cache_bytes(), cached) << "the heap block stays cached";
        expect_values(v);
    }
    relo::trim_large_block_cache();
}

TEST(PageAllocator, SmallAndLargeBlocksReportTheirRealSize) {
    large_int_allocator a;
    auto small = a.allocate_at_least(3);
    EXPECT_GE(small.count, 3u);
    EXPECT_LT(small.count * sizeof(int), large_int_allocator::mapping_threshold());
    fill(small.ptr, small.count);
    a.deallocate(small.ptr, small.count);

    auto large = a.allocate_at_least(threshold_ints + 1);
    EXPECT_GE(large.count, threshold_ints + 1);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large.ptr) % 64, 0u);
    // The block's elements end where its committed pages end (a 64-byte header precedes them).
    EXPECT_EQ((64 + large.count * sizeof(int)) % relo::detail::os::page_size(), 0u);
    fill(large.ptr, large.count);
    a.deallocate(large.ptr, large.count);
}

TEST(PageAllocator, ReallocateAcrossTheThresholdKeepsBytes) {
    large_int_allocator a;
    std::size_t n = 10;
    int* p = a.allocate(n);
    fill(p, n);
    for (std::size_t next : {threshold_ints / 2, threshold_ints * 4, threshold_ints * 64, threshold_ints / 3, std::size_t{5}}) {
        p = a.reallocate(p, n, next);
        expect_filled(p, std::min(n, next));
        fill(p, next);
        n = next;
    }
    a.deallocate(p, n);
}

TEST(PageAllocator, TryExpandGrowsIntoTheReservation) {
    large_int_allocator a;
    const std::size_t n = threshold_ints * 2;
    int* p = a.allocate(n);
    fill(p, n);
    // A large block reserves room to grow: growing to several times its size works in place.
    ASSERT_TRUE(a.try_expand(p, n, n * 2));
    fill(p, n * 2);
    ASSERT_TRUE(a.try_expand(p, n * 2, n * 8));
    fill(p, n * 8);
    EXPECT_TRUE(a.try_expand(p, n * 8, n));  // shrinking in place always works
    expect_filled(p, n);
    // Past the reservation, in place only if the address space behind it is free: either answer is
    // fine, but a success must keep the block usable where it is.
    if (a.try_expand(p, n, n * 1000)) {
        fill(p, n * 1000);
        a.deallocate(p, n * 1000);
    } else {
        expect_filled(p, n);
        a.deallocate(p, n);
    }
    int* small = a.allocate(4);
    EXPECT_FALSE(a.try_expand(small, 4, threshold_ints * 2)) << "a malloc block cannot become a mapping in place";
    a.deallocate(small, 4);
}

// may_expand lets a container skip try_expand: it must be false only where try_expand cannot grow the
// block allocate_at_least returned, for any element size, and true for large blocks.
template <class T>
void expect_may_expand_matches_try_expand() {
    relo::page_allocator<T> a;
    const std::size_t threshold_bytes = relo::page_allocator<T>::mapping_threshold();
    const std::size_t around = threshold_bytes / sizeof(T);
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{30}, std::size_t{100}, std::size_t{1000},
                          around / 3, around - 1, around, around + 1, around * 2}) {
        const auto block = a.allocate_at_least(n);
        const bool large = block.count * sizeof(T) >= threshold_bytes;  // (what deallocate will see)
        const bool may = a.may_expand(block.count);
        EXPECT_EQ(may, large) << "n " << n << ", count " << block.count;
        bool grew = false;
        if (!may) {
            EXPECT_FALSE(a.try_expand(block.ptr, block.count, block.count + 1)) << "n " << n << ", count " << block.count;
        } else {
            grew = a.try_expand(block.ptr, block.count, block.count + 1);
            EXPECT_TRUE(grew) << "a large block grows in its reservation: n " << n << ", count " << block.count;
        }
        a.deallocate(block.ptr, grew ? block.count + 1 : block.count);
    }
}

TEST(PageAllocator, MayExpandIsFalseOnlyWhereTryExpandCannotGrow) {
    struct twelve {
        int a, b, c;
    };
    expect_may_expand_matches_try_expand<char>();
    expect_may_expand_matches_try_expand<int>();
    expect_may_expand_matches_try_expand<twelve>();
    expect_may_expand_matches_try_expand<std::string>();
    struct alignas(64) line {
        char bytes[64];
    };
    expect_may_expand_matches_try_expand<line>();
}

TEST(PageAllocator, ReallocatePastTheReservationMovesPagesNotBytes) {
    large_int_allocator a;
    std::size_t n = threshold_ints;
    int* p = a.allocate(n);
    fill(p, n);
    for (std::size_t factor : {32, 2}) {  // past the reservation (16x), then within the new one
        const std::size_t next = n * factor;
        p = a.reallocate(p, n, next);
        expect_filled(p, n);
        fill(p, next);
        n = next;
    }
    p = a.reallocate(p, n, 100);  // back to malloc
    expect_filled(p, 100);
    a.deallocate(p, 100);
}

#if RELO_HAS_MREMAP
// A block moved once is two kernel mappings (the moved pages, and the new reservation's own): the next move
// must move both as pages too (the kernel refuses one call spanning both), not copy them. Counted in page
// faults: a copy writes every old page anew, a page move writes none.
TEST(PageAllocator, ABlockMovedTwiceMovesPagesBothTimes) {
    mapped_int_allocator a;
    constexpr std::size_t mib_ints = (std::size_t{1} << 20) / sizeof(int);
    std::size_t n = mapped_int_allocator::mapping_threshold() / sizeof(int);
    int* p = a.allocate(n);
    fill(p, n);
    for (std::size_t next : {2 * mib_ints, 30 * mib_ints, 48 * mib_ints}) {  // past 16x, in place, past again
        const long faults_before = minor_page_faults();
        p = a.reallocate(p, n, next);
        const long faults = minor_page_faults() - faults_before;
        EXPECT_LT(faults, 256) << "growing from " << n * sizeof(int) << " bytes faulted " << faults << " pages";
        expect_filled(p, n);
        fill(p, next);
        n = next;
    }
    a.deallocate(p, n);
}
#endif

// Large blocks from 1 MiB, huge pages only once a block commits 8 MiB: growing and shrinking across the
// huge-page threshold, in place and by moving, keeps the bytes, and the committed length follows it.
struct late_huge_pages_policy : relo::page_allocator_policy {
    static constexpr std::size_t relocatable_mapping_threshold = std::size_t{1} << 20;
    static constexpr std::size_t reservation_factor = 4;
    static constexpr std::size_t huge_page_threshold = std::size_t{8} << 20;
};

TEST(PageAllocator, BlocksCrossTheHugePageThreshold) {
    using allocator = relo::page_allocator<int, late_huge_pages_policy>;
    constexpr std::size_t mib_ints = (std::size_t{1} << 20) / sizeof(int);
    allocator a;
    auto first = a.allocate_at_least(mib_ints);
    // Below the threshold the block ends at a page boundary, not a huge page's.
    EXPECT_EQ((64 + first.count * sizeof(int)) % relo::detail::os::page_size(), 0u);
    EXPECT_LT(first.count * sizeof(int), std::size_t{2} << 20);
    int* p = first.ptr;
    std::size_t n = first.count;
    fill(p, n);
    for (std::size_t next : {3 * mib_ints, 9 * mib_ints, 2 * mib_ints, 12 * mib_ints, 40 * mib_ints, mib_ints}) {
        if (!a.try_expand(p, n, next)) p = a.reallocate(p, n, next);
        expect_filled(p, std::min(n, next));
        fill(p, next);
        n = next;
    }
    a.deallocate(p, n);
    if (relo::detail::os::huge_page_size() != 0) {
        auto big = a.allocate_at_least(9 * mib_ints);
        const std::size_t committed = 64 + big.count * sizeof(int);
        EXPECT_EQ(relo::detail::os::round_up_to_huge_pages(committed), committed)
            << "from the threshold on a block commits whole huge pages when that adds at most an eighth";
        fill(big.ptr, big.count);
        a.deallocate(big.ptr, big.count);
        // 8.25 MiB: a whole huge page more would add 1.75 MiB (over an eighth) that the block may never
        // touch, each huge page zeroed whole at its first write: it ends at a page boundary instead.
        const std::size_t eight_and_a_quarter = (std::size_t{33} << 18) / sizeof(int);
        auto mid = a.allocate_at_least(eight_and_a_quarter);
        const std::size_t mid_committed = 64 + mid.count * sizeof(int);
        EXPECT_EQ(mid_committed % relo::detail::os::page_size(), 0u);
        EXPECT_LT(mid_committed, std::size_t{10} << 20);
        EXPECT_GE(mid.count, eight_and_a_quarter);
        fill(mid.ptr, mid.count);
        // Grown to 9.9 MiB, where rounding up to whole huge pages adds a twentieth: the bytes are kept.
        const std::size_t almost_ten = (std::size_t{99} << 20) / 10 / sizeof(int);
        int* q = a.try_expand(mid.ptr, mid.count, almost_ten) ? mid.ptr : a.reallocate(mid.ptr, mid.count, almost_ten);
        expect_filled(q, mid.count);
        a.deallocate(q, almost_ten);
    }
}

TEST(PageAllocator, ImpossibleSizesThrow) {
    relo::page_allocator<int> a;
    EXPECT_THROW((void)a.allocate(a.max_size() + 1), std::bad_array_new_length);
    // A size nothing can hold, on the large-block path (the malloc path would hand it to malloc, which
    // AddressSanitizer's malloc answers by aborting rather than with nullptr).
    large_int_allocator large;
    EXPECT_THROW((void)large.allocate(large.max_size() + 1), std::bad_array_new_length);
    EXPECT_THROW((void)large.allocate(large.max_size()), std::bad_alloc);
}

// A policy written before heap_maps_fresh_from existed (not derived from page_allocator_policy) still
// works, with page_allocator_policy's value.
struct policy_of_old {
    static constexpr std::size_t relocatable_mapping_threshold = std::size_t{64} << 10;
    static constexpr std::size_t other_mapping_threshold = std::size_t{128} << 10;
    static constexpr std::size_t reservation_factor = 4;
    static constexpr std::size_t huge_page_threshold = static_cast<std::size_t>(-1);
    static constexpr std::size_t realloc_threshold = 1024;
};
static_assert(relo::detail::heap_maps_fresh_from_of<policy_of_old>::value ==
              relo::page_allocator_policy::heap_maps_fresh_from);
static_assert(relo::page_allocator<std::string, policy_of_old>::mapping_threshold() ==
              policy_of_old::other_mapping_threshold);

TEST(PageAllocator, APolicyWithoutHeapMapsFreshFrom) {
    relo::page_allocator<int, policy_of_old> a;
    std::size_t n = threshold_ints * 2;
    int* p = a.allocate(n);
    fill(p, n);
    p = a.reallocate(p, n, n * 8);
    expect_filled(p, n);
    a.deallocate(p, n * 8);
}

TEST(PageAllocator, OverAlignedBlocks) {
    relo::page_allocator<overaligned> a;
    const std::size_t large = relo::page_allocator<overaligned>::mapping_threshold() / sizeof(overaligned) + 1;
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{100}, std::size_t{100000}, large}) {
        auto r = a.allocate_at_least(n);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(r.ptr) % 64, 0u);
        overaligned* q = a.reallocate(r.ptr, r.count, n * 3);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q) % 64, 0u);
        a.deallocate(q, n * 3);
    }
}

}  // namespace
}  // namespace relo_test
