// bench/applications_bench.cpp — whole programs, in each configuration (bench/applications.hpp): what a
// user sees when they switch a program's containers, and when they also give it the resource
// relo::recommend picks.
//
//   applications_bench run --program json|graph|sparse|index --impl CONFIG [--scale S] [--reps R]
//   applications_tree_bench run --program tree --impl CONFIG [--scale S] [--reps R]
//   applications_bench list, applications_tree_bench list
// (The syntax tree is a program of its own: llvm::SmallVector brings libLLVM, whose loading would add
// about 45 MiB to every program's peak resident memory.)
// One configuration per process (its peak resident memory is its own); the time is of all R runs, each
// building the program's structures, using them and destroying them. The line also carries the minor page
// faults and the peak resident memory, and for relo-recommended the strategy recommended.
#include <string>

#include "applications.hpp"

namespace relo_bench {
namespace {

using namespace applications;

int run_program(const options& opt) {
    const std::string program = opt.required("program");
    const long scale = opt.number("scale", 1);
    const long reps = opt.number("reps", 1);
    return run_case(opt, [&](const std::string& config, json_line& out, bool) {
        const process_counters before = process_counters::read();
        run_result r;
        bool found = false;
#if defined(RELO_BENCH_APPLICATIONS_TREE)
        if (program == "tree") found = run_tree(config, scale, reps, out, r);
#else
        if (program == "json") found = run_json(config, scale, reps, out, r);
        else if (program == "graph") found = run_graph(config, scale, reps, out, r);
        else if (program == "sparse") found = run_sparse(config, scale, reps, out, r);
        else if (program == "index") found = run_index(config, scale, reps, out, r);
#endif
        else options::usage_error("unknown program " + program);
        out.add("program", program).add("scale", scale).add("reps", reps).add("time_s", r.seconds);
        out.add("checksum", static_cast<long>(r.checksum % 1000000007u)).add_process_counters(before);
        return found;
    });
}

}  // namespace

program this_program() {
#if defined(RELO_BENCH_APPLICATIONS_TREE)
    mode run{"run", run_program, tree_configurations(), {}, {{"tree", 0}}, {}};
    return program("applications_tree_bench", {run});
#else
    mode run{"run", run_program, configurations(), {}, {}, {}};
    for (const char* p : {"json", "graph", "sparse", "index"}) run.types.emplace_back(p, 0);
    return program("applications_bench", {run});
#endif
}

}  // namespace relo_bench
