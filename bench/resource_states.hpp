// bench/resource_states.hpp — what the allocator benchmarks build their strategies from: a resource and
// what it stands on (each with a member `resource`), and a way to reach it directly or through
// std::pmr::memory_resource*.
#ifndef RELO_BENCH_RESOURCE_STATES_HPP
#define RELO_BENCH_RESOURCE_STATES_HPP

#include <cstddef>
#include <memory_resource>
#include <type_traits>

#include "bench_support.hpp"
#include "relo/memory_resource.hpp"

namespace relo_bench {

/// A resource on the default upstream.
template <class Resource>
struct just {
    Resource resource;
};

/// The global allocator as a resource (the paper's AS2).
struct new_delete {
    std::pmr::memory_resource& resource = *std::pmr::new_delete_resource();
};

/// relo::multipool_resource over relo::monotonic_resource (the paper's AS11..AS14).
struct multipool_over_monotonic {
    relo::monotonic_resource monotonic;
    relo::multipool_resource resource{&monotonic};
};

/// The type of State's `resource` member.
template <class State>
using resource_of = std::remove_reference_t<decltype(std::declval<State&>().resource)>;

/// Calls a resource directly (Virtual = false: its own, final functions) or through
/// std::pmr::memory_resource* (kept opaque to the optimizer, so that the calls stay virtual).
template <class Resource, bool Virtual>
class reach {
public:
    explicit reach(Resource& resource) : resource_(resource), base_(&resource) { keep(base_); }
    void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        if constexpr (Virtual) return base_->allocate(bytes, alignment);
        else return resource_.allocate(bytes, alignment);
    }
    void deallocate(void* p, std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        if constexpr (Virtual) base_->deallocate(p, bytes, alignment);
        else resource_.deallocate(p, bytes, alignment);
    }

private:
    Resource& resource_;
    std::pmr::memory_resource* base_;
};

}  // namespace relo_bench

#endif  // RELO_BENCH_RESOURCE_STATES_HPP
