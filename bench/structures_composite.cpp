// bench/structures_composite.cpp — structures_bench's strategies AS11..AS14: a multipool over a monotonic resource, in a translation unit of
// their own (bench/structures.hpp says why).
#include "structures.hpp"

namespace relo_bench::structures_detail {

bool run_composite(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds) {
    return run_in<composite_strategies>(impl, ds, elements, iterations, warm, seconds);
}

}  // namespace relo_bench::structures_detail
