// tests/exception_matrix.hpp — exception safety of a vector-like container at every throw point: element
// copies and moves that throw on the k-th call (through every modifier), and allocators that fail the
// k-th allocation.
#ifndef RELO_TESTS_EXCEPTION_MATRIX_HPP
#define RELO_TESTS_EXCEPTION_MATRIX_HPP

#include <new>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "element_kinds.hpp"
#include "sequence_limit.hpp"

namespace relo_test {

// Moves never throw, copies throw on the k-th call: relocation is safe, so insertion anywhere is strong.
struct copy_thrower {
    static inline long live = 0;
    int value = 0;
    explicit copy_thrower(int v) : value(v) { ++live; }
    copy_thrower(const copy_thrower& o) : value(o.value) {
        thrower::tick();
        ++live;
    }
    copy_thrower(copy_thrower&& o) noexcept : value(o.value) { ++live; }
    copy_thrower& operator=(const copy_thrower& o) {
        thrower::tick();
        value = o.value;
        return *this;
    }
    copy_thrower& operator=(copy_thrower&&) noexcept = default;
    ~copy_thrower() { --live; }
};
template <>
struct kind<copy_thrower> {
    static copy_thrower make(int i) { return copy_thrower(i); }
    static int key(const copy_thrower& c) { return c.value; }
    static long live() { return copy_thrower::live; }
    static constexpr bool counting = true;
};

enum class guarantee { strong, basic };

template <class V>
inline std::vector<int> keys_of(const V& v) {
    std::vector<int> out;
    for (const auto& e : v) out.push_back(kind<typename V::value_type>::key(e));
    return out;
}

/// Runs `op` on a fresh vector built by `setup`, making the k-th element copy/move throw, for k = 1, 2, ...
/// until op completes. After each throw the vector must be unchanged (strong) or merely valid (basic),
/// and the live-object count must match its size.
template <class V, class Setup, class Op>
void at_every_throw_point(const char* what, guarantee g, Setup setup, Op op, bool copies_elements = true) {
    using T = typename V::value_type;
    const long live_before = kind<T>::live();
    int throws = 0;
    for (long k = 1;; ++k) {
        V v = setup();
        const std::vector<int> before = keys_of(v);
        const std::size_t cap_before = v.capacity();
        bool threw = false;
        thrower::countdown = k;
        try {
            op(v);
        } catch (const std::runtime_error&) {
            threw = true;
        }
        thrower::countdown = 0;
        EXPECT_EQ(kind<T>::live() - live_before, static_cast<long>(v.size())) << what << ": k=" << k;
        if (!threw) break;
        ++throws;
        if (g == guarantee::strong) {
            EXPECT_EQ(keys_of(v), before) << what << ": strong guarantee broken at k=" << k;
        }
        EXPECT_GE(v.capacity(), v.size());
        (void)cap_before;
        ASSERT_LT(k, 100000) << what;
    }
    if (copies_elements && !setup().empty()) {
        EXPECT_GT(throws, 0) << what << ": the operation never copied or moved, so nothing was tested";
    }
    EXPECT_EQ(kind<T>::live(), live_before) << what << ": leak";
}

template <class V>
V make_vector(std::size_t n, std::size_t extra_capacity = 0) {
    V v;
    if (n + extra_capacity <= sequence_limit<V>::value) v.reserve(n + extra_capacity);
    for (std::size_t i = 0; i < n; ++i) v.push_back(kind<typename V::value_type>::make(static_cast<int>(i) + 1));
    return v;
}

/// Every modifier at every throw point, on containers of several sizes. Operations that would exceed a
/// fixed capacity (sequence_limit) are left out.
template <class V>
void run_modifier_matrix(guarantee middle_insert) {
    using T = typename V::value_type;
    using K = kind<T>;
    constexpr std::size_t limit = sequence_limit<V>::value;
    constexpr bool growable = limit == static_cast<std::size_t>(-1);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{16}}) {
        for (std::size_t extra : {std::size_t{0}, std::size_t{3}}) {
            if (n + extra + 6 > limit) continue;
            auto setup = [&] { return make_vector<V>(n, extra); };
            const T value = K::make(-1);
            at_every_throw_point<V>("push_back", guarantee::strong, setup, [&](V& v) { v.push_back(value); });
            at_every_throw_point<V>("push_back(self)", guarantee::strong, setup, [&](V& v) {
                if (v.empty()) v.push_back(value); else v.push_back(v[0]);
            });
            at_every_throw_point<V>("insert(end)", guarantee::strong, setup, [&](V& v) { v.insert(v.end(), value); });
            at_every_throw_point<V>("insert(middle)", middle_insert, setup, [&](V& v) { v.insert(v.begin() + v.size() / 2, value); });
            at_every_throw_point<V>("insert(middle, n)", middle_insert, setup,
                                    [&](V& v) { v.insert(v.begin() + v.size() / 2, 3, value); });
            const std::vector<T> range(4, value);
            at_every_throw_point<V>("insert(middle, range)", middle_insert, setup,
                                    [&](V& v) { v.insert(v.begin() + v.size() / 2, range.begin(), range.end()); });
            at_every_throw_point<V>("resize(grow)", guarantee::strong, setup, [&](V& v) { v.resize(v.size() + 5, value); });
            if constexpr (growable) {
                at_every_throw_point<V>("reserve", guarantee::strong, setup, [&](V& v) { v.reserve(v.capacity() + 10); },
                                        growth_moves_elements<V>::value && !std::is_nothrow_move_constructible_v<T>);
                at_every_throw_point<V>("assign(grow)", guarantee::strong, setup, [&](V& v) { v.assign(v.capacity() + 2, value); });
            }
            at_every_throw_point<V>("assign(range)", guarantee::basic, setup, [&](V& v) { v.assign(range.begin(), range.end()); });
            at_every_throw_point<V>("copy construct", guarantee::strong, setup, [&](V& v) { V copy(v); copy.push_back(value); });
            at_every_throw_point<V>("copy assign", guarantee::basic, setup, [&](V& v) {
                V other = make_vector<V>(5);  // may throw too: then v is untouched
                v = other;
            });
            at_every_throw_point<V>("move construct and swap", guarantee::basic, setup, [&](V& v) {
                V other(std::move(v));
                V third = make_vector<V>(3);
                other.swap(third);
                v = std::move(third);
            }, !std::is_nothrow_move_constructible_v<T>);
            if (n > 1) {
                at_every_throw_point<V>("erase(middle) then push", guarantee::basic, setup, [&](V& v) {
                    v.erase(v.begin());
                    v.push_back(value);
                });
            }
            at_every_throw_point<V>("shrink_to_fit then push", guarantee::basic, setup, [&](V& v) {
                v.shrink_to_fit();
                v.push_back(value);
            });
        }
    }
}

/// Runs op on a full container using test_allocator (9 elements, shrunk to fit), making the k-th
/// allocation fail for k = 1, 2, ... until op completes: std::bad_alloc, contents unchanged, no leak.
template <class V, class Op>
void at_every_allocation(const char* what, Op op) {
    using T = typename V::value_type;
    const long live_before = counted::live;
    const long outstanding_before = allocation_log::outstanding;
    for (long k = 1;; ++k) {
        V v(test_allocator<T>(1));
        for (int i = 0; i < 9; ++i) v.emplace_back(i);
        v.shrink_to_fit();  // full: the next insertion must allocate
        const std::vector<int> before = keys_of(v);
        bool threw = false;
        allocation_log::fail_countdown = k;
        try {
            op(v);
        } catch (const std::bad_alloc&) {
            threw = true;
        }
        allocation_log::fail_countdown = 0;
        if (!threw) break;
        EXPECT_EQ(keys_of(v), before) << what << ": contents changed by a failed allocation, k=" << k;
        EXPECT_EQ(counted::live - live_before, static_cast<long>(v.size())) << what;
        ASSERT_LT(k, 1000);
    }
    EXPECT_EQ(counted::live, live_before) << what << ": leak";
    EXPECT_EQ(allocation_log::outstanding, outstanding_before) << what << ": allocation leak";
}

/// Allocation failure through every modifier that allocates.
template <class V>
void run_allocation_failures() {
    at_every_allocation<V>("push_back", [](V& v) { v.emplace_back(100); });
    at_every_allocation<V>("push_back(self)", [](V& v) { v.push_back(v[0]); });
    at_every_allocation<V>("reserve", [](V& v) { v.reserve(1000); });
    at_every_allocation<V>("resize", [](V& v) { v.resize(500); });
    at_every_allocation<V>("insert", [](V& v) { v.insert(v.begin() + 3, 40, counted(7)); });
    at_every_allocation<V>("insert(self range)", [](V& v) { v.insert(v.begin() + 1, v.begin(), v.end()); });
    at_every_allocation<V>("assign", [](V& v) { v.assign(300, counted(5)); });
    at_every_allocation<V>("copy", [](V& v) { V copy(v); copy.emplace_back(1); v = copy; });
    at_every_allocation<V>("shrink_to_fit", [](V& v) { v.reserve(50); v.shrink_to_fit(); });
}

}  // namespace relo_test

#endif  // RELO_TESTS_EXCEPTION_MATRIX_HPP
