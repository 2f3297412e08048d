// relo/detail/heap_block.hpp — growing and shrinking one allocated block of elements.
//
// The growth path of every growable container (relo::vector, relo::small_vector once it is on the heap):
// reallocate() uses the allocator's expansion protocol (reallocate for elements that move as bytes,
// try_expand in place for the others, allocate-move-free otherwise), shrink() gives memory back, and
// move_to() moves the elements into a fresh block. All of them work on a block passed by value and, for
// a stateless allocator, on a copy of it: the growth code is out of line, and the container's address
// never escapes a push_back loop, so the compiler keeps its pointers in registers.
// Layer 3, the container engine (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_HEAP_BLOCK_HPP
#define RELO_DETAIL_HEAP_BLOCK_HPP

#include <cstddef>
#include <cstring>
#include <limits>
#include <new>
#include <type_traits>

#include "relo/detail/allocation.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/detail/uninitialized.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// Elements [begin, end) constructed in storage [begin, capacity_end).
template <class T>
struct heap_block {
    T* begin;
    T* end;
    T* capacity_end;
    constexpr std::size_t size() const noexcept { return static_cast<std::size_t>(end - begin); }
    constexpr std::size_t capacity() const noexcept { return static_cast<std::size_t>(capacity_end - begin); }
};

/// The most elements an allocator-backed container can hold: what the allocator allows, and what
/// a pointer difference can express.
template <class T, class Alloc>
RELO_CONSTEXPR20 std::size_t max_elements(const Alloc& a) noexcept {
    const std::size_t by_allocator = std::allocator_traits<Alloc>::max_size(a);
    const std::size_t by_difference = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / sizeof(T);
    return by_allocator < by_difference ? by_allocator : by_difference;
}

/// The operations on one heap block of elements: build, grow (in place or moving), shrink, release. (How
/// much a container grows by is its Growth policy's, relo/growth.hpp; these only carry it out.)
template <class Alloc, class T>
struct block_ops {
    using block = heap_block<T>;
    using size_type = std::size_t;
    using alloc_traits = std::allocator_traits<Alloc>;
    /// How the out-of-line functions take the allocator: by value when it is stateless.
    using allocator_arg = std::conditional_t<std::is_empty_v<Alloc>, Alloc, Alloc&>;

    /// Grows block b (b.begin may be null: no storage yet) to `want` elements, accepting anything from
    /// `need` (need <= want) when the block can only grow in place that far. Strong guarantee: on a throw
    /// b is unchanged.
    RELO_NOINLINE static RELO_CONSTEXPR20 block reallocate(allocator_arg a, block b, size_type want, size_type need) {
        if (grow_keeping_elements_in_place(a, b, want, need)) return b;
        return move_to(a, b, allocate_at_least(a, want));
    }

    /// Whether the elements move by the allocator's reallocate(), one call: then a container's own
    /// growth function calls it itself (reallocate_in_caller), one out-of-line layer less on every growth
    /// (docs/measurements/applications.md, "Measured with an interval for each median, and instructions").
    static constexpr bool grows_by_reallocate = relocate_as_bytes_v<Alloc, T> && has_reallocate<Alloc>::value;

    /// reallocate(), its common case inline in the caller (grows_by_reallocate: a block with elements,
    /// moved by the allocator's reallocate), the rest through reallocate().
    RELO_ALWAYS_INLINE static RELO_CONSTEXPR20 block reallocate_in_caller(allocator_arg a, block b, size_type want,
                                                                          size_type need) {
        if constexpr (grows_by_reallocate) {
            if (b.begin != nullptr && !is_constant_evaluated()) return reallocate_bytes(a, b, want);
        }
        return reallocate(a, b, want, need);
    }

    /// Grows block b as reallocate() does and constructs one more element at its end with build(slot)
    /// while the old elements are still where they were, so that build may read them (emplace_back's
    /// arguments may be elements): in a fresh block before the old elements move there, or, where the
    /// allocator moves the bytes of trivially relocatable elements (reallocate), in a raw slot first, then
    /// moved to its place as bytes. No move of the new element either way. When the block grows in place
    /// (try_expand) nothing moves, and the element is not built: the returned block has b's size, and the
    /// caller builds it after recording the new capacity. Strong guarantee: on a throw b is unchanged.
    template <class Build>
    RELO_NOINLINE static RELO_CONSTEXPR20 block reallocate_emplacing(allocator_arg a, T* begin, T* end, T* capacity_end,
                                                                     size_type want, size_type need, Build& build) {
        block b{begin, end, capacity_end};
        if (b.begin != nullptr && !is_constant_evaluated()) {
            if constexpr (grows_by_reallocate) {
                alignas(T) unsigned char slot[sizeof(T)];
                T* built = reinterpret_cast<T*>(slot);
                build(built);
                try {
                    b = reallocate_bytes(a, b, want);
                } catch (...) {
                    destroy(a, built);
                    throw;
                }
                std::memcpy(static_cast<void*>(b.end), static_cast<const void*>(built), sizeof(T));
                ++b.end;
                return b;
            } else if constexpr (has_try_expand<Alloc>::value) {
                const size_type expanded = expand_in_place(a, b, need, want);
                if (expanded != 0) {
                    b.capacity_end = b.begin + expanded;
                    return b;
                }
            }
        }
        return move_to_emplacing(a, b, allocate_at_least(a, want), build);
    }

    // (The functions a push loop calls take the block's three pointers one by one, in registers: a block
    // passed by value goes on the stack, and GCC then keeps a frame pointer, a register the loop's count
    // needed; relo::vector's grow_block says the same.)

    // emplace_back's growth in three steps that keep the new element's arguments in the caller: they
    // never reach an out-of-line call (which would make them addressable, and a push loop would keep
    // them in memory). grow_for_emplace grows b in place when it can (`fresh` is then empty, and the
    // caller builds the element at the end), or allocates a fresh block, b unchanged; the caller builds
    // the element at fresh.ptr + b.size() (on a throw it gives fresh back with discard_fresh); move_behind
    // moves b's elements in front of it. The old elements are still in place while the element is
    // built (the arguments may be elements), and nothing moves the new element.
    struct emplace_growth {
        block grown;                   // b, with its new capacity when it grew in place
        allocation_result<T*> fresh;   // or the fresh block (ptr null: grown in place)
    };
    RELO_NOINLINE static RELO_CONSTEXPR20 emplace_growth grow_for_emplace(allocator_arg a, T* begin, T* end,
                                                                           T* capacity_end, size_type want,
                                                                           size_type need) {
        block b{begin, end, capacity_end};
        if constexpr (has_try_expand<Alloc>::value) {
            if (b.begin != nullptr && !is_constant_evaluated()) {
                const size_type expanded = expand_in_place(a, b, need, want);
                if (expanded != 0) {
                    b.capacity_end = b.begin + expanded;
                    return {b, {nullptr, 0}};
                }
            }
        }
        return {b, allocate_at_least(a, want)};
    }
    RELO_NOINLINE static RELO_CONSTEXPR20 void discard_fresh(allocator_arg a, allocation_result<T*> fresh) noexcept {
        detail::deallocate(a, fresh.ptr, fresh.count);
    }
    /// b's elements moved in front of the element built at fresh.ptr + b.size(), b's storage freed. If a
    /// move throws, that element is destroyed, fresh is freed and b is unchanged.
    RELO_NOINLINE static RELO_CONSTEXPR20 block move_behind(allocator_arg a, T* begin, T* end, T* capacity_end,
                                                            allocation_result<T*> fresh) {
        auto already_built = [](T*) noexcept {};
        return move_to_emplacing(a, block{begin, end, capacity_end}, fresh, already_built);
    }

    /// transfer_emplacing, then b's storage is freed.
    template <class Build>
    static RELO_CONSTEXPR20 block move_to_emplacing(Alloc& a, const block& b, allocation_result<T*> fresh, Build& build) {
        const block moved = transfer_emplacing(a, b, fresh, build);
        if (b.begin != nullptr) detail::deallocate(a, b.begin, b.capacity());
        return moved;
    }

    /// Constructs one element with build(slot) at index b.size() of `fresh`, then moves b's elements into
    /// `fresh` in front of it, leaving b's storage (which the caller owns) empty. If anything throws,
    /// `fresh` is freed and b is unchanged.
    template <class Build>
    static RELO_CONSTEXPR20 block transfer_emplacing(Alloc& a, const block& b, allocation_result<T*> fresh, Build& build) {
        T* const slot = fresh.ptr + b.size();
        try {
            build(slot);
        } catch (...) {
            detail::deallocate(a, fresh.ptr, fresh.count);
            throw;
        }
        if (b.begin != nullptr) {
            try {
                transfer_to_new_storage(a, b.begin, b.end, fresh.ptr);
            } catch (...) {
                destroy(a, slot);
                detail::deallocate(a, fresh.ptr, fresh.count);
                throw;
            }
        }
        return {fresh.ptr, slot + 1, fresh.ptr + fresh.count};
    }

    /// Grows block b as reallocate() does and opens a gap of n raw slots at index `at` on the way: the
    /// elements [at, size) end up at [at + n, size + n). The returned block's end still counts the old
    /// elements only; the caller builds the gap's elements, then records the end. Moving into a fresh
    /// block this way moves each element once, where growing and then opening the gap moves the tail
    /// twice. Only for elements that relocate without throwing. Strong guarantee: on a throw b is unchanged.
    RELO_NOINLINE static RELO_CONSTEXPR20 block reallocate_with_gap(allocator_arg a, block b, size_type want,
                                                                    size_type need, size_type at, size_type n) {
        static_assert(nothrow_relocate_v<Alloc, T>, "relo: opening a gap relocates elements");
        if (grow_keeping_elements_in_place(a, b, want, need)) {
            open_gap(a, b.begin + at, b.end, n);
            return b;
        }
        const block moved = transfer_with_gap(a, b, allocate_at_least(a, want), at, n);
        if (b.begin != nullptr) detail::deallocate(a, b.begin, b.capacity());
        return moved;
    }

    /// Relocates b's elements into `fresh` with a gap of n slots at index `at` (see reallocate_with_gap),
    /// leaving b's storage (which the caller owns) empty. Cannot throw.
    static RELO_CONSTEXPR20 block transfer_with_gap(Alloc& a, const block& b, allocation_result<T*> fresh,
                                                    size_type at, size_type n) noexcept {
        if (b.begin != nullptr) {
            relocate_to_new(a, b.begin, b.begin + at, fresh.ptr);
            relocate_to_new(a, b.begin + at, b.end, fresh.ptr + at + n);
        }
        return {fresh.ptr, fresh.ptr + b.size(), fresh.ptr + fresh.count};
    }

    /// Reduces b's capacity towards b.size() (> 0) where the allocator can: bytes move by reallocate()
    /// for elements that move as bytes, a block shrinks in place, otherwise the elements move to a
    /// smaller block. Returns b unchanged when nothing can be given back or an allocation fails.
    static RELO_CONSTEXPR20 block shrink(Alloc& a, block b) {
        const size_type n = b.size();
        const size_type cap = b.capacity();
        if (!is_constant_evaluated()) {
            if constexpr (grows_by_reallocate) {
                try {
                    return reallocate_bytes(a, b, n);
                } catch (const std::bad_alloc&) {
                    return b;
                }
            } else if constexpr (has_try_expand<Alloc>::value) {
                if (a.try_expand(b.begin, cap, n)) return {b.begin, b.end, b.begin + n};
            }
        }
        allocation_result<T*> fresh{nullptr, 0};
        try {
            fresh = allocate_at_least(a, n);
        } catch (const std::bad_alloc&) {
            return b;
        }
        if (fresh.count >= cap) {  // the allocator cannot give a smaller block
            detail::deallocate(a, fresh.ptr, fresh.count);
            return b;
        }
        return move_to(a, b, fresh);
    }

    /// Moves the elements of b into `fresh` and frees b's storage. If moving throws (only for elements
    /// whose move may throw, which are then copied), `fresh` is freed and b is unchanged.
    static RELO_CONSTEXPR20 block move_to(Alloc& a, const block& b, allocation_result<T*> fresh) {
        if (b.begin == nullptr) return {fresh.ptr, fresh.ptr, fresh.ptr + fresh.count};
        const block moved = transfer(a, b, fresh);
        detail::deallocate(a, b.begin, b.capacity());
        return moved;
    }

    /// Moves the elements of b into `fresh`, leaving b's storage (which the caller owns) empty. If moving
    /// throws, `fresh` is freed and b is unchanged.
    static RELO_CONSTEXPR20 block transfer(Alloc& a, const block& b, allocation_result<T*> fresh) {
        try {
            transfer_to_new_storage(a, b.begin, b.end, fresh.ptr);
        } catch (...) {
            detail::deallocate(a, fresh.ptr, fresh.count);
            throw;
        }
        return {fresh.ptr, fresh.ptr + b.size(), fresh.ptr + fresh.count};
    }

    /// A fresh block of at least n elements in which build(pointer) constructs n elements; if build
    /// throws, the block is freed (build has destroyed what it built).
    template <class Build>
    static RELO_CONSTEXPR20 block build_new(Alloc& a, size_type n, Build&& build) {
        const allocation_result<T*> fresh = allocate_at_least(a, n);
        try {
            build(fresh.ptr);
        } catch (...) {
            detail::deallocate(a, fresh.ptr, fresh.count);
            throw;
        }
        return {fresh.ptr, fresh.ptr + n, fresh.ptr + fresh.count};
    }

    /// Destroys b's elements and frees its storage.
    static RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void release(Alloc& a, const block& b) noexcept {
        if (b.begin == nullptr) return;
        destroy(a, b.begin, b.end);
        detail::deallocate(a, b.begin, b.capacity());
    }

private:
    /// Grows b without moving its elements one by one, where the allocator can: their bytes move by
    /// reallocate() when they may, else the block grows in place (try_expand). True and b updated if it
    /// did; false and b unchanged if the elements must move to a new block. Throws what reallocate()
    /// throws, leaving b unchanged.
    static RELO_CONSTEXPR20 bool grow_keeping_elements_in_place(Alloc& a, block& b, size_type want, size_type need) {
        if (b.begin == nullptr || is_constant_evaluated()) return false;
        if constexpr (grows_by_reallocate) {
            (void)need;
            b = reallocate_bytes(a, b, want);
            return true;
        } else if constexpr (has_try_expand<Alloc>::value) {
            const size_type expanded = expand_in_place(a, b, need, want);
            if (expanded == 0) return false;
            b.capacity_end = b.begin + expanded;
            return true;
        } else {
            (void)a;
            (void)want;
            (void)need;
            return false;
        }
    }

    /// Block b (with elements; grows_by_reallocate) grown, or shrunk, to `want` by the allocator's
    /// reallocate(), which moves the elements' bytes. Throws what reallocate() throws, leaving b unchanged.
    RELO_ALWAYS_INLINE static block reallocate_bytes(Alloc& a, block b, size_type want) {
        const size_type size = b.size();  // before the old pointer becomes invalid
        unpoison(b.begin, b.capacity() * sizeof(T));  // (the pages may move: detail/sanitizers.hpp)
        T* p = a.reallocate(b.begin, b.capacity(), want);
        return {p, p + size, p + want};
    }

    /// The capacity block b reaches by growing in place: `want`, else the largest size in [need, want)
    /// that fits, found by binary search (each probe that fits is kept, so the block only ever grows);
    /// 0 if it cannot grow to `need`, or where the allocator prefers a new block of `want`.
    static size_type expand_in_place(Alloc& a, const block& b, size_type need, size_type want) noexcept {
        const size_type cap = b.capacity();
        if constexpr (has_may_expand<Alloc>::value) {
            if (!a.may_expand(cap)) return 0;
        }
        // (Asked once, for the size the growth then allocates; only where a move cannot throw, and costs
        // what std::vector's growth costs every time.)
        if constexpr (has_prefers_new_block<Alloc>::value && std::is_nothrow_move_constructible_v<T>) {
            if (a.prefers_new_block(b.begin, b.size(), cap, want)) return 0;
        }
        if (a.try_expand(b.begin, cap, want)) return want;
        if (need >= want || !a.try_expand(b.begin, cap, need)) return 0;
        size_type fits = need;
        size_type fails = want;
        while (fails - fits > 1) {
            const size_type mid = fits + (fails - fits) / 2;
            if (a.try_expand(b.begin, fits, mid)) {
                fits = mid;
            } else {
                fails = mid;
            }
        }
        return fits;
    }
};

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_HEAP_BLOCK_HPP
