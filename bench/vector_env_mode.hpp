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

/// One case of the env mode for an implementation of Impls and an element type of ElementTypes.
template <class Impls, class ElementTypes>
int run_env_of(const options& opt) {
    const std::string impl = opt.required("impl");
    const std::string type = opt.required("type");
    const suite s = parse_suite(opt.required("suite"));
    const auto vectors = static_cast<std::size_t>(opt.number("vectors", 1));
    const long iterations = opt.number("iterations", 1000);
    const auto seed = static_cast<unsigned>(opt.number("seed", 12345));
    const bool series = opt.number("series", 0) != 0;
    const bool stats = opt.number("stats", 0) != 0;

    bool found_type = false;
    const bool found_impl = Impls::with(impl, [&](auto impl_tag) {
        found_type = ElementTypes::with(type, [&](auto element) {
            using Impl = typename decltype(impl_tag)::type;
            using T = typename decltype(element)::type;
            using V = typename Impl::template type<T>;
            set_up<Impl>();
            json_line out;
            out.add("impl", impl).add("type", type).add("suite", opt.required("suite"));
            out.add("vectors", static_cast<long>(vectors)).add("iterations", iterations);

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
            out.print();
        });
    });
    if (!found_impl) options::usage_error("unknown implementation " + impl);
    if (!found_type) options::usage_error("unknown type " + type);
    return 0;
}

}  // namespace relo_bench

#endif  // RELO_BENCH_VECTOR_ENV_MODE_HPP
