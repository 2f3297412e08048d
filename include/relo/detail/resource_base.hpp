// relo/detail/resource_base.hpp — the std::pmr::memory_resource face of every relo resource.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_RESOURCE_BASE_HPP
#define RELO_DETAIL_RESOURCE_BASE_HPP

#include <cstddef>
#include <memory_resource>

#include "relo/detail/gdb_printers.hpp"  // (a program with a relo resource carries the printers)

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// std::pmr::memory_resource whose virtual functions call Derived's own (non-virtual, inline) allocate and
/// deallocate: code that knows the concrete resource calls those directly (relo::resource_allocator), code
/// that holds a std::pmr::memory_resource* goes through here. Resources compare equal only to themselves.
template <class Derived>
class resource_base : public std::pmr::memory_resource {
protected:
    void* do_allocate(std::size_t bytes, std::size_t alignment) override {
        return static_cast<Derived*>(this)->allocate(bytes, alignment);
    }
    void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
        static_cast<Derived*>(this)->deallocate(p, bytes, alignment);
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_RESOURCE_BASE_HPP
