// bench/applications_graph.cpp — applications_bench's Boost.Graph program: an adjacency_list of 50,000
// vertices (times the scale) and 8 random weighted edges a vertex, built edge by edge, then Dijkstra's
// shortest paths and a breadth-first search from vertex 0. The kit swaps the edge lists' container:
// boost::vecS (std::vector), relo::graph_vecS (relo::vector), boost::container::vector (a selector of this
// file's, told to Boost.Graph as relo/boost_graph.hpp tells it relo::vector), and relo::vector on the
// scope's resource.
#include <cstdint>
#include <vector>

#include "relo/boost_graph.hpp"

#include <boost/container/vector.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include "applications.hpp"

namespace relo_bench::applications {
struct boost_container_vecS {};
}  // namespace relo_bench::applications

namespace boost {
namespace container {
template <class T, class A, class O>
graph_detail::vector_tag container_category(const vector<T, A, O>&) {
    return {};
}
template <class T, class A, class O>
graph_detail::unstable_tag iterator_stability(const vector<T, A, O>&) {
    return {};
}
}  // namespace container
namespace graph_detail {
template <class T, class A, class O>
struct container_traits<boost::container::vector<T, A, O>> {
    using category = vector_tag;
    using iterator_stability = unstable_tag;
};
}  // namespace graph_detail
template <class ValueType>
struct container_gen<relo_bench::applications::boost_container_vecS, ValueType> {
    using type = boost::container::vector<ValueType>;
};
template <>
struct parallel_edge_traits<relo_bench::applications::boost_container_vecS> {
    using type = allow_parallel_edge_tag;
};
}  // namespace boost

namespace relo_bench::applications {
namespace {

template <class EdgeList>
using graph_of = boost::adjacency_list<EdgeList, boost::vecS, boost::directedS, boost::no_property,
                                       boost::property<boost::edge_weight_t, int>>;

template <class Graph>
std::uint64_t graph_once(long vertices) {
    const long edges = 8 * vertices;
    Graph g(static_cast<std::size_t>(vertices));
    xorshift rng;
    const auto n = static_cast<std::uint64_t>(vertices);
    for (long e = 0; e < edges; ++e) {
        const std::uint64_t r = rng.next();
        boost::add_edge(static_cast<std::size_t>(r % n), static_cast<std::size_t>((r >> 24) % n),
                        static_cast<int>(1 + (r >> 48) % 20), g);
    }
    std::vector<int> distance(static_cast<std::size_t>(vertices));
    boost::dijkstra_shortest_paths(g, boost::vertex(0, g), boost::distance_map(distance.data()));
    std::vector<std::size_t> hops(static_cast<std::size_t>(vertices), 0);
    boost::breadth_first_search(
        g, boost::vertex(0, g),
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(hops.data(), boost::on_tree_edge()))));
    std::uint64_t sum = 0;
    for (std::size_t v = 0; v < distance.size(); v += 97) sum += static_cast<std::uint64_t>(distance[v]) + hops[v];
    return sum;
}

}  // namespace

bool run_graph(const std::string& config, long scale, long reps, json_line& out, run_result& r) {
    const long vertices = sized(50000, scale);
    out.add("vertices", vertices);
    return run_configuration(
        config, reps, out, r, [&] { return graph_once<graph_of<boost::vecS>>(vertices); },
        [&] { return graph_once<graph_of<relo::graph_vecS>>(vertices); },
        [&] { return graph_once<graph_of<boost_container_vecS>>(vertices); },
        in_scope([&] { return graph_once<graph_of<relo::graph_vector_selector<relo::current_resource_allocator>>>(vertices); }));
}

}  // namespace relo_bench::applications
