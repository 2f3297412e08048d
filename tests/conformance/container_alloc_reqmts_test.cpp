// [container.alloc.reqmts] (allocator-aware containers) for relo::vector and small_vector, with an
// allocator that checks each construct, destroy and deallocate (conformance.hpp): stateful, unequal
// instances, with and without propagation.
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

// Code that still says `using namespace std::rel_ops` (deprecated, not removed) must compile with relo:
// with it in scope before relo's headers, `a != b` on allocators whose comparisons are templates is
// ambiguous, so relo compares allocators with !(a == b).
using namespace std::rel_ops;

#include "conformance.hpp"

namespace conformance {
namespace {

template <class F>
class container_alloc_reqmts : public ::testing::Test {
protected:
    ledger_guard guard_;
};
TYPED_TEST_SUITE(container_alloc_reqmts, allocator_aware_families, family_names);

template <class F, bool Copy = false, bool Move = false, bool Swap = false>
using container_of_strings = typename F::template type<std::string, checking_allocator<std::string, Copy, Move, Swap>>;

std::vector<std::string> words(int n, char c) {
    std::vector<std::string> v;
    for (int i = 0; i < n; ++i) v.push_back(std::string(static_cast<std::size_t>(i % 40), c) + std::to_string(i));
    return v;
}

// allocator_type, get_allocator(), and every constructor that takes an allocator uses it.
TYPED_TEST(container_alloc_reqmts, constructors_take_the_allocator) {
    using A = checking_allocator<std::string>;
    using X = container_of_strings<TypeParam>;
    static_assert(std::is_same_v<typename X::allocator_type, A>);
    const A a(7);
    const std::vector<std::string> model = words(20, 'w');
    X by_alloc(a);
    EXPECT_EQ(by_alloc.get_allocator(), a);
    EXPECT_TRUE(by_alloc.empty());
    X n_values(5, a);
    EXPECT_EQ(n_values.get_allocator(), a);
    EXPECT_EQ(n_values.size(), 5u);
    X filled(9, "x", a);
    EXPECT_EQ(contents(filled), std::vector<std::string>(9, "x"));
    X ranged(model.begin(), model.end(), a);
    EXPECT_EQ(contents(ranged), model);
    EXPECT_EQ(ranged.get_allocator(), a);
    X listed({"a", "b", "c", "d", "e", "f"}, a);
    EXPECT_EQ(listed.size(), 6u);
    X copied(ranged);
    EXPECT_EQ(copied.get_allocator(), a) << "without select_on_container_copy_construction, a copy";
    EXPECT_EQ(contents(copied), model);
    const A other(8);
    X copied_with(ranged, other);
    EXPECT_EQ(copied_with.get_allocator(), other);
    EXPECT_EQ(contents(copied_with), model);
    X moved_equal(std::move(copied), a);
    EXPECT_EQ(contents(moved_equal), model);
    X moved_unequal(std::move(moved_equal), other);
    EXPECT_EQ(moved_unequal.get_allocator(), other);
    EXPECT_EQ(contents(moved_unequal), model);
    X moved(std::move(moved_unequal));
    EXPECT_EQ(moved.get_allocator(), other) << "a move constructor moves the allocator";
    EXPECT_EQ(contents(moved), model);
    EXPECT_EQ(ledger::instance().violations, 0);
}

// Copy assignment: the allocator propagates exactly when propagate_on_container_copy_assignment.
TYPED_TEST(container_alloc_reqmts, copy_assignment_propagation) {
    for (int sizes = 0; sizes < 9; ++sizes) {
        const int n = (sizes % 3) * 5, m = (sizes / 3) * 5;
        {
            using X = container_of_strings<TypeParam, false>;
            const std::vector<std::string> mine = words(n, 'a');
            X a(mine.begin(), mine.end(), checking_allocator<std::string>(1));
            const std::vector<std::string> source = words(m, 'b');
            X b(source.begin(), source.end(), checking_allocator<std::string>(2));
            a = b;
            EXPECT_EQ(a.get_allocator().id(), 1);
            EXPECT_EQ(contents(a), source);
        }
        {
            using X = container_of_strings<TypeParam, true>;
            using A = checking_allocator<std::string, true>;
            const std::vector<std::string> mine = words(n, 'a');
            X a(mine.begin(), mine.end(), A(1));
            const std::vector<std::string> source = words(m, 'b');
            X b(source.begin(), source.end(), A(2));
            a = b;
            EXPECT_EQ(a.get_allocator().id(), 2);
            EXPECT_EQ(contents(a), source);
            a.push_back("more");  // the adopted allocator keeps working
        }
    }
    EXPECT_EQ(ledger::instance().violations, 0);
}

// Move assignment: with propagate_on_container_move_assignment the allocator and the storage move;
// without it and unequal allocators, the elements move one by one, each destroyed by the allocator
// that constructed it.
TYPED_TEST(container_alloc_reqmts, move_assignment_propagation) {
    for (int sizes = 0; sizes < 9; ++sizes) {
        const int n = (sizes % 3) * 5, m = (sizes / 3) * 5;
        const std::vector<std::string> mine = words(n, 'a');
        const std::vector<std::string> source = words(m, 'b');
        {
            using A = checking_allocator<std::string, false, false>;
            using X = container_of_strings<TypeParam, false, false>;
            X a(mine.begin(), mine.end(), A(1));
            X b(source.begin(), source.end(), A(2));
            a = std::move(b);
            EXPECT_EQ(a.get_allocator().id(), 1);
            EXPECT_EQ(contents(a), source);
            b.clear();
            b.push_back("b is still usable");
        }
        {
            using A = checking_allocator<std::string, false, false>;
            using X = container_of_strings<TypeParam, false, false>;
            X a(mine.begin(), mine.end(), A(3));
            X b(source.begin(), source.end(), A(3));
            a = std::move(b);
            EXPECT_EQ(contents(a), source);
        }
        {
            using A = checking_allocator<std::string, false, true>;
            using X = container_of_strings<TypeParam, false, true>;
            X a(mine.begin(), mine.end(), A(1));
            X b(source.begin(), source.end(), A(2));
            a = std::move(b);
            EXPECT_EQ(a.get_allocator().id(), 2);
            EXPECT_EQ(contents(a), source);
            a.push_back("more");
        }
    }
    EXPECT_EQ(ledger::instance().violations, 0);
}

// swap: the allocators are exchanged when propagate_on_container_swap; otherwise they must be equal.
TYPED_TEST(container_alloc_reqmts, swap_propagation) {
    const std::vector<std::string> one = words(3, 'a'), two = words(12, 'b');
    {
        using A = checking_allocator<std::string, false, false, true>;
        using X = container_of_strings<TypeParam, false, false, true>;
        X a(one.begin(), one.end(), A(1));
        X b(two.begin(), two.end(), A(2));
        a.swap(b);
        EXPECT_EQ(a.get_allocator().id(), 2);
        EXPECT_EQ(b.get_allocator().id(), 1);
        EXPECT_EQ(contents(a), two);
        EXPECT_EQ(contents(b), one);
        a.push_back("x");
        b.push_back("y");
    }
    {
        using A = checking_allocator<std::string>;
        using X = container_of_strings<TypeParam>;
        X a(one.begin(), one.end(), A(4));
        X b(two.begin(), two.end(), A(4));
        swap(a, b);
        EXPECT_EQ(contents(a), two);
        EXPECT_EQ(contents(b), one);
    }
    EXPECT_EQ(ledger::instance().violations, 0);
}

// Every operation constructs and destroys through the container's allocator.
TYPED_TEST(container_alloc_reqmts, operations_use_the_allocator) {
    using A = checking_allocator<std::string>;
    using X = container_of_strings<TypeParam>;
    X a(A(5));
    std::vector<std::string> model;
    for (int i = 0; i < 40; ++i) {
        a.emplace_back(static_cast<std::size_t>(i), 'e');
        model.emplace_back(static_cast<std::size_t>(i), 'e');
    }
    a.insert(a.begin() + 3, 4, "four");
    model.insert(model.begin() + 3, 4, "four");
    a.erase(a.begin() + 10, a.begin() + 20);
    model.erase(model.begin() + 10, model.begin() + 20);
    a.resize(50);
    model.resize(50);
    a.resize(7);
    model.resize(7);
    a.shrink_to_fit();
    a.reserve(100);
    a.assign(model.rbegin(), model.rend());
    EXPECT_EQ(contents(a), std::vector<std::string>(model.rbegin(), model.rend()));
    EXPECT_EQ(ledger::instance().violations, 0);
}

/// Propagating on every assignment, compared through templates (as polymorphic_allocator is in C++17).
template <class T>
struct template_compared_allocator {
    using value_type = T;
    using propagate_on_container_copy_assignment = std::true_type;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    using is_always_equal = std::false_type;
    int id = 0;
    explicit template_compared_allocator(int i) noexcept : id(i) {}
    template <class U>
    template_compared_allocator(const template_compared_allocator<U>& o) noexcept : id(o.id) {}
    T* allocate(std::size_t n) { return std::allocator<T>().allocate(n); }
    void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
};
template <class T, class U>
bool operator==(const template_compared_allocator<T>& a, const template_compared_allocator<U>& b) noexcept {
    return a.id == b.id;
}
template <class T, class U>
bool operator!=(const template_compared_allocator<T>& a, const template_compared_allocator<U>& b) noexcept {
    return a.id != b.id;
}

TYPED_TEST(container_alloc_reqmts, allocator_comparison_with_rel_ops_in_scope) {
    using A = template_compared_allocator<std::string>;
    using X = typename TypeParam::template type<std::string, A>;
    const std::vector<std::string> source = words(9, 'r');
    X a(source.begin(), source.end(), A(1));
    X b(A(2));
    b = a;
    EXPECT_EQ(b.get_allocator().id, 1);
    X c(A(3));
    c = std::move(b);
    EXPECT_EQ(c.get_allocator().id, 1);
    EXPECT_EQ(contents(c), source);
}

// Allocators with fancy pointers: X::pointer is the allocator's, and the container stores that type, so a
// container and its storage placed together in one buffer keep working once the buffer's bytes are
// copied elsewhere and the original is overwritten (how offset_ptr serves shared memory).
TYPED_TEST(container_alloc_reqmts, fancy_pointers) {
    using A = arena_allocator<int>;
    using X = typename TypeParam::template type<int, A>;
    static_assert(std::is_same_v<typename X::pointer, offset_pointer<int>>);
    static_assert(std::is_same_v<typename X::const_pointer, offset_pointer<const int>>);
    static_assert(std::is_same_v<decltype(std::declval<typename X::iterator>().operator->()), int*>,
                  "iterators hold raw pointers, whatever the allocator's pointer");
    struct region {
        arena heap;
        alignas(X) unsigned char object[sizeof(X)];
    };
    auto original = std::make_unique<region>();
    X* v = ::new (static_cast<void*>(original->object)) X(A(original->heap));
    std::vector<int> model;
    for (int i = 0; i < 3; ++i) {
        v->push_back(i);
        model.push_back(i);
    }
    const auto check_and_grow = [&](X& c) {
        EXPECT_EQ(contents(c), model);
        for (int i = 0; i < 100; ++i) {
            c.push_back(i * 3);
            model.push_back(i * 3);
        }
        c.insert(c.begin() + 5, 4, -1);
        model.insert(model.begin() + 5, 4, -1);
        c.erase(c.begin(), c.begin() + 7);
        model.erase(model.begin(), model.begin() + 7);
        EXPECT_EQ(contents(c), model);
    };
    check_and_grow(*v);  // from the inline slots (small_vector) to the arena

    auto moved = std::make_unique<region>();
    std::memcpy(static_cast<void*>(moved.get()), static_cast<const void*>(original.get()), sizeof(region));
    std::memset(static_cast<void*>(original.get()), 0xAB, sizeof(region));
    X* w = std::launder(reinterpret_cast<X*>(moved->object));
    check_and_grow(*w);
    X copy(*w);
    EXPECT_EQ(contents(copy), model);
    copy.shrink_to_fit();
    copy.reserve(1000);
    EXPECT_EQ(contents(copy), model);
    w->~X();
}

}  // namespace
}  // namespace conformance
