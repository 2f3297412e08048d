// relo/resource_scope.hpp — relo::resource_scope and relo::current_resource_allocator<T>: run code that
// builds its own allocators (default-constructed, without uses-allocator construction) on a memory
// resource chosen for a scope of the program, without changing that code.
//
//     using json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t,
//                                       std::uint64_t, double, relo::current_resource_allocator>;
//     {
//         relo::monotonic_resource arena;             // a document parsed, used and dropped whole
//         const relo::resource_scope scope(&arena);   // this thread's allocations in the scope: from arena
//         json document = json::parse(text);
//         use(document);
//     }                                              // the previous resource is current again
//
// Which resource fits a part of a program, and how to find out: docs/choosing_a_resource.md (for a
// document built and dropped whole, as here, a monotonic resource).
//
// relo::current_resource() is the calling thread's current resource: the innermost live resource_scope's,
// else std::pmr::get_default_resource(). current_resource_allocator<T> allocates from it, and writes in
// front of each block the resource it came from (16 bytes, or T's alignment when larger), so a block goes
// back to its own resource whatever scope is current when it is freed, on whichever thread: a structure
// may outlive the scope that built it (not the resource), and be destroyed anywhere. All its instances are
// interchangeable (is_always_equal). The resource must outlive the blocks allocated from it; one shared
// by threads that free each other's blocks must be synchronized (relo::synchronized_multipool_resource).
//
// Scopes nest and are per thread: a scope's resource is current only in the thread that made it, until
// the scope ends (scopes end in the reverse order of their construction, as automatic objects do).
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_RESOURCE_SCOPE_HPP
#define RELO_RESOURCE_SCOPE_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <memory_resource>
#include <new>
#include <type_traits>

#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

namespace detail {
/// The calling thread's innermost scope's resource, or null outside every scope.
inline std::pmr::memory_resource*& scoped_resource() noexcept {
    thread_local std::pmr::memory_resource* resource = nullptr;  // (constant-initialized)
    return resource;
}
}  // namespace detail

/// The calling thread's current resource: the innermost live resource_scope's, else the default resource.
inline std::pmr::memory_resource* current_resource() noexcept {
    std::pmr::memory_resource* r = detail::scoped_resource();
    return r != nullptr ? r : std::pmr::get_default_resource();
}

/// Makes `resource` the calling thread's current resource until the scope ends, then the previous one
/// again. Not copyable or movable (a scope is where it was made).
class resource_scope {
public:
    /// Makes resource (not null: pre) the calling thread's current resource. Never throws.
    explicit resource_scope(std::pmr::memory_resource* resource) noexcept
        : previous_(detail::scoped_resource()), resource_(resource) {
        RELO_EXPECTS_MSG(resource != nullptr, "relo::resource_scope: the resource is null");
        detail::scoped_resource() = resource;
    }
    resource_scope(const resource_scope&) = delete;
    resource_scope& operator=(const resource_scope&) = delete;
    /// Makes the previous resource current again (pre: scopes end in the reverse order of their
    /// construction, in the thread that made them).
    ~resource_scope() {
        RELO_EXPECTS_MSG(detail::scoped_resource() == resource_,
                         "relo::resource_scope: scopes must end in the reverse order of their construction, "
                         "in the thread that made them");
        detail::scoped_resource() = previous_;
    }

    /// The scope's resource.
    std::pmr::memory_resource* resource() const noexcept { return resource_; }

private:
    std::pmr::memory_resource* previous_;
    std::pmr::memory_resource* resource_;
};

/// A standard allocator, default-constructible, drawing from the calling thread's current resource; each
/// block remembers its resource (a header in front of it), so it is freed there.
template <class T>
class current_resource_allocator {
public:
    /// The element type.
    using value_type = T;
    /// It propagates on move assignment, not on copy assignment or swap; all instances are interchangeable
    /// (each block names its resource): always equal.
    ///@{
    using propagate_on_container_copy_assignment = std::false_type;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::false_type;
    using is_always_equal = std::true_type;
    ///@}

    /// Stateless: nothing to construct or copy; never throws.
    ///@{
    current_resource_allocator() noexcept = default;
    template <class U>
    current_resource_allocator(const current_resource_allocator<U>&) noexcept {}
    ///@}

    /// Room for n objects of T from the current resource. Throws std::bad_array_new_length if n is beyond
    /// max_size(), else what the resource throws.
    [[nodiscard]] T* allocate(std::size_t n) {
        if (n > max_size()) detail::throw_bad_array_new_length();
        std::pmr::memory_resource* const from = current_resource();
        char* const raw = static_cast<char*>(from->allocate(n * sizeof(T) + header_offset(), block_alignment()));
        ::new (static_cast<void*>(raw + header_offset() - sizeof(header))) header{from};
        return reinterpret_cast<T*>(raw + header_offset());
    }
    /// Gives p (from allocate(n) of any current_resource_allocator) back to the resource it came from.
    void deallocate(T* p, std::size_t n) noexcept {
        char* const block = reinterpret_cast<char*>(p);
        const header h = *reinterpret_cast<const header*>(block - sizeof(header));
        h.resource->deallocate(block - header_offset(), n * sizeof(T) + header_offset(), block_alignment());
    }

    /// The most objects of T one allocation may ask for (detail::max_block_bytes, less the header and the
    /// alignment).
    static constexpr std::size_t max_size() noexcept {
        return (detail::max_block_bytes - header_offset() - block_alignment()) / sizeof(T);
    }

private:
    struct header {
        std::pmr::memory_resource* resource;
    };
    // Functions, not constants: the allocator may be named while T is incomplete (a recursive type, as
    // basic_json's array of basic_json). The header sits just before the block, which keeps T's alignment
    // (and max_align_t's): the block is that far into what the resource gives.
    static constexpr std::size_t block_alignment() noexcept {
        return alignof(T) > alignof(std::max_align_t) ? alignof(T) : alignof(std::max_align_t);
    }
    static constexpr std::size_t header_offset() noexcept {
        static_assert(alignof(std::max_align_t) >= sizeof(header));
        return block_alignment();
    }
};

/// Always equal (and != always false): a block goes back to its own resource whichever instance frees it.
template <class T, class U>
bool operator==(const current_resource_allocator<T>&, const current_resource_allocator<U>&) noexcept {
    return true;
}
/// \copydoc operator==(const current_resource_allocator<T>&, const current_resource_allocator<U>&)
template <class T, class U>
bool operator!=(const current_resource_allocator<T>&, const current_resource_allocator<U>&) noexcept {
    return false;
}

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_RESOURCE_SCOPE_HPP
