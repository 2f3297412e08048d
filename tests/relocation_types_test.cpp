// tests/relocation_types_test.cpp — the types people store, relocated as bytes.
//
// Every type the trait lists (the standard library's, relo's own) is built live in a heap buffer, its bytes
// copied to another buffer, the first buffer scribbled over and freed, and the copy used — read, changed,
// destroyed. A type that points into itself reads the scribbles (or, under AddressSanitizer, the freed
// buffer) and fails; the negative controls show that the check catches exactly that.
#include "relo/relocation.hpp"

#include <array>
#include <cstring>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "relo/inplace_vector.hpp"
#include "relo/memory_resource.hpp"
#include "relo/optional_ref.hpp"
#include "relo/page_allocator.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/resource_allocator.hpp"
#include "relo/small_vector.hpp"
#include "relo/vector.hpp"
#include "relocated_bytes.hpp"

namespace relo_test {
namespace {

// ---- What the trait says.

struct polymorphic {
    virtual ~polymorphic() = default;
    int x = 0;
};
struct declared_polymorphic {
    virtual ~declared_polymorphic() = default;
};
struct assignment_only {  // trivial move and destruction, user-provided assignment: relocates as bytes
    int x = 0;
    assignment_only() = default;
    assignment_only(const assignment_only&) = default;
    assignment_only& operator=(const assignment_only& other) {
        x = other.x;
        return *this;
    }
};
struct self_pointing {
    int value = 0;
    int* p = &value;
    explicit self_pointing(int v) : value(v) {}
    self_pointing(const self_pointing& other) : value(other.value), p(&value) {}
    self_pointing& operator=(const self_pointing&) = delete;
};
struct stateful_deleter {
    int tag = 7;
    void operator()(int* p) const noexcept { delete p; }
};

}  // namespace
}  // namespace relo_test

RELO_TRIVIALLY_RELOCATABLE(relo_test::declared_polymorphic);

namespace relo_test {
namespace {

template <class T>
constexpr bool tr = relo::is_trivially_relocatable_v<T>;

// The standard library's types, as the trait knows them (libstdc++ here; docs/relocation.md for libc++).
static_assert(tr<std::unique_ptr<int>> && tr<std::unique_ptr<int[]>> && tr<std::unique_ptr<int, stateful_deleter>>);
static_assert(tr<std::shared_ptr<int>> && tr<std::weak_ptr<int>>);
static_assert(tr<std::vector<int>> && tr<std::vector<std::string>> && tr<std::vector<std::vector<int>>>);
static_assert(tr<std::optional<std::unique_ptr<int>>> && !tr<std::optional<self_pointing>>);
static_assert(tr<std::pair<std::unique_ptr<int>, int>> && tr<std::tuple<int, std::unique_ptr<int>>>);
static_assert(tr<std::tuple<>> && !tr<std::tuple<int, self_pointing>>);
static_assert(tr<std::array<std::unique_ptr<int>, 3>> && tr<std::variant<int, std::unique_ptr<int>>>);
static_assert(!tr<std::variant<int, self_pointing>>);
static_assert(tr<std::allocator<int>>);
static_assert(tr<assignment_only>, "a trivial move and a trivial destructor are a copy of the bytes");
static_assert(!tr<polymorphic>, "a polymorphic type needs a declaration");
static_assert(tr<declared_polymorphic>, "the user's declaration vouches for a polymorphic type");
static_assert(!tr<self_pointing>);
#if defined(__GLIBCXX__)
static_assert(tr<std::function<void()>>, "libstdc++ keeps only trivially copyable callables inside");
#if _GLIBCXX_USE_CXX11_ABI
static_assert(!tr<std::string>, "libstdc++'s string points at its own small-string buffer");
#endif
static_assert(!tr<std::list<int>> && !tr<std::map<int, int>> && !tr<std::set<int>>,
              "libstdc++'s node containers keep their sentinel node inside the object");
static_assert(!tr<std::unordered_map<int, int>>, "libstdc++'s hash table points at its single bucket inside");
#endif

// relo's own.
static_assert(tr<relo::vector<int>> && tr<relo::vector<std::string>> && tr<relo::vector<relo::vector<int>>>);
static_assert(tr<relo::pmr::vector<int>>, "polymorphic_allocator is a pointer");
static_assert(tr<relo::vector<int, relo::resource_allocator<int, relo::multipool_resource>>>);
static_assert(tr<relo::inplace_vector<std::unique_ptr<int>, 4>> && !tr<relo::inplace_vector<self_pointing, 4>>);
static_assert(tr<relo::inplace_vector<int, 0>>);
static_assert(tr<relo::pinned_vector<std::string>>);
static_assert(tr<relo::page_allocator<int>> && tr<relo::optional_ref<int>>);
static_assert(tr<relo::resource_allocator<int, relo::vm_arena>>);
static_assert(!tr<relo::small_vector<int, 4>> && !tr<relo::small_vector_base<int>>,
              "a small_vector points at its own inline slots");
static_assert(!tr<relo::multipool_resource> && !tr<relo::monotonic_resource> && !tr<relo::vm_arena>);

// ---- Relocating live objects as bytes.

TEST(RelocationTypes, SmartPointers) {
    EXPECT_TRUE(relocated_bytes_work<std::unique_ptr<int>>([] { return std::make_unique<int>(42); },
                                                            [](std::unique_ptr<int>& p) { return *p == 42; }));
    EXPECT_TRUE(relocated_bytes_work<std::unique_ptr<int[]>>(
        [] {
            std::unique_ptr<int[]> a(new int[3]{1, 2, 3});
            return a;
        },
        [](std::unique_ptr<int[]>& p) { return p[2] == 3; }));
    using with_deleter = std::unique_ptr<int, stateful_deleter>;
    EXPECT_TRUE(relocated_bytes_work<with_deleter>([] { return with_deleter(new int(5)); },
                                                   [](with_deleter& p) { return *p == 5 && p.get_deleter().tag == 7; }));

    auto shared = std::make_shared<std::string>("shared and long enough to live on the heap");
    EXPECT_TRUE(relocated_bytes_work<std::shared_ptr<std::string>>(
        [&] { return shared; },
        [&](std::shared_ptr<std::string>& p) { return p == shared && shared.use_count() == 2 && p->size() > 20; }));
    EXPECT_EQ(shared.use_count(), 1) << "the relocated copy's destructor released its reference";
    EXPECT_TRUE(relocated_bytes_work<std::weak_ptr<std::string>>(
        [&] { return std::weak_ptr<std::string>(shared); },
        [&](std::weak_ptr<std::string>& w) { return shared.use_count() == 1 && w.lock() == shared; }));
}

TEST(RelocationTypes, StandardContainersAndWrappers) {
    EXPECT_TRUE(relocated_bytes_work<std::vector<int>>([] { return std::vector<int>{1, 2, 3}; },
                                                        [](std::vector<int>& v) {
                                                            v.push_back(4);  // reallocates: the block is its own
                                                            return v == std::vector<int>{1, 2, 3, 4};
                                                        }));
    EXPECT_TRUE(relocated_bytes_work<std::vector<std::string>>(
        [] { return std::vector<std::string>{"a", std::string(100, 'b')}; },
        [](std::vector<std::string>& v) { return v.size() == 2 && v[1].size() == 100 && v[0] == "a"; }));
    EXPECT_TRUE(relocated_bytes_work<std::optional<std::unique_ptr<int>>>(
        [] { return std::optional<std::unique_ptr<int>>(std::make_unique<int>(9)); },
        [](std::optional<std::unique_ptr<int>>& o) { return o && **o == 9; }));
    EXPECT_TRUE(relocated_bytes_work<std::optional<std::vector<int>>>(
        [] { return std::optional<std::vector<int>>(); }, [](std::optional<std::vector<int>>& o) { return !o; }));
    using both = std::pair<std::unique_ptr<int>, int>;
    EXPECT_TRUE(relocated_bytes_work<both>([] { return both(std::make_unique<int>(1), 2); },
                                           [](both& p) { return *p.first == 1 && p.second == 2; }));
    using three = std::tuple<int, std::unique_ptr<int>, std::vector<int>>;
    EXPECT_TRUE(relocated_bytes_work<three>([] { return three(1, std::make_unique<int>(2), std::vector<int>(3, 3)); },
                                            [](three& t) {
                                                return std::get<0>(t) == 1 && *std::get<1>(t) == 2 &&
                                                       std::get<2>(t) == std::vector<int>(3, 3);
                                            }));
    using pointers = std::array<std::unique_ptr<int>, 2>;
    EXPECT_TRUE(relocated_bytes_work<pointers>([] { return pointers{std::make_unique<int>(1), nullptr}; },
                                               [](pointers& a) { return *a[0] == 1 && !a[1]; }));
    using either = std::variant<int, std::unique_ptr<int>, std::vector<int>>;
    EXPECT_TRUE(relocated_bytes_work<either>([] { return either(std::make_unique<int>(4)); },
                                             [](either& v) { return *std::get<1>(v) == 4; }));
    EXPECT_TRUE(relocated_bytes_work<either>([] { return either(std::vector<int>{5, 6}); },
                                             [](either& v) { return std::get<2>(v)[1] == 6; }));
}

#if defined(__GLIBCXX__)
TEST(RelocationTypes, FunctionsSmallAndLarge) {
    // A small trivially copyable callable lives inside the std::function; a large one on the heap.
    int small = 21;  // (not const: a captured constant would need no capture)
    EXPECT_TRUE(relocated_bytes_work<std::function<int()>>([&] { return std::function<int()>([small] { return 2 * small; }); },
                                                           [](std::function<int()>& f) { return f() == 42; }));
    std::vector<int> captured(100, 1);
    EXPECT_TRUE(relocated_bytes_work<std::function<int()>>(
        [&] { return std::function<int()>([captured] { return static_cast<int>(captured.size()); }); },
        [](std::function<int()>& f) { return f() == 100 && std::function<int()>(f)() == 100; }));
}
#endif

TEST(RelocationTypes, ReloContainers) {
    EXPECT_TRUE(relocated_bytes_work<relo::vector<int>>([] { return relo::vector<int>{1, 2, 3}; },
                                                         [](relo::vector<int>& v) {
                                                             v.resize(100000, 7);  // a block realloc grows
                                                             return v[2] == 3 && v.back() == 7;
                                                         }));
    EXPECT_TRUE(relocated_bytes_work<relo::vector<relo::vector<int>>>(
        [] { return relo::vector<relo::vector<int>>{{1}, {2, 3}}; },
        [](relo::vector<relo::vector<int>>& v) { return v[1][1] == 3; }));
    using fixed = relo::inplace_vector<std::unique_ptr<int>, 3>;
    EXPECT_TRUE(relocated_bytes_work<fixed>(
        [] {
            fixed f;
            f.push_back(std::make_unique<int>(8));
            return f;
        },
        [](fixed& f) { return f.size() == 1 && *f[0] == 8; }));
    EXPECT_TRUE(relocated_bytes_work<relo::pinned_vector<std::string>>(
        [] {
            relo::pinned_vector<std::string> p(relo::max_capacity, 1000);
            p.push_back("pinned");
            return p;
        },
        [](relo::pinned_vector<std::string>& p) {
            p.push_back("grows");
            return p.size() == 2 && p[0] == "pinned";
        }));
}

// The check fails for types that point into themselves: what a wrong entry in the trait would do.
TEST(RelocationTypes, NegativeControlsFailTheCheck) {
    // Not freed before the check (AddressSanitizer would stop the program), and not destroyed after:
    // their copies point into the scribbled source.
    EXPECT_FALSE(relocated_bytes_work<self_pointing>([] { return self_pointing(5); },
                                                     [](self_pointing& s) { return *s.p == 5; }, false, false));
    using small = relo::small_vector<int, 4>;
    EXPECT_FALSE(relocated_bytes_work<small>([] { return small{1, 2, 3}; },
                                             [](small& s) { return s[0] == 1 && s[2] == 3; }, false, false));
#if defined(__GLIBCXX__) && _GLIBCXX_USE_CXX11_ABI
    EXPECT_FALSE(relocated_bytes_work<std::string>([] { return std::string("short"); },
                                                   [](std::string& s) { return s == "short"; }, false, false));
#endif
}

// relo's containers relocate these element types as bytes when they grow: the elements survive.
TEST(RelocationTypes, ContainersOfThemGrowAndShift) {
    relo::vector<std::unique_ptr<int>> pointers;
    relo::vector<std::vector<int>> vectors;
    relo::vector<relo::vector<int>> nested;
    for (int i = 0; i < 5000; ++i) {
        pointers.push_back(std::make_unique<int>(i));
        vectors.push_back(std::vector<int>(3, i));
        nested.push_back(relo::vector<int>{i, i + 1});
    }
    pointers.insert(pointers.begin() + 10, std::make_unique<int>(-1));
    pointers.erase(pointers.begin());
    vectors.erase(vectors.begin() + 100, vectors.begin() + 200);
    nested.insert(nested.begin(), relo::vector<int>{-1});
    EXPECT_EQ(*pointers[8], 9);
    EXPECT_EQ(*pointers[9], -1);
    EXPECT_EQ(*pointers.back(), 4999);
    EXPECT_EQ(vectors.size(), 4900u);
    EXPECT_EQ(vectors[100], std::vector<int>(3, 200));
    EXPECT_EQ(nested[0][0], -1);
    EXPECT_EQ(nested[4000][1], 4000);
}

}  // namespace
}  // namespace relo_test
