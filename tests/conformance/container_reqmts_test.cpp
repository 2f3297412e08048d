// [container.reqmts] (general container requirements) and [container.opt.reqmts] (ordering), for
// relo::vector, small_vector and inplace_vector.
#include <algorithm>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#if __cplusplus >= 202002L
#include <compare>
#include <concepts>
#endif

#include "conformance.hpp"

namespace conformance {
namespace {

template <class F>
class container_reqmts : public ::testing::Test {};
TYPED_TEST_SUITE(container_reqmts, all_families, family_names);

// Types: value_type, reference, const_reference, iterator, const_iterator, difference_type, size_type.
TYPED_TEST(container_reqmts, member_types) {
    using X = typename TypeParam::template type<std::string>;
    static_assert(std::is_same_v<typename X::value_type, std::string>);
    static_assert(std::is_same_v<typename X::reference, std::string&>);
    static_assert(std::is_same_v<typename X::const_reference, const std::string&>);
    using It = typename X::iterator;
    using CIt = typename X::const_iterator;
    static_assert(std::is_same_v<typename std::iterator_traits<It>::value_type, std::string>);
    static_assert(std::is_same_v<typename std::iterator_traits<CIt>::value_type, std::string>);
    static_assert(std::is_convertible_v<It, CIt>, "iterator converts to const_iterator");
    static_assert(std::is_base_of_v<std::random_access_iterator_tag, typename std::iterator_traits<It>::iterator_category>);
#if __cplusplus >= 202002L
    static_assert(std::contiguous_iterator<It> && std::contiguous_iterator<CIt>);
#endif
    static_assert(std::is_signed_v<typename X::difference_type>);
    static_assert(std::is_same_v<typename X::difference_type, typename std::iterator_traits<It>::difference_type>);
    static_assert(std::is_unsigned_v<typename X::size_type>);
    static_assert(std::numeric_limits<typename X::size_type>::max() >=
                  static_cast<std::make_unsigned_t<typename X::difference_type>>(
                      std::numeric_limits<typename X::difference_type>::max()));
    static_assert(std::is_same_v<typename X::reverse_iterator, std::reverse_iterator<It>>);
    static_assert(std::is_same_v<typename X::const_reverse_iterator, std::reverse_iterator<CIt>>);
}

// X u; X u{}; X() : empty. X u(a); X u = a; u == a. X u(rv); u equals rv's value before.
TYPED_TEST(container_reqmts, construction_copy_and_move) {
    using X = typename TypeParam::template type<std::string>;
    X u;
    EXPECT_TRUE(u.empty());
    EXPECT_EQ(X{}.size(), 0u);
    EXPECT_TRUE(X().empty());

    X a;
    for (int i = 0; i < 10; ++i) a.push_back(std::string(20, char('a' + i)));
    X copy(a);
    EXPECT_TRUE(copy == a);
    X copy2 = a;
    EXPECT_EQ(contents(copy2), contents(a));
    const auto before = contents(a);
    X moved(std::move(copy));
    EXPECT_EQ(contents(moved), before);
    X moved2 = std::move(moved);
    EXPECT_EQ(contents(moved2), before);
}

// r = a: r == a. r = rv: r equals rv's value before. a.swap(b), swap(a, b): contents exchanged.
TYPED_TEST(container_reqmts, assignment_and_swap) {
    using X = typename TypeParam::template type<std::string>;
    X a, b, r;
    for (int i = 0; i < 7; ++i) a.push_back(std::to_string(i));
    for (int i = 0; i < 3; ++i) b.push_back(std::string(30, 'x'));
    r.push_back("old");
    r = a;
    EXPECT_TRUE(r == a);
    const auto a_before = contents(a);
    const auto b_before = contents(b);
    X t;
    t = std::move(r);
    EXPECT_EQ(contents(t), a_before);
    a.swap(b);
    EXPECT_EQ(contents(a), b_before);
    EXPECT_EQ(contents(b), a_before);
    using std::swap;
    swap(a, b);
    EXPECT_EQ(contents(a), a_before);
    EXPECT_EQ(contents(b), b_before);
    static_assert(std::is_same_v<decltype(a.swap(b)), void>);
    static_assert(std::is_same_v<decltype(r = a), X&>);
    static_assert(std::is_same_v<decltype(r = std::move(a)), X&>);
}

// begin/end/cbegin/cend; size() == distance(begin, end); max_size >= size; empty() == (begin == end).
TYPED_TEST(container_reqmts, iteration_and_size) {
    using X = typename TypeParam::template type<int>;
    const std::vector<int> model = random_values(40, 1);
    X a(model.begin(), model.end());
    const X& ca = a;
    static_assert(std::is_same_v<decltype(a.begin()), typename X::iterator>);
    static_assert(std::is_same_v<decltype(ca.begin()), typename X::const_iterator>);
    static_assert(std::is_same_v<decltype(a.cbegin()), typename X::const_iterator>);
    static_assert(std::is_same_v<decltype(a.cend()), typename X::const_iterator>);
    EXPECT_EQ(static_cast<std::size_t>(std::distance(a.begin(), a.end())), a.size());
    EXPECT_EQ(a.cbegin(), ca.begin());
    EXPECT_EQ(a.cend(), ca.end());
    EXPECT_GE(a.max_size(), a.size());
    EXPECT_EQ(a.empty(), a.begin() == a.end());
    EXPECT_TRUE(std::equal(a.rbegin(), a.rend(), model.rbegin(), model.rend()));
    EXPECT_TRUE(std::equal(a.crbegin(), a.crend(), model.rbegin(), model.rend()));
    typename X::const_iterator c = a.begin();  // iterator -> const_iterator
    EXPECT_EQ(c, a.cbegin());
    EXPECT_TRUE(a.begin() == a.cbegin());  // mixed comparison
    static_assert(noexcept(a.size()) && noexcept(a.empty()) && noexcept(a.begin()) && noexcept(a.max_size()));
}

// a == b: same size and elements equal; a != b is !(a == b).
TYPED_TEST(container_reqmts, equality) {
    using X = typename TypeParam::template type<int>;
    for (unsigned seed = 0; seed < 30; ++seed) {
        const std::vector<int> m1 = random_values(seed % 7, seed);
        std::vector<int> m2 = m1;
        if (seed % 3 == 0 && !m2.empty()) m2.back() += 1;
        if (seed % 5 == 0) m2.push_back(1);
        const X a(m1.begin(), m1.end()), b(m2.begin(), m2.end());
        EXPECT_EQ(a == b, m1 == m2);
        EXPECT_EQ(a != b, m1 != m2);
        static_assert(std::is_convertible_v<decltype(a == b), bool>);
    }
}

#if __cplusplus >= 202002L
struct no_operators {
    int v;
};
struct less_only {
    int v;
    bool operator<(const less_only& o) const { return v < o.v; }
    bool operator==(const less_only& o) const { return v == o.v; }
};
struct less_without_equality {
    int v;
    bool operator<(const less_without_equality& o) const { return v < o.v; }
    bool operator==(const less_without_equality&) const = delete;
};

// [container.opt.reqmts]: a <=> b is lexicographical_compare_three_way with synth-three-way, and exists
// only when synth-three-way does; == is declared whatever T ([vector.syn]), so what the concepts say of a
// container is what they say of std::vector (Beman's compare test: with < and a deleted ==, <=> and ==
// are both declared, and std::three_way_comparable is true).
TYPED_TEST(container_reqmts, three_way_comparison) {
    using X = typename TypeParam::template type<int>;
    for (unsigned seed = 0; seed < 40; ++seed) {
        std::vector<int> m1 = random_values(seed % 6, seed), m2 = random_values((seed / 2) % 6, seed + 100);
        for (int& x : m1) x %= 3;
        for (int& x : m2) x %= 3;
        const X a(m1.begin(), m1.end()), b(m2.begin(), m2.end());
        EXPECT_EQ(a <=> b, m1 <=> m2);
        EXPECT_EQ(a < b, m1 < m2);
        EXPECT_EQ(a >= b, m1 >= m2);
    }
    static_assert(std::same_as<std::compare_three_way_result_t<X>, std::strong_ordering>);
    using XL = typename TypeParam::template type<less_only>;
    static_assert(std::same_as<std::compare_three_way_result_t<XL>, std::weak_ordering>);
    using XD = typename TypeParam::template type<double>;
    static_assert(std::same_as<std::compare_three_way_result_t<XD>, std::partial_ordering>);
    using XN = typename TypeParam::template type<no_operators>;
    static_assert(!std::three_way_comparable<XN>, "no <=> when the elements have neither <=> nor <");
    static_assert(std::equality_comparable<XN> == std::equality_comparable<std::vector<no_operators>>);
    static_assert(std::equality_comparable<XL> && std::three_way_comparable<XL>);
    using XW = typename TypeParam::template type<less_without_equality>;
    static_assert(std::three_way_comparable<XW> == std::three_way_comparable<std::vector<less_without_equality>>);
    static_assert(std::three_way_comparable<XW>);
    const XL l1{less_only{1}, less_only{2}}, l2{less_only{1}, less_only{3}};
    EXPECT_TRUE((l1 <=> l2) == std::weak_ordering::less);
}
#endif

// Hostile element types and hostile argument-dependent lookup compile and work.
TYPED_TEST(container_reqmts, hostile_operators) {
    using X = typename TypeParam::template type<hostile>;
    X a;
    for (int i = 0; i < 10; ++i) a.push_back(hostile(i));
    X b(a);
    X c;
    c = a;
    c = std::move(b);
    a.insert(a.begin() + 1, hostile(99));
    a.erase(a.begin() + 2);
    a.assign(5, hostile(3));
    EXPECT_EQ(a.size(), 5u);
    EXPECT_EQ(c.size(), 10u);
    EXPECT_TRUE(a != c);
    a.swap(c);
    EXPECT_EQ(a.size(), 10u);

    using G = typename TypeParam::template type<greedy::element>;
    G g;
    for (int i = 0; i < 10; ++i) g.emplace_back(i);
    G h(g);
    G k;
    k = g;
    k = std::move(h);
    g.swap(k);
    g.insert(g.begin(), greedy::element(5));
    g.erase(g.begin());
    EXPECT_TRUE(g == k);
}

}  // namespace
}  // namespace conformance
