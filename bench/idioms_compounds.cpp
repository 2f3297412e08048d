// bench/idioms_compounds.cpp — idioms_bench's fill mode for the element types of idioms::compound_types (idioms_mode.hpp).
#include "idioms_mode.hpp"

namespace relo_bench::idioms {

bool run_fill_compounds(const options& opt) { return run_fill_of<compound_types>(opt); }

}  // namespace relo_bench::idioms
