// relo/resource_allocator.hpp — relo::resource_allocator<T, Resource>: a standard allocator bound at compile
// time to a concrete memory resource (relo::vm_arena, and relo's local resources).
//
//     relo::vm_arena arena(std::size_t{1} << 30);
//     relo::resource_allocator<int, relo::vm_arena> a(&arena);
//     relo::vector<int, relo::resource_allocator<int, relo::vm_arena>> v(a);  // or v(&arena)
//     std::vector<int, relo::resource_allocator<int, relo::vm_arena>> w(&arena);
//
// It is constructed from a pointer to its resource, as std::pmr::polymorphic_allocator is, and calls the
// resource's allocate/deallocate directly: no virtual call (the resource is final), where
// polymorphic_allocator goes through std::pmr::memory_resource's virtual functions. When the resource
// has try_expand(p, old_bytes, new_bytes, alignment), so does the allocator (the expansion protocol of
// docs/expansion_protocol.md), and relo's containers grow in place at the top of an arena.
//
// Copies refer to the same resource and compare equal exactly when they do; containers copy it on copy
// construction (unlike polymorphic_allocator, which then falls back to the default resource) and never
// propagate it on assignment or swap. C++20 polymorphic_allocator's conveniences are here too:
// allocate_bytes/deallocate_bytes, allocate_object/deallocate_object, new_object/delete_object (which
// construct with the arguments given, as this allocator's containers do: no uses-allocator construction).
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_RESOURCE_ALLOCATOR_HPP
#define RELO_RESOURCE_ALLOCATOR_HPP

#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>

#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// A standard allocator bound at compile time to a concrete memory resource, which it calls directly:
/// this header's opening comment (relo/resource_allocator.hpp) says how it compares with
/// std::pmr::polymorphic_allocator.
template <class T, class Resource>
class resource_allocator {
public:
    /// The element type.
    using value_type = T;
    /// The resource's type.
    using resource_type = Resource;
    /// Containers never propagate it on assignment or swap; copies are equal when they refer to the same
    /// resource.
    ///@{
    using propagate_on_container_copy_assignment = std::false_type;
    using propagate_on_container_move_assignment = std::false_type;
    using propagate_on_container_swap = std::false_type;
    using is_always_equal = std::false_type;
    ///@}

    /// Allocates from *resource, which must outlive every allocation.
    resource_allocator(Resource* resource) noexcept : resource_(resource) {}  // (implicit, as polymorphic_allocator's)
    /// The allocator of T on other's resource.
    template <class U>
    resource_allocator(const resource_allocator<U, Resource>& other) noexcept : resource_(other.resource()) {}

    /// The resource it allocates from.
    Resource* resource() const noexcept { return resource_; }

    /// Room for n objects of T. Throws std::bad_array_new_length if n > max_size(), else what the
    /// resource throws.
    [[nodiscard]] T* allocate(std::size_t n) { return allocate_object<T>(n); }
    /// Gives back p, from allocate(n) of an equal allocator, to the resource. Never throws.
    void deallocate(T* p, std::size_t n) noexcept { deallocate_object(p, n); }

    /// nbytes bytes aligned to alignment (a power of two), straight from the resource. std::bad_alloc, before
    /// the resource is asked, when no block holds them (detail::check_block_size: an alignment that is no
    /// power of two or above detail::max_block_alignment included).
    [[nodiscard]] void* allocate_bytes(std::size_t nbytes, std::size_t alignment = alignof(std::max_align_t)) {
        detail::check_block_size(nbytes, alignment);  // (whatever the resource's arithmetic does with it)
        return resource_->allocate(nbytes, alignment);
    }
    /// Gives back p, from allocate_bytes(nbytes, alignment), to the resource. Never throws.
    void deallocate_bytes(void* p, std::size_t nbytes, std::size_t alignment = alignof(std::max_align_t)) noexcept {
        resource_->deallocate(p, nbytes, alignment);
    }

    /// Room for n objects of U (not constructed). Throws std::bad_array_new_length if n * sizeof(U) (with
    /// the alignment's slack) exceeds detail::max_block_bytes, before the resource is asked.
    template <class U>
    [[nodiscard]] U* allocate_object(std::size_t n = 1) {
        if (n > (detail::max_block_bytes - alignof(U)) / sizeof(U)) detail::throw_bad_array_new_length();
        return static_cast<U*>(resource_->allocate(n * sizeof(U), alignof(U)));
    }
    /// Gives back p, from `allocate_object<U>(n)`, to the resource (not destroying anything). Never throws.
    template <class U>
    void deallocate_object(U* p, std::size_t n = 1) noexcept {
        resource_->deallocate(p, n * sizeof(U), alignof(U));
    }

    /// One U built from args in memory of the resource; if its constructor throws, the memory goes back.
    template <class U, class... Args>
    [[nodiscard]] U* new_object(Args&&... args) {
        U* p = allocate_object<U>();
        try {
            ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
        } catch (...) {
            deallocate_object(p);
            throw;
        }
        return p;
    }
    /// Destroys *p and gives its memory back (p from `new_object<U>` of an equal allocator).
    template <class U>
    void delete_object(U* p) noexcept {
        p->~U();
        deallocate_object(p);
    }

    /// Resizes the block p of old_n objects to new_n in place (false: nothing changed). Only where the
    /// resource offers try_expand(void*, old_bytes, new_bytes, alignment).
    template <class R = Resource,
              class = decltype(std::declval<R&>().try_expand(nullptr, std::size_t{}, std::size_t{}, std::size_t{}))>
    bool try_expand(T* p, std::size_t old_n, std::size_t new_n) noexcept {
        if (new_n > max_size()) return false;
        return resource_->try_expand(p, old_n * sizeof(T), new_n * sizeof(T), alignof(T));
    }

    /// The most objects of T one allocation may ask for (detail::max_block_bytes, less T's alignment).
    std::size_t max_size() const noexcept { return (detail::max_block_bytes - alignof(T)) / sizeof(T); }

    /// A copy of this allocator: a container's copy allocates from the same resource.
    resource_allocator select_on_container_copy_construction() const noexcept { return *this; }

private:
    Resource* resource_;
};

/// Whether a and b allocate from the same resource (and != its negation).
template <class T, class U, class Resource>
bool operator==(const resource_allocator<T, Resource>& a, const resource_allocator<U, Resource>& b) noexcept {
    return a.resource() == b.resource();
}
/// !(a == b).
template <class T, class U, class Resource>
bool operator!=(const resource_allocator<T, Resource>& a, const resource_allocator<U, Resource>& b) noexcept {
    return !(a == b);
}

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_RESOURCE_ALLOCATOR_HPP
