// tests/inplace_vector_test.cpp — relo::inplace_vector: the shared sequence suite with capacities 0, 1, 5
// and 42 over the element kinds, random differential runs and the exception matrix, then what is
// particular to a fixed capacity (P0843's error behaviour, layout, triviality, constant evaluation).
#include "relo/inplace_vector.hpp"

#include <array>
#include <memory>
#include <new>
#include <numeric>
#include <string>
#include <vector>

#if RELO_HAS_RANGES
#include <ranges>
#endif

#include <gtest/gtest.h>

#include "differential.hpp"
#include "element_kinds.hpp"
#include "exception_matrix.hpp"
#include "sequence_suite.hpp"

namespace relo_test {

template <class T, std::size_t N>
struct sequence_limit<relo::inplace_vector<T, N>> : std::integral_constant<std::size_t, N> {};
template <class T, std::size_t N>
struct too_large_error<relo::inplace_vector<T, N>> {
    using type = std::bad_alloc;
};

namespace {

using relo::inplace_vector;

// Every element kind with 42 slots, N = 5 and N = 0; the rest of the capacity variants where
// RELO_TEST_VARIANTS asks for them (sequence_suite.hpp).
using inplace_kinds = ::testing::Types<
    inplace_vector<int, 42>, inplace_vector<big_trivial, 42>, inplace_vector<counted, 42>,
    inplace_vector<std::string, 42>, inplace_vector<std::unique_ptr<int>, 42>, inplace_vector<thrower, 42>,
    inplace_vector<overaligned, 42>, inplace_vector<marked_relocatable, 42>, inplace_vector<std::string, 5>,
    inplace_vector<int, 0>
#if RELO_TEST_VARIANTS
    , inplace_vector<int, 5>, inplace_vector<counted, 5>, inplace_vector<std::unique_ptr<int>, 5>,
    inplace_vector<thrower, 5>, inplace_vector<int, 1>, inplace_vector<std::string, 1>,
    inplace_vector<std::unique_ptr<int>, 1>, inplace_vector<std::string, 0>
#endif
    >;
INSTANTIATE_TYPED_TEST_SUITE_P(inplace_vector, SequenceTest, inplace_kinds, numbered_types);

// ---- Layout and triviality (P0843).

static_assert(sizeof(inplace_vector<char, 5>) == 6, "the size is one byte for capacities up to 255");
static_assert(sizeof(inplace_vector<char, 300>) == 302);
static_assert(sizeof(inplace_vector<int, 3>) == 16);
static_assert(sizeof(inplace_vector<std::uint64_t, 70000>) == 8 * 70000 + 8);
static_assert(std::is_same_v<relo::static_vector<int, 4>, inplace_vector<int, 4>>);

static_assert(std::is_empty_v<inplace_vector<std::string, 0>>);
static_assert(std::is_trivially_copyable_v<inplace_vector<std::string, 0>>);
static_assert(std::is_trivially_copyable_v<inplace_vector<int, 8>>);
static_assert(std::is_trivially_copyable_v<inplace_vector<big_trivial, 8>>);
static_assert(std::is_trivially_destructible_v<inplace_vector<int, 8>>);
static_assert(!std::is_trivially_copyable_v<inplace_vector<std::string, 8>>);
static_assert(!std::is_trivially_destructible_v<inplace_vector<std::string, 8>>);
static_assert(!std::is_trivially_copyable_v<inplace_vector<counted, 8>>);

// A trivially copyable type without a default constructor: still a trivially copyable container.
struct no_default {
    explicit no_default(int v) : value(v) {}
    int value;
};
static_assert(std::is_trivially_copyable_v<inplace_vector<no_default, 4>>);
// Trivially destructible but with a user-provided copy: trivially destructible container, not copyable.
struct user_copy {
    user_copy() = default;
    user_copy(const user_copy& o) : value(o.value + 1) {}
    user_copy& operator=(const user_copy&) = default;
    int value = 0;
};
static_assert(std::is_trivially_destructible_v<inplace_vector<user_copy, 4>>);
static_assert(!std::is_trivially_copy_constructible_v<inplace_vector<user_copy, 4>>);

// The special members follow the element type's.
static_assert(!std::is_copy_constructible_v<inplace_vector<std::unique_ptr<int>, 4>>);
static_assert(!std::is_copy_assignable_v<inplace_vector<std::unique_ptr<int>, 4>>);
static_assert(std::is_nothrow_move_constructible_v<inplace_vector<std::unique_ptr<int>, 4>>);
static_assert(std::is_nothrow_move_assignable_v<inplace_vector<std::unique_ptr<int>, 4>>);
static_assert(std::is_copy_constructible_v<inplace_vector<std::string, 4>>);
static_assert(std::is_nothrow_default_constructible_v<inplace_vector<std::string, 4>>);
struct immovable {
    immovable() = default;
    immovable(const immovable&) = delete;
    immovable& operator=(const immovable&) = delete;
};
static_assert(!std::is_move_constructible_v<inplace_vector<immovable, 4>>);
static_assert(!std::is_copy_constructible_v<inplace_vector<immovable, 4>>);

static_assert(inplace_vector<int, 7>::capacity() == 7 && inplace_vector<int, 7>::max_size() == 7);
static_assert(std::is_same_v<decltype(std::declval<inplace_vector<int, 7>::iterator>().operator->()), int*>);
static_assert(std::is_same_v<inplace_vector<int, 7>::value_type, int>);

// ---- Usable in constant expressions (C++20) for trivial element types.

#if RELO_HAS_CONSTEXPR_ALLOC
constexpr int constant_evaluated_workout() {
    inplace_vector<int, 40> v;
    for (int i = 0; i < 30; ++i) v.push_back(i);
    v.insert(v.begin() + 3, v[20]);
    v.erase(v.begin(), v.begin() + 5);
    v.insert(v.begin(), v.begin() + 1, v.begin() + 4);
    v.resize(20);
    inplace_vector<int, 40> w = v;
    w.assign(3, 7);
    if (!v.try_push_back(1)) return -1;
    v.pop_back();
    inplace_vector<int, 40> x{1, 2, 3};
    x.swap(w);
    int sum = 0;
    for (int e : v) sum += e;
    return sum + static_cast<int>(w.size()) * 1000 + x.back() * 100000 + (v == v ? 1000000 : 0);
}
static_assert(constant_evaluated_workout() == 1'000'000 + 700'000 + 3'000 + 222);

TEST(InplaceVector, UsableInConstantExpressions) {
    // The same steps on std::vector at run time give the reference value.
    std::vector<int> v;
    for (int i = 0; i < 30; ++i) v.push_back(i);
    v.insert(v.begin() + 3, 20);
    v.erase(v.begin(), v.begin() + 5);
    const std::vector<int> part(v.begin() + 1, v.begin() + 4);
    v.insert(v.begin(), part.begin(), part.end());
    v.resize(20);
    EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 222);
    EXPECT_EQ(constant_evaluated_workout(), 1'000'000 + 700'000 + 3'000 + 222);
}
#endif

// ---- A full container refuses more, with std::bad_alloc, and stays as it was.

template <class T>
void full_container_refuses() {
    using K = kind<T>;
    using V = inplace_vector<T, 5>;
    const long live_before = K::live();
    {
        V v;
        for (int i = 1; i <= 5; ++i) v.push_back(K::make(i));
        const std::vector<int> all{1, 2, 3, 4, 5};
        auto keys = [&] {
            std::vector<int> out;
            for (const T& e : v) out.push_back(K::key(e));
            return out;
        };
        EXPECT_THROW(v.push_back(K::make(6)), std::bad_alloc);
        EXPECT_THROW(v.emplace_back(K::make(6)), std::bad_alloc);
        EXPECT_THROW(v.insert(v.begin(), K::make(6)), std::bad_alloc);
        EXPECT_THROW(v.emplace(v.begin() + 2, K::make(6)), std::bad_alloc);
        EXPECT_THROW(v.resize(6), std::bad_alloc);
        EXPECT_THROW(v.reserve(6), std::bad_alloc);
        const std::vector<int> extra{7, 8};
        EXPECT_THROW(v.insert(v.begin() + 1, key_input_iterator<T>(&extra, 0), key_input_iterator<T>(&extra, 2)),
                     std::bad_alloc);
        EXPECT_THROW(v.insert(v.begin() + 1, key_forward_iterator<T>(&extra, 0), key_forward_iterator<T>(&extra, 2)),
                     std::bad_alloc);
        EXPECT_EQ(keys(), all) << "a refused operation changed the contents";
        T spare = K::make(9);
        EXPECT_FALSE(v.try_push_back(std::move(spare)).has_value());
        EXPECT_EQ(K::key(spare), 9) << "try_push_back on a full container must not move from its argument";
        EXPECT_TRUE(v.try_emplace_back(K::make(10)) == std::nullopt);
        v.reserve(5);  // within the capacity: no effect
        v.shrink_to_fit();
        EXPECT_EQ(keys(), all);
        if constexpr (std::is_copy_constructible_v<T>) {
            EXPECT_THROW(v.insert(v.end(), 2, K::make(6)), std::bad_alloc);
            EXPECT_THROW(v.assign(6, K::make(6)), std::bad_alloc);
            const std::vector<T> six(6, K::make(6));
            EXPECT_THROW(v.assign(six.begin(), six.end()), std::bad_alloc);
            EXPECT_THROW(V(six.begin(), six.end()), std::bad_alloc);
            EXPECT_THROW(V(6, K::make(1)), std::bad_alloc);
            EXPECT_THROW((V{K::make(1), K::make(2), K::make(3), K::make(4), K::make(5), K::make(6)}), std::bad_alloc);
            EXPECT_EQ(keys(), all);
        }
        EXPECT_THROW(V(6), std::bad_alloc);
        // A single-pass range that turns out too long: refused, and the appended part removed again.
        const std::vector<int> four{1, 2, 3, 4};
        v.erase(v.begin(), v.begin() + 3);
        EXPECT_THROW(v.insert(v.begin(), key_input_iterator<T>(&four, 0), key_input_iterator<T>(&four, 4)),
                     std::bad_alloc);
        EXPECT_EQ(keys(), (std::vector<int>{4, 5}));
    }
    EXPECT_EQ(K::live(), live_before) << "leak";
}

TEST(InplaceVector, FullContainerRefusesWithBadAlloc) {
    full_container_refuses<int>();
    full_container_refuses<counted>();
    full_container_refuses<std::string>();
    full_container_refuses<std::unique_ptr<int>>();
}

TEST(InplaceVector, ZeroCapacity) {
    inplace_vector<std::string, 0> v;
    EXPECT_TRUE(v.empty());
    EXPECT_EQ(v.begin(), v.end());
    EXPECT_FALSE(v.try_push_back("x"));
    EXPECT_THROW(v.push_back("x"), std::bad_alloc);
    EXPECT_THROW(v.resize(1), std::bad_alloc);
    v.resize(0);
    inplace_vector<std::string, 0> w = v;
    EXPECT_EQ(v, w);
}

TEST(InplaceVector, ElementsLiveInsideTheObject) {
    inplace_vector<std::string, 8> v{"a", "b"};
    const auto* object = reinterpret_cast<const char*>(&v);
    const auto* first = reinterpret_cast<const char*>(v.data());
    EXPECT_GE(first, object);
    EXPECT_LT(first, object + sizeof(v));
    inplace_vector<overaligned, 3> o(2);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(o.data()) % alignof(overaligned), 0u);
}

TEST(InplaceVector, MoveRelocatesOrMovesElements) {
    // Elements that relocate as bytes are taken over and the source is left empty.
    inplace_vector<marked_relocatable, 4> a;
    a.emplace_back(1);
    a.emplace_back(2);
    inplace_vector<marked_relocatable, 4> b(std::move(a));
    EXPECT_EQ(b.size(), 2u);
    EXPECT_TRUE(a.empty());
    // So are the standard library's types the trait knows (a unique_ptr is a pointer).
    static_assert(relo::is_trivially_relocatable_v<std::unique_ptr<int>>);
    inplace_vector<std::unique_ptr<int>, 4> u;
    u.push_back(std::make_unique<int>(3));
    inplace_vector<std::unique_ptr<int>, 4> w(std::move(u));
    EXPECT_EQ(*w[0], 3);
    EXPECT_TRUE(u.empty());
    // Others are moved element by element: the source keeps its (moved-from) elements.
    struct move_only {
        std::unique_ptr<int> value;
        explicit move_only(int v) : value(std::make_unique<int>(v)) {}
        move_only(move_only&& other) noexcept : value(std::move(other.value)) {}  // user-provided: not relocatable
        move_only& operator=(move_only&& other) noexcept {
            value = std::move(other.value);
            return *this;
        }
    };
    static_assert(!relo::is_trivially_relocatable_v<move_only>);
    inplace_vector<move_only, 4> p;
    p.emplace_back(3);
    inplace_vector<move_only, 4> q(std::move(p));
    EXPECT_EQ(*q[0].value, 3);
    EXPECT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].value, nullptr);
    q = std::move(p);
    EXPECT_EQ(q.size(), 1u);
}

TEST(InplaceVector, SwapOfDifferentSizes) {
    inplace_vector<std::string, 6> a{"a", "b", "c", "d", "e"};
    inplace_vector<std::string, 6> b{"x"};
    swap(a, b);
    EXPECT_EQ(a, (inplace_vector<std::string, 6>{"x"}));
    EXPECT_EQ(b, (inplace_vector<std::string, 6>{"a", "b", "c", "d", "e"}));
    a.swap(a);
    EXPECT_EQ(a.size(), 1u);
}

#if RELO_HAS_RANGES && !(defined(__clang__) && __clang_major__ < 16)
TEST(InplaceVector, RangeMembers) {
    inplace_vector<int, 8> v;
    v.append_range(std::views::iota(0, 5));
    v.insert_range(v.begin() + 1, std::views::iota(10, 12));
    EXPECT_EQ(v, (inplace_vector<int, 8>{0, 10, 11, 1, 2, 3, 4}));
    EXPECT_THROW(v.append_range(std::views::iota(0, 2)), std::bad_alloc);
    EXPECT_EQ(v.size(), 7u);
    v.assign_range(std::views::iota(3, 5));
    EXPECT_EQ(v, (inplace_vector<int, 8>{3, 4}));
}
#endif

// ---- Random differential runs and the exception matrix.

TEST(InplaceVectorDifferential, Int) { run_differential<inplace_vector<int, 42>>(11); }
TEST(InplaceVectorDifferential, Counted) { run_differential<inplace_vector<counted, 42>>(12); }
TEST(InplaceVectorDifferential, String) { run_differential<inplace_vector<std::string, 42>>(13); }
TEST(InplaceVectorDifferential, UniquePtr) { run_differential<inplace_vector<std::unique_ptr<int>, 42>>(14); }
TEST(InplaceVectorDifferential, Thrower) { run_differential<inplace_vector<thrower, 42>>(15); }
TEST(InplaceVectorDifferential, MarkedRelocatableSmall) { run_differential<inplace_vector<marked_relocatable, 5>>(16); }
TEST(InplaceVectorDifferential, StringTiny) { run_differential<inplace_vector<std::string, 1>>(17); }

TEST(InplaceVectorExceptions, ThrowingCopyAndMove) {
    run_modifier_matrix<inplace_vector<thrower, 42>>(guarantee::basic);
}
TEST(InplaceVectorExceptions, ThrowingCopyNothrowMove) {
    run_modifier_matrix<inplace_vector<copy_thrower, 42>>(guarantee::strong);
}

TEST(InplaceVector, ShiftingInsideTheStorageAssigns) {
    shifting_inside_the_storage_assigns<relo::inplace_vector<operation_counter, 48>>();
}

}  // namespace
}  // namespace relo_test
