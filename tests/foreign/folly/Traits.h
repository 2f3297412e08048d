// A stand-in for folly/Traits.h (tests/foreign/README.md): folly's relocation trait, spelled as folly spells
// it. Types are relocatable when trivially copyable, when they say so with a member
// `typedef std::true_type IsRelocatable;`, or when declared with FOLLY_ASSUME_RELOCATABLE inside namespace
// folly (or FOLLY_ASSUME_FBVECTOR_COMPATIBLE at global scope).
#pragma once

#include <type_traits>

namespace folly {
namespace stand_in_detail {
template <class T, class = void>
struct says_relocatable : std::false_type {};
template <class T>
struct says_relocatable<T, std::void_t<typename T::IsRelocatable>> : T::IsRelocatable {};
}  // namespace stand_in_detail

template <class T>
struct IsRelocatable
    : std::bool_constant<std::is_trivially_copyable_v<T> || stand_in_detail::says_relocatable<T>::value> {};
}  // namespace folly

#define FOLLY_ASSUME_RELOCATABLE(...) struct IsRelocatable<__VA_ARGS__> : std::true_type {}

#define FOLLY_ASSUME_FBVECTOR_COMPATIBLE(...) \
    namespace folly {                         \
    template <>                               \
    FOLLY_ASSUME_RELOCATABLE(__VA_ARGS__);    \
    }
