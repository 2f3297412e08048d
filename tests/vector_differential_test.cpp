// tests/vector_differential_test.cpp — relo::vector against std::vector<int> over long random sequences
// of every modifier (tests/differential.hpp), for every element kind.
#include "relo/vector.hpp"

#include <memory>
#include <string>

#include "differential.hpp"
#include "mapped_ints.hpp"

namespace relo_test {
namespace {

TEST(VectorDifferential, Int) { run_differential<relo::vector<int>>(1); }
TEST(VectorDifferential, BigTrivial) { run_differential<relo::vector<big_trivial>>(2); }
TEST(VectorDifferential, Counted) { run_differential<relo::vector<counted>>(3); }
TEST(VectorDifferential, String) { run_differential<relo::vector<std::string>>(4); }
TEST(VectorDifferential, UniquePtr) { run_differential<relo::vector<std::unique_ptr<int>>>(5); }
TEST(VectorDifferential, Thrower) { run_differential<relo::vector<thrower>>(6); }
TEST(VectorDifferential, Overaligned) { run_differential<relo::vector<overaligned>>(7); }
TEST(VectorDifferential, MarkedRelocatable) { run_differential<relo::vector<marked_relocatable>>(8); }
// Large blocks from 16 KiB for every type (mapped_ints.hpp), so that the random walks (up to 20,000
// elements) cross between malloc and large blocks in both directions, grow them in place and move them.

TEST(VectorDifferential, IntOnLargeBlocks) { run_differential<early_large_vector<int>>(10); }
TEST(VectorDifferential, BigTrivialOnLargeBlocks) { run_differential<early_large_vector<big_trivial>>(11); }
TEST(VectorDifferential, StringOnLargeBlocks) { run_differential<early_large_vector<std::string>>(12); }
TEST(VectorDifferential, CountedOnLargeBlocks) { run_differential<early_large_vector<counted>>(13); }
// The same on 4 KiB pages (early_large_blocks' huge pages are never cached): released blocks stay warm in
// the thread's cache, and a vector takes one with more pages committed than it needs, then grows, moves
// or shrinks it.
TEST(VectorDifferential, IntOnCachedLargeBlocks) { run_differential<cached_large_vector<int>>(14); }
TEST(VectorDifferential, OveralignedOnCachedLargeBlocks) { run_differential<cached_large_vector<overaligned>>(15); }
TEST(VectorDifferential, StringOnCachedLargeBlocks) { run_differential<cached_large_vector<std::string>>(16); }
TEST(VectorDifferential, StringWithStdAllocator) {
    run_differential<relo::vector<std::string, std::allocator<std::string>, relo::growth_1_5>>(9);
}

}  // namespace
}  // namespace relo_test
