// [sequence.reqmts] (sequence containers) for relo::vector, small_vector and inplace_vector: every
// expression of the clause against std::vector as the model, and the requirements each expression puts
// on T, which must be all it asks (a type that offers no more must compile).
#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "conformance.hpp"

namespace conformance {
namespace {

template <class F>
class sequence_reqmts : public ::testing::Test {};
TYPED_TEST_SUITE(sequence_reqmts, all_families, family_names);

// X(n, t), X(i, j) (input and forward iterators), X(il), a = il, a.assign(...).
TYPED_TEST(sequence_reqmts, construction_and_assignment) {
    using X = typename TypeParam::template type<int>;
    const X filled(5, 7);
    EXPECT_EQ(contents(filled), std::vector<int>(5, 7));

    const std::vector<int> model = random_values(30, 2);
    const std::list<int> list(model.begin(), model.end());
    EXPECT_EQ(contents(X(list.begin(), list.end())), model);

    std::ostringstream text;
    for (int x : model) text << x << ' ';
    std::istringstream in(text.str());
    const X from_input{std::istream_iterator<int>(in), std::istream_iterator<int>()};
    EXPECT_EQ(contents(from_input), model);

    const X from_list{1, 2, 3};
    EXPECT_EQ(contents(from_list), (std::vector<int>{1, 2, 3}));

    X a(3, 1);
    a = {4, 5};
    EXPECT_EQ(contents(a), (std::vector<int>{4, 5}));
    static_assert(std::is_same_v<decltype(a = {1}), X&>);
    a.assign(list.begin(), list.end());
    EXPECT_EQ(contents(a), model);
    a.assign({9, 8, 7});
    EXPECT_EQ(contents(a), (std::vector<int>{9, 8, 7}));
    a.assign(4, 2);
    EXPECT_EQ(contents(a), std::vector<int>(4, 2));
    std::istringstream in2(text.str());
    a.assign(std::istream_iterator<int>(in2), std::istream_iterator<int>());
    EXPECT_EQ(contents(a), model);
}

// a.emplace(p, args), a.insert(p, t), a.insert(p, rv), a.insert(p, n, t), a.insert(p, i, j),
// a.insert(p, il): each returns an iterator to the first inserted element (or p when nothing is).
TYPED_TEST(sequence_reqmts, insertion) {
    using X = typename TypeParam::template type<std::string>;
    std::vector<std::string> model;
    X a;
    std::mt19937 gen(3);
    for (int step = 0; step < 200; ++step) {
        const std::size_t at = model.empty() ? 0 : gen() % (model.size() + 1);
        const std::string s(gen() % 30, char('a' + step % 26));
        typename X::iterator it;
        switch (step % 6) {
            case 0:
                it = a.emplace(a.begin() + at, s.size(), 'e');
                model.emplace(model.begin() + at, s.size(), 'e');
                break;
            case 1:
                it = a.insert(a.cbegin() + at, s);
                model.insert(model.begin() + at, s);
                break;
            case 2: {
                std::string moved = s;
                it = a.insert(a.cbegin() + at, std::move(moved));
                model.insert(model.begin() + at, s);
                break;
            }
            case 3:
                it = a.insert(a.cbegin() + at, step % 3, s);
                model.insert(model.begin() + at, step % 3, s);
                break;
            case 4: {
                const std::list<std::string> more(step % 4, s);
                it = a.insert(a.cbegin() + at, more.begin(), more.end());
                model.insert(model.begin() + at, more.begin(), more.end());
                break;
            }
            default:
                it = a.insert(a.cbegin() + at, {s, s + "!"});
                model.insert(model.begin() + at, {s, s + "!"});
                break;
        }
        EXPECT_EQ(it - a.begin(), static_cast<std::ptrdiff_t>(at)) << "step " << step;
        ASSERT_EQ(contents(a), model) << "step " << step;
        if (model.size() > 50) {
            model.erase(model.begin(), model.begin() + 40);
            a.erase(a.begin(), a.begin() + 40);
        }
    }
}

// a.erase(q) and a.erase(q1, q2) return the iterator after the erased elements; a.clear() empties.
TYPED_TEST(sequence_reqmts, erasure) {
    using X = typename TypeParam::template type<int>;
    std::vector<int> model = random_values(60, 4);
    X a(model.begin(), model.end());
    std::mt19937 gen(5);
    while (!model.empty()) {
        const std::size_t at = gen() % model.size();
        if (gen() % 2 == 0) {
            const auto it = a.erase(a.cbegin() + at);
            model.erase(model.begin() + at);
            EXPECT_EQ(it - a.begin(), static_cast<std::ptrdiff_t>(at));
        } else {
            const std::size_t n = std::min<std::size_t>(gen() % 5, model.size() - at);
            const auto it = a.erase(a.cbegin() + at, a.cbegin() + at + n);
            model.erase(model.begin() + at, model.begin() + at + n);
            EXPECT_EQ(it - a.begin(), static_cast<std::ptrdiff_t>(at));
        }
        ASSERT_EQ(contents(a), model);
    }
    a.assign(10, 1);
    a.clear();
    EXPECT_TRUE(a.empty());
    static_assert(noexcept(a.clear()));
}

// front, back, emplace_back, push_back, pop_back, a[n], a.at(n) (std::out_of_range beyond size()).
TYPED_TEST(sequence_reqmts, optional_operations) {
    using X = typename TypeParam::template type<std::string>;
    X a;
    std::string& e = a.emplace_back(3, 'x');
    EXPECT_EQ(&e, &a.back());
    static_assert(std::is_same_v<decltype(a.emplace_back()), std::string&>);
    a.push_back("two");
    std::string three = "three";
    a.push_back(std::move(three));
    EXPECT_EQ(a.front(), "xxx");
    EXPECT_EQ(a.back(), "three");
    EXPECT_EQ(a[1], "two");
    EXPECT_EQ(a.at(2), "three");
    EXPECT_THROW((void)a.at(3), std::out_of_range);
    const X& ca = a;
    static_assert(std::is_same_v<decltype(ca[0]), const std::string&>);
    static_assert(std::is_same_v<decltype(ca.at(0)), const std::string&>);
    static_assert(std::is_same_v<decltype(ca.front()), const std::string&>);
    EXPECT_THROW((void)ca.at(3), std::out_of_range);
    a.pop_back();
    EXPECT_EQ(contents(a), (std::vector<std::string>{"xxx", "two"}));
}

// The requirements on T are only those the clause names: X(n) needs DefaultInsertable, X(n, t) and
// X(i, j) with forward iterators CopyInsertable / EmplaceConstructible, never assignment.
TYPED_TEST(sequence_reqmts, requirements_on_elements_are_minimal) {
    using D = typename TypeParam::template type<default_only>;
    const D d(6);
    ASSERT_EQ(d.size(), 6u);
    EXPECT_EQ(d[5].value, 41);

    using N = typename TypeParam::template type<not_assignable>;
    const std::list<not_assignable> source{not_assignable(1), not_assignable(2), not_assignable(3),
                                           not_assignable(4), not_assignable(5), not_assignable(6)};
    const N from_range(source.begin(), source.end());
    ASSERT_EQ(from_range.size(), 6u);
    EXPECT_EQ(from_range[5].value, 6);
    const N filled(6, not_assignable(9));
    EXPECT_EQ(filled[5].value, 9);
    const N copy(from_range);
    EXPECT_EQ(copy[2].value, 3);
    N pushed;
    for (int i = 0; i < 6; ++i) pushed.push_back(not_assignable(i));
    EXPECT_EQ(pushed[5].value, 5);
    N listed{not_assignable(1), not_assignable(2)};
    EXPECT_EQ(listed.size(), 2u);

    using M = typename TypeParam::template type<trivial_move_only>;
    M m;
    for (int i = 0; i < 20; ++i) m.push_back(trivial_move_only(i));
    for (int i = 0; i < 20; ++i) m.emplace_back(i);
    EXPECT_EQ(m[39].value, 19);
    M m2(std::move(m));
    EXPECT_EQ(m2.size(), 40u);
}

// A range whose iterator overloads the comma operator, and a range of volatile elements.
TYPED_TEST(sequence_reqmts, unusual_iterators) {
    using X = typename TypeParam::template type<int>;
    const std::vector<int> model = random_values(20, 6);
    const X from_input(hostile_input_iterator(model.data()), hostile_input_iterator(model.data() + model.size()));
    EXPECT_EQ(contents(from_input), model);
    const X from_forward(hostile_forward_iterator(model.data()), hostile_forward_iterator(model.data() + model.size()));
    EXPECT_EQ(contents(from_forward), model);
    X a(5, 1);
    a.assign(hostile_forward_iterator(model.data()), hostile_forward_iterator(model.data() + model.size()));
    EXPECT_EQ(contents(a), model);
    a.assign(hostile_input_iterator(model.data()), hostile_input_iterator(model.data() + 3));
    EXPECT_EQ(contents(a), std::vector<int>(model.begin(), model.begin() + 3));
    a.insert(a.begin() + 1, hostile_input_iterator(model.data()), hostile_input_iterator(model.data() + 4));
    a.insert(a.begin() + 2, hostile_forward_iterator(model.data()), hostile_forward_iterator(model.data() + 4));
    EXPECT_EQ(a.size(), 11u);

    volatile int raw[4] = {4, 3, 2, 1};
    const X from_volatile(raw, raw + 4);
    EXPECT_EQ(contents(from_volatile), (std::vector<int>{4, 3, 2, 1}));
    a.assign(raw, raw + 2);
    EXPECT_EQ(contents(a), (std::vector<int>{4, 3}));
    a.insert(a.end(), raw + 2, raw + 4);
    EXPECT_EQ(contents(a), (std::vector<int>{4, 3, 2, 1}));
}

// The combinations of trivial and user-provided special members all work, element by element as the
// model does.
template <class X>
void exercise_special() {
    using T = typename X::value_type;
    std::vector<int> model;
    X a;
    for (int i = 0; i < 12; ++i) {
        a.push_back(T(i));
        model.push_back(i);
    }
    a.insert(a.begin() + 3, T(100));
    model.insert(model.begin() + 3, 100);
    a.erase(a.begin() + 1);
    model.erase(model.begin() + 1);
    X b(a);
    X c;
    c = b;
    X d(std::move(b));
    c = std::move(d);
    c.emplace(c.begin(), 7);
    model.insert(model.begin(), 7);
    std::vector<int> got;
    for (const T& t : c) got.push_back(t.value);
    EXPECT_EQ(got, model);
}

template <class F, unsigned... Masks>
void exercise_specials(std::integer_sequence<unsigned, Masks...>) {
    (exercise_special<typename F::template type<special<Masks>>>(), ...);
}

// All 32 combinations, or where RELO_TEST_VARIANTS is 0 (tests/sequence_suite.hpp: a configuration that
// repeats the tests in another standard or system build) the 12 that hold every pair of members in each of
// their four states: none or all user-provided, each alone user-provided, each alone trivial. (The 32 are
// three quarters of this program's build.)
#if !defined(RELO_TEST_VARIANTS) || RELO_TEST_VARIANTS
using special_member_masks = std::make_integer_sequence<unsigned, 32>;
#else
using special_member_masks = std::integer_sequence<unsigned, 0, 31, 1, 2, 4, 8, 16, 30, 29, 27, 23, 15>;
#endif

TYPED_TEST(sequence_reqmts, every_combination_of_special_members) {
    exercise_specials<TypeParam>(special_member_masks{});
}

// emplace_back constructs the element in place, also when it grows: no temporary moved in.
TYPED_TEST(sequence_reqmts, emplace_back_constructs_in_place) {
    using X = typename TypeParam::template type<construction_counter>;
    X a;
    for (int i = 0; i < 30; ++i) {
        construction_counter::moves = 0;
        construction_counter::copies = 0;
        const std::size_t size_before = a.size();
        const bool grows = a.size() == a.capacity();
        a.emplace_back(i, -i);
        EXPECT_EQ(construction_counter::copies, 0);
        // Growth moves at most the existing elements (none when the block grows in place), and nothing
        // else: a temporary moved in would be one move more.
        EXPECT_LE(construction_counter::moves, grows ? static_cast<int>(size_before) : 0) << "push " << i;
    }
    EXPECT_EQ(a.back().a, 29);
}

}  // namespace
}  // namespace conformance
