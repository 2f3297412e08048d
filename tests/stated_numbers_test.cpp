// tests/stated_numbers_test.cpp — the numbers the headers, README.md and docs/ state as facts of the code
// (sizes, defaults, limits), each checked here, so that a change that makes one false fails. Measured
// numbers (times, ratios) are not facts of the code: they live, dated, in docs/measurements/ only.
#include <cstddef>
#include <cstdint>
#include <utility>

#include <gtest/gtest.h>

#include "relo/relo.hpp"

namespace relo_test {
namespace {

constexpr std::size_t kib = std::size_t{1} << 10;
constexpr std::size_t mib = std::size_t{1} << 20;
constexpr std::size_t gib = std::size_t{1} << 30;

// relo/inplace_vector.hpp: "sizeof(inplace_vector<char, 5>) == 6".
static_assert(sizeof(relo::inplace_vector<char, 5>) == 6);
// relo/small_vector.hpp and docs/decisions.md: 56 bytes for <int, 8> (pointer, size, capacity, 8 ints);
// the default inline capacity makes the object about 64 bytes.
static_assert(sizeof(relo::small_vector<int, 8>) == 56);
static_assert(sizeof(relo::small_vector<int>) == 64);
// relo/page_allocator.hpp and docs/measurements/thresholds.md, the defaults' table.
static_assert(relo::page_allocator_policy::relocatable_mapping_threshold == 64 * kib);
static_assert(relo::page_allocator_policy::other_mapping_threshold == 128 * kib);
static_assert(relo::page_allocator_policy::reservation_factor == 16);
static_assert(relo::page_allocator_policy::realloc_threshold == 1 * kib);
static_assert(relo::page_allocator_policy::huge_page_threshold == SIZE_MAX, "no huge pages by default");
static_assert(relo::large_block_policy::huge_page_threshold == 2 * mib);
// relo/growth.hpp: the first allocation holds at least 24 bytes' worth of elements; the default factor is 2.
static_assert(std::is_same_v<relo::vector<int>::growth_policy, relo::growth_2>);
// relo/commit_policy.hpp: the commit rules.
static_assert(relo::geometric_commit::rule.first_step == 4 * kib && relo::geometric_commit::rule.max_step == 64 * mib &&
              relo::geometric_commit::rule.retained_minimum == 2 * mib &&
              relo::geometric_commit::rule.huge_page_threshold == SIZE_MAX);
static_assert(relo::huge_page_commit::rule.huge_page_threshold == 2 * mib);
static_assert(relo::page_commit::rule.first_step == 4 * kib && relo::page_commit::rule.max_step == 4 * kib);
// relo/pinned_vector.hpp and README.md: 4 GiB reserved by default (64-bit); relo/vm_arena.hpp: 16 GiB.
static_assert(sizeof(void*) < 8 || relo::pinned_vector<int>::default_reservation == 4 * gib);
static_assert(sizeof(void*) < 8 || relo::vm_arena::default_reservation == 16 * gib);

TEST(StatedNumbers, FirstAllocationHolds24Bytes) {
    relo::vector<char> bytes;
    bytes.push_back('a');
    EXPECT_GE(bytes.capacity(), 24u);
    relo::vector<int> ints;
    ints.push_back(1);
    EXPECT_GE(ints.capacity() * sizeof(int), 24u);
    relo::vector<std::pair<long, long>> pairs;
    pairs.push_back({1, 2});
    EXPECT_GE(pairs.capacity(), 1u);
}

// relo/multipool_resource.hpp: "under 1 KiB", "the pools live in it when there are at most 16 (the default
// options make 10)", classes from 8 bytes to max_block 4096.
TEST(StatedNumbers, MultipoolDefaults) {
    static_assert(sizeof(relo::multipool_resource) < 1 * kib);
    const relo::multipool_resource pools;
    EXPECT_EQ(pools.pool_count(), 10u);
    EXPECT_EQ(relo::multipool_options{}.max_block, 4096u);
}

// relo/warm_memory.hpp (tests/warm_memory_test.cpp checks their sum): the caches' default bounds.
TEST(StatedNumbers, WarmMemoryBounds) {
    EXPECT_EQ(relo::chunk_cache_limit(), 8 * mib);
    EXPECT_EQ(relo::large_block_cache_limit(), 64 * mib);
    EXPECT_EQ(relo::reservation_cache_limit(), 4u);
    EXPECT_EQ(relo::detail::reservation_cache_committed_budget, 32 * mib);
}

// relo/detail/config.hpp's version is the project's (CMakeLists.txt, the package's files).
constexpr int project_version[] = {RELO_TEST_PROJECT_VERSION};
static_assert(RELO_VERSION_MAJOR == project_version[0] && RELO_VERSION_MINOR == project_version[1] &&
              RELO_VERSION_PATCH == project_version[2]);
static_assert(RELO_VERSION == RELO_VERSION_MAJOR * 10000 + RELO_VERSION_MINOR * 100 + RELO_VERSION_PATCH);

// docs/settings.md and relo/warm_memory.hpp: the warm budget's defaults, as the build states them (the
// tests settings_* read them in a process of their own, with and without the environment's).
static_assert(RELO_DEFAULT_WARM_MEMORY_LIMIT == 32 * mib);
static_assert(RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS == 1000);

}  // namespace
}  // namespace relo_test
