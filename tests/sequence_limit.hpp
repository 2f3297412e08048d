// tests/sequence_limit.hpp — what the shared tests need to know about a container type's capacity.
#ifndef RELO_TESTS_SEQUENCE_LIMIT_HPP
#define RELO_TESTS_SEQUENCE_LIMIT_HPP

#include <cstddef>
#include <stdexcept>
#include <type_traits>

namespace relo_test {

/// How many elements a container type can hold; fixed-capacity containers specialize it.
template <class C>
struct sequence_limit : std::integral_constant<std::size_t, static_cast<std::size_t>(-1)> {};

/// What a container throws when asked for more than max_size() (fixed-capacity ones: std::bad_alloc).
template <class C>
struct too_large_error {
    using type = std::length_error;
};

/// Whether growing the storage moves the elements (false for containers whose elements never move).
template <class C>
struct growth_moves_elements : std::true_type {};

}  // namespace relo_test

#endif  // RELO_TESTS_SEQUENCE_LIMIT_HPP
