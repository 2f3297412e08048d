// relo/detail/storage_contract.hpp — the storage interface under detail::sequence_ops, and its check.
//
// A relo container is sequence_ops<Derived, T, Alloc> (detail/sequence.hpp) over a storage that Derived
// provides as private members (sequence_ops is their friend):
//
//   T*   seq_begin() const noexcept          first element
//   T*   seq_end() const noexcept            one past the last element
//   T*   seq_capacity_end() const noexcept   one past the last slot of storage
//   size_type seq_size() const noexcept       optional: the size, by a storage that keeps it (size() and the
//                                            index check then read it in one step even in a debug build)
//   bool seq_full() const noexcept           seq_end() == seq_capacity_end(), in the storage's own terms
//                                            (push_back's test: a storage that keeps sizes compares them,
//                                            which the optimizer cannot derive from the two pointers)
//   void seq_set_end(T*) noexcept            record a new end (elements already constructed/destroyed)
//   void seq_added_one() noexcept            one more element was constructed at seq_end() (push_back's
//                                            hot path: ++end, or ++size for containers that store a size)
//   void seq_removed_one() noexcept          the element at seq_end() - 1 was destroyed (pop_back: --end or
//                                            --size, so a loop of pops does not turn pointers into sizes)
//   A&   seq_allocator() noexcept            the allocator to construct/destroy with
//   size_type seq_max_size() const noexcept
//   static constexpr const char* seq_name    the container's name, for hardened checks' messages
//   static constexpr bool seq_annotated      whether AddressSanitizer is told that the capacity past the
//                                            elements is unused (detail/capacity_guard.hpp)
//   static void seq_too_large(const char*)  throws what exceeding max_size() throws (std::length_error for
//                                            growable containers, std::bad_alloc for fixed-capacity ones)
//   static constexpr bool seq_fixed_capacity  true: capacity() == max_size() always; the storage cannot
//                                            grow and has none of the growth hooks below (the paths
//                                            that would call them throw seq_too_large instead)
// and, when seq_fixed_capacity is false:
//   void seq_grow(size_type required)        capacity >= required, growing by the container's policy;
//                                            precondition required > capacity(), required <= max_size();
//                                            strong guarantee (elements moved only if nothing throws)
//   void seq_reserve(size_type n)            capacity >= n exactly as asked; same preconditions
//   void seq_grow_with_gap(size_type required, size_type at, size_type n)
//                                            seq_grow, and the elements [at, size) relocated to
//                                            [at + n, size + n) (the end is left as it was); only called
//                                            for elements that relocate without throwing
//   void seq_grow_emplacing(size_type required, Build b)
//                                            seq_grow, and one element more at the end, which b(slot)
//                                            constructs while the old elements are still where they were
//                                            (b may read them); strong guarantee
//   void seq_rebuild(size_type n, Build b)   new storage for n elements, b(dest) constructs them there,
//                                            then the old elements are destroyed (strong guarantee)
//   void seq_release() noexcept              destroys the elements and gives the storage back (copy
//                                            assignment, before the allocator is replaced)
//   T* seq_iterator_end() const noexcept     (optional) how far iterators stay valid as the storage grows,
//                                            when that is beyond seq_capacity_end() (RELO_BOUNDED_ITERATORS)
//   static constexpr bool seq_grows_out_of_line
//                                            false: emplace_back's growth glue is inlined, so that a vector
//                                            whose address never escapes stays in registers (relo::vector);
//                                            true: it is a call taking `this`, for a storage whose object
//                                            lives in memory anyway (small_vector: begin may point into it)
//   void seq_grow_for_push()                 room for one more element in a full storage, with the checks
//                                            of ensure_room_for(1): what a push inlines on its slow path,
//                                            so as little as a call (relo::vector: one taking and returning
//                                            the block by value; small_vector: one taking `this`)
//
// storage_contract_holds checks the interface where sequence_ops first uses the storage (C++20): a hook
// that is missing or declared otherwise is a compile error that names it. (A member of sequence_ops, not a
// namespace-scope concept: the hooks are private, and sequence_ops is their friend.)
// Part of detail/sequence.hpp, which includes this file at its end (never included alone: it defines
// members of the class declared there).
// Layer 3, the container engine (docs/design.md, "Layers").
#ifndef RELO_DETAIL_STORAGE_CONTRACT_HPP
#define RELO_DETAIL_STORAGE_CONTRACT_HPP

#include "relo/detail/config.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

#if RELO_HAS_CONCEPTS
template <class Derived, class T, class Alloc>
template <class D>
constexpr bool sequence_ops<Derived, T, Alloc>::storage_contract_holds() {
    static_assert(requires(const D& d) { { d.seq_begin() } noexcept -> std::same_as<T*>; },
                  "relo storage contract: T* seq_begin() const noexcept");
    static_assert(requires(const D& d) { { d.seq_end() } noexcept -> std::same_as<T*>; },
                  "relo storage contract: T* seq_end() const noexcept");
    static_assert(requires(const D& d) { { d.seq_capacity_end() } noexcept -> std::same_as<T*>; },
                  "relo storage contract: T* seq_capacity_end() const noexcept");
    static_assert(requires(const D& d) { { d.seq_full() } noexcept -> std::same_as<bool>; },
                  "relo storage contract: bool seq_full() const noexcept");
    static_assert(requires(D& d, T* e) { { d.seq_set_end(e) } noexcept; },
                  "relo storage contract: void seq_set_end(T*) noexcept");
    static_assert(requires(D& d) { { d.seq_added_one() } noexcept; },
                  "relo storage contract: void seq_added_one() noexcept");
    static_assert(requires(D& d) { { d.seq_removed_one() } noexcept; },
                  "relo storage contract: void seq_removed_one() noexcept");
    static_assert(requires(D& d) { { d.seq_allocator() } noexcept -> std::same_as<Alloc&>; },
                  "relo storage contract: Alloc& seq_allocator() noexcept");
    static_assert(requires(const D& d) { { d.seq_max_size() } noexcept -> std::same_as<size_type>; },
                  "relo storage contract: size_type seq_max_size() const noexcept");
    static_assert(requires { { D::seq_name } -> std::convertible_to<const char*>; },
                  "relo storage contract: static constexpr const char* seq_name (for hardened checks' messages)");
    static_assert(requires { { D::seq_annotated } -> std::convertible_to<bool>; },
                  "relo storage contract: static constexpr bool seq_annotated (AddressSanitizer annotations)");
    static_assert(requires { D::seq_too_large(""); },
                  "relo storage contract: [[noreturn]] static void seq_too_large(const char*)");
    static_assert(requires { { D::seq_fixed_capacity } -> std::convertible_to<bool>; },
                  "relo storage contract: static constexpr bool seq_fixed_capacity (true: the storage "
                  "cannot grow, and has none of the growth hooks)");
    if constexpr (!D::seq_fixed_capacity) {
        static_assert(requires(D& d, size_type n) { d.seq_grow(n); },
                      "relo storage contract (growable): void seq_grow(size_type required)");
        static_assert(requires(D& d, size_type n) { d.seq_reserve(n); },
                      "relo storage contract (growable): void seq_reserve(size_type n)");
        static_assert(requires(D& d, size_type n) { d.seq_grow_with_gap(n, n, n); },
                      "relo storage contract (growable): void seq_grow_with_gap(size_type required, "
                      "size_type at, size_type n)");
        static_assert(requires(D& d, size_type n, void (*build)(T*)) { d.seq_grow_emplacing(n, build); },
                      "relo storage contract (growable): template <class Build> void "
                      "seq_grow_emplacing(size_type required, Build build)");
        static_assert(requires(D& d, size_type n, void (*build)(T*)) { d.seq_rebuild(n, build); },
                      "relo storage contract (growable): template <class Build> void "
                      "seq_rebuild(size_type n, Build build)");
        static_assert(requires(D& d) { { d.seq_release() } noexcept; },
                      "relo storage contract (growable): void seq_release() noexcept");
        static_assert(requires { { D::seq_grows_out_of_line } -> std::convertible_to<bool>; },
                      "relo storage contract (growable): static constexpr bool seq_grows_out_of_line");
        static_assert(requires(D& d) { d.seq_grow_for_push(); },
                      "relo storage contract (growable): void seq_grow_for_push()");
    }
    return true;
}
#endif

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_STORAGE_CONTRACT_HPP
