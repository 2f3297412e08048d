// bench/idioms_owners.cpp — idioms_bench's fill mode for the element types of idioms::owner_types (idioms_mode.hpp).
#include "idioms_mode.hpp"

namespace relo_bench::idioms {

bool run_fill_owners(const options& opt) { return run_fill_of<owner_types>(opt); }

}  // namespace relo_bench::idioms
