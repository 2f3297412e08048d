// relo/detail/sequence_checks.hpp — the hardened mode's checks of sequence_ops' arguments: positions,
// ranges and a non-empty container, each with a message that names the container and the operation
// (RELO_EXPECTS_MSG, detail/contracts.hpp); nothing at all when checks are off. (operator[]'s index check
// is written in operator[] itself: one layer less in a debug build's indexing loop.)
// Part of detail/sequence.hpp, which includes this file at its end (never included alone: it defines
// members of the class declared there).
// Layer 3, the container engine (docs/design.md, "Layers").
#ifndef RELO_DETAIL_SEQUENCE_CHECKS_HPP
#define RELO_DETAIL_SEQUENCE_CHECKS_HPP


#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

template <class Derived, class T, class Alloc>
RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void sequence_ops<Derived, T, Alloc>::expects_not_empty(const char* operation) const noexcept {
    RELO_EXPECTS_MSG(!empty(), "%s::%s: the container is empty", Derived::seq_name, operation);
    (void)operation;
}

/// Where an iterator points, in elements from begin() (for messages: it may point anywhere).
template <class Derived, class T, class Alloc>
inline std::ptrdiff_t sequence_ops<Derived, T, Alloc>::offset_of(const T* p) const noexcept {
    const auto distance = reinterpret_cast<std::intptr_t>(p) - reinterpret_cast<std::intptr_t>(ptr_begin());
    return static_cast<std::ptrdiff_t>(distance / static_cast<std::intptr_t>(sizeof(T)));
}

/// The length of [first, last), which must not be reversed (a random-access range can tell).
template <class Derived, class T, class Alloc>
template <class It, class Sent>
RELO_CONSTEXPR20 auto
sequence_ops<Derived, T, Alloc>::checked_length(const char* operation, const It& first,
                                                 const Sent& last) const -> size_type {
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

template <class Derived, class T, class Alloc>
RELO_CONSTEXPR20 auto
sequence_ops<Derived, T, Alloc>::index_of_position(const_iterator pos, const char* operation) const noexcept
    -> size_type {
    RELO_EXPECTS_MSG(pos.base() >= ptr_begin() && pos.base() <= ptr_end(),
                     "%s::%s: position %td is outside [0, size() %zu]", Derived::seq_name, operation,
                     offset_of(pos.base()), size());
    (void)operation;
    return static_cast<size_type>(pos.base() - ptr_begin());
}
}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_SEQUENCE_CHECKS_HPP
