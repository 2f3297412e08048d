// tests/constexpr_test.cpp — every member the standard makes constexpr, in a constant expression, for each
// relo container that claims it: relo::vector (C++20, as std::vector) and relo::inplace_vector (for trivial
// element types, as C++26's std::inplace_vector), with the free erase and erase_if. Each workout returns
// what it saw; the same workout on std::vector at run time is the model it must equal.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <vector>

#include <gtest/gtest.h>

#include "relo/inplace_vector.hpp"
#include "relo/vector.hpp"

namespace relo_test {
namespace {

#if RELO_HAS_CONSTEXPR_ALLOC

/// What a workout saw: each observation folded in, so that any one differing changes the result.
struct trace {
    std::uint64_t value = 0;
    std::uint64_t count = 0;
    constexpr void see(std::uint64_t x) {
        value = value * 1'000'003 + x + 1;
        ++count;
    }
    template <class V>
    constexpr void see_all(const V& v) {
        see(v.size());
        for (const auto& e : v) see(static_cast<std::uint64_t>(e));
    }
};

/// The members of std::vector's interface that are constexpr in C++20, in constant-evaluable steps.
template <class V>
constexpr trace vector_workout() {
    trace t;
    const std::initializer_list<int> list{5, 1, 4, 1, 5, 9, 2, 6};
    const int source[] = {3, 1, 4, 1, 5};
    // Constructors.
    V a;
    t.see(a.empty());
    V b(3);
    V c(4, 7);
    V d(std::begin(source), std::end(source));
    V e(list);
    V f(e);
    V g(std::move(f));
    t.see_all(b);
    t.see_all(c);
    t.see_all(d);
    t.see_all(e);
    t.see_all(g);
    // Assignment.
    a = d;
    t.see_all(a);
    a = std::move(g);
    t.see_all(a);
    a = {8, 6, 7};
    t.see_all(a);
    a.assign(2, 3);
    t.see_all(a);
    a.assign(std::begin(source), std::end(source));
    t.see_all(a);
    a.assign({4, 2});
    t.see_all(a);
    // Iterators, every kind.
    int sum = 0;
    for (auto it = e.begin(); it != e.end(); ++it) sum += *it;
    for (auto it = e.cbegin(); it != e.cend(); ++it) sum += *it * 2;
    for (auto it = e.rbegin(); it != e.rend(); ++it) sum = sum * 3 + *it;
    for (auto it = e.crbegin(); it != e.crend(); ++it) sum -= *it;
    t.see(static_cast<std::uint64_t>(sum));
    t.see(static_cast<std::uint64_t>(e.end() - e.begin()));
    t.see(e.begin() < e.end());
    t.see(static_cast<std::uint64_t>(std::count(e.cbegin(), e.cend(), 5)));
    // Capacity.
    t.see(e.size());
    t.see(e.max_size() >= e.size());
    e.reserve(e.size() + 16);  // (grows: a new block in a constant expression)
    t.see(e.capacity() >= e.size() + 16);
    e.resize(10);
    t.see_all(e);
    e.resize(12, 9);
    t.see_all(e);
    e.resize(6);
    t.see_all(e);
    e.shrink_to_fit();
    t.see(e.capacity() >= e.size());
    // Access.
    t.see(static_cast<std::uint64_t>(e[2] + e.at(3) * 10 + e.front() * 100 + e.back() * 1000 + *e.data() * 10000));
    const V& ce = e;
    t.see(static_cast<std::uint64_t>(ce[1] + ce.at(0) + ce.front() + ce.back() + ce.data()[5]));
    // Modifiers.
    e.push_back(11);
    const int twelve = 12;
    e.push_back(twelve);
    t.see(static_cast<std::uint64_t>(e.emplace_back(13)));
    e.pop_back();
    t.see_all(e);
    auto at = e.insert(e.begin() + 1, 20);
    t.see(static_cast<std::uint64_t>(at - e.begin()));
    at = e.insert(e.cbegin() + 2, twelve);
    at = e.insert(e.begin(), 2, 21);
    t.see(static_cast<std::uint64_t>(at - e.begin()));
    at = e.insert(e.end() - 1, std::begin(source), std::end(source));
    t.see(static_cast<std::uint64_t>(at - e.begin()));
    at = e.insert(e.begin() + 3, {30, 31});
    at = e.emplace(e.begin() + 4, 40);
    t.see(static_cast<std::uint64_t>(*at));
    t.see_all(e);
    at = e.erase(e.begin() + 2);
    t.see(static_cast<std::uint64_t>(at - e.begin()));
    at = e.erase(e.begin() + 1, e.begin() + 4);
    t.see(static_cast<std::uint64_t>(at - e.begin()));
    at = e.erase(e.begin(), e.begin());  // (an empty range)
    t.see_all(e);
    V other{1, 2};
    e.swap(other);
    t.see_all(e);
    t.see_all(other);
    using std::swap;
    swap(e, other);
    t.see_all(e);
    // Comparison, and the free erasure functions.
    t.see(e == other);
    t.see(e != other);
    t.see(e < other);
    t.see(V{1, 2} == V{1, 2});
#if defined(__cpp_lib_three_way_comparison)
    t.see((e <=> other) < 0);
#endif
    t.see(static_cast<std::uint64_t>(erase(e, 5)));
    t.see(static_cast<std::uint64_t>(erase_if(e, [](int x) { return x % 3 == 0; })));
    t.see_all(e);
    e.clear();
    t.see(e.empty());
    return t;
}

/// The members C++26's std::inplace_vector adds, on relo::inplace_vector<int, N>: the try_ and unchecked_
/// appends (a model on std::vector with a bound of N does what they do).
template <class V, std::size_t N>
constexpr trace bounded_appends_workout() {
    trace t;
    V v;
    for (int i = 0; i < static_cast<int>(N) + 2; ++i) {
        if constexpr (std::is_same_v<V, std::vector<int>>) {
            const bool room = v.size() < N;
            if (room) v.push_back(i);
            t.see(room);
            if (room) t.see(static_cast<std::uint64_t>(v.back()));
        } else {
            const auto kept = (i % 2 == 0) ? v.try_push_back(i) : v.try_emplace_back(i);
            t.see(kept.has_value());
            if (kept) t.see(static_cast<std::uint64_t>(*kept));
        }
    }
    v.clear();
    for (int i = 0; i < static_cast<int>(N); ++i) {
        if constexpr (std::is_same_v<V, std::vector<int>>) {
            v.push_back(i * 3);
        } else if (i % 2 == 0) {
            v.unchecked_push_back(i * 3);
        } else {
            v.unchecked_emplace_back(i * 3);
        }
    }
    t.see_all(v);
    return t;
}

#if RELO_HAS_RANGES
/// The C++23 range members (relo has them in C++20 builds too): the model spells each with iterators.
template <class V>
constexpr trace ranges_workout() {
    trace t;
    const int source[] = {2, 7, 1, 8};
#if RELO_HAS_FROM_RANGE
    V v(std::from_range, source);
#else
    V v;
    v.append_range(source);
#endif
    t.see_all(v);
    v.append_range(source);
    t.see_all(v);
    const auto at = v.insert_range(v.begin() + 2, source);
    t.see(static_cast<std::uint64_t>(at - v.begin()));
    t.see_all(v);
    v.assign_range(source);
    t.see_all(v);
    return t;
}
template <class V>
constexpr trace ranges_model() {
    trace t;
    const int source[] = {2, 7, 1, 8};
    V v(std::begin(source), std::end(source));
    t.see_all(v);
    v.insert(v.end(), std::begin(source), std::end(source));
    t.see_all(v);
    const auto at = v.insert(v.begin() + 2, std::begin(source), std::end(source));
    t.see(static_cast<std::uint64_t>(at - v.begin()));
    t.see_all(v);
    v.assign(std::begin(source), std::end(source));
    t.see_all(v);
    return t;
}
#endif

using inplace = relo::inplace_vector<int, 40>;
struct point {
    int x, y;
    friend constexpr bool operator==(point a, point b) { return a.x == b.x && a.y == b.y; }
};

// Each in a constant expression: a member that is not usable there fails to compile.
constexpr trace relo_vector = vector_workout<relo::vector<int>>();
constexpr trace relo_inplace = vector_workout<inplace>();
constexpr trace relo_inplace_bounded = bounded_appends_workout<relo::inplace_vector<int, 5>, 5>();
constexpr std::size_t points_erased = [] {
    relo::inplace_vector<point, 4> p{{1, 2}, {3, 4}, {1, 2}};
    relo::vector<point> q(p.begin(), p.end());
    return erase(p, point{1, 2}) * 10 + erase_if(q, [](point e) { return e.x == 3; }) + p.size() * 100;
}();
static_assert(points_erased == 121);
#if RELO_HAS_RANGES
constexpr trace relo_vector_ranges = ranges_workout<relo::vector<int>>();
constexpr trace relo_inplace_ranges = ranges_workout<inplace>();
#endif

TEST(ConstantEvaluation, EveryConstexprMemberOfVectorAsStdVectorDoes) {
    const trace model = vector_workout<std::vector<int>>();
    EXPECT_GT(model.count, 100u);
    EXPECT_EQ(relo_vector.count, model.count);
    EXPECT_EQ(relo_vector.value, model.value);
    // And at run time the same.
    EXPECT_EQ(vector_workout<relo::vector<int>>().value, model.value);
}

TEST(ConstantEvaluation, EveryConstexprMemberOfInplaceVectorAsStdVectorDoes) {
    const trace model = vector_workout<std::vector<int>>();
    EXPECT_EQ(relo_inplace.count, model.count);
    EXPECT_EQ(relo_inplace.value, model.value);
    const trace bounded = bounded_appends_workout<std::vector<int>, 5>();
    EXPECT_EQ(relo_inplace_bounded.count, bounded.count);
    EXPECT_EQ(relo_inplace_bounded.value, bounded.value);
}

#if RELO_HAS_RANGES
TEST(ConstantEvaluation, RangeMembers) {
    const trace model = ranges_model<std::vector<int>>();
    EXPECT_EQ(relo_vector_ranges.value, model.value);
    EXPECT_EQ(relo_inplace_ranges.value, model.value);
}
#endif

#else
TEST(ConstantEvaluation, NeedsCxx20) { GTEST_SKIP() << "constexpr containers need C++20"; }
#endif

}  // namespace
}  // namespace relo_test
