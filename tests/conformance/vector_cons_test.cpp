// [vector.overview] and [vector.cons] (with the deduction guides of [container.reqmts]) for relo::vector,
// and small_vector where it follows the same interface: incomplete element types, class template
// argument deduction, the default constructor, and code ported from std::vector.
#include <iterator>
#include <list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "conformance.hpp"

namespace conformance {
namespace {

// [vector.overview]: an incomplete T is allowed until a member of the vector is used.
struct tree_node {
    int value = 0;
    relo::vector<tree_node> children;
};

struct declared_later;
struct holder_of_later {
    relo::vector<declared_later> items;
    holder_of_later();
    ~holder_of_later();
};
struct declared_later {
    int value;
};
holder_of_later::holder_of_later() = default;
holder_of_later::~holder_of_later() = default;

TEST(vector_cons, incomplete_element_type) {
    tree_node root;
    root.children.push_back(tree_node{1, {}});
    root.children[0].children.push_back(tree_node{2, {}});
    root.children.emplace_back();
    tree_node copy = root;
    ASSERT_EQ(copy.children.size(), 2u);
    EXPECT_EQ(copy.children[0].children[0].value, 2);
    holder_of_later h;
    h.items.push_back(declared_later{3});
    EXPECT_EQ(h.items[0].value, 3);
}

// A destructor that only the allocator's destroy() can reach: T is Erasable through the allocator.
class private_destructor;
template <class T>
struct befriended_allocator {
    using value_type = T;
    befriended_allocator() = default;
    template <class U>
    befriended_allocator(const befriended_allocator<U>&) noexcept {}
    T* allocate(std::size_t n) { return std::allocator<T>().allocate(n); }
    void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
    template <class U>
    void destroy(U* p) {
        p->~U();
    }
    friend bool operator==(befriended_allocator, befriended_allocator) { return true; }
    friend bool operator!=(befriended_allocator, befriended_allocator) { return false; }
};
class private_destructor {
public:
    explicit private_destructor(int v) : value(v) {}
    private_destructor(const private_destructor&) = default;
    private_destructor& operator=(const private_destructor&) = default;
    int value;

private:
    ~private_destructor() = default;
    friend struct befriended_allocator<private_destructor>;
};

TEST(vector_cons, destructor_reached_through_the_allocator) {
    relo::vector<private_destructor, befriended_allocator<private_destructor>> v;
    for (int i = 0; i < 20; ++i) v.emplace_back(i);
    v.erase(v.begin() + 3);
    v.pop_back();
    EXPECT_EQ(v.size(), 18u);
    EXPECT_EQ(v[3].value, 4);
}

// Deduction guides: vector(first, last [, alloc]) deduces the iterator's value type and the allocator;
// a third argument that is not an allocator leaves the guide out.
template <class... Args>
auto deduce(int, Args&&... args) -> decltype(relo::vector(std::forward<Args>(args)...), std::true_type{});
template <class... Args>
std::false_type deduce(long, Args&&...);
template <class... Args>
constexpr bool deducible_v = decltype(deduce(0, std::declval<Args>()...))::value;

TEST(vector_cons, deduction_guides) {
    const std::list<std::string> source{"a", "b", "c"};
    relo::vector by_range(source.begin(), source.end());
    static_assert(std::is_same_v<decltype(by_range), relo::vector<std::string>>);
    relo::vector with_std(source.begin(), source.end(), std::allocator<std::string>());
    static_assert(std::is_same_v<decltype(with_std), relo::vector<std::string, std::allocator<std::string>>>);
    relo::vector with_relo(source.begin(), source.end(), relo::page_allocator<std::string>());
    static_assert(std::is_same_v<decltype(with_relo), relo::vector<std::string>>);
    relo::vector listed{1, 2, 3};
    static_assert(std::is_same_v<decltype(listed), relo::vector<int>>);
    relo::vector copied(listed);
    static_assert(std::is_same_v<decltype(copied), relo::vector<int>>);
    relo::vector filled(3u, 2.5);
    static_assert(std::is_same_v<decltype(filled), relo::vector<double>>);
    EXPECT_EQ(with_std.size(), 3u);
    relo::small_vector small_by_range(source.begin(), source.end(), std::allocator<std::string>());
    EXPECT_EQ(small_by_range.size(), 3u);

    using It = std::list<int>::const_iterator;
    static_assert(deducible_v<It, It>);
    static_assert(deducible_v<It, It, std::allocator<int>>);
    static_assert(!deducible_v<It, It, int>, "an int does not qualify as an allocator");
    static_assert(!deducible_v<It, It, std::string>, "neither does a string");
}

template <class T>
struct no_default_allocator {
    using value_type = T;
    explicit no_default_allocator(int) noexcept {}
    template <class U>
    no_default_allocator(const no_default_allocator<U>&) noexcept {}
    T* allocate(std::size_t n) { return std::allocator<T>().allocate(n); }
    void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
    friend bool operator==(no_default_allocator, no_default_allocator) { return true; }
    friend bool operator!=(no_default_allocator, no_default_allocator) { return false; }
};

template <class T>
struct throwing_default_allocator : std::allocator<T> {
    throwing_default_allocator() noexcept(false) {}
    template <class U>
    throwing_default_allocator(const throwing_default_allocator<U>&) noexcept {}
    template <class U>
    struct rebind {
        using other = throwing_default_allocator<U>;
    };
};

// vector() noexcept(noexcept(Allocator())): a trait, not a hard error, for an allocator without a
// default constructor; and no default constructor at all then.
TEST(vector_cons, default_constructor) {
    static_assert(std::is_nothrow_default_constructible_v<relo::vector<int>>);
    static_assert(std::is_nothrow_default_constructible_v<relo::vector<int, std::allocator<int>>>);
    static_assert(!std::is_nothrow_default_constructible_v<relo::vector<int, throwing_default_allocator<int>>>);
    static_assert(std::is_default_constructible_v<relo::vector<int, throwing_default_allocator<int>>>);
    static_assert(!std::is_default_constructible_v<relo::vector<int, no_default_allocator<int>>>);
    static_assert(!std::is_default_constructible_v<relo::small_vector<int, 4, no_default_allocator<int>>>);
    relo::vector<int, no_default_allocator<int>> v(no_default_allocator<int>(1));
    v.push_back(1);
    EXPECT_EQ(v.size(), 1u);
}

// Code written for std::vector passes std::allocator<T>() explicitly.
TEST(vector_cons, accepts_std_allocator_arguments) {
    relo::vector<int> a(4, 1, std::allocator<int>());
    relo::vector<int> b{std::allocator<int>()};
    relo::vector<int> c({1, 2, 3}, std::allocator<int>());
    relo::vector<int> d(a, std::allocator<int>());
    relo::small_vector<int, 2> e(5, std::allocator<int>());
    EXPECT_EQ(a.size() + b.size() + c.size() + d.size() + e.size(), 16u);
}

}  // namespace
}  // namespace conformance
