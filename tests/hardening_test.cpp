// tests/hardening_test.cpp — the hardened checks (detail/contracts.hpp): every precondition of every
// container and resource, violated in a death test that expects the trap's message naming the container or
// resource, the operation and the values; and correct programs that the checks must let through (a
// resource's ownership and double-free tests on blocks full of pointers to other blocks).
//
// The checks are forced on here whatever the configuration (-DNDEBUG included): RELO_HARDENED only changes
// checks, never layouts, so this file may share relo's types with files built without it.
#define RELO_HARDENED 1

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory_resource>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "relo/inplace_vector.hpp"
#include "relo/monotonic_resource.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/small_vector.hpp"
#include "relo/synchronized_multipool_resource.hpp"
#include "relo/vector.hpp"
#include "relo/vm_arena.hpp"

// The messages' numbers and pointers, in the part of regular-expression syntax both of GoogleTest's
// engines know: POSIX extended on Linux, its own simple one on Windows (no brackets; %p prints no 0x).
#if defined(_WIN32)
#define DIGITS "\\d+"
#define SIGNED "-?\\d+"
#define POINTER "\\w+"
#else
#define DIGITS "[0-9]+"
#define SIGNED "-?[0-9]+"
#define POINTER "0x[0-9a-f]+"
#endif

static_assert(RELO_PRECONDITIONS_CHECKED == 1);

namespace relo_test {
namespace {

// ---- The containers.

template <class C>
struct container_name;
template <>
struct container_name<relo::vector<int>> {
    static constexpr const char* value = "relo::vector";
};
template <>
struct container_name<relo::small_vector<int, 4>> {
    static constexpr const char* value = "relo::small_vector";
};
template <>
struct container_name<relo::inplace_vector<int, 8>> {
    static constexpr const char* value = "relo::inplace_vector";
};
template <>
struct container_name<relo::pinned_vector<int>> {
    static constexpr const char* value = "relo::pinned_vector";
};

template <class C>
class ContainerHardeningDeathTest : public ::testing::Test {
protected:
    void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
    /// The message's beginning: "relo: relo::vector::<operation>: ", as a regular expression.
    static std::string expect(const std::string& operation_and_rest) {
        return std::string("relo: ") + container_name<C>::value + "::" + operation_and_rest;
    }
    static C three() {
        C c;
        for (int i = 1; i <= 3; ++i) c.push_back(i);
        return c;
    }
};

using containers = ::testing::Types<relo::vector<int>, relo::small_vector<int, 4>, relo::inplace_vector<int, 8>,
                                    relo::pinned_vector<int>>;
// Named by container ("vector", "small_vector", ...): the suite's name list must be given in C++17 anyway.
struct container_names {
    template <class C>
    static std::string GetName(int) { return std::string(container_name<C>::value).substr(sizeof "relo::" - 1); }
};
TYPED_TEST_SUITE(ContainerHardeningDeathTest, containers, container_names);

TYPED_TEST(ContainerHardeningDeathTest, IndexOutOfRange) {
    TypeParam c = this->three();
    const TypeParam& cc = c;
    EXPECT_DEATH((void)c[3], this->expect("operator\\[\\]: index 3 is out of range \\(size\\(\\) 3\\)"));
    EXPECT_DEATH((void)cc[17], this->expect("operator\\[\\]: index 17 is out of range \\(size\\(\\) 3\\)"));
    EXPECT_EQ(c[2], 3);  // (in range: no trap)
}

TYPED_TEST(ContainerHardeningDeathTest, EmptyContainer) {
    TypeParam c;
    const TypeParam& cc = c;
    EXPECT_DEATH((void)c.front(), this->expect("front: the container is empty"));
    EXPECT_DEATH((void)cc.front(), this->expect("front: the container is empty"));
    EXPECT_DEATH((void)c.back(), this->expect("back: the container is empty"));
    EXPECT_DEATH((void)cc.back(), this->expect("back: the container is empty"));
    EXPECT_DEATH(c.pop_back(), this->expect("pop_back: the container is empty"));
    c.safe_pop_back();  // (defined on an empty container)
}

TYPED_TEST(ContainerHardeningDeathTest, UncheckedPushOnAFullContainer) {
    TypeParam c = this->three();
    while (c.size() < c.capacity()) c.unchecked_push_back(0);
    const std::string capacity = std::to_string(c.capacity());
    EXPECT_DEATH(c.unchecked_push_back(1),
                 this->expect("unchecked_push_back/fast_push_back: the container is full \\(capacity\\(\\) " + capacity + "\\)"));
    EXPECT_DEATH(c.fast_push_back(1), this->expect("unchecked_push_back/fast_push_back: the container is full"));
    EXPECT_DEATH(c.unchecked_emplace_back(1), this->expect("unchecked_push_back/fast_push_back: the container is full"));
}

TYPED_TEST(ContainerHardeningDeathTest, IteratorsOutsideTheContainer) {
    TypeParam c = this->three();
    TypeParam other = this->three();
    EXPECT_DEATH(c.erase(c.end()), this->expect("erase: position 3 is outside the elements \\[0, 3\\)"));
    EXPECT_DEATH(c.erase(other.begin()), this->expect("erase: position " SIGNED " is outside the elements \\[0, 3\\)"));
    EXPECT_DEATH(c.erase(c.begin() + 2, c.begin() + 1),
                 this->expect("erase: the range \\[2, 1\\) is not a range of the elements \\[0, 3\\)"));
    EXPECT_DEATH(c.erase(c.begin(), other.end()), this->expect("erase: the range \\[0, " SIGNED "\\) is not a range"));
    EXPECT_DEATH(c.insert(other.begin(), 7), this->expect("insert: position " SIGNED " is outside \\[0, size\\(\\) 3\\]"));
    EXPECT_DEATH(c.insert(other.end(), 2, 7), this->expect("insert: position " SIGNED " is outside"));
    EXPECT_DEATH(c.emplace(other.begin() + 1, 7), this->expect("emplace: position " SIGNED " is outside"));
    c.insert(c.end(), 4);  // (the end is a position: no trap)
    EXPECT_EQ(c.size(), 4u);
}

TYPED_TEST(ContainerHardeningDeathTest, ReversedRanges) {
    TypeParam c = this->three();
    const int source[3] = {7, 8, 9};
    EXPECT_DEATH(c.insert(c.begin(), source + 3, source), this->expect("insert: the range \\[first, last\\) is reversed \\(last - first is -3\\)"));
    EXPECT_DEATH(c.assign(source + 2, source), this->expect("assign: the range \\[first, last\\) is reversed \\(last - first is -2\\)"));
    std::vector<int> model(source, source + 3);
    EXPECT_DEATH(c.insert(c.end(), model.end(), model.begin()), this->expect("insert: the range \\[first, last\\) is reversed"));
    c.assign(source, source + 3);  // (a range: no trap)
    EXPECT_EQ(c[0], 7);
}

#if RELO_DETAIL_BOUNDED_ITERATORS
// -DRELO_BOUNDED_ITERATORS (./relo.sh test's hardened configuration): each iterator knows its storage.
TYPED_TEST(ContainerHardeningDeathTest, BoundedIteratorsStayInTheirStorage) {
    TypeParam c = this->three();
    TypeParam other = this->three();
    EXPECT_DEATH((void)(c.begin() - 1), "relo: iterator moved by -1 from 0 elements into its storage");
    EXPECT_DEATH((void)(c.begin() == other.begin()), "relo: iterators of different storage compared or subtracted");
    EXPECT_DEATH((void)(c.end() - other.begin()), "relo: iterators of different storage");
    const auto storage = c.end().storage_last() - c.begin().base();
    EXPECT_DEATH((void)c.begin()[storage], "relo: iterator dereferenced at " SIGNED " elements from its storage's start");
    EXPECT_EQ(c.begin() + 3, c.end());
    EXPECT_EQ(c.begin()[2], 3);
}

TEST(ContainerHardeningDeathTest, BoundedIteratorsOfAFullVectorEndAtItsEnd) {
    relo::vector<int> v{1, 2, 3};
    v.shrink_to_fit();
    ASSERT_EQ(v.capacity(), 3u);
    EXPECT_DEATH((void)*v.end(), "relo: iterator dereferenced at 3 elements from its storage's start");
    const auto before = v.begin();
    v.reserve(100);  // (the storage moves: iterators made before belong to the old one)
    EXPECT_DEATH((void)(before == v.begin()), "relo: iterators of different storage");
}

// A pinned_vector's elements never move: its iterators stay valid, and bounded, across growth.
TEST(ContainerHardening, BoundedIteratorsOfAPinnedVectorOutliveItsGrowth) {
    relo::pinned_vector<int> v;
    v.push_back(0);
    const auto first = v.begin();
    for (int i = 1; i < 100000; ++i) v.push_back(i);
    ASSERT_GT(v.capacity(), 1024u);
    EXPECT_EQ(first[99999], 99999);
    EXPECT_EQ(first + 100000, v.end());
}
#endif

TEST(ContainerHardeningDeathTest, SwapOfUnequalAllocatorsThatDoNotPropagate) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    std::pmr::monotonic_buffer_resource r1, r2;
    relo::vector<int, std::pmr::polymorphic_allocator<int>> a(&r1), b(&r2), c(&r1);
    a.push_back(1);
    EXPECT_DEATH(a.swap(b), "relo: relo::vector::swap: the allocators differ and do not propagate on swap");
    relo::small_vector<int, 2, std::pmr::polymorphic_allocator<int>> s(&r1), t(&r2);
    EXPECT_DEATH(s.swap(t), "relo: relo::small_vector::swap: the allocators differ");
    a.swap(c);  // (equal allocators: no trap)
    EXPECT_EQ(c.size(), 1u);
}

// ---- The resources.

class ResourceHardeningDeathTest : public ::testing::Test {
protected:
    void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(ResourceHardeningDeathTest, MultipoolForeignPointerSizeAndAlignment) {
    relo::multipool_resource r;
    void* p = r.allocate(40, 8);
    alignas(16) long stranger[8] = {};  // (as large as a block of its class: GCC's -Warray-bounds follows the
                                        // path past the check into the free list's writes)
    EXPECT_DEATH(r.deallocate(stranger, sizeof(long), alignof(long)),
                 "relo: relo::multipool_resource::deallocate: " POINTER " is not a block of this resource");
    EXPECT_DEATH(r.deallocate(p, 200, 8),
                 "relo::multipool_resource::deallocate: " POINTER " is not a block of the 256-byte class at alignment 8");
    EXPECT_DEATH(r.deallocate(static_cast<char*>(p) + 8, 40, 8), "is not a block of the 64-byte class");
    // A block of the chunk that was never handed out.
    EXPECT_DEATH(r.deallocate(static_cast<char*>(p) + 64, 40, 8), "is not a block of the 64-byte class");
    r.deallocate(p, 40, 8);
}

TEST_F(ResourceHardeningDeathTest, MultipoolDoubleDeallocation) {
    for (std::size_t bytes : {std::size_t{8}, std::size_t{24}, std::size_t{1000}}) {
        relo::multipool_resource r;
        void* a = r.allocate(bytes, 8);
        void* b = r.allocate(bytes, 8);
        void* c = r.allocate(bytes, 8);
        r.deallocate(a, bytes, 8);
        EXPECT_DEATH(r.deallocate(a, bytes, 8), "relo: relo::multipool_resource::deallocate: " POINTER " \\(class of " DIGITS " "
                                                "bytes\\) is already free: a double deallocation");
        r.deallocate(c, bytes, 8);
        EXPECT_DEATH(r.deallocate(a, bytes, 8), "is already free: a double deallocation");  // (second on the list)
        r.deallocate(b, bytes, 8);
        EXPECT_DEATH(r.deallocate(c, bytes, 8), "is already free: a double deallocation");
    }
}

TEST_F(ResourceHardeningDeathTest, MultipoolUpstreamBlocks) {
    relo::multipool_resource r;
    void* big = r.allocate(100000, 8);
    EXPECT_DEATH(r.deallocate(big, 90000, 8), "relo::multipool_resource::deallocate: " POINTER " \\(90000 bytes, alignment 8\\) "
                                              "is not a block it passed to the upstream with that size and alignment");
    r.deallocate(big, 100000, 8);
}

TEST_F(ResourceHardeningDeathTest, MultipoolOverMonotonicDoubleDeallocation) {
    relo::monotonic_resource mono;
    relo::multipool_resource r(&mono);
    void* a = r.allocate(16, 8);
    r.deallocate(a, 16, 8);
    EXPECT_DEATH(r.deallocate(a, 16, 8), "is already free: a double deallocation");
}

TEST_F(ResourceHardeningDeathTest, SynchronizedMultipool) {
    relo::synchronized_multipool_resource r;
    void* a = r.allocate(48, 8);
    void* b = r.allocate(48, 8);
    alignas(16) long stranger[8] = {};  // (as large as a block of its class: GCC's -Warray-bounds follows the
                                        // path past the check into the free list's writes)
    EXPECT_DEATH(r.deallocate(stranger, sizeof(long), alignof(long)),
                 "relo: relo::synchronized_multipool_resource::deallocate: " POINTER " is not a block of this resource");
    EXPECT_DEATH(r.deallocate(a, 300, 8), "is not a block of the 512-byte class at alignment 8");
    r.deallocate(a, 48, 8);
    EXPECT_DEATH(r.deallocate(a, 48, 8), "relo::synchronized_multipool_resource::deallocate: " POINTER " \\(class of 64 bytes\\) "
                                         "is already free: a double deallocation");
    r.deallocate(b, 48, 8);
}

// A block freed by another thread than its allocator's, and moved on to the class's depot (the freeing
// thread's bin hands it batches, and the rest when the thread ends), is still found free.
TEST_F(ResourceHardeningDeathTest, SynchronizedMultipoolBlockInTheDepot) {
    relo::synchronized_multipool_resource r;
    std::vector<void*> blocks(2000);
    for (void*& p : blocks) p = r.allocate(48, 8);
    std::thread([&] {
        for (void* p : blocks) r.deallocate(p, 48, 8);
    }).join();
    ASSERT_GT(r.depot_blocks(48, 8), 0u);
    EXPECT_DEATH(r.deallocate(blocks[1000], 48, 8), "is already free: a double deallocation");
}

// try_expand with another alignment than the allocation's names another class (the 16-byte class, where
// the block is in the 8-byte one), and of a block already freed.
TEST_F(ResourceHardeningDeathTest, MultipoolTryExpand) {
    relo::multipool_resource r;
    void* a = r.allocate(1, 8);
    EXPECT_DEATH((void)r.try_expand(a, 1, 9, 16),
                 "relo::multipool_resource::try_expand: " POINTER " is not a block of the 16-byte class at alignment 16");
    r.deallocate(a, 1, 8);
    EXPECT_DEATH((void)r.try_expand(a, 1, 8, 8),
                 "relo::multipool_resource::try_expand: " POINTER " \\(class of 8 bytes\\) is already free");
}

TEST_F(ResourceHardeningDeathTest, Monotonic) {
    relo::monotonic_resource mono;
    mono.allocate(10, 8);
    int stranger = 0;
    EXPECT_DEATH(mono.deallocate(&stranger, sizeof stranger, alignof(int)),
                 "relo: relo::monotonic_resource::deallocate: " POINTER " is not a block of this resource");
    auto* p = static_cast<char*>(mono.allocate(64, 64));
    EXPECT_DEATH(mono.deallocate(p + 8, 8, 64), "relo::monotonic_resource::deallocate: " POINTER " is not aligned to 64");
    char buffer[256];
    relo::monotonic_resource buffered(buffer, sizeof buffer);
    void* q = buffered.allocate(16, 8);
    buffered.deallocate(q, 16, 8);  // (from the initial buffer: no trap)
    EXPECT_DEATH(buffered.deallocate(&stranger, 4, 4), "is not a block of this resource");
}

TEST_F(ResourceHardeningDeathTest, VmArena) {
    relo::vm_arena arena(std::size_t{1} << 20);
    const relo::vm_arena::marker start = arena.mark();
    auto* p = static_cast<char*>(arena.allocate(64, 64));
    int stranger = 0;
    EXPECT_DEATH(arena.deallocate(&stranger, sizeof stranger, alignof(int)),
                 "relo: relo::vm_arena::deallocate: " POINTER " \\(4 bytes\\) is not a block of this arena");
    EXPECT_DEATH(arena.deallocate(p + 8, 8, 64), "relo::vm_arena::deallocate: " POINTER " is not aligned to 64");
    const relo::vm_arena::marker after = arena.mark();
    arena.rewind(start);
    EXPECT_DEATH(arena.rewind(after), "relo: relo::vm_arena::rewind: the mark \\(" POINTER "\\) is not between");
    arena.deallocate(p, 64, 64);  // (beyond the top after the rewind: ignored, no trap)
}

// ---- What the checks must let through.

// Nodes whose first word points to another node of the same class (a list's links) never read as free
// blocks: the free-list links are stored XORed with an odd constant.
TEST(ResourceHardening, NodesPointingAtEachOtherAreNotTakenForFreeBlocks) {
    for (int kind = 0; kind < 3; ++kind) {
        relo::monotonic_resource mono;
        relo::multipool_resource pool;
        relo::multipool_resource pool_over_mono(&mono);
        relo::synchronized_multipool_resource shared;
        std::pmr::memory_resource* resources[] = {&pool, &pool_over_mono, &shared};
        std::pmr::list<std::uintptr_t> nodes(resources[kind]);
        std::mt19937 random(kind);
        for (int i = 0; i < 20000; ++i) {
            if (!nodes.empty() && random() % 3 == 0) {
                auto it = nodes.begin();
                std::advance(it, random() % nodes.size() % 16);
                nodes.erase(it);
            } else {
                // The value: an address of another node (what a stale link would hold).
                nodes.push_back(nodes.empty() ? 0 : reinterpret_cast<std::uintptr_t>(&nodes.back()));
            }
        }
        std::vector<std::pmr::list<std::uintptr_t>::iterator> order;
        for (auto it = nodes.begin(); it != nodes.end(); ++it) order.push_back(it);
        std::shuffle(order.begin(), order.end(), random);
        for (auto it : order) nodes.erase(it);
        EXPECT_TRUE(nodes.empty());
    }
}

// A resource's chunks are indexed again after release(): blocks of the new chunks are recognised.
TEST(ResourceHardening, ChunksAreIndexedAgainAfterRelease) {
    relo::multipool_resource pool;
    relo::monotonic_resource mono;
    for (int round = 0; round < 3; ++round) {
        std::vector<void*> blocks;
        for (int i = 0; i < 5000; ++i) blocks.push_back(pool.allocate(16 + 8 * (i % 5), 8));
        for (int i = 0; i < 5000; i += 2) pool.deallocate(blocks[i], 16 + 8 * (i % 5), 8);
        for (int i = 0; i < 500; ++i) mono.deallocate(mono.allocate(100, 8), 100, 8);
        pool.release();
        mono.release();
    }
    SUCCEED();
}

}  // namespace
}  // namespace relo_test
