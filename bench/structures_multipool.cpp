// bench/structures_multipool.cpp — structures_bench's strategies AS7..AS10: relo::multipool_resource, in a translation unit of
// their own (bench/structures.hpp says why).
#include "structures.hpp"

namespace relo_bench::structures_detail {

bool run_multipool(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds) {
    return run_in<multipool_strategies>(impl, ds, elements, iterations, warm, seconds);
}

}  // namespace relo_bench::structures_detail
