// relo/warm_memory.hpp: one policy over the three per-thread caches (chunks, large blocks, reservations) —
// what each kind of container and resource leaves for the next, what warm_memory() reports, that
// trim_warm_memory(), a limit of 0 and the thread's end give it all back, that every thread's caches
// together keep at most the process's warm budget, and the idle rule: a thread's first keep after keeping
// nothing for the idle delay gives back what the cache held first; no thread gives back another's (an
// idle thread keeps its share until it comes back or ends). The deprecated trim_idle_warm_memory and
// idle_warm_memory_can_be_trimmed keep their documented behaviour (one test each).
#include "relo/warm_memory.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "mapped_ints.hpp"
#include "os_probes.hpp"
#include "parked_thread.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/page_allocator.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/vector.hpp"
#include "relo/vm_arena.hpp"

namespace relo_test {
namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

/// Empties the calling thread's caches around each test and restores the limits; `others()` is what other
/// threads' caches keep when the test starts (0: every test's threads have ended).
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
        relo::set_warm_memory_idle_delay(idle_delay_);
        relo::trim_warm_memory();
    }

private:
    std::size_t chunk_limit_ = relo::chunk_cache_limit();
    std::size_t block_limit_ = relo::large_block_cache_limit();
    std::size_t reservation_limit_ = relo::reservation_cache_limit();
    std::size_t process_limit_ = relo::warm_memory_limit();
    std::chrono::nanoseconds idle_delay_ = relo::warm_memory_idle_delay();
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

// The environment's settings (docs/settings.md; tests/life/settings_program.cpp runs them in a process):
// digits and one binary suffix, nothing else.
TEST(WarmMemorySettings, ASettingIsDigitsAndOneBinarySuffix) {
    const auto read = [](const char* text) {
        std::uint64_t value = 7;
        return relo::detail::parse_setting(text, value) ? value : std::uint64_t{7777};
    };
    EXPECT_EQ(read("0"), 0u);
    EXPECT_EQ(read("123"), 123u);
    EXPECT_EQ(read("4k"), 4u << 10);
    EXPECT_EQ(read("4K"), 4u << 10);
    EXPECT_EQ(read("32M"), 32u * mib);
    EXPECT_EQ(read("2g"), std::uint64_t{2} << 30);
    EXPECT_EQ(read("18446744073709551615"), ~std::uint64_t{0});
    EXPECT_EQ(read("4MB"), 4 * mib);
    EXPECT_EQ(read("4mb"), 4 * mib);
    EXPECT_EQ(read("4MiB"), 4 * mib);
    EXPECT_EQ(read("1KiB"), 1024u);
    EXPECT_EQ(read("1kib"), 1024u);
    for (const char* bad : {"", "k", "-1", "+1", " 1", "1 ", "1.5", "4T", "4Mi", "4MiBs", "4B", "0x10",
                            "18446744073709551616", "17179869184G", "99999999999999999999"})
        EXPECT_EQ(read(bad), 7777u) << '"' << bad << '"';
    EXPECT_EQ(read("17179869183G"), std::uint64_t{17179869183} << 30);
    std::uint64_t ms = 7;
    EXPECT_TRUE(relo::detail::parse_setting("250", ms, false));
    EXPECT_EQ(ms, 250u);
    EXPECT_FALSE(relo::detail::parse_setting("1k", ms, false)) << "milliseconds take no suffix";
    EXPECT_EQ(ms, 250u);
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
        mapped_ints v(std::size_t{1} << 20, 1);  // 4 MiB: a large block of page_allocator
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
        const mapped_ints v(std::size_t{1} << 20, 1);
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
        const mapped_ints v(std::size_t{1} << 20, 1);
        vector_block = const_cast<int*>(v.data());
        arena_block = use_arena(16 * mib, mib);
        held_in_thread = relo::warm_memory().total();
    }).join();
    EXPECT_GE(held_in_thread, mib);
    EXPECT_EQ(relo::warm_memory().total(), 0u) << "the thread's, not this one's";
    EXPECT_EQ(resident_pages(arena_block, page()), static_cast<std::size_t>(-1)) << "unmapped at the thread's end";
    EXPECT_EQ(resident_pages(vector_block, page()), static_cast<std::size_t>(-1)) << "unmapped at the thread's end";
    EXPECT_EQ(relo::warm_memory().process_bytes, others()) << "and its budget given back";
}

#if !defined(_WIN32)
/// A thread_local destroyed after the thread's caches closed gives its memory straight back. (Not under
/// mingw-w64: its emulated thread-local storage is freed before the thread_local destructors run.)
TEST_F(WarmMemory, WhatAThreadLocalGivesBackAtItsThreadsEndIsNotKept) {
    std::thread([] {
        thread_local mapped_ints until_the_end(std::size_t{1} << 20, 1);  // (made before the caches' closer)
        { const mapped_ints v(std::size_t{1} << 19, 1); }
        EXPECT_GE(relo::warm_memory().total(), 2 * mib) << "kept while the thread lives";
    }).join();
    EXPECT_EQ(relo::warm_memory().process_bytes, others()) << "the vector's 4 MiB went straight back";
}
#else
/// The callback that gives a thread's caches back runs when the fiber that first used them is deleted:
/// the thread goes on with closed caches, which keep nothing.
TEST_F(WarmMemory, AThreadsCachesClosedEarlyKeepNothing) {
    std::size_t kept_in_fiber = 0, kept_after = 1, process_after = 1;
    std::thread([&] {
        void* const main_fiber = ::ConvertThreadToFiber(nullptr);
        ASSERT_NE(main_fiber, nullptr);
        struct context { void* back; std::size_t* kept; } c{main_fiber, &kept_in_fiber};
        void* const fiber = ::CreateFiber(
            0,
            [](void* p) {
                auto* ctx = static_cast<context*>(p);
                { const mapped_ints v(std::size_t{1} << 19, 1); }
                *ctx->kept = relo::warm_memory().total();
                ::SwitchToFiber(ctx->back);
            },
            &c);
        ASSERT_NE(fiber, nullptr);
        ::SwitchToFiber(fiber);
        ::DeleteFiber(fiber);  // (runs the callback: the caches are given back and closed)
        { const mapped_ints v(std::size_t{1} << 19, 1); }
        kept_after = relo::warm_memory().total();
        process_after = relo::warm_memory().process_bytes;
        ::ConvertFiberToThread();
    }).join();
    EXPECT_GE(kept_in_fiber, 2 * mib);
    EXPECT_EQ(kept_after, 0u) << "closed: the vector's block went straight back";
    EXPECT_EQ(process_after, others());
}
#endif

TEST_F(WarmMemory, TheDefaultProcessBudgetIs64MiB) { EXPECT_EQ(relo::warm_memory_limit(), 64 * mib); }

/// Threads that each give back a vector of `ints` ints and a multipool's chunks, then wait until told to
/// end; what each thread's caches hold, read while all of them are alive.
class idle_pool {
public:
    idle_pool(int threads, std::size_t ints) {
        for (int t = 0; t < threads; ++t)
            threads_.emplace_back([this, ints] {
                {
                    const mapped_ints v(ints, 7);
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
    EXPECT_EQ(relo::warm_memory().process_bytes, others()) << "the threads' ends gave their caches and budget back";
}

TEST_F(WarmMemory, TheBudgetComesBackWhenABlockLeavesACache) {
    relo::set_warm_memory_limit(others() + 6 * mib);
    {
        const mapped_ints v(std::size_t{1} << 20, 1);  // 4 MiB, kept
    }
    const std::size_t kept = process_bytes();
    EXPECT_GE(kept, 4 * mib);
    EXPECT_EQ(kept, relo::warm_memory().total());
    std::size_t other_thread_kept = 0;
    std::size_t process_with_both = 0;
    std::thread([&] {
        // (32 MiB: a reservation whatever relo holds; a smaller block would come from the heap, past what
        // the budget can keep warm)
        { const mapped_ints v(std::size_t{8} << 20, 1); }
        other_thread_kept = relo::warm_memory().total();
        process_with_both = process_bytes();
    }).join();
    EXPECT_GT(other_thread_kept, 0u) << "the first pages of its block, in what the budget had left";
    EXPECT_LE(other_thread_kept, 6 * mib - kept);
    EXPECT_EQ(process_with_both, kept + other_thread_kept);
    EXPECT_EQ(process_bytes(), kept) << "the thread's end gave its block and its budget back";
    {
        const mapped_ints v(std::size_t{1} << 20, 1);  // takes the cached block, then gives it back
        EXPECT_EQ(process_bytes(), 0u);
    }
    EXPECT_EQ(process_bytes(), kept);
    relo::trim_warm_memory();
    EXPECT_EQ(process_bytes(), 0u);
}

// relo maps no more than its warm budget can keep: past it a large block comes from the heap (as
// std::vector's), a block that would grow past it moves there, and a block of 32 MiB or more is a
// reservation whatever relo holds (the heap would map it fresh anyway). Seen in reservations_held().
TEST_F(WarmMemory, ReservationsHoldNoMoreThanTheBudgetKeeps) {
    relo::set_warm_memory_limit(others() + 10 * mib);
    const std::size_t held = relo::reservations_held();
    const std::size_t live = relo::detail::large_block_live_bytes.load();
    {
    constexpr std::size_t four_mib = std::size_t{1} << 20;  // ints
    mapped_ints a(four_mib, 1);
    mapped_ints b(four_mib, 2);
    EXPECT_EQ(relo::reservations_held(), held + 2) << "8 MiB: within the budget";
    mapped_ints c(four_mib, 3);
    EXPECT_EQ(relo::reservations_held(), held + 2) << "12 MiB: the third from the heap";
    std::vector<int> model(four_mib, 1);
    const int* before = a.data();
    for (int i = 0; i < static_cast<int>(four_mib); ++i) {
        a.push_back(i);  // past its committed pages, past the budget: moved to the heap
        model.push_back(i);
    }
    EXPECT_NE(a.data(), before);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), model.begin(), model.end()));
    relo::trim_large_block_cache();
    EXPECT_EQ(relo::reservations_held(), held + 1) << "a's reservation went (to the cache, then trimmed)";
    mapped_ints d(std::size_t{8} << 20, 4);
    EXPECT_EQ(relo::reservations_held(), held + 2) << "32 MiB: a reservation whatever relo holds";
    for (int i = 0; i < 100000; ++i) c.push_back(i);  // a block from the heap grows there
    EXPECT_EQ(c[four_mib - 1], 3);
    EXPECT_EQ(c.back(), 99999);
    EXPECT_EQ(relo::reservations_held(), held + 2);
    // 36 MiB: still the heap's (realloc: no fresh pages for the old ones); on Windows, whose realloc copies,
    // a reservation.
    c.resize(std::size_t{9} << 20, 7);
    EXPECT_EQ(relo::reservations_held(), held + (RELO_OS_WINDOWS ? 3 : 2));
    EXPECT_EQ(c[four_mib - 1], 3);
    EXPECT_EQ(c[four_mib + 99999], 99999);
    EXPECT_EQ(c.back(), 7);
    EXPECT_EQ(b[0], 2);
    EXPECT_EQ(d.back(), 4);
    }
    EXPECT_EQ(relo::detail::large_block_live_bytes.load(), live) << "every block's share counted back";
}

// A heap block the cache cannot keep (at least 32 MiB, and half of it) goes back before any cached block
// is given back to make room for it.
TEST_F(WarmMemory, AHeapBlockTheCacheCannotKeepEvictsNothing) {
    if (RELO_OS_WINDOWS) GTEST_SKIP() << "a block crossing 64 KiB takes a reservation";
    relo::set_warm_memory_limit(16 * mib + others());
    relo::set_large_block_cache_limit(48 * mib);
    relo::page_allocator<int> a;
    const std::size_t ten_mib = 10 * mib / sizeof(int);
    const std::size_t past = (std::size_t{40} << 20) / sizeof(int);
    int* p = a.allocate(ten_mib);
    {
        const relo::vector<std::string> strings(10 * mib / sizeof(std::string));  // a reservation
        p = a.reallocate(p, ten_mib, past);  // crosses 32 MiB: a heap block
    }
    const std::size_t cached = relo::large_block_cache_bytes();
    ASSERT_GE(cached, 10 * mib) << "the strings' block kept warm";
    a.deallocate(p, past);
    EXPECT_EQ(relo::large_block_cache_bytes(), cached) << "the 40 MiB heap block went back, nothing evicted";
}

TEST_F(WarmMemory, ABudgetOfZeroKeepsNothing) {
    relo::set_warm_memory_limit(0);
    {
        relo::multipool_resource pools;
        (void)pools.allocate(64);
        const mapped_ints v(std::size_t{1} << 20, 1);
        use_arena(16 * mib, mib);
    }
    EXPECT_EQ(relo::warm_memory().total(), 0u);
    EXPECT_EQ(process_bytes(), 0u);
    EXPECT_EQ(relo::warm_memory().reservations, 0u);
}

/// Sleeps until a cache that kept something now has been idle for `delay` by its coarse clock.
void sleep_past(std::chrono::nanoseconds delay) {
    const auto tick = std::chrono::nanoseconds(relo::detail::idle_clock_tick_ns);
    std::this_thread::sleep_for(delay + 2 * tick + std::chrono::milliseconds(10));
}

constexpr std::size_t unmapped = static_cast<std::size_t>(-1);

// The idle rule, cache by cache: a block kept, then nothing kept for the idle delay; the next keep gives
// back what the cache held first, then keeps the new block. (Two containers alive at once, so that the
// second never takes the first's block from the cache.)
TEST_F(WarmMemory, AKeepAfterTheIdleDelayGivesBackWhatWasHeld) {
    const auto delay = std::chrono::milliseconds(30);
    relo::set_warm_memory_idle_delay(delay);
    EXPECT_EQ(relo::warm_memory_idle_delay(), delay);

    // Large blocks.
    const int* first_block = nullptr;
    const int* second_block = nullptr;
    std::size_t first_held = 0;
    {
        auto second = std::make_unique<mapped_ints>(std::size_t{1} << 19, 2);  // 2 MiB
        second_block = second->data();
        {
            const mapped_ints first(std::size_t{1} << 20, 1);  // 4 MiB
            first_block = first.data();
        }
        first_held = relo::large_block_cache_bytes();
        EXPECT_GE(first_held, 4 * mib);
        sleep_past(delay);
        second.reset();  // (the cache's first keep after the delay)
    }
    const std::size_t second_held = relo::large_block_cache_bytes();
    EXPECT_GE(second_held, 2 * mib);
    EXPECT_LT(second_held, first_held) << "only the second block is kept";
    EXPECT_EQ(resident_pages(first_block, page()), unmapped) << "the first went back to the system";
    EXPECT_NE(resident_pages(second_block, page()), unmapped) << "the second is kept warm";

    // Chunks: two resources' alike, the first given back by the second's keep.
    std::size_t first_chunks = 0;
    {
        auto second = std::make_unique<relo::multipool_resource>();
        for (int i = 0; i < 1000; ++i) (void)second->allocate(256);
        {
            relo::multipool_resource first;
            for (int i = 0; i < 1000; ++i) (void)first.allocate(256);
        }
        first_chunks = relo::chunk_cache_bytes();
        EXPECT_GT(first_chunks, 0u);
        sleep_past(delay);
        second.reset();
    }
    EXPECT_EQ(relo::chunk_cache_bytes(), first_chunks) << "the second resource's chunks, not both";

    // Reservations.
    char* first_arena = nullptr;
    char* second_arena = nullptr;
    {
        auto second = std::make_unique<relo::vm_arena>(128 * mib);
        second_arena = static_cast<char*>(second->allocate(mib, 1));
        std::memset(second_arena, 1, mib);
        first_arena = use_arena(64 * mib, mib);
        EXPECT_EQ(relo::warm_memory().reservations, 1u);
        sleep_past(delay);
        second.reset();
    }
    EXPECT_EQ(relo::warm_memory().reservations, 1u) << "the second arena's reservation, not both";
    EXPECT_EQ(resident_pages(first_arena, page()), unmapped);
    EXPECT_NE(resident_pages(second_arena, page()), unmapped);
    EXPECT_EQ(process_bytes(), relo::warm_memory().total()) << "the budget of what went back came back";
}

// A keep before the delay has passed gives nothing back, and nanoseconds::max() (or a delay the idle clock
// cannot add its tick to) never passes.
TEST_F(WarmMemory, BeforeTheDelayOrWithAnEndlessOneNothingIsGivenBackForIdleness) {
    for (const auto delay : {std::chrono::nanoseconds(std::chrono::hours(1)), std::chrono::nanoseconds::max(),
                             std::chrono::nanoseconds::max() - std::chrono::nanoseconds(1)}) {
        relo::set_warm_memory_idle_delay(delay);
        {
            auto second = std::make_unique<mapped_ints>(std::size_t{1} << 19, 2);
            { const mapped_ints first(std::size_t{1} << 20, 1); }
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            second.reset();
        }
        EXPECT_GE(relo::large_block_cache_bytes(), 6 * mib) << "both blocks kept, with a delay of " << delay.count() << " ns";
        EXPECT_EQ(process_bytes(), relo::warm_memory().total());
        relo::trim_warm_memory();
    }
}

// No thread gives back another's caches: an idle thread keeps what it holds (counted in the budget)
// however long it stays idle and whatever the others do, until it ends.
TEST_F(WarmMemory, AThreadThatNeverComesBackKeepsItsShareUntilItEnds) {
    relo::set_warm_memory_idle_delay(std::chrono::milliseconds(1));
    parked_thread parked([] { const mapped_ints v(std::size_t{1} << 20, 1); }, [] {});
    const std::size_t kept = parked.kept();
    EXPECT_GE(kept, 4 * mib);
    EXPECT_EQ(process_bytes(), kept);
    for (int round = 0; round < 3; ++round) {  // (this thread idle past the delay, then keeping and trimming)
        sleep_past(std::chrono::milliseconds(1));
        { const mapped_ints v(std::size_t{1} << 20, 1); }
        {
            relo::multipool_resource pools;
            (void)pools.allocate(64);
        }
        relo::trim_warm_memory();
    }
    EXPECT_EQ(process_bytes(), kept) << "still the parked thread's";
    parked.resume_and_join();
    EXPECT_EQ(process_bytes(), 0u) << "given back at its end";
}

// A block the budget has no room for (an idle thread holds the rest) is kept only in part, or not at all:
// its first pages as far as the budget goes; the idle thread's are left alone.
TEST_F(WarmMemory, ABlockTheBudgetRefusesLeavesAnIdleThreadsShareAlone) {
    relo::set_warm_memory_limit(others() + 6 * mib);
    relo::set_warm_memory_idle_delay(std::chrono::nanoseconds(0));
    std::size_t parked_after = 0;
    parked_thread parked([] { const mapped_ints v(std::size_t{1} << 20, 1); },
                         [&] { parked_after = relo::warm_memory().total(); });
    const std::size_t parked_kept = parked.kept();
    EXPECT_GE(parked_kept, 4 * mib);
    { const mapped_ints v(std::size_t{1} << 20, 1); }  // (its 4 MiB do not fit beside the parked thread's)
    const std::size_t kept_here = relo::warm_memory().total();
    EXPECT_LE(kept_here, 6 * mib - parked_kept) << "no more than the budget had left";
    EXPECT_EQ(process_bytes(), parked_kept + kept_here);
    EXPECT_LE(process_bytes(), 6 * mib);
    parked.resume_and_join();
    EXPECT_EQ(parked_after, parked_kept) << "the idle thread's block was left to it";
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
// Deprecated: trim_idle_warm_memory(d) gives back the calling thread's caches that kept nothing for d (each
// cache on its own), and never another thread's; returns the bytes.
TEST_F(WarmMemory, TrimIdleWarmMemoryGivesBackTheCallingThreadsIdleCachesOnly) {
    parked_thread parked([] { const mapped_ints v(std::size_t{1} << 20, 1); }, [] {});
    const std::size_t parked_kept = parked.kept();
    EXPECT_GE(parked_kept, 4 * mib);
    { const mapped_ints v(std::size_t{1} << 20, 1); }
    const std::size_t mine = relo::warm_memory().total();
    EXPECT_GE(mine, 4 * mib);
    EXPECT_EQ(relo::trim_idle_warm_memory(std::chrono::hours(1)), 0u) << "kept a moment ago";
    EXPECT_EQ(relo::trim_idle_warm_memory(std::chrono::nanoseconds(0)), mine);
    EXPECT_EQ(relo::warm_memory().total(), 0u);
    EXPECT_EQ(process_bytes(), parked_kept) << "the parked thread's caches are its own";
    EXPECT_EQ(relo::trim_idle_warm_memory(std::chrono::nanoseconds(0)), 0u) << "nothing left to give back";

    { const mapped_ints v(std::size_t{1} << 20, 1); }
    const std::size_t again = relo::warm_memory().total();
    sleep_past(std::chrono::milliseconds(30));
    EXPECT_EQ(relo::trim_idle_warm_memory(std::chrono::milliseconds(30)), again) << "idle for that long";
    EXPECT_EQ(process_bytes(), parked_kept);
}

// Deprecated: idle_warm_memory_can_be_trimmed() is false (no thread gives back another's caches).
TEST_F(WarmMemory, IdleWarmMemoryCanBeTrimmedIsFalse) { EXPECT_FALSE(relo::idle_warm_memory_can_be_trimmed()); }
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/// Threads that keep and take chunks, blocks and reservations at once under a small budget, some with an
/// idle delay of 0 (every keep gives the cache back first), trimming now and then: under AddressSanitizer
/// a block given back twice or used after, under ThreadSanitizer a race on the budget, would be reported;
/// the budget is never exceeded and balances once they end.
TEST_F(WarmMemory, ThreadsKeepingAndTakingAtOnceKeepTheBudgetBalanced) {
    const std::size_t limit = others() + 12 * mib;
    relo::set_warm_memory_limit(limit);
    relo::set_warm_memory_idle_delay(std::chrono::nanoseconds(0));
    constexpr int threads_count = 3;
    std::atomic<int> running{threads_count};
    std::vector<std::thread> threads;
    for (int t = 0; t < threads_count; ++t)
        threads.emplace_back([&running, t] {
            for (int round = 0; round < 3000; ++round) {
                {
                    relo::multipool_resource pools;  // (takes a chunk, gives it back)
                    auto* p = static_cast<int*>(pools.allocate(sizeof(int)));
                    *p = round;
                    if (*p != round) std::abort();
                }
                if (round % 16 == 0) {
                    mapped_ints v(static_cast<std::size_t>(40000 + 100000 * t), round);
                    if (v[v.size() / 2] != round) std::abort();
                }
                if (round % 100 == 0) use_arena(4 * mib, 64 << 10);
                if (round % 500 == t) relo::trim_warm_memory();
            }
            running.fetch_sub(1);
        });
    std::size_t most = 0;
    while (running.load() != 0) {
        const std::size_t now = relo::warm_memory().process_bytes;
        if (now > most) most = now;
    }
    for (std::thread& t : threads) t.join();
    EXPECT_LE(most, limit);
    EXPECT_EQ(process_bytes(), 0u) << "every block kept was given back once, with its budget (the threads' ends)";
}

}  // namespace
}  // namespace relo_test
