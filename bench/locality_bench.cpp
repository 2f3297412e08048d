// bench/locality_bench.cpp — P0089's benchmark II (P0089R0, section 8): variation in locality, one case per
// process.
//
//   locality_bench run --impl global|multipool|multipool-arena --system-log G --subsystem-log S --af A --rf R --sf F
//
// A system of 2^G links in k = 2^(G - S) subsystems, each a std::pmr::list<int> of 2^S links, made in turn.
// Then the shuffle: F · 2^G times, the next subsystem in turn gives up its first link and a randomly chosen
// one gets a new link at its back (so the links of a subsystem, allocated contiguously at first, end up
// wherever the allocator finds room). Then the timed accesses: R times over the subsystems, each traversed
// A times before the next. "global": every list on the global allocator (std::pmr::new_delete_resource);
// "multipool": every subsystem on a relo::multipool_resource of its own, which keeps its links together;
// "multipool-arena": the same, each multipool's first chunks sized to hold its subsystem and all of them
// drawing their chunks from one relo::monotonic_resource, so that consecutive subsystems are also
// consecutive in memory as on the global allocator before any shuffling.
// Printed: the access time (the shuffle is done before the clock starts, so nothing needs subtracting).
#include <cstdint>
#include <list>
#include <memory>
#include <memory_resource>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "relo/monotonic_resource.hpp"
#include "relo/multipool_resource.hpp"

namespace relo_bench {
namespace {

/// One subsystem: its list, and the multipool it allocates from when it has one (made with `options`, its
/// chunks from `upstream`).
struct subsystem {
    std::unique_ptr<relo::multipool_resource> pool;
    std::pmr::list<int> links;
    subsystem() : links(std::pmr::new_delete_resource()) {}
    subsystem(const relo::multipool_options& options, std::pmr::memory_resource* upstream)
        : pool(std::make_unique<relo::multipool_resource>(options, upstream)), links(pool.get()) {}
};

int run(const options& opt) {
    const std::string impl = opt.required("impl");
    if (impl != "global" && impl != "multipool" && impl != "multipool-arena")
        options::usage_error("unknown implementation " + impl);
    const int system_log = static_cast<int>(opt.number("system-log", 20));
    const int subsystem_log = static_cast<int>(opt.number("subsystem-log", 10));
    const long access_factor = opt.number("af", 4);
    const long repeat_factor = opt.number("rf", 1);
    const long shuffle_factor = opt.number("sf", 0);
    if (subsystem_log < 0 || subsystem_log > system_log || system_log > 30)
        options::usage_error("--subsystem-log is 0 to --system-log, which is at most 30");
    const std::size_t links = std::size_t{1} << system_log;
    const std::size_t k = std::size_t{1} << (system_log - subsystem_log);
    const std::size_t per_subsystem = std::size_t{1} << subsystem_log;

    relo::monotonic_resource arena;  // (multipool-arena: declared first, so it outlives the subsystems)
    relo::multipool_options sized;
    sized.first_blocks = per_subsystem;
    std::vector<std::unique_ptr<subsystem>> system;
    system.reserve(k);
    int value = 0;
    for (std::size_t s = 0; s < k; ++s) {
        if (impl == "global")
            system.push_back(std::make_unique<subsystem>());
        else if (impl == "multipool")
            system.push_back(std::make_unique<subsystem>(relo::multipool_options{}, std::pmr::get_default_resource()));
        else
            system.push_back(std::make_unique<subsystem>(sized, &arena));
        for (std::size_t i = 0; i < per_subsystem; ++i) system.back()->links.push_back(value++);
    }

    xorshift rng;
    const double shuffle_start = now_seconds();
    const std::size_t moves = static_cast<std::size_t>(shuffle_factor) * links;
    for (std::size_t m = 0; m < moves; ++m) {
        std::pmr::list<int>& from = system[m % k]->links;
        if (!from.empty()) from.pop_front();
        system[rng.next() % k]->links.push_back(value++);
    }
    const double shuffle_time = now_seconds() - shuffle_start;

    long sum = 0;
    const double start = now_seconds();
    for (long r = 0; r < repeat_factor; ++r)
        for (const auto& s : system)
            for (long a = 0; a < access_factor; ++a)
                for (int x : s->links) sum += x;
    const double t = now_seconds() - start;
    keep(sum);

    json_line out;
    out.add("impl", impl).add("system_log", static_cast<long>(system_log)).add("subsystem_log", static_cast<long>(subsystem_log));
    out.add("af", access_factor).add("rf", repeat_factor).add("sf", shuffle_factor);
    out.add("shuffle_s", shuffle_time).add("time_s", t).add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
    return 0;
}

struct global_impl {};
struct multipool_impl {};
struct multipool_arena_impl {};
using impls = table<named<"global", global_impl>, named<"multipool", multipool_impl>,
                    named<"multipool-arena", multipool_arena_impl>>;

}  // namespace

program this_program() {
    return program("locality_bench", {
        mode::of<impls, table<named<"int", int>>>("run", run),
    });
}

}  // namespace relo_bench
