// bench/utilization_bench.cpp — P0089's benchmark III (P0089R0, section 9): variation in utilization, one
// case per process.
//
//   utilization_bench run --impl AS7 --total-log T --active-log A --size-log S [--memory-limit B]
//
// Blocks of 2^S bytes are allocated until 2^A bytes are live; then the oldest is freed and a new one
// allocated, until 2^T bytes have been allocated in all; then the live ones are freed. After each
// allocation the block's first byte is incremented. The strategies are the paper's: AS1 the global
// allocator (operator new), AS2 the same through std::pmr::memory_resource, AS3/AS5 relo's monotonic
// resource bound at compile time / at run time, AS7/AS9 relo's multipool, AS11/AS13 a multipool over a
// monotonic resource; std-pool and std-monotonic are std::pmr's resources (run time). A case whose memory
// would exceed --memory-limit bytes (the monotonic strategies keep all 2^T bytes) is reported as skipped
// with the footprint it would need.
#include <cstdint>
#include <memory_resource>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "relo/memory_resource.hpp"
#include "resource_states.hpp"

namespace relo_bench {
namespace {

constexpr std::size_t block_alignment = alignof(std::max_align_t);

/// What a strategy keeps of the blocks freed: nothing (it reuses them), everything (a monotonic resource),
/// or the blocks beyond the multipool's largest class (a multipool passing them to a monotonic resource).
enum class keeps { nothing, everything, beyond_pools };

struct global_impl {
    static bool keeps_everything(std::size_t) { return false; }
    struct state {};
    static void* allocate(state&, std::size_t bytes) { return ::operator new(bytes); }
    static void deallocate(state&, void* p, std::size_t bytes) { ::operator delete(p, bytes); }
};

/// A resource reached directly (Virtual = false) or through std::pmr::memory_resource*.
template <class State, bool Virtual, keeps Kept>
struct resource_impl {
    static bool keeps_everything(std::size_t block) {
        return Kept == keeps::everything || (Kept == keeps::beyond_pools && block > relo::multipool_options{}.max_block);
    }
    struct state : State {
        reach<resource_of<State>, Virtual> calls{this->resource};
    };
    static void* allocate(state& s, std::size_t bytes) { return s.calls.allocate(bytes, block_alignment); }
    static void deallocate(state& s, void* p, std::size_t bytes) { s.calls.deallocate(p, bytes, block_alignment); }
};

using impls =
    table<named<"AS1", global_impl>,
          named<"AS2", resource_impl<new_delete, true, keeps::nothing>>,
          named<"AS3", resource_impl<just<relo::monotonic_resource>, false, keeps::everything>>,
          named<"AS5", resource_impl<just<relo::monotonic_resource>, true, keeps::everything>>,
          named<"AS7", resource_impl<just<relo::multipool_resource>, false, keeps::nothing>>,
          named<"AS9", resource_impl<just<relo::multipool_resource>, true, keeps::nothing>>,
          named<"AS11", resource_impl<multipool_over_monotonic, false, keeps::beyond_pools>>,
          named<"AS13", resource_impl<multipool_over_monotonic, true, keeps::beyond_pools>>,
          named<"std-pool", resource_impl<just<std::pmr::unsynchronized_pool_resource>, true, keeps::nothing>>,
          named<"std-monotonic", resource_impl<just<std::pmr::monotonic_buffer_resource>, true, keeps::everything>>>;

/// Writes a block's first byte (the paper's access to each block).
inline void touch(unsigned char* block) {
    volatile unsigned char* first = block;
    *first = static_cast<unsigned char>(*first + 1);
}

template <class Impl>
double churn(std::size_t total, std::size_t active, std::size_t size) {
    typename Impl::state s;
    const std::size_t live = active / size > 0 ? active / size : 1;
    std::vector<unsigned char*> ring(live);  // the live blocks, oldest at `oldest`
    const double start = now_seconds();
    std::size_t allocated = 0, oldest = 0;
    for (std::size_t i = 0; i < live; ++i, allocated += size) {
        ring[i] = static_cast<unsigned char*>(Impl::allocate(s, size));
        touch(ring[i]);
    }
    for (; allocated < total; allocated += size) {
        Impl::deallocate(s, ring[oldest], size);
        ring[oldest] = static_cast<unsigned char*>(Impl::allocate(s, size));
        touch(ring[oldest]);
        oldest = oldest + 1 == live ? 0 : oldest + 1;
    }
    for (unsigned char* p : ring) Impl::deallocate(s, p, size);
    return now_seconds() - start;
}

/// Whether a strategy holds all 2^T bytes at its peak (else only the live blocks).
bool keeps_everything(const std::string& impl, std::size_t size) {
    bool kept = false;
    impls::with(impl, [&](auto tag) { kept = decltype(tag)::type::keeps_everything(size); });
    return kept;
}

int run(const options& opt) {
    const std::string impl = opt.required("impl");
    const int total_log = static_cast<int>(opt.number("total-log", 28));
    const int active_log = static_cast<int>(opt.number("active-log", 20));
    const int size_log = static_cast<int>(opt.number("size-log", 10));
    const long memory_limit = opt.number("memory-limit", 0);
    if (total_log > 40 || active_log > total_log || size_log > active_log || size_log < 3)
        options::usage_error("need 3 <= --size-log <= --active-log <= --total-log <= 40");
    const std::size_t total = std::size_t{1} << total_log, active = std::size_t{1} << active_log,
                      size = std::size_t{1} << size_log;
    json_line out;
    out.add("impl", impl).add("total_log", static_cast<long>(total_log)).add("active_log", static_cast<long>(active_log));
    out.add("size_log", static_cast<long>(size_log));
    const double footprint = static_cast<double>(keeps_everything(impl, size) ? total : active);
    if (memory_limit > 0 && footprint > static_cast<double>(memory_limit)) {
        out.add("skipped", std::string("more than half of the machine's memory")).add("footprint_bytes", footprint);
        out.print();
        return 0;
    }
    double t = -1;
    if (!impls::with(impl, [&](auto tag) { t = churn<typename decltype(tag)::type>(total, active, size); }))
        options::usage_error("unknown strategy " + impl);
    out.add("time_s", t).add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
    return 0;
}

}  // namespace

program this_program() {
    return program("utilization_bench", {
        mode::of<impls, table<named<"bytes", char>>>("run", run),
    });
}

}  // namespace relo_bench
