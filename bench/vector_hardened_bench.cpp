// bench/vector_hardened_bench.cpp — the thesis's environment (vector_bench's env mode) built hardened:
// RELO_HARDENED (every precondition of relo checked, a trap with a message when one fails) and
// _GLIBCXX_ASSERTIONS (libstdc++'s own checks), for relo::vector and std::vector. The hardening family
// (bench/families/hardening.py) measures it against vector_bench's unhardened builds in the same rounds.
// The switches are given on the command line by bench/CMakeLists.txt: every header must see them.
#if !defined(RELO_HARDENED) || !defined(_GLIBCXX_ASSERTIONS)
#error "vector_hardened_bench is built with -DRELO_HARDENED -D_GLIBCXX_ASSERTIONS"
#endif

#include "bench_support.hpp"
#include "vector_env_mode.hpp"
#include "vector_peers.hpp"

namespace relo_bench {
namespace {

using hardened_impls = table<named<"relo", relo_vector<>>, named<"std", std_vector>>;

int run_env(const options& opt) {
    return trivial_element_types::with(opt.required("type"), [](auto) {})
               ? run_env_of<hardened_impls, trivial_element_types>(opt)
               : run_env_of<hardened_impls, class_element_types>(opt);
}

}  // namespace

program this_program() {
    return program("vector_hardened_bench", {
        mode::of<hardened_impls, vector_element_types>("env", run_env),
    });
}

}  // namespace relo_bench
