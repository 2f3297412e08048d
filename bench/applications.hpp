// bench/applications.hpp — whole programs on libraries nobody on the project wrote (nlohmann/json,
// Boost.Graph) and programs of kinds users write (a sparse matrix, a text index, a syntax tree), each
// written once over a *kit*: the containers (and allocators) one configuration uses.
//
// The configurations (the implementations of applications_bench and applications_tree_bench; the tree
// also has absl and llvm, where installed):
//   std                    the standard containers, the global heap
//   relo                   relo's containers with only the type swapped
//   boost                  boost::container's
//   relo-recommended       relo's containers on the resource relo::recommend picks from a profile of one
//                          run of the program (relo::profiling_resource), in a relo::resource_scope
//   relo-monotonic, relo-multipool, relo-multipool-monotonic
//                          the same containers on each of relo's strategies, to read the recommendation
//                          against the best one
// In the resource configurations every allocation the program's containers make comes from a resource
// made for each run and released after it, as a program that gives a request or a document its own
// resource does. How it reaches the containers is how a user would pass it: a program that writes its own
// containers gives them relo::resource_allocator<T, R> for the resource's concrete type R (no virtual
// call, no header per block; a relo::vector grows in place at the top of a monotonic resource); a library
// that builds its allocators itself (nlohmann/json, Boost.Graph) runs in a relo::resource_scope of it
// (relo::current_resource_allocator: a 16-byte header per block and a virtual call).
#ifndef RELO_BENCH_APPLICATIONS_HPP
#define RELO_BENCH_APPLICATIONS_HPP

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "relo/memory_resource.hpp"
#include "relo/profiling_resource.hpp"
#include "relo/resource_scope.hpp"
#include "relo/vector.hpp"

#include "bench_support.hpp"

namespace relo_bench::applications {

/// What one configuration of a program reports beside its time.
struct run_result {
    double seconds = 0;
    std::uint64_t checksum = 0;
};

/// The configurations every program has.
inline std::vector<std::string> configurations() {
    std::vector<std::string> out{"std", "relo", "boost"};
    for (const char* c : {"relo-recommended", "relo-monotonic", "relo-multipool", "relo-multipool-monotonic"})
        out.push_back(c);
    return out;
}

inline bool uses_resource(const std::string& config) { return config.rfind("relo-", 0) == 0; }

/// The strategy a resource configuration names (relo-recommended: none, it is found by profiling).
inline relo::allocation_strategy named_strategy(const std::string& config) {
    if (config == "relo-monotonic") return relo::allocation_strategy::monotonic;
    if (config == "relo-multipool") return relo::allocation_strategy::multipool;
    return relo::allocation_strategy::multipool_over_monotonic;
}

inline const char* short_name(relo::allocation_strategy s) {
    switch (s) {
        case relo::allocation_strategy::global_allocator: return "global";
        case relo::allocation_strategy::monotonic: return "monotonic";
        case relo::allocation_strategy::multipool: return "multipool";
        case relo::allocation_strategy::multipool_over_monotonic: return "multipool/monotonic";
        case relo::allocation_strategy::synchronized_multipool: return "synchronized-multipool";
    }
    return "?";
}

/// Runs `once` `reps` times on the global heap, after one untimed run (every configuration starts from a
/// heap with that history).
template <class Once>
run_result run_plain(long reps, Once&& once) {
    run_result r;
    keep(once());
    const double start = now_seconds();
    for (long i = 0; i < reps; ++i) r.checksum += once();
    r.seconds = now_seconds() - start;
    return r;
}

/// One run of `once(resource)` on a new resource of the strategy, passed as its concrete type. (Not for
/// the global allocator: there the program runs on relo's containers as they are, run_on_resources.)
template <class Once>
std::uint64_t once_on(relo::allocation_strategy strategy, Once& once) {
    switch (strategy) {
        case relo::allocation_strategy::global_allocator: return once(*std::pmr::new_delete_resource());
        case relo::allocation_strategy::monotonic: {
            relo::monotonic_resource arena;
            return once(arena);
        }
        case relo::allocation_strategy::multipool: {
            relo::multipool_resource pool;
            return once(pool);
        }
        case relo::allocation_strategy::multipool_over_monotonic: {
            relo::monotonic_resource arena;
            relo::multipool_resource pool(&arena);
            return once(pool);
        }
        case relo::allocation_strategy::synchronized_multipool: {
            relo::synchronized_multipool_resource pool;
            return once(pool);
        }
    }
    return 0;
}

/// A program over a library that builds its own allocators, as a `once(resource)`: `once()` in a
/// relo::resource_scope of the resource.
template <class Once>
auto in_scope(Once once) {
    return [once](auto& resource) {
        const relo::resource_scope scope(&resource);
        return once();
    };
}

/// Runs `once(resource)` (one run of the program on the resource configuration's kit) as run_plain does,
/// each run on a new resource of the configuration's strategy; relo-recommended first profiles one
/// untimed run (on a relo::profiling_resource) and asks relo::recommend, and where it says "the global
/// allocator", or leaves a large block to its owner (a relo container here), runs `plain_once` (relo's
/// containers on their own allocator) instead.
template <class Once, class Plain>
run_result run_on_resources(const std::string& config, long reps, json_line& out, Once&& once, Plain&& plain_once) {
    relo::allocation_strategy strategy = named_strategy(config);
    if (config == "relo-recommended") {
        relo::profiling_resource profiler;
        keep(once(profiler));
        const relo::allocation_profile profile = profiler.profile();
        const relo::allocation_recommendation advice = relo::recommend(profile);
        strategy = advice.strategy;
        out.add("strategy", std::string(short_name(strategy)));
        out.add("owner_decides_bytes", static_cast<long>(advice.owner_decides_bytes));
        out.add("profile_largest", static_cast<long>(profile.largest_allocation));
        out.add("profile_peak", static_cast<long>(profile.peak_bytes_in_use));
        out.add("profile_peak_to_total", profile.peak_to_total());
        // A block the advice leaves to its owner is, in these programs, a relo container's (the syntax
        // tree's node table), which the advice keeps on relo's own allocator. The programs cannot put
        // one container on it and the rest on a resource, so such a program runs as relo's whole: the
        // advice for the block, not for the rest (the report's relo-<strategy> rows have the rest's).
        if (strategy == relo::allocation_strategy::global_allocator || advice.owner_decides_bytes != 0)
            return run_plain(reps, plain_once);
    }
    return run_plain(reps, [&] { return once_on(strategy, once); });
}

/// One program's configurations: its run on each kit (std, relo, boost; on a resource: `resource_once`
/// takes the resource), by name; false for a name it does not know.
template <class Std, class Relo, class Boost, class OnResource>
bool run_configuration(const std::string& config, long reps, json_line& out, run_result& r, Std&& std_once,
                       Relo&& relo_once, Boost&& boost_once, OnResource&& resource_once) {
    if (config == "std") {
        r = run_plain(reps, std_once);
    } else if (config == "relo") {
        r = run_plain(reps, relo_once);
    } else if (config == "boost") {
        r = run_plain(reps, boost_once);
    } else if (uses_resource(config)) {
        r = run_on_resources(config, reps, out, resource_once, relo_once);
    } else {
        return false;
    }
    return true;
}

/// A program's own containers on a resource: relo::resource_allocator for its concrete type.
template <class T, class Resource>
using on = relo::resource_allocator<T, Resource>;
template <class Resource>
using resource_of = std::remove_reference_t<Resource>;

/// A program's size: `base` times the scale, a tenth of it at scale 0 (the suite's smoke runs).
inline long sized(long base, long scale) { return scale > 0 ? base * scale : base / 10; }

// The programs, each `false` for a configuration it does not have. scale: the size (a factor of the
// quick size; 0 a tenth of it).
bool run_json(const std::string& config, long scale, long reps, json_line& out, run_result& r);
bool run_graph(const std::string& config, long scale, long reps, json_line& out, run_result& r);
bool run_sparse(const std::string& config, long scale, long reps, json_line& out, run_result& r);
bool run_index(const std::string& config, long scale, long reps, json_line& out, run_result& r);
bool run_tree(const std::string& config, long scale, long reps, json_line& out, run_result& r);
/// The syntax tree's configurations: every program's, and the small vectors installed (absl, llvm).
std::vector<std::string> tree_configurations();

}  // namespace relo_bench::applications

#endif  // RELO_BENCH_APPLICATIONS_HPP
