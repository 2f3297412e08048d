// bench/vector_env_trivial.cpp — vector_bench's env mode for the element types of trivial_element_types.
#include "vector_env_mode.hpp"

namespace relo_bench {

int run_env_trivial(const options& opt) { return run_env_of<vector_impls, trivial_element_types>(opt); }

}  // namespace relo_bench
