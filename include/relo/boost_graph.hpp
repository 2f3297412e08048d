// relo/boost_graph.hpp — relo::vector as the container of Boost.Graph's adjacency_list (its edge lists, or
// its vertex list), chosen with a selector as boost::vecS chooses std::vector. Needs Boost.Graph
// (libboost-graph-dev); it includes <boost/graph/adjacency_list.hpp>.
//
//     #include <relo/boost_graph.hpp>
//     #include <boost/graph/adjacency_list.hpp>
//     using graph = boost::adjacency_list<relo::graph_vecS, boost::vecS, boost::directedS>;
//     // the edge lists from the scope's resource (relo/resource_scope.hpp):
//     using scoped = boost::adjacency_list<relo::graph_vector_selector<relo::current_resource_allocator>,
//                                          boost::vecS, boost::directedS>;
//
// Boost's templates ask container_category and iterator_stability of a container unqualified, before any
// user code: for another library's container they are found by argument-dependent lookup only, so they
// are declared here, in relo's namespace, with what boost/pending/container_traits.hpp says of
// std::vector (random access, iterators unstable across growth). Parallel edges are allowed, as with vecS.
// Layer 6, adapters to other libraries (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_BOOST_GRAPH_HPP
#define RELO_BOOST_GRAPH_HPP

#include <boost/pending/container_traits.hpp>

#include "relo/page_allocator.hpp"
#include "relo/vector.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// Boost.Graph's selector of relo::vector<V, Allocator<V>>.
template <template <class> class Allocator = default_allocator>
struct graph_vector_selector {};
/// relo::vector with relo's default allocator: the counterpart of boost::vecS.
using graph_vecS = graph_vector_selector<>;

/// What Boost.Graph asks of a container through argument-dependent lookup: relo::vector is a vector (random
/// access, contiguous) ...
template <class T, class A, class G>
boost::graph_detail::vector_tag container_category(const vector<T, A, G>&) {
    return {};
}
/// ... whose iterators growth invalidates, as std::vector's.
template <class T, class A, class G>
boost::graph_detail::unstable_tag iterator_stability(const vector<T, A, G>&) {
    return {};
}

RELO_ABI_NAMESPACE_END
}  // namespace relo

namespace boost {
namespace graph_detail {
template <class T, class A, class G>
struct container_traits<relo::vector<T, A, G>> {
    using category = vector_tag;
    using iterator_stability = unstable_tag;
};
}  // namespace graph_detail
}  // namespace boost

#include <boost/graph/adjacency_list.hpp>

namespace boost {
template <template <class> class Allocator, class ValueType>
struct container_gen<relo::graph_vector_selector<Allocator>, ValueType> {
    using type = relo::vector<ValueType, Allocator<ValueType>>;
};
template <template <class> class Allocator>
struct parallel_edge_traits<relo::graph_vector_selector<Allocator>> {
    using type = allow_parallel_edge_tag;
};
}  // namespace boost

#if !defined(BOOST_NO_CXX11_RVALUE_REFERENCES) && !defined(BOOST_NO_CXX11_SMART_PTR)
namespace relo {
RELO_ABI_NAMESPACE_BEGIN
/// An out-edge with a property, as adjacency_list stores it: the target vertex and a std::unique_ptr to the
/// property (boost/graph/detail/adjacency_list.hpp), so its bytes may move. A graph's edge lists then grow as
/// a vector of pointers does (realloc, mremap), not element by element through its move constructor.
/// (Only while the edge is laid out as that pair: a Boost that stores the property by value is not.)
template <class Vertex, class Property>
struct is_trivially_relocatable<boost::detail::stored_edge_property<Vertex, Property>>
    : std::bool_constant<all_trivially_relocatable<Vertex, std::unique_ptr<Property>>::value &&
                         sizeof(boost::detail::stored_edge_property<Vertex, Property>) ==
                             sizeof(std::pair<Vertex, std::unique_ptr<Property>>)> {};
RELO_ABI_NAMESPACE_END
}  // namespace relo
#endif

#endif  // RELO_BOOST_GRAPH_HPP
