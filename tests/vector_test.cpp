// tests/vector_test.cpp — relo::vector: the shared sequence suite over every element kind, then what is
// particular to vector (allocators, growth strategy, layout, constant evaluation).
#include "relo/vector.hpp"

#include <algorithm>
#include <array>
#include <memory_resource>
#include <numeric>
#include <ratio>
#include <string>
#include <utility>
#include <vector>

#if RELO_HAS_RANGES
#include <ranges>
#endif

#include <gtest/gtest.h>

#include "element_kinds.hpp"
#include "sequence_suite.hpp"

namespace relo_test {
namespace {

// Every element kind, through std::allocator and through the large-block allocator; the other allocator and
// growth variants where RELO_TEST_VARIANTS asks for them (sequence_suite.hpp).
using vector_kinds =
    ::testing::Types<relo::vector<int>, relo::vector<big_trivial>, relo::vector<counted>, relo::vector<std::string>,
                     relo::vector<std::unique_ptr<int>>, relo::vector<thrower>, relo::vector<overaligned>,
                     relo::vector<marked_relocatable>, relo::vector<counted, std::allocator<counted>>,
                     relo::vector<big_trivial, relo::page_allocator<big_trivial, relo::large_block_policy>>
#if RELO_TEST_VARIANTS
                     , relo::vector<std::string, std::allocator<std::string>, relo::growth_1_5>,
                     relo::vector<marked_relocatable, std::allocator<marked_relocatable>>
#endif
                     >;
INSTANTIATE_TYPED_TEST_SUITE_P(vector, SequenceTest, vector_kinds, numbered_types);

static_assert(sizeof(relo::vector<int>) == 3 * sizeof(void*));
static_assert(sizeof(relo::vector<std::string>) == 3 * sizeof(void*));
static_assert(std::is_nothrow_move_constructible_v<relo::vector<std::string>>);
static_assert(std::is_nothrow_move_assignable_v<relo::vector<std::string>>);
static_assert(std::is_nothrow_default_constructible_v<relo::vector<int>>);
// Iterators: one pointer in a class (detail/iterator.hpp), converting to const_iterator and not back.
static_assert(!std::is_same_v<relo::vector<int>::iterator, int*>);
static_assert(sizeof(relo::vector<int>::iterator) == (RELO_DETAIL_BOUNDED_ITERATORS ? 3 : 1) * sizeof(int*));
static_assert(std::is_trivially_copyable_v<relo::vector<int>::iterator>);
static_assert(std::is_convertible_v<relo::vector<int>::iterator, relo::vector<int>::const_iterator>);
static_assert(!std::is_convertible_v<relo::vector<int>::const_iterator, relo::vector<int>::iterator>);
static_assert(!std::is_convertible_v<int*, relo::vector<int>::iterator>);
static_assert(!std::is_same_v<relo::vector<int>::iterator, relo::vector<long>::iterator>);
static_assert(relo::is_trivially_relocatable_v<relo::vector<std::string>>,
              "three pointers and an empty allocator: a vector of vectors grows as bytes");

// The two algorithms the containers keep of their own (detail/uninitialized.hpp), against the standard's,
// for every size to 12, every rotation point and every pattern of removed elements.
TEST(Vector, RotateAndRemoveIfAsTheStandardDoes) {
    for (std::size_t n = 0; n <= 12; ++n) {
        std::vector<std::string> base(n);
        for (std::size_t i = 0; i < n; ++i) base[i] = "a string long enough for the heap " + std::to_string(i);
        for (std::size_t m = 0; m <= n; ++m) {
            std::vector<std::string> ours = base, model = base;
            relo::detail::rotate_elements(ours.data(), ours.data() + m, ours.data() + n);
            std::rotate(model.begin(), model.begin() + static_cast<std::ptrdiff_t>(m), model.end());
            ASSERT_EQ(ours, model) << "n = " << n << ", middle = " << m;
        }
        for (unsigned pattern = 0; pattern < (1u << n); pattern += n < 8 ? 1 : 37) {
            std::vector<std::string> ours = base, model = base;
            auto removed = [&](const std::string& e) {
                const std::size_t i = std::stoul(e.substr(e.rfind(' ') + 1));
                return ((pattern >> i) & 1) != 0;
            };
            const auto our_end = relo::detail::remove_elements_if(ours.begin(), ours.end(), removed);
            const auto model_end = std::remove_if(model.begin(), model.end(), removed);
            ASSERT_EQ(our_end - ours.begin(), model_end - model.begin()) << "n = " << n << ", pattern " << pattern;
            ASSERT_TRUE(std::equal(ours.begin(), our_end, model.begin())) << "n = " << n << ", pattern " << pattern;
        }
    }
}

TEST(Vector, DeductionGuides) {
    std::vector<long> source{1, 2, 3};
    relo::vector v(source.begin(), source.end());
    static_assert(std::is_same_v<decltype(v), relo::vector<long>>);
    EXPECT_EQ(v.size(), 3u);
}

template <class Vector>
void large_relocatable_growth_keeps_contents() {
    Vector v;
    // 36 MB: by default from the heap by realloc, then past 32 MiB into a reservation; with
    // large_block_policy a mapping from 2 MiB, and through mremap.
    const int n = 9'000'000;
    for (int i = 0; i < n; ++i) v.push_back(i);
    ASSERT_EQ(v.size(), static_cast<std::size_t>(n));
    for (int i = 0; i < n; i += 997) ASSERT_EQ(v[static_cast<std::size_t>(i)], i);
    EXPECT_EQ(v.back(), n - 1);
    v.resize(100);
    v.shrink_to_fit();  // from a mapping back to malloc
    EXPECT_EQ(v.capacity(), 100u);
    for (int i = 0; i < 100; ++i) ASSERT_EQ(v[static_cast<std::size_t>(i)], i);
}

TEST(Vector, LargeTriviallyRelocatableGrowthKeepsContents) {
    large_relocatable_growth_keeps_contents<relo::vector<int>>();
    large_relocatable_growth_keeps_contents<relo::vector<int, relo::page_allocator<int, relo::large_block_policy>>>();
}

TEST(Vector, LargeNonTrivialGrowthKeepsContents) {
    const long live = counted::live;
    {
        relo::vector<counted> v;
        const int n = 4'500'000;  // 36 MB: past the mapping threshold for non-relocatable types
        for (int i = 0; i < n; ++i) v.emplace_back(i);
        EXPECT_EQ(counted::live - live, n);
        for (int i = 0; i < n; i += 1009) ASSERT_EQ(v[static_cast<std::size_t>(i)].checked(), i);
        v.erase(v.begin() + 10, v.end());
        v.shrink_to_fit();
        EXPECT_EQ(v.size(), 10u);
        EXPECT_EQ(counted::live - live, 10);
    }
    EXPECT_EQ(counted::live, live);
}

// The thesis's uwr::vector lost its data here: shrinking from its mmap range back to malloc.
// An insertion that needs new storage moves every old element once (into its final place), as
// std::vector does; growing first and then opening the gap would move the tail twice.
template <class Vector>
void insert_with_growth_moves_each_element_once() {
    Vector v;
    v.reserve(100);
    while (v.size() < v.capacity()) v.emplace_back(static_cast<int>(v.size()));  // full: insert must grow
    std::vector<int> model(v.size());
    std::iota(model.begin(), model.end(), 0);
    const move_counter value(-1);
    move_counter::moves = 0;
    v.insert(v.begin() + 10, 3, value);
    model.insert(model.begin() + 10, 3, -1);
    EXPECT_LE(move_counter::moves, static_cast<long>(model.size()) - 3);
    std::vector<int> got;
    for (const auto& e : v) got.push_back(e.value);
    EXPECT_EQ(got, model);
}

TEST(Vector, InsertWithGrowthMovesEachElementOnce) {
    insert_with_growth_moves_each_element_once<relo::vector<move_counter>>();
    insert_with_growth_moves_each_element_once<relo::vector<move_counter, std::allocator<move_counter>>>();
}

TEST(Vector, ShrinkToFitAcrossTheMappingThreshold) {
    relo::vector<std::string> v(2'000'000);
    for (std::size_t i = 0; i < 10; ++i) v[i] = kind<std::string>::make(static_cast<int>(i) + 1);
    v.resize(10);
    v.shrink_to_fit();
    ASSERT_NE(v.data(), nullptr);
    EXPECT_EQ(v.capacity(), 10u);
    for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(kind<std::string>::key(v[i]), static_cast<int>(i) + 1);
}

// Elements larger than a page, and page-aligned ones: the large blocks' capacity rounding must agree
// with what deallocate and try_expand compute later.
struct alignas(4096) page_aligned {
    int value = 0;
};
struct larger_than_a_page {
    int value = 0;
    char padding[5000 - sizeof(int)] = {};
};

template <class T>
void grow_and_shrink_large_elements() {
    relo::vector<T> v;
    for (int i = 0; i < 3000; ++i) {
        T e{};
        e.value = i;
        v.push_back(e);
        ASSERT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % alignof(T), 0u);
    }
    for (int i = 0; i < 3000; i += 7) ASSERT_EQ(v[static_cast<std::size_t>(i)].value, i);
    v.erase(v.begin() + 10, v.end());
    v.shrink_to_fit();
    for (int i = 0; i < 10; ++i) ASSERT_EQ(v[static_cast<std::size_t>(i)].value, i);
    v.resize(2000);
    EXPECT_EQ(v[9].value, 9);
}

TEST(Vector, ElementsLargerThanAPageOrPageAligned) {
    grow_and_shrink_large_elements<larger_than_a_page>();
    grow_and_shrink_large_elements<page_aligned>();
}

TEST(Vector, OverAlignedStorageIsAligned) {
    relo::vector<overaligned> v;
    for (int i = 0; i < 5000; ++i) {
        v.push_back(overaligned{i});
        ASSERT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % 64, 0u);
    }
    v.resize(3);
    v.shrink_to_fit();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % 64, 0u);
}

TEST(Vector, CustomGrowthFactors) {
    relo::vector<int, std::allocator<int>, relo::growth_1_5> a;
    relo::vector<int, std::allocator<int>, std::ratio<7, 5>> b;  // std::ratio works as a policy
    std::size_t last_a = 0, growths = 0;
    for (int i = 0; i < 10000; ++i) {
        a.push_back(i);
        b.push_back(i);
        if (a.capacity() != last_a) {
            if (last_a >= 16) {
                EXPECT_EQ(a.capacity(), last_a * 3 / 2);  // std::allocator: no rounding of the size
            }
            last_a = a.capacity();
            ++growths;
        }
    }
    EXPECT_GT(growths, 10u);
    EXPECT_EQ(std::accumulate(b.begin(), b.end(), 0L), 10000L * 9999 / 2);
}

// Growing by resize_for_overwrite writes nothing: what the memory held is still there (here, elements
// removed before), where resize would have written zeros.
TEST(Vector, ResizeForOverwriteWritesNothing) {
    // A malloc block and a large block (from the threshold).
    for (std::size_t n : {std::size_t{100}, relo::page_allocator<int>::mapping_threshold() / sizeof(int) + 1}) {
        relo::vector<int> v(n);
        std::iota(v.begin(), v.end(), 1);
        v.resize(10);
        ASSERT_GE(v.capacity(), n);
        v.resize_for_overwrite(n);
        ASSERT_EQ(v.size(), n);
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(v[i], static_cast<int>(i + 1)) << i;
        v.resize(10);
        v.resize(n);
        EXPECT_EQ(std::count(v.begin() + 10, v.end(), 0), static_cast<long>(n - 10));
    }
}

TEST(Vector, PolymorphicAllocatorPropagatesToElements) {
    std::pmr::monotonic_buffer_resource resource;
    relo::pmr::vector<std::pmr::string> v(&resource);
    for (int i = 0; i < 100; ++i) v.emplace_back("a string too long for the small buffer " + std::to_string(i));
    v.insert(v.begin() + 3, v[50]);
    for (const auto& s : v) EXPECT_EQ(s.get_allocator().resource(), &resource);
    EXPECT_EQ(v[3], v[51]);
    relo::pmr::vector<std::pmr::string> copy(v, &resource);
    EXPECT_EQ(copy, v);
}

TEST(Vector, StatefulAllocatorPropagation) {
    using no_prop = test_allocator<int, false, false, false>;
    using all_prop = test_allocator<int, true, true, true>;
    {
        relo::vector<int, no_prop> a({1, 2, 3}, no_prop(1));
        relo::vector<int, no_prop> b({4, 5}, no_prop(2));
        a = b;  // not propagated
        EXPECT_EQ(a.get_allocator().id, 1);
        b = std::move(a);  // unequal and not propagated: element-wise move
        EXPECT_EQ(b.get_allocator().id, 2);
        EXPECT_EQ(b, (relo::vector<int, no_prop>({4, 5}, no_prop(3))));
        relo::vector<int, no_prop> c(std::move(b), no_prop(4));  // allocator-extended move into another arena
        EXPECT_EQ(c.get_allocator().id, 4);
        EXPECT_EQ(c.size(), 2u);
    }
    {
        relo::vector<int, all_prop> a({1, 2, 3}, all_prop(1));
        relo::vector<int, all_prop> b({4, 5}, all_prop(2));
        a = b;
        EXPECT_EQ(a.get_allocator().id, 2);
        relo::vector<int, all_prop> c({9}, all_prop(3));
        c = std::move(a);
        EXPECT_EQ(c.get_allocator().id, 2);
        EXPECT_EQ(c, b);
        relo::vector<int, all_prop> d({7}, all_prop(5));
        d.swap(c);
        EXPECT_EQ(d.get_allocator().id, 2);
        EXPECT_EQ(c.get_allocator().id, 5);
    }
    EXPECT_EQ(allocation_log::outstanding, 0);
}

TEST(Vector, PageAllocatorReportsUsableCapacity) {
    relo::vector<char> v;
    v.push_back('x');
    EXPECT_GE(v.capacity(), 24u) << "the first allocation holds at least 24 bytes";
}

// Clang before 16 cannot compile libstdc++ 12's range adaptors; the members themselves are tested with GCC.
#if RELO_HAS_RANGES && !(defined(__clang__) && __clang_major__ < 16)
TEST(Vector, RangeMembers) {
    relo::vector<int> v;
    v.append_range(std::views::iota(0, 5));
    v.insert_range(v.begin() + 1, std::views::iota(10, 12));
    EXPECT_EQ(v, (relo::vector<int>{0, 10, 11, 1, 2, 3, 4}));
    v.assign_range(std::views::iota(3, 5) | std::views::transform([](int x) { return x * 2; }));
    EXPECT_EQ(v, (relo::vector<int>{6, 8}));
    std::vector<int> contiguous{1, 2, 3};
    v.append_range(contiguous);
    EXPECT_EQ(v, (relo::vector<int>{6, 8, 1, 2, 3}));
}
#endif

#if RELO_HAS_CONSTEXPR_ALLOC
constexpr int constant_evaluated_workout() {
    relo::vector<int> v;
    for (int i = 0; i < 100; ++i) v.push_back(i);
    v.insert(v.begin() + 10, v[20]);
    v.erase(v.begin(), v.begin() + 5);
    v.insert(v.begin(), v.begin() + 1, v.begin() + 4);
    v.resize(50);
    v.shrink_to_fit();
    relo::vector<int> w = v;
    w.assign(3, 7);
    relo::vector<int, std::allocator<int>> x{1, 2, 3};
    x.reserve(100);
    int sum = 0;
    for (int e : v) sum += e;
    return sum + static_cast<int>(w.size()) * 1000 + x.back() * 100000 + (v == v ? 1000000 : 0);
}
// The same steps on std::vector at run time give the reference value below (see the test).
static_assert(constant_evaluated_workout() == 1'000'000 + 300'000 + 3'000 + 1306);

// In a constant expression resize_for_overwrite value-initializes (nothing may stay indeterminate there).
constexpr int constant_evaluated_resize_for_overwrite() {
    relo::vector<int> v(3, 9);
    v.resize_for_overwrite(10);
    int sum = 0;
    for (int e : v) sum += e;
    return sum;
}
static_assert(constant_evaluated_resize_for_overwrite() == 27);

// The iterators in a constant expression: decremented end(), conversion, mixed difference.
constexpr int constant_evaluated_iterators() {
    relo::vector<int> v{1, 2, 3};
    const auto last = --v.end();
    const relo::vector<int>::const_iterator first = v.begin();
    return *last * 10 + static_cast<int>(v.cend() - first) * 100 + *std::prev(v.end(), 2);
}
static_assert(constant_evaluated_iterators() == 30 + 300 + 2);

TEST(Vector, UsableInConstantExpressions) {
    std::vector<int> v;
    for (int i = 0; i < 100; ++i) v.push_back(i);
    v.insert(v.begin() + 10, 20);
    v.erase(v.begin(), v.begin() + 5);
    const std::vector<int> part(v.begin() + 1, v.begin() + 4);
    v.insert(v.begin(), part.begin(), part.end());
    v.resize(50);
    EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 1306);
    EXPECT_EQ(constant_evaluated_workout(), 1'000'000 + 300'000 + 3'000 + 1306);
}
#endif

TEST(Vector, ShiftingInsideTheStorageAssigns) {
    shifting_inside_the_storage_assigns<relo::vector<operation_counter>>();
    shifting_inside_the_storage_assigns<relo::vector<operation_counter, std::allocator<operation_counter>>>();
}

// emplace_back hands the constructor the caller's own arguments, also when it grows: a constructor that
// takes a scalar by && may change it (a pointer it takes over), as std::vector's would see.
TEST(Vector, EmplaceGivesTheConstructorTheCallersScalars) {
    struct taking_over {
        int* p;
        explicit taking_over(int*&& q) noexcept : p(std::exchange(q, nullptr)) {}
        taking_over(taking_over&& o) noexcept : p(std::exchange(o.p, nullptr)) {}
        taking_over& operator=(taking_over&& o) noexcept {
            std::swap(p, o.p);
            return *this;
        }
        ~taking_over() { delete p; }
    };
    relo::vector<taking_over> v;
    std::vector<int> taken;
    for (int i = 0; i < 200; ++i) {
        int* q = new int(i);
        const bool grows = v.size() == v.capacity();
        v.emplace_back(std::move(q));
        EXPECT_EQ(q, nullptr) << "element " << i << (grows ? ", growing" : "");
        delete q;  // (nothing: the element owns it)
    }
    for (std::size_t i = 0; i < v.size(); ++i) taken.push_back(*v[i].p);
    std::vector<int> expected(200);
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(taken, expected);
}

}  // namespace
}  // namespace relo_test
