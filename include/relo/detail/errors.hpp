// relo/detail/errors.hpp — the error policy (DESIGN.md, "Errors and bad input"), in one place.
//
//   std::bad_alloc      an allocation or commit failed, or an inplace_vector would exceed its capacity (P0843)
//   std::length_error   a size beyond max_size() (arithmetic overflow of n * sizeof(T) included)
//   std::out_of_range   at(i) with i >= size()
// Precondition violations are not errors: RELO_EXPECTS (detail/config.hpp) checks them in hardened and
// debug builds. The throwing functions are out of line and cold, so the paths that call them stay small.
#ifndef RELO_DETAIL_ERRORS_HPP
#define RELO_DETAIL_ERRORS_HPP

#include <new>
#include <stdexcept>

#include "relo/detail/config.hpp"

namespace relo::detail {

[[noreturn]] RELO_COLD inline void throw_bad_alloc() { throw std::bad_alloc(); }
[[noreturn]] RELO_COLD inline void throw_length_error(const char* what) { throw std::length_error(what); }
[[noreturn]] RELO_COLD inline void throw_out_of_range(const char* what) { throw std::out_of_range(what); }

}  // namespace relo::detail

#endif  // RELO_DETAIL_ERRORS_HPP
