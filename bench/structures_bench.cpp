// bench/structures_bench.cpp — P0089's benchmark I (P0089R0, section 7): creating and destroying isolated
// data structures under the paper's fourteen allocation strategies, one case per process.
//
//   structures_bench run --impl AS7 --ds 3 --size-log 10 --leaves-log 27
//       builds DS3 (unordered_set<int>) of 2^10 elements and destroys it, 2^(27 - 10) times; DS5..DS12 have
//       2^7 leaves per element, so they are built 2^(27 - 7 - 10) times (at least once); with --warm 1 every
//       strategy first builds and destroys one untimed (a long-lived program's memory: warm)
//   structures_bench list
//
// The data structures (the paper's Table 2): DS1 vector<int>, DS2 vector<string>, DS3 unordered_set<int>,
// DS4 unordered_set<string>, then DS5..DS8 a vector and DS9..DS12 an unordered_set of each of DS1..DS4
// with 2^7 leaves each. Strings are 33 to 100 characters long (uniform), outside the short-string buffer.
// Vectors are reserved to their final size first. The paper wrote every leaf through a pointer to volatile,
// so that the compiler could not skip the work: a string's bytes are written so here, and an int leaf
// passes through an empty asm statement (hidden from the optimizer without a store and a load per leaf).
// The code that builds a structure is the same under every strategy: fill() is always inlined and the
// structure's address escapes (left to the compiler, only std::allocator's loop was inlined and kept the
// vector in registers, which halved its time per leaf of vector<int>, none of it the allocator's).
// One allocator serves the whole structure: relo's resources through
// std::scoped_allocator_adaptor<relo::resource_allocator> (compile-time binding) or
// std::pmr::polymorphic_allocator (runtime binding, which propagates itself).
//
// The strategies (the paper's Table 1): AS1 the global allocator (std::allocator); AS2 the global allocator
// through std::pmr::memory_resource (new_delete_resource); AS3..AS6 relo::monotonic_resource, AS7..AS10
// relo::multipool_resource, AS11..AS14 a multipool over a monotonic resource — in each group of four:
// compile-time binding, the same winked out, runtime binding, the same winked out. "Winked out": the
// structure is never destroyed; the resource, a local of the iteration, gives its memory back at once.
// Beside them: std-pool and std-monotonic (std::pmr's unsynchronized pool and monotonic buffer resources
// in the AS9 and AS5 roles), boost-pool and boost-monotonic (Boost.Container's), AS1 under another
// global allocator (the runner preloads it: AS1+mimalloc ...), and the floors: allocation at no cost (a
// bump pointer, never freeing) over memory an untimed first build faulted in (floor) or that the timed
// builds fault in once (floor-cold), what every strategy is measured against.
#include <cstdio>
#include <string>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "relo/profiling_resource.hpp"
#include "structures.hpp"

namespace relo_bench {
namespace {

using namespace structures_detail;

/// The implementation "recommended" (listed only: run() profiles, then runs the strategy chosen).
struct recommended_by_profile {};

/// What relo::recommend says of data structure number ds at 2^size_log elements, built once on a
/// relo::profiling_resource and profiled before it is destroyed, as the name of the strategy that carries
/// it out here. The structures are dropped whole, so a local resource is winked out (AS4, AS8, AS12).
std::string recommended_strategy(int ds, std::size_t elements, relo::allocation_profile& profile) {
    structures<pmr_allocator>::with(ds, [&](auto d) {
        using DS = typename decltype(d)::type;
        relo::profiling_resource profiler;
        leaf_source leaves;
        DS built{typename DS::allocator_type(&profiler)};
        fill(built, elements, leaves);
        profile = profiler.profile();
    });
    switch (relo::recommend(profile).strategy) {
        case relo::allocation_strategy::global_allocator: return "AS1";
        case relo::allocation_strategy::monotonic: return "AS4";
        case relo::allocation_strategy::multipool: return "AS8";
        case relo::allocation_strategy::multipool_over_monotonic: return "AS12";
        case relo::allocation_strategy::synchronized_multipool: return "AS7";  // (one thread here)
    }
    return "AS1";
}

/// `structures_bench recommend --ds D --size-log N`: relo::recommend's choice for the cell and the profile,
/// as raw bytes on stdout (for run(), which asks a process of its own: see recommended_by_a_process).
int recommend_mode(const options& opt) {
    const int ds = static_cast<int>(opt.number("ds", 1));
    const int size_log = static_cast<int>(opt.number("size-log", 10));
    relo::allocation_profile profile;
    char name[8] = {};
    std::snprintf(name, sizeof name, "%s", recommended_strategy(ds, std::size_t{1} << size_log, profile).c_str());
    const bool written = std::fwrite(name, sizeof name, 1, stdout) == 1 && std::fwrite(&profile, sizeof profile, 1, stdout) == 1;
    return written ? 0 : 1;
}

/// recommend_mode() run by another process (posix_spawn of this program, which shares nothing with this
/// one: a fork would leave every page of this process copy-on-write, and the timed builds would fault them).
std::string recommended_by_a_process(int ds, int size_log, relo::allocation_profile& profile) {
    int fds[2];
    if (::pipe(fds) != 0) options::usage_error("pipe() failed");
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    ::posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::string ds_arg = std::to_string(ds), size_arg = std::to_string(size_log);
    char program[] = "/proc/self/exe";
    char mode[] = "recommend";
    char ds_key[] = "--ds";
    char size_key[] = "--size-log";
    char* argv[] = {program, mode, ds_key, ds_arg.data(), size_key, size_arg.data(), nullptr};
    pid_t child = 0;
    const int spawned = ::posix_spawn(&child, program, &actions, nullptr, argv, environ);
    ::posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    char name[8] = {};
    const bool read_all = spawned == 0 && ::read(fds[0], name, sizeof name) == static_cast<ssize_t>(sizeof name) &&
                          ::read(fds[0], &profile, sizeof profile) == static_cast<ssize_t>(sizeof profile);
    ::close(fds[0]);
    int status = 0;
    if (spawned == 0) ::waitpid(child, &status, 0);
    if (!read_all || !WIFEXITED(status) || WEXITSTATUS(status) != 0) options::usage_error("the profiling process failed");
    return name;
}

int run(const options& opt) {
    std::string impl = opt.required("impl");
    const int ds = static_cast<int>(opt.number("ds", 1));
    const int size_log = static_cast<int>(opt.number("size-log", 10));
    const int leaves_log = static_cast<int>(opt.number("leaves-log", 20));
    const bool warm = opt.number("warm", 0) != 0;
    if (ds < 1 || ds > 12) options::usage_error("--ds is 1 to 12");
    if (size_log < 0 || size_log > 24) options::usage_error("--size-log is 0 to 24");
    const int per_element_log = ds <= 4 ? 0 : leaves_per_element_log;
    const int iterations_log = leaves_log - per_element_log - size_log;
    const long iterations = iterations_log > 0 ? long{1} << iterations_log : 1;
    double t = -1;
    // "recommended": the strategy relo::recommend picks from a profile of one build — made by another
    // process, so that the profiling build leaves nothing in this one —, then timed as itself.
    const std::string asked = impl;
    relo::allocation_profile profile;
    if (impl == "recommended") impl = recommended_by_a_process(ds, size_log, profile);
    const std::size_t elements = std::size_t{1} << size_log;
    bool found = false;
    for (auto group : {run_global, run_monotonic, run_multipool, run_composite, run_other, run_tuning})
        if (!found) found = group(impl, ds, elements, iterations, warm, t);
    if (!found) options::usage_error("unknown strategy " + impl);
    const double leaves = static_cast<double>(iterations) * static_cast<double>(std::size_t{1} << (size_log + per_element_log));
    json_line out;
    out.add("impl", asked).add("ds", static_cast<long>(ds)).add("size_log", static_cast<long>(size_log));
    if (asked != impl) {
        out.add("recommended_as", impl).add("profile_allocations", static_cast<long>(profile.allocations));
        out.add("profile_peak_to_total", profile.peak_to_total()).add("profile_reuse", profile.reuse_fraction());
    }
    out.add("iterations", iterations).add("leaves", leaves).add("time_s", t);
    out.add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
    return 0;
}

}  // namespace

program this_program() {
    return program("structures_bench", {
        mode::of<join_t<strategies, table<named<"recommended", recommended_by_profile>>>, table<named<"leaf", int>>>(
            "run", run),
        mode::of<table<>, table<named<"leaf", int>>>("recommend", recommend_mode),
    });
}

}  // namespace relo_bench
