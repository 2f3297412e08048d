// tests/mapped_ints.hpp — containers on relo's own large blocks from 64 KiB for every element type, on 4 KiB
// pages: for the tests of large blocks, of their warm-block cache, of the warm budget and of the
// reservation limit, whose blocks of a few MiB of ints must be reservations. (By default a trivially
// relocatable type's block is the heap's below 32 MiB; other types' blocks are large from 128 KiB either way.)
#ifndef RELO_TESTS_MAPPED_INTS_HPP
#define RELO_TESTS_MAPPED_INTS_HPP

#include <cstddef>

#include "relo/page_allocator.hpp"
#include "relo/small_vector.hpp"
#include "relo/vector.hpp"

namespace relo_test {

struct mapped_from_64k : relo::page_allocator_policy {
    static constexpr std::size_t relocatable_mapping_threshold = std::size_t{64} << 10;
};
template <class T>
using mapped_allocator = relo::page_allocator<T, mapped_from_64k>;
template <class T>
using mapped_vector = relo::vector<T, mapped_allocator<T>>;
template <class T, std::size_t N>
using mapped_small_vector = relo::small_vector<T, N, mapped_allocator<T>>;

using mapped_int_allocator = mapped_allocator<int>;
using mapped_ints = mapped_vector<int>;

}  // namespace relo_test

#endif  // RELO_TESTS_MAPPED_INTS_HPP
