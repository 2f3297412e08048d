// bench/allocator_bench.cpp — local memory resources against the standard's, Boost's and the global
// allocator (P0089R0), one case per process.
//
//   allocator_bench random --impl I --ops N --live L   N random operations on a set of at most L live
//                                                       blocks of 8 to 512 bytes: allocate, or free a
//                                                       random live block
//   allocator_bench nodes  --impl I --n N --reps R [--fresh 0]
//                                                       R times: build an unordered_set<int> of N elements
//                                                       on a fresh allocator (--fresh 0: on one allocator
//                                                       that outlives them all), then destroy it
//   allocator_bench threads --impl I --threads W --ops N       W threads making N random operations each (64
//                                                       to 256 bytes) on one shared resource, or each on
//                                                       its own (relo-multipool-each)
//   allocator_bench list
//
// How each implementation is reached (the paper's "binding"): "malloc" is std::allocator (operator new;
// glibc's malloc, or another one preloaded: malloc+jemalloc ...); "std-*" and "boost-*" are the standard's
// and Boost's pool and monotonic resources through their polymorphic_allocator (a virtual call per
// allocation); "relo-*" through relo::resource_allocator (bound at compile time, no virtual call) and
// "relo-*-pmr" through std::pmr::polymorphic_allocator (runtime binding).
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#if defined(RELO_BENCH_HAVE_BOOST_PMR)
#include <boost/container/pmr/memory_resource.hpp>
#include <boost/container/pmr/monotonic_buffer_resource.hpp>
#include <boost/container/pmr/polymorphic_allocator.hpp>
#include <boost/container/pmr/unsynchronized_pool_resource.hpp>
#endif

#include "bench_support.hpp"
#include "relo/memory_resource.hpp"
#include "relo/profiling_resource.hpp"
#include "relo/test_resource.hpp"
#include "resource_states.hpp"

namespace relo_bench {
namespace {

/// The global allocator.
struct malloc_impl {
    struct state {};
    template <class T>
    using allocator = std::allocator<T>;
    template <class T>
    static allocator<T> allocator_of(state&) {
        return {};
    }
    static void* allocate(state&, std::size_t bytes) { return ::operator new(bytes); }
    static void deallocate(state&, void* p, std::size_t bytes) { ::operator delete(p, bytes); }
};

/// A std::pmr resource reached through std::pmr::memory_resource* (a virtual call each time). State holds
/// it as `resource` (bench/resource_states.hpp: new_delete is the global heap's).
template <class Resource, class State = just<Resource>>
struct std_pmr_impl {
    struct state {
        State held;
        std::pmr::memory_resource* base = &held.resource;
        state() { keep(base); }  // (so that the calls stay virtual)
    };
    template <class T>
    using allocator = std::pmr::polymorphic_allocator<T>;
    template <class T>
    static allocator<T> allocator_of(state& s) {
        return allocator<T>(s.base);
    }
    static void* allocate(state& s, std::size_t bytes) { return s.base->allocate(bytes, 8); }
    static void deallocate(state& s, void* p, std::size_t bytes) { s.base->deallocate(p, bytes, 8); }
};

/// A relo resource bound at compile time: relo::resource_allocator calls it directly. State holds the
/// resource (as `resource`) and whatever it is built on.
template <class Resource, class State = just<Resource>>
struct relo_direct_impl {
    using state = State;
    template <class T>
    using allocator = relo::resource_allocator<T, Resource>;
    template <class T>
    static allocator<T> allocator_of(state& s) {
        return allocator<T>(&s.resource);
    }
    static void* allocate(state& s, std::size_t bytes) { return s.resource.allocate(bytes, 8); }
    static void deallocate(state& s, void* p, std::size_t bytes) { s.resource.deallocate(p, bytes, 8); }
};

/// relo::multipool_resource with other options, for the sweeps that chose the defaults.
template <std::size_t MaxBlock, std::size_t PerDoubling, std::size_t FirstBlocks, std::size_t MaxChunk>
struct multipool_with {
    relo::multipool_resource resource{relo::multipool_options{MaxBlock, PerDoubling, FirstBlocks, MaxChunk}};
};
template <std::size_t MaxBlock, std::size_t PerDoubling, std::size_t FirstBlocks, std::size_t MaxChunk>
using multipool_variant_impl =
    relo_direct_impl<relo::multipool_resource, multipool_with<MaxBlock, PerDoubling, FirstBlocks, MaxChunk>>;

/// relo::monotonic_resource with another first chunk (the sweep that chose the default).
template <std::size_t FirstChunk>
struct monotonic_with {
    relo::monotonic_resource resource{FirstChunk};
};
template <std::size_t FirstChunk>
using monotonic_variant_impl = relo_direct_impl<relo::monotonic_resource, monotonic_with<FirstChunk>>;

#if defined(RELO_BENCH_HAVE_BOOST_PMR)
/// Boost.Container's resource through its own polymorphic_allocator (a virtual call each time).
template <class Resource>
struct boost_pmr_impl {
    struct state {
        Resource resource;
        boost::container::pmr::memory_resource* base = &resource;
        state() { keep(base); }
    };
    template <class T>
    using allocator = boost::container::pmr::polymorphic_allocator<T>;
    template <class T>
    static allocator<T> allocator_of(state& s) {
        return allocator<T>(s.base);
    }
    static void* allocate(state& s, std::size_t bytes) { return s.base->allocate(bytes, 8); }
    static void deallocate(state& s, void* p, std::size_t bytes) { s.base->deallocate(p, bytes, 8); }
};
using boost_allocator_impls =
    table<named<"boost-pool", boost_pmr_impl<boost::container::pmr::unsynchronized_pool_resource>>,
          named<"boost-monotonic", boost_pmr_impl<boost::container::pmr::monotonic_buffer_resource>>>;
#else
using boost_allocator_impls = table<>;
#endif

constexpr std::size_t kib = 1024;
using allocator_impls = join_t<
    table<named<"malloc", malloc_impl>, named<"std-pool", std_pmr_impl<std::pmr::unsynchronized_pool_resource>>,
          named<"std-monotonic", std_pmr_impl<std::pmr::monotonic_buffer_resource>>>,
    boost_allocator_impls,
    table<named<"relo-multipool", relo_direct_impl<relo::multipool_resource>>,
          named<"relo-multipool-pmr", std_pmr_impl<relo::multipool_resource>>,
          named<"relo-monotonic", relo_direct_impl<relo::monotonic_resource>>,
          named<"relo-monotonic-pmr", std_pmr_impl<relo::monotonic_resource>>,
          named<"relo-multipool-mono", relo_direct_impl<relo::multipool_resource, multipool_over_monotonic>>,
          named<"relo-multipool-k2", multipool_variant_impl<4 * kib, 2, 8, 64 * kib>>,
          named<"relo-multipool-k4", multipool_variant_impl<4 * kib, 4, 8, 64 * kib>>,
          named<"relo-multipool-max1k", multipool_variant_impl<1 * kib, 1, 8, 64 * kib>>,
          named<"relo-multipool-max16k", multipool_variant_impl<16 * kib, 1, 8, 64 * kib>>,
          named<"relo-multipool-first2", multipool_variant_impl<4 * kib, 1, 2, 64 * kib>>,
          named<"relo-multipool-first32", multipool_variant_impl<4 * kib, 1, 32, 64 * kib>>,
          named<"relo-multipool-chunk16k", multipool_variant_impl<4 * kib, 1, 8, 16 * kib>>,
          named<"relo-multipool-chunk256k", multipool_variant_impl<4 * kib, 1, 8, 256 * kib>>,
          named<"relo-monotonic-first1k", monotonic_variant_impl<1 * kib>>,
          named<"relo-monotonic-first64k", monotonic_variant_impl<64 * kib>>,
          named<"relo-monotonic-first1m", monotonic_variant_impl<1024 * kib>>,
          named<"new-delete", std_pmr_impl<std::pmr::memory_resource, new_delete>>,
          named<"relo-test", relo_direct_impl<relo::test_resource>>,
          named<"relo-profiling", relo_direct_impl<relo::profiling_resource>>>>;

/// A cheap generator (the same sequence for every implementation).
struct lcg {
    std::uint64_t state;
    std::uint32_t next() {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>(state >> 33);
    }
};

template <class Impl>
double random_case(long ops, long live_cap) {
    typename Impl::state s;
    struct block {
        void* p;
        std::size_t bytes;
    };
    std::vector<block> live;
    live.reserve(static_cast<std::size_t>(live_cap));
    lcg rng{42};
    const double start = now_seconds();
    for (long i = 0; i < ops; ++i) {
        const std::uint32_t r = rng.next();
        if (live.empty() || (static_cast<long>(live.size()) < live_cap && (r & 1) != 0)) {
            const std::size_t bytes = 8 + (r >> 1) % 505;  // 8 .. 512
            void* p = Impl::allocate(s, bytes);
            *static_cast<volatile char*>(p) = 1;
            live.push_back({p, bytes});
        } else {
            const std::size_t k = (r >> 1) % live.size();
            Impl::deallocate(s, live[k].p, live[k].bytes);
            live[k] = live.back();
            live.pop_back();
        }
    }
    for (const block& b : live) Impl::deallocate(s, b.p, b.bytes);
    return now_seconds() - start;
}

template <class Impl>
void build_and_destroy_set(typename Impl::state& s, long n, lcg& rng) {
    using alloc = typename Impl::template allocator<int>;
    std::unordered_set<int, std::hash<int>, std::equal_to<int>, alloc> set(0, std::hash<int>(), std::equal_to<int>(),
                                                                           Impl::template allocator_of<int>(s));
    for (long i = 0; i < n; ++i) set.insert(static_cast<int>(rng.next()));
    keep(set.size());
}

/// `reps` sets, each on a fresh allocator state (the paper's use: a resource per data structure), or all
/// on one that outlives them (a long-lived resource whose freed blocks are reused).
template <class Impl>
double nodes_case(long n, long reps, bool fresh) {
    lcg rng{7};
    const double start = now_seconds();
    if (fresh) {
        for (long r = 0; r < reps; ++r) {
            typename Impl::state s;
            build_and_destroy_set<Impl>(s, n, rng);
        }
    } else {
        typename Impl::state s;
        for (long r = 0; r < reps; ++r) build_and_destroy_set<Impl>(s, n, rng);
    }
    return now_seconds() - start;
}

/// One case of a mode: `measure` runs it for the implementation named by --impl.
template <class Measure>
int run_case(const options& opt, json_line& out, Measure measure) {
    const std::string impl = opt.required("impl");
    double t = -1;
    const bool found = allocator_impls::with(impl, [&](auto tag) { t = measure(tag); });
    if (!found) options::usage_error("unknown implementation " + impl);
    out.add("impl", impl).add("time_s", t).add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
    return 0;
}

int run_random(const options& opt) {
    const long ops = opt.number("ops", 2000000);
    const long live = opt.number("live", 10000);
    json_line out;
    out.add("ops", ops).add("live", live);
    return run_case(opt, out, [&](auto tag) { return random_case<typename decltype(tag)::type>(ops, live); });
}

int run_nodes(const options& opt) {
    const long n = opt.number("n", 10000);
    const long reps = opt.number("reps", 100);
    const bool fresh = opt.number("fresh", 1) != 0;
    json_line out;
    out.add("n", n).add("reps", reps).add("fresh", fresh ? 1L : 0L);
    return run_case(opt, out, [&](auto tag) { return nodes_case<typename decltype(tag)::type>(n, reps, fresh); });
}

// ---- Several threads on one resource (or on one resource each).

/// W threads, each making `ops` random operations on its own set of at most `live` blocks, all on the
/// implementation's shared resource (the global allocator, a synchronized pool), or each on a resource of
/// its own (PerThread): the time until the last one is done.
template <class Impl, bool PerThread = false>
double threads_case(int workers, long ops, long live_cap) {
    typename Impl::state shared;
    const double start = now_seconds();
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) {
        threads.emplace_back([&, w] {
            std::optional<typename Impl::state> own;
            if constexpr (PerThread) own.emplace();
            typename Impl::state& s = PerThread ? *own : shared;
            struct block {
                void* p;
                std::size_t bytes;
            };
            std::vector<block> blocks;
            blocks.reserve(static_cast<std::size_t>(live_cap));
            lcg rng{static_cast<std::uint64_t>(w) * 7919 + 1};
            for (long i = 0; i < ops; ++i) {
                const std::uint32_t r = rng.next();
                if (blocks.empty() || (static_cast<long>(blocks.size()) < live_cap && (r & 1) != 0)) {
                    const std::size_t bytes = 64 + (r >> 1) % 193;  // 64 .. 256, as P0089's contention test
                    void* p = Impl::allocate(s, bytes);
                    *static_cast<volatile char*>(p) = 1;
                    blocks.push_back({p, bytes});
                } else {
                    const std::size_t k = (r >> 1) % blocks.size();
                    Impl::deallocate(s, blocks[k].p, blocks[k].bytes);
                    blocks[k] = blocks.back();
                    blocks.pop_back();
                }
            }
            for (const block& b : blocks) Impl::deallocate(s, b.p, b.bytes);
        });
    }
    for (std::thread& t : threads) t.join();
    return now_seconds() - start;
}

using thread_impls = table<named<"malloc", malloc_impl>,
                           named<"std-sync-pool", std_pmr_impl<std::pmr::synchronized_pool_resource>>,
                           named<"relo-sync-multipool", relo_direct_impl<relo::synchronized_multipool_resource>>,
                           named<"relo-sync-multipool-pmr", std_pmr_impl<relo::synchronized_multipool_resource>>,
                           named<"relo-multipool-each", relo_direct_impl<relo::multipool_resource>>>;

int run_threads(const options& opt) {
    const std::string impl = opt.required("impl");
    const int workers = static_cast<int>(opt.number("threads", 1));
    const long ops = opt.number("ops", 1000000);
    const long live = opt.number("live", 1000);
    double t = -1;
    const bool found = thread_impls::with(impl, [&](auto tag) {
        using Impl = typename decltype(tag)::type;
        if constexpr (std::is_same_v<Impl, relo_direct_impl<relo::multipool_resource>>) {
            t = threads_case<Impl, true>(workers, ops, live);
        } else {
            t = threads_case<Impl>(workers, ops, live);
        }
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    json_line out;
    out.add("impl", impl).add("threads", static_cast<long>(workers)).add("ops", ops).add("time_s", t);
    out.add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
    return 0;
}

}  // namespace

program this_program() {
    return program("allocator_bench", {
        mode::of<allocator_impls, table<named<"bytes", char>>>("random", run_random),
        mode::of<allocator_impls, table<named<"int", int>>>("nodes", run_nodes),
        mode::of<thread_impls, table<named<"bytes", char>>>("threads", run_threads),
    });
}

}  // namespace relo_bench
