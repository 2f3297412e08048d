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

// A recursive type with a member that names the vector's reverse iterator while the type is incomplete
// (Boost.Container's recursive-vector test): in C++20 that checked the iterator concepts of its pointers
// then, and the answer, false, stayed; ranges of those pointers must still be measured and copied.
struct recursive_node {
    int id = 0;
    relo::vector<recursive_node> children;
    relo::vector<recursive_node>::const_reverse_iterator last_seen{};
};

TEST(vector_cons, recursive_type_with_a_reverse_iterator_member) {
    recursive_node root;
    for (int i = 0; i < 4; ++i) root.children.push_back(recursive_node{i, {}, {}});
    root.last_seen = root.children.crbegin();
    EXPECT_EQ(root.last_seen->id, 3);
    relo::vector<recursive_node> copy(root.children.begin(), root.children.end());
    copy.assign(root.children.begin() + 1, root.children.end());
    copy.insert(copy.begin(), root.children.begin(), root.children.begin() + 2);
    ASSERT_EQ(copy.size(), 5u);
    EXPECT_EQ(copy[0].id, 0);
    EXPECT_EQ(copy[2].id, 1);
    EXPECT_EQ(copy[4].id, 3);
}

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

#if RELO_HAS_CONSTEXPR_ALLOC
// [vector.overview]: every member is usable in constant evaluation (C++20), with an allocator whose
// pointer is a class type too (as the standard library's own test suites check with a minimal pointer):
// the container must not need std::pointer_traits<P>::pointer_to, which is not constexpr for class
// types in every standard library.
// The pointer offers no more than the allocator requirements ask ([allocator.requirements.general]):
// no constructor from a raw pointer, no comparison with nullptr but through the conversion, and a
// default constructor that leaves it uninitialized.
template <class T>
class plain_fancy_allocator;

template <class T>
class plain_fancy_pointer {
    T* p_;
    constexpr explicit plain_fancy_pointer(T* p) noexcept : p_(p) {}
    friend class plain_fancy_allocator<T>;

public:
    using element_type = T;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using pointer = T*;
    using iterator_category = std::random_access_iterator_tag;

    plain_fancy_pointer() noexcept = default;
    constexpr plain_fancy_pointer(std::nullptr_t) noexcept : p_(nullptr) {}
    constexpr explicit operator bool() const noexcept { return p_ != nullptr; }
    constexpr T& operator*() const noexcept { return *p_; }
    constexpr T* operator->() const noexcept { return p_; }
    constexpr T& operator[](difference_type i) const noexcept { return p_[i]; }
    static constexpr plain_fancy_pointer pointer_to(T& r) noexcept { return plain_fancy_pointer(std::addressof(r)); }
    constexpr plain_fancy_pointer& operator+=(difference_type n) noexcept {
        p_ += n;
        return *this;
    }
    constexpr plain_fancy_pointer& operator-=(difference_type n) noexcept {
        p_ -= n;
        return *this;
    }
    constexpr plain_fancy_pointer& operator++() noexcept { return *this += 1; }
    constexpr plain_fancy_pointer& operator--() noexcept { return *this -= 1; }
    constexpr plain_fancy_pointer operator++(int) noexcept {
        plain_fancy_pointer old(*this);
        ++p_;
        return old;
    }
    constexpr plain_fancy_pointer operator--(int) noexcept {
        plain_fancy_pointer old(*this);
        --p_;
        return old;
    }
    constexpr plain_fancy_pointer operator+(difference_type n) const noexcept { return plain_fancy_pointer(p_ + n); }
    constexpr plain_fancy_pointer operator-(difference_type n) const noexcept { return plain_fancy_pointer(p_ - n); }
    friend constexpr plain_fancy_pointer operator+(difference_type n, plain_fancy_pointer p) noexcept { return p + n; }
    friend constexpr difference_type operator-(plain_fancy_pointer a, plain_fancy_pointer b) noexcept { return a.p_ - b.p_; }
    friend constexpr bool operator==(plain_fancy_pointer a, plain_fancy_pointer b) noexcept { return a.p_ == b.p_; }
    friend constexpr bool operator!=(plain_fancy_pointer a, plain_fancy_pointer b) noexcept { return a.p_ != b.p_; }
    friend constexpr bool operator<(plain_fancy_pointer a, plain_fancy_pointer b) noexcept { return a.p_ < b.p_; }
    friend constexpr bool operator>(plain_fancy_pointer a, plain_fancy_pointer b) noexcept { return b < a; }
    friend constexpr bool operator<=(plain_fancy_pointer a, plain_fancy_pointer b) noexcept { return !(b < a); }
    friend constexpr bool operator>=(plain_fancy_pointer a, plain_fancy_pointer b) noexcept { return !(a < b); }
};

template <class T>
class plain_fancy_allocator {
public:
    using value_type = T;
    using pointer = plain_fancy_pointer<T>;
    plain_fancy_allocator() = default;
    template <class U>
    constexpr plain_fancy_allocator(plain_fancy_allocator<U>) noexcept {}
    constexpr pointer allocate(std::ptrdiff_t n) { return pointer(std::allocator<T>().allocate(static_cast<std::size_t>(n))); }
    constexpr void deallocate(pointer p, std::ptrdiff_t n) noexcept {
        std::allocator<T>().deallocate(p.p_, static_cast<std::size_t>(n));
    }
    friend constexpr bool operator==(plain_fancy_allocator, plain_fancy_allocator) noexcept { return true; }
    friend constexpr bool operator!=(plain_fancy_allocator, plain_fancy_allocator) noexcept { return false; }
};

constexpr int fancy_pointer_workout() {
    relo::vector<int, plain_fancy_allocator<int>> v;
    for (int i = 0; i < 100; ++i) v.push_back(i);  // grows through several blocks
    v.insert(v.begin() + 10, 5, -1);
    v.erase(v.begin(), v.begin() + 3);
    v.resize(200, 7);
    v.shrink_to_fit();
    relo::vector<int, plain_fancy_allocator<int>> copy(v);
    copy.assign({4, 5, 6});
    v.swap(copy);
    int sum = 0;
    for (int x : copy) sum += x;
    return sum * 10 + static_cast<int>(v.size());
}
static_assert(fancy_pointer_workout() == (4950 - 5 - 3 + 98 * 7) * 10 + 3);

TEST(vector_cons, constant_evaluation_with_a_fancy_pointer) {
    EXPECT_EQ(fancy_pointer_workout(), (4950 - 5 - 3 + 98 * 7) * 10 + 3);
}
#endif

}  // namespace
}  // namespace conformance
