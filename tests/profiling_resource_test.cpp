// relo::profiling_resource and relo::recommend (relo/profiling_resource.hpp): the profile against a model of
// the calls (counts, bytes, peak, histograms of sizes, alignments and lifetimes, reuse), threads and
// cross-thread frees, the text and JSON forms, alignment kept over a checking upstream, and each branch of
// the recommendation.
#include "relo/profiling_resource.hpp"

#include <cstdint>
#include <map>
#include <memory_resource>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "relo/resource_allocator.hpp"
#include "relo/test_resource.hpp"
#include "relo/vector.hpp"

namespace relo_test {
namespace {

std::size_t bucket(std::uint64_t x, std::size_t last) {
    std::size_t k = 0;
    while (x > 1 && k < last) {
        x >>= 1;
        ++k;
    }
    return k;
}

TEST(ProfilingResource, TheProfileMatchesAModelOfTheCalls) {
    relo::test_resource upstream("upstream");  // (checks what the profiler passes on)
    relo::profiling_resource r(&upstream);
    std::mt19937 rng(11);
    struct live {
        std::size_t bytes, alignment;
    };
    std::map<void*, live> model;
    std::uint64_t allocations = 0, deallocations = 0, total = 0, in_use = 0, peak = 0;
    std::uint64_t sizes[relo::allocation_profile::size_buckets] = {};
    std::uint64_t alignments[relo::allocation_profile::alignment_buckets] = {};
    for (int step = 0; step < 4000; ++step) {
        if (model.empty() || rng() % 5 < 3) {
            const std::size_t bytes = rng() % 2000;
            const std::size_t alignment = std::size_t{1} << (rng() % 8);  // 1 .. 128
            void* p = r.allocate(bytes, alignment);
            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u);
            model[p] = {bytes, alignment};
            ++allocations;
            total += bytes;
            in_use += bytes;
            peak = std::max(peak, in_use);
            ++sizes[bucket(bytes, relo::allocation_profile::size_buckets - 1)];
            ++alignments[bucket(alignment, relo::allocation_profile::alignment_buckets - 1)];
        } else {
            auto it = model.begin();
            std::advance(it, static_cast<long>(rng() % model.size()));
            r.deallocate(it->first, it->second.bytes, it->second.alignment);
            in_use -= it->second.bytes;
            model.erase(it);
            ++deallocations;
        }
    }
    const relo::allocation_profile p = r.profile();
    EXPECT_EQ(p.allocations, allocations);
    EXPECT_EQ(p.deallocations, deallocations);
    EXPECT_EQ(p.live_blocks(), model.size());
    EXPECT_EQ(p.total_bytes, total);
    EXPECT_EQ(p.bytes_in_use, in_use);
    EXPECT_EQ(p.peak_bytes_in_use, peak);
    EXPECT_EQ(p.threads, 1u);
    EXPECT_EQ(p.cross_thread_frees, 0u);
    for (std::size_t k = 0; k < relo::allocation_profile::size_buckets; ++k) EXPECT_EQ(p.sizes[k], sizes[k]) << k;
    for (std::size_t k = 0; k < relo::allocation_profile::alignment_buckets; ++k) EXPECT_EQ(p.alignments[k], alignments[k]) << k;
    std::uint64_t lifetimes = 0;
    for (std::uint64_t c : p.lifetimes) lifetimes += c;
    EXPECT_EQ(lifetimes, deallocations);
    for (const auto& [block, l] : model) r.deallocate(block, l.bytes, l.alignment);
    EXPECT_EQ(upstream.blocks_in_use(), 0u);
    EXPECT_EQ(upstream.problems(), 0u);
    EXPECT_EQ(r.profile().bytes_in_use, 0u);
}

TEST(ProfilingResource, LifetimesAndReuse) {
    relo::profiling_resource r;
    void* first = r.allocate(64);
    void* others[3];
    for (void*& o : others) o = r.allocate(1000);
    r.deallocate(first, 64);  // lived while 3 more were allocated: the bucket [2, 4)
    relo::allocation_profile p = r.profile();
    EXPECT_EQ(p.lifetimes[1], 1u);
    void* again = r.allocate(64);  // a size freed before: reused
    void* other = r.allocate(100000);
    p = r.profile();
    EXPECT_EQ(p.reused, 1u);
    r.deallocate(again, 64);
    r.deallocate(other, 100000);
    for (void* o : others) r.deallocate(o, 1000);
    p = r.profile();
    EXPECT_EQ(p.live_blocks(), 0u);
    EXPECT_EQ(p.peak_bytes_in_use, 3000u + 64u + 100000u) << "the three, again and other together";
    EXPECT_GE(p.size_classes(), 3u);
}

TEST(ProfilingResource, ThreadsAndCrossThreadFrees) {
    relo::profiling_resource r;
    std::vector<void*> handed;
    std::thread producer([&] {
        for (int i = 0; i < 100; ++i) handed.push_back(r.allocate(32));
    });
    producer.join();
    std::thread consumer([&] {
        for (void* p : handed) r.deallocate(p, 32);
    });
    consumer.join();
    const relo::allocation_profile p = r.profile();
    EXPECT_EQ(p.threads, 2u);
    EXPECT_EQ(p.cross_thread_frees, 100u);
    EXPECT_EQ(p.allocations, 100u);
    EXPECT_EQ(p.deallocations, 100u);
    EXPECT_EQ(relo::recommend(p).strategy, relo::allocation_strategy::synchronized_multipool);
}

/// Each thread allocates and frees `blocks` blocks of 32 bytes from every resource in turn (one block from
/// each, then the next round), as a thread using several containers over several resources does.
void allocate_in_turn(std::vector<relo::profiling_resource*>& resources, int blocks) {
    for (int i = 0; i < blocks; ++i) {
        for (relo::profiling_resource* r : resources) {
            void* p = r->allocate(32);
            r->deallocate(p, 32);
        }
    }
}

/// What a resource used by `threads` threads, each `blocks` times in turn as above, must have recorded.
void expect_exact_profile(const relo::allocation_profile& p, std::uint64_t threads, std::uint64_t blocks) {
    EXPECT_EQ(p.threads, threads) << "one record per thread and resource";
    EXPECT_EQ(p.allocations, threads * blocks);
    EXPECT_EQ(p.deallocations, threads * blocks);
    EXPECT_EQ(p.cross_thread_frees, 0u);
    EXPECT_EQ(p.reused, threads * (blocks - 1)) << "each thread's freed size, asked for again";
    EXPECT_EQ(p.live_blocks(), 0u);
    EXPECT_EQ(p.sizes[bucket(32, relo::allocation_profile::size_buckets - 1)], threads * blocks);
    std::uint64_t lifetimes = 0;
    for (std::uint64_t n : p.lifetimes) lifetimes += n;
    EXPECT_EQ(lifetimes, threads * blocks);
    EXPECT_EQ(p.lifetimes[0], threads * blocks) << "each block freed before its thread's next allocation";
}

TEST(ProfilingResource, OneThreadUsingMoreResourcesThanItsTableHolds) {
    // 6 and 20 resources: more than the thread's table of recent ones (each miss finds the thread's
    // record in the resource, never makes another).
    for (const int count : {6, 20}) {
        std::vector<std::unique_ptr<relo::profiling_resource>> owned;
        std::vector<relo::profiling_resource*> resources;
        for (int i = 0; i < count; ++i) {
            owned.push_back(std::make_unique<relo::profiling_resource>());
            resources.push_back(owned.back().get());
        }
        constexpr int blocks = 5000;
        allocate_in_turn(resources, blocks);
        for (relo::profiling_resource* r : resources) {
            const relo::allocation_profile p = r->profile();
            expect_exact_profile(p, 1, blocks);
            EXPECT_NE(relo::recommend(p).strategy, relo::allocation_strategy::synchronized_multipool)
                << "one thread: " << relo::recommend(p).text();
        }
    }
}

TEST(ProfilingResource, ThreadsUsingManyResourcesInTurn) {
    constexpr int count = 12;
    constexpr int threads = 3;
    constexpr int blocks = 2000;
    std::vector<std::unique_ptr<relo::profiling_resource>> owned;
    std::vector<relo::profiling_resource*> resources;
    for (int i = 0; i < count; ++i) {
        owned.push_back(std::make_unique<relo::profiling_resource>());
        resources.push_back(owned.back().get());
    }
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&resources, t] {
            // Each thread in another order, so that the tables evict different resources.
            std::vector<relo::profiling_resource*> mine(resources.begin() + t, resources.end());
            mine.insert(mine.end(), resources.begin(), resources.begin() + t);
            allocate_in_turn(mine, blocks);
        });
    }
    for (std::thread& w : workers) w.join();
    for (relo::profiling_resource* r : resources) expect_exact_profile(r->profile(), threads, blocks);
}

TEST(ProfilingResource, ALongLivedThreadWithResourcesComingAndGoing) {
    // The thread's table keeps entries of resources destroyed since: a new resource never takes them over.
    for (int generation = 0; generation < 50; ++generation) {
        std::vector<std::unique_ptr<relo::profiling_resource>> owned;
        std::vector<relo::profiling_resource*> resources;
        for (int i = 0; i < 1 + generation % 11; ++i) {
            owned.push_back(std::make_unique<relo::profiling_resource>());
            resources.push_back(owned.back().get());
        }
        allocate_in_turn(resources, 40);
        for (relo::profiling_resource* r : resources) expect_exact_profile(r->profile(), 1, 40);
    }
}

TEST(ProfilingResource, TextAndJson) {
    relo::profiling_resource r;
    {
        relo::vector<int, relo::resource_allocator<int, relo::profiling_resource>> v(&r);
        for (int i = 0; i < 1000; ++i) v.push_back(i);
        const relo::allocation_profile live = r.profile();
        EXPECT_GE(live.allocations, 2u);
        EXPECT_EQ(live.live_blocks(), 1u);
    }
    const relo::allocation_profile p = r.profile();
    const std::string text = p.text();
    EXPECT_NE(text.find(std::to_string(p.allocations) + " allocations (0 live)"), std::string::npos) << text;
    EXPECT_NE(text.find("sizes (bytes):"), std::string::npos);
    const std::string json = p.json();
    EXPECT_EQ(json.front(), '{');
    EXPECT_EQ(json.back(), '}');
    EXPECT_NE(json.find("\"allocations\": " + std::to_string(p.allocations)), std::string::npos) << json;
    EXPECT_NE(json.find("\"sizes\": ["), std::string::npos);
    EXPECT_NE(json.find("\"lifetimes\": ["), std::string::npos);
}

TEST(ProfilingResource, LargeAlignmentsAndZeroBytes) {
    relo::test_resource upstream("upstream");
    relo::profiling_resource r(&upstream);
    for (std::size_t alignment : {std::size_t{32}, std::size_t{64}, std::size_t{4096}}) {
        void* p = r.allocate(0, alignment);
        void* q = r.allocate(100, alignment);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q) % alignment, 0u);
        EXPECT_NE(p, q);
        r.deallocate(q, 100, alignment);
        r.deallocate(p, 0, alignment);
    }
    EXPECT_EQ(upstream.blocks_in_use(), 0u);
    EXPECT_EQ(upstream.problems(), 0u);
}

// Each branch of the recommendation, from profiles made by hand.
TEST(Recommend, EachStrategyForTheProfileThatCallsForIt) {
    relo::allocation_profile p;
    p.threads = 1;
    p.allocations = 5;
    p.total_bytes = 500;
    p.peak_bytes_in_use = 500;
    EXPECT_EQ(relo::recommend(p).strategy, relo::allocation_strategy::global_allocator);
    p.total_bytes = p.peak_bytes_in_use = 256 << 10;  // (few, even if large: the global allocator)
    EXPECT_EQ(relo::recommend(p).strategy, relo::allocation_strategy::global_allocator);

    p.allocations = 10000;
    p.total_bytes = 1000000;
    p.peak_bytes_in_use = 900000;
    const relo::allocation_recommendation monotonic = relo::recommend(p);
    EXPECT_EQ(monotonic.strategy, relo::allocation_strategy::monotonic);
    EXPECT_NE(monotonic.text().find("relo::monotonic_resource"), std::string::npos);

    p.peak_bytes_in_use = 100000;
    p.reused = 5000;
    EXPECT_EQ(relo::recommend(p).strategy, relo::allocation_strategy::multipool);

    p.reused = 0;  // (below the peak ratio the multipool, reuse or none, by default)
    const relo::allocation_recommendation pools = relo::recommend(p);
    EXPECT_EQ(pools.strategy, relo::allocation_strategy::multipool);
    EXPECT_NE(pools.text().find("0.10 of the bytes"), std::string::npos) << pools.text();
    relo::recommendation_thresholds by_reuse;
    by_reuse.multipool_reuse = 0.25;
    p.reused = 100;
    EXPECT_EQ(relo::recommend(p, by_reuse).strategy, relo::allocation_strategy::multipool_over_monotonic);
    p.reused = 5000;
    EXPECT_EQ(relo::recommend(p, by_reuse).strategy, relo::allocation_strategy::multipool);

    p.cross_thread_frees = 1;
    EXPECT_EQ(relo::recommend(p).strategy, relo::allocation_strategy::synchronized_multipool);
}

// A block that holds a large share of the peak (a table growing among other blocks): the profile cannot
// tell its owner, so the strategy is the rest of the profile's, and the recommendation names the block and
// says what its owner changes; below either threshold nothing is named.
TEST(Recommend, OneBlockThatHoldsMuchOfThePeakIsNamedNotDecided) {
    relo::allocation_profile p;
    p.threads = 1;
    p.allocations = 100000;
    p.total_bytes = 120u << 20;
    p.peak_bytes_in_use = 100u << 20;  // a monotonic profile, with one block of 32 MiB
    p.largest_allocation = 32u << 20;
    const relo::allocation_recommendation r = relo::recommend(p);
    EXPECT_EQ(r.strategy, relo::allocation_strategy::monotonic);
    EXPECT_EQ(r.owner_decides_bytes, std::uint64_t{32} << 20);
    EXPECT_NE(r.why.find("holds 0.32 of the peak"), std::string::npos) << r.why;
    EXPECT_NE(r.why.find("if a relo container owns it"), std::string::npos) << r.why;

    p.peak_bytes_in_use = 200u << 20;  // the block under a quarter of the peak
    p.total_bytes = 220u << 20;
    EXPECT_EQ(relo::recommend(p).strategy, relo::allocation_strategy::monotonic);
    EXPECT_EQ(relo::recommend(p).owner_decides_bytes, 0u);

    p.largest_allocation = 768u << 10;  // most of a small peak, but under the size threshold
    p.peak_bytes_in_use = 1u << 20;
    p.total_bytes = 1u << 20;
    EXPECT_EQ(relo::recommend(p).strategy, relo::allocation_strategy::monotonic);
    EXPECT_EQ(relo::recommend(p).owner_decides_bytes, 0u);
}

// A workload none of the rules came from: a std::pmr::vector of 30,000 std::pmr::strings on the profiler.
// The vector's buffer holds much of the peak, but a standard container grows it by copying on any
// resource: the strategy is the strings' (monotonic), and the buffer is named for its owner to decide.
TEST(Recommend, AStandardContainersLargeBufferGoesWithTheRest) {
    relo::profiling_resource profiler;
    {
        std::pmr::vector<std::pmr::string> strings(&profiler);
        for (int i = 0; i < 30000; ++i)
            strings.emplace_back("a string too long for the small buffer #" + std::to_string(i));
    }
    const relo::allocation_profile p = profiler.profile();
    const relo::allocation_recommendation r = relo::recommend(p);
    EXPECT_EQ(r.strategy, relo::allocation_strategy::monotonic) << r.text();
    EXPECT_EQ(r.owner_decides_bytes, p.largest_allocation) << r.text();
    EXPECT_GE(p.largest_allocation, std::uint64_t{1} << 20);
}

TEST(ProfilingResource, RecordsTheLargestAllocation) {
    relo::profiling_resource r;
    void* a = r.allocate(100);
    void* b = r.allocate(5000);
    void* c = r.allocate(300);
    r.deallocate(b, 5000);
    EXPECT_EQ(r.profile().largest_allocation, 5000u) << "freed or not";
    std::thread([&] { r.deallocate(r.allocate(7000), 7000); }).join();
    EXPECT_EQ(r.profile().largest_allocation, 7000u) << "over every thread's record";
    r.deallocate(a, 100);
    r.deallocate(c, 300);
}

}  // namespace
}  // namespace relo_test
