// The per-thread cache of the chunks relo's local resources give back to the global heap
// (relo/chunk_cache.hpp): what is kept, for whom, up to what, and that it all goes back.
#include "relo/chunk_cache.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <memory_resource>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "checking_resource.hpp"
#include "relo/monotonic_resource.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/synchronized_multipool_resource.hpp"

namespace relo_test {
namespace {

/// Restores the limit and empties the calling thread's cache around each test.
class ChunkCache : public ::testing::Test {
protected:
    void SetUp() override {
        saved_ = relo::chunk_cache_limit();
        relo::trim_chunk_cache();
    }
    void TearDown() override {
        relo::set_chunk_cache_limit(saved_);
        relo::trim_chunk_cache();
    }

private:
    std::size_t saved_ = 0;
};

/// Fills a multipool with blocks of a few sizes; returns the addresses handed out.
std::set<void*> fill(relo::multipool_resource& r, int blocks) {
    std::set<void*> out;
    for (int i = 0; i < blocks; ++i) {
        void* p = r.allocate(static_cast<std::size_t>(16 << (i % 4)));
        std::memset(p, 0x5a, static_cast<std::size_t>(16 << (i % 4)));
        out.insert(p);
    }
    return out;
}

TEST_F(ChunkCache, AResourceOnTheGlobalHeapLeavesItsChunksForTheNextOne) {
    std::set<void*> first;
    {
        relo::multipool_resource r;
        first = fill(r, 2000);
        EXPECT_EQ(relo::chunk_cache_bytes(), 0u);
    }
    const std::size_t kept = relo::chunk_cache_bytes();
    EXPECT_GT(kept, 0u);
    EXPECT_LE(kept, relo::chunk_cache_limit());
    {
        relo::multipool_resource r;
        const std::set<void*> second = fill(r, 2000);  // the same requests: the same chunk sizes
        EXPECT_EQ(second, first);                      // served from the cached chunks
        EXPECT_LT(relo::chunk_cache_bytes(), kept);
    }
    EXPECT_EQ(relo::chunk_cache_bytes(), kept);
}

// Blocks larger than the largest class pass through to the global heap, and take the chunks' way too: a
// hash table's bucket arrays, freed while it grows and when it goes, come back to the next one (without
// it glibc trimmed the heap's top and the next structure faulted them in again).
TEST_F(ChunkCache, BlocksPassedThroughComeBackToTheNextResource) {
    const std::size_t sizes[] = {5000, 20000, 100000};
    std::vector<void*> first;
    {
        relo::multipool_resource r;
        for (std::size_t bytes : sizes) {
            void* p = r.allocate(bytes);
            std::memset(p, 0x5a, bytes);
            first.push_back(p);
        }
        EXPECT_EQ(r.upstream_blocks(), 3u);
        r.deallocate(first[0], sizes[0]);  // freed while the resource lives: kept as well
        EXPECT_GE(relo::chunk_cache_bytes(), sizes[0]);
        EXPECT_EQ(r.upstream_blocks(), 2u);
    }
    const std::size_t kept = relo::chunk_cache_bytes();
    EXPECT_GE(kept, sizes[0] + sizes[1] + sizes[2]);
    relo::multipool_resource r;
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(r.allocate(sizes[i]), first[i]) << sizes[i];
    EXPECT_EQ(relo::chunk_cache_bytes(), 0u);
    EXPECT_EQ(r.upstream_blocks(), 3u);
    // Aligned more than the global heap's fast path: straight back to the heap, never cached.
    r.release();
    const std::size_t before = relo::chunk_cache_bytes();
    void* aligned = r.allocate(8192, 4096);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned) % 4096, 0u);
    r.deallocate(aligned, 8192, 4096);
    EXPECT_EQ(relo::chunk_cache_bytes(), before);
}

TEST_F(ChunkCache, MonotonicChunksToo) {
    std::vector<void*> first;
    {
        relo::monotonic_resource r;
        for (int i = 0; i < 1000; ++i) first.push_back(r.allocate(100));
    }
    EXPECT_GT(relo::chunk_cache_bytes(), 0u);
    relo::monotonic_resource r;
    for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(r.allocate(100), first[i]) << i;
}

TEST_F(ChunkCache, TheLimitBoundsWhatIsKept) {
    relo::set_chunk_cache_limit(64 << 10);
    {
        relo::multipool_resource r;
        fill(r, 20000);
        EXPECT_GT(r.upstream_bytes(), std::size_t{64} << 10);
    }
    EXPECT_GT(relo::chunk_cache_bytes(), 0u);
    EXPECT_LE(relo::chunk_cache_bytes(), std::size_t{64} << 10);
    relo::set_chunk_cache_limit(0);
    relo::trim_chunk_cache();
    {
        relo::multipool_resource r;
        fill(r, 2000);
    }
    EXPECT_EQ(relo::chunk_cache_bytes(), 0u);
}

TEST_F(ChunkCache, OtherUpstreamsGetEveryChunkBack) {
    checking_resource upstream;
    {
        relo::multipool_resource pool(&upstream);
        fill(pool, 2000);
        relo::monotonic_resource mono(&upstream);
        for (int i = 0; i < 1000; ++i) mono.allocate(100);
        EXPECT_GT(upstream.live_blocks(), 0u);
    }
    EXPECT_EQ(upstream.live_blocks(), 0u);  // (checking_resource also checks every size and alignment)
    EXPECT_EQ(relo::chunk_cache_bytes(), 0u);
}

TEST_F(ChunkCache, TrimGivesEverythingBack) {
    {
        relo::multipool_resource r;
        fill(r, 2000);
    }
    EXPECT_GT(relo::chunk_cache_bytes(), 0u);
    relo::trim_chunk_cache();
    EXPECT_EQ(relo::chunk_cache_bytes(), 0u);
}

// A resource made on one thread and destroyed on another leaves its chunks with the second; a thread's
// cache is emptied when the thread ends (LeakSanitizer, in the sanitizer build, would see it otherwise).
TEST_F(ChunkCache, ThreadsKeepTheirOwnAndEmptyThemWhenTheyEnd) {
    auto made_here = std::make_unique<relo::multipool_resource>();
    fill(*made_here, 2000);
    std::size_t kept_there = 0, left_there = 1;
    std::thread([&] {
        made_here.reset();
        kept_there = relo::chunk_cache_bytes();
        relo::multipool_resource own;
        fill(own, 500);
        left_there = relo::chunk_cache_bytes();
    }).join();
    EXPECT_GT(kept_there, 0u);
    EXPECT_LT(left_there, kept_there);
    EXPECT_EQ(relo::chunk_cache_bytes(), 0u);  // nothing came to this thread
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([] {
            for (int round = 0; round < 20; ++round) {
                relo::synchronized_multipool_resource r;
                for (int i = 0; i < 200; ++i) r.allocate(static_cast<std::size_t>(8 + i % 300));
            }
        });
    for (std::thread& t : threads) t.join();
}

}  // namespace
}  // namespace relo_test
