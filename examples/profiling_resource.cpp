// examples/profiling_resource.cpp — relo::profiling_resource: measure how a piece of a program allocates,
// and let relo::recommend say which local allocator fits it (P0089's method, on your own workload).
//
// Here the workload builds a word index — a map from each word to the positions it occurs at — and drops
// it whole. The position lists grow and free their old buffers, but the peak still holds about half of
// every byte allocated: a monotonic resource, which never reuses freed memory, wastes little here and
// makes each allocation a pointer bump; and the index can be dropped with it. The profile's numbers are
// there for a program's own report too (or as JSON), and recommend() takes thresholds of its own.
#include <relo/profiling_resource.hpp>

#include <cstdint>
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

/// The bucket holding the most entries of a profile's histogram.
std::size_t busiest(const std::uint64_t* buckets, std::size_t n) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < n; ++k)
        if (buckets[k] > buckets[best]) best = k;
    return best;
}

}  // namespace

int main() {
    relo::profiling_resource profiler;  // over the global heap (its upstream_resource())
    relo::allocation_profile profile;
    {
        index words(&profiler);
        build_index(words, 20000);
        profile = profiler.profile();  // (taken before the index goes: what lives until the end is visible)
    }
    std::fputs(profile.text().c_str(), stdout);
    const relo::allocation_recommendation advice = relo::recommend(profile);
    std::printf("%s\n", advice.text().c_str());
    // One block holding much of the peak is left to its owner (a relo container's stays on its own
    // allocator); none here: the index's blocks are small.
    if (advice.owner_decides_bytes != 0)
        std::printf("its owner decides where the block of %llu bytes goes\n",
                    static_cast<unsigned long long>(advice.owner_decides_bytes));

    // The same numbers for a program's own log or metrics: the profile's counters, its ratios, the busiest
    // bucket of each histogram (sizes and lifetimes by powers of two, alignments 1, 2, 4, ...), or all of it
    // as JSON.
    using p = relo::allocation_profile;
    std::printf("%llu threads, %llu blocks freed by another thread; %llu allocations, %llu deallocations, "
                "%llu live (%.2f); %llu bytes in all, peak %llu, %llu in use; largest block %llu bytes, mean "
                "%.1f, %zu size classes; %llu reused (%.2f), peak/total %.2f\n",
                static_cast<unsigned long long>(profile.threads), static_cast<unsigned long long>(profile.cross_thread_frees),
                static_cast<unsigned long long>(profile.allocations), static_cast<unsigned long long>(profile.deallocations),
                static_cast<unsigned long long>(profile.live_blocks()), profile.live_fraction(),
                static_cast<unsigned long long>(profile.total_bytes), static_cast<unsigned long long>(profile.peak_bytes_in_use),
                static_cast<unsigned long long>(profile.bytes_in_use), static_cast<unsigned long long>(profile.largest_allocation),
                profile.mean_size(), profile.size_classes(), static_cast<unsigned long long>(profile.reused),
                profile.reuse_fraction(), profile.peak_to_total());
    const std::size_t size = busiest(profile.sizes, p::size_buckets);               // [2^k, 2^(k+1)) bytes
    const std::size_t alignment = busiest(profile.alignments, p::alignment_buckets);  // 2^k
    const std::size_t lifetime = busiest(profile.lifetimes, p::lifetime_buckets);     // [2^(k-1), 2^k) allocations
    std::printf("most blocks: [%zu, %zu) bytes, aligned to %zu; most freed blocks lived [%zu, %zu) allocations\n",
                size == 0 ? 0 : std::size_t{1} << size, std::size_t{2} << size, std::size_t{1} << alignment,
                lifetime == 0 ? 0 : std::size_t{1} << (lifetime - 1), std::size_t{1} << lifetime);
    const std::string json = profile.json();
    std::printf("%.60s...\n", json.c_str());

    // The thresholds recommend() decides by (each measured: docs/measurements/p0089_benchmarks.md). Stricter
    // about a monotonic resource's waste, the same profile calls for pools instead.
    relo::recommendation_thresholds strict;
    strict.monotonic_peak_to_total = 0.95;
    const relo::allocation_recommendation stricter = relo::recommend(profile, strict);
    std::printf("stricter thresholds: at most %llu allocations: the global allocator; a block of %llu bytes holding "
                "%.2f of the peak: named for its owner; peak/total at least %.2f: monotonic; reuse at least %.2f: pools\n",
                static_cast<unsigned long long>(strict.few_allocations), static_cast<unsigned long long>(strict.dominant_block),
                strict.dominant_share, strict.monotonic_peak_to_total, strict.multipool_reuse);
    std::printf("%s, because %s (as %s)\n", relo::to_string(stricter.strategy), stricter.why.c_str(),
                stricter.resembles.c_str());

    return profile.allocations > 0 && profile.threads == 1 && profile.live_blocks() > 0 && json.front() == '{' &&
                   profiler.upstream_resource() == std::pmr::new_delete_resource() &&
                   advice.strategy == relo::allocation_strategy::monotonic && advice.owner_decides_bytes == 0 &&
                   stricter.strategy != relo::allocation_strategy::monotonic
               ? 0
               : 1;
}
