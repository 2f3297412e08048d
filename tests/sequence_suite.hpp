// tests/sequence_suite.hpp — the typed test suite every vector-like container of relo runs.
//
// Instantiate it with a list of container types:
//     using my_types = ::testing::Types<relo::vector<int>, ...>;
//     INSTANTIATE_TYPED_TEST_SUITE_P(vector, SequenceTest, my_types, numbered_types);
// Each test compares the container with a std::vector<int> model of the keys of its elements (see
// element_kinds.hpp) and checks at teardown that no element leaked or was destroyed twice.
// sequence_limit<C> tells the suite how many elements a container can hold (fixed-capacity containers).
//
// RELO_TEST_VARIANTS (1 unless the build says otherwise: tests/CMakeLists.txt): the lists also hold each
// container's further capacity, allocator and growth variants. Every list holds every element kind either
// way; the configurations of ./relo.sh test that repeat the suite in another standard or system build run
// it without the variants, which other configurations run in full (docs/testing.md).
#ifndef RELO_TESTS_SEQUENCE_SUITE_HPP
#define RELO_TESTS_SEQUENCE_SUITE_HPP

#ifndef RELO_TEST_VARIANTS
#define RELO_TEST_VARIANTS 1
#endif

#include <algorithm>
#include <cstddef>
#include <deque>
#include <iterator>
#include <list>
#include <memory>
#include <optional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "element_kinds.hpp"
#include "sequence_limit.hpp"

namespace relo_test {

/// GoogleTest's own names for the types of a typed suite (0, 1, 2, ...), given as the macros' last argument:
/// leaving it out leaves a variadic macro argument empty, which C++17 forbids (Clang's -Wpedantic says so).
struct numbered_types {
    template <class T>
    static std::string GetName(int index) { return std::to_string(index); }
};


/// A single-pass input iterator that makes the values of a list of keys as it goes (prvalues, so it also
/// feeds move-only kinds).
template <class T>
class key_input_iterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;

    key_input_iterator() = default;
    key_input_iterator(const std::vector<int>* keys, std::size_t i) : keys_(keys), i_(i) {}
    T operator*() const { return kind<T>::make((*keys_)[i_]); }
    key_input_iterator& operator++() {
        ++i_;
        return *this;
    }
    key_input_iterator operator++(int) {
        auto old = *this;
        ++i_;
        return old;
    }
    friend bool operator==(const key_input_iterator& a, const key_input_iterator& b) { return a.i_ == b.i_; }
    friend bool operator!=(const key_input_iterator& a, const key_input_iterator& b) { return a.i_ != b.i_; }

private:
    const std::vector<int>* keys_ = nullptr;
    std::size_t i_ = 0;
};

/// The same, multi-pass (forward), so containers may measure the range first.
template <class T>
class key_forward_iterator : public key_input_iterator<T> {
public:
    using iterator_category = std::forward_iterator_tag;
    using key_input_iterator<T>::key_input_iterator;
    key_forward_iterator& operator++() {
        key_input_iterator<T>::operator++();
        return *this;
    }
    key_forward_iterator operator++(int) {
        auto old = *this;
        ++*this;
        return old;
    }
};

template <class C>
class SequenceTest : public ::testing::Test {
protected:
    using T = typename C::value_type;
    using K = kind<T>;
    static constexpr bool copyable = std::is_copy_constructible_v<T>;
    static constexpr std::size_t limit = sequence_limit<C>::value;

    void SetUp() override {
        thrower::countdown = 0;
        live_before_ = K::live();
    }
    void TearDown() override { EXPECT_EQ(K::live(), live_before_) << "objects leaked or destroyed twice"; }

    static std::vector<int> iota(std::size_t n, int first = 1) {
        std::vector<int> v(n);
        std::iota(v.begin(), v.end(), first);
        return v;
    }
    static C make(const std::vector<int>& keys) {
        C c;
        for (int k : keys) c.push_back(K::make(k));
        return c;
    }
    /// The keys of c's elements, after checking the container's invariants.
    static std::vector<int> keys(const C& c) {
        EXPECT_GE(c.capacity(), c.size());
        EXPECT_EQ(static_cast<std::size_t>(c.end() - c.begin()), c.size());
        EXPECT_EQ(c.empty(), c.size() == 0);
        std::vector<int> out;
        std::size_t contiguous = 0;  // (one assertion, not one per element: most of the time at -O0)
        while (contiguous < c.size() && &c[contiguous] == c.data() + contiguous) ++contiguous;
        EXPECT_EQ(contiguous, c.size()) << "not contiguous";
        for (std::size_t i = 0; i < c.size(); ++i) out.push_back(K::key(c[i]));
        return out;
    }
    static std::size_t small(std::size_t n) { return std::min(n, limit); }
    /// Whether the container can hold n elements (tests with fixed contents need this many).
    static constexpr bool holds(std::size_t n) { return n <= limit; }

private:
    long live_before_ = 0;
};

/// Inside its capacity, an insertion or erasure in the middle shifts the tail by move-assignment, as
/// std::vector does (docs/measurements/vector.md, "Shifting by assignment"): it constructs and destroys
/// only as many objects as it adds or removes, where relocating the tail would construct and destroy each
/// element of it. C holds operation_counter and has room for 48 elements.
template <class C>
void shifting_inside_the_storage_assigns() {
    C v;
    v.reserve(48);
    std::vector<int> model;
    for (int i = 0; i < 40; ++i) {
        v.emplace_back(i);
        model.push_back(i);
    }
    const auto contents = [&] {
        std::vector<int> got;
        for (const auto& e : v) got.push_back(e.value);
        return got;
    };
    const operation_counter value(-1);
    operation_counter::reset();
    v.insert(v.begin() + 5, 3, value);
    model.insert(model.begin() + 5, 3, -1);
    EXPECT_EQ(operation_counter::constructions, 6);  // 3 moved into the free slots, 3 new
    EXPECT_EQ(operation_counter::destructions, 3);   // the moved-from objects the new ones replace
    EXPECT_EQ(operation_counter::assignments, 40 - 5 - 3);
    EXPECT_EQ(contents(), model);

    operation_counter::reset();
    v.erase(v.begin() + 5, v.begin() + 9);
    model.erase(model.begin() + 5, model.begin() + 9);
    EXPECT_EQ(operation_counter::constructions, 0);
    EXPECT_EQ(operation_counter::destructions, 4);
    EXPECT_EQ(operation_counter::assignments, 43 - 9);
    EXPECT_EQ(contents(), model);
}

TYPED_TEST_SUITE_P(SequenceTest);

#define RELO_SUITE_TYPES                \
    using C = TypeParam;                \
    using T = typename C::value_type;   \
    using K = kind<T>;                  \
    (void)sizeof(K)

TYPED_TEST_P(SequenceTest, DefaultConstructedIsEmpty) {
    RELO_SUITE_TYPES;
    const C c;
    EXPECT_TRUE(c.empty());
    EXPECT_EQ(c.size(), 0u);
    EXPECT_EQ(c.begin(), c.end());
    EXPECT_EQ(c.rbegin(), c.rend());
    EXPECT_GE(c.max_size(), c.capacity());
}

TYPED_TEST_P(SequenceTest, CountConstructorsAndResize) {
    RELO_SUITE_TYPES;
    const std::size_t n = this->small(37);
    C c(n);
    EXPECT_EQ(c.size(), n);
    if constexpr (std::is_same_v<T, int>) {
        EXPECT_EQ(std::count(c.begin(), c.end(), 0), static_cast<long>(n));
    }
    c.resize(this->small(3));
    EXPECT_EQ(c.size(), this->small(3));
    c.resize(n);
    EXPECT_EQ(c.size(), n);
    if constexpr (TestFixture::copyable) {
        const C d(n, K::make(7));
        EXPECT_EQ(this->keys(d), std::vector<int>(n, 7));
        C e = this->make(this->iota(this->small(4)));
        e.resize(this->small(9), K::make(5));
        std::vector<int> model = this->iota(this->small(4));
        model.resize(this->small(9), 5);
        EXPECT_EQ(this->keys(e), model);
        if (this->holds(2)) {
            e.resize(this->small(20), e[1]);  // the value aliases an element
            model.resize(this->small(20), model[1]);
            EXPECT_EQ(this->keys(e), model);
        }
    }
}

// resize_for_overwrite: the prefix is kept, the new elements exist (default-initialized: the teardown's
// count of live objects sees each) and take what is written; shrinking destroys as resize does.
TYPED_TEST_P(SequenceTest, ResizeForOverwrite) {
    RELO_SUITE_TYPES;
    C c = this->make(this->iota(this->small(5)));
    std::vector<int> model = this->iota(this->small(5));
    for (std::size_t n : {this->small(40), this->small(41), this->small(3), std::size_t{0}, this->small(12)}) {
        const std::size_t old_size = c.size();
        c.resize_for_overwrite(n);
        ASSERT_EQ(c.size(), n);
        model.resize(n);
        for (std::size_t i = old_size; i < n; ++i) {
            c[i] = K::make(static_cast<int>(1000 + i));
            model[i] = static_cast<int>(1000 + i);
        }
        EXPECT_EQ(this->keys(c), model);
    }
}

TYPED_TEST_P(SequenceTest, RangeConstructors) {
    RELO_SUITE_TYPES;
    const std::vector<int> model = this->iota(this->small(50));
    const C from_input(key_input_iterator<T>(&model, 0), key_input_iterator<T>(&model, model.size()));
    EXPECT_EQ(this->keys(from_input), model);
    const C from_forward(key_forward_iterator<T>(&model, 0), key_forward_iterator<T>(&model, model.size()));
    EXPECT_EQ(this->keys(from_forward), model);
    if constexpr (TestFixture::copyable) {
        std::list<T> list;
        std::deque<T> deque;
        for (int k : model) {
            list.push_back(K::make(k));
            deque.push_back(K::make(k));
        }
        EXPECT_EQ(this->keys(C(list.begin(), list.end())), model);
        EXPECT_EQ(this->keys(C(deque.begin(), deque.end())), model);
        const C contiguous(from_input.begin(), from_input.end());
        EXPECT_EQ(this->keys(contiguous), model);
        if (this->holds(3)) {
            const C from_list{K::make(1), K::make(2), K::make(3)};
            EXPECT_EQ(this->keys(from_list), (std::vector<int>{1, 2, 3}));
        }
    }
}

TYPED_TEST_P(SequenceTest, CopyAndMove) {
    RELO_SUITE_TYPES;
    const std::vector<int> model = this->iota(this->small(40));
    C a = this->make(model);
    if constexpr (TestFixture::copyable) {
        C b(a);
        EXPECT_EQ(this->keys(b), model);
        C c = this->make(this->iota(this->small(3), 100));
        c = a;
        EXPECT_EQ(this->keys(c), model);
        C big = this->make(this->iota(this->small(45), 200));
        big = b;  // shrinking copy assignment
        EXPECT_EQ(this->keys(big), model);
        const C& same = c;
        c = same;  // self-assignment
        EXPECT_EQ(this->keys(c), model);
        if (this->holds(2)) {
            c = {K::make(9), K::make(8)};
            EXPECT_EQ(this->keys(c), (std::vector<int>{9, 8}));
        }
    }
    C moved(std::move(a));
    EXPECT_EQ(this->keys(moved), model);
    C target = this->make(this->iota(this->small(5), 50));
    target = std::move(moved);
    EXPECT_EQ(this->keys(target), model);
}

TYPED_TEST_P(SequenceTest, PushBackAndEmplaceBack) {
    RELO_SUITE_TYPES;
    C c;
    std::vector<int> model;
    const std::size_t n = this->small(3000);
    for (std::size_t i = 0; i < n; ++i) {
        const int k = static_cast<int>(i);
        if (i % 2 == 0) {
            c.push_back(K::make(k));
        } else {
            T& ref = c.emplace_back(K::make(k));
            EXPECT_EQ(&ref, &c.back());
        }
        model.push_back(k);
        ASSERT_EQ(K::key(c.back()), k);
    }
    EXPECT_EQ(this->keys(c), model);
    if constexpr (TestFixture::copyable) {
        if (!this->holds(2)) return;
        // push_back of an element of the container itself, at every capacity boundary on the way.
        C d = this->make({5});
        std::vector<int> dm{5};
        while (d.size() < this->small(600)) {
            d.push_back(d[d.size() / 2]);
            dm.push_back(dm[dm.size() / 2]);
            if (d.size() < this->small(600)) {
                d.emplace_back(d.front());
                dm.push_back(dm.front());
            }
        }
        EXPECT_EQ(this->keys(d), dm);
    }
}

TYPED_TEST_P(SequenceTest, PopBackAndSafePopBack) {
    RELO_SUITE_TYPES;
    C c = this->make(this->iota(this->small(4)));
    if (!c.empty()) {
        c.pop_back();
        EXPECT_EQ(this->keys(c), this->iota(this->small(4) - 1));
    }
    c.clear();
    EXPECT_TRUE(c.empty());
    c.safe_pop_back();  // no effect on an empty container
    EXPECT_TRUE(c.empty());
}

TYPED_TEST_P(SequenceTest, FastAndTryPushBack) {
    RELO_SUITE_TYPES;
    C c;
    const std::size_t n = this->small(20);
    c.reserve(n);
    const std::size_t cap = c.capacity();
    ASSERT_GE(cap, n);
    for (std::size_t i = 0; i < n; ++i) {
        if (i % 2) {
            c.fast_push_back(K::make(static_cast<int>(i)));
        } else {
            c.unchecked_emplace_back(K::make(static_cast<int>(i)));
        }
    }
    EXPECT_EQ(this->keys(c), this->iota(n, 0));
    while (c.size() < c.capacity()) {
        relo::optional_ref<T> p = c.try_push_back(K::make(1));
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(std::addressof(*p), std::addressof(c.back()));
        EXPECT_EQ(p.operator->(), std::addressof(c.back()));
        EXPECT_EQ(std::addressof(p.value()), std::addressof(c.back()));
    }
    T extra = K::make(42);
    const relo::optional_ref<T> refused = c.try_push_back(std::move(extra));
    EXPECT_FALSE(refused);
    EXPECT_TRUE(refused == std::nullopt);
    EXPECT_THROW((void)refused.value(), std::bad_optional_access);
    EXPECT_EQ(K::key(extra), 42) << "a failed try_push_back must leave its rvalue argument untouched";
    EXPECT_FALSE(c.try_emplace_back(K::make(43)).has_value());
    EXPECT_EQ(c.capacity(), cap);
}

TYPED_TEST_P(SequenceTest, InsertOneEverywhere) {
    RELO_SUITE_TYPES;
    const std::size_t n = this->small(12);
    if (n < 2) return;
    for (std::size_t pos = 0; pos <= n - 1; ++pos) {
        std::vector<int> model = this->iota(n - 1);
        C c = this->make(model);
        auto it = c.insert(c.begin() + pos, K::make(-5));
        model.insert(model.begin() + pos, -5);
        EXPECT_EQ(it, c.begin() + pos);
        EXPECT_EQ(this->keys(c), model);
        c.pop_back();
        model.pop_back();
        auto e = c.emplace(c.begin() + pos, K::make(-6));
        model.insert(model.begin() + pos, -6);
        EXPECT_EQ(e, c.begin() + pos);
        EXPECT_EQ(this->keys(c), model);
        if constexpr (TestFixture::copyable) {
            // Inserting an element of the container itself, before and after its position.
            for (std::size_t src : {std::size_t{0}, c.size() - 1, pos}) {
                if (c.size() >= n) {
                    c.pop_back();
                    model.pop_back();
                }
                if (src >= c.size()) continue;
                c.insert(c.begin() + pos, c[src]);
                model.insert(model.begin() + pos, model[src]);
                EXPECT_EQ(this->keys(c), model) << "pos " << pos << " src " << src;
            }
        }
    }
}

TYPED_TEST_P(SequenceTest, InsertCountAndRanges) {
    RELO_SUITE_TYPES;
    const std::size_t n = this->small(30);
    if (n < 10) return;
    const std::vector<int> extra = {-1, -2, -3, -4};
    for (std::size_t pos : {std::size_t{0}, std::size_t{3}, n - 10}) {
        std::vector<int> model = this->iota(n - 10);
        C c = this->make(model);
        auto it = c.insert(c.begin() + pos, key_input_iterator<T>(&extra, 0), key_input_iterator<T>(&extra, 4));
        model.insert(model.begin() + pos, extra.begin(), extra.end());
        EXPECT_EQ(it, c.begin() + pos);
        EXPECT_EQ(this->keys(c), model);
        it = c.insert(c.begin() + pos, key_forward_iterator<T>(&extra, 1), key_forward_iterator<T>(&extra, 3));
        model.insert(model.begin() + pos, extra.begin() + 1, extra.begin() + 3);
        EXPECT_EQ(it, c.begin() + pos);
        EXPECT_EQ(this->keys(c), model);
        EXPECT_EQ(c.insert(c.begin(), key_forward_iterator<T>(&extra, 0), key_forward_iterator<T>(&extra, 0)), c.begin());
        if constexpr (TestFixture::copyable) {
            c.insert(c.begin() + pos, 2, K::make(77));
            model.insert(model.begin() + pos, 2, 77);
            EXPECT_EQ(this->keys(c), model);
            c.insert(c.begin() + 1, 2, c[pos + 1]);  // the value aliases an element behind the gap
            model.insert(model.begin() + 1, 2, model[pos + 1]);
            EXPECT_EQ(this->keys(c), model);
            const std::size_t room = n - c.size();
            if (room >= 2) {
                std::list<T> list{K::make(8), K::make(9)};
                c.insert(c.begin() + pos, list.begin(), list.end());
                model.insert(model.begin() + pos, {8, 9});
                EXPECT_EQ(this->keys(c), model);
                c.insert(c.end(), {K::make(6)});
                model.push_back(6);
                EXPECT_EQ(this->keys(c), model);
            }
        }
    }
}

TYPED_TEST_P(SequenceTest, InsertRangeOfItself) {
    RELO_SUITE_TYPES;
    if constexpr (TestFixture::copyable) {
        const std::size_t n = this->small(24);
        if (n < 12) return;
        for (std::size_t pos : {std::size_t{0}, std::size_t{2}, std::size_t{5}, n / 2}) {
            std::vector<int> model = this->iota(n / 2);
            C c = this->make(model);
            c.insert(c.begin() + pos, c.begin(), c.end());  // the whole container into itself
            const std::vector<int> whole = model;
            model.insert(model.begin() + pos, whole.begin(), whole.end());
            EXPECT_EQ(this->keys(c), model) << "pos " << pos;
            c.erase(c.begin() + static_cast<std::ptrdiff_t>(n / 2), c.end());
            model.resize(n / 2);
            c.insert(c.begin() + 1, c.begin() + 2, c.begin() + 5);  // a part that lies behind the gap
            std::vector<int> part(model.begin() + 2, model.begin() + 5);
            model.insert(model.begin() + 1, part.begin(), part.end());
            EXPECT_EQ(this->keys(c), model);
        }
    }
}

// GCC 12 at -O1 warns that the model's erase (std::vector<int>'s memmove) reads from an empty region when
// the container holds one element at most: a false positive (the region is the moved tail, which is empty
// and then not read).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif
TYPED_TEST_P(SequenceTest, EraseEverywhere) {
    RELO_SUITE_TYPES;
    const std::size_t n = this->small(15);
    for (std::size_t first = 0; first <= n; ++first) {
        for (std::size_t last = first; last <= n; last += 3) {
            std::vector<int> model = this->iota(n);
            C c = this->make(model);
            auto it = c.erase(c.begin() + first, c.begin() + last);
            model.erase(model.begin() + first, model.begin() + last);
            EXPECT_EQ(it, c.begin() + first);
            EXPECT_EQ(this->keys(c), model);
            if (first < c.size()) {
                it = c.erase(c.begin() + first);
                model.erase(model.begin() + first);
                EXPECT_EQ(it, c.begin() + first);
                EXPECT_EQ(this->keys(c), model);
            }
        }
    }
}
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic pop
#endif

TYPED_TEST_P(SequenceTest, Assign) {
    RELO_SUITE_TYPES;
    const std::vector<int> many = this->iota(this->small(60), 10);
    const std::vector<int> few = this->iota(this->small(5), 90);
    C c = this->make(few);
    c.assign(key_input_iterator<T>(&many, 0), key_input_iterator<T>(&many, many.size()));
    EXPECT_EQ(this->keys(c), many);
    c.assign(key_forward_iterator<T>(&few, 0), key_forward_iterator<T>(&few, few.size()));
    EXPECT_EQ(this->keys(c), few);
    c.assign(key_forward_iterator<T>(&many, 0), key_forward_iterator<T>(&many, many.size()));
    EXPECT_EQ(this->keys(c), many);
    c.assign(key_input_iterator<T>(&few, 0), key_input_iterator<T>(&few, few.size()));
    EXPECT_EQ(this->keys(c), few);
    if constexpr (TestFixture::copyable) {
        c.assign(this->small(40), K::make(3));
        EXPECT_EQ(this->keys(c), std::vector<int>(this->small(40), 3));
        if (!this->holds(3)) return;
        c.assign(2, K::make(4));
        EXPECT_EQ(this->keys(c), (std::vector<int>{4, 4}));
        c.assign({K::make(1), K::make(2), K::make(3)});
        EXPECT_EQ(this->keys(c), (std::vector<int>{1, 2, 3}));
        c.assign(c.begin() + 1, c.end());  // a later part of itself
        EXPECT_EQ(this->keys(c), (std::vector<int>{2, 3}));
        c.assign(this->small(50), c[1]);  // the value aliases an element and the storage grows
        EXPECT_EQ(this->keys(c), std::vector<int>(this->small(50), 3));
    }
}

TYPED_TEST_P(SequenceTest, ReserveAndShrink) {
    RELO_SUITE_TYPES;
    C c = this->make(this->iota(this->small(10)));
    c.reserve(this->small(500));
    EXPECT_GE(c.capacity(), this->small(500));
    EXPECT_EQ(this->keys(c), this->iota(this->small(10)));
    c.shrink_to_fit();
    EXPECT_GE(c.capacity(), c.size());
    EXPECT_EQ(this->keys(c), this->iota(this->small(10)));
    c.reserve(0);
    EXPECT_EQ(this->keys(c), this->iota(this->small(10)));
    c.clear();
    c.shrink_to_fit();
    EXPECT_TRUE(c.empty());
    // Through a volatile, so that the optimizer does not warn about the impossible size on paths it
    // cannot prove dead (GCC 12's -Warray-bounds).
    volatile std::size_t too_many = c.max_size() + 1;
    using error = typename too_large_error<C>::type;
    EXPECT_THROW(c.reserve(too_many), error);
    EXPECT_THROW(c.resize(too_many), error);
    EXPECT_TRUE(c.empty());
}

TYPED_TEST_P(SequenceTest, ElementAccess) {
    RELO_SUITE_TYPES;
    if (!this->holds(3)) return;
    C c = this->make(this->iota(this->small(6)));
    const C& cc = c;
    EXPECT_EQ(K::key(c.front()), 1);
    EXPECT_EQ(K::key(cc.back()), static_cast<int>(this->small(6)));
    EXPECT_EQ(K::key(c.at(2)), 3);
    EXPECT_EQ(K::key(cc.at(2)), 3);
    EXPECT_THROW((void)c.at(c.size()), std::out_of_range);
    EXPECT_THROW((void)cc.at(static_cast<std::size_t>(-1)), std::out_of_range);
    std::vector<int> reversed;
    for (auto it = cc.rbegin(); it != cc.rend(); ++it) reversed.push_back(K::key(*it));
    std::vector<int> model = this->iota(this->small(6));
    std::reverse(model.begin(), model.end());
    EXPECT_EQ(reversed, model);
    EXPECT_EQ(std::addressof(*cc.cbegin()), cc.data());
    EXPECT_EQ(cc.crbegin().base(), cc.cend());
}

// Iterators are classes over one pointer (detail/iterator.hpp): what real code does with std::vector's.
TYPED_TEST_P(SequenceTest, IteratorsBehaveAsStdVectorsDo) {
    RELO_SUITE_TYPES;
    using It = typename C::iterator;
    using CIt = typename C::const_iterator;
    static_assert(sizeof(It) == (RELO_DETAIL_BOUNDED_ITERATORS ? 3 : 1) * sizeof(void*) && std::is_trivially_copyable_v<It>);
    static_assert(std::is_convertible_v<It, CIt> && !std::is_convertible_v<CIt, It>);
    static_assert(std::is_same_v<typename std::iterator_traits<It>::iterator_category, std::random_access_iterator_tag>);
#if RELO_HAS_RANGES
    static_assert(std::contiguous_iterator<It> && std::contiguous_iterator<CIt>);
    static_assert(std::ranges::contiguous_range<C>);
#endif
    EXPECT_EQ(It{}, It{}) << "value-initialized iterators compare equal";
    if (!this->holds(5)) return;
    C c = this->make(this->iota(4));
    const std::size_t n = c.size();
    // Decrementing and incrementing the prvalues begin() and end() (a pointer could not).
    EXPECT_EQ(K::key(*--c.end()), static_cast<int>(n));
    EXPECT_EQ(K::key(*++c.begin()), 2);
    It it = c.begin();
    EXPECT_EQ(K::key(*it++), 1);
    EXPECT_EQ(K::key(*it--), 2);
    EXPECT_EQ(it, c.begin());
    it += 2;
    EXPECT_EQ(K::key(it[-1]), 2);
    EXPECT_EQ(K::key(*(1 + it)), 4);
    EXPECT_EQ(K::key(*(it - 2)), 1);
    // Mixed iterator / const_iterator arithmetic and ordering.
    const CIt cit = c.cend();
    EXPECT_EQ(static_cast<std::size_t>(cit - c.begin()), n);
    EXPECT_EQ(static_cast<std::size_t>(c.end() - c.cbegin()), n);
    EXPECT_TRUE(c.begin() < cit && cit > c.begin() && c.begin() <= c.cbegin() && cit >= c.end());
    EXPECT_TRUE(c.end() == cit && !(c.begin() != c.cbegin()));
    EXPECT_EQ(std::addressof(*c.begin()), c.data());
    EXPECT_EQ(c.begin().operator->(), c.data());
    // The positions insert and erase return are the container's iterators, usable at once.
    It inserted = c.insert(c.cbegin() + 1, K::make(40));
    EXPECT_EQ(K::key(*inserted), 40);
    It after = c.erase(inserted);
    EXPECT_EQ(K::key(*after), 2);
    EXPECT_EQ(this->keys(c), this->iota(n));
}

TYPED_TEST_P(SequenceTest, ComparisonsAndSwap) {
    RELO_SUITE_TYPES;
    if (!this->holds(3)) return;
    C a = this->make({1, 2, 3});
    C b = this->make({1, 2, 4});
    C c = this->make({1, 2});
    if constexpr (!std::is_same_v<T, std::unique_ptr<int>>) {
        EXPECT_TRUE(a == a);
        EXPECT_TRUE(a != b);
        EXPECT_TRUE(a < b);
        EXPECT_TRUE(c < a);
        EXPECT_TRUE(b > a);
        EXPECT_TRUE(a <= a);
        EXPECT_TRUE(b >= a);
#if RELO_HAS_THREE_WAY
        EXPECT_TRUE((a <=> b) < 0);
        EXPECT_TRUE((a <=> a) == 0);
#endif
    }
    swap(a, b);  // found by argument-dependent lookup
    EXPECT_EQ(this->keys(a), (std::vector<int>{1, 2, 4}));
    EXPECT_EQ(this->keys(b), (std::vector<int>{1, 2, 3}));
    a.swap(c);
    EXPECT_EQ(this->keys(a), (std::vector<int>{1, 2}));
    EXPECT_EQ(this->keys(c), (std::vector<int>{1, 2, 4}));
}

TYPED_TEST_P(SequenceTest, EraseAndEraseIf) {
    RELO_SUITE_TYPES;
    C c = this->make(this->iota(this->small(20)));
    std::vector<int> model = this->iota(this->small(20));
    const auto removed = erase_if(c, [](const T& v) { return K::key(v) % 3 == 0; });  // by ADL
    const auto expected = static_cast<std::size_t>(std::count_if(model.begin(), model.end(), [](int k) { return k % 3 == 0; }));
    model.erase(std::remove_if(model.begin(), model.end(), [](int k) { return k % 3 == 0; }), model.end());
    EXPECT_EQ(removed, expected);
    EXPECT_EQ(this->keys(c), model);
    if constexpr (TestFixture::copyable) {
        if (!this->holds(5)) return;
        const T value = K::make(4);
        EXPECT_EQ(erase(c, value), 1u);
        model.erase(std::find(model.begin(), model.end(), 4));
        EXPECT_EQ(this->keys(c), model);
    }
}

REGISTER_TYPED_TEST_SUITE_P(SequenceTest, DefaultConstructedIsEmpty, CountConstructorsAndResize, ResizeForOverwrite,
                            RangeConstructors, CopyAndMove, PushBackAndEmplaceBack, PopBackAndSafePopBack,
                            FastAndTryPushBack, InsertOneEverywhere, InsertCountAndRanges, InsertRangeOfItself,
                            EraseEverywhere, Assign, ReserveAndShrink, ElementAccess,
                            IteratorsBehaveAsStdVectorsDo, ComparisonsAndSwap, EraseAndEraseIf);

}  // namespace relo_test

#endif  // RELO_TESTS_SEQUENCE_SUITE_HPP
