// bench/pinned_bench.cpp — the measurements of "Reserve and commit" ("Reserve and commit"): appends to one
// container whose elements must stay where they are, one case per process.
//
//   pinned_bench append  --impl I --type int|unique_ptr --n N   time of n appends, then of one pass reading
//                                                               every element; peak resident memory; commits
//   pinned_bench latency --impl I --n N                         every append of an int timed: the notes'
//                                                               decade buckets, min, max, p99.9
//   pinned_bench short-lived --impl I --n N --reps R            R times: a container made, n ints appended
//                                                               and read, the container destroyed (in one
//                                                               process: pinned-uncached is pinned with
//                                                               relo's reservation cache off)
//   pinned_bench arena   --impl I --n N --size B --cycles C     C times n allocations of B bytes (0: 8..256)
//                [--per-cycle 1]                                from relo::vm_arena or std::pmr's monotonic
//                                                               resource, then its reset (per-cycle: a
//                                                               resource made and destroyed each cycle;
//                                                               vm-arena-uncached is vm-arena with relo's
//                                                               reservation cache off)
//   pinned_bench list
//
// The implementations: relo::pinned_vector with the default (geometric) commit policy, with huge pages,
// and page by page (the reserve-and-commit notes' DynArray), with other largest commit steps (the tuning sweep), relo::vector, std::vector without and with an exact reserve (the foresight
// floor), std::deque and boost::container::stable_vector (what keeps addresses stable today).
// "commits" counts the times the capacity changed during the appends: for pinned_vector each is one
// mprotect (the notes counted the commit calls with DTrace); for the vectors each is a reallocation.
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <memory_resource>
#include <string>
#include <vector>

#include <boost/container/stable_vector.hpp>

#include "bench_support.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/vector.hpp"
#include "relo/vm_arena.hpp"
#include "vector_peers.hpp"

namespace relo_bench {
namespace {

struct deque_impl {
    template <class T>
    using type = std::deque<T>;
};
struct stable_vector_impl {
    template <class T>
    using type = boost::container::stable_vector<T>;
};
/// A pinned_vector reserving room for the n elements the case appends (as a user who knows the bound
/// would), or the default reservation when that is larger.
template <class Policy>
struct pinned_impl {
    template <class T>
    using type = relo::pinned_vector<T, Policy>;
    template <class T>
    static type<T> make(const make_args& args) {
        constexpr std::size_t by_default = type<T>::default_reservation / sizeof(T);
        return type<T>(relo::max_capacity, args.reservation > by_default ? args.reservation : by_default);
    }
};

/// Variants of the default commit rule, for the sweep that chose it: other largest steps.
template <std::size_t MaxStep>
struct commit_variant {
    static constexpr relo::commit_rule rule{relo::geometric_commit::rule.first_step, MaxStep,
                                            relo::geometric_commit::rule.huge_page_threshold,
                                            relo::geometric_commit::rule.retained_minimum};
};
constexpr std::size_t mib = std::size_t{1} << 20;
/// The "demand" policy measured for the issue: the whole reservation committed by the first growth (one
/// mprotect; the kernel then faults pages in as they are written), never trimmed.
struct demand_commit {
    static constexpr relo::commit_rule rule{SIZE_MAX / 4, SIZE_MAX / 4, SIZE_MAX, SIZE_MAX / 4};
};

using pinned_impls =
    table<named<"std", std_vector>, named<"std-reserve", reserving<std_vector>>,
          named<"relo", relo_vector<>>, named<"pinned", pinned_impl<relo::geometric_commit>>,
          named<"pinned-huge", pinned_impl<relo::huge_page_commit>>,
          named<"pinned-page", pinned_impl<relo::page_commit>>, named<"deque", deque_impl>,
          named<"stable-vector", stable_vector_impl>, named<"pinned-step2m", pinned_impl<commit_variant<2 * mib>>>,
          named<"pinned-step8m", pinned_impl<commit_variant<8 * mib>>>,
          named<"pinned-step512m", pinned_impl<commit_variant<512 * mib>>>,
          named<"pinned-demand", pinned_impl<demand_commit>>,
          named<"pinned-uncached", pinned_impl<relo::geometric_commit>>>;

using pinned_element_types = table<named<"int", int>, named<"unique_ptr", std::unique_ptr<int>>>;

template <class T>
T make_element(long i) {
    if constexpr (std::is_same_v<T, std::unique_ptr<int>>) {
        return std::make_unique<int>(static_cast<int>(i));
    } else {
        return static_cast<T>(i);
    }
}

template <class T>
long value_of(const T& x) {
    if constexpr (std::is_same_v<T, std::unique_ptr<int>>) {
        return *x;
    } else {
        return static_cast<long>(x);
    }
}

/// The capacity, where the container has one (a change of it is a commit or a reallocation).
template <class C, class = void>
struct has_capacity : std::false_type {};
template <class C>
struct has_capacity<C, std::void_t<decltype(std::declval<const C&>().capacity())>> : std::true_type {};

template <class C>
std::size_t capacity_of(const C& c) {
    if constexpr (has_capacity<C>::value) {
        return c.capacity();
    } else {
        return 0;
    }
}

template <class Impl, class T>
void append_case(long n, json_line& out) {
    using C = typename Impl::template type<T>;
    make_args args;
    args.reservation = static_cast<std::size_t>(n);
    const long rss_before_kb = process_counters::read().max_rss_kb;
    C c = make<Impl, T>(args);
    // The commits are counted in a separate pass of the same appends (a capacity() call per append would
    // change what is timed).
    const double start = now_seconds();
    for (long i = 0; i < n; ++i) c.push_back(make_element<T>(i));
    const double appended = now_seconds();
    long sum = 0;
    for (const T& x : c) sum += value_of(x);
    const double read = now_seconds();
    keep(sum);
    const process_counters counters = process_counters::read();
    // The peak the case added to the process's own (what its container and elements took at most).
    out.add("time_s", appended - start).add("read_s", read - appended).add("max_rss_kb", counters.max_rss_kb);
    out.add("added_rss_kb", counters.max_rss_kb - rss_before_kb);
    out.add("minor_faults", counters.minor_faults);
    if (sum != (n - 1) * n / 2) out.add("error", std::string("wrong sum"));
}

template <class Impl, class T>
long count_commits(long n) {
    using C = typename Impl::template type<T>;
    if constexpr (!has_capacity<C>::value) {
        (void)n;
        return -1;
    } else {
        make_args args;
        args.reservation = static_cast<std::size_t>(n);
        C c = make<Impl, T>(args);
        long changes = 0;
        std::size_t capacity = capacity_of(c);
        for (long i = 0; i < n; ++i) {
            c.push_back(make_element<T>(i));
            if (capacity_of(c) != capacity) {
                ++changes;
                capacity = capacity_of(c);
            }
        }
        return changes;
    }
}

/// The peak bytes a case needs (an estimate from the containers' growth and node sizes), so that a case
/// the machine cannot hold is reported as skipped rather than run into the OOM killer.
double footprint_bytes(const std::string& impl, const std::string& type, long n) {
    const double element = type == "int" ? 4 : 8;
    const double owned = type == "int" ? 0 : 32;  // the malloc chunk of each unique_ptr's int
    double per_element = element;                  // pinned, std-reserve
    if (impl == "std") per_element = 3 * element;  // old and new block while growing by 2
    if (impl == "relo") per_element = 2 * element;
    if (impl == "deque") per_element = 1.1 * element;
    if (impl == "stable-vector") per_element = element + 40;  // a node and an index entry per element
    return static_cast<double>(n) * (per_element + owned);
}

int run_append(const options& opt) {
    const std::string impl = opt.required("impl");
    const std::string type = opt.required("type");
    const long n = opt.number("n", 1000000);
    const bool commits = opt.number("commits", 0) != 0;
    json_line out;
    out.add("impl", impl).add("type", type).add("n", n);
    // --memory-limit B: skip a case whose footprint exceeds B bytes; --slow-limit N: skip the node-based
    // stable-vector above N elements (the quick scale).
    const double footprint = footprint_bytes(impl, type, n);
    const long memory_limit = opt.number("memory-limit", 0);
    const long slow_limit = opt.number("slow-limit", 0);
    if (memory_limit > 0 && footprint > static_cast<double>(memory_limit)) {
        out.add("skipped", std::string("more than half of the machine's memory")).add("footprint_bytes", footprint);
        out.print();
        return 0;
    }
    if (slow_limit > 0 && impl == "stable-vector" && n > slow_limit) {
        out.add("skipped", std::string("not at the quick scale (--full runs it)")).add("footprint_bytes", footprint);
        out.print();
        return 0;
    }
    bool found_type = false;
    const bool found = pinned_impls::with(impl, [&](auto impl_tag) {
        using Impl = typename decltype(impl_tag)::type;
        found_type = pinned_element_types::with(type, [&](auto element) {
            using T = typename decltype(element)::type;
            if (commits) {
                out.add("commits", count_commits<Impl, T>(n));
            } else {
                append_case<Impl, T>(n, out);
            }
        });
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    if (!found_type) options::usage_error("unknown type " + type);
    out.print();
    return 0;
}

/// Short-lived containers: made, filled with n ints, read and destroyed, `reps` times in one process (the
/// first time included: a fresh process's first container pays what the later ones may not).
template <class Impl>
void short_lived_case(long n, long reps, json_line& out) {
    using C = typename Impl::template type<int>;
    make_args args;
    args.reservation = static_cast<std::size_t>(n);
    const process_counters before = process_counters::read();
    long sum = 0;
    const double start = now_seconds();
    for (long r = 0; r < reps; ++r) {
        C c = make<Impl, int>(args);
        for (long i = 0; i < n; ++i) c.push_back(static_cast<int>(i));
        for (int x : c) sum += x;
    }
    const double seconds = now_seconds() - start;
    keep(sum);
    out.add("reps", reps).add("time_s", seconds).add("per_container_s", seconds / static_cast<double>(reps));
    out.add_process_counters(before);
    if (sum != reps * ((n - 1) * n / 2)) out.add("error", std::string("wrong sum"));
}

int run_short_lived(const options& opt) {
    const std::string impl = opt.required("impl");
    const long n = opt.number("n", 1000);
    const long reps = opt.number("reps", 1000);
    if (impl == "pinned-uncached") relo::set_reservation_cache_limit(0);
    json_line out;
    out.add("impl", impl).add("type", "int").add("n", n);
    const bool found = pinned_impls::with(impl, [&](auto impl_tag) {
        short_lived_case<typename decltype(impl_tag)::type>(n, reps, out);
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    out.print();
    return 0;
}

/// The notes' latency buckets: [0, 1 µs), [1 µs, 10 µs), ... [0.1 s, inf).
constexpr double decade_bounds_ns[] = {1e3, 1e4, 1e5, 1e6, 1e7, 1e8};

template <class Impl>
int latency_case(long n, json_line& out) {
    using C = typename Impl::template type<int>;
    make_args args;
    args.reservation = static_cast<std::size_t>(n);
    C c = make<Impl, int>(args);
    std::vector<std::uint32_t> ticks(static_cast<std::size_t>(n));  // touched first: not part of the cases
    for (auto& t : ticks) t = 0;
    const double start = now_seconds();
    const std::uint64_t first_tick = cpu_ticks();
    std::uint64_t before = first_tick;
    for (long i = 0; i < n; ++i) {
        c.push_back(static_cast<int>(i));
        const std::uint64_t after = cpu_ticks();
        const std::uint64_t d = after - before;
        ticks[static_cast<std::size_t>(i)] = d > std::numeric_limits<std::uint32_t>::max()
                                                 ? std::numeric_limits<std::uint32_t>::max()
                                                 : static_cast<std::uint32_t>(d);
        before = after;
    }
    const double seconds = now_seconds() - start;
    keep(c.back());
    // One pass over the ticks: the histogram, the least, and the decades, whose bounds are converted to
    // ticks once (no conversion per append).
    latency_histogram h;
    h.calibrate(before - first_tick, seconds);
    const double ns_per_tick = seconds * 1e9 / static_cast<double>(before - first_tick);
    constexpr std::size_t bounds = std::size(decade_bounds_ns);
    std::uint64_t bound_ticks[bounds];  // the least tick count at or above each bound
    for (std::size_t b = 0; b < bounds; ++b)
        bound_ticks[b] = static_cast<std::uint64_t>(std::ceil(decade_bounds_ns[b] / ns_per_tick));
    std::vector<double> decades(bounds + 1, 0.0);
    std::uint64_t least = std::numeric_limits<std::uint64_t>::max();
    for (std::uint32_t t : ticks) {
        h.add(t);
        if (t < least) least = t;
        std::size_t b = 0;
        while (b < bounds && t >= bound_ticks[b]) ++b;
        decades[b] += 1;
    }
    const double min_ns = static_cast<double>(least) * ns_per_tick;
    out.add("time_s", seconds).add("min_ns", min_ns).add("max_ns", h.max_ns()).add("p999_ns", h.quantile_ns(0.999));
    out.add("p50_ns", h.quantile_ns(0.5)).add("p99_ns", h.quantile_ns(0.99));
    out.add_array("decades", decades);
    out.add_array("histogram_ns", h.bucket_bounds_ns()).add_array("histogram_count", h.bucket_counts());
    return 0;
}

int run_latency(const options& opt) {
    const std::string impl = opt.required("impl");
    const long n = opt.number("n", 1000000);
    json_line out;
    out.add("impl", impl).add("n", n);
    const bool found = pinned_impls::with(impl, [&](auto impl_tag) {
        latency_case<typename decltype(impl_tag)::type>(n, out);
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    out.print();
    return 0;
}

// ---- vm_arena against std::pmr::monotonic_buffer_resource.

struct arena_direct {};      // relo::vm_arena, its inline allocate()
struct arena_virtual {};     // relo::vm_arena through std::pmr::memory_resource*
struct monotonic_virtual {}; // std::pmr::monotonic_buffer_resource over new/delete, through memory_resource*

using arena_impls = table<named<"vm-arena", arena_direct>, named<"vm-arena-pmr", arena_virtual>,
                          named<"monotonic", monotonic_virtual>, named<"vm-arena-uncached", arena_direct>>;

/// n allocations of `size` bytes (0: sizes from 8 to 256 in a fixed pseudo-random sequence), 8-aligned,
/// each written once.
template <class Resource, class Allocate>
void arena_cycle(Resource& resource, long n, long size, Allocate allocate) {
    std::uint32_t rng = 12345;
    for (long i = 0; i < n; ++i) {
        std::size_t bytes = static_cast<std::size_t>(size);
        if (size == 0) {
            rng = rng * 1664525u + 1013904223u;
            bytes = 8 + ((rng >> 8) & 0xf8);
        }
        auto* p = static_cast<volatile char*>(allocate(resource, bytes));
        *p = static_cast<char>(i);
    }
}

/// `cycles` times: arena_cycle(), then a reset of the resource (the arena keeps its pages, as a loop that
/// reuses it does; the monotonic resource releases its chunks, as it must to be reused). The time of the
/// last reset is reported apart.
template <class Resource, class Allocate, class Reset>
void arena_case(Resource& resource, long n, long size, long cycles, Allocate allocate, Reset reset, json_line& out) {
    double reset_s = 0;
    const process_counters before = process_counters::read();
    const double start = now_seconds();
    for (long c = 0; c < cycles; ++c) {
        arena_cycle(resource, n, size, allocate);
        const double before_reset = now_seconds();
        reset(resource);
        reset_s = now_seconds() - before_reset;
    }
    out.add("time_s", now_seconds() - start).add("reset_s", reset_s);
    out.add_process_counters(before);
}

/// `cycles` times: a Resource made of `args`, arena_cycle(), the resource destroyed — a resource per
/// task, as P0089's benchmark I makes one per data structure.
template <class Resource, class Allocate, class... Args>
void arena_per_cycle_case(long n, long size, long cycles, Allocate allocate, json_line& out, const Args&... args) {
    const process_counters before = process_counters::read();
    const double start = now_seconds();
    for (long c = 0; c < cycles; ++c) {
        Resource resource(args...);
        arena_cycle(resource, n, size, allocate);
    }
    const double seconds = now_seconds() - start;
    out.add("time_s", seconds).add("per_resource_s", seconds / static_cast<double>(cycles));
    out.add_process_counters(before);
}

int run_arena(const options& opt) {
    const std::string impl = opt.required("impl");
    const long n = opt.number("n", 1000000);
    const long size = opt.number("size", 64);
    const long cycles = opt.number("cycles", 1);
    const auto reservation = static_cast<std::size_t>(opt.number("reserve", 1L << 34));
    const bool per_cycle = opt.number("per-cycle", 0) != 0;
    if (impl == "vm-arena-uncached") relo::set_reservation_cache_limit(0);
    json_line out;
    out.add("impl", impl).add("n", n).add("size", size);
    const auto allocate_virtual = [](std::pmr::memory_resource& a, std::size_t b) { return a.allocate(b, 8); };
    const bool found = arena_impls::with(impl, [&](auto impl_tag) {
        using Impl = typename decltype(impl_tag)::type;
        if (per_cycle) {
            if constexpr (std::is_same_v<Impl, arena_direct>) {
                arena_per_cycle_case<relo::vm_arena>(
                    n, size, cycles, [](relo::vm_arena& a, std::size_t b) { return a.allocate(b, 8); }, out, reservation);
            } else if constexpr (std::is_same_v<Impl, arena_virtual>) {
                arena_per_cycle_case<relo::vm_arena>(n, size, cycles, allocate_virtual, out, reservation);
            } else {
                arena_per_cycle_case<std::pmr::monotonic_buffer_resource>(n, size, cycles, allocate_virtual, out);
            }
        } else if constexpr (std::is_same_v<Impl, arena_direct>) {
            relo::vm_arena arena(reservation);
            arena_case(arena, n, size, cycles, [](relo::vm_arena& a, std::size_t b) { return a.allocate(b, 8); },
                       [](relo::vm_arena& a) { a.reset(); }, out);
        } else if constexpr (std::is_same_v<Impl, arena_virtual>) {
            relo::vm_arena arena(reservation);
            std::pmr::memory_resource* r = &arena;
            keep(r);  // (so that the calls stay virtual)
            arena_case(*r, n, size, cycles, allocate_virtual, [&arena](std::pmr::memory_resource&) { arena.reset(); }, out);
        } else {
            std::pmr::monotonic_buffer_resource monotonic;
            std::pmr::memory_resource* r = &monotonic;
            keep(r);
            arena_case(*r, n, size, cycles, allocate_virtual, [&monotonic](std::pmr::memory_resource&) { monotonic.release(); }, out);
        }
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    out.print();
    return 0;
}

}  // namespace

program this_program() {
    return program("pinned_bench", {
        mode::of<pinned_impls, pinned_element_types>("append", run_append),
        mode::of<pinned_impls, table<named<"int", int>>>("latency", run_latency),
        mode::of<pinned_impls, table<named<"int", int>>>("short-lived", run_short_lived),
        mode::of<arena_impls, table<named<"bytes", char>>>("arena", run_arena),
    });
}

}  // namespace relo_bench
