// [vector.capacity], [vector.modifiers] and [vector.erasure] for relo::vector and small_vector (and
// inplace_vector where the clause applies to it, [inplace.vector.capacity] / [inplace.vector.erasure]).
#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "conformance.hpp"

namespace conformance {
namespace {

template <class F>
class vector_capacity_erasure : public ::testing::Test {};
TYPED_TEST_SUITE(vector_capacity_erasure, all_families, family_names);

template <class F>
class growable_capacity : public ::testing::Test {};
TYPED_TEST_SUITE(growable_capacity, allocator_aware_families, family_names);

// reserve(n): capacity() >= n afterwards, and the elements are kept; beyond max_size(), length_error.
// No reallocation while size() stays within the capacity reserve() gave: pointers stay valid.
TYPED_TEST(growable_capacity, reserve) {
    using X = typename TypeParam::template type<std::string>;
    X a;
    for (int i = 0; i < 6; ++i) a.push_back(std::to_string(i));
    const auto before = contents(a);
    a.reserve(100);
    EXPECT_GE(a.capacity(), 100u);
    EXPECT_EQ(contents(a), before);
    const std::string* first = a.data();
    while (a.size() < 100) a.push_back("x");
    EXPECT_EQ(a.data(), first) << "no reallocation within the reserved capacity";
    EXPECT_THROW(a.reserve(a.max_size() + 1), std::length_error);
    const std::size_t cap = a.capacity();
    a.reserve(3);  // smaller: no effect
    EXPECT_EQ(a.capacity(), cap);
}

// shrink_to_fit: a non-binding request; the contents are kept and capacity() >= size().
TYPED_TEST(growable_capacity, shrink_to_fit) {
    using X = typename TypeParam::template type<std::string>;
    X a;
    for (int i = 0; i < 50; ++i) a.push_back(std::string(20, char('a' + i % 26)));
    a.erase(a.begin() + 5, a.end());
    const auto before = contents(a);
    a.shrink_to_fit();
    EXPECT_EQ(contents(a), before);
    EXPECT_GE(a.capacity(), a.size());
    a.clear();
    a.shrink_to_fit();
    EXPECT_TRUE(a.empty());
}

// resize(n) value-initializes the new elements; resize(n, t) copies t; shrinking erases from the end.
TYPED_TEST(vector_capacity_erasure, resize) {
    using X = typename TypeParam::template type<int>;
    X a(3, 7);
    a.resize(6);
    EXPECT_EQ(contents(a), (std::vector<int>{7, 7, 7, 0, 0, 0}));
    a.resize(8, 5);
    EXPECT_EQ(contents(a), (std::vector<int>{7, 7, 7, 0, 0, 0, 5, 5}));
    a.resize(2);
    EXPECT_EQ(contents(a), (std::vector<int>{7, 7}));
    a.resize(4, a[0]);  // the value may be an element
    EXPECT_EQ(contents(a), (std::vector<int>{7, 7, 7, 7}));
    if constexpr (TypeParam::fixed_capacity) {
        // Nothing reallocates: DefaultInsertable is all resize(n) asks ([inplace.vector.capacity]).
        using D = typename TypeParam::template type<default_only>;
        D d;
        d.resize(3);
        EXPECT_EQ(d[2].value, 41);
    }
}

// erase(c, value) and erase_if(c, pred) remove the matching elements and return how many.
TYPED_TEST(vector_capacity_erasure, erase_and_erase_if) {
    using X = typename TypeParam::template type<int>;
    std::vector<int> model = random_values(50, 9);
    for (int& x : model) x %= 5;
    X a(model.begin(), model.end());
    const auto removed = erase(a, 3);
    static_assert(std::is_same_v<decltype(removed), const typename X::size_type>);
    const auto expected = static_cast<std::size_t>(std::count(model.begin(), model.end(), 3));
    model.erase(std::remove(model.begin(), model.end(), 3), model.end());
    EXPECT_EQ(removed, expected);
    EXPECT_EQ(contents(a), model);
    const auto odd = [](int x) { return x % 2 != 0; };
    const auto removed_odd = erase_if(a, odd);
    const auto expected_odd = static_cast<std::size_t>(std::count_if(model.begin(), model.end(), odd));
    model.erase(std::remove_if(model.begin(), model.end(), odd), model.end());
    EXPECT_EQ(removed_odd, expected_odd);
    EXPECT_EQ(contents(a), model);
    // The value's type defaults to the element type (C++26's erase), so a braced value works.
    a.assign({0, 4, 0, 2});
    EXPECT_EQ(erase(a, {}), 2u);
    EXPECT_EQ(contents(a), (std::vector<int>{4, 2}));
}

// relo's erase and erase_if take relo's containers only: for others, the standard's are found.
static_assert(relo::detail::is_relo_sequence_v<relo::vector<int>> &&
              relo::detail::is_relo_sequence_v<relo::small_vector<int, 4>> &&
              relo::detail::is_relo_sequence_v<relo::inplace_vector<int, 4>> &&
              relo::detail::is_relo_sequence_v<relo::pinned_vector<int>>);
static_assert(!relo::detail::is_relo_sequence_v<std::vector<int>> && !relo::detail::is_relo_sequence_v<int>);

// data(): [data(), data() + size()) is a valid range, and data() == &front() when not empty.
TYPED_TEST(vector_capacity_erasure, data) {
    using X = typename TypeParam::template type<int>;
    X a{1, 2, 3};
    EXPECT_EQ(a.data(), &a.front());
    EXPECT_EQ(a.data() + a.size(), &a.back() + 1);
    const X& ca = a;
    static_assert(std::is_same_v<decltype(ca.data()), const int*>);
    static_assert(std::is_same_v<decltype(a.data()), int*>);
}

}  // namespace
}  // namespace conformance
