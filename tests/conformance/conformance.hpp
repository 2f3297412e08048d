// tests/conformance/conformance.hpp — what the conformance tests share: the containers under test, element
// types that ask as little of a container as the standard allows (or that are hostile to careless code),
// and an allocator that checks every construct, destroy and deallocate.
//
// The tests are written from the wording of the standard ([container.reqmts], [sequence.reqmts],
// [container.alloc.reqmts], [vector.*], [inplace.vector.*]), one file per clause; each runs for every
// container the clause applies to, against std::vector as the model of the contents.
#ifndef RELO_TESTS_CONFORMANCE_HPP
#define RELO_TESTS_CONFORMANCE_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "relo/inplace_vector.hpp"
#include "relo/small_vector.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/vector.hpp"

namespace conformance {

// ---- The containers. A family maps an element type (and, for allocator-aware containers, an allocator)
// to a container type.

struct vector_family {
    template <class T, class A = relo::default_allocator<T>>
    using type = relo::vector<T, A>;
    static constexpr bool allocator_aware = true;
    static constexpr bool fixed_capacity = false;
    static constexpr std::size_t capacity = std::size_t(-1);
    static constexpr const char* name = "vector";
};

/// Four elements inline: the tests cross from the slots to the heap.
struct small_vector_family {
    template <class T, class A = relo::default_allocator<T>>
    using type = relo::small_vector<T, 4, A>;
    static constexpr bool allocator_aware = true;
    static constexpr bool fixed_capacity = false;
    static constexpr std::size_t capacity = std::size_t(-1);
    static constexpr const char* name = "small_vector";
};

struct inplace_vector_family {
    template <class T, class A = void>
    using type = relo::inplace_vector<T, 64>;
    static constexpr bool allocator_aware = false;
    static constexpr bool fixed_capacity = true;
    static constexpr std::size_t capacity = 64;
    static constexpr const char* name = "inplace_vector";
};

/// The default reservation (4 GiB of address space).
struct pinned_vector_family {
    template <class T, class A = void>
    using type = relo::pinned_vector<T>;
    static constexpr bool allocator_aware = false;
    static constexpr bool fixed_capacity = false;
    static constexpr std::size_t capacity = std::size_t(-1);
    static constexpr const char* name = "pinned_vector";
};

using all_families = ::testing::Types<vector_family, small_vector_family, inplace_vector_family, pinned_vector_family>;
using allocator_aware_families = ::testing::Types<vector_family, small_vector_family>;

struct family_names {
    template <class F>
    static std::string GetName(int) {
        return F::name;
    }
};

/// The contents as a std::vector (the model every test compares with).
template <class C>
auto contents(const C& c) {
    return std::vector<typename C::value_type>(c.begin(), c.end());
}

/// n values from a fixed seed.
inline std::vector<int> random_values(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> dist(-1000, 1000);
    std::vector<int> v(n);
    for (int& x : v) x = dist(gen);
    return v;
}

// ---- Element types.

/// Counts live objects of every counted type, to find leaks and double destructions.
struct live_objects {
    static inline long count = 0;
};

/// A value type whose five special members are each user-provided or defaulted by a bit of Mask
/// (bit 0: copy constructor, 1: move constructor, 2: copy assignment, 3: move assignment, 4: destructor),
/// so that all 32 combinations of trivial and user-provided members can be instantiated (in C++17 too:
/// one base layer per member).
namespace special_layers {
template <bool User>
struct destructor_layer {
    int value = 0;
    destructor_layer() = default;
    explicit destructor_layer(int v) : value(v) {}
};
template <>
struct destructor_layer<true> {
    int value = 0;
    destructor_layer() = default;
    explicit destructor_layer(int v) : value(v) {}
    destructor_layer(const destructor_layer&) = default;
    destructor_layer(destructor_layer&&) = default;
    destructor_layer& operator=(const destructor_layer&) = default;
    destructor_layer& operator=(destructor_layer&&) = default;
    ~destructor_layer() { value = -7; }
};

template <bool User, class Base>
struct copy_constructor_layer : Base {
    using Base::Base;
};
template <class Base>
struct copy_constructor_layer<true, Base> : Base {
    using Base::Base;
    copy_constructor_layer() = default;
    copy_constructor_layer(const copy_constructor_layer& o) : Base(o.value) {}
    copy_constructor_layer(copy_constructor_layer&&) = default;
    copy_constructor_layer& operator=(const copy_constructor_layer&) = default;
    copy_constructor_layer& operator=(copy_constructor_layer&&) = default;
};

template <bool User, class Base>
struct move_constructor_layer : Base {
    using Base::Base;
};
template <class Base>
struct move_constructor_layer<true, Base> : Base {
    using Base::Base;
    move_constructor_layer() = default;
    move_constructor_layer(const move_constructor_layer&) = default;
    move_constructor_layer(move_constructor_layer&& o) noexcept : Base(o.value) {}
    move_constructor_layer& operator=(const move_constructor_layer&) = default;
    move_constructor_layer& operator=(move_constructor_layer&&) = default;
};

template <bool User, class Base>
struct copy_assignment_layer : Base {
    using Base::Base;
};
template <class Base>
struct copy_assignment_layer<true, Base> : Base {
    using Base::Base;
    copy_assignment_layer() = default;
    copy_assignment_layer(const copy_assignment_layer&) = default;
    copy_assignment_layer(copy_assignment_layer&&) = default;
    copy_assignment_layer& operator=(const copy_assignment_layer& o) {
        this->value = o.value;
        return *this;
    }
    copy_assignment_layer& operator=(copy_assignment_layer&&) = default;
};

template <bool User, class Base>
struct move_assignment_layer : Base {
    using Base::Base;
};
template <class Base>
struct move_assignment_layer<true, Base> : Base {
    using Base::Base;
    move_assignment_layer() = default;
    move_assignment_layer(const move_assignment_layer&) = default;
    move_assignment_layer(move_assignment_layer&&) = default;
    move_assignment_layer& operator=(const move_assignment_layer&) = default;
    move_assignment_layer& operator=(move_assignment_layer&& o) noexcept {
        this->value = o.value;
        return *this;
    }
};
}  // namespace special_layers

template <unsigned Mask>
struct special
    : special_layers::move_assignment_layer<
          (Mask & 8u) != 0,
          special_layers::copy_assignment_layer<
              (Mask & 4u) != 0,
              special_layers::move_constructor_layer<
                  (Mask & 2u) != 0,
                  special_layers::copy_constructor_layer<(Mask & 1u) != 0,
                                                         special_layers::destructor_layer<(Mask & 16u) != 0>>>>> {
    using base = special_layers::move_assignment_layer<
        (Mask & 8u) != 0,
        special_layers::copy_assignment_layer<
            (Mask & 4u) != 0,
            special_layers::move_constructor_layer<
                (Mask & 2u) != 0,
                special_layers::copy_constructor_layer<(Mask & 1u) != 0,
                                                       special_layers::destructor_layer<(Mask & 16u) != 0>>>>>;
    using base::base;
    special() = default;
    friend bool operator==(const special& a, const special& b) { return a.value == b.value; }
    friend bool operator!=(const special& a, const special& b) { return a.value != b.value; }
};

/// Copyable but not assignable: enough for X(i, j), X(n, t) and push_back ([sequence.reqmts] asks no
/// assignment of them).
struct not_assignable {
    int value;
    explicit not_assignable(int v) : value(v) {}
    not_assignable(const not_assignable&) = default;
    not_assignable& operator=(const not_assignable&) = delete;
};

/// Default-constructible only (neither copyable nor movable): enough for X(n).
struct default_only {
    int value = 41;
    default_only() = default;
    default_only(const default_only&) = delete;
    default_only& operator=(const default_only&) = delete;
};

/// Trivially copyable and move-only.
struct trivial_move_only {
    int value;
    explicit trivial_move_only(int v) : value(v) {}
    trivial_move_only(trivial_move_only&&) = default;
    trivial_move_only& operator=(trivial_move_only&&) = default;
    trivial_move_only(const trivial_move_only&) = delete;
    trivial_move_only& operator=(const trivial_move_only&) = delete;
};
static_assert(std::is_trivially_copyable_v<trivial_move_only>);

/// Counts its moves and copies (emplace_back must construct in place, not move a temporary in).
struct construction_counter {
    static inline int copies = 0;
    static inline int moves = 0;
    int a = 0, b = 0;
    construction_counter(int x, int y) : a(x), b(y) {}
    construction_counter(const construction_counter& o) : a(o.a), b(o.b) { ++copies; }
    construction_counter(construction_counter&& o) noexcept : a(o.a), b(o.b) { ++moves; }
    construction_counter& operator=(const construction_counter&) = default;
    construction_counter& operator=(construction_counter&&) = default;
};

/// Hostile to careless generic code: unary & and the comma operator are deleted.
struct hostile {
    int value = 0;
    hostile() = default;
    explicit hostile(int v) : value(v) {}
    hostile(const hostile&) = default;
    hostile& operator=(const hostile&) = default;
    void operator&() const = delete;
    template <class U>
    void operator,(U&&) const = delete;
    friend bool operator==(const hostile& a, const hostile& b) { return a.value == b.value; }
    friend bool operator<(const hostile& a, const hostile& b) { return a.value < b.value; }
};

/// The namespace of a hostile type also holds a greedy operator& and operator, that argument-dependent
/// lookup finds for anything that names the type, containers of it included.
namespace greedy {
struct element {
    int value = 0;
    element() = default;
    explicit element(int v) : value(v) {}
    friend bool operator==(const element& a, const element& b) { return a.value == b.value; }
};
template <class U>
void operator&(U&&) = delete;
template <class U, class V>
void operator,(U&&, V&&) = delete;
}  // namespace greedy

/// An iterator over ints of the given category (input: single pass; forward) whose comma operator is
/// deleted.
template <class Category>
class hostile_iterator {
public:
    using iterator_category = Category;
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    using pointer = const int*;
    using reference = const int&;

    hostile_iterator() = default;
    explicit hostile_iterator(const int* p) : p_(p) {}
    reference operator*() const { return *p_; }
    hostile_iterator& operator++() {
        ++p_;
        return *this;
    }
    hostile_iterator operator++(int) {
        hostile_iterator old = *this;
        ++p_;
        return old;
    }
    friend bool operator==(const hostile_iterator& a, const hostile_iterator& b) { return a.p_ == b.p_; }
    friend bool operator!=(const hostile_iterator& a, const hostile_iterator& b) { return a.p_ != b.p_; }
    template <class U>
    void operator,(U&&) const = delete;

private:
    const int* p_ = nullptr;
};
using hostile_input_iterator = hostile_iterator<std::input_iterator_tag>;
using hostile_forward_iterator = hostile_iterator<std::forward_iterator_tag>;

// ---- An allocator that checks the allocator requirements as a container uses them.
//
// Every allocator has an identity; copies share it, and equality is identity. The ledger records each
// block (which allocator identity gave it) and each object constructed through construct() (which
// identity constructed it). A container must destroy an object through an allocator equal to the one that
// constructed it, construct only inside blocks of an equal allocator, and deallocate a block whole,
// through an equal allocator, with no object alive in it. A violation is a test failure naming it.
// (Constructing outside the allocator's blocks is allowed: small_vector's inline slots.)

struct ledger {
    struct block {
        std::size_t bytes;
        int owner;
    };
    std::map<const void*, block> blocks;
    std::map<const void*, int> objects;  // address -> identity that constructed it
    long violations = 0;

    static ledger& instance() {
        static ledger l;
        return l;
    }
    void violation(const char* what) {
        ++violations;
        ADD_FAILURE() << "allocator requirement violated: " << what;
    }
    const block* block_holding(const void* p) const {
        auto it = blocks.upper_bound(p);
        if (it == blocks.begin()) return nullptr;
        --it;
        const auto* begin = static_cast<const unsigned char*>(it->first);
        return static_cast<const unsigned char*>(p) < begin + it->second.bytes ? &it->second : nullptr;
    }
    bool clean() const { return blocks.empty() && objects.empty() && violations == 0; }
    void reset() {
        blocks.clear();
        objects.clear();
        violations = 0;
    }
};

template <class T, bool PropagateOnCopy = false, bool PropagateOnMove = false, bool PropagateOnSwap = false>
class checking_allocator {
public:
    using value_type = T;
    using propagate_on_container_copy_assignment = std::bool_constant<PropagateOnCopy>;
    using propagate_on_container_move_assignment = std::bool_constant<PropagateOnMove>;
    using propagate_on_container_swap = std::bool_constant<PropagateOnSwap>;
    using is_always_equal = std::false_type;
    template <class U>
    struct rebind {
        using other = checking_allocator<U, PropagateOnCopy, PropagateOnMove, PropagateOnSwap>;
    };

    explicit checking_allocator(int id) noexcept : id_(id) {}
    template <class U>
    checking_allocator(const checking_allocator<U, PropagateOnCopy, PropagateOnMove, PropagateOnSwap>& o) noexcept
        : id_(o.id()) {}

    int id() const noexcept { return id_; }

    T* allocate(std::size_t n) {
        T* p = std::allocator<T>().allocate(n);
        ledger::instance().blocks[p] = {n * sizeof(T), id_};
        return p;
    }
    void deallocate(T* p, std::size_t n) {
        ledger& l = ledger::instance();
        auto it = l.blocks.find(p);
        if (it == l.blocks.end()) {
            l.violation("deallocate of a pointer that allocate did not return");
            return;
        }
        if (it->second.bytes != n * sizeof(T)) l.violation("deallocate with another size than allocate's");
        if (it->second.owner != id_) l.violation("deallocate through an allocator that does not compare equal");
        const auto* begin = reinterpret_cast<const unsigned char*>(p);
        auto live = l.objects.lower_bound(begin);
        if (live != l.objects.end() && static_cast<const unsigned char*>(live->first) < begin + n * sizeof(T))
            l.violation("deallocate of a block with an object still alive in it");
        l.blocks.erase(it);
        std::allocator<T>().deallocate(p, n);
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ledger& l = ledger::instance();
        // (Outside every block is allowed: small_vector constructs in its inline slots.)
        const ledger::block* b = l.block_holding(p);
        if (b != nullptr && b->owner != id_) l.violation("construct in a block of an allocator that does not compare equal");
        if (l.objects.count(p) != 0) l.violation("construct over an object that is alive");
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
        l.objects[p] = id_;
    }
    template <class U>
    void destroy(U* p) {
        ledger& l = ledger::instance();
        auto it = l.objects.find(p);
        if (it == l.objects.end()) {
            l.violation("destroy of an object that construct did not build (or destroyed twice)");
        } else {
            if (it->second != id_) l.violation("destroy through an allocator that did not construct the object");
            l.objects.erase(it);
        }
        p->~U();
    }

    friend bool operator==(const checking_allocator& a, const checking_allocator& b) noexcept { return a.id_ == b.id_; }
    friend bool operator!=(const checking_allocator& a, const checking_allocator& b) noexcept { return a.id_ != b.id_; }

private:
    int id_;
};

/// Resets the ledger before a test and checks after it that everything was given back.
class ledger_guard {
public:
    ledger_guard() { ledger::instance().reset(); }
    ~ledger_guard() {
        const ledger& l = ledger::instance();
        EXPECT_TRUE(l.blocks.empty()) << l.blocks.size() << " blocks were never deallocated";
        EXPECT_TRUE(l.objects.empty()) << l.objects.size() << " objects were never destroyed";
    }
    ledger_guard(const ledger_guard&) = delete;
    ledger_guard& operator=(const ledger_guard&) = delete;
};

// ---- A fancy pointer: an offset from its own address, as Boost.Interprocess's offset_ptr, so that a
// container and its storage placed together in one buffer keep working when the buffer's bytes are
// copied elsewhere (shared memory mapped at another address). Null is the offset 1.

template <class T>
class offset_pointer {
public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    using difference_type = std::ptrdiff_t;
    using reference = std::add_lvalue_reference_t<T>;
    using pointer = T*;
    using iterator_category = std::random_access_iterator_tag;
    template <class U>
    using rebind = offset_pointer<U>;

    offset_pointer() noexcept = default;
    offset_pointer(std::nullptr_t) noexcept {}
    explicit offset_pointer(T* p) noexcept { set(p); }
    offset_pointer(const offset_pointer& o) noexcept { set(o.get()); }
    template <class U, std::enable_if_t<std::is_convertible_v<U*, T*>, int> = 0>
    offset_pointer(const offset_pointer<U>& o) noexcept {
        set(o.get());
    }
    /// void pointers convert back explicitly (allocator_traits::void_pointer to pointer).
    template <class U, std::enable_if_t<std::is_void_v<U> && !std::is_void_v<T>, int> = 0>
    explicit offset_pointer(const offset_pointer<U>& o) noexcept {
        set(static_cast<T*>(o.get()));
    }
    offset_pointer& operator=(const offset_pointer& o) noexcept {
        set(o.get());
        return *this;
    }
    offset_pointer& operator=(std::nullptr_t) noexcept {
        offset_ = 1;
        return *this;
    }

    // (Integer arithmetic: the target is another object, and subtracting unrelated pointers is undefined;
    // GCC -O2 made use of it.)
    T* get() const noexcept {
        return offset_ == 1 ? nullptr : reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(this) + static_cast<std::uintptr_t>(offset_));
    }
    template <class U = T, std::enable_if_t<!std::is_void_v<U>, int> = 0>
    U& operator*() const noexcept {
        return *get();
    }
    T* operator->() const noexcept { return get(); }
    template <class U = T, std::enable_if_t<!std::is_void_v<U>, int> = 0>
    U& operator[](difference_type i) const noexcept {
        return get()[i];
    }
    explicit operator bool() const noexcept { return offset_ != 1; }

    template <class U = T, std::enable_if_t<!std::is_void_v<U>, int> = 0>
    static offset_pointer pointer_to(U& r) noexcept {
        return offset_pointer(std::addressof(r));
    }

    offset_pointer& operator+=(difference_type n) noexcept {
        set(get() + n);
        return *this;
    }
    offset_pointer& operator-=(difference_type n) noexcept {
        set(get() - n);
        return *this;
    }
    offset_pointer& operator++() noexcept { return *this += 1; }
    offset_pointer& operator--() noexcept { return *this -= 1; }
    offset_pointer operator++(int) noexcept {
        offset_pointer old(*this);
        ++*this;
        return old;
    }
    offset_pointer operator--(int) noexcept {
        offset_pointer old(*this);
        --*this;
        return old;
    }
    friend offset_pointer operator+(offset_pointer p, difference_type n) noexcept { return p += n; }
    friend offset_pointer operator+(difference_type n, offset_pointer p) noexcept { return p += n; }
    friend offset_pointer operator-(offset_pointer p, difference_type n) noexcept { return p -= n; }
    friend difference_type operator-(const offset_pointer& a, const offset_pointer& b) noexcept { return a.get() - b.get(); }
    friend bool operator==(const offset_pointer& a, const offset_pointer& b) noexcept { return a.get() == b.get(); }
    friend bool operator!=(const offset_pointer& a, const offset_pointer& b) noexcept { return a.get() != b.get(); }
    friend bool operator<(const offset_pointer& a, const offset_pointer& b) noexcept { return a.get() < b.get(); }
    friend bool operator>(const offset_pointer& a, const offset_pointer& b) noexcept { return a.get() > b.get(); }
    friend bool operator<=(const offset_pointer& a, const offset_pointer& b) noexcept { return a.get() <= b.get(); }
    friend bool operator>=(const offset_pointer& a, const offset_pointer& b) noexcept { return a.get() >= b.get(); }
    friend bool operator==(const offset_pointer& a, std::nullptr_t) noexcept { return !a; }
    friend bool operator!=(const offset_pointer& a, std::nullptr_t) noexcept { return static_cast<bool>(a); }
    friend bool operator==(std::nullptr_t, const offset_pointer& a) noexcept { return !a; }
    friend bool operator!=(std::nullptr_t, const offset_pointer& a) noexcept { return static_cast<bool>(a); }

private:
    void set(T* p) noexcept {
        offset_ = p == nullptr ? 1
                               : static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(p) -
                                                             reinterpret_cast<std::uintptr_t>(this));
    }
    std::ptrdiff_t offset_ = 1;
};

/// A bump arena of bytes that holds its own bookkeeping: copy its bytes elsewhere and it still works.
struct arena {
    static constexpr std::size_t bytes = 1 << 16;
    std::size_t used = 0;
    alignas(std::max_align_t) unsigned char memory[bytes];

    void* take(std::size_t n, std::size_t align) {
        used = (used + align - 1) / align * align;
        if (used + n > bytes) throw std::bad_alloc();
        void* p = memory + used;
        used += n;
        return p;
    }
};

/// An allocator whose pointer is offset_pointer, allocating from an arena it points to (by offset too).
template <class T>
class arena_allocator {
public:
    using value_type = T;
    using pointer = offset_pointer<T>;
    using const_pointer = offset_pointer<const T>;
    using void_pointer = offset_pointer<void>;
    using const_void_pointer = offset_pointer<const void>;
    using is_always_equal = std::false_type;
    template <class U>
    struct rebind {
        using other = arena_allocator<U>;
    };

    explicit arena_allocator(arena& a) noexcept : arena_(&a) {}
    template <class U>
    arena_allocator(const arena_allocator<U>& o) noexcept : arena_(o.arena_address()) {}
    arena_allocator(const arena_allocator& o) noexcept : arena_(o.arena_address()) {}
    arena_allocator& operator=(const arena_allocator& o) noexcept {
        arena_ = offset_pointer<arena>(o.arena_address());
        return *this;
    }

    pointer allocate(std::size_t n) { return pointer(static_cast<T*>(arena_->take(n * sizeof(T), alignof(T)))); }
    void deallocate(pointer p, std::size_t) noexcept { EXPECT_NE(p, nullptr); }
    arena* arena_address() const noexcept { return arena_.get(); }

    friend bool operator==(const arena_allocator& a, const arena_allocator& b) noexcept {
        return a.arena_address() == b.arena_address();
    }
    friend bool operator!=(const arena_allocator& a, const arena_allocator& b) noexcept { return !(a == b); }

private:
    offset_pointer<arena> arena_;
};

}  // namespace conformance

/// The arena's bytes are copied whole (how shared memory is mapped elsewhere), the unused capacity
/// included: that allocator's containers are not annotated for AddressSanitizer.
template <class T>
struct relo::sanitizer_annotations<conformance::arena_allocator<T>> {
    static constexpr bool value = false;
};

namespace conformance {

}  // namespace conformance

#endif  // RELO_TESTS_CONFORMANCE_HPP
