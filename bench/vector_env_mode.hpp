// bench/vector_env_mode.hpp — the env mode (the thesis's environment) of vector_bench, compiled in two
// translation units by element kind (vector_env_trivial.cpp and vector_env_classes.cpp), and of
// vector_hardened_bench.
#ifndef RELO_BENCH_VECTOR_ENV_MODE_HPP
#define RELO_BENCH_VECTOR_ENV_MODE_HPP

#include <string>
#include <vector>

#include "bench_support.hpp"
#include "vector_environment.hpp"
#include "vector_peers.hpp"

namespace relo_bench {

/// vector_bench env for the element types of trivial_element_types, and of class_element_types.
int run_env_trivial(const options& opt);
int run_env_classes(const options& opt);

/// One run of the environment for Impl's vector of T, added to `out`: its time, the elements left, the
/// process's counters over the run, and on request per-iteration times and growth statistics.
template <class Impl, class T>
void run_env_case(const options& opt, json_line& out) {
    using V = typename Impl::template type<T>;
    const suite s = parse_suite(opt.required("suite"));
    const auto vectors = static_cast<std::size_t>(opt.number("vectors", 1));
    const long iterations = opt.number("iterations", 1000);
    const auto seed = static_cast<unsigned>(opt.number("seed", 12345));
    const bool series = opt.number("series", 0) != 0;
    const bool stats = opt.number("stats", 0) != 0;
    out.add("suite", opt.required("suite")).add("vectors", static_cast<long>(vectors)).add("iterations", iterations);

    std::vector<double> times;
    if (series) times.reserve(static_cast<std::size_t>(iterations));
    const process_counters before = process_counters::read();
    double elapsed = 0;
    std::size_t final_size = 0;
    {
        vector_environment<V> env(s, seed, vectors);
        const double start = now_seconds();
        if (series) {
            double last = start;
            for (long i = 0; i < iterations; ++i) {
                env.iteration(i);
                const double t = now_seconds();
                times.push_back(t - last);
                last = t;
            }
        } else {
            for (long i = 0; i < iterations; ++i) env.iteration(i);
        }
        elapsed = now_seconds() - start;
        final_size = env.total_size();
        keep(final_size);
        if (opt.number("pin-top", 0) != 0) pin_heap_top();  // (before the vectors die: above their blocks)
    }
    out.add("time_s", elapsed).add("elements", static_cast<long>(final_size));
    out.add_process_counters(before);
    if (series) out.add_array("series_s", times);
    if (stats) {
        vector_environment<V, true> tracked(s, seed, vectors);
        for (long i = 0; i < iterations; ++i) tracked.iteration(i);
        out.add("reallocations", tracked.stats().reallocations);
        out.add("in_place", tracked.stats().in_place);
        out.add("bytes_moved", tracked.stats().bytes_moved);
    }
}

/// One case of the env mode for an implementation of Impls and an element type of ElementTypes: in this
/// fresh process (--impl), or long-lived (--impls: support/heap_history.hpp).
template <class Impls, class ElementTypes>
int run_env_of(const options& opt) {
    const std::string type = opt.required("type");
    return run_case(opt, [&](const std::string& impl, json_line& out, bool long_lived) {
        out.add("type", type);
        return Impls::with(impl, [&](auto impl_tag) {
            const bool found_type = ElementTypes::with(type, [&](auto element) {
                using Impl = typename decltype(impl_tag)::type;
                if (!long_lived) set_up<Impl>();  // (process-wide: single-implementation cases only)
                run_env_case<Impl, typename decltype(element)::type>(opt, out);
            });
            if (!found_type) options::usage_error("unknown type " + type);
        });
    });
}

}  // namespace relo_bench

#endif  // RELO_BENCH_VECTOR_ENV_MODE_HPP
