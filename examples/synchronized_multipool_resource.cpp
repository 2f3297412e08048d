// examples/synchronized_multipool_resource.cpp — relo::synchronized_multipool_resource: the multipool for
// several threads.
//
// Worker threads build and drop small objects that other threads may free. The synchronized multipool
// gives each thread bins of free blocks that it takes from and gives back to without a lock, so threads
// rarely wait for each other. A block freed by another thread goes to the freeing thread's bin; past two
// batches of its size class, a batch goes to the class's depot, which every thread whose bin is empty
// takes from before its shard makes new blocks (docs/decisions.md, "Blocks freed by another thread come
// back through a depot, not to their owner's shard").
#include <relo/synchronized_multipool_resource.hpp>

#include <cstdio>
#include <list>
#include <memory_resource>
#include <thread>
#include <vector>

int main() {
    relo::synchronized_multipool_resource shared;
    std::vector<std::pmr::list<int>> results;
    for (int t = 0; t < 4; ++t) results.emplace_back(&shared);
    std::vector<std::thread> workers;
    for (int t = 0; t < 4; ++t)
        workers.emplace_back([&results, t] {
            for (int i = 0; i < 10000; ++i) {
                results[t].push_back(i);
                if (i % 2 == 0) results[t].pop_front();
            }
        });
    for (std::thread& w : workers) w.join();
    std::size_t kept = 0;
    for (auto& r : results) kept += r.size();
    results.clear();  // the main thread frees what the workers allocated
    std::printf("%zu shards; the workers kept %zu nodes; %zu bytes in use after they were freed\n",
                shared.shard_count(), kept, shared.bytes_in_use());
    return kept == 4 * 5000 && shared.bytes_in_use() == 0 ? 0 : 1;
}
