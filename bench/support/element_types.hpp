// bench/support/element_types.hpp — the element types of the experiments (the 2021 thesis's four, its
// "overriding triviality" wrapper, the 2005 POD-allocator slides' Thingie), and their tables by name.
#ifndef RELO_BENCH_SUPPORT_ELEMENT_TYPES_HPP
#define RELO_BENCH_SUPPORT_ELEMENT_TYPES_HPP

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "relo/relocation.hpp"
#include "tables.hpp"

namespace relo_bench {

/// 8 bytes with user-defined special members that do a little checking: lighter than std::string, but
/// not trivially copyable, so vectors must call its constructors.
struct test_type {
    static constexpr std::uint32_t alive = 0x5AFEu;
    std::uint32_t value = 0;
    std::uint32_t canary = alive;

    test_type() noexcept = default;
    explicit test_type(std::uint32_t v) noexcept : value(v) {}
    test_type(const test_type& o) noexcept : value(o.checked()) {}
    test_type(test_type&& o) noexcept : value(o.checked()) { o.value = 0; }
    test_type& operator=(const test_type& o) noexcept {
        value = o.checked();
        return *this;
    }
    test_type& operator=(test_type&& o) noexcept {
        value = o.checked();
        o.value = 0;
        return *this;
    }
    ~test_type() {
        if (canary != alive) std::abort();
        canary = 0;
    }
    std::uint32_t checked() const noexcept {
        if (canary != alive) std::abort();
        return value;
    }
};
static_assert(sizeof(test_type) == 8);

/// test_type wrapped and declared trivially relocatable (the thesis's T_test_type).
struct relocatable_test_type {
    test_type t;
};

using big_trivial = std::array<int, 10>;

/// The 2005 POD-allocator slides' "Thingie": a small class with its own copy constructor that is safe to move
/// as bytes, and says so.
struct thingie {
    int a = 0;
    int b = 0;
    thingie() = default;
    explicit thingie(int v) noexcept : a(v), b(-v) {}
    thingie(const thingie& o) noexcept : a(o.a), b(o.b) {}
    thingie& operator=(const thingie& o) noexcept {
        a = o.a;
        b = o.b;
        return *this;
    }
};

using trivial_element_types = table<named<"int", int>, named<"array", big_trivial>>;
using class_element_types =
    table<named<"test_type", test_type>, named<"string", std::string>, named<"T_test_type", relocatable_test_type>>;
using vector_element_types = join_t<trivial_element_types, class_element_types>;

}  // namespace relo_bench

RELO_TRIVIALLY_RELOCATABLE(relo_bench::relocatable_test_type);
RELO_TRIVIALLY_RELOCATABLE(relo_bench::thingie);

#endif  // RELO_BENCH_SUPPORT_ELEMENT_TYPES_HPP
