// examples/multipool_resource.cpp — relo::multipool_resource: pools of fixed-size blocks per size class.
//
// A cache keeps a node-based map that inserts and erases all the time. On a multipool, every node comes
// from its size class's free list (no trip to the global heap), nodes of one map sit together in memory,
// and dropping the whole map is one release(). Bound at compile time with relo::resource_allocator, the
// calls are direct (no virtual call through std::pmr::memory_resource).
#include <relo/monotonic_resource.hpp>
#include <relo/multipool_resource.hpp>
#include <relo/resource_allocator.hpp>

#include <cstdio>
#include <functional>
#include <unordered_map>

template <class K, class V>
using pooled_map = std::unordered_map<K, V, std::hash<K>, std::equal_to<K>,
                                      relo::resource_allocator<std::pair<const K, V>, relo::multipool_resource>>;

int main() {
    relo::monotonic_resource chunks;            // where the pools' chunks come from: never freed one by one
    relo::multipool_resource pool(&chunks);     // multipool backed by monotonic: composition
    pooled_map<int, int> cache(&pool);
    std::unordered_map<int, int> same_on_the_heap;  // the same work on the global heap, to compare
    for (int round = 0; round < 100; ++round) {
        for (int key = 0; key < 1000; ++key) cache[key * 7 + round] = same_on_the_heap[key * 7 + round] = round;
        for (int key = 0; key < 900; key += 2) {  // erased nodes go back to their pool
            cache.erase(key * 7 + round);
            same_on_the_heap.erase(key * 7 + round);
        }
    }
    std::printf("%zu entries, %zu bytes in use in %zu size classes, %zu bytes taken upstream\n", cache.size(),
                pool.bytes_in_use(), pool.pool_count(), pool.upstream_bytes());
    bool same = cache.size() == same_on_the_heap.size();
    for (const auto& [key, value] : same_on_the_heap) same = same && cache.count(key) && cache.at(key) == value;
    return same && pool.bytes_in_use() > 0 ? 0 : 1;
}
