// bench/idioms_values.cpp — idioms_bench's fill mode for the element types of idioms::value_types (idioms_mode.hpp).
#include "idioms_mode.hpp"

namespace relo_bench::idioms {

bool run_fill_values(const options& opt) { return run_fill_of<value_types>(opt); }

}  // namespace relo_bench::idioms
