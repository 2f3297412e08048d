// bench/small_peers.hpp — the fixed-capacity and small vectors the benchmarks compare, by name.
//
// Always present: boost::container::static_vector / small_vector, relo::inplace_vector / small_vector,
// std::vector (the small-vector experiment's baseline). When installed (Debian's libabsl-dev and llvm-dev,
// found by CMake): absl::InlinedVector, llvm::SmallVector. When the user points CMake at them (never
// downloaded or bundled): the thesis's uwr::static_vector (-DRELO_BENCH_UWR=<include dir>), EASTL's
// fixed_vector without overflow (static) and with it (small) (-DRELO_BENCH_EASTL=<install prefix>), folly's
// small_vector in situ only (static) and with its heap (small) (found by CMake, or -DRELO_BENCH_FOLLY=<prefix>).
#ifndef RELO_BENCH_SMALL_PEERS_HPP
#define RELO_BENCH_SMALL_PEERS_HPP

#include <cstddef>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <boost/container/static_vector.hpp>

#include "bench_support.hpp"
#include "relo/inplace_vector.hpp"
#include "relo/small_vector.hpp"

#if defined(RELO_BENCH_HAVE_UWR)
#define UWR_STATIC_VECTOR_OPTIM_ENABLE 0  // push_back checks the capacity, as everyone else's
#include <uwr/static_vector.hpp>
#endif
#if defined(RELO_BENCH_HAVE_ABSL)
#include <absl/container/inlined_vector.h>
#endif
#if defined(RELO_BENCH_HAVE_LLVM)
#include <llvm/ADT/SmallVector.h>
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
#include <EASTL/fixed_vector.h>
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
#include <folly/small_vector.h>
#endif

namespace relo_bench {

// ---- Fixed capacity: Impl::type<T, C>; `unchecked` appends with fast_emplace_back.

struct boost_static_vector {
    static constexpr bool unchecked = false;
    template <class T, std::size_t C>
    using type = boost::container::static_vector<T, C>;
};
template <bool Unchecked>
struct relo_inplace_vector {
    static constexpr bool unchecked = Unchecked;
    template <class T, std::size_t C>
    using type = relo::inplace_vector<T, C>;
};
#if defined(RELO_BENCH_HAVE_UWR)
template <bool Unchecked>
struct uwr_static_vector {
    static constexpr bool unchecked = Unchecked;
    template <class T, std::size_t C>
    using type = uwr::static_vector<T, C>;
};
#endif

#if defined(RELO_BENCH_HAVE_EASTL)
struct eastl_fixed_vector {
    static constexpr bool unchecked = false;
    template <class T, std::size_t C>
    using type = eastl::fixed_vector<T, C, false>;
};
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
struct folly_static_vector {
    static constexpr bool unchecked = false;
    template <class T, std::size_t C>
    using type = folly::small_vector<T, C, folly::small_vector_policy::policy_in_situ_only<true>>;
};
#endif

#if defined(RELO_BENCH_HAVE_UWR)
using uwr_static_vectors = table<named<"uwr", uwr_static_vector<false>, true>, named<"uwr-unchecked", uwr_static_vector<true>, true>>;
#else
using uwr_static_vectors = table<>;
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
using eastl_static_vectors = table<named<"eastl", eastl_fixed_vector, true>>;
#else
using eastl_static_vectors = table<>;
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
using folly_static_vectors = table<named<"folly", folly_static_vector, true>>;
#else
using folly_static_vectors = table<>;
#endif

/// Every fixed-capacity vector, by the name the runner passes as --impl.
using static_impls = join_t<table<named<"boost", boost_static_vector>, named<"relo", relo_inplace_vector<false>>,
                                  named<"relo-unchecked", relo_inplace_vector<true>>>,
                            uwr_static_vectors, eastl_static_vectors, folly_static_vectors>;

// ---- Small vectors: Impl::type<T, N>.

struct std_vector_small {
    template <class T, std::size_t N>
    using type = std::vector<T>;
};
struct boost_small_vector {
    template <class T, std::size_t N>
    using type = boost::container::small_vector<T, N>;
};
struct relo_small_vector {
    template <class T, std::size_t N>
    using type = relo::small_vector<T, N>;
};
#if defined(RELO_BENCH_HAVE_ABSL)
struct absl_inlined_vector {
    template <class T, std::size_t N>
    using type = absl::InlinedVector<T, N>;
};
#endif
#if defined(RELO_BENCH_HAVE_LLVM)
struct llvm_small_vector {
    template <class T, std::size_t N>
    using type = llvm::SmallVector<T, N>;
};
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
struct eastl_small_vector {
    template <class T, std::size_t N>
    using type = eastl::fixed_vector<T, N, true>;
};
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
struct folly_small_vector {
    template <class T, std::size_t N>
    using type = folly::small_vector<T, N>;
};
#endif

#if defined(RELO_BENCH_HAVE_ABSL)
using absl_small_vectors = table<named<"absl", absl_inlined_vector, true>>;
#else
using absl_small_vectors = table<>;
#endif
#if defined(RELO_BENCH_HAVE_LLVM)
using llvm_small_vectors = table<named<"llvm", llvm_small_vector, true>>;
#else
using llvm_small_vectors = table<>;
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
using eastl_small_vectors = table<named<"eastl", eastl_small_vector, true>>;
#else
using eastl_small_vectors = table<>;
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
using folly_small_vectors = table<named<"folly", folly_small_vector, true>>;
#else
using folly_small_vectors = table<>;
#endif

/// Every small vector, by name; std-reserve is std::vector with reserve(N) first.
using small_impls = join_t<table<named<"std", std_vector_small>, named<"std-reserve", reserving<std_vector_small>>,
                                 named<"boost", boost_small_vector>, named<"relo", relo_small_vector>>,
                           absl_small_vectors, llvm_small_vectors, eastl_small_vectors, folly_small_vectors>;

}  // namespace relo_bench

#endif  // RELO_BENCH_SMALL_PEERS_HPP
