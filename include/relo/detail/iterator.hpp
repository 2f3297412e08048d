// relo/detail/iterator.hpp — the iterator of every relo vector: a pointer in a class.
//
// A class rather than T*, as every major std::vector's: `--v.end()` and `v.end()++` compile (a prvalue
// pointer cannot be incremented; nlohmann::json's ordered_map returns `{--this->end(), true}`), iterators
// of different containers are different types, and an iterator converts to its const_iterator but not back.
// It holds one pointer and nothing else, whatever the build (hardening never changes a layout:
// detail/contracts.hpp), so optimized code is the pointer's (docs/vector_performance.md, "Class
// iterators"). Every operation is constexpr and noexcept; in C++20 it is a std::contiguous_iterator
// (std::to_address through operator->). Hardened builds check the positions given to the container's
// operations (insert, emplace, erase: inside the container, so a foreign iterator traps) and AddressSanitizer
// builds report a dereference past the end (detail/sanitizers.hpp); an iterator that knew its
// container's bounds would be larger (docs/decisions.md, "Iterators: one pointer in a class").
//
// Also here: how the containers classify and measure the iterator ranges they are given.
// Layer 3, the container engine (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_ITERATOR_HPP
#define RELO_DETAIL_ITERATOR_HPP

#include <cstddef>
#include <iterator>
#include <type_traits>

#include "relo/detail/config.hpp"  // (first: it defines the RELO_HAS_ macros tested next)

#if RELO_HAS_THREE_WAY
#include <compare>
#endif
#if defined(__cpp_lib_ranges)
#include <ranges>
#endif

namespace relo::detail {

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

template <class It, class Sent>
RELO_CONSTEXPR20 std::size_t range_length(It first, Sent last) {
    if constexpr (std::is_pointer_v<It> && std::is_same_v<It, Sent>) {
        return static_cast<std::size_t>(last - first);
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
    constexpr explicit contiguous_iterator(T* p) noexcept : p_(p) {}
    /// iterator to const_iterator (not back).
    template <class U, std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>, int> = 0>
    constexpr contiguous_iterator(const contiguous_iterator<U, Container>& other) noexcept : p_(other.base()) {}

    /// The pointer.
    constexpr T* base() const noexcept { return p_; }

    constexpr reference operator*() const noexcept { return *p_; }
    constexpr pointer operator->() const noexcept { return p_; }
    constexpr reference operator[](difference_type n) const noexcept { return p_[n]; }

    constexpr contiguous_iterator& operator++() noexcept {
        ++p_;
        return *this;
    }
    constexpr contiguous_iterator operator++(int) noexcept { return contiguous_iterator(p_++); }
    constexpr contiguous_iterator& operator--() noexcept {
        --p_;
        return *this;
    }
    constexpr contiguous_iterator operator--(int) noexcept { return contiguous_iterator(p_--); }
    constexpr contiguous_iterator& operator+=(difference_type n) noexcept {
        p_ += n;
        return *this;
    }
    constexpr contiguous_iterator& operator-=(difference_type n) noexcept {
        p_ -= n;
        return *this;
    }
    friend constexpr contiguous_iterator operator+(contiguous_iterator it, difference_type n) noexcept {
        return contiguous_iterator(it.p_ + n);
    }
    friend constexpr contiguous_iterator operator+(difference_type n, contiguous_iterator it) noexcept {
        return contiguous_iterator(it.p_ + n);
    }
    friend constexpr contiguous_iterator operator-(contiguous_iterator it, difference_type n) noexcept {
        return contiguous_iterator(it.p_ - n);
    }

    // Between iterators and const_iterators of one container, in any mix.
    template <class U>
    constexpr difference_type operator-(const contiguous_iterator<U, Container>& other) const noexcept {
        return p_ - other.base();
    }
    template <class U>
    constexpr bool operator==(const contiguous_iterator<U, Container>& other) const noexcept {
        return p_ == other.base();
    }
#if RELO_HAS_THREE_WAY
    template <class U>
    constexpr std::strong_ordering operator<=>(const contiguous_iterator<U, Container>& other) const noexcept {
        return p_ <=> other.base();
    }
#else
    template <class U>
    constexpr bool operator!=(const contiguous_iterator<U, Container>& other) const noexcept {
        return p_ != other.base();
    }
    template <class U>
    constexpr bool operator<(const contiguous_iterator<U, Container>& other) const noexcept {
        return p_ < other.base();
    }
    template <class U>
    constexpr bool operator>(const contiguous_iterator<U, Container>& other) const noexcept {
        return p_ > other.base();
    }
    template <class U>
    constexpr bool operator<=(const contiguous_iterator<U, Container>& other) const noexcept {
        return p_ <= other.base();
    }
    template <class U>
    constexpr bool operator>=(const contiguous_iterator<U, Container>& other) const noexcept {
        return p_ >= other.base();
    }
#endif

private:
    T* p_ = nullptr;
};

template <class It>
struct is_relo_iterator : std::false_type {};
template <class T, class Container>
struct is_relo_iterator<contiguous_iterator<T, Container>> : std::true_type {};

/// A relo iterator's pointer (so that ranges of relo containers reach the algorithms' pointer paths:
/// memcpy, and the detection of a range inside the container itself); any other iterator as it is.
template <class T, class Container>
constexpr T* unwrap_iterator(contiguous_iterator<T, Container> it) noexcept {
    return it.base();
}
template <class It>
constexpr It unwrap_iterator(It it) {
    return it;
}

}  // namespace relo::detail

#endif  // RELO_DETAIL_ITERATOR_HPP
