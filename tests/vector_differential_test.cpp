// tests/vector_differential_test.cpp — relo::vector against std::vector<int> over long random sequences
// of every modifier (tests/differential.hpp), for every element kind.
#include "relo/vector.hpp"

#include <memory>
#include <string>

#include "differential.hpp"

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
TEST(VectorDifferential, StringWithStdAllocator) {
    run_differential<relo::vector<std::string, std::allocator<std::string>, relo::growth_1_5>>(9);
}

}  // namespace
}  // namespace relo_test
