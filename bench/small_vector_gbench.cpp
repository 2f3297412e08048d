// bench/small_vector_gbench.cpp — the small-vector experiment of seed 004, with Google Benchmark.
//
// 100 lengths drawn from a chi-squared distribution with 8 degrees of freedom (fixed seed); one benchmark
// iteration builds a fresh container for each length and push_backs that many ints into it. Benchmarks are
// named small/<N>/<impl> for inline capacities N = 8, 12, 16, 32 and impl = std (no reserve), std-reserve
// (reserve(N) first), boost, relo, and absl / llvm / eastl (fixed_vector with overflow) when built in. The runner (bench/run.py) runs one
// benchmark per process (--benchmark_filter), interleaving the implementations.
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

template <class V, std::size_t Reserve>
void push_lengths(benchmark::State& state) {
    const std::vector<int>& workload = lengths();
    for (auto _ : state) {
        for (int s : workload) {
            // Every container at the start of a cache line: where the compiler puts it in the frame
            // differs between instantiations and alone moved relo's N = 32 time by 50%
            // (docs/small_vectors.md, session 6).
            alignas(64) V v;
            if constexpr (Reserve != 0) v.reserve(Reserve);
            for (int i = 0; i < s; ++i) v.push_back(i);
            benchmark::DoNotOptimize(v.data());
            benchmark::ClobberMemory();
        }
    }
    state.counters["lengths"] = static_cast<double>(workload.size());
}

template <std::size_t N>
void register_capacity() {
    using namespace relo_bench;
    const std::string prefix = "small/" + std::to_string(N) + "/";
    benchmark::RegisterBenchmark((prefix + "std").c_str(), push_lengths<std::vector<int>, 0>);
    benchmark::RegisterBenchmark((prefix + "std-reserve").c_str(), push_lengths<std::vector<int>, N>);
    benchmark::RegisterBenchmark((prefix + "boost").c_str(), push_lengths<boost_small_vector::type<int, N>, 0>);
    benchmark::RegisterBenchmark((prefix + "relo").c_str(), push_lengths<relo_small_vector::type<int, N>, 0>);
#if defined(RELO_BENCH_HAVE_ABSL)
    benchmark::RegisterBenchmark((prefix + "absl").c_str(), push_lengths<absl_inlined_vector::type<int, N>, 0>);
#endif
#if defined(RELO_BENCH_HAVE_LLVM)
    benchmark::RegisterBenchmark((prefix + "llvm").c_str(), push_lengths<llvm_small_vector::type<int, N>, 0>);
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
    benchmark::RegisterBenchmark((prefix + "eastl").c_str(), push_lengths<eastl_small_vector::type<int, N>, 0>);
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
    benchmark::RegisterBenchmark((prefix + "folly").c_str(), push_lengths<folly_small_vector::type<int, N>, 0>);
#endif
}

}  // namespace

int main(int argc, char** argv) {
    register_capacity<8>();
    register_capacity<12>();
    register_capacity<16>();
    register_capacity<32>();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
