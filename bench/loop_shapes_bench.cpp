// bench/loop_shapes_bench.cpp — push_back of ints in the loop shapes users write, one case per process.
//
// How fast a push_back is depends on what the compiler can keep in registers around it, and so on the
// shape of the loop and on the container's inlining choices. The shapes:
//   local     a local vector filled by a loop (the vector can live in registers)
//   held      K vectors held in a std::vector, the target of each push chosen by a random generator
//             inside the loop (the vectors live in memory; the generator competes for registers)
//   indexed   the same pushes, the targets read from a precomputed index array
//   busy      a local vector, and a loop body with other work that keeps several values live
//   by-ref    a local vector filled by a function (not inlined) that takes it by reference
// Every shape makes `reps` rounds of n pushes. local, busy and by-ref start every round from a new vector
// (so growth is part of it); held and indexed spread the n pushes over K vectors that are cleared between
// rounds and keep their capacity, so that they measure the push itself, reached through memory.
// Each shape is a function of its own that is never inlined, as the loop is in a user's program (inlined
// into the dispatcher, a shape's register allocation would depend on the code of the other shapes).
//
//   loop_shapes_bench shape --impl I --shape S --n N --reps R [--vectors K]
//       (--impls I1,I2,... [--passes P] instead of --impl: a long-lived case, support/heap_history.hpp)
//   loop_shapes_bench list
#include <cstdint>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "small_peers.hpp"
#include "vector_peers.hpp"

namespace relo_bench {
namespace {

/// A small vector with 8 ints inline, as an implementation of `type<T>`.
template <class SmallImpl>
struct inline_8 {
    template <class T>
    using type = typename SmallImpl::template type<T, 8>;
};

using shape_impls = join_t<
    table<named<"std", std_vector>, named<"boost", boost_vector>, named<"relo", relo_vector<>>,
          named<"boost-small", inline_8<boost_small_vector>>, named<"relo-small", inline_8<relo_small_vector>>>,
    uwr_vectors, rvector_vectors, eastl_vectors, folly_vectors,
#if defined(RELO_BENCH_HAVE_ABSL)
    table<named<"absl", inline_8<absl_inlined_vector>, true>>,
#endif
#if defined(RELO_BENCH_HAVE_LLVM)
    table<named<"llvm", inline_8<llvm_small_vector>, true>>,
#endif
    table<>>;

template <class V>
RELO_NOINLINE double held(long n, long reps, std::size_t k) {
    std::vector<V> vectors(k);
    xorshift rng{0x9E3779B97F4A7C15ull};
    const double start = now_seconds();
    for (long r = 0; r < reps; ++r) {
        for (V& v : vectors) v.clear();
        for (long i = 0; i < n; ++i) vectors[rng.next() % k].push_back(static_cast<int>(i));
        keep(vectors.data());
    }
    return now_seconds() - start;
}

template <class V>
RELO_NOINLINE double indexed(long n, long reps, std::size_t k) {
    std::vector<V> vectors(k);
    std::vector<std::uint32_t> targets(static_cast<std::size_t>(n));
    xorshift rng{0x9E3779B97F4A7C15ull};
    for (auto& t : targets) t = static_cast<std::uint32_t>(rng.next() % k);
    const double start = now_seconds();
    for (long r = 0; r < reps; ++r) {
        for (V& v : vectors) v.clear();
        for (long i = 0; i < n; ++i) vectors[targets[static_cast<std::size_t>(i)]].push_back(static_cast<int>(i));
        keep(vectors.data());
    }
    return now_seconds() - start;
}

template <class V>
RELO_NOINLINE double busy(long n, long reps) {
    std::uint32_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6;
    const double start = now_seconds();
    for (long r = 0; r < reps; ++r) {
        V v;
        for (long i = 0; i < n; ++i) {
            const auto x = static_cast<std::uint32_t>(i);
            a += x * 3;
            b ^= a >> 3;
            c += b * 7 + x;
            d ^= c << 5;
            e += d + a;
            f ^= e * 11;
            v.push_back(static_cast<int>(f ^ b));
        }
        keep(v.data());
    }
    keep(a + b + c + d + e + f);
    return now_seconds() - start;
}

/// The local shape: push_loops in a function of its own.
template <class V>
RELO_NOINLINE double local(long n, long reps) {
    return push_loops<V>(n, reps);
}

template <class V>
RELO_NOINLINE void fill(V& v, long n) {
    for (long i = 0; i < n; ++i) v.push_back(static_cast<int>(i));
}

template <class V>
RELO_NOINLINE double by_reference(long n, long reps) {
    const double start = now_seconds();
    for (long r = 0; r < reps; ++r) {
        V v;
        fill(v, n);
        keep(v.data());
    }
    return now_seconds() - start;
}

int run_shape(const options& opt) {
    const std::string shape = opt.required("shape");
    const long n = opt.number("n", 1000);
    const long reps = opt.number("reps", 1000);
    const auto k = static_cast<std::size_t>(opt.number("vectors", 16));
    return run_case(opt, [&](const std::string& impl, json_line& out, bool long_lived) {
        double t = -1;
        const bool found = shape_impls::with(impl, [&](auto impl_tag) {
            using Impl = typename decltype(impl_tag)::type;
            using V = typename Impl::template type<int>;
            if (!long_lived) set_up<Impl>();
            if (shape == "local") t = local<V>(n, reps);
            if (shape == "held") t = held<V>(n, reps, k);
            if (shape == "indexed") t = indexed<V>(n, reps, k);
            if (shape == "busy") t = busy<V>(n, reps);
            if (shape == "by-ref") t = by_reference<V>(n, reps);
        });
        if (found && t < 0) options::usage_error("unknown shape " + shape);
        out.add("shape", shape).add("n", n).add("reps", reps).add("time_s", t);
        return found;
    });
}

}  // namespace

program this_program() {
    return program("loop_shapes_bench", {
        mode::of<shape_impls, table<named<"int", int>>>("shape", run_shape),
    });
}

}  // namespace relo_bench
