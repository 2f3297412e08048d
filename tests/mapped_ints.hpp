// tests/mapped_ints.hpp — containers whose trivially relocatable elements take relo's own large blocks from
// 64 KiB, on 4 KiB pages (other types' from 128 KiB, as by default): for the tests of large blocks, of their
// warm-block cache, of the warm budget and of the reservation limit, whose blocks of a few MiB of ints must
// be reservations. (By default a trivially relocatable type's block is the heap's below 32 MiB.) And a
// policy with large blocks from 16 KiB for every type, for the differential runs (up to 20,000 elements).
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

/// Large blocks from 16 KiB for every type, reserving 4 times their size, on the pages of Base.
template <class Base>
struct large_from_16k : Base {
    static constexpr std::size_t relocatable_mapping_threshold = std::size_t{16} << 10;
    static constexpr std::size_t other_mapping_threshold = std::size_t{16} << 10;
    static constexpr std::size_t reservation_factor = 4;
};
using early_large_blocks = large_from_16k<relo::large_block_policy>;  // huge pages: never cached
using cached_from_16k = large_from_16k<relo::page_allocator_policy>;  // 4 KiB pages: cached
template <class T>
using early_large_vector = relo::vector<T, relo::page_allocator<T, early_large_blocks>>;
template <class T>
using cached_large_vector = relo::vector<T, relo::page_allocator<T, cached_from_16k>>;
template <class T, std::size_t N>
using cached_large_small_vector = relo::small_vector<T, N, relo::page_allocator<T, cached_from_16k>>;

}  // namespace relo_test

#endif  // RELO_TESTS_MAPPED_INTS_HPP
