// examples/resource_scope.cpp — relo::resource_scope and relo::current_resource_allocator: give one part
// of a program a relo resource without passing it to every container, and choose the resource from a
// profile of that part.
//
// The part here builds a document model (as a JSON library does: nodes holding vectors of children and
// maps of members, their allocators default-constructed inside the library). Its types take
// relo::current_resource_allocator; a relo::resource_scope then decides where their memory comes from:
// first a relo::profiling_resource, whose profile relo::recommend reads, then the resource recommended.
// Blocks go back to the resource they came from even when the document dies after the scope.
#include <relo/memory_resource.hpp>
#include <relo/profiling_resource.hpp>
#include <relo/resource_scope.hpp>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

template <class T>
using scoped = relo::current_resource_allocator<T>;

/// A node of a document: a value, children, named members; every container on the current resource.
struct node {
    double value = 0;
    std::vector<node, scoped<node>> children;
    std::map<int, double, std::less<int>, scoped<std::pair<const int, double>>> members;
};

node build_document(int width, int depth) {
    node n;
    n.value = width * depth;
    for (int m = 0; m < 4; ++m) n.members.emplace(m, m * 0.5);
    if (depth > 0)
        for (int c = 0; c < width; ++c) n.children.push_back(build_document(width, depth - 1));
    return n;
}

double total(const node& n) {
    double sum = n.value;
    for (const auto& [key, value] : n.members) sum += key + value;
    for (const node& child : n.children) sum += total(child);
    return sum;
}

}  // namespace

int main() {
    // 1. Profile one run of the part of the program, in a scope.
    relo::profiling_resource profiler;
    double expected = 0;
    {
        const relo::resource_scope scope(&profiler);
        expected = total(build_document(6, 5));
    }
    const relo::allocation_recommendation advice = relo::recommend(profiler.profile());
    std::printf("%s\n", advice.text().c_str());

    // 2. Run it on the resource recommended (a document built and dropped whole: monotonic).
    relo::monotonic_resource arena;
    std::optional<relo::multipool_resource> pool;
    std::optional<relo::synchronized_multipool_resource> shared_pool;
    std::pmr::memory_resource* chosen = nullptr;
    switch (advice.strategy) {
        case relo::allocation_strategy::global_allocator: chosen = std::pmr::new_delete_resource(); break;
        case relo::allocation_strategy::monotonic: chosen = &arena; break;
        case relo::allocation_strategy::multipool: chosen = &pool.emplace(); break;
        case relo::allocation_strategy::multipool_over_monotonic: chosen = &pool.emplace(&arena); break;
        case relo::allocation_strategy::synchronized_multipool: chosen = &shared_pool.emplace(); break;
    }
    std::unique_ptr<node> kept;
    bool current = false;
    {
        const relo::resource_scope scope(chosen);
        current = relo::current_resource() == chosen && scope.resource() == chosen;
        kept = std::make_unique<node>(build_document(6, 5));  // outlives the scope, not the resource
    }
    current = current && relo::current_resource() == std::pmr::get_default_resource();  // outside every scope
    const double sum = total(*kept);
    kept.reset();  // every block back to the resource it came from, whatever scope is current now
    std::printf("document total %.1f (profiled run: %.1f), built on %s\n", sum, expected,
                relo::to_string(advice.strategy));
    return sum == expected && current && advice.strategy == relo::allocation_strategy::monotonic ? 0 : 1;
}
