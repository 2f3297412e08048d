// tests/vm_arena_test.cpp — relo::vm_arena and relo::resource_allocator: alignment, the top's reclamation
// and in-place expansion, mark/rewind, reset with each choice of what to give back (read back from the
// system with mincore), exhaustion, guard pages, refused reservations and commits, and containers on an
// arena: std::pmr ones through the memory_resource interface, relo::vector growing in place at the top.
#include "relo/vm_arena.hpp"

#if !defined(_WIN32)
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory_resource>
#include <new>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "relo/resource_allocator.hpp"
#include "relo/vector.hpp"
#include "os_probes.hpp"
#include "sanitizers.hpp"

namespace relo_test {
namespace {

using relo::vm_arena;
constexpr std::size_t mib = std::size_t{1} << 20;

bool inside(const vm_arena& arena, const void* first_block, const void* p) {
    const auto* base = static_cast<const char*>(first_block);
    return static_cast<const char*>(p) >= base && static_cast<const char*>(p) < base + arena.reserved();
}

TEST(VmArena, EveryAlignment) {
    vm_arena arena(256 * mib);
    std::vector<std::pair<char*, std::size_t>> blocks;
    for (std::size_t alignment = 1; alignment <= 1 * mib; alignment *= 2) {
        for (std::size_t bytes : {std::size_t{1}, std::size_t{3}, alignment, alignment + 1, std::size_t{1000}}) {
            auto* p = static_cast<char*>(arena.allocate(bytes, alignment));
            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u) << bytes << " bytes at " << alignment;
            std::memset(p, 0x5a, bytes);
            blocks.emplace_back(p, bytes);
        }
    }
    std::sort(blocks.begin(), blocks.end());
    for (std::size_t i = 1; i < blocks.size(); ++i)
        ASSERT_LE(blocks[i - 1].first + blocks[i - 1].second, blocks[i].first) << "blocks overlap";
    EXPECT_LE(arena.used(), arena.committed());
}

TEST(VmArena, DeallocatingTheTopReclaimsIt) {
    vm_arena arena(mib);
    void* a = arena.allocate(64, 8);
    void* b = arena.allocate(100, 8);
    const std::size_t used = arena.used();
    arena.deallocate(a, 64, 8);  // not the top: nothing happens
    EXPECT_EQ(arena.used(), used);
    arena.deallocate(b, 100, 8);
    EXPECT_EQ(arena.used(), 64u);
    arena.deallocate(a, 64, 8);  // now it is the top
    EXPECT_EQ(arena.used(), 0u);
    EXPECT_EQ(arena.allocate(64, 8), a);
}

// Found by tests/fuzz/vm_arena_fuzz.cpp: a zero-byte block shared its address with the next block.
TEST(VmArena, ZeroByteBlocksAreDistinct) {
    vm_arena arena(mib);
    char* a = static_cast<char*>(arena.allocate(0, 1));
    char* b = static_cast<char*>(arena.allocate(0, 1));
    char* c = static_cast<char*>(arena.allocate(14, 1));
    EXPECT_NE(a, b);
    EXPECT_GE(c, b + 1);
    EXPECT_FALSE(arena.try_expand(c + 14, 0, 8));
    arena.deallocate(c, 14, 1);
    arena.deallocate(b, 0, 1);  // (the top again: reclaimed)
    EXPECT_EQ(arena.used(), 1u);
}

TEST(VmArena, TryExpandGrowsAndShrinksTheTopInPlace) {
    vm_arena arena(16 * mib);
    auto* a = static_cast<char*>(arena.allocate(100, 16));
    EXPECT_TRUE(arena.try_expand(a, 100, 5 * mib));  // commits as it goes
    EXPECT_GE(arena.committed(), 5 * mib);
    std::memset(a, 1, 5 * mib);
    EXPECT_EQ(arena.used(), 5 * mib);
    EXPECT_TRUE(arena.try_expand(a, 5 * mib, 1000));
    EXPECT_EQ(arena.used(), 1000u);
    EXPECT_FALSE(arena.try_expand(a, 1000, 17 * mib)) << "beyond the reservation";
    EXPECT_FALSE(arena.try_expand(a, 999, 2000)) << "a size that does not end at the top";
    void* b = arena.allocate(10, 1);
    EXPECT_FALSE(arena.try_expand(a, 1000, 2000)) << "no longer the top";
    EXPECT_TRUE(arena.try_expand(b, 10, 20));
    EXPECT_EQ(arena.used(), 1020u);
}

TEST(VmArena, MarkAndRewind) {
    vm_arena arena(mib);
    arena.allocate(10, 1);
    const auto m = arena.mark();
    const std::size_t used = arena.used();
    void* first = arena.allocate(100, 8);
    for (int i = 0; i < 100; ++i) arena.allocate(50, 8);
    arena.rewind(m);
    EXPECT_EQ(arena.used(), used);
    EXPECT_EQ(arena.allocate(100, 8), first);
}

TEST(VmArena, ExhaustionIsBadAllocAndChangesNothing) {
    vm_arena arena(mib);
    EXPECT_EQ(arena.reserved(), mib);
    std::size_t allocated = 0;
    for (;;) {
        const std::size_t used = arena.used();
        try {
            arena.allocate(1000, 8);
            allocated += 1000;
        } catch (const std::bad_alloc&) {
            EXPECT_EQ(arena.used(), used);
            break;
        }
    }
    EXPECT_GT(allocated, mib - 2000);
    EXPECT_THROW(arena.allocate(2 * mib, 8), std::bad_alloc);
    EXPECT_THROW(arena.allocate(1, std::size_t{1} << 40), std::bad_alloc);
    arena.reset();
    EXPECT_NO_THROW(arena.allocate(mib, 8));
}

TEST(VmArena, RefusedReservationNamesItsSize) {
    try {
        vm_arena arena(std::size_t{1} << 60);
        FAIL() << "reserved 2^60 bytes";
    } catch (const std::bad_alloc& e) {
        EXPECT_NE(std::string(e.what()).find("1152921504606846976"), std::string::npos) << e.what();
    }
    relo::trim_warm_memory();  // (a cached default reservation would bring its committed pages)
    const vm_arena by_default;
    EXPECT_EQ(by_default.reserved(), vm_arena::default_reservation);
    EXPECT_EQ(by_default.committed(), 0u);
}

// reset() with each choice: what stays committed, and what the system got back (mincore).
TEST(VmArena, ResetGivesBackWhatItIsAsked) {
    vm_arena arena(256 * mib);
    auto* base = static_cast<char*>(arena.allocate(64 * mib, page()));
    std::memset(base, 1, 64 * mib);
    const std::size_t committed = arena.committed();
    EXPECT_GE(committed, 64 * mib);
    EXPECT_GE(resident_pages(base, 64 * mib), 64 * mib / page() * 9 / 10);

    // A cycle that used 64 MiB keeps max(2 x 64 MiB, 2 MiB): nothing is given back.
    arena.reset(vm_arena::give_back::beyond_slack);
    EXPECT_EQ(arena.used(), 0u);
    EXPECT_EQ(arena.committed(), committed);
    EXPECT_EQ(arena.allocate(10, page()), base) << "the memory is used again from the start";

    arena.reset(vm_arena::give_back::nothing);
    EXPECT_EQ(arena.committed(), committed);
    EXPECT_GE(resident_pages(base, 64 * mib), 64 * mib / page() * 9 / 10);

    // A cycle that used 1 MiB keeps 2 MiB.
    std::memset(arena.allocate(mib, 1), 2, mib);
    arena.reset(vm_arena::give_back::beyond_slack);
    EXPECT_EQ(arena.committed(), 2 * mib);
    EXPECT_EQ(resident_pages(base + 2 * mib, 62 * mib), 0u);

    arena.reset(vm_arena::give_back::everything);
    EXPECT_EQ(arena.committed(), 0u);
    EXPECT_EQ(resident_pages(base, 64 * mib), 0u);
    // Given back pages come back as zeros.
    auto* again = static_cast<char*>(arena.allocate(4 * mib, 1));
    EXPECT_TRUE(std::all_of(again, again + 4 * mib, [](char c) { return c == 0; }));
}

// A rewind below the most used point counts for the slack: the high-water mark is kept.
TEST(VmArena, ResetSlackFollowsTheHighWaterMark) {
    vm_arena arena(256 * mib);
    const auto m = arena.mark();
    std::memset(arena.allocate(40 * mib, 1), 1, 40 * mib);
    arena.rewind(m);
    arena.allocate(10, 1);
    arena.reset(vm_arena::give_back::beyond_slack);
    EXPECT_GE(arena.committed(), 40 * mib);
}

// ---- Containers on an arena.

TEST(VmArena, StdPmrContainersRunOnIt) {
    vm_arena arena(512 * mib);
    void* first = arena.allocate(1, 1);
    {
        std::pmr::vector<std::pmr::string> words(&arena);
        std::pmr::unordered_map<int, std::pmr::string> map(&arena);
        std::map<int, std::string> model;
        for (int i = 0; i < 100000; ++i) {
            const std::string text = "value number " + std::to_string(i * 7);
            words.emplace_back(text);
            map.emplace(i, text);
            model.emplace(i, text);
        }
        ASSERT_EQ(map.size(), model.size());
        for (const auto& [key, value] : model) ASSERT_EQ(std::string(map.at(key)), value);
        EXPECT_EQ(words[99999], "value number 699993");
        EXPECT_TRUE(inside(arena, first, words.data()));
        EXPECT_TRUE(inside(arena, first, &map.at(5)));
        EXPECT_GT(arena.used(), 100000u * sizeof(std::pmr::string));
    }
    arena.reset();
    EXPECT_EQ(arena.used(), 0u);
}

template <class T>
using arena_vector = relo::vector<T, relo::resource_allocator<T, vm_arena>>;

// A relo::vector whose block is the arena's top grows in place: its data never moves.
template <class T, class Make>
void expect_growth_in_place(Make make) {
    vm_arena arena(1024 * mib);
    arena_vector<T> v(&arena);
    v.push_back(make(0));
    const T* data = v.data();
    for (int i = 1; i < 1000000; ++i) {
        v.push_back(make(i));
        ASSERT_EQ(v.data(), data) << "moved at " << i;
    }
    for (int i = 0; i < 1000000; ++i) ASSERT_EQ(v[static_cast<std::size_t>(i)], make(i));
    // Once another block is on top, growth moves the elements (and leaves the old block behind).
    arena.allocate(1, 1);
    v.resize(v.capacity() + 1, make(1));
    EXPECT_NE(v.data(), data);
}

TEST(VmArena, ReloVectorGrowsInPlaceAtTheTop) {
    expect_growth_in_place<int>([](int i) { return i; });
    expect_growth_in_place<std::string>([](int i) { return std::to_string(i); });
}

TEST(ResourceAllocator, IsAStandardAllocator) {
    vm_arena a(mib), b(mib);
    relo::resource_allocator<int, vm_arena> x(&a);
    relo::resource_allocator<long, vm_arena> y(x);  // rebinding keeps the resource
    EXPECT_EQ(y.resource(), &a);
    EXPECT_TRUE(x == y);
    EXPECT_FALSE(x != y);
    const relo::resource_allocator<int, vm_arena> other(&b);
    EXPECT_FALSE(x == other);
    using traits = std::allocator_traits<relo::resource_allocator<int, vm_arena>>;
    static_assert(!traits::propagate_on_container_copy_assignment::value);
    static_assert(!traits::is_always_equal::value);
    static_assert(std::is_same_v<traits::rebind_alloc<char>, relo::resource_allocator<char, vm_arena>>);
    EXPECT_EQ(traits::select_on_container_copy_construction(x).resource(), &a);

    std::vector<int, relo::resource_allocator<int, vm_arena>> v(&a);
    for (int i = 0; i < 1000; ++i) v.push_back(i);
    EXPECT_TRUE(inside(a, v.data(), v.data() + 999));
    EXPECT_THROW((void)x.allocate(SIZE_MAX / 2), std::bad_array_new_length);

    vm_arena& as_resource = a;
    std::pmr::memory_resource* base = &as_resource;
    EXPECT_TRUE(base->is_equal(a));
    EXPECT_FALSE(base->is_equal(b));
}

// ---- Guard pages and the system's refusals.

using VmArenaDeathTest = ::testing::Test;

TEST(VmArenaDeathTest, WritePastTheCommittedEndFaults) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    vm_arena arena(64 * mib);
    auto* p = static_cast<char*>(arena.allocate(100, 1));
    volatile char* past = p + arena.committed();
    EXPECT_DEATH(*past = 1, "");
}

TEST(VmArenaDeathTest, WritePastTheReservationFaults) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    vm_arena arena(mib);
    auto* p = static_cast<char*>(arena.allocate(mib, 1));
    EXPECT_EQ(arena.committed(), mib);
    volatile char* past = p + mib;  // the guard page
    EXPECT_DEATH(*past = 1, "");
}
// (Resource limits: Linux. Windows has none for a process; a job object's limit would be the counterpart.)
#if !defined(_WIN32)

TEST(VmArenaDeathTest, RefusedCommitIsBadAllocAndChangesNothing) {
    // (AddressSanitizer maps its own memory as the test runs: under the lowered limit it fails first.)
    if (RELO_TEST_ASAN) GTEST_SKIP() << "AddressSanitizer's own allocations fail under RLIMIT_DATA first";
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            vm_arena arena((std::size_t{4} << 30));
            const std::size_t limit = status_bytes("VmData:") + 64 * mib;
            rlimit data{};
            data.rlim_cur = data.rlim_max = limit;
            if (::setrlimit(RLIMIT_DATA, &data) != 0) std::_Exit(3);
            std::size_t used = 0;
            try {
                for (;;) {
                    arena.allocate(mib, 1);
                    used = arena.used();
                }
            } catch (const std::bad_alloc&) {
                std::_Exit(arena.used() == used && used > 0 && used < (std::size_t{4} << 30) ? 0 : 1);
            }
        },
        ::testing::ExitedWithCode(0), "");
}

// Address space running out (RLIMIT_AS lowered in a child process): a reservation beyond the limit is
// std::bad_alloc naming its size, never a crash; the default constructor reserves less instead, and the
// arena works.
TEST(VmArenaDeathTest, LimitedAddressSpace) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            rlimit as{};
            as.rlim_cur = as.rlim_max = status_bytes("VmSize:") + 256 * mib;
            if (::setrlimit(RLIMIT_AS, &as) != 0) std::_Exit(3);
            try {
                vm_arena arena(std::size_t{1} << 30);
                std::_Exit(1);
            } catch (const std::bad_alloc& e) {
                if (std::string(e.what()).find("1073741824") == std::string::npos) std::_Exit(2);
            }
            vm_arena arena;
            if (arena.reserved() >= vm_arena::default_reservation) std::_Exit(4);
            for (int i = 0; i < 1000; ++i) static_cast<char*>(arena.allocate(64 << 10, 8))[0] = 1;
            try {
                for (;;) arena.allocate(64 << 10, 8);  // (until the smaller reservation is used up)
            } catch (const std::bad_alloc&) {
                std::_Exit(arena.used() <= arena.reserved() ? 0 : 5);
            }
        },
        ::testing::ExitedWithCode(0), "");
}

#endif

}  // namespace
}  // namespace relo_test
