// examples/synchronized_multipool_resource.cpp — relo::synchronized_multipool_resource: the multipool for
// several threads.
//
// Worker threads build and drop small objects that other threads may free. The synchronized multipool
// gives each thread a shard of pools behind its own lock, so threads rarely wait for each other, and a
// block freed by another thread simply joins that thread's shard.
#include <relo/synchronized_multipool_resource.hpp>

#include <cstdio>
#include <list>
#include <memory_resource>
#include <thread>
#include <vector>

int main() {
    relo::synchronized_multipool_resource shared;
    std::pmr::list<int> handed_over(&shared);  // built by the workers, freed by the main thread
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
