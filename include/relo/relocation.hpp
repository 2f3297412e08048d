// relo/relocation.hpp — the trivial-relocation trait and the relocation algorithms.
//
// To *relocate* an object is to move it to a new address and end the life of the original, as one step.
// For most types that step can be a plain memcpy of the object's bytes: the object does not care where it
// lives. Such types are *trivially relocatable*, and every relo container moves them as bytes (memcpy,
// memmove, realloc, or mremap's page-table moves) instead of calling move constructors and destructors.
//
// Which types qualify (docs/relocation.md justifies every entry):
//   * every trivially copyable type;
//   * a type that says so itself with a member `using relo_trivially_relocatable = std::true_type;`
//     (std::false_type opts out, whatever else says);
//   * a type the user declares, at global namespace scope: `RELO_TRIVIALLY_RELOCATABLE(my_type);`,
//     or by specializing relo::is_trivially_relocatable<my_type> to derive from std::true_type;
//   * the standard library's types whose layout allows it, per implementation (libstdc++, libc++):
//     unique_ptr with a trivially relocatable deleter, shared_ptr, weak_ptr, vector with a trivially
//     relocatable allocator, optional, pair, tuple, array and variant of trivially relocatable types,
//     function (libstdc++), basic_string (libc++, and libstdc++'s old ABI); not libstdc++'s string, list,
//     map, set or unordered containers, whose objects point into themselves;
//   * relo's own: vector (with a trivially relocatable allocator and raw pointers), inplace_vector of a
//     trivially relocatable T, pinned_vector, the allocators; not small_vector (its inline elements are
//     addressed from the object) nor the resources;
//   * what other libraries in the translation unit declare, when their headers come before relo's: P1144's
//     std::is_trivially_relocatable, Clang's __builtin_is_cpp_trivially_relocatable, folly's IsRelocatable,
//     Qt's QTypeInfo<T>::isRelocatable, BDE's bslmf::IsBitwiseMoveable. A polymorphic type counts only
//     when declared by the user or the type itself (a signed vtable pointer, as on arm64e, breaks when
//     copied).
//
// Declaring a type trivially relocatable is a promise: moving its bytes to a new address and forgetting
// the old ones must be equivalent to move-constructing at the new address and destroying the old object.
// RELO_ASSERT_TRIVIALLY_RELOCATABLE(T) checks it at compile time and says why not.
// Layer 1, vocabulary (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_RELOCATION_HPP
#define RELO_RELOCATION_HPP

#include "relo/detail/requirements.hpp"

#include <cstring>
#include <type_traits>
#include <utility>

#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// What the compiler, the standard library or another library in the translation unit says of T. Never a
/// polymorphic type: only its own declaration or the user's can vouch for one.
template <class T>
constexpr bool declared_elsewhere() noexcept {
    if constexpr (std::is_polymorphic_v<T>) {
        return false;
    } else {
        return
#if defined(__cpp_impl_trivially_relocatable)  // a P1144 compiler: the builtin has P1144's meaning
            __is_trivially_relocatable(T) ||
#elif defined(__cpp_lib_trivially_relocatable)
            std::is_trivially_relocatable_v<T> ||
#elif defined(__has_builtin)
#if __has_builtin(__builtin_is_cpp_trivially_relocatable)  // Clang 21: P2786's rules
            __builtin_is_cpp_trivially_relocatable(T) ||
#endif
#endif
#if defined(FOLLY_ASSUME_RELOCATABLE)  // folly/Traits.h
            folly::IsRelocatable<T>::value ||
#endif
#if defined(QT_VERSION)  // Qt's QTypeInfo (qtypeinfo.h, included by every Qt header)
            QT_PREPEND_NAMESPACE(QTypeInfo)<T>::isRelocatable ||
#endif
#if defined(INCLUDED_BSLMF_ISBITWISEMOVEABLE)  // BDE's bslmf_isbitwisemoveable.h
            BloombergLP::bslmf::IsBitwiseMoveable<T>::value ||
#endif
            false;
    }
}

/// Moving by a trivial move constructor and ending the source's life by a trivial destructor is copying the
/// bytes: such a type relocates as bytes even when its assignments are user-provided (so that it is not
/// trivially copyable).
template <class T>
inline constexpr bool trivially_moved_and_destroyed_v =
    std::is_trivially_move_constructible_v<T> && std::is_trivially_destructible_v<T>;

template <class T, class = void>
struct member_opt_in
    : std::bool_constant<std::is_trivially_copyable_v<T> || trivially_moved_and_destroyed_v<T> ||
                         declared_elsewhere<T>()> {};

// A member `using relo_trivially_relocatable = std::true_type;` (or false_type, to opt out) decides.
template <class T>
struct member_opt_in<T, std::void_t<typename T::relo_trivially_relocatable>>
    : std::bool_constant<T::relo_trivially_relocatable::value> {};

}  // namespace detail

/// True when objects of type T may be relocated by copying their bytes. Specialize it (or use
/// RELO_TRIVIALLY_RELOCATABLE) for your own types; cv-qualified and array types follow their element.
template <class T>
struct is_trivially_relocatable : detail::member_opt_in<T> {};

template <class T>
struct is_trivially_relocatable<const T> : is_trivially_relocatable<T> {};
template <class T>
struct is_trivially_relocatable<volatile T> : std::false_type {};
template <class T>
struct is_trivially_relocatable<const volatile T> : std::false_type {};
template <class T, std::size_t N>
struct is_trivially_relocatable<T[N]> : is_trivially_relocatable<T> {};

// ---- The standard library's types (docs/relocation.md: each entry and the layout that allows it).

/// Whether every T is trivially relocatable: what a specialization of is_trivially_relocatable for a type
/// made of several members derives from (std::pair's and std::tuple's below).
template <class... T>
struct all_trivially_relocatable : std::bool_constant<(is_trivially_relocatable<T>::value && ...)> {};

// Layouts that hold no pointer into the object itself, in both implementations.
template <class A, class B>
struct is_trivially_relocatable<std::pair<A, B>> : all_trivially_relocatable<A, B> {};
template <class... T>
struct is_trivially_relocatable<std::tuple<T...>> : all_trivially_relocatable<T...> {};
template <class T, std::size_t N>
struct is_trivially_relocatable<std::array<T, N>> : is_trivially_relocatable<T> {};
template <class T>
struct is_trivially_relocatable<std::optional<T>> : is_trivially_relocatable<T> {};
template <class... T>
struct is_trivially_relocatable<std::variant<T...>> : all_trivially_relocatable<T...> {};

// An empty class (libstdc++'s has a user-provided copy constructor, so it is not trivially copyable).
template <class T>
struct is_trivially_relocatable<std::allocator<T>> : std::true_type {};

#if defined(__GLIBCXX__) || defined(_LIBCPP_VERSION)
// Pointers (the object's, the control block's) and the deleter or allocator: nothing points back.
template <class T, class D>
struct is_trivially_relocatable<std::unique_ptr<T, D>>
    : all_trivially_relocatable<D, typename std::unique_ptr<T, D>::pointer> {};
template <class T>
struct is_trivially_relocatable<std::shared_ptr<T>> : std::true_type {};
template <class T>
struct is_trivially_relocatable<std::weak_ptr<T>> : std::true_type {};
// Not in the implementations' debug modes, whose containers are registered by address with their iterators.
#if !defined(_GLIBCXX_DEBUG) && !defined(_LIBCPP_ENABLE_DEBUG_MODE) && !defined(_LIBCPP_DEBUG)
template <class T, class A>
struct is_trivially_relocatable<std::vector<T, A>>
    : all_trivially_relocatable<A, typename std::allocator_traits<A>::pointer> {};
#endif
#endif

#if defined(__GLIBCXX__)
// libstdc++ keeps a functor inside std::function only when it is trivially copyable.
template <class R, class... Args>
struct is_trivially_relocatable<std::function<R(Args...)>> : std::true_type {};
#if _GLIBCXX_USE_CXX11_ABI
// The small-string buffer is inside the object and the data pointer points at it.
template <class C, class Traits, class A>
struct is_trivially_relocatable<std::basic_string<C, Traits, A>> : std::false_type {};
#else
// The old ABI's reference-counted string is one pointer to its heap representation.
template <class C, class Traits, class A>
struct is_trivially_relocatable<std::basic_string<C, Traits, A>> : is_trivially_relocatable<A> {};
#endif
#elif defined(_LIBCPP_VERSION)
// libc++'s string is a size and capacity with a pointer, or the characters inline: no pointer to itself
// (but AddressSanitizer's annotations of the inline characters follow the object's address).
#if defined(__has_feature)
#if !__has_feature(address_sanitizer)
#define RELO_DETAIL_LIBCPP_STRING_RELOCATABLE 1
#endif
#elif !defined(__SANITIZE_ADDRESS__)
#define RELO_DETAIL_LIBCPP_STRING_RELOCATABLE 1
#endif
template <class C, class Traits, class A>
struct is_trivially_relocatable<std::basic_string<C, Traits, A>>
#if defined(RELO_DETAIL_LIBCPP_STRING_RELOCATABLE)
    : all_trivially_relocatable<A, typename std::allocator_traits<A>::pointer> {
};
#undef RELO_DETAIL_LIBCPP_STRING_RELOCATABLE
#else
    : std::false_type {
};
#endif
// libc++'s std::function keeps a small functor inside itself and points at it: not relocatable.
template <class R, class... Args>
struct is_trivially_relocatable<std::function<R(Args...)>> : std::false_type {};
#else
// Another standard library: only what is trivially copyable, and the layouts above.
template <class C, class Traits, class A>
struct is_trivially_relocatable<std::basic_string<C, Traits, A>> : std::false_type {};
#endif

/// is_trivially_relocatable<T>::value.
template <class T>
inline constexpr bool is_trivially_relocatable_v = is_trivially_relocatable<T>::value;

/// True when relocating a T cannot throw: it is either done as bytes or by a noexcept move constructor.
template <class T>
inline constexpr bool is_nothrow_relocatable_v =
    is_trivially_relocatable_v<T> || (std::is_nothrow_move_constructible_v<T> && std::is_nothrow_destructible_v<T>);

namespace detail {

template <class T>
RELO_CONSTEXPR20 T* construct_at(T* p, T&& from) {
#if RELO_HAS_CONSTEXPR_ALLOC
    return std::construct_at(p, std::move(from));
#else
    return ::new (static_cast<void*>(p)) T(std::move(from));
#endif
}

}  // namespace detail

/// Relocate one object: afterwards *dest holds the value *src had, and *src is no longer alive.
/// `dest` must point to uninitialized storage that does not overlap *src. Returns dest.
/// Throws whatever T's move constructor throws; if it throws, *src is left alive and *dest is not.
template <class T>
RELO_CONSTEXPR20 T* relocate_at(T* src, T* dest) noexcept(is_nothrow_relocatable_v<T>) {
    static_assert(!std::is_const_v<T>, "relo::relocate_at: cannot relocate from a const object");
    if constexpr (is_trivially_relocatable_v<T>) {
        if (!detail::is_constant_evaluated()) {
            std::memcpy(static_cast<void*>(dest), static_cast<const void*>(src), sizeof(T));
            return std::launder(dest);
        }
    }
    detail::construct_at(dest, std::move(*src));
    std::destroy_at(src);
    return dest;
}

/// Relocate [first, last) to the uninitialized storage at dest, in one pass (each object is moved and its
/// source destroyed before the next is touched, which keeps both in cache). Returns the end of the
/// destination. The ranges must not overlap, unless T is trivially relocatable and the iterators are
/// pointers (then it is a memmove).
/// If a move constructor throws, every object of both ranges that was still alive is destroyed (the
/// objects are lost, nothing leaks) and the exception propagates.
template <class InputIt, class ForwardIt>
RELO_CONSTEXPR20 ForwardIt uninitialized_relocate(InputIt first, InputIt last, ForwardIt dest) {
    using T = typename std::iterator_traits<InputIt>::value_type;
    static_assert(std::is_same_v<T, typename std::iterator_traits<ForwardIt>::value_type>,
                  "relo::uninitialized_relocate: source and destination must hold the same type");
    if constexpr (is_trivially_relocatable_v<T> && std::is_pointer_v<InputIt> && std::is_pointer_v<ForwardIt>) {
        if (!detail::is_constant_evaluated()) {
            const auto n = static_cast<std::size_t>(last - first);
            if (n != 0) std::memmove(static_cast<void*>(dest), static_cast<const void*>(first), n * sizeof(T));
            return dest + n;
        }
    }
    ForwardIt out = dest;
    try {
        for (; first != last; ++first, (void)++out) relocate_at(std::addressof(*first), std::addressof(*out));
    } catch (...) {
        std::destroy(dest, out);
        std::destroy(first, last);  // *first failed to move, so it is still alive
        throw;
    }
    return out;
}

RELO_ABI_NAMESPACE_END
}  // namespace relo

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

// ---- RELO_ASSERT_TRIVIALLY_RELOCATABLE(T): why a type is not trivially relocatable, as the compiler's error.

template <class>
inline constexpr bool always_false_v = false;

template <class T>
constexpr bool explain_trivially_relocatable();

/// The reason for a type the library does not know: its special members, or its own opt-out.
template <class T, class = void>
struct relocation_diagnosis {
    static constexpr bool explain() {
        if constexpr (std::is_polymorphic_v<T>) {
            static_assert(always_false_v<T>,
                          "relo: the type is polymorphic (it has virtual functions); a polymorphic type is trivially "
                          "relocatable only when declared with RELO_TRIVIALLY_RELOCATABLE (a signed vtable pointer, "
                          "as on arm64e, breaks when its bytes are copied)");
        } else if constexpr (!std::is_trivially_destructible_v<T>) {
            static_assert(always_false_v<T>,
                          "relo: the type's destructor is not trivial (it is user-provided, or a member's or a base's "
                          "is); if moving its bytes and forgetting the source is equivalent (no pointer into the "
                          "object itself), declare it with RELO_TRIVIALLY_RELOCATABLE");
        } else {
            static_assert(always_false_v<T>,
                          "relo: the type's move constructor is not trivial (it is user-provided, or a member's or a "
                          "base's is, or the type is not movable); if moving its bytes and forgetting the source "
                          "is equivalent (no pointer into the object itself), declare it with "
                          "RELO_TRIVIALLY_RELOCATABLE");
        }
        return false;
    }
};

template <class T>
struct relocation_diagnosis<T, std::void_t<typename T::relo_trivially_relocatable>> {
    static constexpr bool explain() {
        static_assert(T::relo_trivially_relocatable::value,
                      "relo: the type opts out itself, with `using relo_trivially_relocatable = std::false_type;` "
                      "(relo::small_vector does: while its elements are inline it points at its own slots)");
        return T::relo_trivially_relocatable::value;
    }
};

/// Templates the library knows: the first argument that rules the whole out.
template <class... T>
struct explain_all {
    static constexpr bool explain() { return (explain_trivially_relocatable<T>() && ...); }
};
template <class A, class B>
struct relocation_diagnosis<std::pair<A, B>> : explain_all<A, B> {};
template <class... T>
struct relocation_diagnosis<std::tuple<T...>> : explain_all<T...> {};
template <class... T>
struct relocation_diagnosis<std::variant<T...>> : explain_all<T...> {};
template <class T>
struct relocation_diagnosis<std::optional<T>> : explain_all<T> {};
template <class T, std::size_t N>
struct relocation_diagnosis<std::array<T, N>> : explain_all<T> {};
template <class T, std::size_t N>
struct relocation_diagnosis<T[N]> : explain_all<T> {};
template <class T, class D>
struct relocation_diagnosis<std::unique_ptr<T, D>> : explain_all<D, typename std::unique_ptr<T, D>::pointer> {};
template <class T, class A>
struct relocation_diagnosis<std::vector<T, A>> {
    static constexpr bool explain() {
#if defined(_GLIBCXX_DEBUG) || defined(_LIBCPP_ENABLE_DEBUG_MODE) || defined(_LIBCPP_DEBUG)
        static_assert(always_false_v<T>, "relo: in the standard library's debug mode a std::vector is registered by "
                                         "address with its iterators: not trivially relocatable");
#endif
        return explain_all<A, typename std::allocator_traits<A>::pointer>::explain();
    }
};
template <class C, class Traits, class A>
struct relocation_diagnosis<std::basic_string<C, Traits, A>> {
    static constexpr bool explain() {
        static_assert(always_false_v<C>,
                      "relo: this standard library's std::basic_string is not trivially relocatable (libstdc++'s "
                      "points into itself, at its small-string buffer; libc++'s under AddressSanitizer carries "
                      "annotations tied to its address)");
        return false;
    }
};
template <class R, class... Args>
struct relocation_diagnosis<std::function<R(Args...)>> {
    static constexpr bool explain() {
        static_assert(always_false_v<R>, "relo: this standard library's std::function keeps a small callable inside "
                                         "itself and points at it: not trivially relocatable");
        return false;
    }
};

template <class T>
constexpr bool explain_trivially_relocatable() {
    if constexpr (is_trivially_relocatable_v<T>) {
        return true;
    } else {
        return relocation_diagnosis<std::remove_cv_t<T>>::explain();
    }
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

/// Fails to compile, saying why, unless T is trivially relocatable (as relo decides it): the type's special
/// members, its own opt-out, or the first element of a pair, tuple, variant, optional, array, unique_ptr or
/// vector that rules it out.
///     RELO_ASSERT_TRIVIALLY_RELOCATABLE(std::pair<int, std::unique_ptr<int>>);
#define RELO_ASSERT_TRIVIALLY_RELOCATABLE(...)                                      \
    static_assert(::relo::detail::explain_trivially_relocatable<__VA_ARGS__>(), \
                  "relo: " #__VA_ARGS__ " is not trivially relocatable (the error above says why)")

/// Declare a type trivially relocatable. Use at global namespace scope, after the type is declared:
///     RELO_TRIVIALLY_RELOCATABLE(my::widget);
#define RELO_TRIVIALLY_RELOCATABLE(...) \
    template <>                          \
    struct relo::is_trivially_relocatable<__VA_ARGS__> : std::true_type {}

#endif  // RELO_RELOCATION_HPP
