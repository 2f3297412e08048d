// relo/relocation.hpp — the trivial-relocation trait and the relocation algorithms.
//
// To *relocate* an object is to move it to a new address and end the life of the original, as one step.
// For most types that step can be a plain memcpy of the object's bytes: the object does not care where it
// lives. Such types are *trivially relocatable*, and every relo container moves them as bytes (memcpy,
// memmove, realloc, or mremap's page-table moves) instead of calling move constructors and destructors.
//
// Which types qualify:
//   * every trivially copyable type;
//   * whatever the compiler's builtin says, where it has one (Clang's __is_trivially_relocatable, or
//     __builtin_is_cpp_trivially_relocatable);
//   * std::pair of two trivially relocatable types;
//   * a type that says so itself with a member `using relo_trivially_relocatable = std::true_type;`;
//   * a type the user declares, at global namespace scope: `RELO_TRIVIALLY_RELOCATABLE(my_type);`,
//     or by specializing relo::is_trivially_relocatable<my_type> to derive from std::true_type.
// std::basic_string is never trivially relocatable here: libstdc++'s small-string buffer points into the
// object itself.
//
// Declaring a type trivially relocatable is a promise: moving its bytes to a new address and forgetting
// the old ones must be equivalent to move-constructing at the new address and destroying the old object.
#ifndef RELO_RELOCATION_HPP
#define RELO_RELOCATION_HPP

#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "relo/detail/config.hpp"

namespace relo {
namespace detail {

#if defined(__has_builtin)
#if __has_builtin(__builtin_is_cpp_trivially_relocatable)
#define RELO_BUILTIN_TRIVIALLY_RELOCATABLE(T) __builtin_is_cpp_trivially_relocatable(T)
#elif __has_builtin(__is_trivially_relocatable)
#define RELO_BUILTIN_TRIVIALLY_RELOCATABLE(T) __is_trivially_relocatable(T)
#endif
#endif

template <class T>
constexpr bool builtin_trivially_relocatable() noexcept {
#if defined(RELO_BUILTIN_TRIVIALLY_RELOCATABLE)
    return RELO_BUILTIN_TRIVIALLY_RELOCATABLE(T);
#else
    return std::is_trivially_copyable_v<T>;
#endif
}

template <class T, class = void>
struct member_opt_in : std::bool_constant<builtin_trivially_relocatable<T>() || std::is_trivially_copyable_v<T>> {};

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
template <class A, class B>
struct is_trivially_relocatable<std::pair<A, B>>
    : std::bool_constant<is_trivially_relocatable<A>::value && is_trivially_relocatable<B>::value> {};
template <class C, class Traits, class A>
struct is_trivially_relocatable<std::basic_string<C, Traits, A>> : std::false_type {};

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

}  // namespace relo

/// Declare a type trivially relocatable. Use at global namespace scope, after the type is declared:
///     RELO_TRIVIALLY_RELOCATABLE(my::widget);
#define RELO_TRIVIALLY_RELOCATABLE(...) \
    template <>                          \
    struct relo::is_trivially_relocatable<__VA_ARGS__> : std::true_type {}

#endif  // RELO_RELOCATION_HPP
