// bench/fill_bench.cpp — a vector of n ints that the program fills itself: how much more than the fill
// and the page faults each way of making room costs.
//
//   fill_bench fill --impl I --n N --reps R
//       R times: room for N ints made the impl's way, then every element written (v[i] = 3i + 1); the time
//       is both, and the memory goes back before the next rep
//   fill_bench list
//
// The ways: floor (new int[N], which leaves ints uninitialized, then the writes: the fill and the page
// faults only), relo::vector's resize_for_overwrite, resize (zeros first) and reserve + push_back;
// std::vector's resize and reserve + push_back; boost::container::vector's resize with default_init.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include <boost/container/vector.hpp>

#include "bench_support.hpp"
#include "relo/vector.hpp"

namespace relo_bench {
namespace {

inline int value_at(std::size_t i) { return static_cast<int>(3 * i + 1); }

template <class V>
void write_all(V& v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) v[i] = value_at(i);
}

template <class V>
void push_all(V& v, std::size_t n) {
    v.reserve(n);
    for (std::size_t i = 0; i < n; ++i) v.push_back(value_at(i));
}

struct floor_new_array {
    static int make_and_fill(std::size_t n) {
        std::unique_ptr<int[]> p(new int[n]);  // default-initialized: nothing written
        write_all(p, n);
        return p[n / 2];
    }
};
struct relo_resize_for_overwrite {
    static int make_and_fill(std::size_t n) {
        relo::vector<int> v;
        v.resize_for_overwrite(n);
        write_all(v, n);
        return v[n / 2];
    }
};
/// Room made by resize (zeros first), then the writes.
template <class Vector>
struct resize_then_write {
    static int make_and_fill(std::size_t n) {
        Vector v;
        v.resize(n);
        write_all(v, n);
        return v[n / 2];
    }
};
/// Room reserved, then each value pushed.
template <class Vector>
struct reserve_and_push {
    static int make_and_fill(std::size_t n) {
        Vector v;
        push_all(v, n);
        return v[n / 2];
    }
};
struct boost_default_init {
    static int make_and_fill(std::size_t n) {
        boost::container::vector<int> v;
        v.resize(n, boost::container::default_init);
        write_all(v, n);
        return v[n / 2];
    }
};

using fill_impls = table<named<"floor", floor_new_array>, named<"relo-resize-for-overwrite", relo_resize_for_overwrite>,
                         named<"relo-resize", resize_then_write<relo::vector<int>>>,
                         named<"relo-reserve-push", reserve_and_push<relo::vector<int>>>,
                         named<"std-resize", resize_then_write<std::vector<int>>>,
                         named<"std-reserve-push", reserve_and_push<std::vector<int>>>,
                         named<"boost-default-init", boost_default_init>>;
using fill_types = table<named<"int", int>>;

int run_fill(const options& opt) {
    const std::string impl = opt.required("impl");
    const auto n = static_cast<std::size_t>(opt.number("n", 1000000));
    const long reps = opt.number("reps", 1);
    const process_counters before = process_counters::read();
    double t = 0;
    const bool found = fill_impls::with(impl, [&](auto impl_tag) {
        using Impl = typename decltype(impl_tag)::type;
        for (long r = 0; r < reps; ++r) {
            const double start = now_seconds();
            const int middle = Impl::make_and_fill(n);
            t += now_seconds() - start;
            if (middle != value_at(n / 2)) {
                std::fprintf(stderr, "fill_bench: %s left a wrong element\n", impl.c_str());
                std::abort();
            }
        }
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    json_line out;
    out.add("impl", impl).add("type", "int").add("n", static_cast<long>(n)).add("reps", reps).add("time_s", t);
    out.add_process_counters(before);
    out.print();
    return 0;
}

}  // namespace

program this_program() {
    return program("fill_bench", {
        mode::of<fill_impls, fill_types>("fill", run_fill),
    });
}

}  // namespace relo_bench
