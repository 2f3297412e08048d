// relo/relo.hpp — every public header of relo but relo/boost_graph.hpp (which needs Boost.Graph).
// Layer 6, umbrella headers (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_RELO_HPP
#define RELO_RELO_HPP

/// \namespace relo
/// relo's containers (vector, small_vector, pinned_vector, inplace_vector), memory resources, allocators,
/// relocation trait and warm-memory settings. Names in relo::detail are not part of the interface, but
/// for the operations the four vectors share, documented on detail::sequence_ops and shown on each
/// vector's page as its own (docs/stability.md).

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include "relo/commit_policy.hpp"
#include "relo/growth.hpp"
#include "relo/inplace_vector.hpp"
#include "relo/memory_resource.hpp"
#include "relo/monotonic_resource.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/optional_ref.hpp"
#include "relo/page_allocator.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/profiling_resource.hpp"
#include "relo/relocation.hpp"
#include "relo/resource_allocator.hpp"
#include "relo/resource_scope.hpp"
#include "relo/small_vector.hpp"
#include "relo/synchronized_multipool_resource.hpp"
#include "relo/test_resource.hpp"
#include "relo/vector.hpp"
#include "relo/vm_arena.hpp"
#include "relo/warm_memory.hpp"

#endif  // RELO_RELO_HPP
