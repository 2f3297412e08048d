// examples/profiling_resource.cpp — relo::profiling_resource: measure how a piece of a program allocates,
// and let relo::recommend say which local allocator fits it (P0089's method, on your own workload).
//
// Here the workload builds a word index — a map from each word to the positions it occurs at — and drops
// it whole. The position lists grow and free their old buffers, but the peak still holds about half of
// every byte allocated: a monotonic resource, which never reuses freed memory, wastes little here and
// makes each allocation a pointer bump; and the index can be dropped with it.
#include <relo/profiling_resource.hpp>

#include <cstdio>
#include <map>
#include <memory_resource>
#include <string>
#include <vector>

namespace {

using positions = std::pmr::vector<int>;
using index = std::pmr::map<std::pmr::string, positions>;

void build_index(index& words, int n) {
    static const char* const vocabulary[] = {"relocate", "reserve", "commit", "arena", "pool", "chunk", "page",
                                             "vector", "thread", "block", "profile", "strategy"};
    for (int i = 0; i < n; ++i) words[vocabulary[(i * 7 + i / 3) % 12] + std::pmr::string(i % 5, 's')].push_back(i);
}

}  // namespace

int main() {
    relo::profiling_resource profiler;
    relo::allocation_profile profile;
    {
        index words(&profiler);
        build_index(words, 20000);
        profile = profiler.profile();  // (taken before the index goes: what lives until the end is visible)
    }
    std::fputs(profile.text().c_str(), stdout);
    const relo::allocation_recommendation advice = relo::recommend(profile);
    std::printf("%s\n", advice.text().c_str());
    return profile.allocations > 0 && advice.strategy == relo::allocation_strategy::monotonic ? 0 : 1;
}
