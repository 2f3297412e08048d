// bench/vector_peers.hpp — the vector implementations the benchmarks compare, by name.
//
// Always present: std::vector, boost::container::vector (default growth, and growth factor 2 as the thesis
// configured it), relo::vector (and variants with other thresholds or allocators, to choose defaults),
// std::pmr::vector over the standard memory resources, and boost::container::pmr::vector over Boost's
// (when libboost_container is installed: -DRELO_BENCH_HAVE_BOOST_PMR).
// Present when the user points CMake at them (never downloaded or bundled): the thesis's uwr::vector
// (-DRELO_BENCH_UWR=<include dir>), rvector (-DRELO_BENCH_RVECTOR=<include dir>), eastl::vector
// (-DRELO_BENCH_EASTL=<install prefix>), folly::fbvector (found by CMake, or -DRELO_BENCH_FOLLY=<prefix>).
#ifndef RELO_BENCH_VECTOR_PEERS_HPP
#define RELO_BENCH_VECTOR_PEERS_HPP

#include <cstddef>
#include <memory>
#include <memory_resource>
#include <string>
#include <vector>

#include <boost/container/options.hpp>
#include <boost/container/vector.hpp>
#if defined(RELO_BENCH_HAVE_BOOST_PMR)
#include <boost/container/pmr/global_resource.hpp>
#include <boost/container/pmr/monotonic_buffer_resource.hpp>
#include <boost/container/pmr/unsynchronized_pool_resource.hpp>
#include <boost/container/pmr/vector.hpp>
#endif

#include "bench_support.hpp"  // the element types, which the folly trait below names
#include "relo/vector.hpp"

#if defined(RELO_BENCH_HAVE_UWR)
#include <uwr/vector.hpp>
#endif
#if defined(RELO_BENCH_HAVE_RVECTOR)
#include <rvector.h>
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
#include <EASTL/vector.h>
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
#include <folly/FBVector.h>

// The "overriding triviality" experiment declares the wrapped test type relocatable to every vector
// that can be told.
namespace folly {
template <>
FOLLY_ASSUME_RELOCATABLE(relo_bench::relocatable_test_type);
}  // namespace folly
#endif

namespace relo_bench {

template <std::size_t Relocatable, std::size_t Other, std::size_t Reservation = 16,
          std::size_t Huge = relo::page_allocator_policy::huge_page_threshold,
          std::size_t Realloc = relo::page_allocator_policy::realloc_threshold>
struct threshold_policy {
    static constexpr std::size_t relocatable_mapping_threshold = Relocatable;
    static constexpr std::size_t other_mapping_threshold = Other;
    static constexpr std::size_t reservation_factor = Reservation;
    static constexpr std::size_t huge_page_threshold = Huge;
    static constexpr std::size_t realloc_threshold = Realloc;
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

/// relo::vector with another growth factor (for choosing the default).
template <class Growth>
struct relo_vector_growth {
    static constexpr const char* name = "relo::vector(growth)";
    template <class T>
    using type = relo::vector<T, relo::default_allocator<T>, Growth>;
};

/// relo::vector on page_allocator<T, Policy>.
template <class Policy>
struct relo_vector_policy {
    static constexpr const char* name = "relo::vector(policy)";
    template <class T>
    using type = relo::vector<T, relo::page_allocator<T, Policy>>;
};

/// relo::vector with a page_allocator policy other than the default (for choosing it).
template <std::size_t Relocatable, std::size_t Other, std::size_t Reservation = 16,
          std::size_t Huge = relo::page_allocator_policy::huge_page_threshold,
          std::size_t Realloc = relo::page_allocator_policy::realloc_threshold>
struct relo_vector_thresholds {
    static constexpr const char* name = "relo::vector(policy)";
    template <class T>
    using type =
        relo::vector<T, relo::page_allocator<T, threshold_policy<Relocatable, Other, Reservation, Huge, Realloc>>>;
};

/// A vector on polymorphic allocators whose default resource, for the whole process (one case per
/// process), is a Resource over new/delete: every vector the environment makes, copies or swaps uses it.
template <class Vector, class Resource>
struct std_pmr_vector {
    static constexpr const char* name = "std::pmr";
    template <class T>
    using type = typename Vector::template type<T>;
    std_pmr_vector() {
        static Resource resource{std::pmr::new_delete_resource()};
        std::pmr::set_default_resource(&resource);
    }
};
struct std_pmr_vector_family {
    template <class T>
    using type = std::pmr::vector<T>;
};
struct relo_pmr_vector_family {
    template <class T>
    using type = relo::pmr::vector<T>;
};
/// std::pmr::vector on new_delete_resource(): what the polymorphic allocator alone costs.
struct std_pmr_new_delete {
    static constexpr const char* name = "std::pmr(new_delete)";
    template <class T>
    using type = std::pmr::vector<T>;
};

#if defined(RELO_BENCH_HAVE_BOOST_PMR)
template <class Resource>
struct boost_pmr_vector {
    static constexpr const char* name = "boost::container::pmr";
    template <class T>
    using type = boost::container::pmr::vector<T>;
    boost_pmr_vector() {
        static Resource resource{boost::container::pmr::new_delete_resource()};
        boost::container::pmr::set_default_resource(&resource);
    }
};
#endif

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

#if defined(RELO_BENCH_HAVE_EASTL)
struct eastl_vector {
    static constexpr const char* name = "eastl::vector";
    template <class T>
    using type = eastl::vector<T>;
};
#endif

#if defined(RELO_BENCH_HAVE_FOLLY)
struct folly_fbvector {
    static constexpr const char* name = "folly::fbvector";
    template <class T>
    using type = folly::fbvector<T>;
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
    // The default policy puts trivially relocatable types on realloc at every size; large_block_policy
    // (the default until session 6) puts them on large blocks too.
    if (name == "relo-large") return f(relo_vector_policy<relo::large_block_policy>{}), true;
    // Sweeps of one setting of large_block_policy at a time: the large-block threshold for trivially
    // relocatable types, the one for the others, the reservation, and huge pages.
    using P = relo::large_block_policy;
    constexpr std::size_t R = P::relocatable_mapping_threshold, O = P::other_mapping_threshold;
    constexpr std::size_t Res = P::reservation_factor;
    if (name == "relo-r256k") return f(relo_vector_thresholds<256 * K, O, Res>{}), true;
    if (name == "relo-r512k") return f(relo_vector_thresholds<512 * K, O, Res>{}), true;
    if (name == "relo-r1m") return f(relo_vector_thresholds<M, O, Res>{}), true;
    if (name == "relo-r2m") return f(relo_vector_thresholds<2 * M, O, Res>{}), true;
    if (name == "relo-r4m") return f(relo_vector_thresholds<4 * M, O, Res>{}), true;
    if (name == "relo-r8m") return f(relo_vector_thresholds<8 * M, O, Res>{}), true;
    if (name == "relo-r32m") return f(relo_vector_thresholds<32 * M, O, Res>{}), true;
    if (name == "relo-rnever") return f(relo_vector_thresholds<never, O, Res>{}), true;
    if (name == "relo-o256k") return f(relo_vector_thresholds<R, 256 * K, Res>{}), true;
    if (name == "relo-o512k") return f(relo_vector_thresholds<R, 512 * K, Res>{}), true;
    if (name == "relo-o1m") return f(relo_vector_thresholds<R, M, Res>{}), true;
    if (name == "relo-o2m") return f(relo_vector_thresholds<R, 2 * M, Res>{}), true;
    if (name == "relo-o4m") return f(relo_vector_thresholds<R, 4 * M, Res>{}), true;
    if (name == "relo-o8m") return f(relo_vector_thresholds<R, 8 * M, Res>{}), true;
    if (name == "relo-o32m") return f(relo_vector_thresholds<R, 32 * M, Res>{}), true;
    if (name == "relo-onever") return f(relo_vector_thresholds<R, never, Res>{}), true;
    if (name == "relo-res1") return f(relo_vector_thresholds<R, O, 1>{}), true;
    if (name == "relo-res4") return f(relo_vector_thresholds<R, O, 4>{}), true;
    if (name == "relo-res16") return f(relo_vector_thresholds<R, O, 16>{}), true;
    if (name == "relo-res64") return f(relo_vector_thresholds<R, O, 64>{}), true;
    if (name == "relo-h2m") return f(relo_vector_thresholds<R, O, Res, 2 * M>{}), true;
    if (name == "relo-h4m") return f(relo_vector_thresholds<R, O, Res, 4 * M>{}), true;
    if (name == "relo-h8m") return f(relo_vector_thresholds<R, O, Res, 8 * M>{}), true;
    if (name == "relo-h16m") return f(relo_vector_thresholds<R, O, Res, 16 * M>{}), true;
    if (name == "relo-h32m") return f(relo_vector_thresholds<R, O, Res, 32 * M>{}), true;
    if (name == "relo-nohuge") return f(relo_vector_thresholds<R, O, Res, never>{}), true;
    // The default policy without huge pages: relocatable types on realloc, others on 4 KiB large blocks.
    if (name == "relo-4k") return f(relo_vector_thresholds<never, O, Res, never>{}), true;
    constexpr std::size_t H = P::huge_page_threshold;
    if (name == "relo-copy0") return f(relo_vector_thresholds<R, O, Res, H, 0>{}), true;
    if (name == "relo-copy1k") return f(relo_vector_thresholds<R, O, Res, H, K>{}), true;
    if (name == "relo-copy4k") return f(relo_vector_thresholds<R, O, Res, H, 4 * K>{}), true;
    if (name == "relo-copy64k") return f(relo_vector_thresholds<R, O, Res, H, 64 * K>{}), true;
    if (name == "relo-g15") return f(relo_vector_growth<relo::growth_1_5>{}), true;
    if (name == "relo-g16") return f(relo_vector_growth<relo::growth_1_6>{}), true;
    if (name == "relo-g2") return f(relo_vector_growth<relo::growth_2>{}), true;
    if (name == "std-pmr") return f(std_pmr_new_delete{}), true;
    if (name == "std-pmr-pool")
        return f(std_pmr_vector<std_pmr_vector_family, std::pmr::unsynchronized_pool_resource>{}), true;
    if (name == "std-pmr-monotonic")
        return f(std_pmr_vector<std_pmr_vector_family, std::pmr::monotonic_buffer_resource>{}), true;
    if (name == "relo-pmr-pool")
        return f(std_pmr_vector<relo_pmr_vector_family, std::pmr::unsynchronized_pool_resource>{}), true;
    if (name == "relo-pmr-monotonic")
        return f(std_pmr_vector<relo_pmr_vector_family, std::pmr::monotonic_buffer_resource>{}), true;
#if defined(RELO_BENCH_HAVE_BOOST_PMR)
    if (name == "boost-pmr-pool")
        return f(boost_pmr_vector<boost::container::pmr::unsynchronized_pool_resource>{}), true;
    if (name == "boost-pmr-monotonic")
        return f(boost_pmr_vector<boost::container::pmr::monotonic_buffer_resource>{}), true;
#endif
#if defined(RELO_BENCH_HAVE_UWR)
    if (name == "uwr") return f(uwr_vector{}), true;
#endif
#if defined(RELO_BENCH_HAVE_RVECTOR)
    if (name == "rvector") return f(rvector_peer{}), true;
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
    if (name == "eastl") return f(eastl_vector{}), true;
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
    if (name == "folly") return f(folly_fbvector{}), true;
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
