// bench/structures_other.cpp — structures_bench's strategies the floors, the standard's and Boost's resources, in a translation unit of
// their own (bench/structures.hpp says why).
#include "structures.hpp"

namespace relo_bench::structures_detail {

bool run_other(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds) {
    return run_in<other_strategies>(impl, ds, elements, iterations, warm, seconds);
}

}  // namespace relo_bench::structures_detail
