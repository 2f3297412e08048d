// bench/idioms_bench.cpp — the element types real code stores, filled the ways real code fills a vector
// (bench/idioms.hpp), in every relo container against std::vector, Boost's small_vector and static_vector:
// the idioms experiment (bench/families/idioms.py). The fill mode is idioms_mode.hpp's.
//
//   idioms_bench fill --type T --idiom I --growth reserved|growing|reused --n N --reps R --rounds K --impls a,...
//   idioms_bench list
// idioms_debug_bench is the same program built as a debug build is (-O0, no NDEBUG); idioms_one_unit*_bench
// the same as one translation unit (idioms_one_unit.cpp).
#include "idioms_mode.hpp"

namespace relo_bench {
namespace {

int run_fill(const options& opt) {
    if (!idioms::run_fill_values(opt) && !idioms::run_fill_compounds(opt) && !idioms::run_fill_owners(opt))
        options::usage_error("unknown type " + opt.required("type"));
    return 0;
}

}  // namespace

program this_program() {
#if defined(RELO_BENCH_IDIOMS_NAME)
    const char* const name = RELO_BENCH_IDIOMS_NAME;  // (the same, built otherwise: bench/CMakeLists.txt)
#elif defined(RELO_BENCH_IDIOMS_DEBUG)
    const char* const name = "idioms_debug_bench";  // (the same, built as a debug build is: bench/CMakeLists.txt)
#else
    const char* const name = "idioms_bench";
#endif
    return program(name, {mode::of<idioms::implementations, idioms::element_types>("fill", run_fill)});
}

}  // namespace relo_bench
