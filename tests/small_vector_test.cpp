// tests/small_vector_test.cpp — relo::small_vector: the shared sequence suite with N = 0, 1, 4 and 16 over
// the element kinds (crossing the inline/heap boundary both ways), random differential runs and the
// exception matrix, then what is particular to it (layout, the N-independent base, moving back inline,
// swap of every storage combination, allocators).
#include "relo/small_vector.hpp"

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "differential.hpp"
#include "element_kinds.hpp"
#include "exception_matrix.hpp"
#include "mapped_ints.hpp"
#include "sequence_suite.hpp"

namespace relo_test {
namespace {

using relo::small_vector;
using relo::small_vector_base;

// Every element kind with 16 slots, N = 4 and N = 0; the rest of the capacity and allocator variants where
// RELO_TEST_VARIANTS asks for them (sequence_suite.hpp).
using small_kinds = ::testing::Types<
    small_vector<int, 16>, small_vector<big_trivial, 16>, small_vector<counted, 16>, small_vector<std::string, 16>,
    small_vector<std::unique_ptr<int>, 16>, small_vector<thrower, 16>, small_vector<overaligned, 16>,
    small_vector<marked_relocatable, 16>, small_vector<std::string, 4>, small_vector<int, 0>
#if RELO_TEST_VARIANTS
    , small_vector<int, 4>, small_vector<counted, 4>, small_vector<thrower, 4>, small_vector<overaligned, 4>,
    small_vector<int, 1>, small_vector<std::string, 1>, small_vector<std::unique_ptr<int>, 1>,
    small_vector<std::string, 0>, small_vector<counted, 4, std::allocator<counted>>,
    small_vector<std::string, 4, std::allocator<std::string>, relo::growth_1_5>
#endif
    >;
INSTANTIATE_TYPED_TEST_SUITE_P(small_vector, SequenceTest, small_kinds, numbered_types);

// ---- Layout.

static_assert(sizeof(small_vector<int, 8>) == 56, "pointer, size and capacity, then the inline elements");
static_assert(sizeof(small_vector<int, 4>) == 40);
static_assert(sizeof(small_vector<char, 16>) == 40);
static_assert(sizeof(small_vector<int>) == 64, "the default N makes the object 64 bytes");
static_assert(small_vector<int>::inline_capacity_v == 10);
static_assert(sizeof(small_vector<std::string>) <= 64);
static_assert(small_vector<std::string>::inline_capacity_v >= 1);
static_assert(sizeof(relo::pmr::small_vector<int, 8>) == 64, "a stateful allocator takes its own word");
static_assert(!relo::is_trivially_relocatable_v<small_vector<int, 8>>, "it points into itself while inline");
static_assert(std::is_nothrow_move_constructible_v<small_vector<std::string, 8>>);
static_assert(std::is_nothrow_move_constructible_v<small_vector<std::unique_ptr<int>, 8>>);
static_assert(std::is_nothrow_move_assignable_v<small_vector<std::string, 8>>);
static_assert(!std::is_nothrow_move_constructible_v<small_vector<thrower, 8>>);
static_assert(std::is_base_of_v<small_vector_base<int>, small_vector<int, 3>>);
static_assert(std::is_base_of_v<small_vector_base<int>, small_vector<int, 300>>);

template <class V>
bool elements_inside(const V& v) {
    const auto* object = reinterpret_cast<const unsigned char*>(&v);
    const auto* first = reinterpret_cast<const unsigned char*>(v.data());
    return first >= object && first < object + sizeof(V);
}

TEST(SmallVector, InlineUntilFullThenHeap) {
    small_vector<std::string, 4> v;
    EXPECT_EQ(v.capacity(), 4u);
    EXPECT_EQ(v.inline_capacity(), 4u);
    for (int i = 0; i < 4; ++i) v.push_back(std::to_string(i));
    EXPECT_FALSE(v.is_on_heap());
    EXPECT_TRUE(elements_inside(v));
    v.push_back("4");
    EXPECT_TRUE(v.is_on_heap());
    EXPECT_FALSE(elements_inside(v));
    EXPECT_GE(v.capacity(), 8u);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(v[static_cast<std::size_t>(i)], std::to_string(i));
}

// Inserting into a full small vector moves each old element once, from the inline slots and on the heap.
TEST(SmallVector, InsertWithGrowthMovesEachElementOnce) {
    relo::small_vector<move_counter, 4> v;
    std::vector<int> model;
    for (int i = 0; i < 4; ++i) {
        v.emplace_back(i);
        model.push_back(i);
    }
    const move_counter value(-1);
    for (int round = 0; round < 6; ++round) {  // inline -> heap, then heap -> larger heap blocks
        while (v.size() < v.capacity()) {
            v.emplace_back(static_cast<int>(v.size()));
            model.push_back(static_cast<int>(model.size()));
        }
        const long size = static_cast<long>(v.size());
        move_counter::moves = 0;
        v.insert(v.begin() + 1, 2, value);
        model.insert(model.begin() + 1, 2, -1);
        EXPECT_LE(move_counter::moves, size) << "round " << round;
        std::vector<int> got;
        for (const auto& e : v) got.push_back(e.value);
        ASSERT_EQ(got, model);
    }
}

/// std::allocator that counts the blocks it hands out (all instances equal).
template <class T>
struct counting_allocator {
    using value_type = T;
    static inline long allocations = 0;
    counting_allocator() = default;
    template <class U>
    counting_allocator(const counting_allocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        ++allocations;
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
    friend bool operator==(const counting_allocator&, const counting_allocator&) noexcept { return true; }
    friend bool operator!=(const counting_allocator&, const counting_allocator&) noexcept { return false; }
};

// A move from a small_vector of the same N is noexcept: it must not allocate, also when this one holds a
// heap block smaller than N (taken from a small vector of fewer slots): the elements go inline.
TEST(SmallVector, AMoveOfTheSameNNeverAllocates) {
    using big = small_vector<int, 16, counting_allocator<int>>;
    using little = small_vector<int, 4, counting_allocator<int>>;
    static_assert(std::is_nothrow_move_assignable_v<big>);
    little few;
    for (int i = 0; i < 6; ++i) few.push_back(i);
    big target;
    static_cast<small_vector_base<int, counting_allocator<int>, relo::growth_2>&>(target) = std::move(few);
    ASSERT_TRUE(target.is_on_heap());
    ASSERT_LT(target.capacity(), 12u) << "the heap block taken over holds fewer than the next move's elements";
    big twelve;
    for (int i = 0; i < 12; ++i) twelve.push_back(100 + i);
    ASSERT_FALSE(twelve.is_on_heap());
    const long before = counting_allocator<int>::allocations;
    target = std::move(twelve);
    EXPECT_EQ(counting_allocator<int>::allocations, before) << "a noexcept move allocated";
    EXPECT_FALSE(target.is_on_heap());
    std::vector<int> model(12);
    std::iota(model.begin(), model.end(), 100);
    EXPECT_EQ(std::vector<int>(target.begin(), target.end()), model);
    EXPECT_TRUE(twelve.empty());
}

TEST(SmallVector, ShrinkToFitMovesBackInline) {
    small_vector<std::string, 4> v;
    for (int i = 0; i < 100; ++i) v.push_back("a string that does not fit the small buffer " + std::to_string(i));
    v.erase(v.begin() + 3, v.end());
    ASSERT_TRUE(v.is_on_heap());
    v.shrink_to_fit();
    EXPECT_FALSE(v.is_on_heap());
    EXPECT_TRUE(elements_inside(v));
    EXPECT_EQ(v.capacity(), 4u);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[2], "a string that does not fit the small buffer 2");
    // Too many for the inline slots: the heap block shrinks instead.
    small_vector<int, 4> w;
    for (int i = 0; i < 1000; ++i) w.push_back(i);
    w.resize(10);
    w.shrink_to_fit();
    EXPECT_TRUE(w.is_on_heap());
    EXPECT_EQ(w.capacity(), 10u);
    EXPECT_EQ(std::accumulate(w.begin(), w.end(), 0), 45);
}

int sum_of(const small_vector_base<int>& v) { return std::accumulate(v.begin(), v.end(), 0); }
void append_squares(small_vector_base<int>& v, int n) {
    for (int i = 1; i <= n; ++i) v.push_back(i * i);
}

TEST(SmallVector, TheBaseTakesAnyInlineCapacity) {
    small_vector<int, 2> a;
    small_vector<int, 64> b;
    append_squares(a, 10);  // to the heap
    append_squares(b, 10);  // stays inline
    EXPECT_TRUE(a.is_on_heap());
    EXPECT_FALSE(b.is_on_heap());
    EXPECT_EQ(sum_of(a), 385);
    EXPECT_EQ(sum_of(b), 385);
    EXPECT_TRUE(static_cast<small_vector_base<int>&>(a) == b);
    small_vector_base<int>& ra = a;
    small_vector_base<int>& rb = b;
    ra.swap(rb);  // heap and inline of different N
    EXPECT_TRUE(a.is_on_heap()) << "10 elements do not fit a's two slots";
    EXPECT_FALSE(b.is_on_heap());
    EXPECT_EQ(sum_of(a), 385);
    EXPECT_EQ(sum_of(b), 385);
    small_vector<int, 3> c(rb);  // copy from any N
    EXPECT_EQ(sum_of(c), 385);
    small_vector<int, 32> d(std::move(ra));  // move from any N
    EXPECT_EQ(sum_of(d), 385);
    EXPECT_TRUE(a.empty());
    ra = rb;
    EXPECT_EQ(sum_of(a), 385);
}

TEST(SmallVector, MovingInlineElementsEmptiesTheSource) {
    small_vector<std::string, 4> a{"x", "y"};
    small_vector<std::string, 4> b(std::move(a));
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(b, (small_vector<std::string, 4>{"x", "y"}));
    small_vector<std::string, 4> heap{"1", "2", "3", "4", "5"};
    const std::string* block = heap.data();
    small_vector<std::string, 4> c(std::move(heap));
    EXPECT_EQ(c.data(), block) << "a heap block is taken over, not copied";
    EXPECT_TRUE(heap.empty());
    EXPECT_FALSE(heap.is_on_heap());
    heap.push_back("again");
    EXPECT_EQ(heap.size(), 1u);
    b = std::move(c);
    EXPECT_EQ(b.data(), block);
    EXPECT_EQ(b.size(), 5u);
}

TEST(SmallVector, SwapEveryStorageCombination) {
    using V = small_vector<std::string, 3>;
    auto make = [](int n, int first) {
        V v;
        for (int i = 0; i < n; ++i) v.push_back(std::to_string(first + i));
        return v;
    };
    for (int n : {0, 2, 3, 7}) {
        for (int m : {0, 1, 3, 9}) {
            V a = make(n, 100);
            V b = make(m, 200);
            const V a0 = a;
            const V b0 = b;
            a.swap(b);
            EXPECT_EQ(a, b0) << n << " " << m;
            EXPECT_EQ(b, a0) << n << " " << m;
            swap(a, b);
            EXPECT_EQ(a, a0);
            EXPECT_EQ(b, b0);
        }
    }
    // Inline sides of different N that do not fit each other's slots.
    small_vector<std::string, 2> small{"a"};
    small_vector<std::string, 8> big{"1", "2", "3", "4", "5"};
    static_cast<small_vector_base<std::string>&>(small).swap(big);
    EXPECT_EQ(small.size(), 5u);
    EXPECT_EQ(big.size(), 1u);
    EXPECT_EQ(small[4], "5");
    EXPECT_EQ(big[0], "a");
}

TEST(SmallVector, OverAlignedElements) {
    small_vector<overaligned, 2> v;
    for (int i = 0; i < 50; ++i) {
        v.push_back(overaligned{i});
        ASSERT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % alignof(overaligned), 0u);
    }
    v.resize(1);
    v.shrink_to_fit();
    EXPECT_FALSE(v.is_on_heap());
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % alignof(overaligned), 0u);
    small_vector<overaligned, 0> z;
    z.push_back(overaligned{1});
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(z.data()) % alignof(overaligned), 0u);
}

TEST(SmallVector, LargeTriviallyRelocatableGrowthKeepsContents) {
    small_vector<int, 8> v;
    const int n = 9'000'000;  // 36 MB: the heap's by realloc, then past 32 MiB a large block
    while (v.size() < static_cast<std::size_t>(n)) {  // (filled to capacity, then the push that grows it)
        const std::size_t filled = v.size();
        v.resize(std::min(v.capacity(), static_cast<std::size_t>(n)));
        std::iota(v.begin() + static_cast<std::ptrdiff_t>(filled), v.end(), static_cast<int>(filled));
        if (v.size() < static_cast<std::size_t>(n)) v.push_back(static_cast<int>(v.size()));
    }
    for (int i = 0; i < n; i += 997) ASSERT_EQ(v[static_cast<std::size_t>(i)], i);
    v.resize(5);
    v.shrink_to_fit();
    EXPECT_FALSE(v.is_on_heap());
    EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 10);
}

TEST(SmallVector, PolymorphicAllocatorPropagatesToElements) {
    std::pmr::monotonic_buffer_resource resource;
    relo::pmr::small_vector<std::pmr::string, 4> v(&resource);
    for (int i = 0; i < 20; ++i) v.emplace_back("a string too long for the small buffer " + std::to_string(i));
    v.insert(v.begin() + 3, v[10]);
    for (const auto& s : v) EXPECT_EQ(s.get_allocator().resource(), &resource);
    EXPECT_EQ(v[3], v[11]);
}

TEST(SmallVector, StatefulAllocatorPropagation) {
    using no_prop = test_allocator<int, false, false, false>;
    using all_prop = test_allocator<int, true, true, true>;
    {
        small_vector<int, 2, no_prop> a({1, 2, 3}, no_prop(1));
        small_vector<int, 2, no_prop> b({4, 5, 6, 7}, no_prop(2));
        a = b;
        EXPECT_EQ(a.get_allocator().id, 1);
        b = std::move(a);  // unequal, not propagated: elements are moved into b's own storage
        EXPECT_EQ(b.get_allocator().id, 2);
        EXPECT_EQ(b, (small_vector<int, 2, no_prop>({4, 5, 6, 7}, no_prop(3))));
        small_vector<int, 2, no_prop> c(std::move(b), no_prop(4));
        EXPECT_EQ(c.get_allocator().id, 4);
        EXPECT_EQ(c.size(), 4u);
    }
    {
        small_vector<int, 2, all_prop> a({1, 2, 3}, all_prop(1));
        small_vector<int, 2, all_prop> b({4, 5}, all_prop(2));
        a = b;
        EXPECT_EQ(a.get_allocator().id, 2);
        small_vector<int, 2, all_prop> c({9, 9, 9}, all_prop(3));
        c = std::move(a);
        EXPECT_EQ(c.get_allocator().id, 2);
        EXPECT_EQ(c, b);
        small_vector<int, 2, all_prop> d({7, 7, 7}, all_prop(5));
        d.swap(c);
        EXPECT_EQ(d.get_allocator().id, 2);
        EXPECT_EQ(c.get_allocator().id, 5);
    }
    EXPECT_EQ(allocation_log::outstanding, 0);
}

TEST(SmallVector, DeductionGuide) {
    std::vector<long> source{1, 2, 3};
    small_vector v(source.begin(), source.end());
    static_assert(std::is_same_v<decltype(v), small_vector<long>>);
    EXPECT_EQ(v.size(), 3u);
}

// ---- Random differential runs and the exception matrix.

TEST(SmallVectorDifferential, Int) { run_differential<small_vector<int, 16>>(21); }
TEST(SmallVectorDifferential, IntOnCachedLargeBlocks) { run_differential<cached_large_small_vector<int, 16>>(29); }
TEST(SmallVectorDifferential, Counted) { run_differential<small_vector<counted, 4>>(22); }
TEST(SmallVectorDifferential, String) { run_differential<small_vector<std::string, 4>>(23); }
TEST(SmallVectorDifferential, UniquePtr) { run_differential<small_vector<std::unique_ptr<int>, 1>>(24); }
TEST(SmallVectorDifferential, Thrower) { run_differential<small_vector<thrower, 16>>(25); }
TEST(SmallVectorDifferential, Overaligned) { run_differential<small_vector<overaligned, 4>>(26); }
TEST(SmallVectorDifferential, MarkedRelocatable) { run_differential<small_vector<marked_relocatable, 0>>(27); }
TEST(SmallVectorDifferential, StringWithStdAllocator) {
    run_differential<small_vector<std::string, 4, std::allocator<std::string>>>(28);
}

TEST(SmallVectorExceptions, ThrowingCopyAndMove) {
    run_modifier_matrix<small_vector<thrower, 4>>(guarantee::basic);
    run_modifier_matrix<small_vector<thrower, 16, std::allocator<thrower>>>(guarantee::basic);
}
TEST(SmallVectorExceptions, ThrowingCopyNothrowMove) {
    run_modifier_matrix<small_vector<copy_thrower, 4>>(guarantee::strong);
    run_modifier_matrix<small_vector<copy_thrower, 0>>(guarantee::strong);
}
TEST(SmallVectorExceptions, AllocationFailureLeavesTheVectorUnchanged) {
    run_allocation_failures<small_vector<counted, 4, test_allocator<counted>>>();
    run_allocation_failures<small_vector<counted, 0, test_allocator<counted>>>();
}

TEST(SmallVector, ShiftingInsideTheStorageAssigns) {
    shifting_inside_the_storage_assigns<relo::small_vector<operation_counter, 4>>();   // on the heap
    shifting_inside_the_storage_assigns<relo::small_vector<operation_counter, 48>>();  // inline
}

}  // namespace
}  // namespace relo_test
