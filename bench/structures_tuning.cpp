// bench/structures_tuning.cpp — structures_bench's strategies the chunk cache's sweep, in a translation unit of
// their own (bench/structures.hpp says why).
#include "structures.hpp"

namespace relo_bench::structures_detail {

bool run_tuning(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds) {
    return run_in<tuning_strategies>(impl, ds, elements, iterations, warm, seconds);
}

}  // namespace relo_bench::structures_detail
