// relo/detail/allocation.hpp — the expansion protocol, seen from a container.
//
// An allocator may offer, beyond allocate/deallocate (docs/expansion_protocol.md has the full contract):
//   a.allocate_at_least(n)            -> an object with members `ptr` and `count` (count >= n)
//   a.try_expand(p, old_n, new_n)     -> bool: resize the block in place, never moves; false = unchanged
//   a.reallocate(p, old_n, new_n)     -> pointer: resize, moving the bytes if needed; throws bad_alloc
// Containers call these through the helpers below, which fall back to plain allocate/deallocate for an
// allocator that lacks them (std::allocator, std::pmr::polymorphic_allocator, any user allocator).
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_ALLOCATION_HPP
#define RELO_DETAIL_ALLOCATION_HPP

#include <cstddef>
#include <type_traits>
#include <utility>

#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/relocation.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// What allocate_at_least returns: the block and how many elements it really holds (count >= requested).
template <class Pointer, class SizeType = std::size_t>
struct allocation_result {
    Pointer ptr;     ///< the block
    SizeType count;  ///< how many elements it holds, at least the number asked for
};

namespace detail {

/// What qualifies as an allocator for a deduction guide ([container.reqmts]): a value_type, and
/// allocate(size_t).
template <class A, class = void>
struct is_allocator : std::false_type {};
template <class A>
struct is_allocator<A, std::void_t<typename A::value_type, decltype(std::declval<A&>().allocate(std::size_t{}))>>
    : std::true_type {};
template <class A>
inline constexpr bool is_allocator_v = is_allocator<A>::value;

/// allocator_traits<A>::pointer and const_pointer, or T* and const T* when A is no allocator: a class that
/// names them can then be instantiated with any A (class template argument deduction does so with
/// candidates it is about to discard, vector<It, int> for vector(first, last, 5)).
template <class A, class T, bool = is_allocator_v<A>>
struct allocator_pointers {
    using pointer = T*;
    using const_pointer = const T*;
};
template <class A, class T>
struct allocator_pointers<A, T, true> {
    using pointer = typename std::allocator_traits<A>::pointer;
    using const_pointer = typename std::allocator_traits<A>::const_pointer;
};

template <class A, class = void>
struct has_allocate_at_least : std::false_type {};
template <class A>
struct has_allocate_at_least<A, std::void_t<decltype(std::declval<A&>().allocate_at_least(std::size_t{}).count)>>
    : std::true_type {};

template <class A, class = void>
struct has_try_expand : std::false_type {};
template <class A>
struct has_try_expand<A, std::void_t<decltype(bool(std::declval<A&>().try_expand(
                             std::declval<typename std::allocator_traits<A>::pointer>(), std::size_t{}, std::size_t{})))>>
    : std::true_type {};

/// An allocator's optional hint, noexcept: whether try_expand can grow a block of n objects that the
/// container holds (from allocate_at_least, try_expand or reallocate). Without it a container asks
/// try_expand every time.
template <class A, class = void>
struct has_may_expand : std::false_type {};
template <class A>
struct has_may_expand<A, std::void_t<decltype(bool(std::declval<const A&>().may_expand(std::size_t{})))>>
    : std::bool_constant<noexcept(std::declval<const A&>().may_expand(std::size_t{}))> {};

/// An allocator's optional hint, noexcept: whether a block of old_n objects, used_n of them constructed,
/// had better move into a new block of new_n than grow in place (try_expand). Without it a container
/// grows in place whenever it can.
template <class A, class = void>
struct has_prefers_new_block : std::false_type {};
template <class A>
struct has_prefers_new_block<A, std::void_t<decltype(bool(std::declval<const A&>().prefers_new_block(
                                    std::declval<typename std::allocator_traits<A>::pointer>(), std::size_t{},
                                    std::size_t{}, std::size_t{})))>>
    : std::bool_constant<noexcept(std::declval<const A&>().prefers_new_block(
          std::declval<typename std::allocator_traits<A>::pointer>(), std::size_t{}, std::size_t{}, std::size_t{}))> {};

template <class A, class = void>
struct has_reallocate : std::false_type {};
template <class A>
struct has_reallocate<A, std::void_t<decltype(std::declval<typename std::allocator_traits<A>::pointer&>() =
                                                  std::declval<A&>().reallocate(
                                                      std::declval<typename std::allocator_traits<A>::pointer>(),
                                                      std::size_t{}, std::size_t{}))>> : std::true_type {};

template <class A, class T, class = void>
struct has_member_construct : std::false_type {};
template <class A, class T>
struct has_member_construct<A, T, std::void_t<decltype(std::declval<A&>().construct(std::declval<T*>(), std::declval<T&&>()))>>
    : std::true_type {};

/// Whether allocator_traits<A>::construct(a, p, args...) calls a.construct (the standard's own test; ask
/// through constructs_in_place_v, which does not look into std::allocator's deprecated member).
template <class Void, class A, class T, class... Args>
struct constructs_itself : std::false_type {};
template <class A, class T, class... Args>
struct constructs_itself<std::void_t<decltype(std::declval<A&>().construct(std::declval<T*>(), std::declval<Args>()...))>,
                         A, T, Args...> : std::true_type {};

template <class A, class T, class = void>
struct has_member_destroy : std::false_type {};
template <class A, class T>
struct has_member_destroy<A, T, std::void_t<decltype(std::declval<A&>().destroy(std::declval<T*>()))>> : std::true_type {};

/// Whether constructing a T from args through A is placement new, with nothing the allocator adds:
/// std::allocator, or an allocator without a construct member that takes them (not polymorphic_allocator,
/// whose construct passes itself to a type that uses allocators).
template <class A>
struct is_std_allocator : std::false_type {};
template <class T>
struct is_std_allocator<std::allocator<T>> : std::true_type {};
template <class A, class T, class... Args>
inline constexpr bool constructs_in_place_v =
    std::disjunction_v<is_std_allocator<A>, std::negation<constructs_itself<void, A, T, Args...>>>;

template <class A>
struct is_standard_allocator : std::false_type {};
template <class T>
struct is_standard_allocator<std::allocator<T>> : std::true_type {};
template <class T>
struct is_standard_allocator<std::pmr::polymorphic_allocator<T>> : std::true_type {};

/// True when constructing and destroying a T through A is the plain placement-new / destructor call, so
/// a container may copy or relocate elements as bytes (the allocator would observe nothing different).
/// polymorphic_allocator's construct only differs for types that use allocators, and those are never
/// trivially copyable; its relocation of a trivially relocatable T within one container is a byte move.
template <class A, class T>
inline constexpr bool uses_plain_construct_v = std::disjunction_v<
    is_standard_allocator<A>,  // checked first: the standard ones' construct/destroy members are deprecated
    std::conjunction<std::negation<has_member_construct<A, T>>, std::negation<has_member_destroy<A, T>>>>;

/// Elements may move as bytes (memcpy/memmove/realloc/mremap).
template <class A, class T>
inline constexpr bool relocate_as_bytes_v = is_trivially_relocatable_v<T> && uses_plain_construct_v<A, T>;

/// Relocating elements in a container using A cannot throw: as bytes, or by a noexcept move constructor.
template <class A, class T>
inline constexpr bool nothrow_relocate_v =
    relocate_as_bytes_v<A, T> || (std::is_nothrow_move_constructible_v<T> && std::is_nothrow_destructible_v<T>);

/// Elements may be copied as bytes.
template <class A, class T>
inline constexpr bool copy_as_bytes_v = std::is_trivially_copyable_v<T> && uses_plain_construct_v<A, T>;

// ---- The allocator's pointer type. relo works on raw pointers inside (iterators hold them) and converts
// at the allocator's boundary and where a container stores its pointers, so that allocators with fancy
// pointers (allocator_traits<A>::pointer not T*, e.g. Boost.Interprocess's offset_ptr) work. For T* every
// conversion is the identity.

/// The raw address a (possibly fancy) pointer holds; nullptr for a null one.
template <class Pointer>
RELO_ALWAYS_INLINE RELO_CONSTEXPR20 auto to_raw(const Pointer& p) noexcept {
    if constexpr (std::is_pointer_v<Pointer>) {
        return p;
    } else {
        using element = typename std::pointer_traits<Pointer>::element_type;
        if (p == nullptr) return static_cast<element*>(nullptr);
#if defined(__cpp_lib_to_address)
        return std::to_address(p);
#else
        return p.operator->();
#endif
    }
}

template <class Pointer, class T, class = void>
struct has_own_pointer_to : std::false_type {};
template <class Pointer, class T>
struct has_own_pointer_to<Pointer, T, std::void_t<decltype(Pointer::pointer_to(std::declval<T&>()))>> : std::true_type {};

/// The allocator's pointer to the object at raw address p (which must point to storage the allocator
/// gave, or be null). A class-type pointer's own pointer_to is called directly: it is what
/// std::pointer_traits<Pointer>::pointer_to calls, but the trait's function is not constexpr in every
/// standard library (libstdc++ 12), and vectors must work in constant evaluation.
template <class Pointer, class T>
RELO_CONSTEXPR20 Pointer from_raw(T* p) noexcept {
    if constexpr (std::is_same_v<Pointer, T*>) {
        return p;
    } else {
        if (p == nullptr) return Pointer(nullptr);
        if constexpr (has_own_pointer_to<Pointer, T>::value) return Pointer::pointer_to(*p);
        else return std::pointer_traits<Pointer>::pointer_to(*p);
    }
}

/// The allocator's pointer to `origin + (p - raw origin)`: for pointers one past the end, which cannot
/// be made with pointer_to (there is no object there).
template <class Pointer, class T>
RELO_CONSTEXPR20 Pointer from_raw_at(const Pointer& origin, T* raw_origin, T* p) noexcept {
    if constexpr (std::is_same_v<Pointer, T*>) {
        (void)origin;
        (void)raw_origin;
        return p;
    } else {
        return origin + (p - raw_origin);
    }
}

/// allocate_at_least with a raw pointer: the allocator's own when it has one, else allocate(n).
template <class A>
RELO_CONSTEXPR20 auto allocate_at_least(A& a, std::size_t n) {
    using T = typename std::allocator_traits<A>::value_type;
    if constexpr (has_allocate_at_least<A>::value) {
        auto r = a.allocate_at_least(n);
        return allocation_result<T*>{to_raw(r.ptr), static_cast<std::size_t>(r.count)};
    } else {
        return allocation_result<T*>{to_raw(std::allocator_traits<A>::allocate(a, n)), n};
    }
}

/// Gives back n elements' storage at raw address p (unpoisoned first: a container may have annotated part
/// of it, and the allocator may hand it out again; detail/sanitizers.hpp).
template <class A, class T>
RELO_CONSTEXPR20 void deallocate(A& a, T* p, std::size_t n) noexcept {
    if (!is_constant_evaluated()) unpoison(p, n * sizeof(T));
    using pointer = typename std::allocator_traits<A>::pointer;
    std::allocator_traits<A>::deallocate(a, from_raw<pointer>(p), n);
}

/// Holds a container's allocator; an empty one takes no space (empty-base optimization), and its
/// members never leak into the container's own name lookup.
template <class A, bool = std::is_empty_v<A> && !std::is_final_v<A>>
class allocator_holder : private A {
public:
    RELO_CONSTEXPR20 explicit allocator_holder(const A& a) noexcept : A(a) {}
    RELO_CONSTEXPR20 explicit allocator_holder(A&& a) noexcept : A(std::move(a)) {}
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 A& allocator() noexcept { return *this; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const A& allocator() const noexcept { return *this; }
};

template <class A>
class allocator_holder<A, false> {
public:
    RELO_CONSTEXPR20 explicit allocator_holder(const A& a) noexcept : alloc_(a) {}
    RELO_CONSTEXPR20 explicit allocator_holder(A&& a) noexcept : alloc_(std::move(a)) {}
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 A& allocator() noexcept { return alloc_; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const A& allocator() const noexcept { return alloc_; }

private:
    A alloc_;
};

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_ALLOCATION_HPP
