// tests/relocation_test.cpp — the trait, its opt-ins, and the relocation algorithms.
#include "relo/relocation.hpp"

#include <array>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "element_kinds.hpp"
#include "relo/growth.hpp"

namespace relo_test {
namespace {

struct member_opt_in {
    member_opt_in() = default;
    member_opt_in(const member_opt_in&) {}
    using relo_trivially_relocatable = std::true_type;
};
struct member_opt_out {
    int x;
    using relo_trivially_relocatable = std::false_type;
};
struct self_pointer {
    self_pointer* self = this;
    self_pointer() = default;
    self_pointer(const self_pointer&) : self(this) {}
};

static_assert(relo::is_trivially_relocatable_v<int>);
static_assert(relo::is_trivially_relocatable_v<int*>);
static_assert(relo::is_trivially_relocatable_v<std::array<int, 10>>);
static_assert(relo::is_trivially_relocatable_v<overaligned>);
static_assert(relo::is_trivially_relocatable_v<const int>);
static_assert(relo::is_trivially_relocatable_v<int[4]>);
static_assert(relo::is_trivially_relocatable_v<std::pair<int, double>>);
static_assert(relo::is_trivially_relocatable_v<marked_relocatable>, "RELO_TRIVIALLY_RELOCATABLE opts in");
static_assert(relo::is_trivially_relocatable_v<member_opt_in>, "a member typedef opts in");
static_assert(!relo::is_trivially_relocatable_v<member_opt_out>, "a member typedef opts out");
static_assert(!relo::is_trivially_relocatable_v<std::string>, "libstdc++'s SSO buffer points into the string");
static_assert(!relo::is_trivially_relocatable_v<std::pair<int, std::string>>);
static_assert(!relo::is_trivially_relocatable_v<self_pointer>);
static_assert(!relo::is_trivially_relocatable_v<counted>);
static_assert(!relo::is_trivially_relocatable_v<volatile int>);
static_assert(relo::is_nothrow_relocatable_v<std::string>);
static_assert(!relo::is_nothrow_relocatable_v<thrower>);

template <class T>
struct raw_buffer {
    alignas(T) unsigned char bytes[sizeof(T) * 8];
    T* get() { return std::launder(reinterpret_cast<T*>(bytes)); }
};

TEST(Relocation, RelocateAtMovesAndEndsTheSource) {
    const long live = counted::live;
    raw_buffer<counted> src, dst;
    ::new (src.bytes) counted(42);
    counted* moved = relo::relocate_at(src.get(), dst.get());
    EXPECT_EQ(moved->checked(), 42);
    EXPECT_EQ(counted::live, live + 1) << "one object before, one after";
    moved->~counted();

    raw_buffer<marked_relocatable> a, b;
    ::new (a.bytes) marked_relocatable(7);
    const long before = marked_relocatable::live;
    marked_relocatable* m = relo::relocate_at(a.get(), b.get());
    EXPECT_EQ(m->get(), 7);
    EXPECT_EQ(marked_relocatable::live, before) << "relocated as bytes: no constructor or destructor ran";
    m->~marked_relocatable();
}

TEST(Relocation, UninitializedRelocateRanges) {
    raw_buffer<std::string> src, dst;
    for (int i = 0; i < 8; ++i) ::new (src.get() + i) std::string(kind<std::string>::make(i));
    std::string* end = relo::uninitialized_relocate(src.get(), src.get() + 8, dst.get());
    ASSERT_EQ(end, dst.get() + 8);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(kind<std::string>::key(dst.get()[i]), i);
    std::destroy(dst.get(), end);

    int ints[6] = {1, 2, 3, 4, 5, 6};
    relo::uninitialized_relocate(ints, ints + 4, ints + 2);  // overlapping: memmove for trivial types
    EXPECT_EQ(ints[2], 1);
    EXPECT_EQ(ints[5], 4);
}

TEST(Relocation, ThrowingMoveDestroysBothRanges) {
    const long live = thrower::live;
    raw_buffer<thrower> src, dst;
    for (int i = 0; i < 8; ++i) ::new (src.get() + i) thrower(i);
    thrower::countdown = 4;  // the fourth move throws
    EXPECT_THROW(relo::uninitialized_relocate(src.get(), src.get() + 8, dst.get()), std::runtime_error);
    thrower::countdown = 0;
    EXPECT_EQ(thrower::live, live) << "every object of both ranges is gone, none leaked";
}

TEST(Growth, NextCapacityNeverOverflows) {
    using relo::detail::next_capacity;
    EXPECT_EQ(next_capacity<relo::growth_2>(0, 1, 100), 1u);
    EXPECT_EQ(next_capacity<relo::growth_2>(10, 11, 100), 20u);
    EXPECT_EQ(next_capacity<relo::growth_2>(10, 50, 100), 50u);
    EXPECT_EQ(next_capacity<relo::growth_2>(60, 61, 100), 100u);
    EXPECT_EQ(next_capacity<relo::growth_1_5>(1, 2, 100), 2u);
    EXPECT_EQ(next_capacity<relo::growth_1_5>(10, 11, 100), 15u);
    EXPECT_EQ(next_capacity<relo::growth_1_6>(10, 11, 100), 16u);
    const std::size_t max = static_cast<std::size_t>(-1) / 4;
    EXPECT_EQ(next_capacity<relo::growth_2>(max - 1, max, max), max);
    using slow_growth = relo::growth_factor<1000, 999>;
    EXPECT_EQ(next_capacity<slow_growth>(max / 2, max / 2 + 1, max), max / 2 + max / 2 / 999);
    static_assert(relo::growth_factor<4, 2>::num == 2 && relo::growth_factor<4, 2>::den == 1);
}

}  // namespace
}  // namespace relo_test
