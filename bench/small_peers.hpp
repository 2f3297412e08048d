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
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <boost/container/static_vector.hpp>

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

template <class F>
bool with_static_impl(const std::string& name, F&& f) {
    if (name == "boost") return f(boost_static_vector{}), true;
    if (name == "relo") return f(relo_inplace_vector<false>{}), true;
    if (name == "relo-unchecked") return f(relo_inplace_vector<true>{}), true;
#if defined(RELO_BENCH_HAVE_UWR)
    if (name == "uwr") return f(uwr_static_vector<false>{}), true;
    if (name == "uwr-unchecked") return f(uwr_static_vector<true>{}), true;
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
    if (name == "eastl") return f(eastl_fixed_vector{}), true;
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
    if (name == "folly") return f(folly_static_vector{}), true;
#endif
    return false;
}

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

/// The optional peers this build has.
inline std::vector<std::string> optional_small_peers() {
    std::vector<std::string> peers;
#if defined(RELO_BENCH_HAVE_ABSL)
    peers.push_back("absl");
#endif
#if defined(RELO_BENCH_HAVE_LLVM)
    peers.push_back("llvm");
#endif
#if defined(RELO_BENCH_HAVE_UWR)
    peers.push_back("uwr");
#endif
#if defined(RELO_BENCH_HAVE_EASTL)
    peers.push_back("eastl");
#endif
#if defined(RELO_BENCH_HAVE_FOLLY)
    peers.push_back("folly");
#endif
    return peers;
}

}  // namespace relo_bench

#endif  // RELO_BENCH_SMALL_PEERS_HPP
