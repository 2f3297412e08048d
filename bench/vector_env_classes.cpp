// bench/vector_env_classes.cpp — vector_bench's env mode for the element types of class_element_types.
#include "vector_env_mode.hpp"

namespace relo_bench {

int run_env_classes(const options& opt) { return run_env_of<vector_impls, class_element_types>(opt); }

}  // namespace relo_bench
