// bench/vector_peers.hpp — the vector implementations the benchmarks compare, by name.
//
// Always present: std::vector, boost::container::vector (default growth, and growth factor 2 as the thesis
// configured it), relo::vector (and variants with other thresholds or allocators, to choose defaults).
// Present when the user points CMake at them (never downloaded or bundled): the thesis's uwr::vector
// (-DRELO_BENCH_UWR=<include dir>), rvector (-DRELO_BENCH_RVECTOR=<include dir>).
#ifndef RELO_BENCH_VECTOR_PEERS_HPP
#define RELO_BENCH_VECTOR_PEERS_HPP

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <boost/container/options.hpp>
#include <boost/container/vector.hpp>

#include "relo/vector.hpp"

#if defined(RELO_BENCH_HAVE_UWR)
#include <uwr/vector.hpp>
#endif
#if defined(RELO_BENCH_HAVE_RVECTOR)
#include <rvector.h>
#endif

namespace relo_bench {

template <std::size_t Relocatable, std::size_t Other>
struct threshold_policy {
    static constexpr std::size_t relocatable_mapping_threshold = Relocatable;
    static constexpr std::size_t other_mapping_threshold = Other;
};

struct std_vector {
    static constexpr const char* name = "std::vector";
    template <class T>
    using type = std::vector<T>;
};

struct boost_vector {
    static constexpr const char* name = "boost::vector";
    template <class T>
    using type = boost::container::vector<T>;
};

struct boost_vector_gf2 {
    static constexpr const char* name = "boost::vector(gf2)";
    template <class T>
    using type = boost::container::vector<
        T, boost::container::new_allocator<T>,
        boost::container::vector_options_t<boost::container::growth_factor<boost::container::growth_factor_100>>>;
};

struct relo_vector {
    static constexpr const char* name = "relo::vector";
    template <class T>
    using type = relo::vector<T>;
};

struct relo_vector_std_allocator {
    static constexpr const char* name = "relo::vector(std::allocator)";
    template <class T>
    using type = relo::vector<T, std::allocator<T>>;
};

/// relo::vector with page_allocator thresholds other than the defaults (for choosing them).
template <std::size_t Relocatable, std::size_t Other>
struct relo_vector_thresholds {
    static constexpr const char* name = "relo::vector(thresholds)";
    template <class T>
    using type = relo::vector<T, relo::page_allocator<T, threshold_policy<Relocatable, Other>>>;
};

#if defined(RELO_BENCH_HAVE_UWR)
struct uwr_vector {
    static constexpr const char* name = "uwr::vector";
    template <class T>
    using type = uwr::vector<T>;
};
#endif
#if defined(RELO_BENCH_HAVE_RVECTOR)
struct rvector_peer {
    static constexpr const char* name = "rvector";
    template <class T>
    using type = rvector<T>;
};
#endif

/// Calls f(Impl{}) for the implementation called `name`; false if there is none.
template <class F>
bool with_vector_impl(const std::string& name, F&& f) {
    constexpr std::size_t K = 1024, M = K * K;
    constexpr std::size_t never = static_cast<std::size_t>(-1);
    if (name == "std") return f(std_vector{}), true;
    if (name == "boost") return f(boost_vector{}), true;
    if (name == "boost-gf2") return f(boost_vector_gf2{}), true;
    if (name == "relo") return f(relo_vector{}), true;
    if (name == "relo-stdalloc") return f(relo_vector_std_allocator{}), true;
    // Sweeps of the mapping threshold for trivially relocatable types ...
    if (name == "relo-r4k") return f(relo_vector_thresholds<4 * K, 32 * M>{}), true;
    if (name == "relo-r16k") return f(relo_vector_thresholds<16 * K, 32 * M>{}), true;
    if (name == "relo-r64k") return f(relo_vector_thresholds<64 * K, 32 * M>{}), true;
    if (name == "relo-r256k") return f(relo_vector_thresholds<256 * K, 32 * M>{}), true;
    if (name == "relo-r1m") return f(relo_vector_thresholds<M, 32 * M>{}), true;
    if (name == "relo-rnever") return f(relo_vector_thresholds<never, 32 * M>{}), true;
    // ... and for the others.
    if (name == "relo-o128k") return f(relo_vector_thresholds<64 * K, 128 * K>{}), true;
    if (name == "relo-o1m") return f(relo_vector_thresholds<64 * K, M>{}), true;
    if (name == "relo-o4m") return f(relo_vector_thresholds<64 * K, 4 * M>{}), true;
    if (name == "relo-o32m") return f(relo_vector_thresholds<64 * K, 32 * M>{}), true;
    if (name == "relo-onever") return f(relo_vector_thresholds<64 * K, never>{}), true;
#if defined(RELO_BENCH_HAVE_UWR)
    if (name == "uwr") return f(uwr_vector{}), true;
#endif
#if defined(RELO_BENCH_HAVE_RVECTOR)
    if (name == "rvector") return f(rvector_peer{}), true;
#endif
    return false;
}

/// The element types of the experiments, by name.
template <class F>
bool with_element_type(const std::string& name, F&& f) {
    if (name == "int") return f(int{}), true;
    if (name == "array") return f(big_trivial{}), true;
    if (name == "test_type") return f(test_type{}), true;
    if (name == "string") return f(std::string{}), true;
    if (name == "T_test_type") return f(relocatable_test_type{}), true;
    return false;
}

}  // namespace relo_bench

#endif  // RELO_BENCH_VECTOR_PEERS_HPP
