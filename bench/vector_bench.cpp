// bench/vector_bench.cpp — one case of a vector experiment per process, printed as one JSON line.
//
// The runner (bench/run.py) starts a fresh process for every case and interleaves the implementations
// (A B C A B C ...), so page-fault and allocator state never leak from one measurement into the next.
//
//   vector_bench env  --impl I --type T --suite S --vectors N --iterations K [--seed S] [--series 1] [--stats 1]
//       the thesis's environment: total time, per-iteration times (--series), growth statistics (--stats,
//       from a second, untimed run); with --impls I1,I2,... [--passes P] instead of --impl, a long-lived
//       case: every implementation in this process, in turn, after a heap history (a line each)
//   vector_bench churn --impl I --type T --n N --rounds K
//       build a vector of N elements by push_back and destroy it, twice untimed, then K times timed: the
//       time and the minor page faults of the timed rounds (whether memory a vector gave back is reused)
//   vector_bench loops --impl I --type int|thingie --n N --reps R
//       the 2005 POD-allocator slides' experiment: R times, a fresh vector and N push_backs
//   vector_bench latency --impl I --type int|string --n N
//       push_back N elements into one vector, timing every call: a log-bucketed histogram and its
//       percentiles (growth spikes: a copy of the whole vector, or a page-table move)
//   vector_bench push --impl I --n N
//       push_back N ints into one vector; I = any vector implementation, std-reserve / relo-reserve (an
//       exact reserve first: the floor), malloc-realloc (a C buffer doubling with realloc)
//   vector_bench list
//       the modes, their implementations and element types, and the optional peers built in (JSON)
#include <cstdlib>
#include <string>

#include "bench_support.hpp"
#include "vector_env_mode.hpp"
#include "vector_peers.hpp"

namespace relo_bench {
namespace {

using loop_element_types = table<named<"int", int>, named<"thingie", thingie>>;
using latency_element_types = table<named<"int", int>, named<"string", std::string>>;

// The env mode instantiates the environment for every implementation and element type: it is compiled in
// two more translation units (vector_env_trivial.cpp, vector_env_classes.cpp), so that both cores build it.
int run_env(const options& opt) {
    return trivial_element_types::with(opt.required("type"), [](auto) {}) ? run_env_trivial(opt) : run_env_classes(opt);
}

template <class Impl>
double push_ints(long n) {
    const double start = now_seconds();
    auto v = make<Impl, int>({static_cast<std::size_t>(n)});
    for (long i = 0; i < n; ++i) v.push_back(static_cast<int>(i));
    keep(v.data()[n / 2]);
    return now_seconds() - start;  // measured before v is freed, like the other variants
}

int run_loops(const options& opt) {
    const std::string impl = opt.required("impl");
    const std::string type = opt.required("type");
    const long n = opt.number("n", 1000);
    const long reps = opt.number("reps", 1000);
    double t = 0;
    bool found_type = false;
    const bool found = vector_impls::with(impl, [&](auto impl_tag) {
        using Impl = typename decltype(impl_tag)::type;
        set_up<Impl>();
        found_type = loop_element_types::with(type, [&](auto element) {
            t = push_loops<typename Impl::template type<typename decltype(element)::type>>(n, reps);
        });
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    if (!found_type) options::usage_error("unknown type " + type);
    json_line out;
    out.add("impl", impl).add("type", type).add("n", n).add("reps", reps).add("time_s", t);
    out.print();
    return 0;
}

/// push_back of n elements into one vector, each call timed; the histogram of their latencies.
template <class V>
latency_histogram push_latencies(long n) {
    using T = typename V::value_type;
    latency_histogram histogram;
    const T value{};
    const double start = now_seconds();
    const std::uint64_t first_tick = cpu_ticks();
    {
        V v;
        std::uint64_t before = cpu_ticks();
        for (long i = 0; i < n; ++i) {
            v.push_back(value);
            const std::uint64_t after = cpu_ticks();
            histogram.add(after - before);
            before = after;
        }
        keep(v.data());
    }
    histogram.calibrate(cpu_ticks() - first_tick, now_seconds() - start);
    return histogram;
}

int run_latency(const options& opt) {
    const std::string impl = opt.required("impl");
    const std::string type = opt.required("type");
    const long n = opt.number("n", 1000000);
    latency_histogram h;
    bool found_type = false;
    const bool found = vector_impls::with(impl, [&](auto impl_tag) {
        using Impl = typename decltype(impl_tag)::type;
        set_up<Impl>();
        found_type = latency_element_types::with(type, [&](auto element) {
            h = push_latencies<typename Impl::template type<typename decltype(element)::type>>(n);
        });
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    if (!found_type) options::usage_error("unknown type " + type);
    json_line out;
    out.add("impl", impl).add("type", type).add("n", n).add("time_s", h.total_seconds());
    for (const auto& [name, q] : {std::pair<const char*, double>{"p50_ns", 0.5}, {"p99_ns", 0.99},
                                  {"p999_ns", 0.999}, {"p9999_ns", 0.9999}})
        out.add(name, h.quantile_ns(q));
    out.add("max_ns", h.max_ns()).add("over_10us", h.count_over_ns(1e4)).add("over_100us", h.count_over_ns(1e5));
    out.add_array("histogram_ns", h.bucket_bounds_ns()).add_array("histogram_count", h.bucket_counts());
    out.print();
    return 0;
}

/// The churn mode's implementations: the growable vectors that can stand in for std::vector.
using churn_impls = join_t<table<named<"std", std_vector>, named<"boost", boost_vector>, named<"relo", relo_vector<>>>,
                           uwr_vectors, rvector_vectors>;
using churn_element_types = table<named<"int", int>, named<"array", big_trivial>, named<"string", std::string>,
                                  named<"test_type", test_type>>;

int run_churn(const options& opt) {
    const std::string impl = opt.required("impl");
    const std::string type = opt.required("type");
    const long n = opt.number("n", 100000);
    const long rounds = opt.number("rounds", 4);
    constexpr long untimed = 2;
    json_line out;
    bool found_type = false;
    const bool found = churn_impls::with(impl, [&](auto impl_tag) {
        using Impl = typename decltype(impl_tag)::type;
        found_type = churn_element_types::with(type, [&](auto element) {
            using V = typename Impl::template type<typename decltype(element)::type>;
            process_counters before{};
            double start = 0;
            for (long r = 0; r < untimed + rounds; ++r) {
                if (r == untimed) {
                    before = process_counters::read();
                    start = now_seconds();
                }
                V v;
                for (long i = 0; i < n; ++i) v.emplace_back();
                keep(v.data());
            }
            out.add("impl", impl).add("type", type).add("n", n).add("rounds", rounds);
            out.add("time_s", now_seconds() - start).add_process_counters(before);
        });
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    if (!found_type) options::usage_error("unknown type " + type);
    out.print();
    return 0;
}

/// A plain C buffer of ints that doubles with realloc: the classic C approach, as an implementation
/// (the push mode's malloc-realloc).
class realloc_buffer {
public:
    using value_type = int;
    realloc_buffer() : data_(static_cast<int*>(std::malloc(initial_capacity * sizeof(int)))) {
        if (data_ == nullptr) std::abort();
    }
    realloc_buffer(realloc_buffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(other.size_), capacity_(other.capacity_) {}
    realloc_buffer& operator=(realloc_buffer&&) = delete;
    ~realloc_buffer() { std::free(data_); }
    void push_back(int value) {
        if (size_ == capacity_) {
            capacity_ *= 2;
            data_ = static_cast<int*>(std::realloc(data_, capacity_ * sizeof(int)));
            if (data_ == nullptr) std::abort();
        }
        data_[size_++] = value;
    }
    int* data() noexcept { return data_; }

private:
    static constexpr std::size_t initial_capacity = 16;
    int* data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = initial_capacity;
};
struct realloc_buffer_impl {
    template <class T>
    using type = realloc_buffer;
};

/// The push mode's implementations: every vector, an exact reserve first (the foresight floor), and the
/// C buffer.
using push_impls = join_t<vector_impls, table<named<"std-reserve", reserving<std_vector>>,
                                              named<"relo-reserve", reserving<relo_vector<>>>,
                                              named<"malloc-realloc", realloc_buffer_impl>>>;

int run_push(const options& opt) {
    const std::string impl = opt.required("impl");
    const long n = opt.number("n", 1000000);
    const process_counters before = process_counters::read();
    double t = 0;
    const bool found = push_impls::with(impl, [&](auto impl_tag) {
        using Impl = typename decltype(impl_tag)::type;
        set_up<Impl>();
        t = push_ints<Impl>(n);
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    json_line out;
    out.add("impl", impl).add("n", n).add("time_s", t);
    out.add_process_counters(before);
    out.print();
    return 0;
}

}  // namespace

program this_program() {
    return program("vector_bench", {
        mode::of<vector_impls, vector_element_types>("env", run_env),
        mode::of<push_impls, table<named<"int", int>>>("push", run_push),
        mode::of<vector_impls, loop_element_types>("loops", run_loops),
        mode::of<vector_impls, latency_element_types>("latency", run_latency),
        mode::of<churn_impls, churn_element_types>("churn", run_churn),
    });
}

}  // namespace relo_bench
