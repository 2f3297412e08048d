// bench/utilization_bench.cpp — P0089's benchmark III (seed 002, section 9): variation in utilization, one
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

namespace relo_bench {
namespace {

constexpr std::size_t block_alignment = alignof(std::max_align_t);

struct global_impl {
    static constexpr bool keeps_everything = false;
    struct state {};
    static void* allocate(state&, std::size_t bytes) { return ::operator new(bytes); }
    static void deallocate(state&, void* p, std::size_t bytes) { ::operator delete(p, bytes); }
};

/// A resource reached directly (Virtual = false) or through std::pmr::memory_resource*.
template <class State, bool Virtual, bool KeepsEverything>
struct resource_impl {
    static constexpr bool keeps_everything = KeepsEverything;
    struct state : State {
        std::pmr::memory_resource* base = &this->resource;
        state() { keep(base); }  // (so that the calls stay virtual)
    };
    static void* allocate(state& s, std::size_t bytes) {
        if constexpr (Virtual) return s.base->allocate(bytes, block_alignment);
        else return s.resource.allocate(bytes, block_alignment);
    }
    static void deallocate(state& s, void* p, std::size_t bytes) {
        if constexpr (Virtual) s.base->deallocate(p, bytes, block_alignment);
        else s.resource.deallocate(p, bytes, block_alignment);
    }
};

template <class Resource>
struct just {
    Resource resource;
};
struct new_delete {
    std::pmr::memory_resource& resource = *std::pmr::new_delete_resource();
};
struct multipool_over_monotonic {
    relo::monotonic_resource monotonic;
    relo::multipool_resource resource{&monotonic};
};

using impls = table<named<"AS1", global_impl>,
                    named<"AS2", resource_impl<new_delete, true, false>>,
                    named<"AS3", resource_impl<just<relo::monotonic_resource>, false, true>>,
                    named<"AS5", resource_impl<just<relo::monotonic_resource>, true, true>>,
                    named<"AS7", resource_impl<just<relo::multipool_resource>, false, false>>,
                    named<"AS9", resource_impl<just<relo::multipool_resource>, true, false>>,
                    named<"AS11", resource_impl<multipool_over_monotonic, false, true>>,
                    named<"AS13", resource_impl<multipool_over_monotonic, true, true>>,
                    named<"std-pool", resource_impl<just<std::pmr::unsynchronized_pool_resource>, true, false>>,
                    named<"std-monotonic", resource_impl<just<std::pmr::monotonic_buffer_resource>, true, true>>>;

template <class Impl>
double churn(std::size_t total, std::size_t active, std::size_t size) {
    typename Impl::state s;
    const std::size_t live = active / size > 0 ? active / size : 1;
    std::vector<unsigned char*> ring(live);  // the live blocks, oldest at `oldest`
    const double start = now_seconds();
    std::size_t allocated = 0, oldest = 0;
    for (std::size_t i = 0; i < live; ++i, allocated += size) {
        ring[i] = static_cast<unsigned char*>(Impl::allocate(s, size));
        { volatile unsigned char* first = ring[i]; *first = static_cast<unsigned char>(*first + 1); }
    }
    for (; allocated < total; allocated += size) {
        Impl::deallocate(s, ring[oldest], size);
        ring[oldest] = static_cast<unsigned char*>(Impl::allocate(s, size));
        { volatile unsigned char* first = ring[oldest]; *first = static_cast<unsigned char>(*first + 1); }
        oldest = oldest + 1 == live ? 0 : oldest + 1;
    }
    for (unsigned char* p : ring) Impl::deallocate(s, p, size);
    return now_seconds() - start;
}

/// The bytes a strategy holds at its peak: all 2^T when it keeps everything (a monotonic resource, or a
/// multipool passing blocks above its largest class to one), else the live blocks.
bool keeps_everything(const std::string& impl, std::size_t size) {
    bool keeps = false;
    impls::with(impl, [&](auto tag) { keeps = decltype(tag)::type::keeps_everything; });
    const bool pooled_by_multipool = size <= relo::multipool_options{}.max_block;
    if (impl == "AS11" || impl == "AS13") return !pooled_by_multipool;
    return keeps;
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
}  // namespace relo_bench

int main(int argc, char** argv) {
    using namespace relo_bench;
    const program p("utilization_bench", {mode::of<impls, table<named<"bytes", char>>>("run", run)});
    return p.main(argc, argv);
}
