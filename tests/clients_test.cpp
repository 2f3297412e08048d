// tests/clients_test.cpp — relo's containers dropped into libraries nobody on the project wrote, through
// their public interfaces, each checked against the same library on std::vector (the independent model):
//   - nlohmann/json (Debian's nlohmann-json3-dev): basic_json with relo::vector as its array type, and with
//     an insertion-ordered map built on relo::vector as its object type (as nlohmann's ordered_map is on
//     std::vector: it returns `{--this->end(), true}` and erases elements whose key is const);
//   - Boost.Graph (libboost-graph-dev): an adjacency_list whose edge lists are relo vectors, chosen with a
//     container_gen selector, under breadth-first search and Dijkstra's shortest paths;
//   - nlohmann/json on a relo resource chosen for a scope (relo::resource_scope), through
//     relo::current_resource_allocator: basic_json default-constructs its allocators;
//   - Boost.Container's allocators (new_allocator) under relo::vector and relo::small_vector.
// A client that is not installed is left out (tests/CMakeLists.txt says which, at configure time).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <type_traits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "relo/monotonic_resource.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/resource_scope.hpp"
#include "relo/small_vector.hpp"
#include "relo/test_resource.hpp"
#include "relo/vector.hpp"

#if defined(RELO_TEST_NLOHMANN_JSON)
#include <nlohmann/json.hpp>
#endif
#if defined(RELO_TEST_BOOST_CONTAINER)
#include <boost/container/new_allocator.hpp>
#endif

#if defined(RELO_TEST_BOOST_GRAPH)
#include "relo/boost_graph.hpp"  // (before Boost.Graph's own headers, as any order works)
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
using relo_vecS = relo::graph_vecS;
#endif

namespace relo_test {
namespace {

#if defined(RELO_TEST_NLOHMANN_JSON)
template <class T, class Allocator = std::allocator<T>>
using relo_vector_for_json = relo::vector<T, Allocator>;
using relo_json = nlohmann::basic_json<std::map, relo_vector_for_json>;
using std_json = nlohmann::json;

/// An object type that keeps members in insertion order, a relo::vector of (key, value) pairs searched
/// linearly, with the members basic_json calls: the idioms of nlohmann's ordered_map, which is the same on
/// std::vector (nlohmann::ordered_json, the model below).
template <class Key, class T, class IgnoredLess = std::less<Key>,
          class Allocator = std::allocator<std::pair<const Key, T>>>
struct relo_ordered_map : relo::vector<std::pair<const Key, T>, Allocator> {
    using container = relo::vector<std::pair<const Key, T>, Allocator>;
    using key_type = Key;
    using mapped_type = T;
    using typename container::const_iterator;
    using typename container::iterator;
    using typename container::size_type;
    using typename container::value_type;
    using key_compare = std::equal_to<>;

    relo_ordered_map() = default;
    explicit relo_ordered_map(const Allocator& alloc) : container(alloc) {}
    template <class It>
    relo_ordered_map(It first, It last, const Allocator& alloc = Allocator()) : container(first, last, alloc) {}
    relo_ordered_map(std::initializer_list<value_type> init, const Allocator& alloc = Allocator())
        : container(init, alloc) {}

    template <class K>
    iterator find(const K& key) {
        return std::find_if(this->begin(), this->end(), [&](const value_type& m) { return m.first == key; });
    }
    template <class K>
    const_iterator find(const K& key) const {
        return std::find_if(this->begin(), this->end(), [&](const value_type& m) { return m.first == key; });
    }
    template <class K>
    size_type count(const K& key) const {
        return find(key) == this->end() ? 0 : 1;
    }
    template <class K, class V>
    std::pair<iterator, bool> emplace(K&& key, V&& value) {
        const iterator found = find(key);
        if (found != this->end()) return {found, false};
        container::emplace_back(std::forward<K>(key), std::forward<V>(value));
        return {--this->end(), true};  // (a prvalue pointer could not be decremented)
    }
    std::pair<iterator, bool> insert(const value_type& member) { return emplace(member.first, member.second); }
    std::pair<iterator, bool> insert(value_type&& member) { return emplace(member.first, std::move(member.second)); }
    template <class It>
    void insert(It first, It last) {
        for (; first != last; ++first) insert(*first);
    }
    template <class K>
    T& operator[](K&& key) {
        return emplace(std::forward<K>(key), T{}).first->second;
    }
    template <class K>
    T& at(const K& key) {
        const iterator found = find(key);
        if (found == this->end()) throw std::out_of_range("relo_ordered_map::at: no such key");
        return found->second;
    }
    template <class K>
    const T& at(const K& key) const {
        const const_iterator found = find(key);
        if (found == this->end()) throw std::out_of_range("relo_ordered_map::at: no such key");
        return found->second;
    }
    // A member's key is const and its value may throw when copied: the members after an erased one can be
    // neither assigned nor relocated, so they are rebuilt (keys copied, values moved).
    iterator erase(const_iterator first, const_iterator last) {
        const auto at = first - this->cbegin();
        container rest(this->get_allocator());
        rest.reserve(this->size() - static_cast<size_type>(last - first));
        for (iterator it = this->begin(); it != this->end(); ++it) {
            if (it < first || it >= last) rest.emplace_back(it->first, std::move(it->second));
        }
        container::swap(rest);
        return this->begin() + at;
    }
    iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
    template <class K, std::enable_if_t<!std::is_convertible_v<K, const_iterator>, int> = 0>
    size_type erase(const K& key) {
        const iterator found = find(key);
        if (found == this->end()) return 0;
        erase(found);
        return 1;
    }
};

using relo_ordered_json = nlohmann::basic_json<relo_ordered_map, relo_vector_for_json>;
using std_ordered_json = nlohmann::ordered_json;

/// The same random document built in both, by the same calls.
template <class Json>
Json random_document(unsigned seed, int depth = 0) {
    std::mt19937 rng(seed);
    Json doc = Json::object();
    const int members = 3 + static_cast<int>(rng() % 5);
    for (int m = 0; m < members; ++m) {
        const std::string key = "k" + std::to_string(rng() % 50);
        switch (rng() % 6) {
            case 0: doc[key] = static_cast<std::int64_t>(rng() % 100000) - 50000; break;
            case 1: doc[key] = std::string(rng() % 40, static_cast<char>('a' + rng() % 26)); break;
            case 2: doc[key] = (rng() % 2) == 0; break;
            case 3: doc[key] = static_cast<double>(rng() % 1000) / 8.0; break;
            case 4: {
                Json array = Json::array();
                const int n = static_cast<int>(rng() % 30);
                for (int i = 0; i < n; ++i) array.push_back(static_cast<int>(rng() % 1000));
                if (n > 3) array.erase(array.begin() + 1);
                if (n > 5) array.insert(array.begin() + 2, "inserted");
                doc[key] = std::move(array);
                break;
            }
            default:
                if (depth < 3) doc[key] = random_document<Json>(seed * 31 + static_cast<unsigned>(m), depth + 1);
                else doc[key] = nullptr;
        }
    }
    return doc;
}

TEST(NlohmannJson, DocumentsMatchTheSameOnStdVector) {
    for (unsigned seed = 1; seed <= 40; ++seed) {
        const relo_json mine = random_document<relo_json>(seed);
        const std_json model = random_document<std_json>(seed);
        const std::string text = mine.dump();
        ASSERT_EQ(text, model.dump()) << "seed " << seed;
        EXPECT_EQ(relo_json::parse(text), mine);
        EXPECT_EQ(relo_json::parse(model.dump(2)).dump(), text);
        EXPECT_EQ(mine.size(), model.size());
        const std::vector<std::uint8_t> packed = relo_json::to_cbor(mine);
        EXPECT_EQ(packed, std_json::to_cbor(model));
        EXPECT_EQ(relo_json::from_cbor(packed), mine);
    }
}

TEST(NlohmannJson, ArraysGrowAndShrinkThroughThePublicInterface) {
    relo_json array = relo_json::array();
    std_json model = std_json::array();
    for (int i = 0; i < 2000; ++i) {
        array.push_back(i);
        array.emplace_back(std::to_string(i));
        model.push_back(i);
        model.emplace_back(std::to_string(i));
    }
    array.erase(array.begin() + 10, array.begin() + 1000);
    model.erase(model.begin() + 10, model.begin() + 1000);
    array.insert(array.begin() + 5, {1, 2, 3});
    model.insert(model.begin() + 5, {1, 2, 3});
    ASSERT_EQ(array.dump(), model.dump());
    std::size_t strings = 0;
    for (const auto& element : array) strings += element.is_string() ? 1 : 0;
    EXPECT_EQ(strings, 1505u);
    relo_json copy = array;
    array.clear();
    EXPECT_TRUE(array.empty());
    EXPECT_EQ(copy.dump(), model.dump());
}

TEST(NlohmannJson, OrderedObjectsOnReloVectorsMatchOrderedJson) {
    for (unsigned seed = 1; seed <= 40; ++seed) {
        relo_ordered_json mine = random_document<relo_ordered_json>(seed);
        std_ordered_json model = random_document<std_ordered_json>(seed);
        ASSERT_EQ(mine.dump(), model.dump()) << "seed " << seed << ": members in insertion order";
        // Members erased by key and by iterator, replaced, and looked up, in both.
        for (const char* key : {"k1", "k7", "k13", "k21", "k34"}) {
            EXPECT_EQ(mine.erase(key), model.erase(key));
            mine[key] = seed;
            model[key] = seed;
        }
        if (!model.empty()) {
            mine.erase(mine.begin());
            model.erase(model.begin());
        }
        ASSERT_EQ(mine.dump(), model.dump()) << "seed " << seed;
        EXPECT_EQ(mine.contains("k13"), model.contains("k13"));
        EXPECT_EQ(mine.at("k21"), relo_ordered_json(seed));
        EXPECT_EQ(relo_ordered_json::parse(model.dump()).dump(), model.dump());
        mine.update(relo_ordered_json::parse(R"({"k1": "updated", "new": [1, 2]})"));
        model.update(std_ordered_json::parse(R"({"k1": "updated", "new": [1, 2]})"));
        EXPECT_EQ(mine.dump(), model.dump());
    }
}

/// basic_json on relo::current_resource_allocator: every allocation of the document from the resource of
/// the scope it is built in.
using scoped_json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t,
                                         double, relo::current_resource_allocator>;

std::string generated_document(int records) {
    std::string text = "{\"records\": [";
    for (int i = 0; i < records; ++i) {
        if (i != 0) text += ", ";
        text += "{\"id\": " + std::to_string(i) + ", \"name\": \"record number " + std::to_string(i) +
                "\", \"score\": " + std::to_string(i * 0.25) + ", \"tags\": [\"a\", \"b\", " + std::to_string(i % 7) +
                "], \"nested\": {\"ok\": " + (i % 2 ? "true" : "false") + ", \"none\": null}}";
    }
    return text + "], \"count\": " + std::to_string(records) + "}";
}

TEST(NlohmannJson, OnAReloResourceForAScopeWithoutChangingIt) {
    const std::string text = generated_document(2000);
    const nlohmann::json reference = nlohmann::json::parse(text);
    for (const bool monotonic : {false, true}) {
        relo::test_resource upstream;
        relo::monotonic_resource arena(&upstream);
        relo::multipool_resource pool(&upstream);
        std::pmr::memory_resource* const chosen = monotonic ? static_cast<std::pmr::memory_resource*>(&arena)
                                                            : static_cast<std::pmr::memory_resource*>(&pool);
        std::string dumped;
        scoped_json kept;
        {
            const relo::resource_scope scope(chosen);
            scoped_json document = scoped_json::parse(text);
            EXPECT_EQ(document["count"].get<int>(), 2000);
            EXPECT_EQ(document["records"][1234]["name"].get<std::string>(), "record number 1234");
            document["records"][5]["extra"] = scoped_json::array({1, 2, 3});
            dumped = document.dump();
            kept = document["records"][7];  // copied in the scope, destroyed after it
        }
        EXPECT_GT(upstream.total_blocks(), 0u) << "the document's memory came from the chosen resource";
        nlohmann::json expected = reference;
        expected["records"][5]["extra"] = nlohmann::json::array({1, 2, 3});
        EXPECT_EQ(dumped, expected.dump());
        EXPECT_EQ(kept.dump(), reference["records"][7].dump());
        kept = nullptr;
        arena.release();
        pool.release();
        EXPECT_EQ(upstream.blocks_in_use(), 0u);
        EXPECT_EQ(upstream.problems(), 0u);
    }
}

#endif

#if defined(RELO_TEST_BOOST_GRAPH)
template <class EdgeList>
using graph_of = boost::adjacency_list<EdgeList, boost::vecS, boost::directedS, boost::no_property,
                                       boost::property<boost::edge_weight_t, int>>;

template <class Graph>
Graph random_graph(unsigned seed, int vertices, int edges) {
    std::mt19937 rng(seed);
    Graph g(static_cast<std::size_t>(vertices));
    for (int e = 0; e < edges; ++e) {
        const auto from = static_cast<std::size_t>(rng() % static_cast<unsigned>(vertices));
        const auto to = static_cast<std::size_t>(rng() % static_cast<unsigned>(vertices));
        boost::add_edge(from, to, static_cast<int>(1 + rng() % 20), g);
    }
    return g;
}

template <class Graph>
std::pair<std::vector<int>, std::vector<std::size_t>> distances_and_hops(const Graph& g) {
    const std::size_t n = boost::num_vertices(g);
    std::vector<int> distance(n);
    boost::dijkstra_shortest_paths(g, boost::vertex(0, g), boost::distance_map(distance.data()));
    std::vector<std::size_t> hops(n, 0);
    boost::breadth_first_search(
        g, boost::vertex(0, g),
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(hops.data(), boost::on_tree_edge()))));
    return {distance, hops};
}

// An out-edge with a property is its target and a unique_ptr to the property: relocated as bytes, and
// exactly that big (a Boost whose layout changes fails here rather than in a graph).
using edge_with_weight = boost::detail::stored_edge_property<std::size_t, boost::property<boost::edge_weight_t, int>>;
static_assert(relo::is_trivially_relocatable_v<edge_with_weight>);
static_assert(sizeof(edge_with_weight) == sizeof(std::size_t) + sizeof(void*));

TEST(BoostGraph, AdjacencyListOnReloVectorsFindsWhatVecSFinds) {
    for (unsigned seed = 1; seed <= 10; ++seed) {
        const auto mine = random_graph<graph_of<relo_vecS>>(seed, 300, 1500);
        const auto model = random_graph<graph_of<boost::vecS>>(seed, 300, 1500);
        ASSERT_EQ(boost::num_edges(mine), boost::num_edges(model));
        EXPECT_EQ(distances_and_hops(mine), distances_and_hops(model)) << "seed " << seed;
    }
}

TEST(BoostGraph, RemovingEdgesKeepsTheListsConsistent) {
    auto mine = random_graph<graph_of<relo_vecS>>(7, 100, 600);
    auto model = random_graph<graph_of<boost::vecS>>(7, 100, 600);
    for (std::size_t v = 0; v < 100; v += 3) {
        boost::clear_out_edges(v, mine);
        boost::clear_out_edges(v, model);
    }
    boost::remove_edge(1, 2, mine);
    boost::remove_edge(1, 2, model);
    ASSERT_EQ(boost::num_edges(mine), boost::num_edges(model));
    EXPECT_EQ(distances_and_hops(mine), distances_and_hops(model));
}
#endif

#if defined(RELO_TEST_BOOST_CONTAINER)
TEST(BoostContainer, NewAllocatorUnderReloContainers) {
    relo::vector<std::string, boost::container::new_allocator<std::string>> strings;
    relo::small_vector<int, 4, boost::container::new_allocator<int>> ints;
    std::vector<std::string> model;
    for (int i = 0; i < 500; ++i) {
        strings.push_back(std::string(static_cast<std::size_t>(i % 40), 'x') + std::to_string(i));
        model.push_back(std::string(static_cast<std::size_t>(i % 40), 'x') + std::to_string(i));
        ints.push_back(i);
    }
    strings.erase(strings.begin() + 3, strings.begin() + 100);
    model.erase(model.begin() + 3, model.begin() + 100);
    strings.insert(strings.begin() + 7, 5, "five");
    model.insert(model.begin() + 7, 5, "five");
    EXPECT_TRUE(std::equal(strings.begin(), strings.end(), model.begin(), model.end()));
    EXPECT_EQ(ints.size(), 500u);
    EXPECT_TRUE(ints.is_on_heap());
    ints.resize(3);
    ints.shrink_to_fit();
    EXPECT_FALSE(ints.is_on_heap());
    EXPECT_EQ(ints[2], 2);
}
#endif

}  // namespace
}  // namespace relo_test
