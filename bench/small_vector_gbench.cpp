// bench/small_vector_gbench.cpp — the experiment of the small-vectors article, with Google Benchmark.
//
// 100 lengths drawn from a chi-squared distribution with 8 degrees of freedom (fixed seed); one benchmark
// iteration builds a fresh container for each length and push_backs that many ints into it. Benchmarks are
// named small/<N>/<impl> for inline capacities N = 8, 12, 16, 32 and every small vector of small_peers.hpp
// (std-reserve: std::vector with reserve(N) first). The runner (bench/run.py) runs one benchmark per
// process (--benchmark_filter), interleaving the implementations; `small_vector_gbench list` answers as
// every benchmark program does.
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "small_peers.hpp"

namespace {

const std::vector<int>& lengths() {
    static const std::vector<int> values = [] {
        std::mt19937 gen(2024);
        std::chi_squared_distribution<float> dist(8.f);
        std::vector<int> v;
        for (int i = 0; i < 100; ++i) v.push_back(static_cast<int>(dist(gen)));
        return v;
    }();
    return values;
}

template <class Impl, std::size_t N>
void push_lengths(benchmark::State& state) {
    using V = typename Impl::template type<int, N>;
    const std::vector<int>& workload = lengths();
    for (auto _ : state) {
        for (int s : workload) {
            // Every container at the start of a cache line: where the compiler puts it in the frame
            // differs between instantiations and alone moved relo's N = 32 time by 50%
            // (docs/measurements/small_vectors.md, "The small-vector experiment again").
            alignas(64) V v;
            if constexpr (relo_bench::reserves_v<Impl>) v.reserve(N);
            for (int i = 0; i < s; ++i) v.push_back(i);
            benchmark::DoNotOptimize(v.data());
            benchmark::ClobberMemory();
        }
    }
    state.counters["lengths"] = static_cast<double>(workload.size());
}

using capacities = std::index_sequence<8, 12, 16, 32>;

template <std::size_t... N>
void register_benchmarks(std::index_sequence<N...>) {
    auto register_capacity = [](auto n) {
        constexpr std::size_t N_ = decltype(n)::value;
        relo_bench::small_impls::for_each([](auto impl, const char* name) {
            const std::string benchmark = "small/" + std::to_string(N_) + "/" + name;
            benchmark::RegisterBenchmark(benchmark.c_str(), push_lengths<typename decltype(impl)::type, N_>);
        });
    };
    (register_capacity(std::integral_constant<std::size_t, N>{}), ...);
}

int run_benchmarks(const relo_bench::options&) { return 0; }  // (listed only: main runs Google Benchmark)

}  // namespace

relo_bench::program relo_bench::this_program() {
    return program("small_vector_gbench", {
        mode::of<small_impls, table<named<"int", int>>>("small", run_benchmarks, params_of(capacities{})),
    });
}

// Its own main(): `list` as every program answers it; anything else is Google Benchmark's command line.
int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "list") return relo_bench::this_program().main(argc, argv);
    register_benchmarks(capacities{});
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
