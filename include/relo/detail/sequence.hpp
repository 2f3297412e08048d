// relo/detail/sequence.hpp — the one implementation of the contiguous-sequence operations.
//
// sequence_ops<Derived, T, Alloc> holds every algorithm of a vector-like container — element access,
// insert, emplace, erase, assign, resize, push/pop, comparisons — written once against a small storage
// interface that each container provides (as friend-accessible members of Derived):
//
//   T*   seq_begin() const noexcept          first element
//   T*   seq_end() const noexcept            one past the last element
//   T*   seq_capacity_end() const noexcept   one past the last slot of storage
//   bool seq_full() const noexcept           seq_end() == seq_capacity_end(), in the storage's own terms
//                                            (push_back's test: a storage that keeps sizes compares them,
//                                            which the optimizer cannot derive from the two pointers)
//   void seq_set_end(T*) noexcept            record a new end (elements already constructed/destroyed)
//   void seq_added_one() noexcept            one more element was constructed at seq_end() (push_back's
//                                            hot path: ++end, or ++size for containers that store a size)
//   void seq_removed_one() noexcept          the element at seq_end() - 1 was destroyed (pop_back: --end or
//                                            --size, so a loop of pops does not turn pointers into sizes)
//   A&   seq_allocator() noexcept            the allocator to construct/destroy with
//   size_type seq_max_size() const noexcept
//   static constexpr const char* seq_name    the container's name, for hardened checks' messages
//   static constexpr bool seq_annotated      whether AddressSanitizer is told that the capacity past the
//                                            elements is unused (detail/capacity_guard.hpp)
//   static void seq_too_large(const char*)  throws what exceeding max_size() throws (std::length_error for
//                                            growable containers, std::bad_alloc for fixed-capacity ones)
//   static constexpr bool seq_fixed_capacity  true: capacity() == max_size() always; the storage cannot
//                                            grow and has none of the growth hooks below (the paths
//                                            that would call them throw seq_too_large instead)
// and, when seq_fixed_capacity is false:
//   void seq_grow(size_type required)        capacity >= required, growing by the container's policy;
//                                            precondition required > capacity(), required <= max_size();
//                                            strong guarantee (elements moved only if nothing throws)
//   void seq_reserve(size_type n)            capacity >= n exactly as asked; same preconditions
//   void seq_grow_with_gap(size_type required, size_type at, size_type n)
//                                            seq_grow, and the elements [at, size) relocated to
//                                            [at + n, size + n) (the end is left as it was); only called
//                                            for elements that relocate without throwing
//   void seq_grow_emplacing(size_type required, Build b)
//                                            seq_grow, and one element more at the end, which b(slot)
//                                            constructs while the old elements are still where they were
//                                            (b may read them); strong guarantee
//   void seq_rebuild(size_type n, Build b)   new storage for n elements, b(dest) constructs them there,
//                                            then the old elements are destroyed (strong guarantee)
//   void seq_release() noexcept              destroys the elements and gives the storage back (copy
//                                            assignment, before the allocator is replaced)
//   T* seq_iterator_end() const noexcept     (optional) how far iterators stay valid as the storage grows,
//                                            when that is beyond seq_capacity_end() (RELO_BOUNDED_ITERATORS)
//   static constexpr bool seq_grows_out_of_line
//                                            false: push_back's growth glue is inlined, so that a vector
//                                            whose address never escapes stays in registers (relo::vector);
//                                            true: it is a call taking `this`, for a storage whose object
//                                            lives in memory anyway (small_vector: begin may point into it)
//   void seq_grow_for_push()                 (only when seq_grows_out_of_line) room for one more element,
//                                            with the checks of ensure_room_for(1); out of line
//
// The contract is checked (storage_contract_holds, C++20): a missing hook is a compile error naming it.
//
// What each member does, costs, throws and invalidates is stated once, for every relo vector, in
// relo/vector.hpp ("The operations every relo vector shares"); the comments here say how and why.
// Layer 3, the container engine (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_SEQUENCE_HPP
#define RELO_DETAIL_SEQUENCE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "relo/detail/config.hpp"  // (first: it defines the RELO_HAS_ macros tested next)

#if RELO_HAS_THREE_WAY
#include <compare>
#endif
#if RELO_HAS_CONCEPTS
#include <concepts>
#endif
#if defined(__cpp_lib_ranges)
#include <ranges>
#endif

#include "relo/detail/allocation.hpp"
#include "relo/detail/capacity_guard.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/gdb_printers.hpp"  // (a program with a relo container carries the printers)
#include "relo/detail/iterator.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/detail/uninitialized.hpp"
#include "relo/optional_ref.hpp"
#include "relo/relocation.hpp"

namespace relo::detail {

#if RELO_HAS_THREE_WAY
/// What the standard's exposition-only synth-three-way accepts: <=>, or < both ways.
template <class T>
concept synth_three_way_comparable = std::three_way_comparable<T> || requires(const T& a, const T& b) {
    { a < b } -> std::convertible_to<bool>;
    { b < a } -> std::convertible_to<bool>;
};
#endif

template <class Derived, class T, class Alloc>
class sequence_ops {
public:
    using value_type = T;
    using allocator_type = Alloc;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;
    using pointer = typename allocator_pointers<Alloc, T>::pointer;
    using const_pointer = typename allocator_pointers<Alloc, T>::const_pointer;
    using iterator = contiguous_iterator<T, Derived>;
    using const_iterator = contiguous_iterator<const T, Derived>;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

    // Nothing here may need T complete: [vector.overview] allows an incomplete T until a member is used
    // (struct node { relo::vector<node> children; }), and a T whose destructor only the allocator's
    // destroy() can reach is Erasable.
    static_assert(!std::is_const_v<T> && !std::is_reference_v<T>, "relo: elements must be non-const object types");

    // ---------------------------------------------------------------------------------------------------
    // Element access.

    RELO_CONSTEXPR20 reference at(size_type i) {
        if (i >= size()) throw_out_of_range("relo: index out of range in at()");
        return ptr_begin()[i];
    }
    RELO_CONSTEXPR20 const_reference at(size_type i) const {
        if (i >= size()) throw_out_of_range("relo: index out of range in at()");
        return ptr_begin()[i];
    }
    RELO_CONSTEXPR20 reference operator[](size_type i) noexcept {
        expects_index(i);
        return ptr_begin()[i];
    }
    RELO_CONSTEXPR20 const_reference operator[](size_type i) const noexcept {
        expects_index(i);
        return ptr_begin()[i];
    }
    RELO_CONSTEXPR20 reference front() noexcept {
        expects_not_empty("front");
        return *ptr_begin();
    }
    RELO_CONSTEXPR20 const_reference front() const noexcept {
        expects_not_empty("front");
        return *ptr_begin();
    }
    RELO_CONSTEXPR20 reference back() noexcept {
        expects_not_empty("back");
        return ptr_end()[-1];
    }
    RELO_CONSTEXPR20 const_reference back() const noexcept {
        expects_not_empty("back");
        return ptr_end()[-1];
    }
    RELO_CONSTEXPR20 T* data() noexcept { return self().seq_begin(); }
    RELO_CONSTEXPR20 const T* data() const noexcept { return self().seq_begin(); }

    // ---------------------------------------------------------------------------------------------------
    // Iterators: a pointer in a class (detail/iterator.hpp).

    RELO_CONSTEXPR20 iterator begin() noexcept { return make_iterator(self().seq_begin()); }
    RELO_CONSTEXPR20 const_iterator begin() const noexcept { return make_iterator(self().seq_begin()); }
    RELO_CONSTEXPR20 const_iterator cbegin() const noexcept { return begin(); }
    RELO_CONSTEXPR20 iterator end() noexcept { return make_iterator(self().seq_end()); }
    RELO_CONSTEXPR20 const_iterator end() const noexcept { return make_iterator(self().seq_end()); }
    RELO_CONSTEXPR20 const_iterator cend() const noexcept { return end(); }
    RELO_CONSTEXPR20 reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
    RELO_CONSTEXPR20 const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
    RELO_CONSTEXPR20 const_reverse_iterator crbegin() const noexcept { return rbegin(); }
    RELO_CONSTEXPR20 reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
    RELO_CONSTEXPR20 const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }
    RELO_CONSTEXPR20 const_reverse_iterator crend() const noexcept { return rend(); }

    // ---------------------------------------------------------------------------------------------------
    // Capacity.

    [[nodiscard]] RELO_CONSTEXPR20 bool empty() const noexcept { return self().seq_begin() == self().seq_end(); }
    RELO_CONSTEXPR20 size_type size() const noexcept {
        return static_cast<size_type>(self().seq_end() - self().seq_begin());
    }
    RELO_CONSTEXPR20 size_type capacity() const noexcept {
        return static_cast<size_type>(self().seq_capacity_end() - self().seq_begin());
    }
    RELO_CONSTEXPR20 size_type max_size() const noexcept { return self().seq_max_size(); }

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
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void push_back(const T& value) { emplace_back(value); }
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void push_back(T&& value) { emplace_back(std::move(value)); }

    // Always inline, with its growth glue (grow_and_emplace_back, ensure_room_for, must_grow_for and
    // relo::vector's seq_grow): when GCC outlined the glue as a function taking `this`, a local vector's
    // pointers lived in memory and a push_back loop loaded and stored them on every element
    // (docs/measurements/vector.md, "A push_back loop in registers"). Only the container's growth
    // function, which takes and returns a block by value, stays out of line. A storage whose object lives
    // in memory anyway declares seq_grows_out_of_line, and its growth is one call (small_vector).
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
        } else if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= 2 * sizeof(void*) &&
                             std::is_constructible_v<T, Args&&...> && std::is_destructible_v<T>) {
            // A small value is copied first (it may be an element that growth moves): then the caller's
            // argument need not live in memory, and a push_back loop keeps it in a register.
            // (Moved in, not copied: a trivially copyable T may still be move-only.)
            T value(std::forward<Args>(args)...);
            grow_for_push();
            return fast_emplace_back(std::move(value));
        } else if constexpr (Derived::seq_grows_out_of_line) {
            return grow_and_emplace_back_out_of_line(std::forward<Args>(args)...);
        } else {
            return grow_and_emplace_back(std::forward<Args>(args)...);
        }
    }

    RELO_CONSTEXPR20 void fast_push_back(const T& value) { fast_emplace_back(value); }
    RELO_CONSTEXPR20 void fast_push_back(T&& value) { fast_emplace_back(std::move(value)); }
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
    /// The names of P0843 (std::inplace_vector) for fast_push_back / fast_emplace_back.
    RELO_CONSTEXPR20 reference unchecked_push_back(const T& value) { return fast_emplace_back(value); }
    RELO_CONSTEXPR20 reference unchecked_push_back(T&& value) { return fast_emplace_back(std::move(value)); }
    template <class... Args>
    RELO_CONSTEXPR20 reference unchecked_emplace_back(Args&&... args) {
        return fast_emplace_back(std::forward<Args>(args)...);
    }

    template <class... Args>
    RELO_CONSTEXPR20 optional_ref<T> try_emplace_back(Args&&... args) {
        if (self().seq_full()) return std::nullopt;
        const capacity_guard open(*this, 1);
        T* e = self().seq_end();
        construct(alloc(), e, std::forward<Args>(args)...);
        self().seq_added_one();
        return *e;
    }
    RELO_CONSTEXPR20 optional_ref<T> try_push_back(const T& value) { return try_emplace_back(value); }
    RELO_CONSTEXPR20 optional_ref<T> try_push_back(T&& value) { return try_emplace_back(std::move(value)); }

    RELO_CONSTEXPR20 void pop_back() noexcept {
        expects_not_empty("pop_back");
        const capacity_guard open(*this, 0);
        destroy(alloc(), self().seq_end() - 1);
        self().seq_removed_one();
    }
    RELO_CONSTEXPR20 void safe_pop_back() noexcept {
        if (!empty()) pop_back();
    }

    // ---------------------------------------------------------------------------------------------------
    // Insertion (insert_n below says how: one routine, two strategies).

    RELO_CONSTEXPR20 iterator insert(const_iterator pos, const T& value) { return insert_one(pos, value); }
    RELO_CONSTEXPR20 iterator insert(const_iterator pos, T&& value) { return insert_one(pos, std::move(value)); }

    RELO_CONSTEXPR20 iterator insert(const_iterator pos, size_type n, const T& value) {
        const size_type at = index_of_position(pos);
        const size_type src = index_of_element(std::addressof(value));
        return insert_n(at, n, [&](T* dest, size_type, const element_locator& locate) {
            construct(alloc(), dest, src == npos ? value : *locate(src));
        });
    }

    template <class InputIt, std::enable_if_t<is_input_iterator_v<InputIt>, int> = 0>
    RELO_CONSTEXPR20 iterator insert(const_iterator pos, InputIt first, InputIt last) {
        return insert_range_at(index_of_position(pos), std::move(first), std::move(last));
    }

    RELO_CONSTEXPR20 iterator insert(const_iterator pos, std::initializer_list<T> list) {
        return insert_range_at(index_of_position(pos), list.begin(), list.end());
    }

    template <class... Args>
    RELO_CONSTEXPR20 iterator emplace(const_iterator pos, Args&&... args) {
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
            return insert_n(at, 1, [&](T* dest, size_type, const element_locator&) {
                construct(alloc(), dest, std::move(value));
            });
        }
    }

    // ---------------------------------------------------------------------------------------------------
    // Erasure: the tail closes the gap (detail::close_gap).

    RELO_CONSTEXPR20 iterator erase(const_iterator pos) {
        RELO_EXPECTS_MSG(pos.base() >= ptr_begin() && pos.base() < ptr_end(),
                         "%s::erase: position %td is outside the elements [0, %zu)", Derived::seq_name,
                         offset_of(pos.base()), size());
        return erase(pos, pos + 1);
    }

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

    RELO_CONSTEXPR20 void clear() noexcept {
        const capacity_guard open(*this, 0);
        destroy(alloc(), ptr_begin(), ptr_end());
        self().seq_set_end(ptr_begin());
    }

    // ---------------------------------------------------------------------------------------------------
    // Size changes.

    RELO_CONSTEXPR20 void resize(size_type n) {
        resize_with(n, [&](T* dest, size_type count) { uninitialized_value_construct_n(alloc(), dest, count); });
    }

    // (LLVM's SmallVector::resize_for_overwrite: growing costs the allocation only, not a fill.)
    RELO_CONSTEXPR20 void resize_for_overwrite(size_type n) {
        resize_with(n, [&](T* dest, size_type count) { uninitialized_default_construct_n(alloc(), dest, count); });
    }

    RELO_CONSTEXPR20 void resize(size_type n, const T& value) {
        const size_type src = index_of_element(std::addressof(value));
        resize_with(n, [&](T* dest, size_type count) {
            uninitialized_fill_n(alloc(), dest, count, src == npos ? value : ptr_begin()[src]);
        });
    }

    // ---------------------------------------------------------------------------------------------------
    // Assignment of new contents.

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

    template <class InputIt, std::enable_if_t<is_input_iterator_v<InputIt>, int> = 0>
    RELO_CONSTEXPR20 void assign(InputIt first, InputIt last) {
        assign_range_impl(std::move(first), std::move(last));
    }

    RELO_CONSTEXPR20 void assign(std::initializer_list<T> list) { assign_range_impl(list.begin(), list.end()); }

#if RELO_HAS_RANGES
    /// The C++23 range members (available in C++20 builds too).
    template <class R>
        requires std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, T>
    RELO_CONSTEXPR20 void assign_range(R&& range) {
        assign_range_impl(std::ranges::begin(range), std::ranges::end(range));
    }
    template <class R>
        requires std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, T>
    RELO_CONSTEXPR20 iterator insert_range(const_iterator pos, R&& range) {
        return insert_range_at(index_of_position(pos), std::ranges::begin(range), std::ranges::end(range));
    }
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
    friend RELO_CONSTEXPR20 bool operator==(const Derived& l, const Derived& r) {
        return l.size() == r.size() && std::equal(l.data(), l.data() + l.size(), r.data());
    }
#if RELO_HAS_THREE_WAY
    // (A template, so that the constraint is checked where <=> is used: Clang 14 checked a plain friend's
    // when the container was instantiated, while T may still be incomplete — a JSON object type whose
    // members hold JSON values, tests/clients_test.cpp.)
    template <class U = T>
        requires synth_three_way_comparable<U>
    friend RELO_CONSTEXPR20 auto operator<=>(const Derived& l, const Derived& r) {
        return std::lexicographical_compare_three_way(l.data(), l.data() + l.size(), r.data(), r.data() + r.size(),
                                                      synth_three_way{});
    }
#else
    friend bool operator!=(const Derived& l, const Derived& r) { return !(l == r); }
    friend bool operator<(const Derived& l, const Derived& r) {
        return std::lexicographical_compare(l.data(), l.data() + l.size(), r.data(), r.data() + r.size());
    }
    friend bool operator>(const Derived& l, const Derived& r) { return r < l; }
    friend bool operator<=(const Derived& l, const Derived& r) { return !(r < l); }
    friend bool operator>=(const Derived& l, const Derived& r) { return !(l < r); }
#endif

    friend RELO_CONSTEXPR20 void swap(Derived& l, Derived& r) noexcept(noexcept(l.swap(r))) { l.swap(r); }

protected:
    sequence_ops() = default;

    static constexpr size_type npos = static_cast<size_type>(-1);

    /// The elements as pointers, for the algorithms here (iterators are the interface's).
    RELO_CONSTEXPR20 T* ptr_begin() const noexcept { return self().seq_begin(); }
    RELO_CONSTEXPR20 T* ptr_end() const noexcept { return self().seq_end(); }

    /// The iterator at p (with RELO_BOUNDED_ITERATORS, bounded by the storage: detail/iterator.hpp).
    RELO_CONSTEXPR20 iterator make_iterator(T* p) const noexcept {
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
    /// The storage contract (the comment at the top of this file), checked where sequence_ops first
    /// uses the storage: a hook that is missing or declared otherwise is a compile error that names it.
    /// (Here, not in a namespace-scope concept: the hooks are private, and sequence_ops is their friend.)
    template <class D>
    static constexpr bool storage_contract_holds() {
        static_assert(requires(const D& d) { { d.seq_begin() } noexcept -> std::same_as<T*>; },
                      "relo storage contract: T* seq_begin() const noexcept");
        static_assert(requires(const D& d) { { d.seq_end() } noexcept -> std::same_as<T*>; },
                      "relo storage contract: T* seq_end() const noexcept");
        static_assert(requires(const D& d) { { d.seq_capacity_end() } noexcept -> std::same_as<T*>; },
                      "relo storage contract: T* seq_capacity_end() const noexcept");
        static_assert(requires(const D& d) { { d.seq_full() } noexcept -> std::same_as<bool>; },
                      "relo storage contract: bool seq_full() const noexcept");
        static_assert(requires(D& d, T* e) { { d.seq_set_end(e) } noexcept; },
                      "relo storage contract: void seq_set_end(T*) noexcept");
        static_assert(requires(D& d) { { d.seq_added_one() } noexcept; },
                      "relo storage contract: void seq_added_one() noexcept");
        static_assert(requires(D& d) { { d.seq_removed_one() } noexcept; },
                      "relo storage contract: void seq_removed_one() noexcept");
        static_assert(requires(D& d) { { d.seq_allocator() } noexcept -> std::same_as<Alloc&>; },
                      "relo storage contract: Alloc& seq_allocator() noexcept");
        static_assert(requires(const D& d) { { d.seq_max_size() } noexcept -> std::same_as<size_type>; },
                      "relo storage contract: size_type seq_max_size() const noexcept");
        static_assert(requires { { D::seq_name } -> std::convertible_to<const char*>; },
                      "relo storage contract: static constexpr const char* seq_name (for hardened checks' messages)");
        static_assert(requires { { D::seq_annotated } -> std::convertible_to<bool>; },
                      "relo storage contract: static constexpr bool seq_annotated (AddressSanitizer annotations)");
        static_assert(requires { D::seq_too_large(""); },
                      "relo storage contract: [[noreturn]] static void seq_too_large(const char*)");
        static_assert(requires { { D::seq_fixed_capacity } -> std::convertible_to<bool>; },
                      "relo storage contract: static constexpr bool seq_fixed_capacity (true: the storage "
                      "cannot grow, and has none of the growth hooks)");
        if constexpr (!D::seq_fixed_capacity) {
            static_assert(requires(D& d, size_type n) { d.seq_grow(n); },
                          "relo storage contract (growable): void seq_grow(size_type required)");
            static_assert(requires(D& d, size_type n) { d.seq_reserve(n); },
                          "relo storage contract (growable): void seq_reserve(size_type n)");
            static_assert(requires(D& d, size_type n) { d.seq_grow_with_gap(n, n, n); },
                          "relo storage contract (growable): void seq_grow_with_gap(size_type required, "
                          "size_type at, size_type n)");
            static_assert(requires(D& d, size_type n, void (*build)(T*)) { d.seq_grow_emplacing(n, build); },
                          "relo storage contract (growable): template <class Build> void "
                          "seq_grow_emplacing(size_type required, Build build)");
            static_assert(requires(D& d, size_type n, void (*build)(T*)) { d.seq_rebuild(n, build); },
                          "relo storage contract (growable): template <class Build> void "
                          "seq_rebuild(size_type n, Build build)");
            static_assert(requires(D& d) { { d.seq_release() } noexcept; },
                          "relo storage contract (growable): void seq_release() noexcept");
            static_assert(requires { { D::seq_grows_out_of_line } -> std::convertible_to<bool>; },
                          "relo storage contract (growable): static constexpr bool seq_grows_out_of_line");
            if constexpr (D::seq_grows_out_of_line) {
                static_assert(requires(D& d) { d.seq_grow_for_push(); },
                              "relo storage contract (grows out of line): void seq_grow_for_push()");
            }
        }
        return true;
    }
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

    RELO_CONSTEXPR20 Derived& self() noexcept {
        static_assert(arguments_fit());
#if RELO_HAS_CONCEPTS
        static_assert(storage_contract_holds<Derived>());
#endif
        return static_cast<Derived&>(*this);
    }
    RELO_CONSTEXPR20 const Derived& self() const noexcept {
        static_assert(arguments_fit());
        return static_cast<const Derived&>(*this);
    }
    RELO_CONSTEXPR20 Alloc& alloc() noexcept { return self().seq_allocator(); }

    // ---- AddressSanitizer's view of the capacity: detail/capacity_guard.hpp.
    static constexpr size_type whole_capacity = capacity_guard_room::whole_capacity;
    using capacity_guard = detail::capacity_guard<sequence_ops>;
    friend capacity_guard;
    /// Whether the storage annotates its capacity (read by capacity_guard when an operation runs).
    static constexpr bool annotated() noexcept { return Derived::seq_annotated; }

    // ---- Hardened checks (detail/contracts.hpp): nothing at all when checks are off.

    RELO_CONSTEXPR20 void expects_index(size_type i) const noexcept {
        RELO_EXPECTS_MSG(i < size(), "%s::operator[]: index %zu is out of range (size() %zu)", Derived::seq_name, i,
                         size());
        (void)i;
    }
    RELO_CONSTEXPR20 void expects_not_empty(const char* operation) const noexcept {
        RELO_EXPECTS_MSG(!empty(), "%s::%s: the container is empty", Derived::seq_name, operation);
        (void)operation;
    }
    /// Where an iterator points, in elements from begin() (for messages: it may point anywhere).
    std::ptrdiff_t offset_of(const T* p) const noexcept {
        const auto distance = reinterpret_cast<std::intptr_t>(p) - reinterpret_cast<std::intptr_t>(ptr_begin());
        return static_cast<std::ptrdiff_t>(distance / static_cast<std::intptr_t>(sizeof(T)));
    }
    /// The length of [first, last), which must not be reversed (a random-access range can tell).
    template <class It, class Sent>
    RELO_CONSTEXPR20 size_type checked_length(const char* operation, const It& first, const Sent& last) const {
#if RELO_PRECONDITIONS_CHECKED
        if constexpr (std::is_convertible_v<typename iterator_category_of<It>::type, std::random_access_iterator_tag> &&
                      std::is_same_v<It, Sent>) {
            const auto n = last - first;
            RELO_EXPECTS_MSG(n >= 0, "%s::%s: the range [first, last) is reversed (last - first is %td)",
                             Derived::seq_name, operation, static_cast<std::ptrdiff_t>(n));
        }
#endif
        (void)operation;
        return range_length(first, last);
    }

    RELO_CONSTEXPR20 size_type index_of_position(const_iterator pos, const char* operation = "insert") const noexcept {
        RELO_EXPECTS_MSG(pos.base() >= ptr_begin() && pos.base() <= ptr_end(),
                         "%s::%s: position %td is outside [0, size() %zu]", Derived::seq_name, operation,
                         offset_of(pos.base()), size());
        (void)operation;
        return static_cast<size_type>(pos.base() - ptr_begin());
    }

    /// The index of the element at p, or npos if p does not point into [begin(), end()). Any T inside the
    /// storage is an element, so an argument that aliases the container is found here and can be read
    /// again at its new address after the storage moves.
    RELO_CONSTEXPR20 size_type index_of_element(const T* p) const noexcept {
        const T* first = ptr_begin();
        const T* last = ptr_end();
        if (is_constant_evaluated()) {  // unrelated pointers cannot be ordered in a constant expression
            for (const T* it = first; it != last; ++it)
                if (it == p) return static_cast<size_type>(it - first);
            return npos;
        }
        if (std::less<const T*>{}(p, first) || !std::less<const T*>{}(p, last)) return npos;
        return static_cast<size_type>(p - first);
    }

    /// Exchanges the elements with other's when each capacity holds the other's size (fixed-capacity and
    /// inline storage): the common prefix is swapped, the longer side's rest relocates to the shorter in
    /// one pass. The allocators must be equal.
    RELO_CONSTEXPR20 void swap_elements(Derived& other) {
        const capacity_guard open_this(*this, whole_capacity), open_other(other, whole_capacity);
        Derived& shorter = size() <= other.size() ? self() : other;
        Derived& longer = size() <= other.size() ? other : self();
        RELO_EXPECTS(shorter.capacity() >= longer.size());
        T* common_end = longer.ptr_begin() + shorter.size();
        std::swap_ranges(shorter.ptr_begin(), shorter.ptr_end(), longer.ptr_begin());
        shorter.seq_set_end(transfer_to_new_storage(alloc(), common_end, longer.ptr_end(), shorter.ptr_end()));
        longer.seq_set_end(common_end);
    }

    /// operator=(const Derived&) of a growable container: the allocator propagates when
    /// propagate_on_container_copy_assignment says so, and then the storage the old allocator gave is
    /// released first unless the two compare equal. Basic guarantee, as std::vector's.
    RELO_CONSTEXPR20 void copy_assign(const Derived& other) {
        if (std::addressof(other) == std::addressof(self())) return;
        const capacity_guard open(*this, whole_capacity);
        using traits = std::allocator_traits<Alloc>;
        if constexpr (traits::propagate_on_container_copy_assignment::value) {
            if (!traits::is_always_equal::value && !(alloc() == other.get_allocator())) self().seq_release();
            alloc() = other.get_allocator();
        }
        assign_range_impl(other.ptr_begin(), other.ptr_end());
    }

    /// Destroys the elements from new_end on.
    RELO_CONSTEXPR20 void truncate(T* new_end) noexcept {
        destroy(alloc(), new_end, ptr_end());
        self().seq_set_end(new_end);
    }

    /// Whether `extra` more elements need the storage to grow; throws what the container throws when
    /// they can never fit.
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE bool must_grow_for(size_type extra) const {
        const size_type n = size();
        if (extra <= capacity() - n) return false;
        if constexpr (Derived::seq_fixed_capacity) Derived::seq_too_large("relo: the container is full");
        if (extra > max_size() - n) Derived::seq_too_large("relo: size would exceed max_size()");
        return true;
    }

    /// Makes room for `extra` more elements, growing by the container's policy.
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void ensure_room_for(size_type extra) {
        if (must_grow_for(extra)) {
            if constexpr (!Derived::seq_fixed_capacity) self().seq_grow(size() + extra);
        }
    }

    /// Room for one more element on push_back's slow path: inline glue, or the storage's out-of-line
    /// hook (seq_grows_out_of_line).
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void grow_for_push() {
        if constexpr (Derived::seq_grows_out_of_line) {
            self().seq_grow_for_push();
        } else {
            ensure_room_for(1);
        }
    }

    template <class... Args>
    RELO_NOINLINE RELO_CONSTEXPR20 reference grow_and_emplace_back_out_of_line(Args&&... args) {
        return grow_and_emplace_back(std::forward<Args>(args)...);
    }

    // Inline on purpose (see emplace_back); the heavy part, behind the container's seq_grow, is not.
    // Precondition: the storage is full and can grow.
    template <class... Args>
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE reference grow_and_emplace_back(Args&&... args) {
        if constexpr (sizeof...(Args) == 1 && (std::is_same_v<remove_cvref_t<Args>, T> && ...)) {
            // push_back(v[i]): growth may move v[i], so remember its index, not its address; the element
            // is constructed once, after the growth, from the argument or from where v[i] went. (Nothing
            // takes the argument's address out of line, so a push_back loop keeps it in registers: the
            // path below slowed a relocatable 16-byte class in the POD slides' loop; docs/measurements/vector.md.)
            const size_type src = (index_of_element(std::addressof(args)), ...);
            ensure_room_for(1);
            if (src == npos) return fast_emplace_back(std::forward<Args>(args)...);
            return fast_emplace_back(static_cast<Args&&>(ptr_begin()[src])...);
        } else {
            // Other arguments may refer to elements that growth moves: the storage builds the new element
            // while the old ones are still in place, and it is never moved ([sequence.reqmts] asks
            // emplace_back for EmplaceConstructible and MoveInsertable, not for a temporary).
            (void)must_grow_for(1);
            self().seq_grow_emplacing(size() + 1, [&](T* slot) { construct(alloc(), slot, std::forward<Args>(args)...); });
            return back();
        }
    }

    template <class V>
    RELO_CONSTEXPR20 iterator insert_one(const_iterator pos, V&& value) {
        const size_type at = index_of_position(pos);
        const capacity_guard open(*this, 1);
        if (at == size()) {
            emplace_back(std::forward<V>(value));
            return make_iterator(ptr_begin() + at);
        }
        const size_type src = index_of_element(std::addressof(value));
        return insert_n(at, 1, [&](T* dest, size_type, const element_locator& locate) {
            if (src == npos) {
                construct(alloc(), dest, std::forward<V>(value));
            } else {
                construct(alloc(), dest, static_cast<V&&>(*locate(src)));
            }
        });
    }

    /// Inserts n new elements before index `at`. make(dest, k, locate) constructs the k-th new element
    /// (k = 0, 1, ... in order) at dest; locate(s) finds old element s, for sources inside the container.
    ///
    /// When elements relocate without throwing, the tail moves up to open a gap of raw storage (open_gap:
    /// a memmove, or move-assignment as std::vector shifts) and the new elements are built in it; if one
    /// throws, the gap is closed again (strong guarantee). Otherwise the new elements are appended and
    /// rotated into place (basic guarantee, as std::vector).
    template <class Make>
    RELO_CONSTEXPR20 iterator insert_n(size_type at, size_type n, Make&& make) {
        if (n == 0) return make_iterator(ptr_begin() + at);
        const capacity_guard open(*this, n);
        if constexpr (nothrow_relocate_v<Alloc, T>) {
            // Open the gap; when the storage must grow, while moving the elements to it.
            if (!must_grow_for(n)) {
                open_gap(alloc(), ptr_begin() + at, ptr_end(), n);
            } else if constexpr (!Derived::seq_fixed_capacity) {  // (a full fixed-capacity one threw)
                self().seq_grow_with_gap(size() + n, at, n);
            }
            T* first = ptr_begin();
            T* pos = first + at;
            T* old_end = ptr_end();
            const element_locator locate{first, at, n};
            size_type built = 0;
            try {
                for (; built != n; ++built) make(pos + built, built, locate);
            } catch (...) {
                destroy(alloc(), pos, pos + built);
                relocate_forward(alloc(), pos + n, old_end + n, pos);
                throw;
            }
            self().seq_set_end(old_end + n);
            return make_iterator(pos);
        } else {
            ensure_room_for(n);
            T* pos = ptr_begin() + at;
            T* old_end = ptr_end();
            const element_locator locate{ptr_begin(), size(), 0};
            construction_guard<Alloc, T> guard(alloc(), old_end);
            for (size_type k = 0; k != n; ++k, guard.advance()) make(guard.current(), k, locate);
            guard.release();
            self().seq_set_end(old_end + n);
            std::rotate(pos, old_end, old_end + n);
            return make_iterator(pos);
        }
    }

    template <class It, class Sent>
    RELO_CONSTEXPR20 iterator insert_range_at(size_type at, It first, Sent last) {
        if constexpr (is_relo_iterator<It>::value || is_relo_iterator<Sent>::value) {
            return insert_range_at(at, unwrap_iterator(std::move(first)), unwrap_iterator(std::move(last)));
        } else if constexpr (is_forward_iterator_v<It>) {
            const size_type n = checked_length("insert", first, last);
            const capacity_guard open(*this, n);
            if constexpr (std::is_convertible_v<It, const T*>) {
                const size_type src = n == 0 ? npos : index_of_element(static_cast<const T*>(first));
                if (src != npos) {  // inserting a copy of part of the container into itself
                    return insert_n(at, n, [&](T* dest, size_type k, const element_locator& locate) {
                        construct(alloc(), dest, std::as_const(*locate(src + k)));
                    });
                }
            }
            return insert_n(at, n, [&](T* dest, size_type, const element_locator&) {
                construct(alloc(), dest, *first);
                ++first;
            });
        } else {
            // Single pass: append, then rotate into place. On a throw the appended elements are removed.
            const capacity_guard open(*this, 0);  // (each emplace_back widens the window)
            const size_type old_size = size();
            try {
                for (; first != last; ++first) emplace_back(*first);
            } catch (...) {
                truncate(ptr_begin() + old_size);
                throw;
            }
            std::rotate(ptr_begin() + at, ptr_begin() + old_size, ptr_end());
            return make_iterator(ptr_begin() + at);
        }
    }

    template <class It, class Sent>
    RELO_CONSTEXPR20 void assign_range_impl(It first, Sent last) {
        if constexpr (is_relo_iterator<It>::value || is_relo_iterator<Sent>::value) {
            assign_range_impl(unwrap_iterator(std::move(first)), unwrap_iterator(std::move(last)));
        } else if constexpr (is_forward_iterator_v<It>) {
            const size_type n = checked_length("assign", first, last);
            const capacity_guard open(*this, n > size() ? n - size() : 0);
            if (n > capacity()) {
                if (n > max_size()) Derived::seq_too_large("relo: assign() beyond max_size()");
                if constexpr (!Derived::seq_fixed_capacity)
                    self().seq_rebuild(n, [&](T* dest) { uninitialized_copy_range(first, n, dest); });
                return;
            }
            const size_type old_size = size();
            T* out = ptr_begin();
            // Element-wise assignment front to back is safe even when the source is a later part of *this.
            // (Separate statements: a user's iterator may overload the comma operator.)
            for (size_type k = 0; k != std::min(n, old_size); ++k) {
                *out = *first;
                ++out;
                ++first;
            }
            if (n > old_size) {
                uninitialized_copy_range(first, n - old_size, out);
                self().seq_set_end(ptr_begin() + n);
            } else {
                truncate(out);
            }
        } else {
            const capacity_guard open(*this, 0);  // (each emplace_back widens the window)
            T* out = ptr_begin();
            T* old_end = ptr_end();
            for (; first != last && out != old_end; ++out) {
                *out = *first;
                ++first;
            }
            if (out != old_end) {
                truncate(out);
            } else {
                for (; first != last; ++first) emplace_back(*first);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------
    // Construction into an empty container, for the containers' constructors. T needs only what building
    // its elements needs, never assignment or a move: [sequence.reqmts] asks X(n) for DefaultInsertable
    // and X(i, j) for EmplaceConstructible from *i (and MoveInsertable for single-pass iterators only).

    /// n elements that build(dest) constructs at dest (destroying them if it throws), in storage made
    /// for them when the present one is too small. Precondition: empty().
    template <class Build>
    RELO_CONSTEXPR20 void construct_with(size_type n, Build&& build) {
        RELO_EXPECTS(empty());
        const capacity_guard open(*this, n);
        if (n > capacity()) {
            if (n > max_size()) Derived::seq_too_large("relo: size would exceed max_size()");
            if constexpr (!Derived::seq_fixed_capacity) self().seq_rebuild(n, build);
            return;
        }
        if (n == 0) return;  // (then ptr_begin() may be null: inplace_vector<T, 0>)
        build(ptr_begin());
        self().seq_set_end(ptr_begin() + n);
    }
    RELO_CONSTEXPR20 void construct_value_initialized(size_type n) {
        construct_with(n, [&](T* dest) { uninitialized_value_construct_n(alloc(), dest, n); });
    }
    RELO_CONSTEXPR20 void construct_filled(size_type n, const T& value) {
        construct_with(n, [&](T* dest) { uninitialized_fill_n(alloc(), dest, n, value); });
    }
    template <class It, class Sent>
    RELO_CONSTEXPR20 void construct_from_range(It first, Sent last) {
        if constexpr (is_relo_iterator<It>::value || is_relo_iterator<Sent>::value) {
            construct_from_range(unwrap_iterator(std::move(first)), unwrap_iterator(std::move(last)));
        } else if constexpr (is_forward_iterator_v<It>) {
            const size_type n = range_length(first, last);
            construct_with(n, [&](T* dest) { uninitialized_copy_range(first, n, dest); });
        } else {
            for (; first != last; ++first) emplace_back(*first);
        }
    }

    template <class It>
    RELO_CONSTEXPR20 void uninitialized_copy_range(It first, size_type n, T* dest) {
        uninitialized_copy_n(alloc(), first, n, dest);
    }

    template <class Fill>
    RELO_CONSTEXPR20 void resize_with(size_type n, Fill&& fill) {
        const capacity_guard open(*this, n > size() ? n - size() : 0);
        const size_type old_size = size();
        if (n <= old_size) {
            truncate(ptr_begin() + n);
            return;
        }
        ensure_room_for(n - old_size);
        fill(ptr_end(), n - old_size);
        self().seq_set_end(ptr_begin() + n);
    }

};

/// The body of relo::erase_if for every container: removes the elements satisfying pred, returns how many.
template <class Container, class Pred>
RELO_CONSTEXPR20 typename Container::size_type erase_if(Container& c, Pred& pred) {
    const auto last = c.end();
    const auto first = std::remove_if(c.begin(), last, pred);
    const auto removed = static_cast<typename Container::size_type>(last - first);
    c.erase(first, last);
    return removed;
}

}  // namespace relo::detail

#endif  // RELO_DETAIL_SEQUENCE_HPP
