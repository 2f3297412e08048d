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
// rvector's header defines two variables at namespace scope (not inline), and vector_bench includes it in
// several translation units: in an unnamed namespace each has its own, and the program links. Its own
// includes come first, so that only its declarations land in the namespace.
#include <string.h>
#include <sys/mman.h>

#include <linux/mman.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <limits>
#include <new>
#include <stdexcept>
#include <type_traits>
namespace {
#include <rvector.h>
}  // namespace
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
    template <class T>
    using type = std::vector<T>;
};

struct boost_vector {
    template <class T>
    using type = boost::container::vector<T>;
};

struct boost_vector_gf2 {
    template <class T>
    using type = boost::container::vector<
        T, boost::container::new_allocator<T>,
        boost::container::vector_options_t<boost::container::growth_factor<boost::container::growth_factor_100>>>;
};

/// Allocator rebound to T; void: relo's default allocator.
template <class Allocator, class T>
struct allocator_for {
    using type = typename std::allocator_traits<Allocator>::template rebind_alloc<T>;
};
template <class T>
struct allocator_for<void, T> {
    using type = relo::default_allocator<T>;
};

template <class Allocator = void, class Growth = relo::growth_2>
struct relo_vector {
    template <class T>
    using type = relo::vector<T, typename allocator_for<Allocator, T>::type, Growth>;
};

/// relo::vector on page_allocator<T, Policy>.
template <class Policy>
struct relo_vector_policy {
    template <class T>
    using type = relo::vector<T, relo::page_allocator<T, Policy>>;
};

/// relo::vector with one setting of large_block_policy changed (for choosing it).
template <std::size_t Relocatable, std::size_t Other, std::size_t Reservation = 16,
          std::size_t Huge = relo::page_allocator_policy::huge_page_threshold,
          std::size_t Realloc = relo::page_allocator_policy::realloc_threshold>
using relo_vector_thresholds = relo_vector_policy<threshold_policy<Relocatable, Other, Reservation, Huge, Realloc>>;

/// Vector<T> for a one-parameter alias template.
template <template <class> class Vector>
struct std_vector_of {
    template <class T>
    using type = Vector<T>;
};
template <class T>
using relo_pmr_vector_t = relo::pmr::vector<T>;

/// A vector on polymorphic allocators whose default resource, for the whole process (one case per
/// process), is a Resource over new/delete: every vector the environment makes, copies or swaps uses it.
template <template <class> class Vector, class Resource>
struct std_pmr_vector {
    template <class T>
    using type = Vector<T>;
    static void set_up() {
        static Resource resource{std::pmr::new_delete_resource()};
        std::pmr::set_default_resource(&resource);
    }
};

#if defined(RELO_BENCH_HAVE_BOOST_PMR)
template <class Resource>
struct boost_pmr_vector {
    template <class T>
    using type = boost::container::pmr::vector<T>;
    static void set_up() {
        static Resource resource{boost::container::pmr::new_delete_resource()};
        boost::container::pmr::set_default_resource(&resource);
    }
};
using boost_pmr_vectors = table<named<"boost-pmr-pool", boost_pmr_vector<boost::container::pmr::unsynchronized_pool_resource>>,
                                named<"boost-pmr-monotonic", boost_pmr_vector<boost::container::pmr::monotonic_buffer_resource>>>;
#else
using boost_pmr_vectors = table<>;
#endif

#if defined(RELO_BENCH_HAVE_UWR)
struct uwr_vector {
    template <class T>
    using type = uwr::vector<T>;
};
using uwr_vectors = table<named<"uwr", uwr_vector, true>>;
#else
using uwr_vectors = table<>;
#endif
#if defined(RELO_BENCH_HAVE_RVECTOR)
struct rvector_peer {
    template <class T>
    using type = rvector<T>;
};
using rvector_vectors = table<named<"rvector", rvector_peer, true>>;
#else
using rvector_vectors = table<>;
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
struct eastl_vector {
    template <class T>
    using type = eastl::vector<T>;
};
using eastl_vectors = table<named<"eastl", eastl_vector, true>>;
#else
using eastl_vectors = table<>;
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
struct folly_fbvector {
    template <class T>
    using type = folly::fbvector<T>;
};
using folly_vectors = table<named<"folly", folly_fbvector, true>>;
#else
using folly_vectors = table<>;
#endif

namespace sizes {
inline constexpr std::size_t K = 1024, M = K * K, never = static_cast<std::size_t>(-1);
// Settings of large_block_policy, the policy the sweeps vary one setting of at a time.
using large = relo::large_block_policy;
inline constexpr std::size_t R = large::relocatable_mapping_threshold, O = large::other_mapping_threshold,
                             Res = large::reservation_factor, H = large::huge_page_threshold;
}  // namespace sizes

/// Every vector implementation, by the name the runner passes as --impl.
using vector_impls = join_t<
    table<named<"std", std_vector>, named<"boost", boost_vector>, named<"boost-gf2", boost_vector_gf2>,
          named<"relo", relo_vector<>>, named<"relo-stdalloc", relo_vector<std::allocator<int>>>,
          // The default policy puts trivially relocatable types on realloc at every size; large_block_policy
          // puts them on large blocks too.
          named<"relo-large", relo_vector_policy<relo::large_block_policy>>,
          // Sweeps of one setting of large_block_policy at a time: the large-block threshold for trivially
          // relocatable types, the one for the others, the reservation, huge pages, and where small blocks
          // stop growing by realloc.
          named<"relo-r64k", relo_vector_thresholds<64 * sizes::K, sizes::O, sizes::Res, sizes::never>>,
          named<"relo-r128k", relo_vector_thresholds<128 * sizes::K, sizes::O, sizes::Res, sizes::never>>,
          named<"relo-r256k", relo_vector_thresholds<256 * sizes::K, sizes::O, sizes::Res>>,
          named<"relo-r512k", relo_vector_thresholds<512 * sizes::K, sizes::O, sizes::Res>>,
          named<"relo-r1m", relo_vector_thresholds<sizes::M, sizes::O, sizes::Res>>,
          named<"relo-r2m", relo_vector_thresholds<2 * sizes::M, sizes::O, sizes::Res>>,
          named<"relo-r4m", relo_vector_thresholds<4 * sizes::M, sizes::O, sizes::Res>>,
          named<"relo-r8m", relo_vector_thresholds<8 * sizes::M, sizes::O, sizes::Res>>,
          named<"relo-r32m", relo_vector_thresholds<32 * sizes::M, sizes::O, sizes::Res>>,
          named<"relo-rnever", relo_vector_thresholds<sizes::never, sizes::O, sizes::Res>>,
          named<"relo-o64k", relo_vector_thresholds<sizes::R, 64 * sizes::K, sizes::Res>>,
          named<"relo-o128k", relo_vector_thresholds<sizes::R, 128 * sizes::K, sizes::Res>>,
          named<"relo-o256k", relo_vector_thresholds<sizes::R, 256 * sizes::K, sizes::Res>>,
          named<"relo-o512k", relo_vector_thresholds<sizes::R, 512 * sizes::K, sizes::Res>>,
          named<"relo-o1m", relo_vector_thresholds<sizes::R, sizes::M, sizes::Res>>,
          named<"relo-o2m", relo_vector_thresholds<sizes::R, 2 * sizes::M, sizes::Res>>,
          named<"relo-o4m", relo_vector_thresholds<sizes::R, 4 * sizes::M, sizes::Res>>,
          named<"relo-o8m", relo_vector_thresholds<sizes::R, 8 * sizes::M, sizes::Res>>,
          named<"relo-o32m", relo_vector_thresholds<sizes::R, 32 * sizes::M, sizes::Res>>,
          named<"relo-onever", relo_vector_thresholds<sizes::R, sizes::never, sizes::Res>>,
          named<"relo-res1", relo_vector_thresholds<sizes::R, sizes::O, 1>>,
          named<"relo-res4", relo_vector_thresholds<sizes::R, sizes::O, 4>>,
          named<"relo-res16", relo_vector_thresholds<sizes::R, sizes::O, 16>>,
          named<"relo-res64", relo_vector_thresholds<sizes::R, sizes::O, 64>>,
          named<"relo-h2m", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, 2 * sizes::M>>,
          named<"relo-h4m", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, 4 * sizes::M>>,
          named<"relo-h8m", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, 8 * sizes::M>>,
          named<"relo-h16m", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, 16 * sizes::M>>,
          named<"relo-h32m", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, 32 * sizes::M>>,
          named<"relo-nohuge", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, sizes::never>>,
          // The default policy spelled out: relocatable types on realloc, others on 4 KiB large blocks.
          named<"relo-4k", relo_vector_thresholds<sizes::never, sizes::O, sizes::Res, sizes::never>>,
          named<"relo-copy0", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, sizes::H, 0>>,
          named<"relo-copy1k", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, sizes::H, sizes::K>>,
          named<"relo-copy4k", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, sizes::H, 4 * sizes::K>>,
          named<"relo-copy64k", relo_vector_thresholds<sizes::R, sizes::O, sizes::Res, sizes::H, 64 * sizes::K>>,
          named<"relo-g15", relo_vector<void, relo::growth_1_5>>, named<"relo-g16", relo_vector<void, relo::growth_1_6>>,
          named<"relo-g2", relo_vector<void, relo::growth_2>>,
          // std::pmr::vector on new_delete_resource(): what the polymorphic allocator alone costs.
          named<"std-pmr", std_vector_of<std::pmr::vector>>,
          named<"std-pmr-pool", std_pmr_vector<std::pmr::vector, std::pmr::unsynchronized_pool_resource>>,
          named<"std-pmr-monotonic", std_pmr_vector<std::pmr::vector, std::pmr::monotonic_buffer_resource>>,
          named<"relo-pmr-pool", std_pmr_vector<relo_pmr_vector_t, std::pmr::unsynchronized_pool_resource>>,
          named<"relo-pmr-monotonic", std_pmr_vector<relo_pmr_vector_t, std::pmr::monotonic_buffer_resource>>>,
    boost_pmr_vectors, uwr_vectors, rvector_vectors, eastl_vectors, folly_vectors>;

}  // namespace relo_bench

#endif  // RELO_BENCH_VECTOR_PEERS_HPP
