// tests/synchronized_multipool_resource_test.cpp — relo::synchronized_multipool_resource: what a multipool
// does, from one thread; then eight threads allocating, handing blocks to each other and freeing them
// (run under ThreadSanitizer by ./relo.sh test), with every block's contents checked and everything given
// back to a checking upstream at the end; and threads that outlive a resource whose bins they hold (they
// end, or move to other resources, before, while or after it is destroyed).
#include "relo/synchronized_multipool_resource.hpp"
#include "relo/warm_memory.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "checking_resource.hpp"
#include "resource_workout.hpp"

namespace relo_test {
namespace {

using relo::synchronized_multipool_resource;

/// checking_resource behind a mutex: the shards call their upstream from several threads.
class locked_checking_resource final : public std::pmr::memory_resource {
public:
    checking_resource& checked() { return inner_; }

private:
    std::mutex mutex_;
    checking_resource inner_;
    void* do_allocate(std::size_t bytes, std::size_t alignment) override {
        const std::lock_guard<std::mutex> lock(mutex_);
        return inner_.allocate(bytes, alignment);
    }
    void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
        const std::lock_guard<std::mutex> lock(mutex_);
        inner_.deallocate(p, bytes, alignment);
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

TEST(SynchronizedMultipoolResource, ShardsAndClasses) {
    synchronized_multipool_resource r;
    EXPECT_GE(r.shard_count(), 4u);
    EXPECT_EQ(r.shard_count() & (r.shard_count() - 1), 0u);
    for (std::size_t alignment = 1; alignment <= 8192; alignment *= 2) {
        for (std::size_t bytes : {std::size_t{1}, std::size_t{24}, std::size_t{4096}, std::size_t{5000}}) {
            void* p = r.allocate(bytes, alignment);
            ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u);
            std::memset(p, 1, bytes);
            r.deallocate(p, bytes, alignment);
        }
    }
    EXPECT_EQ(r.bytes_in_use(), 0u);
}

TEST(SynchronizedMultipoolResource, ContainersUnderRandomOperations) {
    locked_checking_resource upstream;
    {
        synchronized_multipool_resource r(&upstream);
        random_container_workout(r, 31, 50000);
        r.release();
        EXPECT_EQ(upstream.checked().live_blocks(), 0u);
    }
}

struct handed_block {
    unsigned char* p;
    std::size_t bytes;
    unsigned char mark;
};

// Eight threads allocate blocks of 8 to 600 bytes and now and then 5000 to 20000 (the upstream), fill each
// with a mark, free some themselves and hand the others to whichever thread takes them next; the taker
// checks the mark and frees the block. At the end nothing is in use, and release() gives the upstream
// everything back.
// The upstream failing at each of its allocations under containers (one thread): std::bad_alloc, the
// containers as their guarantee says, nothing leaked.
TEST(SynchronizedMultipoolResource, UpstreamFailuresUnderContainers) {
    EXPECT_GE(at_every_upstream_failure(
        [](std::pmr::memory_resource* upstream) { return std::make_unique<synchronized_multipool_resource>(upstream); }),
              5);
}

TEST(SynchronizedMultipoolResource, EightThreadsAllocatingAndFreeingEachOthersBlocks) {
    locked_checking_resource upstream;
    synchronized_multipool_resource r(&upstream);
    std::mutex exchange_mutex;
    std::deque<handed_block> exchange;
    std::atomic<long> bad_marks{0};
    const int threads = 8, operations = 20000;
    auto check_and_free = [&](const handed_block& b) {
        for (std::size_t k = 0; k < b.bytes; k += 7)
            if (b.p[k] != b.mark) ++bad_marks;
        r.deallocate(b.p, b.bytes, 8);
    };
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            std::mt19937 rng(static_cast<unsigned>(t) + 100);
            std::vector<handed_block> mine;
            for (int i = 0; i < operations; ++i) {
                const unsigned roll = rng() % 100;
                if (roll < 55 || mine.empty()) {
                    const std::size_t bytes = roll < 2 ? 5000 + rng() % 15000 : 8 + rng() % 593;
                    auto* p = static_cast<unsigned char*>(r.allocate(bytes, 8));
                    const auto mark = static_cast<unsigned char>(rng());
                    std::memset(p, mark, bytes);
                    mine.push_back({p, bytes, mark});
                } else if (roll < 80) {
                    const std::lock_guard<std::mutex> lock(exchange_mutex);
                    exchange.push_back(mine.back());
                    mine.pop_back();
                } else if (roll < 90) {
                    handed_block b{nullptr, 0, 0};
                    {
                        const std::lock_guard<std::mutex> lock(exchange_mutex);
                        if (!exchange.empty()) {
                            b = exchange.front();
                            exchange.pop_front();
                        }
                    }
                    if (b.p != nullptr) check_and_free(b);
                } else {
                    check_and_free(mine.back());
                    mine.pop_back();
                }
            }
            for (const handed_block& b : mine) check_and_free(b);
        });
    }
    for (std::thread& w : workers) w.join();
    // The blocks still handed out, at their classes' sizes (powers of two from 8 to 4096) or their own,
    // although the threads that took them and gave them back, and those bins, are gone.
    std::size_t expected_in_use = 0;
    for (const handed_block& b : exchange) {
        std::size_t class_size = 8;
        while (class_size < b.bytes) class_size *= 2;
        expected_in_use += b.bytes > 4096 ? b.bytes : class_size;
    }
    EXPECT_EQ(r.bytes_in_use(), expected_in_use);
    for (const handed_block& b : exchange) check_and_free(b);
    EXPECT_EQ(bad_marks.load(), 0);
    EXPECT_EQ(r.bytes_in_use(), 0u);
    r.release();
    EXPECT_EQ(upstream.checked().live_blocks(), 0u);
}

/// A queue of at most `limit` blocks between one producer and one consumer.
class block_queue {
public:
    explicit block_queue(std::size_t limit) : limit_(limit) {}
    void push(const handed_block& b) {
        std::unique_lock<std::mutex> lock(mutex_);
        room_.wait(lock, [&] { return blocks_.size() < limit_; });
        blocks_.push_back(b);
        ready_.notify_one();
    }
    handed_block pop() {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [&] { return !blocks_.empty(); });
        const handed_block b = blocks_.front();
        blocks_.pop_front();
        room_.notify_one();
        return b;
    }

private:
    std::size_t limit_;
    std::mutex mutex_;
    std::condition_variable room_, ready_;
    std::deque<handed_block> blocks_;
};

/// The bytes a resource may hold beyond its blocks in use: two batches of 16 KiB for every class in
/// every shard, the depot's share of the same, and a chunk of 64 KiB for every class and shard that was
/// begun but not used up.
std::size_t slack_of(synchronized_multipool_resource& r) {
    const std::size_t classes = 10;  // (the default options)
    return r.shard_count() * classes * (2 * (16u << 10) + (64u << 10)) + (1u << 20);
}

// One thread allocates blocks of 8 to 512 bytes and hands them through a queue of at most 1,024 to
// another, which frees them: the freed blocks come back to the producer through the depot, and the memory
// the resource holds stays near the 1,024 blocks in flight (without the depot it held every block ever
// allocated: 2^16 blocks, about 17 MB).
TEST(SynchronizedMultipoolResource, ProducerConsumerMemoryStaysBounded) {
    locked_checking_resource upstream;
    synchronized_multipool_resource r(&upstream);
    block_queue queue(1024);
    const long blocks = 1 << 16;
    std::atomic<long> bad_marks{0};
    std::size_t most_held = 0;
    std::thread producer([&] {
        std::mt19937 rng(7);
        for (long i = 0; i < blocks; ++i) {
            const std::size_t bytes = 8 + rng() % 505;
            auto* p = static_cast<unsigned char*>(r.allocate(bytes, 8));
            const auto mark = static_cast<unsigned char>(i);
            std::memset(p, mark, bytes);
            queue.push({p, bytes, mark});
            if (i % 4096 == 0) {
                const std::size_t held = r.upstream_bytes();
                if (held > most_held) most_held = held;
            }
        }
    });
    std::thread consumer([&] {
        for (long i = 0; i < blocks; ++i) {
            const handed_block b = queue.pop();
            if (b.p[0] != b.mark || b.p[b.bytes - 1] != b.mark) ++bad_marks;
            r.deallocate(b.p, b.bytes, 8);
        }
    });
    producer.join();
    consumer.join();
    EXPECT_EQ(bad_marks.load(), 0);
    EXPECT_EQ(r.bytes_in_use(), 0u);
    const std::size_t in_flight = 1025 * 512;
    EXPECT_LE(most_held, in_flight + slack_of(r));
    EXPECT_LE(r.upstream_bytes(), in_flight + slack_of(r));
    r.release();
    EXPECT_EQ(upstream.checked().live_blocks(), 0u);
}

// A thread frees 20,000 blocks another allocated, and exits; a third thread then allocates as many of the
// same size: they come from the depot, not from new chunks.
TEST(SynchronizedMultipoolResource, BlocksFreedByAThreadThatHasExitedAreReused) {
    synchronized_multipool_resource r;
    const std::size_t count = 20000, bytes = 64;
    std::vector<void*> blocks(count);
    std::thread([&] {
        for (void*& p : blocks) p = r.allocate(bytes, 8);
    }).join();
    std::thread([&] {
        for (void* p : blocks) r.deallocate(p, bytes, 8);
    }).join();
    EXPECT_GT(r.depot_blocks(bytes, 8), count / 2);
    const std::size_t held = r.upstream_bytes();
    std::thread([&] {
        for (void*& p : blocks) p = r.allocate(bytes, 8);
    }).join();
    EXPECT_LE(r.upstream_bytes(), held + (128u << 10));  // (at most the rest of a chunk and one more)
    std::set<void*> distinct(blocks.begin(), blocks.end());
    EXPECT_EQ(distinct.size(), count);
    for (void* p : blocks) r.deallocate(p, bytes, 8);
    EXPECT_EQ(r.bytes_in_use(), 0u);
}

/// Stages two threads go through in step: one waits for a stage, the other advances to the next.
class stages {
public:
    void wait_for(int n) {
        std::unique_lock<std::mutex> lock(mutex_);
        reached_.wait(lock, [&] { return stage_ >= n; });
    }
    void advance() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            ++stage_;
        }
        reached_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable reached_;
    int stage_ = 0;
};

/// One round of a thread's own batch: `count` blocks of `bytes` allocated (each written), then freed.
std::vector<void*> own_batch(synchronized_multipool_resource& r, std::size_t count, std::size_t bytes) {
    std::vector<void*> blocks(count);
    for (void*& p : blocks) {
        p = r.allocate(bytes, 8);
        std::memset(p, 5, bytes);
    }
    for (void* p : blocks) r.deallocate(p, bytes, 8);
    return blocks;
}

constexpr std::size_t batch_of_64 = 256;  // (a batch: 16 KiB of blocks)

/// Room in the process's warm budget for `bytes` more than its caches hold now (earlier tests' chunks may
/// fill it), for the life of the object: a bin's raised limit takes from it.
class warm_room {
public:
    explicit warm_room(std::size_t bytes) : limit_(relo::warm_memory_limit()) {
        relo::set_warm_memory_limit(relo::warm_memory().process_bytes + bytes);
    }
    ~warm_room() { relo::set_warm_memory_limit(limit_); }
    warm_room(const warm_room&) = delete;
    warm_room& operator=(const warm_room&) = delete;

private:
    std::size_t limit_;
};

// A thread that allocates many blocks of a class and frees them keeps them in its bin: the first round
// hands the depot what its bin cannot hold (two batches), and the bin's limit rises by those batches when
// the second round runs it empty. From then on a round takes no block from the shards or the depot.
TEST(SynchronizedMultipoolResource, ABatchFreedByItsOwnThreadStaysInItsBin) {
    const warm_room room(8u << 20);
    locked_checking_resource upstream;
    synchronized_multipool_resource r(&upstream);
    std::thread([&] {
        (void)own_batch(r, 2000, 64);
        EXPECT_LE(r.own_bin_blocks(64, 8), 2 * batch_of_64);
        EXPECT_GT(r.depot_blocks(64, 8), 0u);
        const std::vector<void*> second = own_batch(r, 2000, 64);
        EXPECT_GE(r.own_bin_blocks(64, 8), second.size());  // (and what is left of the last batch it took)
        EXPECT_EQ(r.depot_blocks(64, 8), 0u);
        const std::size_t held = r.upstream_bytes();
        const std::vector<void*> third = own_batch(r, 2000, 64);
        EXPECT_EQ(r.upstream_bytes(), held);
        EXPECT_EQ(std::set<void*>(third.begin(), third.end()), std::set<void*>(second.begin(), second.end()));
        EXPECT_EQ(r.depot_blocks(64, 8), 0u);
    }).join();
    EXPECT_EQ(r.bytes_in_use(), 0u);
    r.release();
    EXPECT_EQ(upstream.checked().live_blocks(), 0u);
}

/// Frees `blocks` (of 64 bytes) from the calling thread and returns its bin's count after.
std::size_t free_all(synchronized_multipool_resource& r, const std::vector<void*>& blocks) {
    for (void* p : blocks) r.deallocate(p, 64, 8);
    return r.own_bin_blocks(64, 8);
}

/// `count` blocks of 64 bytes allocated by the calling thread.
std::vector<void*> foreign_blocks(synchronized_multipool_resource& r, std::size_t count = 20000) {
    std::vector<void*> blocks(count);
    for (void*& p : blocks) p = r.allocate(64, 8);
    return blocks;
}

// A thread that only frees (blocks another thread allocated) keeps two batches in its bin and hands the
// rest to the depot, whose blocks another thread then takes; and one whose limit rose brings it down
// again once it only frees.
TEST(SynchronizedMultipoolResource, AThreadThatOnlyFreesHandsItsBlocksOn) {
    const warm_room room(8u << 20);
    synchronized_multipool_resource r;
    const std::vector<void*> foreign = foreign_blocks(r);
    std::thread([&] {
        EXPECT_LE(free_all(r, std::vector<void*>(foreign.begin(), foreign.begin() + 10000)), 2 * batch_of_64);
    }).join();
    std::thread([&] {
        (void)own_batch(r, 2000, 64);
        (void)own_batch(r, 2000, 64);
        EXPECT_GE(r.own_bin_blocks(64, 8), 2000u);  // (its limit rose)
        EXPECT_LE(free_all(r, std::vector<void*>(foreign.begin() + 10000, foreign.end())), 2 * batch_of_64);
        EXPECT_GE(r.depot_blocks(64, 8), foreign.size() - 4 * batch_of_64);  // (and came down)
    }).join();
    std::thread([&] {  // (the depot's blocks, taken by another thread)
        EXPECT_LE(free_all(r, foreign_blocks(r)), 2 * batch_of_64);
    }).join();
    EXPECT_EQ(r.bytes_in_use(), 0u);
}

// A thread's raised limits end with it (the next thread to take its bins starts from two batches) and
// give their warm budget back (with room for one thread's raise, the next thread raises too); and they
// end with release().
TEST(SynchronizedMultipoolResource, RaisedLimitsEndWithTheirThreadAndWithRelease) {
    synchronized_multipool_resource r;
    // (Allocated first, so that this thread has bins of its own and each thread below takes the bins the
    // one before it left. Fewer blocks than a raised limit holds, and than the overflows that would bring
    // it down.)
    const std::vector<void*> foreign = foreign_blocks(r, 1500);
    {
        const warm_room room(100u << 10);  // (a raise: 6 batches, 96 KiB)
        for (int t = 0; t < 2; ++t) {
            std::thread([&] {
                (void)own_batch(r, 2000, 64);
                (void)own_batch(r, 2000, 64);
                EXPECT_GE(r.own_bin_blocks(64, 8), 2000u) << "thread " << t;
            }).join();
        }
    }
    std::thread([&] {  // (takes the ended threads' bins)
        EXPECT_LE(free_all(r, foreign), 2 * batch_of_64);
    }).join();

    stages stage;
    const auto wait_for = [&](int n) { stage.wait_for(n); };
    const auto advance = [&] { stage.advance(); };
    std::vector<void*> after_release;
    const warm_room room(8u << 20);
    std::thread worker([&] {
        (void)own_batch(r, 2000, 64);
        (void)own_batch(r, 2000, 64);
        EXPECT_GE(r.own_bin_blocks(64, 8), 2000u);
        advance();  // 1: the limit rose
        wait_for(2);
        EXPECT_LE(free_all(r, after_release), 2 * batch_of_64);
    });
    wait_for(1);
    r.release();
    after_release = foreign_blocks(r, 1500);
    advance();  // 2: released, and blocks to free
    worker.join();
    EXPECT_EQ(r.bytes_in_use(), 0u);
}

// relo::trim_warm_memory() gives the calling thread's bins back, their raised limits' warm budget with
// them, while the thread lives on (its blocks go to the depots); threads that do not trim keep theirs.
TEST(SynchronizedMultipoolResource, TrimWarmMemoryGivesTheThreadsBinsBack) {
    const warm_room room(8u << 20);
    synchronized_multipool_resource r;
    stages stage;
    const int threads = 4;
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            (void)own_batch(r, 2000, 64);
            (void)own_batch(r, 2000, 64);
            EXPECT_GE(r.own_bin_blocks(64, 8), 2000u);  // (its limit rose)
            stage.advance();  // 1 to 4: every thread's bins are raised
            stage.wait_for(threads + 1 + t);
            if (t % 2 == 0) {
                relo::trim_warm_memory();
                EXPECT_EQ(r.own_bin_blocks(64, 8), 0u);
            }
            stage.advance();  // 6 to 9: each in turn, trimmed or not
            stage.wait_for(2 * threads + 2);
        });
    }
    stage.wait_for(threads);
    const std::size_t raised = relo::warm_memory().process_bytes;
    const std::size_t depot = r.depot_blocks(64, 8);
    stage.advance();  // 5
    stage.wait_for(2 * threads + 1);
    const std::size_t trimmed = relo::warm_memory().process_bytes;
    EXPECT_GE(raised - trimmed, 2 * (16u << 10)) << "two threads trimmed, each had raised its bin by a batch";
    EXPECT_GE(r.depot_blocks(64, 8), depot + 2 * 2000) << "the trimmed bins' blocks went to the depot";
    stage.advance();  // 2 * threads + 2: end
    for (std::thread& w : workers) w.join();
    EXPECT_LE(relo::warm_memory().process_bytes + 2 * (16u << 10), trimmed)
        << "the two that did not trim kept theirs until their end";
    EXPECT_EQ(r.bytes_in_use(), 0u);
}

// No raise without the process's warm budget: a thread whose batches cannot stay keeps two batches.
TEST(SynchronizedMultipoolResource, NoRaiseWithoutWarmBudget) {
    synchronized_multipool_resource r;
    {
        const warm_room none(0);
        std::thread([&] {
            (void)own_batch(r, 2000, 64);
            (void)own_batch(r, 2000, 64);
            EXPECT_LT(r.own_bin_blocks(64, 8), 3 * batch_of_64);
        }).join();
    }
    EXPECT_EQ(r.bytes_in_use(), 0u);
}

// What a thread's bins keep past two batches a class is bounded: 4 MiB a resource.
TEST(SynchronizedMultipoolResource, WhatABinKeepsIsBounded) {
    const warm_room room(8u << 20);
    synchronized_multipool_resource r;
    std::thread([&] {
        const std::size_t batch = 32;  // (512-byte blocks: 16 KiB)
        const std::size_t bound = 2 * batch + (std::size_t{4} << 20) / 512;
        const std::vector<void*> blocks = own_batch(r, 10000, 512);  // (5 MB: more than the bins may keep)
        (void)own_batch(r, 10000, 512);
        EXPECT_GT(r.own_bin_blocks(512, 8), 2 * batch);  // (it rose)
        EXPECT_LE(r.own_bin_blocks(512, 8), bound + batch);
        EXPECT_GE(r.depot_blocks(512, 8), blocks.size() - bound - batch);
    }).join();
    EXPECT_EQ(r.bytes_in_use(), 0u);
}

// release() while the depot and the shards hold freed blocks of other threads: everything goes back to the
// upstream, the depot is empty, and the resource serves again.
TEST(SynchronizedMultipoolResource, ReleaseWhileTheDepotHoldsBlocks) {
    locked_checking_resource upstream;
    synchronized_multipool_resource r(&upstream);
    std::vector<void*> blocks(5000);
    for (void*& p : blocks) p = r.allocate(24, 8);
    std::thread([&] {
        for (void* p : blocks) r.deallocate(p, 24, 8);
    }).join();
    EXPECT_GT(r.depot_blocks(24, 8), 0u);
    r.release();
    EXPECT_EQ(upstream.checked().live_blocks(), 0u);
    EXPECT_EQ(r.depot_blocks(24, 8), 0u);
    for (void*& p : blocks) {
        p = r.allocate(24, 8);
        std::memset(p, 3, 24);
    }
    for (void* p : blocks) r.deallocate(p, 24, 8);
    r.release();
    EXPECT_EQ(upstream.checked().live_blocks(), 0u);
}

// release() while another thread, alive but idle, holds freed blocks in its bin: everything goes back to
// the upstream, and that thread's next allocations come from new chunks.
TEST(SynchronizedMultipoolResource, ReleaseWhileAnotherThreadsBinHoldsBlocks) {
    locked_checking_resource upstream;
    synchronized_multipool_resource r(&upstream);
    stages stage;
    const auto wait_for = [&](int n) { stage.wait_for(n); };
    const auto advance = [&] { stage.advance(); };
    std::thread worker([&] {
        std::vector<void*> blocks(100);
        for (void*& p : blocks) p = r.allocate(40, 8);
        for (void* p : blocks) r.deallocate(p, 40, 8);
        EXPECT_GT(r.own_bin_blocks(40, 8), 0u);
        advance();  // 1: the bin holds blocks
        wait_for(2);
        EXPECT_EQ(r.own_bin_blocks(40, 8), 0u);
        for (void*& p : blocks) {
            p = r.allocate(40, 8);
            std::memset(p, 9, 40);
        }
        for (void* p : blocks) r.deallocate(p, 40, 8);
    });
    wait_for(1);
    r.release();
    EXPECT_EQ(upstream.checked().live_blocks(), 0u);
    advance();  // 2: released
    worker.join();
    EXPECT_EQ(r.bytes_in_use(), 0u);
    r.release();
    EXPECT_EQ(upstream.checked().live_blocks(), 0u);
}

// release() while threads that used the resource end (giving their bins back) or move to another one:
// each give-back waits for the release or comes before it, so no block of a released chunk reaches a depot
// (AddressSanitizer: a use after free; the checking upstream: a block counted twice), in 40 rounds.
TEST(SynchronizedMultipoolResource, ReleaseWhileThreadsGiveTheirBinsBack) {
    locked_checking_resource upstream;
    synchronized_multipool_resource r(&upstream);
    for (int round = 0; round < 150; ++round) {
        std::atomic<int> done{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 3; ++t) {
            threads.emplace_back([&, t] {
                std::vector<void*> blocks(300);
                for (void*& p : blocks) p = r.allocate(48, 8);
                for (void* p : blocks) r.deallocate(p, 48, 8);
                ++done;  // (done with r: its bins hold blocks)
                if (t == 0) {  // (moves on: its slot for r is given back when the table needs it)
                    std::vector<std::unique_ptr<synchronized_multipool_resource>> others;
                    for (int k = 0; k < 4; ++k) {
                        others.push_back(std::make_unique<synchronized_multipool_resource>());
                        others.back()->deallocate(others.back()->allocate(48, 8), 48, 8);
                    }
                }
            });
        }
        while (done.load() != 3) std::this_thread::yield();
        r.release();
        for (std::thread& t : threads) t.join();
        EXPECT_EQ(r.bytes_in_use(), 0u) << "round " << round;
        std::vector<void*> again(600);
        for (void*& p : again) {
            p = r.allocate(48, 8);
            std::memset(p, 7, 48);
        }
        EXPECT_EQ(std::set<void*>(again.begin(), again.end()).size(), again.size()) << "a block handed out twice";
        for (void* p : again) r.deallocate(p, 48, 8);
        r.release();
        EXPECT_EQ(upstream.checked().live_blocks(), 0u) << "round " << round;
    }
}

// release() of a pool over another, on a thread whose table then needs a slot for the upstream pool: the
// chunks going back to the upstream make it evict the released pool's own slot (its least recent), whose
// bins release() holds; that give-back leaves them to the release instead of waiting for it (it waited for
// good, on its own thread). Run on a thread of its own, so that a hang fails the test.
TEST(SynchronizedMultipoolResource, ReleaseThatEvictsItsOwnBins) {
    std::atomic<bool> done{false};
    std::thread([&] {
        synchronized_multipool_resource bottom;
        synchronized_multipool_resource top(&bottom);
        top.deallocate(top.allocate(16, 8), 16, 8);  // (table: bottom, top: top's chunk came from bottom)
        top.deallocate(top.allocate(16, 8), 16, 8);  // (top first again, from its bin: no chunk)
        std::vector<std::unique_ptr<synchronized_multipool_resource>> others;
        for (int k = 0; k < 3; ++k) {
            others.push_back(std::make_unique<synchronized_multipool_resource>());
            others.back()->deallocate(others.back()->allocate(16, 8), 16, 8);
        }  // (table: the three others, then top; bottom evicted)
        top.release();
        EXPECT_EQ(top.bytes_in_use(), 0u);
        void* p = top.allocate(16, 8);
        std::memset(p, 1, 16);
        top.deallocate(p, 16, 8);
        done = true;
    }).detach();
    for (int k = 0; k < 2000 && !done.load(); ++k) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!done.load()) {
        ADD_FAILURE() << "release() waited for its own thread's give-back";
        std::fflush(nullptr);
        std::_Exit(1);
    }
}

// One thread on more resources than its table keeps bins for (so bins are given back as it moves between
// them), some of the resources destroyed while the thread still holds their bins, the thread ending after
// that: every block comes back, nothing touches a destroyed resource (AddressSanitizer, ThreadSanitizer).
TEST(SynchronizedMultipoolResource, ThreadsOnManyResourcesSomeDestroyedFirst) {
    std::vector<std::unique_ptr<synchronized_multipool_resource>> resources;
    for (int k = 0; k < 7; ++k) resources.push_back(std::make_unique<synchronized_multipool_resource>());
    std::mutex m;
    std::condition_variable cv;
    bool halfway = false, destroyed = false;
    std::thread worker([&] {
        std::mt19937 rng(5);
        auto work = [&](std::size_t first) {
            for (int round = 0; round < 200; ++round) {
                synchronized_multipool_resource& r = *resources[first + rng() % (resources.size() - first)];
                std::vector<void*> blocks(20);
                const std::size_t bytes = 8 + rng() % 300;
                for (void*& p : blocks) p = r.allocate(bytes, 8);
                for (void* p : blocks) r.deallocate(p, bytes, 8);
            }
        };
        work(0);
        {
            const std::lock_guard<std::mutex> lock(m);
            halfway = true;
        }
        cv.notify_all();
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return destroyed; });
        lock.unlock();
        work(3);  // (resources 0-2 are gone)
    });
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return halfway; });
        for (int k = 0; k < 3; ++k) resources[k].reset();
        destroyed = true;
    }
    cv.notify_all();
    worker.join();
    for (std::size_t k = 3; k < resources.size(); ++k) EXPECT_EQ(resources[k]->bytes_in_use(), 0u);
}

// Threads outlive a resource whose bins they hold: destroying it gives back the warm budget their raised
// limits took (their bins are theirs to free from then on), and when they end, one after using another
// resource, their bins are freed (LeakSanitizer: ./relo.sh test) and no budget is given back twice.
TEST(SynchronizedMultipoolResource, ThreadsThatOutliveTheirResource) {
    const warm_room room(8u << 20);
    locked_checking_resource upstream;  // (a user's upstream: its chunks are not kept warm by any thread)
    auto r = std::make_unique<synchronized_multipool_resource>(&upstream);
    synchronized_multipool_resource other(&upstream);
    stages stage;
    const int threads = 4;
    std::atomic<int> raised{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            (void)own_batch(*r, 2000, 64);
            (void)own_batch(*r, 2000, 64);
            if (r->own_bin_blocks(64, 8) >= 2000) ++raised;  // (its limit rose)
            stage.advance();  // 1 to 4: each thread's bins are raised and idle
            stage.wait_for(threads + 1);
            if (t % 2 == 0) (void)own_batch(other, 100, 64);  // (a slot for another resource first)
        });
    }
    stage.wait_for(threads);
    EXPECT_EQ(raised.load(), threads);
    const std::size_t with_raises = relo::warm_memory().process_bytes;
    r.reset();
    const std::size_t without = relo::warm_memory().process_bytes;
    EXPECT_GE(with_raises - without, threads * (16u << 10)) << "each raise was a batch of 16 KiB at least";
    EXPECT_EQ(upstream.checked().live_bytes(), other.upstream_bytes());
    stage.advance();  // 5: the resource is gone
    for (std::thread& w : workers) w.join();
    EXPECT_EQ(relo::warm_memory().process_bytes, without);  // (nothing given back twice)
    EXPECT_EQ(other.bytes_in_use(), 0u);
}

// A thread's table holds bins of a resource that was destroyed, and another is made at its address: the
// thread takes bins of the new one (not the old one's, whose blocks were in chunks given back: a use
// after free under AddressSanitizer), then uses more resources than its table holds (the old slot is
// evicted, its bins freed) and ends; another such thread ends with the old slot still in its table.
TEST(SynchronizedMultipoolResource, ANewResourceAtADestroyedOnesAddress) {
    locked_checking_resource upstream;
    std::optional<synchronized_multipool_resource> r;
    r.emplace(&upstream);
    const void* const first_address = &*r;
    stages stage;
    std::atomic<int> failures{0};
    auto use = [&](synchronized_multipool_resource& pool, unsigned char mark) {
        std::vector<void*> blocks(300);
        for (void*& p : blocks) {
            p = pool.allocate(40, 8);
            std::memset(p, mark, 40);
        }
        for (void* p : blocks)
            if (static_cast<unsigned char*>(p)[39] != mark) ++failures;
        for (void* p : blocks) pool.deallocate(p, 40, 8);
    };
    std::thread evicts([&] {
        use(*r, 1);
        stage.advance();  // 1
        stage.wait_for(3);
        if (r->own_bin_blocks(40, 8) != 0) ++failures;  // (new bins: empty)
        use(*r, 2);
        std::vector<std::unique_ptr<synchronized_multipool_resource>> more;
        for (int k = 0; k < 4; ++k) {
            more.push_back(std::make_unique<synchronized_multipool_resource>(&upstream));
            use(*more.back(), static_cast<unsigned char>(3 + k));
        }
        use(*r, 9);  // (its bins were evicted too: new ones again)
    });
    std::thread ends([&] {
        use(*r, 1);
        stage.advance();  // 2
        stage.wait_for(3);
    });
    stage.wait_for(2);
    r.reset();
    EXPECT_EQ(upstream.checked().live_blocks(), 0u);
    r.emplace(&upstream);
    EXPECT_EQ(&*r, first_address);
    stage.advance();  // 3: a new resource at the same address
    evicts.join();
    ends.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(r->bytes_in_use(), 0u);
    r.reset();
    EXPECT_EQ(upstream.checked().live_blocks(), 0u);
}

// Threads end, or give their bins back to make room in their tables, while the resource whose bins they
// hold is destroyed (their last use came before): the destructor waits for those giving back, leaves the
// others to their threads, and nothing is touched after it is freed (AddressSanitizer, ThreadSanitizer).
TEST(SynchronizedMultipoolResource, ThreadsEndWhileTheirResourceIsDestroyed) {
    for (int round = 0; round < 40; ++round) {
        auto r = std::make_unique<synchronized_multipool_resource>();
        std::atomic<int> used{0};
        std::atomic<bool> go{false};
        std::vector<std::thread> workers;
        for (int t = 0; t < 4; ++t) {
            workers.emplace_back([&, t] {
                std::vector<void*> blocks(100);
                for (void*& p : blocks) p = r->allocate(24 + 8 * static_cast<std::size_t>(t), 8);
                for (void* p : blocks) r->deallocate(p, 24 + 8 * static_cast<std::size_t>(t), 8);
                ++used;
                while (!go.load()) std::this_thread::yield();
                if (t % 2 == 1) {  // (four resources of its own: the shared one's slot is evicted)
                    for (int k = 0; k < 4; ++k) {
                        synchronized_multipool_resource own;
                        own.deallocate(own.allocate(32, 8), 32, 8);
                    }
                }
            });
        }
        while (used.load() != 4) std::this_thread::yield();
        go.store(true);
        r.reset();
        for (std::thread& w : workers) w.join();
    }
}

}  // namespace
}  // namespace relo_test
