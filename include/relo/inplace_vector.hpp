// relo/inplace_vector.hpp — relo::inplace_vector<T, N> (alias relo::static_vector): a vector with room for
// N elements inside the object, never allocating.
//
// The interface is C++26's std::inplace_vector (P0843), plus the extras of relo::vector (fast_push_back,
// safe_pop_back). The operations are relo's one implementation of the vector algorithms
// (detail::sequence_ops): insertion and erasure shift the tail in one pass (a memmove for trivially
// relocatable elements, move-assignment for the others), inserting an element of the container itself is
// correct.
//
//   * Anything that would hold more than N elements (push_back, insert, resize, assign, reserve, the
//     constructors) throws std::bad_alloc and leaves the container unchanged; try_push_back /
//     try_emplace_back return an empty optional_ref instead; unchecked_push_back has the precondition size() < N.
//   * inplace_vector<T, 0> is an empty, trivially copyable type. When T is trivially copyable (trivially
//     destructible), so is inplace_vector<T, N>; for trivial T it is usable in constant expressions (C++20).
//   * The size is stored in the smallest unsigned type that holds N (up to 16 bits; size_t beyond, and
//     past 255 for 16-bit integer elements): sizeof(inplace_vector<char, 5>) == 6.
//   * Insertion and erasure invalidate iterators from the position on; nothing
//     else does (the elements never move to other storage). Moving a container moves its elements.
//
// The operations every relo vector shares (access, push_back, insert, erase, resize, assign, comparison:
// detail::sequence_ops) have the contracts on their members in detail/sequence.hpp, where "grows" is
// needing more than N elements: std::bad_alloc, nothing changed. The
// members of its own, and those that differ, state their contracts in the class below. Departures from
// std::inplace_vector: the extras fast_push_back / fast_emplace_back (unchecked_push_back's other name)
// and safe_pop_back; insertion anywhere is strong when elements relocate without throwing; insert's range
// may be the container's own elements.
// Layer 5, containers (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_INPLACE_VECTOR_HPP
#define RELO_INPLACE_VECTOR_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

#include "relo/detail/allocation.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/detail/sequence.hpp"
#include "relo/detail/uninitialized.hpp"
#include "relo/relocation.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// The type of the size: the smallest unsigned type that holds every size from 0 to N, up to 16 bits.
/// Beyond it is size_t (and past 255 when T is a 16-bit integer): the object is then at least 64 KiB
/// (512 bytes), so the bytes do not matter, while a size of the same type as the elements' scalars
/// (uint32_t for int elements) could be changed by every element store as far as the optimizer knows,
/// and each push_back would reload it (measured in docs/measurements/small_vectors.md; docs/decisions.md).
template <std::size_t N, class T>
using inplace_size_t = std::conditional_t<
    N <= UINT8_MAX, std::uint8_t,
    std::conditional_t<N <= UINT16_MAX && !(std::is_integral_v<T> && sizeof(T) == 2), std::uint16_t, std::size_t>>;

/// The "allocator" of a container that never allocates: it only constructs and destroys in place
/// (through std::allocator_traits: placement new, or std::construct_at in constant expressions). Empty
/// and trivially copyable, so the container stays so too.
template <class T>
struct in_place_constructor {
    using value_type = T;
    in_place_constructor() = default;
    template <class U>
    constexpr in_place_constructor(const in_place_constructor<U>&) noexcept {}
    [[noreturn]] T* allocate(std::size_t) { throw_bad_alloc(); }
    void deallocate(T*, std::size_t) noexcept {}
    // Templates, so that only in_place_constructor itself matches: the container derives from it, and an
    // ordinary friend taking the base would be found for two inplace_vectors of different capacities, and
    // chosen through the inaccessible base (a hard error where `a == b` should merely not compile).
    template <class U, std::enable_if_t<std::is_same_v<U, in_place_constructor>, int> = 0>
    friend constexpr bool operator==(const U&, const U&) noexcept {
        return true;
    }
    template <class U, std::enable_if_t<std::is_same_v<U, in_place_constructor>, int> = 0>
    friend constexpr bool operator!=(const U&, const U&) noexcept {
        return false;
    }
};

/// Whether the slots past the elements are annotated under AddressSanitizer (detail/sanitizers.hpp): only
/// when the container's destructor, copies and moves are its own code. A trivial destructor could not
/// clear the annotation when the object's memory is reused, and a trivial copy, or a relocation as bytes,
/// would read the annotated slots.
template <class T, std::size_t N>
inline constexpr bool inplace_annotated_v = N != 0 && !std::is_trivially_destructible_v<T> &&
                                            !std::is_trivially_copy_constructible_v<T> &&
                                            !std::is_trivially_move_constructible_v<T> && !is_trivially_relocatable_v<T>;

/// The slots past the n elements of [first, first + N) are unused (from `was` on, before).
template <class T, std::size_t N>
RELO_CONSTEXPR20 void annotate_inplace(T* first, std::size_t was, std::size_t n) noexcept {
    if constexpr (inplace_annotated_v<T, N>) {
        if (!is_constant_evaluated()) annotate_contiguous(first, first + N, first + was, first + n);
    }
}

/// Room for N elements. Trivial T live in a plain array, which constant expressions can use (it is
/// value-initialized only there: at run time constructing an empty container writes nothing); other T in
/// a union, so that the container's construction constructs none of them.
template <class T, std::size_t N, bool = std::is_trivial_v<T>, bool = std::is_trivially_destructible_v<T>>
struct inplace_slots {
    T items[N];
    RELO_CONSTEXPR20 inplace_slots() noexcept {
        if (is_constant_evaluated())
            for (auto& item : items) item = T();
    }
};

template <class T, std::size_t N>
struct inplace_slots<T, N, false, true> {
    union {
        T items[N];
    };
    RELO_CONSTEXPR20 inplace_slots() noexcept {}
};

template <class T, std::size_t N>
struct inplace_slots<T, N, false, false> {
    union {
        T items[N];
    };
    RELO_CONSTEXPR20 inplace_slots() noexcept { annotate_inplace<T, N>(items, N, 0); }  // (all unused)
    RELO_CONSTEXPR20 ~inplace_slots() {}  // the elements are destroyed by inplace_core, which knows how many
};

/// Elements and size. N == 0 has neither (an empty type).
template <class T, std::size_t N, bool = (N == 0)>
class inplace_members : protected in_place_constructor<T> {
protected:
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* data_ptr() const noexcept { return const_cast<T*>(slots_.items); }
    /// Where the end is, written as the address of an element of the slots (i <= N): GCC then knows that
    /// an element built there is not the size, where from data_ptr() + size it does not, and stored the
    /// size on every push of an element built by placement new. (Not in a constant expression: GCC cannot
    /// subtract another iterator from an end written so.)
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* end_ptr() const noexcept {
        if (is_constant_evaluated()) return const_cast<T*>(slots_.items) + size_;
        return const_cast<T*>(RELO_ADDRESSOF(slots_.items[size_]));
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 std::size_t stored_size() const noexcept { return size_; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void set_stored_size(std::size_t n) noexcept {
        size_ = static_cast<inplace_size_t<N, T>>(n);
    }

private:
    // The size first: an element built by copying its bytes (a pair's defaulted copy constructor) is a
    // store the optimizer cannot tell by type from the size's, but one at a non-negative offset past the
    // size it can, so the size stays in a register in a push loop (with the size after the slots, Clang
    // reloaded it after every push, as a wider load than the store: docs/measurements/vector.md, "Types
    // and idioms").
    inplace_size_t<N, T> size_ = 0;
    inplace_slots<T, N> slots_;
};

template <class T, std::size_t N>
class inplace_members<T, N, true> : protected in_place_constructor<T> {
protected:
    RELO_ALWAYS_INLINE constexpr T* data_ptr() const noexcept { return nullptr; }
    RELO_ALWAYS_INLINE constexpr T* end_ptr() const noexcept { return nullptr; }
    RELO_ALWAYS_INLINE constexpr std::size_t stored_size() const noexcept { return 0; }
    RELO_ALWAYS_INLINE constexpr void set_stored_size(std::size_t) noexcept {}
};

/// Destroys the elements, unless that is trivial (so that the container's destructor stays trivial).
template <class T, std::size_t N, bool = std::is_trivially_destructible_v<T> || N == 0>
class inplace_core : public inplace_members<T, N> {};

template <class T, std::size_t N>
class inplace_core<T, N, false> : public inplace_members<T, N> {
protected:
    inplace_core() = default;
    inplace_core(const inplace_core&) = default;
    inplace_core(inplace_core&&) = default;
    inplace_core& operator=(const inplace_core&) = default;
    inplace_core& operator=(inplace_core&&) = default;
    RELO_CONSTEXPR20 ~inplace_core() {
        T* first = this->data_ptr();
        annotate_inplace<T, N>(first, this->stored_size(), N);  // (the memory goes back as it came)
        destroy(static_cast<in_place_constructor<T>&>(*this), first, first + this->stored_size());
    }
};

/// What the copy and move layers below share: element transfer, and access to the container (a friend
/// of inplace_vector, which derives privately from the layers).
struct inplace_access {
    template <class Derived, class Layer>
    static constexpr Derived& container(Layer& layer) noexcept {
        return static_cast<Derived&>(layer);
    }
};

template <class Derived, class T, std::size_t N>
class inplace_transfer : public inplace_core<T, N> {
protected:
    using constructor = in_place_constructor<T>;

    RELO_CONSTEXPR20 constructor& alloc() noexcept { return *this; }
    RELO_CONSTEXPR20 Derived& self() noexcept { return inplace_access::container<Derived>(*this); }

    RELO_CONSTEXPR20 void copy_elements_from(const inplace_transfer& other) {
        annotate_inplace<T, N>(this->data_ptr(), 0, other.stored_size());
        uninitialized_copy_n(alloc(), other.data_ptr(), other.stored_size(), this->data_ptr());
        this->set_stored_size(other.stored_size());
    }
    /// Elements that relocate as bytes are taken over and `other` is left empty; others are moved.
    RELO_CONSTEXPR20 void take_elements(inplace_transfer& other) {
        T* first = other.data_ptr();
        const std::size_t n = other.stored_size();
        annotate_inplace<T, N>(this->data_ptr(), this->stored_size(), n);
        if constexpr (relocate_as_bytes_v<constructor, T>) {
            relocate_forward(alloc(), first, first + n, this->data_ptr());
            other.set_stored_size(0);
        } else {
            uninitialized_copy_n(alloc(), std::make_move_iterator(first), n, this->data_ptr());
        }
        this->set_stored_size(n);
    }
    RELO_CONSTEXPR20 void copy_assign_from(const inplace_transfer& other) {
        if (this != std::addressof(other)) self().assign(other.data_ptr(), other.data_ptr() + other.stored_size());
    }
    RELO_CONSTEXPR20 void move_assign_from(inplace_transfer& other) {
        if (this == std::addressof(other)) return;
        if constexpr (relocate_as_bytes_v<constructor, T>) {
            self().clear();
            take_elements(other);
        } else {
            T* first = other.data_ptr();
            self().assign(std::make_move_iterator(first), std::make_move_iterator(first + other.stored_size()));
        }
    }
};

// Each special member is trivial exactly when C++26 says so ([inplace.vector.cons]: the copy constructor
// when T's is, the copy assignment when T's copy constructor, copy assignment and destructor are, and the
// same for moves; everything for N == 0), one layer per member; otherwise it copies or moves element by
// element. Assignment goes through the container's assign.
template <class Derived, class T, std::size_t N,
          bool = std::is_trivially_copy_constructible_v<T> || N == 0>
class inplace_copy_construction : public inplace_transfer<Derived, T, N> {};

template <class Derived, class T, std::size_t N>
class inplace_copy_construction<Derived, T, N, false> : public inplace_transfer<Derived, T, N> {
protected:
    inplace_copy_construction() = default;
    RELO_CONSTEXPR20 inplace_copy_construction(const inplace_copy_construction& other) { this->copy_elements_from(other); }
    inplace_copy_construction(inplace_copy_construction&&) = default;
    inplace_copy_construction& operator=(const inplace_copy_construction&) = default;
    inplace_copy_construction& operator=(inplace_copy_construction&&) = default;
    ~inplace_copy_construction() = default;
};

template <class Derived, class T, std::size_t N,
          bool = std::is_trivially_move_constructible_v<T> || N == 0>
class inplace_move_construction : public inplace_copy_construction<Derived, T, N> {};

template <class Derived, class T, std::size_t N>
class inplace_move_construction<Derived, T, N, false> : public inplace_copy_construction<Derived, T, N> {
protected:
    inplace_move_construction() = default;
    inplace_move_construction(const inplace_move_construction&) = default;
    RELO_CONSTEXPR20 inplace_move_construction(inplace_move_construction&& other) noexcept(
        std::is_nothrow_move_constructible_v<T>) {
        this->take_elements(other);
    }
    inplace_move_construction& operator=(const inplace_move_construction&) = default;
    inplace_move_construction& operator=(inplace_move_construction&&) = default;
    ~inplace_move_construction() = default;
};

template <class Derived, class T, std::size_t N,
          bool = (std::is_trivially_copy_constructible_v<T> && std::is_trivially_copy_assignable_v<T> &&
                  std::is_trivially_destructible_v<T>) ||
                 N == 0>
class inplace_copy_assignment : public inplace_move_construction<Derived, T, N> {};

template <class Derived, class T, std::size_t N>
class inplace_copy_assignment<Derived, T, N, false> : public inplace_move_construction<Derived, T, N> {
protected:
    inplace_copy_assignment() = default;
    inplace_copy_assignment(const inplace_copy_assignment&) = default;
    inplace_copy_assignment(inplace_copy_assignment&&) = default;
    RELO_CONSTEXPR20 inplace_copy_assignment& operator=(const inplace_copy_assignment& other) {
        this->copy_assign_from(other);
        return *this;
    }
    inplace_copy_assignment& operator=(inplace_copy_assignment&&) = default;
    ~inplace_copy_assignment() = default;
};

template <class Derived, class T, std::size_t N,
          bool = (std::is_trivially_move_constructible_v<T> && std::is_trivially_move_assignable_v<T> &&
                  std::is_trivially_destructible_v<T>) ||
                 N == 0>
class inplace_copy : public inplace_copy_assignment<Derived, T, N> {};

template <class Derived, class T, std::size_t N>
class inplace_copy<Derived, T, N, false> : public inplace_copy_assignment<Derived, T, N> {
protected:
    inplace_copy() = default;
    inplace_copy(const inplace_copy&) = default;
    inplace_copy(inplace_copy&&) = default;
    inplace_copy& operator=(const inplace_copy&) = default;
    RELO_CONSTEXPR20 inplace_copy& operator=(inplace_copy&& other) noexcept(
        std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>) {
        this->move_assign_from(other);
        return *this;
    }
    ~inplace_copy() = default;
};

// Empty bases that each delete one special member when T lacks it, so that the container's defaulted
// ones are deleted too (is_copy_constructible and friends then tell the truth).
template <bool Enabled>
struct copy_constructor_if {};
template <>
struct copy_constructor_if<false> {
    copy_constructor_if() = default;
    copy_constructor_if(const copy_constructor_if&) = delete;
    copy_constructor_if(copy_constructor_if&&) = default;
    copy_constructor_if& operator=(const copy_constructor_if&) = default;
    copy_constructor_if& operator=(copy_constructor_if&&) = default;
};
template <bool Enabled>
struct move_constructor_if {};
template <>
struct move_constructor_if<false> {
    move_constructor_if() = default;
    move_constructor_if(const move_constructor_if&) = default;
    move_constructor_if(move_constructor_if&&) = delete;
    move_constructor_if& operator=(const move_constructor_if&) = default;
    move_constructor_if& operator=(move_constructor_if&&) = default;
};
template <bool Enabled>
struct copy_assignment_if {};
template <>
struct copy_assignment_if<false> {
    copy_assignment_if() = default;
    copy_assignment_if(const copy_assignment_if&) = default;
    copy_assignment_if(copy_assignment_if&&) = default;
    copy_assignment_if& operator=(const copy_assignment_if&) = delete;
    copy_assignment_if& operator=(copy_assignment_if&&) = default;
};
template <bool Enabled>
struct move_assignment_if {};
template <>
struct move_assignment_if<false> {
    move_assignment_if() = default;
    move_assignment_if(const move_assignment_if&) = default;
    move_assignment_if(move_assignment_if&&) = default;
    move_assignment_if& operator=(const move_assignment_if&) = default;
    move_assignment_if& operator=(move_assignment_if&&) = delete;
};

/// The special members of a container of T: those T has.
template <class T>
struct special_members_of
    : copy_constructor_if<std::is_copy_constructible_v<T>>,
      move_constructor_if<std::is_move_constructible_v<T>>,
      copy_assignment_if<std::is_copy_constructible_v<T> && std::is_copy_assignable_v<T>>,
      move_assignment_if<std::is_move_constructible_v<T> && std::is_move_assignable_v<T>> {};

}  // namespace detail

/// A vector with room for N elements inside the object, never allocating: this header's opening comment
/// (relo/inplace_vector.hpp) says how it behaves, and what "grows" means in the shared operations'
/// contracts (detail::sequence_ops).
///
/// Copies and moves are those of the elements, O(n) (trivial when T's are: copying a trivially copyable
/// T copies the object). Moving relocates trivially relocatable T, leaving the source empty; others are
/// moved one by one, the source keeping its moved-from elements; noexcept when T's move is. Assignment is
/// assign()'s; the destructor is O(n), and trivial when T's is.
template <class T, std::size_t N>
class inplace_vector : public detail::sequence_ops<inplace_vector<T, N>, T, detail::in_place_constructor<T>>,
                       private detail::inplace_copy<inplace_vector<T, N>, T, N>,
                       private detail::special_members_of<T> {
    using constructor = detail::in_place_constructor<T>;
    using base = detail::sequence_ops<inplace_vector<T, N>, T, constructor>;
    using storage = detail::inplace_copy<inplace_vector<T, N>, T, N>;
    friend base;
    friend storage;
    friend detail::inplace_access;

public:
    using typename base::size_type;
    using typename base::value_type;  // (not the one of the private in-place constructor)
    using typename base::reference;

    // ---------------------------------------------------------------------------------------------------
    // Construction.

    // User-provided, so that value-initialization (inplace_vector<T, N>{}, a container's emplace_back())
    // does not zero the N slots first.
#if RELO_HAS_CONCEPTS
    // (N == 0: defaulted, so trivial, as C++26 asks; C++17 cannot choose, and keeps the one below.)
    /// An empty container, trivial for N == 0.
    inplace_vector()
        requires(N == 0)
    = default;
    /// An empty container: writes nothing into the slots, never throws.
    RELO_CONSTEXPR20 inplace_vector() noexcept
        requires(N != 0)
    {}
#else
    /// An empty container: writes nothing into the slots, never throws.
    RELO_CONSTEXPR20 inplace_vector() noexcept {}
#endif
    /// A container of n value-initialized elements, of n copies of value, or of a range's elements (an
    /// iterator pair, an initializer list, a C++23 range): O(n) (k for a range). Throws std::bad_alloc if
    /// more than N elements are asked for, and what constructing T throws; nothing leaks.
    ///@{
    RELO_CONSTEXPR20 explicit inplace_vector(size_type n) { this->construct_value_initialized(n); }
    RELO_CONSTEXPR20 inplace_vector(size_type n, const T& value) { this->construct_filled(n, value); }
    template <class InputIt, std::enable_if_t<detail::is_input_iterator_v<InputIt>, int> = 0>
    RELO_CONSTEXPR20 inplace_vector(InputIt first, InputIt last) {
        this->construct_from_range(std::move(first), std::move(last));
    }
    RELO_CONSTEXPR20 inplace_vector(std::initializer_list<T> list) {
        this->construct_from_range(list.begin(), list.end());
    }
#if RELO_HAS_FROM_RANGE
    template <class R>
    RELO_CONSTEXPR20 inplace_vector(std::from_range_t, R&& range) {
        this->construct_from_range(std::ranges::begin(range), std::ranges::end(range));
    }
#endif
    ///@}

    /// assign(list).
    RELO_CONSTEXPR20 inplace_vector& operator=(std::initializer_list<T> list) {
        this->assign(list);
        return *this;
    }

    /// Appends a copy of value (or moves it in) and returns the new element, as C++26 specifies
    /// (std::vector's push_back returns void): O(1). Throws std::bad_alloc when full, and what constructing
    /// T throws; either way nothing changes. Invalidates only end(). value may be an element.
    ///@{
    RELO_CONSTEXPR20 reference push_back(const T& value) { return this->emplace_back(value); }
    RELO_CONSTEXPR20 reference push_back(T&& value) { return this->emplace_back(std::move(value)); }
    ///@}

    // ---------------------------------------------------------------------------------------------------
    // Capacity is N, always.

    /// N, always (static): O(1), never throws.
    ///@{
    static constexpr size_type capacity() noexcept { return N; }
    static constexpr size_type max_size() noexcept { return N; }
    ///@}
    /// O(1): throws std::bad_alloc if n > N; otherwise does nothing.
    RELO_CONSTEXPR20 void reserve(size_type n) {
        if (n > N) seq_too_large("relo: inplace_vector::reserve() beyond its capacity");
    }
    /// Does nothing: the capacity is N.
    static constexpr void shrink_to_fit() noexcept {}

    /// Exchanges the contents element by element: O(max(size(), other.size())). Elements are swapped,
    /// and the longer container's extra elements relocate to the shorter one in one pass. Throws what
    /// swapping or relocating T throws.
    RELO_CONSTEXPR20 void swap(inplace_vector& other) noexcept(
        std::is_nothrow_swappable_v<T> && detail::nothrow_relocate_v<constructor, T>) {
        if (this != std::addressof(other)) this->swap_elements(other);
    }

private:
    // The storage interface of detail::sequence_ops.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* seq_begin() const noexcept { return this->data_ptr(); }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* seq_end() const noexcept { return this->end_ptr(); }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* seq_capacity_end() const noexcept { return this->data_ptr() + N; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 size_type seq_size() const noexcept { return this->stored_size(); }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 bool seq_full() const noexcept { return this->stored_size() == N; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void seq_set_end(T* e) noexcept {
        this->set_stored_size(static_cast<size_type>(e - this->data_ptr()));
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void seq_added_one() noexcept {
        this->set_stored_size(this->stored_size() + 1);
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void seq_removed_one() noexcept {
        this->set_stored_size(this->stored_size() - 1);
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 constructor& seq_allocator() noexcept { return *this; }
    static constexpr size_type seq_max_size() noexcept { return N; }
    // A fixed-capacity storage: it has no growth hooks, and every request beyond N throws std::bad_alloc
    // (P0843) before anything changes.
    static constexpr bool seq_fixed_capacity = true;
    static constexpr const char* seq_name = "relo::inplace_vector";
    static constexpr bool seq_annotated = detail::inplace_annotated_v<T, N>;
    [[noreturn]] static void seq_too_large(const char*) { detail::throw_bad_alloc(); }
};

/// The name of the thesis and of Boost.Container.
template <class T, std::size_t N>
using static_vector = inplace_vector<T, N>;

/// The elements are inside the object, addressed from where it is: relocating it relocates them.
template <class T, std::size_t N>
struct is_trivially_relocatable<inplace_vector<T, N>> : is_trivially_relocatable<T> {};
namespace detail {
template <class T, std::size_t N>
struct relocation_diagnosis<inplace_vector<T, N>> : explain_all<T> {};
}  // namespace detail

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_INPLACE_VECTOR_HPP
