// relo::test_resource (relo/test_resource.hpp): its counts against a model of the calls, its allocation
// limit, relo::exception_test over relo's own containers (which must leak nothing) and over code that
// leaks on purpose, and every problem it detects — wrong size, wrong alignment, double free, foreign
// pointer, leak — made on purpose and checked in the report's details.
#include "relo/test_resource.hpp"

#include <cstddef>
#include <map>
#include <memory_resource>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "relo/resource_allocator.hpp"
#include "relo/small_vector.hpp"
#include "relo/vector.hpp"

namespace relo_test {
namespace {

/// A reporter that records what it is told.
struct recorder {
    std::vector<relo::test_resource_problem> problems;
    relo::test_resource::reporter get() {
        return [this](const relo::test_resource&, const relo::test_resource_problem& p) { problems.push_back(p); };
    }
};

TEST(TestResource, CountsWhatItIsAsked) {
    relo::test_resource r;
    std::mt19937 rng(7);
    std::map<void*, std::size_t> model;  // block -> size
    std::size_t bytes = 0, max_bytes = 0, max_blocks = 0, total_bytes = 0, total_blocks = 0, frees = 0;
    for (int step = 0; step < 5000; ++step) {
        if (model.empty() || rng() % 3 != 0) {
            const std::size_t size = 1 + rng() % 300;
            void* p = r.allocate(size, 8);
            model[p] = size;
            bytes += size;
            total_bytes += size;
            ++total_blocks;
        } else {
            auto it = model.begin();
            std::advance(it, static_cast<long>(rng() % model.size()));
            r.deallocate(it->first, it->second, 8);
            bytes -= it->second;
            model.erase(it);
            ++frees;
        }
        max_bytes = std::max(max_bytes, bytes);
        max_blocks = std::max(max_blocks, model.size());
        ASSERT_EQ(r.blocks_in_use(), model.size());
        ASSERT_EQ(r.bytes_in_use(), bytes);
    }
    EXPECT_EQ(r.max_bytes_in_use(), max_bytes);
    EXPECT_EQ(r.max_blocks_in_use(), max_blocks);
    EXPECT_EQ(r.total_bytes(), total_bytes);
    EXPECT_EQ(r.total_blocks(), total_blocks);
    EXPECT_EQ(r.deallocations(), frees);
    const std::vector<relo::test_resource_block> left = r.outstanding();
    ASSERT_EQ(left.size(), model.size());
    for (std::size_t i = 1; i < left.size(); ++i) EXPECT_LT(left[i - 1].serial, left[i].serial) << "oldest first";
    for (const relo::test_resource_block& b : left) {
        EXPECT_EQ(model.at(b.address), b.bytes);
        r.deallocate(b.address, b.bytes, b.alignment);
    }
    EXPECT_EQ(r.blocks_in_use(), 0u);
    EXPECT_EQ(r.problems(), 0u);
}

TEST(TestResource, TheLimitRefusesTheAllocationsPastIt) {
    relo::test_resource r;
    r.set_allocation_limit(2);
    void* a = r.allocate(10);
    void* b = r.allocate(20);
    EXPECT_EQ(r.allocation_limit(), 0);
    EXPECT_THROW(r.allocate(30), std::bad_alloc);
    EXPECT_THROW(r.allocate(1), std::bad_alloc);
    EXPECT_EQ(r.refused_allocations(), 2u);
    EXPECT_EQ(r.blocks_in_use(), 2u) << "a refused allocation counts nothing";
    r.set_allocation_limit(-1);
    void* c = r.allocate(30);
    for (auto [p, n] : {std::pair{a, 10}, std::pair{b, 20}, std::pair{c, 30}}) r.deallocate(p, static_cast<std::size_t>(n));
    EXPECT_EQ(r.total_blocks(), 3u);
}

TEST(TestResource, ThroughResourceAllocatorAndStdPmr) {
    relo::test_resource r;
    {
        relo::vector<int, relo::resource_allocator<int, relo::test_resource>> v(&r);
        for (int i = 0; i < 1000; ++i) v.push_back(i);
        EXPECT_EQ(r.blocks_in_use(), 1u);
        EXPECT_GE(r.bytes_in_use(), 1000 * sizeof(int));
        std::pmr::vector<std::pmr::string> w(&r);
        w.emplace_back(100, 'x');
        EXPECT_EQ(r.blocks_in_use(), 3u);
    }
    EXPECT_EQ(r.blocks_in_use(), 0u);
    EXPECT_GT(r.total_blocks(), 3u);
    EXPECT_EQ(r.problems(), 0u);
}

// The exception-safety loop over relo's containers: every run that fails must leave nothing behind.
template <class Container>
void exercise(relo::test_resource& r) {
    const std::vector<std::string> words = {"alpha", "a string long enough to be on the heap, surely", "gamma",
                                            "another string long enough to be on the heap, too"};
    recorder seen;
    r.set_reporter(seen.get());
    const relo::exception_test_result result = relo::exception_test(r, [&] {
        Container c(&r);
        for (int i = 0; i < 20; ++i) c.emplace_back(words[static_cast<std::size_t>(i) % words.size()]);
        c.insert(c.begin() + 3, words.begin(), words.end());
        c.erase(c.begin(), c.begin() + 2);
        Container copy(c, &r);
        copy.assign(c.rbegin(), c.rend());
        c.resize(40, c[1]);  // (an element of the container itself)
        c.shrink_to_fit();
    });
    EXPECT_GT(result.failed_runs, 10u);
    EXPECT_EQ(result.leaky_runs, 0u);
    EXPECT_TRUE(seen.problems.empty()) << to_string(seen.problems.front().kind);
    EXPECT_EQ(r.blocks_in_use(), 0u);
    EXPECT_EQ(r.allocation_limit(), -1) << "the limit is off again";
}

TEST(TestResource, ExceptionTestFindsNothingInReloContainers) {
    relo::test_resource r;
    exercise<relo::pmr::vector<std::pmr::string>>(r);
    exercise<relo::pmr::small_vector<std::pmr::string, 4>>(r);
}

TEST(TestResource, ExceptionTestFindsALeak) {
    relo::test_resource r;
    recorder seen;
    r.set_reporter(seen.get());
    std::vector<void*> kept;
    const relo::exception_test_result result = relo::exception_test(r, [&] {
        void* first = r.allocate(16);
        kept.push_back(first);
        void* second = r.allocate(32);  // (throws when the limit is 1: first is then lost)
        r.deallocate(second, 32);
        r.deallocate(first, 16);
        kept.pop_back();
    });
    EXPECT_EQ(result.failed_runs, 2u);
    EXPECT_EQ(result.leaky_runs, 1u);
    ASSERT_EQ(seen.problems.size(), 1u);
    EXPECT_EQ(seen.problems[0].kind, relo::test_resource_problem_kind::leak);
    EXPECT_EQ(seen.problems[0].block.bytes, 16u);
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_EQ(seen.problems[0].address, kept[0]);
    r.deallocate(kept[0], 16);
}

TEST(TestResource, EveryWrongDeallocationIsReportedWithItsBlock) {
    relo::test_resource r;
    recorder seen;
    r.set_reporter(seen.get());
    void* a = r.allocate(24, 8);   // block #1
    void* b = r.allocate(64, 16);  // block #2
    void* c = r.allocate(8, 8);    // block #3
    r.deallocate(a, 32, 8);        // wrong size
    r.deallocate(b, 64, 32);       // wrong alignment
    r.deallocate(c, 8, 8);
    r.deallocate(c, 8, 8);         // double free
    int local = 0;
    r.deallocate(&local, sizeof local, alignof(int));  // foreign pointer
    ASSERT_EQ(seen.problems.size(), 4u);
    const auto& wrong_size = seen.problems[0];
    EXPECT_EQ(wrong_size.kind, relo::test_resource_problem_kind::wrong_size);
    EXPECT_EQ(wrong_size.address, a);
    EXPECT_EQ(wrong_size.bytes, 32u);
    EXPECT_EQ(wrong_size.block.bytes, 24u);
    EXPECT_EQ(wrong_size.block.serial, 1u);
    const auto& wrong_alignment = seen.problems[1];
    EXPECT_EQ(wrong_alignment.kind, relo::test_resource_problem_kind::wrong_alignment);
    EXPECT_EQ(wrong_alignment.alignment, 32u);
    EXPECT_EQ(wrong_alignment.block.alignment, 16u);
    EXPECT_EQ(wrong_alignment.block.serial, 2u);
    const auto& twice = seen.problems[2];
    EXPECT_EQ(twice.kind, relo::test_resource_problem_kind::double_free);
    EXPECT_EQ(twice.block.serial, 3u);
    const auto& foreign = seen.problems[3];
    EXPECT_EQ(foreign.kind, relo::test_resource_problem_kind::foreign_pointer);
    EXPECT_EQ(foreign.address, static_cast<void*>(&local));
    EXPECT_EQ(foreign.block.serial, 0u);
    // The wrongly given back blocks went to the upstream as allocated: nothing is in use.
    EXPECT_EQ(r.blocks_in_use(), 0u);
    EXPECT_EQ(r.problems(), 4u);
}

TEST(TestResource, ALeakIsReportedWhenTheResourceDiesAndTheMemoryStillGoesBack) {
    relo::test_resource outer("outer");  // (the upstream: it sees every byte come back)
    recorder seen;
    {
        relo::test_resource inner(&outer, "inner");
        inner.set_reporter(seen.get());
        inner.allocate(100, 4);
        void* kept = inner.allocate(200, 8);
        inner.allocate(300, 16);
        inner.deallocate(kept, 200, 8);
    }
    ASSERT_EQ(seen.problems.size(), 2u);
    EXPECT_EQ(seen.problems[0].kind, relo::test_resource_problem_kind::leak);
    EXPECT_EQ(seen.problems[0].block.bytes, 100u);
    EXPECT_EQ(seen.problems[0].block.serial, 1u);
    EXPECT_EQ(seen.problems[1].block.bytes, 300u);
    EXPECT_EQ(seen.problems[1].block.serial, 3u);
    EXPECT_EQ(outer.blocks_in_use(), 0u);
    EXPECT_EQ(outer.problems(), 0u);
}

TEST(TestResource, ThreadsShareIt) {
    relo::test_resource r;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&r, t] {
            std::vector<std::pair<void*, std::size_t>> mine;
            for (int i = 0; i < 2000; ++i) {
                const std::size_t size = static_cast<std::size_t>(8 + (i * 7 + t) % 200);
                mine.emplace_back(r.allocate(size), size);
                if (i % 3 == 2) {
                    r.deallocate(mine.back().first, mine.back().second);
                    mine.pop_back();
                }
            }
            for (auto [p, n] : mine) r.deallocate(p, n);
        });
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(r.blocks_in_use(), 0u);
    EXPECT_EQ(r.total_blocks(), 8000u);
    EXPECT_EQ(r.problems(), 0u);
}

// The default reporter prints the problem and aborts: a test with a problem fails.
TEST(TestResourceDeathTest, TheDefaultReporterPrintsAndAborts) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            relo::test_resource r("mine");
            void* p = r.allocate(8, 8);
            r.deallocate(p, 16, 8);
        },
        "mine: wrong size of block #1 \\(8 bytes, alignment 8\\) at .*, given back as 16 bytes, alignment 8");
    EXPECT_DEATH({ relo::test_resource r("mine"); r.allocate(40, 8); }, "mine: leak of block #1 \\(40 bytes, alignment 8\\)");
}

}  // namespace
}  // namespace relo_test
