// relo/warm_memory.hpp: one policy over the three per-thread caches (chunks, large blocks, reservations) —
// what each kind of container and resource leaves for the next, what warm_memory() reports, that
// trim_warm_memory(), a limit of 0 and the thread's end give it all back, and that every thread's caches
// together keep at most the process's warm budget.
#include "relo/warm_memory.hpp"

#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "os_probes.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/page_allocator.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/vector.hpp"
#include "relo/vm_arena.hpp"

namespace relo_test {
namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

/// Empties the calling thread's caches around each test and restores the limits; `others()` is what other
/// threads' caches keep when the test starts (0, but under Wine, whose ended threads' caches are never
/// emptied: the thread-exit checks are left out there, as AThreadsEndGivesItsCachesBack's).
class WarmMemory : public ::testing::Test {
protected:
    void SetUp() override {
        relo::trim_warm_memory();
        others_ = relo::warm_memory().process_bytes;
    }
    std::size_t others() const noexcept { return others_; }
    /// The process's warm bytes that this test made.
    std::size_t process_bytes() const noexcept { return relo::warm_memory().process_bytes - others_; }
    void TearDown() override {
        relo::set_chunk_cache_limit(chunk_limit_);
        relo::set_large_block_cache_limit(block_limit_);
        relo::set_reservation_cache_limit(reservation_limit_);
        relo::set_warm_memory_limit(process_limit_);
        relo::trim_warm_memory();
    }

private:
    std::size_t chunk_limit_ = relo::chunk_cache_limit();
    std::size_t block_limit_ = relo::large_block_cache_limit();
    std::size_t reservation_limit_ = relo::reservation_cache_limit();
    std::size_t process_limit_ = relo::warm_memory_limit();
    std::size_t others_ = 0;
};

/// Makes an arena of `reserve` bytes, fills `fill` bytes of it; returns where they started.
char* use_arena(std::size_t reserve, std::size_t fill) {
    relo::vm_arena arena(reserve);
    auto* p = static_cast<char*>(arena.allocate(fill, 1));
    std::memset(p, 0x5a, fill);
    return p;
}

// The most a thread keeps warm with the defaults, as relo/warm_memory.hpp and docs/ state it.
TEST_F(WarmMemory, TheDefaultBoundsSumTo112MiB) {
    const std::size_t reservations =
        relo::detail::reservation_cache_committed_budget +
        relo::reservation_cache_limit() * relo::geometric_commit::rule.retained_minimum;
    EXPECT_EQ(relo::chunk_cache_limit(), 8 * mib);
    EXPECT_EQ(relo::large_block_cache_limit(), 64 * mib);
    EXPECT_EQ(reservations, 40 * mib);
    EXPECT_EQ(relo::chunk_cache_limit() + relo::large_block_cache_limit() + reservations, 112 * mib);
}

TEST_F(WarmMemory, AnArenaLeavesItsReservationToTheNextArenaOfItsSize) {
    const relo::warm_memory_held nothing = relo::warm_memory();
    EXPECT_EQ(nothing.total(), 0u);
    EXPECT_EQ(nothing.reservations, 0u);

    // Kept: the committed pages within the reservation cache's budget (32 MiB), resident; the rest given back.
    const std::size_t budget = relo::detail::reservation_cache_committed_budget;
    char* const first = use_arena(64 * mib, budget + 3 * mib);
    const relo::warm_memory_held held = relo::warm_memory();
    EXPECT_EQ(held.reservations, 1u);
    EXPECT_EQ(held.reservation_bytes, budget);
    EXPECT_EQ(held.total(), held.reservation_bytes);
    EXPECT_EQ(resident_pages(first, budget), budget / page());
    EXPECT_EQ(resident_pages(first + budget, 3 * mib), 0u);

    relo::vm_arena next(64 * mib);
    EXPECT_EQ(relo::warm_memory().reservations, 0u) << "taken from the cache";
    EXPECT_EQ(next.committed(), held.reservation_bytes);
    EXPECT_EQ(next.used(), 0u);
    EXPECT_EQ(next.allocate(budget, 1), first) << "the same reservation, from its start";
    EXPECT_EQ(next.committed(), budget) << "its pages still there: nothing to commit or fault";
}

TEST_F(WarmMemory, AnArenaOfAnotherSizeOrRuleTakesAFreshReservation) {
    char* const first = use_arena(64 * mib, mib);
    {
        const relo::vm_arena larger(128 * mib);
        EXPECT_EQ(larger.committed(), 0u);
        const relo::vm_arena page_by_page(64 * mib, relo::page_commit::rule);
        EXPECT_EQ(page_by_page.committed(), 0u);
    }
    EXPECT_EQ(relo::warm_memory().reservations, 3u);
    relo::vm_arena same(64 * mib);
    EXPECT_EQ(same.allocate(1, 1), first) << "found among the others";
}

TEST_F(WarmMemory, PinnedVectorsAndArenasShareTheReservationCache) {
    using pinned = relo::pinned_vector<int>;
    const int* first = nullptr;
    {
        pinned v(1000, 7);  // (the default reservation)
        first = v.data();
    }
    ASSERT_EQ(relo::warm_memory().reservations, 1u);
    relo::vm_arena arena(pinned::default_reservation);  // the same size and rule: the vector's reservation
    EXPECT_EQ(arena.allocate(4, 4), static_cast<const void*>(first));
    EXPECT_GT(arena.committed(), 0u);
}

TEST_F(WarmMemory, TheSumOfTheThreeCachesAndTrimGivesItAllBack) {
    {
        relo::multipool_resource pools;
        for (int i = 0; i < 1000; ++i) pools.allocate(64);
    }
    char* arena_block = nullptr;
    int* vector_block = nullptr;
    {
        relo::vector<int> v(std::size_t{1} << 20, 1);  // 4 MiB: a large block of page_allocator
        vector_block = v.data();
        arena_block = use_arena(16 * mib, mib);
    }
    const relo::warm_memory_held held = relo::warm_memory();
    EXPECT_GT(held.chunk_bytes, 0u);
    EXPECT_EQ(held.chunk_bytes, relo::chunk_cache_bytes());
    EXPECT_GE(held.large_block_bytes, 4 * mib);
    EXPECT_EQ(held.large_block_bytes, relo::large_block_cache_bytes());
    EXPECT_EQ(held.reservation_bytes, mib);
    EXPECT_EQ(held.reservations, relo::reservation_cache_count());
    EXPECT_EQ(held.total(), held.chunk_bytes + held.large_block_bytes + held.reservation_bytes);
    EXPECT_GE(resident_pages(vector_block, 4 * mib), 4 * mib / page()) << "kept warm, resident";

    relo::trim_warm_memory();
    const relo::warm_memory_held after = relo::warm_memory();
    EXPECT_EQ(after.total(), 0u);
    EXPECT_EQ(after.reservations, 0u);
    EXPECT_EQ(resident_pages(arena_block, page()), static_cast<std::size_t>(-1)) << "unmapped";
    EXPECT_EQ(resident_pages(vector_block, page()), static_cast<std::size_t>(-1)) << "unmapped";
}

TEST_F(WarmMemory, LimitsOfZeroKeepNothing) {
    relo::set_chunk_cache_limit(0);
    relo::set_large_block_cache_limit(0);
    relo::set_reservation_cache_limit(0);
    {
        relo::multipool_resource pools;
        pools.allocate(64);
        const relo::vector<int> v(std::size_t{1} << 20, 1);
        use_arena(16 * mib, mib);
    }
    EXPECT_EQ(relo::warm_memory().total(), 0u);
    EXPECT_EQ(relo::warm_memory().reservations, 0u);
}

TEST_F(WarmMemory, AThreadsEndGivesItsCachesBack) {
    char* arena_block = nullptr;
    int* vector_block = nullptr;
    std::size_t held_in_thread = 0;
    std::thread([&] {
        const relo::vector<int> v(std::size_t{1} << 20, 1);
        vector_block = const_cast<int*>(v.data());
        arena_block = use_arena(16 * mib, mib);
        held_in_thread = relo::warm_memory().total();
    }).join();
    EXPECT_GE(held_in_thread, mib);
    EXPECT_EQ(relo::warm_memory().total(), 0u) << "the thread's, not this one's";
#if !defined(_WIN32)  // (as the other caches' tests: Wine's thread-exit order is not checked here)
    EXPECT_EQ(resident_pages(arena_block, page()), static_cast<std::size_t>(-1)) << "unmapped at the thread's end";
    EXPECT_EQ(resident_pages(vector_block, page()), static_cast<std::size_t>(-1)) << "unmapped at the thread's end";
#else
    (void)arena_block;
    (void)vector_block;
#endif
}

TEST_F(WarmMemory, TheDefaultProcessBudgetIs32MiB) { EXPECT_EQ(relo::warm_memory_limit(), 32 * mib); }

/// Threads that each give back a vector of `ints` ints and a multipool's chunks, then wait until told to
/// end; what each thread's caches hold, read while all of them are alive.
class idle_pool {
public:
    idle_pool(int threads, std::size_t ints) {
        for (int t = 0; t < threads; ++t)
            threads_.emplace_back([this, ints] {
                {
                    const relo::vector<int> v(ints, 7);
                    relo::multipool_resource pools;
                    for (int i = 0; i < 1000; ++i) (void)pools.allocate(256);
                }
                std::unique_lock<std::mutex> lock(mutex_);
                held_.push_back(relo::warm_memory().total());
                changed_.notify_all();
                changed_.wait(lock, [this] { return ending_; });
            });
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return held_.size() == threads_.size(); });
    }
    ~idle_pool() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            ending_ = true;
        }
        changed_.notify_all();
        for (std::thread& t : threads_) t.join();
    }
    std::vector<std::size_t> held() {
        const std::lock_guard<std::mutex> lock(mutex_);
        return held_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool ending_ = false;
    std::vector<std::size_t> held_;
    std::vector<std::thread> threads_;
};

TEST_F(WarmMemory, EveryThreadsCachesTogetherKeepAtMostTheProcessBudget) {
    relo::set_warm_memory_limit(others() + 10 * mib);
    std::size_t process_while_idle = 0;
    std::size_t threads_sum = 0;
    std::size_t keeping = 0;
    {
        idle_pool pool(6, 1 << 20);  // each thread's vector block: 4 MiB; per-thread bounds allow 64 MiB
        process_while_idle = process_bytes();
        for (std::size_t held : pool.held()) {
            threads_sum += held;
            if (held >= 4 * mib) ++keeping;
        }
    }
    EXPECT_LE(process_while_idle, 10 * mib);
    EXPECT_EQ(process_while_idle, threads_sum) << "the process's total is the sum of every thread's";
    EXPECT_GE(keeping, 1u) << "the budget is used";
    EXPECT_LE(keeping, 2u) << "no more than the budget holds of 4 MiB blocks";
#if !defined(_WIN32)
    EXPECT_EQ(relo::warm_memory().process_bytes, 0u) << "the threads' ends gave their caches and budget back";
#endif
}

TEST_F(WarmMemory, TheBudgetComesBackWhenABlockLeavesACache) {
    relo::set_warm_memory_limit(others() + 6 * mib);
    {
        const relo::vector<int> v(std::size_t{1} << 20, 1);  // 4 MiB, kept
    }
    const std::size_t kept = process_bytes();
    EXPECT_GE(kept, 4 * mib);
    EXPECT_EQ(kept, relo::warm_memory().total());
    std::size_t other_thread_kept = 0;
    std::size_t process_with_both = 0;
    std::thread([&] {
        { const relo::vector<int> v(std::size_t{1} << 20, 1); }
        other_thread_kept = relo::warm_memory().total();
        process_with_both = process_bytes();
    }).join();
    EXPECT_GT(other_thread_kept, 0u) << "the first pages of its block, in what the budget had left";
    EXPECT_LE(other_thread_kept, 6 * mib - kept);
    EXPECT_EQ(process_with_both, kept + other_thread_kept);
    // What the ended thread still keeps: nothing, but under Wine, where its caches are never emptied.
    const std::size_t ended_thread_keeps = process_bytes() - kept;
#if !defined(_WIN32)
    EXPECT_EQ(ended_thread_keeps, 0u) << "the thread's end gave its block and its budget back";
#endif
    {
        const relo::vector<int> v(std::size_t{1} << 20, 1);  // takes the cached block, then gives it back
        EXPECT_EQ(process_bytes() - ended_thread_keeps, 0u);
    }
    EXPECT_EQ(process_bytes() - ended_thread_keeps, kept);
    relo::trim_warm_memory();
    EXPECT_EQ(process_bytes() - ended_thread_keeps, 0u);
}

TEST_F(WarmMemory, ABudgetOfZeroKeepsNothing) {
    relo::set_warm_memory_limit(0);
    {
        relo::multipool_resource pools;
        (void)pools.allocate(64);
        const relo::vector<int> v(std::size_t{1} << 20, 1);
        use_arena(16 * mib, mib);
    }
    EXPECT_EQ(relo::warm_memory().total(), 0u);
    EXPECT_EQ(process_bytes(), 0u);
    EXPECT_EQ(relo::warm_memory().reservations, 0u);
}

}  // namespace
}  // namespace relo_test
