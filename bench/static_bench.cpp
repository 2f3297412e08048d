// bench/static_bench.cpp — the thesis's static_vector experiments (the 2021 thesis, section 6.4): one case per
// process, printed as one JSON line (the runner, bench/run.py, interleaves the implementations).
//
//   static_bench env --impl I --type T --suite S --vectors N --iterations K --capacity C [--repeat R] [--seed S]
//       the vector environment with fixed-capacity vectors of capacity C (1000, 100000 or 500000), run R
//       times (a fresh environment each time; the times add up: filling one vector takes milliseconds);
//       I = boost, relo, relo-unchecked (fast_emplace_back), uwr, uwr-unchecked (when built in)
//   static_bench sizes
//       sizeof of every small and fixed-capacity vector, as JSON lines
//   static_bench list
//       the modes, their implementations, element types and capacities, and the optional peers (JSON)
#include <cstdio>
#include <string>

#include <malloc.h>

#include "bench_support.hpp"
#include "relo/vector.hpp"
#include "small_peers.hpp"
#include "vector_environment.hpp"

namespace relo_bench {
namespace {

/// The capacities the environment is compiled for.
using capacities = std::index_sequence<1000, 100000, 500000>;

template <class F, std::size_t... C>
bool with_capacity(long capacity, F&& f, std::index_sequence<C...>) {
    return ((capacity == static_cast<long>(C) && (f(std::integral_constant<std::size_t, C>{}), true)) || ...);
}

int run_env(const options& opt) {
    // The static vectors are large objects that malloc would map and unmap (or trim) for every new
    // vector: the page faults would be the same for every implementation and drown their differences.
    // Keeping freed memory in the heap measures the containers' own work.
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    const std::string impl = opt.required("impl");
    const std::string type = opt.required("type");
    const suite s = parse_suite(opt.required("suite"));
    const auto vectors = static_cast<std::size_t>(opt.number("vectors", 1));
    const long iterations = opt.number("iterations", 1000);
    const long capacity = opt.number("capacity", 100000);
    const long repeat = opt.number("repeat", 1);
    const auto seed = static_cast<unsigned>(opt.number("seed", 12345));

    bool found_type = false, found_capacity = false;
    const bool found_impl = static_impls::with(impl, [&](auto impl_tag) {
        found_type = vector_element_types::with(type, [&](auto element) {
            auto run = [&](auto cap) {
                using Impl = typename decltype(impl_tag)::type;
                using T = typename decltype(element)::type;
                constexpr std::size_t C = decltype(cap)::value;
                using V = typename Impl::template type<T, C>;
                const process_counters before = process_counters::read();
                double elapsed = 0;
                std::size_t final_size = 0;
                for (long r = 0; r < repeat; ++r) {
                    vector_environment<V, false, C, Impl::unchecked> env(s, seed, vectors);
                    const double start = now_seconds();
                    for (long i = 0; i < iterations; ++i) env.iteration(i);
                    elapsed += now_seconds() - start;
                    final_size = env.total_size();
                    keep(final_size);
                }
                json_line out;
                out.add("impl", impl).add("type", type).add("suite", opt.required("suite"));
                out.add("vectors", static_cast<long>(vectors)).add("iterations", iterations).add("capacity", capacity);
                out.add("repeat", repeat);
                out.add("time_s", elapsed).add("elements", static_cast<long>(final_size));
                out.add_process_counters(before);
                out.print();
            };
            found_capacity = with_capacity(capacity, run, capacities{});
        });
    });
    if (!found_impl) options::usage_error("unknown implementation " + impl);
    if (!found_type) options::usage_error("unknown type " + type);
    if (!found_capacity) options::usage_error("capacity " + std::to_string(capacity) + " is not compiled in");
    return 0;
}

void print_size(const char* container, const char* type, std::size_t n, std::size_t bytes) {
    json_line out;
    out.add("container", container).add("type", type).add("n", static_cast<long>(n)).add("sizeof", static_cast<long>(bytes));
    out.print();
}

template <class T>
void print_sizes_of(const char* type) {
    print_size("std::vector", type, 0, sizeof(std::vector<T>));
    print_size("relo::vector", type, 0, sizeof(relo::vector<T>));
    auto per_n = [&](auto n_tag) {
        constexpr std::size_t N = decltype(n_tag)::value;
        print_size("relo::small_vector", type, N, sizeof(relo::small_vector<T, N>));
        print_size("boost::small_vector", type, N, sizeof(boost::container::small_vector<T, N>));
#if defined(RELO_BENCH_HAVE_ABSL)
        print_size("absl::InlinedVector", type, N, sizeof(absl::InlinedVector<T, N>));
#endif
#if defined(RELO_BENCH_HAVE_LLVM)
        print_size("llvm::SmallVector", type, N, sizeof(llvm::SmallVector<T, N>));
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
        print_size("eastl::fixed_vector (overflow)", type, N, sizeof(eastl::fixed_vector<T, N, true>));
        print_size("eastl::fixed_vector", type, N, sizeof(eastl::fixed_vector<T, N, false>));
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
        print_size("folly::small_vector", type, N, sizeof(relo_bench::folly_small_vector::type<T, N>));
        print_size("folly::small_vector (in situ only)", type, N, sizeof(relo_bench::folly_static_vector::type<T, N>));
#endif
        print_size("relo::inplace_vector", type, N, sizeof(relo::inplace_vector<T, N>));
        print_size("boost::static_vector", type, N, sizeof(boost::container::static_vector<T, N>));
#if defined(RELO_BENCH_HAVE_UWR)
        print_size("uwr::static_vector", type, N, sizeof(uwr::static_vector<T, N>));
#endif
    };
    per_n(std::integral_constant<std::size_t, 1>{});
    per_n(std::integral_constant<std::size_t, 5>{});
    per_n(std::integral_constant<std::size_t, 8>{});
    per_n(std::integral_constant<std::size_t, 16>{});
}

using size_types = table<named<"char", char>, named<"int", int>, named<"string", std::string>>;

int run_sizes(const options&) {
    size_types::for_each([](auto type, const char* name) { print_sizes_of<typename decltype(type)::type>(name); });
    return 0;
}

}  // namespace

program this_program() {
    return program("static_bench", {
        mode::of<static_impls, vector_element_types>("env", run_env, params_of(capacities{})),
        mode::of<table<>, size_types>("sizes", run_sizes),
    });
}

}  // namespace relo_bench
