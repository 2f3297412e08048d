// relo/detail/sequence_engine.hpp — the engines under sequence_ops' public operations: growth on
// push_back, insertion (one routine, two strategies: insert_n), assignment, construction into an empty
// container, resize, and the glue of swap and copy assignment the containers share; and the aliasing rule
// they all follow (an argument may be an element: index_of_element).
// Part of detail/sequence.hpp, which includes this file at its end (never included alone: it defines
// members of the class declared there).
// Layer 3, the container engine (docs/design.md, "Layers").
#ifndef RELO_DETAIL_SEQUENCE_ENGINE_HPP
#define RELO_DETAIL_SEQUENCE_ENGINE_HPP


#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// The index of the element at p, or npos if p does not point into [begin(), end()). Any T inside the
/// storage is an element, so an argument that aliases the container is found here and can be read
/// again at its new address after the storage moves.
template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 auto sequence_ops<Derived, T, Alloc>::index_of_element(const T* p) const noexcept -> size_type {
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

/// swap's allocator rule, for a container that has an allocator: exchanged when
/// propagate_on_container_swap says so; otherwise they must compare equal (a precondition).
template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::swap_allocators(Derived& other) noexcept {
    using traits = std::allocator_traits<Alloc>;
    if constexpr (traits::propagate_on_container_swap::value) {
        using std::swap;
        swap(alloc(), other.alloc());
    } else {
        RELO_EXPECTS_MSG(traits::is_always_equal::value || alloc() == other.alloc(),
                         "%s::swap: the allocators differ and do not propagate on swap", Derived::seq_name);
    }
}

/// seq_rebuild of a storage kept in one heap block (relo::vector, small_vector: Derived::blocks, adopt):
/// the new block is built first, then the old elements and storage are released (strong guarantee).
template <class Derived, class T, class Alloc>
template <class Build>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::rebuild_in_new_block(size_type n, Build&& build) {
    const auto fresh = Derived::blocks::build_new(alloc(), n, std::forward<Build>(build));
    self().seq_release();
    self().adopt(fresh);
}

/// Exchanges the elements with other's when each capacity holds the other's size (fixed-capacity and
/// inline storage): the common prefix is swapped, the longer side's rest relocates to the shorter in
/// one pass. The allocators must be equal.
template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::swap_elements(Derived& other) {
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
template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::copy_assign(const Derived& other) {
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
template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::truncate(T* new_end) noexcept {
    destroy(alloc(), new_end, ptr_end());
    self().seq_set_end(new_end);
}

/// Whether `extra` more elements need the storage to grow; throws what the container throws when
/// they can never fit.
template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 RELO_ALWAYS_INLINE bool sequence_ops<Derived, T, Alloc>::must_grow_for(size_type extra) const {
    const size_type n = size();
    if (extra <= capacity() - n) return false;
    if constexpr (Derived::seq_fixed_capacity) Derived::seq_too_large("relo: the container is full");
    if (extra > max_size() - n) Derived::seq_too_large("relo: size would exceed max_size()");
    return true;
}

/// Makes room for `extra` more elements, growing by the container's policy.
template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void sequence_ops<Derived, T, Alloc>::ensure_room_for(size_type extra) {
    if (must_grow_for(extra)) {
        if constexpr (!Derived::seq_fixed_capacity) self().seq_grow(size() + extra);
    }
}

/// Room for one more element on push_back's slow path (the storage is full): the storage's hook, which
/// keeps what a push inlines small.
template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void sequence_ops<Derived, T, Alloc>::grow_for_push() {
    self().seq_grow_for_push();
}

// Inline on purpose (see emplace_back); the heavy part, behind the container's seq_grow, is not.
// Precondition: the storage is full and can grow.
template <class Derived, class T, class Alloc>
template <class... Args>
RELO_CONSTEXPR20 RELO_ALWAYS_INLINE auto
sequence_ops<Derived, T, Alloc>::grow_and_emplace_back(Args&&... args) -> reference {
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

template <class Derived, class T, class Alloc>
template <class V>
RELO_CONSTEXPR20 auto sequence_ops<Derived, T, Alloc>::insert_one(const_iterator pos, V&& value) -> iterator {
    const size_type at = index_of_position(pos);
    const capacity_guard open(*this, 1);
    if (at == size()) {
        emplace_back(std::forward<V>(value));
        return make_iterator(ptr_begin() + at);
    }
    const size_type src = index_of_element(std::addressof(value));
    return insert_n(at, 1, [&](T* dest, const element_locator& locate) {
        if (src == npos) {
            construct(alloc(), dest, std::forward<V>(value));
        } else {
            construct(alloc(), dest, static_cast<V&&>(*locate(src)));
        }
    });
}

/// Inserts n new elements before index `at`. build(dest, locate) constructs all n at dest, in order, and
/// destroys what it built if one throws (a memcpy for a contiguous trivially copyable source); locate(s)
/// finds old element s, for sources inside the container.
///
/// When elements relocate without throwing, the tail moves up to open a gap of raw storage (open_gap:
/// a memmove, or move-assignment as std::vector shifts) and the new elements are built in it; if one
/// throws, the gap is closed again (strong guarantee). Otherwise the new elements are appended and
/// rotated into place (basic guarantee, as std::vector).
template <class Derived, class T, class Alloc>
template <class Build>
RELO_CONSTEXPR20 auto sequence_ops<Derived, T, Alloc>::insert_n(size_type at, size_type n, Build&& build) -> iterator {
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
        try {
            build(pos, element_locator{first, at, n});
        } catch (...) {
            relocate_forward(alloc(), pos + n, old_end + n, pos);
            throw;
        }
        self().seq_set_end(old_end + n);
        return make_iterator(pos);
    } else {
        ensure_room_for(n);
        T* pos = ptr_begin() + at;
        T* old_end = ptr_end();
        build(old_end, element_locator{ptr_begin(), size(), 0});
        self().seq_set_end(old_end + n);
        rotate_elements(pos, old_end, old_end + n);
        return make_iterator(pos);
    }
}

template <class Derived, class T, class Alloc>
template <class It, class Sent>
RELO_CONSTEXPR20 auto sequence_ops<Derived, T, Alloc>::insert_range_at(size_type at, It first, Sent last) -> iterator {
    if constexpr (is_relo_iterator<It>::value || is_relo_iterator<Sent>::value) {
        return insert_range_at(at, unwrap_iterator(std::move(first)), unwrap_iterator(std::move(last)));
    } else if constexpr (is_forward_iterator_v<It>) {
        const size_type n = checked_length("insert", first, last);
        const capacity_guard open(*this, n);
        if constexpr (std::is_convertible_v<It, const T*>) {
            const size_type src = n == 0 ? npos : index_of_element(static_cast<const T*>(first));
            if (src != npos) {  // inserting a copy of part of the container into itself
                // (Element by element: the source may straddle the gap.)
                return insert_n(at, n, [&](T* dest, const element_locator& locate) {
                    construction_guard<Alloc, T> guard(alloc(), dest);
                    for (size_type k = 0; k != n; ++k, guard.advance())
                        construct(alloc(), guard.current(), std::as_const(*locate(src + k)));
                    guard.release();
                });
            }
        }
        return insert_n(at, n, [&](T* dest, const element_locator&) { uninitialized_copy_range(first, n, dest); });
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
        rotate_elements(ptr_begin() + at, ptr_begin() + old_size, ptr_end());
        return make_iterator(ptr_begin() + at);
    }
}

template <class Derived, class T, class Alloc>
template <class It, class Sent>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::assign_range_impl(It first, Sent last) {
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
template <class Derived, class T, class Alloc>
template <class Build>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::construct_with(size_type n, Build&& build) {
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

template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::construct_value_initialized(size_type n) {
    construct_with(n, [&](T* dest) { uninitialized_value_construct_n(alloc(), dest, n); });
}

template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::construct_filled(size_type n, const T& value) {
    construct_with(n, [&](T* dest) { uninitialized_fill_n(alloc(), dest, n, value); });
}

template <class Derived, class T, class Alloc>
template <class It, class Sent>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::construct_from_range(It first, Sent last) {
    if constexpr (is_relo_iterator<It>::value || is_relo_iterator<Sent>::value) {
        construct_from_range(unwrap_iterator(std::move(first)), unwrap_iterator(std::move(last)));
    } else if constexpr (is_forward_iterator_v<It>) {
        const size_type n = range_length(first, last);
        construct_with(n, [&](T* dest) { uninitialized_copy_range(first, n, dest); });
    } else {
        for (; first != last; ++first) emplace_back(*first);
    }
}

template <class Derived, class T, class Alloc>
template <class It>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::uninitialized_copy_range(It first, size_type n, T* dest) {
    uninitialized_copy_n(alloc(), first, n, dest);
}

template <class Derived, class T, class Alloc>
template <class Fill>
RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::resize_with(size_type n, Fill&& fill) {
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
}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_SEQUENCE_ENGINE_HPP
