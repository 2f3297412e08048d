// bench/structures_global.cpp — structures_bench's strategies AS1, AS2: the global allocator, in a translation unit of
// their own (bench/structures.hpp says why).
#include "structures.hpp"

namespace relo_bench::structures_detail {

bool run_global(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds) {
    return run_in<global_strategies>(impl, ds, elements, iterations, warm, seconds);
}

}  // namespace relo_bench::structures_detail
