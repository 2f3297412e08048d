// bench/idioms_mode.hpp — the fill mode of idioms_bench, compiled in three translation units by element
// type (idioms_values.cpp, idioms_compounds.cpp, idioms_owners.cpp: the instantiations of 15 types, 11
// idioms and 7 containers would take one compiler a few minutes).
//
//   idioms_bench fill --type T --idiom I --growth reserved|growing|reused --n N --reps R --rounds K --impls a,...
//       for each of K rounds, every implementation in turn (the order rotating), R fillings of N elements
//       of T the idiom's way; prints one line per implementation: its median round's time (time_s), and
//       the minor page faults of its rounds (minor_faults, per round). reserved: each container gets
//       reserve(N) first, and only the filling is timed; growing: construction, filling and destruction
//       are timed. range-input is a constructor (growing only); clear-refill reuses one container (reused),
//       filled once before the rounds and cleared before each timed filling. A fixed-capacity container
//       asked for more than its 4096 elements prints "skipped".
#ifndef RELO_BENCH_IDIOMS_MODE_HPP
#define RELO_BENCH_IDIOMS_MODE_HPP

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <boost/container/static_vector.hpp>

#include "bench_support.hpp"
#include "idioms.hpp"
#include "relo/inplace_vector.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/small_vector.hpp"
#include "relo/vector.hpp"

namespace relo_bench::idioms {

/// The fixed-capacity containers' N, and so the most elements a filling may have.
inline constexpr std::size_t fixed_capacity = 4096;

struct std_vector {
    template <class T> using type = std::vector<T>;
};
struct relo_vector {
    template <class T> using type = relo::vector<T>;
};
struct relo_small_vector {
    template <class T> using type = relo::small_vector<T, 8>;
};
struct relo_pinned_vector {
    template <class T> using type = relo::pinned_vector<T>;
};
struct relo_inplace_vector {
    template <class T> using type = relo::inplace_vector<T, fixed_capacity>;
    static constexpr bool fixed = true;
};
struct boost_small_vector {
    template <class T> using type = boost::container::small_vector<T, 8>;
};
struct boost_static_vector {
    template <class T> using type = boost::container::static_vector<T, fixed_capacity>;
    static constexpr bool fixed = true;
};

template <class Impl, class = void>
struct is_fixed : std::false_type {};
template <class Impl>
struct is_fixed<Impl, std::enable_if_t<Impl::fixed>> : std::true_type {};

using implementations =
    table<named<"std", std_vector>, named<"relo", relo_vector>, named<"relo-small", relo_small_vector>,
          named<"relo-pinned", relo_pinned_vector>, named<"relo-inplace", relo_inplace_vector>,
          named<"boost-small", boost_small_vector>, named<"boost-static", boost_static_vector>>;

enum class growth { reserved, growing };

/// One round of one implementation: R fillings, their time in seconds. (Out of line, with the container
/// local to it: what a function that builds a vector looks like to the optimizer.)
template <class Impl, class T, idiom I>
RELO_NOINLINE double one_round(const sources<T>& src, int n, long reps, growth g, long& sink) {
    using V = typename Impl::template type<T>;
    if constexpr (I == idiom::range_input) {
        const double start = now_seconds();
        for (long r = 0; r < reps; ++r) {
            V v(making_iterator<T>(0), making_iterator<T>(n));
            sink += checksum(v);
        }
        return now_seconds() - start;
    } else if constexpr (I == idiom::clear_refill) {
        static V* reused = nullptr;  // (one buffer per implementation and type, kept across the rounds)
        if (reused == nullptr) {
            reused = new V;
            fill<idiom::made>(*reused, n, src);
        }
        V& v = *reused;
        const double start = now_seconds();
        for (long r = 0; r < reps; ++r) {
            v.clear();
            fill<idiom::made>(v, n, src);
            sink += checksum(v);
        }
        return now_seconds() - start;
    } else if (g == growth::reserved) {
        double t = 0;
        for (long r = 0; r < reps; ++r) {
            V v;
            v.reserve(static_cast<std::size_t>(n));
            const double start = now_seconds();
            fill<I>(v, n, src);
            t += now_seconds() - start;
            sink += checksum(v);
        }
        return t;
    } else {
        const double start = now_seconds();
        for (long r = 0; r < reps; ++r) {
            V v;
            fill<I>(v, n, src);
            sink += checksum(v);
        }
        return now_seconds() - start;
    }
}

/// one_round for the idiom named at run time (only the idioms that apply to T are instantiated).
template <class Impl, class T, std::size_t K = 0>
double one_round_of(idiom i, const sources<T>& src, int n, long reps, growth g, long& sink) {
    if constexpr (K == std::size(idiom_names)) {
        return 0;
    } else {
        constexpr idiom which = idiom_names[K].which;
        if constexpr (applies<T>(which)) {
            if (i == which) return one_round<Impl, T, which>(src, n, reps, g, sink);
        }
        return one_round_of<Impl, T, K + 1>(i, src, n, reps, g, sink);
    }
}

inline idiom parse_idiom(const std::string& name) {
    for (const idiom_name& i : idiom_names)
        if (name == i.name) return i.which;
    options::usage_error("unknown idiom " + name);
}

/// The fill mode for the element types of Types; false when the type is not among them.
template <class Types>
bool run_fill_of(const options& opt) {
    const std::string type = opt.required("type");
    const std::string idiom_text = opt.required("idiom");
    const idiom which = parse_idiom(idiom_text);
    const std::string growth_text = opt.get("growth").empty() ? std::string("reserved") : opt.get("growth");
    const growth g = growth_text == "growing" ? growth::growing : growth::reserved;
    const int n = static_cast<int>(opt.number("n", 4096));
    const long reps = opt.number("reps", 64);
    const long rounds = opt.number("rounds", 5);
    if (n < 1) options::usage_error("--n must be at least 1");
    const std::vector<std::string> impls =
        opt.get("impls").empty() ? std::vector<std::string>{opt.required("impl")} : split_names(opt.get("impls"));
    return Types::with(type, [&](auto element) {
        using T = typename decltype(element)::type;
        if (!applies<T>(which)) options::usage_error(idiom_text + " does not apply to " + type);
        const sources<T> src(n);
        std::vector<std::vector<double>> times(impls.size());
        std::vector<long> faults(impls.size(), 0);
        long sink = 0;
        std::vector<bool> skipped(impls.size(), false);
        for (long round = 0; round < rounds; ++round) {
            for (std::size_t j = 0; j < impls.size(); ++j) {
                const std::size_t i = (j + static_cast<std::size_t>(round)) % impls.size();  // (A B C, B C A, ...)
                const process_counters before = process_counters::read();
                const bool found = implementations::with(impls[i], [&](auto impl) {
                    using Impl = typename decltype(impl)::type;
                    if (is_fixed<Impl>::value && static_cast<std::size_t>(n) > fixed_capacity) {
                        skipped[i] = true;
                        return;
                    }
                    times[i].push_back(one_round_of<Impl, T>(which, src, n, reps, g, sink));
                });
                if (!found) options::usage_error("unknown implementation " + impls[i]);
                faults[i] += process_counters::read().minor_faults - before.minor_faults;
            }
        }
        keep(sink);
        for (std::size_t i = 0; i < impls.size(); ++i) {
            json_line out;
            out.add("impl", impls[i]).add("type", type).add("idiom", idiom_text).add("growth", growth_text);
            out.add("n", static_cast<long>(n)).add("reps", reps).add("rounds", rounds);
            if (skipped[i]) {
                out.add("skipped", "n beyond the fixed capacity (4096)");
            } else {
                std::vector<double>& t = times[i];
                std::nth_element(t.begin(), t.begin() + static_cast<long>(t.size() / 2), t.end());
                out.add("time_s", t[t.size() / 2]).add("minor_faults", faults[i] / rounds);
            }
            out.print();
        }
    });
}

bool run_fill_values(const options& opt);     // idioms_values.cpp
bool run_fill_compounds(const options& opt);  // idioms_compounds.cpp
bool run_fill_owners(const options& opt);     // idioms_owners.cpp

}  // namespace relo_bench::idioms

#endif  // RELO_BENCH_IDIOMS_MODE_HPP
