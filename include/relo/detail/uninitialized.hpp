// relo/detail/uninitialized.hpp — allocator-aware algorithms on uninitialized memory.
//
// Every container builds, copies, moves, relocates and destroys its elements through these functions and
// no others. Each takes the container's allocator, constructs through std::allocator_traits (so
// polymorphic_allocator's uses-allocator construction and user allocators' construct/destroy are honoured),
// and takes a byte path (memcpy/memmove/memset-free) only when detail::copy_as_bytes_v or
// detail::relocate_as_bytes_v says the allocator could not tell the difference.
//
// Exception contract: a function that constructs several objects either constructs all of them or, if a
// constructor throws, destroys the ones it built and rethrows. Relocation functions are noexcept and
// require nothrow relocation (as bytes or by a noexcept move constructor).
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_UNINITIALIZED_HPP
#define RELO_DETAIL_UNINITIALIZED_HPP

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

#include "relo/detail/allocation.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"
#include "relo/relocation.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

template <class A, class T, class... Args>
RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void construct(A& a, T* p, Args&&... args) {
    if constexpr (sizeof...(Args) <= 1 && std::is_trivial_v<T> && uses_plain_construct_v<A, T> &&
                  (std::is_same_v<std::remove_cv_t<std::remove_reference_t<Args>>, T> && ...)) {
        // A copy or value-initialization of a trivial type, written as a plain store: the optimizer
        // treats placement new as a possible change to any object, and a push_back loop would reload
        // its container's fields.
        if (!is_constant_evaluated()) {
            if constexpr (sizeof...(Args) == 0) {
                *p = T();
            } else {
                ((*p = args), ...);
            }
            return;
        }
    }
    if constexpr (constructs_in_place_v<A, T, Args&&...>) {
        // What allocator_traits::construct does for an allocator without construct (not polymorphic_allocator,
        // whose construct passes itself to a type that uses allocators), without its two layers: each is a
        // call in a debug build.
        if (!is_constant_evaluated()) {
            ::new (static_cast<void*>(p)) T(std::forward<Args>(args)...);
            return;
        }
    }
    std::allocator_traits<A>::construct(a, p, std::forward<Args>(args)...);
}

/// Destroying a trivially destructible object is a no-op; skipping the call also keeps the object alive
/// for constant evaluation, which lets a trivially copyable container copy its unused slots there.
template <class A, class T>
RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void destroy(A& a, T* p) noexcept {
    if constexpr (!(std::is_trivially_destructible_v<T> && uses_plain_construct_v<A, T>)) {
        if constexpr (uses_plain_construct_v<A, T>) {
            p->~T();  // (what allocator_traits::destroy does for these allocators, as above)
        } else {
            std::allocator_traits<A>::destroy(a, p);
        }
    } else {
        (void)a, (void)p;
    }
}

template <class A, class T>
RELO_CONSTEXPR20 void destroy(A& a, T* first, T* last) noexcept {
    if constexpr (!(std::is_trivially_destructible_v<T> && uses_plain_construct_v<A, T>)) {
        for (; first != last; ++first) std::allocator_traits<A>::destroy(a, first);
    } else {
        (void)a, (void)first, (void)last;
    }
}

/// Destroys [first, cur) unless released: the rollback of a loop that constructs objects one by one.
template <class A, class T>
class construction_guard {
public:
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 construction_guard(A& a, T* first) noexcept : alloc_(a), first_(first), cur_(first) {}
    construction_guard(const construction_guard&) = delete;
    construction_guard& operator=(const construction_guard&) = delete;
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 ~construction_guard() {
        if (first_ != nullptr) destroy(alloc_, first_, cur_);
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* current() const noexcept { return cur_; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void advance() noexcept { ++cur_; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* release() noexcept {
        first_ = nullptr;
        return cur_;
    }

private:
    A& alloc_;
    T* first_;
    T* cur_;
};

/// Value-initializes n objects at dest. Returns dest + n.
template <class A, class T>
RELO_CONSTEXPR20 T* uninitialized_value_construct_n(A& a, T* dest, std::size_t n) {
    if constexpr (std::is_trivial_v<T> && uses_plain_construct_v<A, T>) {
        // One fill of copies of T() (zeros, or a member pointer's null): one call in a debug build instead
        // of one per element, and what the optimizer makes a memset of anyway.
        if (!is_constant_evaluated()) return std::fill_n(dest, n, T());
    }
    construction_guard<A, T> guard(a, dest);
    for (; n != 0; --n, guard.advance()) construct(a, guard.current());
    return guard.release();
}

/// Default-initializes n objects at dest (resize_for_overwrite): a trivially default-constructible T is
/// left as the memory was, without a store. Only where A constructs with plain placement new; through an
/// allocator that constructs otherwise, the objects are value-initialized by it (the only way it offers).
template <class A, class T>
RELO_CONSTEXPR20 T* uninitialized_default_construct_n(A& a, T* dest, std::size_t n) {
    if constexpr (uses_plain_construct_v<A, T>) {
        if (!is_constant_evaluated()) {  // (a constant expression may only value-initialize, below)
            if constexpr (std::is_trivially_default_constructible_v<T>) {
                return dest + n;
            } else {
                construction_guard<A, T> guard(a, dest);
                for (; n != 0; --n, guard.advance()) ::new (static_cast<void*>(guard.current())) T;
                return guard.release();
            }
        }
    }
    return uninitialized_value_construct_n(a, dest, n);
}

/// Copy-constructs n copies of value at dest. Returns dest + n.
template <class A, class T>
RELO_CONSTEXPR20 T* uninitialized_fill_n(A& a, T* dest, std::size_t n, const T& value) {
    if constexpr (std::is_trivial_v<T> && uses_plain_construct_v<A, T>) {
        if (!is_constant_evaluated()) return std::fill_n(dest, n, value);  // (as above)
    }
    construction_guard<A, T> guard(a, dest);
    for (; n != 0; --n, guard.advance()) construct(a, guard.current(), value);
    return guard.release();
}

/// Constructs copies of [first, first + n) at dest, from any input iterator (one pass). Returns dest + n.
/// Contiguous ranges of trivially copyable T become one memcpy.
template <class It>
struct is_iterator_concept_contiguous
    : std::bool_constant<
#if RELO_HAS_RANGES
          std::contiguous_iterator<It>
#else
          false
#endif
          > {
};
/// (Pointers first, without the concept: detail/sequence.hpp, range_length, says why.)
template <class It>
inline constexpr bool is_contiguous_iterator_v = std::disjunction_v<std::is_pointer<It>, is_iterator_concept_contiguous<It>>;

template <class A, class It, class T>
RELO_CONSTEXPR20 T* uninitialized_copy_n(A& a, It first, std::size_t n, T* dest) {
    if constexpr (is_contiguous_iterator_v<It>) {
        using Src = std::remove_reference_t<decltype(*first)>;
        // (Not from volatile elements: each must be read as the program says, and memcpy cannot.)
        if constexpr (!std::is_volatile_v<Src> && std::is_same_v<std::remove_const_t<Src>, T> && copy_as_bytes_v<A, T>) {
            if (!is_constant_evaluated()) {
                if (n != 0) {
                    // memmove from a raw pointer: it may point into the destination's own object (a range of
                    // the container inserted into itself, which takes another path at run time), which GCC
                    // cannot always rule out, and memcpy's restrict then fails the build (-Wrestrict).
                    if constexpr (std::is_pointer_v<It>) {
                        std::memmove(static_cast<void*>(dest), static_cast<const void*>(first), n * sizeof(T));
                    } else {
                        std::memcpy(static_cast<void*>(dest), static_cast<const void*>(std::addressof(*first)), n * sizeof(T));
                    }
                }
                return dest + n;
            }
        }
    }
    construction_guard<A, T> guard(a, dest);
    for (; n != 0; --n, (void)++first, guard.advance()) construct(a, guard.current(), *first);
    return guard.release();
}

/// Moves [first, last) into dest when T's move cannot throw, copies otherwise (std::move_if_noexcept):
/// if it throws, the source is intact. Returns the end of the destination.
template <class A, class T>
RELO_CONSTEXPR20 T* uninitialized_move_if_noexcept(A& a, T* first, T* last, T* dest) {
    if constexpr (copy_as_bytes_v<A, T>) {
        // (Bytes, not uninitialized_copy_n: a trivially copyable T may be move-only.)
        if (!is_constant_evaluated()) {
            const auto n = static_cast<std::size_t>(last - first);
            if (n != 0) std::memcpy(static_cast<void*>(dest), static_cast<const void*>(first), n * sizeof(T));
            return dest + n;
        }
    }
    construction_guard<A, T> guard(a, dest);
    for (; first != last; ++first, guard.advance()) construct(a, guard.current(), std::move_if_noexcept(*first));
    return guard.release();
}

// The element-by-element loops, each in a function of its own: inside a small function GCC inlines the
// element's move (std::string's move constructor and assignment), which it calls out of line when the loop
// is part of a larger insert or growth routine (docs/measurements/relocation.md, the std::string profile).
template <class A, class T>
RELO_NOINLINE RELO_CONSTEXPR20 T* relocate_each_forward(A& a, T* first, T* last, T* dest) noexcept {
    for (; first != last; ++first, ++dest) {
        construct(a, dest, std::move(*first));
        destroy(a, first);
    }
    return dest;
}
// Into storage that cannot overlap the source (a fresh block): restrict lets the compiler drop the stores
// of a move constructor that the destructor makes dead (the bench's test type: one store of three;
// docs/measurements/vector.md, "Build and destroy 10^3 elements").
template <class A, class T>
RELO_NOINLINE RELO_CONSTEXPR20 T* relocate_each_to_new(A& a, T* __restrict first, T* last, T* __restrict dest) noexcept {
    for (; first != last; ++first, ++dest) {
        construct(a, dest, std::move(*first));
        destroy(a, first);
    }
    return dest;
}
template <class T>
RELO_NOINLINE RELO_CONSTEXPR20 T* assign_each_backward(T* first, T* last, T* dest_last) noexcept {
    return std::move_backward(first, last, dest_last);
}
template <class T>
RELO_NOINLINE RELO_CONSTEXPR20 T* assign_each_forward(T* first, T* last, T* dest) {
    return std::move(first, last, dest);
}

// The two algorithms of <algorithm> the containers use, here so that a container header need not include
// it (with libstdc++ all of its algorithms: a third of what <vector> costs a unit again).

/// std::rotate's effect on live elements: [middle, last) then [first, middle), by swaps (the forward
/// iterators' algorithm, n swaps at most). Only on the paths that build elements at the end and then move
/// them into place (a single-pass range, an insertion that must not relocate): the others open a gap.
template <class T>
RELO_CONSTEXPR20 void rotate_elements(T* first, T* middle, T* last) {
    using std::swap;
    if (first == middle || middle == last) return;
    T* next = middle;
    while (first != next) {
        swap(*first++, *next++);
        if (next == last) {
            next = middle;
        } else if (first == middle) {
            middle = next;
        }
    }
}

/// std::remove_if: moves the elements for which pred is false to the front, in order; returns their end.
template <class It, class Pred>
RELO_CONSTEXPR20 It remove_elements_if(It first, It last, Pred& pred) {
    while (first != last && !pred(*first)) ++first;
    if (first == last) return first;
    It out = first;
    for (++first; first != last; ++first) {
        if (!pred(*first)) {
            *out = std::move(*first);
            ++out;
        }
    }
    return out;
}

/// Relocates [first, last) to dest, towards the front: where dest <= first or the ranges do not overlap,
/// or, when Distinct, into storage that cannot overlap them (a fresh block). Returns the end of the
/// destination. Requires nothrow relocation.
template <bool Distinct, class A, class T>
RELO_CONSTEXPR20 T* relocate_ascending(A& a, T* first, T* last, T* dest) noexcept {
    static_assert(nothrow_relocate_v<A, T>, "relo: relocation requires a noexcept move constructor");
    if constexpr (relocate_as_bytes_v<A, T>) {
        if (!is_constant_evaluated()) {
            const auto n = static_cast<std::size_t>(last - first);
            if (n != 0 && dest != first) {
                if constexpr (Distinct) {
                    std::memcpy(static_cast<void*>(dest), static_cast<const void*>(first), n * sizeof(T));
                } else {
                    std::memmove(static_cast<void*>(dest), static_cast<const void*>(first), n * sizeof(T));
                }
            }
            return dest + n;
        }
    }
    if constexpr (Distinct) {
        return relocate_each_to_new(a, first, last, dest);
    } else {
        return relocate_each_forward(a, first, last, dest);
    }
}
template <class A, class T>
RELO_CONSTEXPR20 T* relocate_forward(A& a, T* first, T* last, T* dest) noexcept {
    return relocate_ascending<false>(a, first, last, dest);
}
template <class A, class T>
RELO_CONSTEXPR20 T* relocate_to_new(A& a, T* first, T* last, T* dest) noexcept {
    return relocate_ascending<true>(a, first, last, dest);
}

/// Relocates [first, last) so that it ends at dest_last, where dest_last >= last (moving elements
/// towards the back, into overlapping storage). Requires nothrow relocation.
template <class A, class T>
RELO_CONSTEXPR20 void relocate_backward(A& a, T* first, T* last, T* dest_last) noexcept {
    static_assert(nothrow_relocate_v<A, T>, "relo: relocation requires a noexcept move constructor");
    if constexpr (relocate_as_bytes_v<A, T>) {
        if (!is_constant_evaluated()) {
            const auto n = static_cast<std::size_t>(last - first);
            if (n != 0 && dest_last != last)
                std::memmove(static_cast<void*>(dest_last - n), static_cast<const void*>(first), n * sizeof(T));
            return;
        }
    }
    while (last != first) {
        --last;
        --dest_last;
        construct(a, dest_last, std::move(*last));
        destroy(a, last);
    }
}

/// Whether elements shift inside their storage (an insertion opening a gap, an erasure closing one) by
/// move-assignment, as std::vector does: one operation per element, where relocating is a construction
/// and a destruction (faster for std::string: docs/measurements/vector.md, "Shifting by assignment"). Not for elements that relocate as bytes (one memmove is faster still), nor when the
/// assignment may throw (relocation cannot).
template <class A, class T>
inline constexpr bool shift_by_assignment_v = !relocate_as_bytes_v<A, T> && std::is_nothrow_move_assignable_v<T>;

/// Moves the elements [first, last) up by n slots, to [first + n, last + n), of which [last, last + n) is
/// raw storage; leaves [first, first + n) raw. Requires nothrow relocation.
template <class A, class T>
RELO_CONSTEXPR20 void open_gap(A& a, T* first, T* last, std::size_t n) noexcept {
    static_assert(nothrow_relocate_v<A, T>, "relo: opening a gap requires a noexcept move constructor");
    if constexpr (shift_by_assignment_v<A, T>) {
        if (n < static_cast<std::size_t>(last - first)) {
            T* split = last - n;
            uninitialized_move_if_noexcept(a, split, last, last);  // moves: the move cannot throw
            assign_each_backward(first, split, last);
            destroy(a, first, first + n);  // moved-from
            return;
        }
    }
    relocate_backward(a, first, last, last + n);
}

/// Ends the lives of [first, last) and moves the elements [last, end) down to first. Returns the new
/// end. Throws only when elements neither shift by assignment nor relocate without throwing, and then
/// what their move-assignment throws (the basic guarantee, as std::vector::erase).
template <class A, class T>
RELO_CONSTEXPR20 T* close_gap(A& a, T* first, T* last, T* end) {
    if constexpr (nothrow_relocate_v<A, T> && !shift_by_assignment_v<A, T>) {
        destroy(a, first, last);
        return relocate_forward(a, last, end, first);
    } else {
        T* new_end = assign_each_forward(last, end, first);
        destroy(a, new_end, end);
        return new_end;
    }
}

/// Moves the elements of [first, last) to the new, non-overlapping storage at dest and ends their life at
/// the source: relocation when it cannot throw; otherwise copy-or-move-if-noexcept and then destroy the
/// source, so that a throw leaves the source intact (the strong guarantee of reallocation).
template <class A, class T>
RELO_CONSTEXPR20 T* transfer_to_new_storage(A& a, T* first, T* last, T* dest) {
    if constexpr (nothrow_relocate_v<A, T>) {
        return relocate_to_new(a, first, last, dest);
    } else {
        T* end = uninitialized_move_if_noexcept(a, first, last, dest);
        destroy(a, first, last);
        return end;
    }
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_UNINITIALIZED_HPP
