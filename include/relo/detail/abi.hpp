// relo/detail/abi.hpp — the build modes that change what relo's inline functions do with memory or how its
// types are laid out, each named by an inline namespace of its own.
//
// Every relo entity is declared in `relo` through RELO_ABI_NAMESPACE_BEGIN/END. In the default build they
// open nothing: relo::vector is relo::vector. Built with -DRELO_PORTABLE_POSIX (the portable POSIX
// backend on Linux: no mremap, moves by copying) or -DRELO_BOUNDED_ITERATORS (iterators three pointers
// wide), they open an inline namespace named after the mode, so that translation units of different modes
// in one program use different types and functions (a function taking a relo::vector from a unit of the
// other mode is a link error) instead of sharing whichever copy of each inline function the linker keeps:
// a block reserved by one backend and released by the other's code. Code is written, and users write
// relo::vector, relo::is_trivially_relocatable and RELO_TRIVIALLY_RELOCATABLE, as in the default build.
// The hardened mode and the sanitizers' modes keep one namespace (docs/life_in_a_process.md, "Build
// modes", says which may be mixed).
// Layer 0, configuration and errors (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_ABI_HPP
#define RELO_DETAIL_ABI_HPP

#if defined(RELO_PORTABLE_POSIX) && defined(RELO_BOUNDED_ITERATORS)
#define RELO_ABI_NAMESPACE_BEGIN inline namespace portable_posix_bounded_iterators {
#define RELO_ABI_NAMESPACE_END }
#elif defined(RELO_PORTABLE_POSIX)
#define RELO_ABI_NAMESPACE_BEGIN inline namespace portable_posix {
#define RELO_ABI_NAMESPACE_END }
#elif defined(RELO_BOUNDED_ITERATORS)
#define RELO_ABI_NAMESPACE_BEGIN inline namespace bounded_iterators {
#define RELO_ABI_NAMESPACE_END }
#else
#define RELO_ABI_NAMESPACE_BEGIN
#define RELO_ABI_NAMESPACE_END
#endif

#endif  // RELO_DETAIL_ABI_HPP
