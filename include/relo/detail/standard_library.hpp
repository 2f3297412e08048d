// relo/detail/standard_library.hpp — the parts of the standard library relo's containers use, taken from
// the lightest headers that declare them.
//
// The public headers that declare them declare much more: with libstdc++ in C++20, <memory> brings
// <ostream> and the shared pointers, <iterator> the stream iterators, <stdexcept> <string>, <ranges> every
// view, <memory_resource> <shared_mutex>; together they cost a unit several times what <vector> costs
// (docs/measurements/build_cost.md). So with libstdc++ this header includes <vector> and three of
// libstdc++'s internal component headers, and the standard exceptions are thrown through libstdc++'s
// out-of-line throwing functions (detail/errors.hpp); with another standard library, or with
// RELO_STANDARD_HEADERS defined (one test configuration builds that way, so that the list of public headers
// below stays complete; docs/installing.md says when a user needs it), it includes the public headers.
//
// What a container header may use from here: std::vector and std::allocator; allocator_traits,
// pointer_traits, to_address, addressof, construct_at, destroy_at, destroy; iterator_traits, the iterator
// tags, reverse_iterator, move_iterator, distance; the algorithms of <bits/stl_algobase.h> (copy,
// move_backward, fill_n, equal, lexicographical_compare, swap_ranges, min; rotate and remove_if are
// detail/uninitialized.hpp's own); std::less; the declarations of unique_ptr, shared_ptr, weak_ptr,
// function, basic_string, array, tuple, optional and variant; std::pmr::polymorphic_allocator's declaration (which <vector> owes to std::pmr::vector:
// relo::pmr::vector, as std::pmr::vector, needs <memory_resource> where it is used); in C++20 the
// iterator concepts and ranges::begin, end, distance, input_range and range_reference_t. Anything else is included where it is used. tests/include_cost.py fails when a
// container header pulls in a heavy standard header again.
// Layer 0, configuration and errors (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_STANDARD_LIBRARY_HPP
#define RELO_DETAIL_STANDARD_LIBRARY_HPP

#include <cstddef>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>
#include <version>
#if defined(__cpp_lib_three_way_comparison)
#include <compare>
#endif
#if defined(__cpp_lib_concepts)
#include <concepts>
#endif

#if defined(__GLIBCXX__) && !defined(RELO_STANDARD_HEADERS) && defined(__has_include)
#if __has_include(<bits/functexcept.h>) && __has_include(<bits/stringfwd.h>) && \
    (!defined(__cpp_lib_ranges) || __has_include(<bits/ranges_base.h>))
#define RELO_DETAIL_LIBSTDCXX_COMPONENTS 1
#endif
#endif

#if defined(RELO_DETAIL_LIBSTDCXX_COMPONENTS)
// <vector> is made of stl_algobase.h, allocator.h (and through them alloc_traits.h, ptr_traits.h,
// stl_construct.h, stl_iterator.h, stl_function.h), stl_uninitialized.h and range_access.h.
#include <bits/functexcept.h>  // std::__throw_length_error and its kin
#if defined(__cpp_lib_ranges)
#include <bits/ranges_base.h>  // ranges::begin, end, distance, input_range, range_reference_t
#endif
// Declared, not defined: relocation.hpp's trait names them, and a program that has one has included its
// header. (<bits/unique_ptr.h> alone brings <ostream>; <array>, <tuple>, <optional> and <variant>, a
// third of <vector> again.) Boost's container_fwd.hpp declares the same way.
#include <bits/stringfwd.h>  // std::basic_string
namespace std _GLIBCXX_VISIBILITY(default) {
_GLIBCXX_BEGIN_NAMESPACE_VERSION
// (libstdc++'s own parameter names and class keys: GCC names a template's parameters in the debug
// information after its first declaration, and GDB finds a unique_ptr's element type by them.)
template <typename _Tp, typename _Dp>
class unique_ptr;
template <typename _Tp>
class shared_ptr;
template <typename _Tp>
class weak_ptr;
template <typename _Signature>
class function;
template <typename _Tp, std::size_t _Nm>
struct array;
template <typename... _Elements>
class tuple;
template <typename _Tp>
class optional;
template <typename... _Types>
class variant;
_GLIBCXX_END_NAMESPACE_VERSION
}  // namespace std
#else
#include <algorithm>
#include <array>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <variant>
#if defined(__cpp_lib_ranges)
#include <ranges>
#endif
#endif

#endif  // RELO_DETAIL_STANDARD_LIBRARY_HPP
