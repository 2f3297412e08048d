// relo/detail/iterator.hpp — the iterator of every relo vector: a pointer in a class.
//
// A class rather than T*, as every major std::vector's: `--v.end()` and `v.end()++` compile (a prvalue
// pointer cannot be incremented; nlohmann::json's ordered_map returns `{--this->end(), true}`), iterators
// of different containers are different types, and an iterator converts to its const_iterator but not back.
// It holds one pointer and nothing else, so optimized code is the pointer's (docs/measurements/vector.md,
// "Class iterators"). Every operation is constexpr and noexcept; in C++20 it is a std::contiguous_iterator
// (std::to_address through operator->). Hardened builds check the positions given to the container's
// operations (insert, emplace, erase: inside the container, so a foreign iterator traps), and
// AddressSanitizer builds report a dereference past the end (detail/sanitizers.hpp).
//
// -DRELO_BOUNDED_ITERATORS (the same in every translation unit: it changes the iterator's layout, which
// the hardening switch never does) makes each iterator carry the bounds of the storage it was made for —
// the container's capacity, or a pinned_vector's whole reservation, whose elements never move — and, in a
// hardened build, trap when it is dereferenced, indexed or moved outside them, or compared with or
// subtracted from an iterator of other storage (docs/decisions.md, "Iterators: one pointer in a class").
//
// Also here: how the containers classify and measure the iterator ranges they are given.
// Layer 3, the container engine (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_ITERATOR_HPP
#define RELO_DETAIL_ITERATOR_HPP

#include <cstddef>
#include <type_traits>

#include "relo/detail/config.hpp"  // (first: it defines the RELO_HAS_ macros tested next)

#if RELO_HAS_THREE_WAY
#include <compare>
#endif

#if defined(RELO_BOUNDED_ITERATORS)
#define RELO_DETAIL_BOUNDED_ITERATORS 1
#else
#define RELO_DETAIL_BOUNDED_ITERATORS 0
#endif

#include "relo/detail/contracts.hpp"
#include "relo/detail/standard_library.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

// ---- Classifying and measuring the iterator ranges the containers accept.

template <class It, class = void>
struct iterator_category_of {
    using type = void;
};
template <class It>
struct iterator_category_of<It, std::void_t<typename std::iterator_traits<It>::iterator_category>> {
    using type = typename std::iterator_traits<It>::iterator_category;
};

/// Legacy input iterators (what the iterator-pair overloads accept, as std::vector's do).
template <class It>
inline constexpr bool is_input_iterator_v =
    std::is_convertible_v<typename iterator_category_of<It>::type, std::input_iterator_tag>;

// Pointers are measured and classified without the C++20 iterator concepts: a std::reverse_iterator<const
// T*> member of T itself (a recursive type's const_reverse_iterator) checks them while T is incomplete, and
// the answer, false, is kept for the rest of the program (Boost.Container's recursive-vector test).
template <class It>
struct is_iterator_concept_forward
    : std::bool_constant<
#if RELO_HAS_RANGES
          std::forward_iterator<It> ||
#endif
          std::is_convertible_v<typename iterator_category_of<It>::type, std::forward_iterator_tag>> {
};

/// Multi-pass iterators: the length can be measured before copying.
template <class It>
inline constexpr bool is_forward_iterator_v = std::disjunction_v<std::is_pointer<It>, is_iterator_concept_forward<It>>;

/// Whether last - first measures the range (C++20's sized_sentinel_for; a view's iterator may model it
/// while its iterator_category says input).
template <class Sent, class It>
inline constexpr bool is_sized_sentinel_v =
#if RELO_HAS_RANGES
    std::sized_sentinel_for<Sent, It>;
#else
    false;
#endif

template <class It, class Sent>
RELO_CONSTEXPR20 std::size_t range_length(It first, Sent last) {
    if constexpr (std::is_pointer_v<It> && std::is_same_v<It, Sent>) {
        return static_cast<std::size_t>(last - first);
    } else if constexpr (std::is_same_v<It, Sent> && is_input_iterator_v<It> && !is_sized_sentinel_v<Sent, It>) {
        // std::distance, not ranges::distance, for a range that must be walked: libstdc++ answers a whole
        // std::list's length from its size there (where the optimizer sees the range is the whole list),
        // where a walk made inserting a list's elements walk it twice (docs/measurements/vector.md,
        // "Inserting ranges, and growth calls in registers").
        return static_cast<std::size_t>(std::distance(first, last));
    } else {
#if RELO_HAS_RANGES
        return static_cast<std::size_t>(std::ranges::distance(first, last));
#else
        return static_cast<std::size_t>(std::distance(first, last));
#endif
    }
}

// ---- The containers' own iterator.

/// The iterator over elements of type T (const T for a const_iterator) of the container Container (a tag:
/// only its name is used, so it may be incomplete).
template <class T, class Container>
class contiguous_iterator {
public:
    using iterator_category = std::random_access_iterator_tag;
#if RELO_HAS_RANGES
    using iterator_concept = std::contiguous_iterator_tag;
#endif
    using value_type = std::remove_cv_t<T>;
    using element_type = T;  // (std::pointer_traits and std::to_address read it)
    using difference_type = std::ptrdiff_t;
    using pointer = T*;
    using reference = T&;

    constexpr contiguous_iterator() noexcept = default;
#if RELO_DETAIL_BOUNDED_ITERATORS
    /// At p, in the storage [first, last).
    RELO_ALWAYS_INLINE constexpr contiguous_iterator(T* p, T* first, T* last) noexcept : p_(p), first_(first), last_(last) {}
#else
    RELO_ALWAYS_INLINE constexpr explicit contiguous_iterator(T* p) noexcept : p_(p) {}
#endif
    /// iterator to const_iterator (not back).
    template <class U, std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>, int> = 0>
    RELO_ALWAYS_INLINE constexpr contiguous_iterator(const contiguous_iterator<U, Container>& other) noexcept
#if RELO_DETAIL_BOUNDED_ITERATORS
        : p_(other.base()), first_(other.storage_first()), last_(other.storage_last()) {
    }
#else
        : p_(other.base()) {
    }
#endif

    /// The pointer.
    RELO_ALWAYS_INLINE constexpr T* base() const noexcept { return p_; }

    RELO_ALWAYS_INLINE constexpr reference operator*() const noexcept {
        expects_element(p_);
        return *p_;
    }
    RELO_ALWAYS_INLINE constexpr pointer operator->() const noexcept {  // (std::to_address(end()) is valid)
        return p_;
    }
    RELO_ALWAYS_INLINE constexpr reference operator[](difference_type n) const noexcept {
        expects_element(p_ + n);
        return p_[n];
    }

    RELO_ALWAYS_INLINE constexpr contiguous_iterator& operator++() noexcept { return *this += 1; }
    RELO_ALWAYS_INLINE constexpr contiguous_iterator operator++(int) noexcept {
        contiguous_iterator before = *this;
        *this += 1;
        return before;
    }
    RELO_ALWAYS_INLINE constexpr contiguous_iterator& operator--() noexcept { return *this -= 1; }
    RELO_ALWAYS_INLINE constexpr contiguous_iterator operator--(int) noexcept {
        contiguous_iterator before = *this;
        *this -= 1;
        return before;
    }
    RELO_ALWAYS_INLINE constexpr contiguous_iterator& operator+=(difference_type n) noexcept {
        expects_position(n);
        p_ += n;
        return *this;
    }
    RELO_ALWAYS_INLINE constexpr contiguous_iterator& operator-=(difference_type n) noexcept { return *this += -n; }
    friend RELO_ALWAYS_INLINE constexpr contiguous_iterator operator+(contiguous_iterator it, difference_type n) noexcept {
        return it += n;
    }
    friend RELO_ALWAYS_INLINE constexpr contiguous_iterator operator+(difference_type n, contiguous_iterator it) noexcept {
        return it += n;
    }
    friend RELO_ALWAYS_INLINE constexpr contiguous_iterator operator-(contiguous_iterator it, difference_type n) noexcept {
        return it -= n;
    }

    // Between iterators and const_iterators of one container, in any mix.
    template <class U>
    RELO_ALWAYS_INLINE constexpr difference_type operator-(const contiguous_iterator<U, Container>& other) const noexcept {
        expects_same_storage(other);
        return p_ - other.base();
    }
    template <class U>
    RELO_ALWAYS_INLINE constexpr bool operator==(const contiguous_iterator<U, Container>& other) const noexcept {
        expects_same_storage(other);
        return p_ == other.base();
    }
#if RELO_HAS_THREE_WAY
    template <class U>
    RELO_ALWAYS_INLINE constexpr std::strong_ordering operator<=>(const contiguous_iterator<U, Container>& other) const noexcept {
        expects_same_storage(other);
        return p_ <=> other.base();
    }
#else
    template <class U>
    RELO_ALWAYS_INLINE constexpr bool operator!=(const contiguous_iterator<U, Container>& other) const noexcept {
        return !(*this == other);
    }
    template <class U>
    RELO_ALWAYS_INLINE constexpr bool operator<(const contiguous_iterator<U, Container>& other) const noexcept {
        expects_same_storage(other);
        return p_ < other.base();
    }
    template <class U>
    RELO_ALWAYS_INLINE constexpr bool operator>(const contiguous_iterator<U, Container>& other) const noexcept {
        return other < *this;
    }
    template <class U>
    RELO_ALWAYS_INLINE constexpr bool operator<=(const contiguous_iterator<U, Container>& other) const noexcept {
        return !(other < *this);
    }
    template <class U>
    RELO_ALWAYS_INLINE constexpr bool operator>=(const contiguous_iterator<U, Container>& other) const noexcept {
        return !(*this < other);
    }
#endif

#if RELO_DETAIL_BOUNDED_ITERATORS
    /// The storage the iterator was made for.
    RELO_ALWAYS_INLINE constexpr T* storage_first() const noexcept { return first_; }
    RELO_ALWAYS_INLINE constexpr T* storage_last() const noexcept { return last_; }
#endif

private:
    T* p_ = nullptr;
#if RELO_DETAIL_BOUNDED_ITERATORS
    T* first_ = nullptr;
    T* last_ = nullptr;
#endif

    RELO_ALWAYS_INLINE constexpr void expects_element(const T* at) const noexcept {
#if RELO_DETAIL_BOUNDED_ITERATORS
        RELO_EXPECTS_MSG(at >= first_ && at < last_,
                         "relo: iterator dereferenced at %td elements from its storage's start, outside the "
                         "storage's %td", at - first_, last_ - first_);
#endif
        (void)at;
    }
    RELO_ALWAYS_INLINE constexpr void expects_position(difference_type n) const noexcept {
#if RELO_DETAIL_BOUNDED_ITERATORS
        RELO_EXPECTS_MSG(n >= first_ - p_ && n <= last_ - p_,
                         "relo: iterator moved by %td from %td elements into its storage, outside the storage's "
                         "%td", n, p_ - first_, last_ - first_);
#endif
        (void)n;
    }
    template <class U>
    RELO_ALWAYS_INLINE constexpr void expects_same_storage(const contiguous_iterator<U, Container>& other) const noexcept {
#if RELO_DETAIL_BOUNDED_ITERATORS
        RELO_EXPECTS_MSG(first_ == other.storage_first(),
                         "relo: iterators of different storage compared or subtracted (one made before the "
                         "container grew, or of another container)");
#endif
        (void)other;
    }
};

template <class It>
struct is_relo_iterator : std::false_type {};
template <class T, class Container>
struct is_relo_iterator<contiguous_iterator<T, Container>> : std::true_type {};

/// A relo iterator's pointer (so that ranges of relo containers reach the algorithms' pointer paths:
/// memcpy, and the detection of a range inside the container itself); any other iterator as it is.
template <class T, class Container>
RELO_ALWAYS_INLINE constexpr T* unwrap_iterator(contiguous_iterator<T, Container> it) noexcept {
    return it.base();
}
template <class It>
constexpr It unwrap_iterator(It it) {
    return it;
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_ITERATOR_HPP
