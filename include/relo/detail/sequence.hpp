// relo/detail/sequence.hpp — the one implementation of the contiguous-sequence operations.
//
// sequence_ops<Derived, T, Alloc> holds every algorithm of a vector-like container — element access,
// insert, emplace, erase, assign, resize, push/pop, comparisons — written once against a small storage
// interface that each container provides as private members, sequence_ops being their friend. The class
// is in four files, one concern each:
//   detail/sequence.hpp          the public operations (this file), and the class's declaration
//   detail/storage_contract.hpp  the storage interface the container provides, and its compile-time check
//   detail/sequence_checks.hpp   the hardened mode's checks of arguments (detail/contracts.hpp)
//   detail/sequence_engine.hpp   the engines: growth on push, insertion, assignment, construction, resize
// This file includes the other three at its end (as libstdc++'s <vector> includes bits/vector.tcc).
//
// What each public member does, costs, throws and invalidates is stated once, for every relo vector, in
// its `///` contract here (the API reference shows it on each vector's page); the `//` comments say how
// and why.
// Layer 3, the container engine (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_SEQUENCE_HPP
#define RELO_DETAIL_SEQUENCE_HPP

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "relo/detail/config.hpp"  // (first: it defines the RELO_HAS_ macros tested next)

#if RELO_HAS_THREE_WAY
#include <compare>
#endif
#if RELO_HAS_CONCEPTS
#include <concepts>
#endif

#include "relo/detail/allocation.hpp"
#include "relo/detail/capacity_guard.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/gdb_printers.hpp"  // (a program with a relo container carries the printers)
#include "relo/detail/iterator.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/detail/standard_library.hpp"
#include "relo/detail/uninitialized.hpp"
#include "relo/optional_ref.hpp"
#include "relo/relocation.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

#if RELO_HAS_THREE_WAY
/// What the standard's exposition-only synth-three-way accepts: <=>, or < both ways.
template <class T>
concept synth_three_way_comparable = std::three_way_comparable<T> || requires(const T& a, const T& b) {
    { a < b } -> std::convertible_to<bool>;
    { b < a } -> std::convertible_to<bool>;
};
#endif

/// The operations every relo vector shares (relo::vector, small_vector, inplace_vector, pinned_vector),
/// implemented once: each container derives from this class and provides the storage. The contracts on
/// the members hold for all four, except where a container's own header says otherwise.
///
/// Words the contracts use:
/// - n = size(); k = the elements inserted, erased or in the range; d = the distance from pos to end().
/// - *grows*: the elements no longer fit in capacity(). They then move to larger storage (or the block
///   grows in place), invalidating every iterator, pointer and reference (inplace_vector cannot grow: it
///   throws std::bad_alloc instead and changes nothing).
/// - *relocates without throwing*: T is trivially relocatable (relo/relocation.hpp), or its move
///   constructor and destructor are noexcept.
/// - *strong*: if an exception is thrown nothing changed (after a growing push_back the capacity may be
///   larger; the contents are the same). *basic*: valid, nothing leaks, the contents unspecified.
/// - *pre*: a precondition, checked by an assertion in hardened builds (`RELO_HARDENED`,
///   `_GLIBCXX_ASSERTIONS`) and when `NDEBUG` is not defined; otherwise breaking it is undefined behaviour.
///
/// A size beyond max_size() throws std::length_error, an allocator's failure std::bad_alloc; either way
/// nothing changes. Where relo departs from std::vector, in every relo vector: insertion anywhere is strong
/// when elements relocate without throwing; insert's range may be the container's own elements; the extras
/// `try_`, `fast_` and `unchecked_push_back`, and safe_pop_back (docs/conformance.md lists every departure).
template <class Derived, class T, class Alloc>
class sequence_ops {
public:
    // The member types of std::vector.
    /// The element type, T.
    using value_type = T;
    /// The allocator: it constructs and destroys the elements, and allocates their storage (but in
    /// inplace_vector, which never allocates, and pinned_vector, which commits pages of its reservation).
    using allocator_type = Alloc;
    /// std::size_t: sizes, capacities and indices.
    using size_type = std::size_t;
    /// std::ptrdiff_t: the distance between two iterators.
    using difference_type = std::ptrdiff_t;
    /// T&, what the element access functions return.
    using reference = T&;
    /// const T&, what they return for a const container.
    using const_reference = const T&;
    /// The allocator's pointer type (T* by default; a fancy pointer, such as an offset pointer, for some
    /// allocators): the container stores it, while iterators hold, and data() returns, raw pointers.
    using pointer = typename allocator_pointers<Alloc, T>::pointer;
    /// The allocator's pointer to const T.
    using const_pointer = typename allocator_pointers<Alloc, T>::const_pointer;
    /// A contiguous iterator: one pointer in a class (detail/iterator.hpp); in C++20 a
    /// std::contiguous_iterator.
    using iterator = contiguous_iterator<T, Derived>;
    /// iterator to const elements; an iterator converts to it, not back.
    using const_iterator = contiguous_iterator<const T, Derived>;
    /// std::reverse_iterator of iterator.
    using reverse_iterator = std::reverse_iterator<iterator>;
    /// std::reverse_iterator of const_iterator.
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

    // Nothing here may need T complete: [vector.overview] allows an incomplete T until a member is used
    // (struct node { relo::vector<node> children; }), and a T whose destructor only the allocator's
    // destroy() can reach is Erasable.
    static_assert(!std::is_const_v<T> && !std::is_reference_v<T>, "relo: elements must be non-const object types");

    /// Whether the storage says its size itself (the optional size_type seq_size() const noexcept). (A
    /// member, so that it sees the storage's private members as sequence_ops, its friend, does.)
    template <class D, class = void>
    struct has_seq_size : std::false_type {};
    template <class D>
    struct has_seq_size<D, std::void_t<decltype(std::declval<const D&>().seq_size())>> : std::true_type {};

    // ---------------------------------------------------------------------------------------------------
    // Element access.

    /// The element at index i: O(1), invalidating nothing. Throws std::out_of_range when i >= size().
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 reference at(size_type i) {
        if (i >= size()) throw_out_of_range("relo: index out of range in at()");
        return ptr_begin()[i];
    }
    /// \copydoc at(size_type)
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_reference at(size_type i) const {
        if (i >= size()) throw_out_of_range("relo: index out of range in at()");
        return ptr_begin()[i];
    }
    // (The check written here and the storage reached directly: in a debug build every layer of inline
    // functions still copies `this` through the stack, and indexing is the loop users write most.)
    /// The element at index i: O(1), never throws, invalidates nothing (pre: i < size()).
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 reference operator[](size_type i) noexcept {
        RELO_EXPECTS_MSG(i < size(), "%s::operator[]: index %zu is out of range (size() %zu)", Derived::seq_name, i,
                         size());
        return static_cast<const Derived*>(this)->seq_begin()[i];
    }
    /// \copydoc operator[](size_type)
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_reference operator[](size_type i) const noexcept {
        RELO_EXPECTS_MSG(i < size(), "%s::operator[]: index %zu is out of range (size() %zu)", Derived::seq_name, i,
                         size());
        return static_cast<const Derived*>(this)->seq_begin()[i];
    }
    /// The first element: O(1), never throws, invalidates nothing (pre: !empty()).
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 reference front() noexcept {
        expects_not_empty("front");
        return *ptr_begin();
    }
    /// \copydoc front()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_reference front() const noexcept {
        expects_not_empty("front");
        return *ptr_begin();
    }
    /// The last element: O(1), never throws, invalidates nothing (pre: !empty()).
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 reference back() noexcept {
        expects_not_empty("back");
        return ptr_end()[-1];
    }
    /// \copydoc back()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_reference back() const noexcept {
        expects_not_empty("back");
        return ptr_end()[-1];
    }
    /// The address of the first element, a raw pointer (also when the allocator's pointer is a fancy one):
    /// [data(), data() + size()) are the elements. O(1), never throws, invalidates nothing. May be null for
    /// an empty vector (never for a small_vector).
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* data() noexcept { return static_cast<const Derived*>(this)->seq_begin(); }
    /// \copydoc data()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const T* data() const noexcept {
        return static_cast<const Derived*>(this)->seq_begin();
    }

    // ---------------------------------------------------------------------------------------------------
    // Iterators: a pointer in a class (detail/iterator.hpp).

    /// An iterator to the first element (end() when the container is empty): O(1), never throws.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 iterator begin() noexcept {
        return make_iterator(static_cast<const Derived*>(this)->seq_begin());
    }
    /// \copydoc begin()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_iterator begin() const noexcept {
        return make_iterator(static_cast<const Derived*>(this)->seq_begin());
    }
    /// \copydoc begin()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_iterator cbegin() const noexcept { return begin(); }
    /// An iterator one past the last element: O(1), never throws.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 iterator end() noexcept {
        return make_iterator(static_cast<const Derived*>(this)->seq_end());
    }
    /// \copydoc end()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_iterator end() const noexcept {
        return make_iterator(static_cast<const Derived*>(this)->seq_end());
    }
    /// \copydoc end()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_iterator cend() const noexcept { return end(); }
    /// A reverse iterator to the last element (rend() when the container is empty): O(1), never throws.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
    /// \copydoc rbegin()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_reverse_iterator rbegin() const noexcept {
        return const_reverse_iterator(end());
    }
    /// \copydoc rbegin()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_reverse_iterator crbegin() const noexcept { return rbegin(); }
    /// A reverse iterator one before the first element: O(1), never throws.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
    /// \copydoc rend()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_reverse_iterator rend() const noexcept {
        return const_reverse_iterator(begin());
    }
    /// \copydoc rend()
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const_reverse_iterator crend() const noexcept { return rend(); }

    // ---------------------------------------------------------------------------------------------------
    // Capacity.

    /// Whether size() is 0. O(1), never throws.
    [[nodiscard]] RELO_ALWAYS_INLINE RELO_CONSTEXPR20 bool empty() const noexcept {
        const Derived* d = static_cast<const Derived*>(this);
        return d->seq_begin() == d->seq_end();
    }
    /// The number of elements. O(1), never throws.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 size_type size() const noexcept {
        const Derived* d = static_cast<const Derived*>(this);
        if constexpr (has_seq_size<Derived>::value) {
            return d->seq_size();  // (a storage that keeps its size: one layer in a debug build, not three)
        } else {
            return static_cast<size_type>(d->seq_end() - d->seq_begin());
        }
    }
    /// How many elements fit before the container grows. O(1), never throws.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 size_type capacity() const noexcept {
        return static_cast<size_type>(self().seq_capacity_end() - self().seq_begin());
    }
    /// The most elements the container can hold (what the allocator and a pointer difference allow;
    /// a pinned_vector's reservation). O(1), never throws.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 size_type max_size() const noexcept { return self().seq_max_size(); }

    /// When n > capacity(), grows to hold n elements: the capacity becomes n, or more when the allocator's
    /// block holds more (allocate_at_least). Strong; invalidates everything. Otherwise O(1), and nothing
    /// happens. Throws std::length_error when n > max_size(), std::bad_alloc when allocation fails.
    RELO_CONSTEXPR20 void reserve(size_type n) {
        if (n <= capacity()) return;
        const capacity_guard open(*this, n - size());
        if (n > max_size()) Derived::seq_too_large("relo: reserve() beyond max_size()");
        if constexpr (!Derived::seq_fixed_capacity) self().seq_reserve(n);
    }

    // ---------------------------------------------------------------------------------------------------
    // Appending at the end.

    // Always inline too: a forwarder left out of line takes `this`, and the caller's vector then lives in
    // memory (GCC 12 did so in a large caller, and the push_back loop slowed: docs/measurements/vector.md,
    // "A push_back loop in registers").
    /// Appends a copy of value (or moves it in): amortized O(1). Throws what constructing T throws, and when
    /// it grows. Invalidates everything if it grows, else only end(). Strong when T relocates without
    /// throwing or is copyable. value may be an element of the container, also when it grows.
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void push_back(const T& value) { emplace_back(value); }
    /// \copydoc push_back(const T&)
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void push_back(T&& value) { emplace_back(std::move(value)); }

    // Always inline, with its growth glue (grow_and_emplace_back, ensure_room_for, must_grow_for and
    // relo::vector's seq_grow): when GCC outlined the glue as a function taking `this`, a local vector's
    // pointers lived in memory and a push_back loop loaded and stored them on every element
    // (docs/measurements/vector.md, "A push_back loop in registers"). Only the container's growth
    // function, which takes and returns a block by value, stays out of line. A storage whose object lives
    // in memory anyway declares seq_grows_out_of_line, and its growth is one call (small_vector).
    /// Appends a T constructed from args, and returns it: push_back's contract (the arguments may refer
    /// to elements of the container, also when it grows).
    template <class... Args>
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE reference emplace_back(Args&&... args) {
        const capacity_guard open(*this, 1);
        if (RELO_LIKELY(!self().seq_full())) {
            T* e = self().seq_end();
            construct(alloc(), e, std::forward<Args>(args)...);
            self().seq_added_one();
            return *e;
        }
        if constexpr (Derived::seq_fixed_capacity) {
            Derived::seq_too_large("relo: the container is full");
        } else if constexpr ((std::is_trivially_copyable_v<T> && sizeof(T) <= 2 * sizeof(void*) &&
                              std::is_constructible_v<T, Args&&...> && std::is_destructible_v<T>) ||
                             (uses_plain_construct_v<Alloc, T> && std::is_nothrow_move_constructible_v<T> &&
                              ((sizeof...(Args) == 1 && (std::is_same_v<remove_cvref_t<Args>, T> && ...)) ||
                               (std::is_trivially_move_constructible_v<T> && std::is_trivially_destructible_v<T> &&
                                std::is_constructible_v<T, Args&&...>)))) {
            // A push of a T, or an element whose move is a copy of its bytes (a pair of scalars, built
            // by emplace_back(k, 1.0): the move is unobservable): only the growth path builds the value
            // first (an argument may be an element that growth moves), then moves it in. Nothing takes the
            // argument's address, so the fast path above builds the element from the caller's values where
            // they are (registers). Taking it (to find whether it is an element) made a braced pair's two
            // narrow stores to the stack be read back as one wide load on every push, a stall of several
            // times std::vector's loop (docs/decisions.md, "Growth builds the new element in place"). Not
            // for allocators that construct (a uses-allocator T built here would take the wrong allocator);
            // emplace_back with a constructor's arguments builds any other T in place, also when it grows
            // (a temporary moved in would be an observable move).
            T value(std::forward<Args>(args)...);
            // In memory across the growth: held in callee-saved registers instead, the copy took two
            // from the loop, whose count then went to the stack (std::copy of complex<double> into a
            // back_inserter; docs/measurements/vector.md, "Types and idioms").
            if (!is_constant_evaluated()) keep_in_memory(value);
            grow_for_push();
            return fast_emplace_back(std::move(value));
        } else if constexpr (relocate_as_bytes_v<Alloc, T> && std::is_constructible_v<T, Args&&...>) {
            // A trivially relocatable T with a constructor's arguments: built in place, in a slot of its
            // own before the growth (the arguments may be elements that it moves), then relocated as
            // bytes to its place, which moves nothing observably. The arguments never reach the
            // out-of-line growth, so the loop's values stay in registers.
            if (!is_constant_evaluated()) return build_then_grow(std::forward<Args>(args)...);
            return grow_and_emplace_back(std::forward<Args>(args)...);
        } else if constexpr (Derived::seq_grows_out_of_line) {
            return grow_and_emplace_back_out_of_line(std::forward<Args>(args)...);
        } else {
            // Scalars passed as rvalues (emplace_back(&cells[i]), emplace_back(i + 1)): the temporaries in
            // memory across the growth, as `value` above: held in callee-saved registers, they took one from
            // the loop, whose count went to memory (a class owning a pointer; docs/measurements/vector.md,
            // "Inserting ranges, and growth calls in registers"). The constructor gets the caller's own
            // temporaries, not copies: it may take them by `&&` and change them.
            if constexpr (sizeof...(Args) != 0 && ((std::is_scalar_v<Args> && !std::is_volatile_v<Args>) && ...)) {
                if (!is_constant_evaluated()) (keep_in_memory(args), ...);
            }
            return grow_and_emplace_back(std::forward<Args>(args)...);
        }
    }

    /// Appends without checking the capacity (pre: size() < capacity()): O(1), never grows. Throws what
    /// constructing T throws (then nothing changed); invalidates only end(). fast_emplace_back constructs
    /// the element from args and returns it.
    RELO_CONSTEXPR20 void fast_push_back(const T& value) { fast_emplace_back(value); }
    /// \copydoc fast_push_back(const T&)
    RELO_CONSTEXPR20 void fast_push_back(T&& value) { fast_emplace_back(std::move(value)); }
    /// \copydoc fast_push_back(const T&)
    template <class... Args>
    RELO_CONSTEXPR20 reference fast_emplace_back(Args&&... args) {
        const capacity_guard open(*this, 1);
        T* e = self().seq_end();
        RELO_EXPECTS_MSG(e != self().seq_capacity_end(),
                         "%s::unchecked_push_back/fast_push_back: the container is full (capacity() %zu)",
                         Derived::seq_name, capacity());
        construct(alloc(), e, std::forward<Args>(args)...);
        self().seq_added_one();
        return *e;
    }
    /// C++26's names (P0843, std::inplace_vector) for fast_push_back and fast_emplace_back, with their
    /// contract; both return the new element.
    RELO_CONSTEXPR20 reference unchecked_push_back(const T& value) { return fast_emplace_back(value); }
    /// \copydoc unchecked_push_back(const T&)
    RELO_CONSTEXPR20 reference unchecked_push_back(T&& value) { return fast_emplace_back(std::move(value)); }
    /// \copydoc unchecked_push_back(const T&)
    template <class... Args>
    RELO_CONSTEXPR20 reference unchecked_emplace_back(Args&&... args) {
        return fast_emplace_back(std::forward<Args>(args)...);
    }

    /// Appends when there is room, never growing: O(1). Returns the new element as a `relo::optional_ref<T>`
    /// (C++26's `std::optional<T&>` where the library has it), or an empty one, with no effect (an rvalue
    /// argument untouched), when size() == capacity(). Throws what constructing T throws (then nothing
    /// changed); invalidates only end().
    template <class... Args>
    RELO_CONSTEXPR20 optional_ref<T> try_emplace_back(Args&&... args) {
        if (self().seq_full()) return std::nullopt;
        const capacity_guard open(*this, 1);
        T* e = self().seq_end();
        construct(alloc(), e, std::forward<Args>(args)...);
        self().seq_added_one();
        return *e;
    }
    /// \copydoc try_emplace_back
    RELO_CONSTEXPR20 optional_ref<T> try_push_back(const T& value) { return try_emplace_back(value); }
    /// \copydoc try_emplace_back
    RELO_CONSTEXPR20 optional_ref<T> try_push_back(T&& value) { return try_emplace_back(std::move(value)); }

    /// Destroys the last element: O(1), never throws (pre: !empty()); invalidates the last element and end().
    RELO_CONSTEXPR20 void pop_back() noexcept {
        expects_not_empty("pop_back");
        const capacity_guard open(*this, 0);
        destroy(alloc(), self().seq_end() - 1);
        self().seq_removed_one();
    }
    /// pop_back() that does nothing on an empty container.
    RELO_CONSTEXPR20 void safe_pop_back() noexcept {
        if (!empty()) pop_back();
    }

    // ---------------------------------------------------------------------------------------------------
    // Insertion (insert_n below says how: one routine, two strategies).

    // At the end, insert is emplace_back, inline (as std::vector's): out of line, the value's address
    // went to the call and a loop of insert(end(), x) stored and reloaded every value.
    /// Inserts before pos, and returns an iterator to the first inserted element (pos when none is).
    /// insert(pos, value) and emplace(pos, args...) one element, O(d + 1); insert(pos, count, value) count
    /// copies, O(d + count); insert(pos, first, last) and insert(pos, {...}) the range's k elements,
    /// O(d + k) for forward ranges, O(n + k) for input ranges (appended, then rotated); each plus O(n) when
    /// it grows.
    /// Throws what constructing or moving T throws, and when it grows. Invalidates everything if it grows,
    /// else from pos on. Strong when T relocates without throwing (std::vector's is basic in the middle),
    /// basic otherwise; input ranges: basic; at end(), as push_back. The value or range may be the
    /// container's own elements (std::vector forbids a range of them). The tail shifts by one memmove for
    /// trivially relocatable T, by move assignment when that cannot throw, by relocation otherwise (one
    /// operation per shifted element).
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE iterator insert(const_iterator pos, const T& value) {
        if (pos.base() == ptr_end()) return append_one(value);
        return insert_one(pos, value);
    }
    /// \copydoc insert(const_iterator, const T&)
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE iterator insert(const_iterator pos, T&& value) {
        if (pos.base() == ptr_end()) return append_one(std::move(value));
        return insert_one(pos, std::move(value));
    }

    /// \copydoc insert(const_iterator, const T&)
    RELO_CONSTEXPR20 iterator insert(const_iterator pos, size_type count, const T& value) {
        const size_type at = index_of_position(pos);
        const size_type src = index_of_element(std::addressof(value));
        return insert_n(at, count, [&](T* dest, const element_locator& locate) {
            uninitialized_fill_n(alloc(), dest, count, src == npos ? value : std::as_const(*locate(src)));
        });
    }

    /// \copydoc insert(const_iterator, const T&)
    template <class InputIt, std::enable_if_t<is_input_iterator_v<InputIt>, int> = 0>
    RELO_CONSTEXPR20 iterator insert(const_iterator pos, InputIt first, InputIt last) {
        return insert_range_at(index_of_position(pos), std::move(first), std::move(last));
    }

    /// \copydoc insert(const_iterator, const T&)
    RELO_CONSTEXPR20 iterator insert(const_iterator pos, std::initializer_list<T> list) {
        return insert_range_at(index_of_position(pos), list.begin(), list.end());
    }

    /// \copydoc insert(const_iterator, const T&)
    template <class... Args>
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE iterator emplace(const_iterator pos, Args&&... args) {
        if (pos.base() == ptr_end()) return append_one(std::forward<Args>(args)...);
        return emplace_inside(pos, std::forward<Args>(args)...);
    }

private:
    /// emplace_back's growth path for a trivially relocatable T (see there).
    template <class... Args>
    reference build_then_grow(Args&&... args) {
        alignas(T) unsigned char raw[sizeof(T)];
        T* const built = reinterpret_cast<T*>(raw);
        construct(alloc(), built, std::forward<Args>(args)...);
        try {
            grow_for_push();
        } catch (...) {
            destroy(alloc(), built);
            throw;
        }
        T* const e = self().seq_end();
        relocate_at(built, e);
        self().seq_added_one();
        return *e;
    }

    template <class... Args>
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE iterator append_one(Args&&... args) {
        emplace_back(std::forward<Args>(args)...);
        return make_iterator(ptr_end() - 1);
    }
    template <class... Args>
    RELO_CONSTEXPR20 iterator emplace_inside(const_iterator pos, Args&&... args) {
        if constexpr (sizeof...(Args) == 1 && (std::is_same_v<remove_cvref_t<Args>, T> && ...)) {
            (void)index_of_position(pos, "emplace");  // (checked here to name emplace in the message)
            return insert_one(pos, std::forward<Args>(args)...);
        } else {
            const size_type at = index_of_position(pos, "emplace");
            if (at == size()) {
                emplace_back(std::forward<Args>(args)...);
                return make_iterator(ptr_begin() + at);
            }
            // The arguments may refer to elements that the insertion moves: build the value first.
            T value(std::forward<Args>(args)...);
            return insert_n(at, 1, [&](T* dest, const element_locator&) {
                construct(alloc(), dest, std::move(value));
            });
        }
    }

public:

    // ---------------------------------------------------------------------------------------------------
    // Erasure: the tail closes the gap (detail::close_gap).

    /// Erases the element at pos (pre: pos is one of the elements), or those of [first, last) (pre: a range
    /// of the elements): O(d). Throws only what T's move assignment throws (never when T relocates without
    /// throwing or that assignment is noexcept), then basic. Invalidates from the first erased element on.
    /// Returns an iterator to the element after the erased ones.
    RELO_CONSTEXPR20 iterator erase(const_iterator pos) {
        RELO_EXPECTS_MSG(pos.base() >= ptr_begin() && pos.base() < ptr_end(),
                         "%s::erase: position %td is outside the elements [0, %zu)", Derived::seq_name,
                         offset_of(pos.base()), size());
        return erase(pos, pos + 1);
    }

    /// \copydoc erase(const_iterator)
    RELO_CONSTEXPR20 iterator erase(const_iterator first, const_iterator last) {
        RELO_EXPECTS_MSG(first.base() >= ptr_begin() && first.base() <= last.base() && last.base() <= ptr_end(),
                         "%s::erase: the range [%td, %td) is not a range of the elements [0, %zu)",
                         Derived::seq_name, offset_of(first.base()), offset_of(last.base()), size());
        T* f = ptr_begin() + (first.base() - ptr_begin());
        T* l = ptr_begin() + (last.base() - ptr_begin());
        if (f == l) return make_iterator(f);
        const capacity_guard open(*this, 0);
        self().seq_set_end(close_gap(alloc(), f, l, ptr_end()));
        return make_iterator(f);
    }

    /// Destroys every element: O(n), never throws, invalidates everything; releases no memory (capacity()
    /// is unchanged).
    RELO_CONSTEXPR20 void clear() noexcept {
        const capacity_guard open(*this, 0);
        destroy(alloc(), ptr_begin(), ptr_end());
        self().seq_set_end(ptr_begin());
    }

    // ---------------------------------------------------------------------------------------------------
    // Size changes.

    /// Makes size() n: removes the last elements, or appends value-initialized ones (resize(n)) or copies
    /// of value (resize(n, value)). O(|n - size()|), plus O(size()) when it grows. Throws what constructing
    /// T throws, and when it grows (then strong). Invalidates everything if it grows; otherwise end(), and
    /// the removed elements. value may be an element.
    RELO_CONSTEXPR20 void resize(size_type n) {
        resize_with(n, [&](T* dest, size_type count) { uninitialized_value_construct_n(alloc(), dest, count); });
    }

    /// \copydoc resize(size_type)
    RELO_CONSTEXPR20 void resize(size_type n, const T& value) {
        const size_type src = index_of_element(std::addressof(value));
        resize_with(n, [&](T* dest, size_type count) {
            uninitialized_fill_n(alloc(), dest, count, src == npos ? value : ptr_begin()[src]);
        });
    }

    // (LLVM's SmallVector::resize_for_overwrite: growing costs the allocation only, not a fill.)
    /// As resize(n), but the new elements are default-initialized: an int keeps what the memory held
    /// (indeterminate: write before reading), O(1) past the growth for a trivially default-constructible
    /// T; a class type is default-constructed. Through an allocator with its own construct(), and in a
    /// constant expression, they are value-initialized.
    RELO_CONSTEXPR20 void resize_for_overwrite(size_type n) {
        resize_with(n, [&](T* dest, size_type count) { uninitialized_default_construct_n(alloc(), dest, count); });
    }

    // ---------------------------------------------------------------------------------------------------
    // Assignment of new contents.

    /// Replaces the contents with n copies of value, or with the elements of a range (an iterator pair, an
    /// initializer list): O(old size + new size). Throws what constructing or assigning T throws, and when
    /// it grows; invalidates everything. Strong when it grows (the new storage is filled before the old
    /// elements are destroyed; value and the range may be in the container), basic otherwise, as
    /// std::vector's.
    RELO_CONSTEXPR20 void assign(size_type n, const T& value) {
        const capacity_guard open(*this, n > size() ? n - size() : 0);
        if (n > capacity()) {
            if (n > max_size()) Derived::seq_too_large("relo: assign() beyond max_size()");
            // The old elements (value may be one of them) are destroyed only after the copies exist.
            if constexpr (!Derived::seq_fixed_capacity)
                self().seq_rebuild(n, [&](T* dest) { uninitialized_fill_n(alloc(), dest, n, value); });
            return;
        }
        const size_type old_size = size();
        std::fill_n(ptr_begin(), std::min(n, old_size), value);
        if (n > old_size) {
            uninitialized_fill_n(alloc(), ptr_end(), n - old_size, value);
            self().seq_set_end(ptr_begin() + n);
        } else {
            truncate(ptr_begin() + n);
        }
    }

    /// \copydoc assign(size_type, const T&)
    template <class InputIt, std::enable_if_t<is_input_iterator_v<InputIt>, int> = 0>
    RELO_CONSTEXPR20 void assign(InputIt first, InputIt last) {
        assign_range_impl(std::move(first), std::move(last));
    }

    /// \copydoc assign(size_type, const T&)
    RELO_CONSTEXPR20 void assign(std::initializer_list<T> list) { assign_range_impl(list.begin(), list.end()); }

#if RELO_HAS_RANGES
    // The C++23 range members (available in C++20 builds too).

    /// assign() from a range: assign(first, last)'s contract.
    template <class R>
        requires std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, T>
    RELO_CONSTEXPR20 void assign_range(R&& range) {
        assign_range_impl(std::ranges::begin(range), std::ranges::end(range));
    }
    /// insert() of a range before pos: insert(pos, first, last)'s contract.
    template <class R>
        requires std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, T>
    RELO_CONSTEXPR20 iterator insert_range(const_iterator pos, R&& range) {
        return insert_range_at(index_of_position(pos), std::ranges::begin(range), std::ranges::end(range));
    }
    /// Appends the range's k elements: O(k), plus O(n) when it grows. Throws what constructing T throws,
    /// and when it grows; invalidates as push_back does; strong for forward ranges.
    template <class R>
        requires std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, T>
    RELO_CONSTEXPR20 void append_range(R&& range) {
        insert_range_at(size(), std::ranges::begin(range), std::ranges::end(range));
    }
#endif

    // ---------------------------------------------------------------------------------------------------
    // Comparisons (lexicographic, as std::vector's) and swap, found by argument-dependent lookup.

    // As the standard declares them ([vector.syn], [container.opt.reqmts]): == unconstrained, <=> only
    // where synth-three-way is (so std::three_way_comparable of a container whose elements have < and a
    // deleted == is true, as it is of std::vector's).
    /// Whether l and r hold equal elements: compares the sizes, then the elements with ==, O(n). Throws what
    /// T's == throws.
    friend RELO_CONSTEXPR20 bool operator==(const Derived& l, const Derived& r) {
        return l.size() == r.size() && std::equal(l.data(), l.data() + l.size(), r.data());
    }
#if RELO_HAS_THREE_WAY
    // (A template, so that the constraint is checked where <=> is used: Clang 14 checked a plain friend's
    // when the container was instantiated, while T may still be incomplete — a JSON object type whose
    // members hold JSON values, tests/clients_test.cpp.)
    /// Lexicographic comparison, from which <, <=, > and >= follow: O(n), throws what T's comparisons
    /// throw. Uses T's <=>, or its < for a T without one; absent when T has neither.
    template <class U = T>
        requires synth_three_way_comparable<U>
    friend RELO_CONSTEXPR20 auto operator<=>(const Derived& l, const Derived& r) {
        return std::lexicographical_compare_three_way(l.data(), l.data() + l.size(), r.data(), r.data() + r.size(),
                                                      synth_three_way{});
    }
#else
    /// Before C++20: != is !(l == r); <, >, <= and >= are lexicographic (std::lexicographical_compare),
    /// O(n), throwing what T's < throws.
    friend bool operator!=(const Derived& l, const Derived& r) { return !(l == r); }
    friend bool operator<(const Derived& l, const Derived& r) {
        return std::lexicographical_compare(l.data(), l.data() + l.size(), r.data(), r.data() + r.size());
    }
    friend bool operator>(const Derived& l, const Derived& r) { return r < l; }
    friend bool operator<=(const Derived& l, const Derived& r) { return !(r < l); }
    friend bool operator>=(const Derived& l, const Derived& r) { return !(l < r); }
#endif

    /// l.swap(r): the container's swap, with its contract.
    friend RELO_CONSTEXPR20 void swap(Derived& l, Derived& r) noexcept(noexcept(l.swap(r))) { l.swap(r); }

    // The rest is the containers' interface to the class, not the API reference's.
    /// \cond
protected:
    sequence_ops() = default;

    static constexpr size_type npos = static_cast<size_type>(-1);

    /// The elements as pointers, for the algorithms here (iterators are the interface's).
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* ptr_begin() const noexcept {
        return static_cast<const Derived*>(this)->seq_begin();
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* ptr_end() const noexcept {
        return static_cast<const Derived*>(this)->seq_end();
    }

    /// The iterator at p (with RELO_BOUNDED_ITERATORS, bounded by the storage: detail/iterator.hpp).
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 iterator make_iterator(T* p) const noexcept {
#if RELO_DETAIL_BOUNDED_ITERATORS
        return iterator(p, ptr_begin(), iterator_bound(self(), 0));
#else
        return iterator(p);
#endif
    }
    /// Where a bounded iterator's storage ends: the capacity, or where the storage says its iterators
    /// stay valid to (seq_iterator_end: a pinned_vector's reservation, whose growth moves nothing).
    template <class D>
    static constexpr auto iterator_bound(const D& d, int) noexcept -> decltype(d.seq_iterator_end()) {
        return d.seq_iterator_end();
    }
    template <class D>
    static constexpr T* iterator_bound(const D& d, long) noexcept {
        return d.seq_capacity_end();
    }

    /// For a storage's seq_grow_emplacing, after its block grew: when it grew in place nothing moved and
    /// the new element was not built with the move; it is built here, at the end.
    template <class Build>
    RELO_CONSTEXPR20 void build_if_grown_in_place(size_type old_size, Build& build) {
        if (size() == old_size) {
            build(ptr_end());
            self().seq_added_one();
        }
    }

    template <class U>
    using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<U>>;

#if RELO_HAS_THREE_WAY
    struct synth_three_way {
        template <class U>
        constexpr auto operator()(const U& a, const U& b) const {
            if constexpr (std::three_way_comparable<U>) {
                return a <=> b;
            } else {
                return a < b ? std::weak_ordering::less : b < a ? std::weak_ordering::greater : std::weak_ordering::equivalent;
            }
        }
    };
#endif

#if RELO_HAS_CONCEPTS
    template <class D>
    static constexpr bool storage_contract_holds();  // detail/storage_contract.hpp
#endif

    /// Where element `s` (an index from before the insertion) lives while an insertion is under way:
    /// elements from the insertion point on have been shifted behind the gap.
    struct element_locator {
        T* first;
        size_type gap_at;
        size_type gap_size;
        constexpr T* operator()(size_type s) const noexcept { return first + (s < gap_at ? s : s + gap_size); }
    };

    // The class's requirements on its arguments are checked where a member is used, not at class scope:
    // a class-scope check would make class template argument deduction fail hard on a candidate that
    // should merely drop out (vector(first, last, alloc) tries vector<It, Alloc> on the way).
    static constexpr bool arguments_fit() {
        static_assert(std::is_same_v<typename std::allocator_traits<Alloc>::value_type, T>,
                      "relo: the allocator's value_type must be the element type");
        return true;
    }

    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 Derived& self() noexcept {
        static_assert(arguments_fit());
#if RELO_HAS_CONCEPTS
        static_assert(storage_contract_holds<Derived>());
#endif
        return static_cast<Derived&>(*this);
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const Derived& self() const noexcept {
        static_assert(arguments_fit());
        return static_cast<const Derived&>(*this);
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 Alloc& alloc() noexcept { return self().seq_allocator(); }

    // ---- AddressSanitizer's view of the capacity: detail/capacity_guard.hpp.
    static constexpr size_type whole_capacity = capacity_guard_room::whole_capacity;
    using capacity_guard = detail::capacity_guard<sequence_ops>;
    friend capacity_guard;
    /// Whether the storage annotates its capacity (read by capacity_guard when an operation runs).
    static constexpr bool annotated() noexcept { return Derived::seq_annotated; }

    // ---- Hardened checks: detail/sequence_checks.hpp.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void expects_not_empty(const char* operation) const noexcept;
    std::ptrdiff_t offset_of(const T* p) const noexcept;
    template <class It, class Sent>
    RELO_CONSTEXPR20 size_type checked_length(const char* operation, const It& first, const Sent& last) const;
    RELO_CONSTEXPR20 size_type index_of_position(const_iterator pos, const char* operation = "insert") const noexcept;

    // ---- The engines: detail/sequence_engine.hpp, which says what each does.
    RELO_CONSTEXPR20 size_type index_of_element(const T* p) const noexcept;
    RELO_CONSTEXPR20 void swap_allocators(Derived& other) noexcept;
    template <class Build>
    RELO_CONSTEXPR20 void rebuild_in_new_block(size_type n, Build&& build);
    RELO_CONSTEXPR20 void swap_elements(Derived& other);
    RELO_CONSTEXPR20 void copy_assign(const Derived& other);
    RELO_CONSTEXPR20 void truncate(T* new_end) noexcept;
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE bool must_grow_for(size_type extra) const;
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void ensure_room_for(size_type extra);
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void grow_for_push();
    template <class... Args>
    RELO_NOINLINE RELO_CONSTEXPR20 reference grow_and_emplace_back_out_of_line(Args&&... args) {
        return grow_and_emplace_back(std::forward<Args>(args)...);  // (defined here: GCC warns of a noinline
    }                                                                // constexpr function defined out of class)
    template <class... Args>
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE reference grow_and_emplace_back(Args&&... args);
    template <class V>
    RELO_CONSTEXPR20 iterator insert_one(const_iterator pos, V&& value);
    template <class Build>
    RELO_CONSTEXPR20 iterator insert_n(size_type at, size_type n, Build&& build);
    template <class It, class Sent>
    RELO_CONSTEXPR20 iterator insert_range_at(size_type at, It first, Sent last);
    template <class It, class Sent>
    RELO_CONSTEXPR20 void assign_range_impl(It first, Sent last);
    template <class Build>
    RELO_CONSTEXPR20 void construct_with(size_type n, Build&& build);
    RELO_CONSTEXPR20 void construct_value_initialized(size_type n);
    RELO_CONSTEXPR20 void construct_filled(size_type n, const T& value);
    template <class It, class Sent>
    RELO_CONSTEXPR20 void construct_from_range(It first, Sent last);
    template <class It>
    RELO_CONSTEXPR20 void uninitialized_copy_range(It first, size_type n, T* dest);
    template <class Fill>
    RELO_CONSTEXPR20 void resize_with(size_type n, Fill&& fill);
    /// \endcond
};

/// Whether C is a relo sequence (derives from sequence_ops): what the free erase and erase_if accept.
template <class D, class T, class A>
std::true_type derives_from_sequence_ops(const sequence_ops<D, T, A>*);
std::false_type derives_from_sequence_ops(const void*);
template <class C>
inline constexpr bool is_relo_sequence_v = decltype(derives_from_sequence_ops(static_cast<C*>(nullptr)))::value;

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// Erases every element satisfying pred from a relo container, and returns how many (the counterpart of
/// std::erase_if): O(n), basic; invalidates from the first removed element on.
template <class Container, class Pred, std::enable_if_t<detail::is_relo_sequence_v<Container>, int> = 0>
RELO_CONSTEXPR20 typename Container::size_type erase_if(Container& c, Pred pred) {
    const auto last = c.end();
    const auto first = detail::remove_elements_if(c.begin(), last, pred);
    const auto removed = static_cast<typename Container::size_type>(last - first);
    c.erase(first, last);
    return removed;
}

/// Erases every element equal to value, and returns how many (the counterpart of std::erase): erase_if's
/// contract.
template <class Container, class U = typename Container::value_type,
          std::enable_if_t<detail::is_relo_sequence_v<Container>, int> = 0>
RELO_CONSTEXPR20 typename Container::size_type erase(Container& c, const U& value) {
    return relo::erase_if(c, [&value](const auto& e) { return e == value; });
}

RELO_ABI_NAMESPACE_END
}  // namespace relo

#include "relo/detail/sequence_checks.hpp"
#include "relo/detail/sequence_engine.hpp"
#include "relo/detail/storage_contract.hpp"

#endif  // RELO_DETAIL_SEQUENCE_HPP
