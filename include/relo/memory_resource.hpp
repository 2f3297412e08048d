// relo/memory_resource.hpp — relo's local memory resources (P0089R0) and the allocator that binds a
// container to one at compile time:
//
//   relo::monotonic_resource     bump allocation from a buffer, then from growing chunks (or a vm_arena)
//   relo::multipool_resource     pools of size classes, replenished by growing chunks; larger requests to
//                                the upstream (over a monotonic_resource: pass it as the upstream)
//   relo::synchronized_multipool_resource  the multipool for several threads (sharded)
//   relo::vm_arena               bump allocation over one reservation of address space
//   relo::resource_allocator<T, R>  a standard allocator calling resource R directly (no virtual call)
//   relo::resource_scope, relo::current_resource_allocator<T>  a resource for a scope, for code that
//                                default-constructs its allocators
//   relo::warm_memory(), relo::trim_warm_memory()  what each thread keeps for its next resources
//
// Every resource is a std::pmr::memory_resource too (runtime binding).
// Layer 6, umbrella headers (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_MEMORY_RESOURCE_HPP
#define RELO_MEMORY_RESOURCE_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include "relo/chunk_cache.hpp"
#include "relo/monotonic_resource.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/resource_allocator.hpp"
#include "relo/resource_scope.hpp"
#include "relo/synchronized_multipool_resource.hpp"
#include "relo/vm_arena.hpp"
#include "relo/warm_memory.hpp"

#endif  // RELO_MEMORY_RESOURCE_HPP
