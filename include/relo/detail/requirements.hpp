// relo/detail/requirements.hpp — what relo needs from the compiler and the standard library, said once and
// first: every public header includes this before anything else, so that an unsupported setup fails with
// one message instead of hundreds of errors from the code that needs what is missing.
//
// - C++17 or later (every header).
// - <memory_resource> (std::pmr): the containers and resources need it; libstdc++ 9, libc++ 16 and MSVC
//   19.13 have it. A header that needs it defines RELO_DETAIL_NEEDS_MEMORY_RESOURCE before including this
//   one. relo/relocation.hpp, growth.hpp, optional_ref.hpp, commit_policy.hpp and resource_allocator.hpp
//   work without it.
// Layer 0, configuration and errors (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_REQUIREMENTS_HPP
#define RELO_DETAIL_REQUIREMENTS_HPP

#if (defined(_MSVC_LANG) && _MSVC_LANG < 201703L) || (!defined(_MSVC_LANG) && __cplusplus < 201703L)
#error "relo needs C++17 or later: compile with -std=c++17 or newer (MSVC: /std:c++17)"
// (A missing header stops the compiler here: it would go on with hundreds of errors.)
#include <relo_stops_here_see_the_error_above>
#endif

#endif  // RELO_DETAIL_REQUIREMENTS_HPP

// Outside the include guard: each header that needs std::pmr asks, whichever relo header came first.
#if defined(RELO_DETAIL_NEEDS_MEMORY_RESOURCE)
#undef RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#if defined(__has_include)
#if !__has_include(<memory_resource>)
#error "relo's containers and resources need <memory_resource> (std::pmr): libstdc++ 9, libc++ 16, MSVC 19.13 or later; this standard library has none (relo/relocation.hpp works without it)"
#include <relo_stops_here_see_the_error_above>
#endif
#endif
#endif
