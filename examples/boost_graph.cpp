// examples/boost_graph.cpp — relo/boost_graph.hpp: relo::vector as the edge lists of Boost.Graph's
// adjacency_list, chosen with relo::graph_vecS as boost::vecS chooses std::vector. (Built where Boost.Graph
// is installed: Debian's libboost-graph-dev.)
//
// A road map of a city's grid: every crossing an out-edge list that grows as roads are added (by realloc,
// the edges being trivially relocatable), then the shortest travel times from the first crossing. With
// relo::graph_vector_selector<relo::current_resource_allocator> the edge lists come from the resource of a
// relo::resource_scope instead: here a monotonic arena, dropped with the map.
#include <relo/boost_graph.hpp>
#include <relo/monotonic_resource.hpp>
#include <relo/resource_scope.hpp>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include <cstdio>
#include <vector>

namespace {

template <class EdgeLists>
using road_map = boost::adjacency_list<EdgeLists, boost::vecS, boost::directedS, boost::no_property,
                                       boost::property<boost::edge_weight_t, int>>;

/// An n x n grid of crossings, a road each way between neighbours; a road's travel time varies.
template <class Map>
Map grid(int n) {
    Map roads(static_cast<std::size_t>(n * n));
    const auto at = [n](int row, int column) { return static_cast<std::size_t>(row * n + column); };
    for (int row = 0; row < n; ++row)
        for (int column = 0; column < n; ++column) {
            const int minutes = 1 + (row * 7 + column * 3) % 5;
            if (column + 1 < n) {
                boost::add_edge(at(row, column), at(row, column + 1), minutes, roads);
                boost::add_edge(at(row, column + 1), at(row, column), minutes, roads);
            }
            if (row + 1 < n) {
                boost::add_edge(at(row, column), at(row + 1, column), minutes, roads);
                boost::add_edge(at(row + 1, column), at(row, column), minutes, roads);
            }
        }
    return roads;
}

template <class Map>
std::vector<int> travel_times(const Map& roads) {
    std::vector<int> minutes(boost::num_vertices(roads));
    boost::dijkstra_shortest_paths(roads, boost::vertex(0, roads), boost::distance_map(minutes.data()));
    return minutes;
}

}  // namespace

int main() {
    const int n = 100;
    const auto on_relo = grid<road_map<relo::graph_vecS>>(n);
    const auto on_std = grid<road_map<boost::vecS>>(n);  // the same map on std::vector, to compare
    const std::vector<int> times = travel_times(on_relo);
    std::printf("%zu crossings, %zu roads; the far corner is %d minutes away\n", boost::num_vertices(on_relo),
                boost::num_edges(on_relo), times.back());

    // The edge lists from a scope's resource: the whole map in one arena, dropped at once.
    relo::monotonic_resource arena;
    std::vector<int> scoped_times;
    {
        const relo::resource_scope scope(&arena);
        const auto in_arena = grid<road_map<relo::graph_vector_selector<relo::current_resource_allocator>>>(n);
        scoped_times = travel_times(in_arena);
    }
    std::printf("the same map in an arena: %zu KiB from the heap\n", arena.upstream_bytes() >> 10);
    return times == travel_times(on_std) && scoped_times == times && arena.upstream_bytes() > 0 ? 0 : 1;
}
