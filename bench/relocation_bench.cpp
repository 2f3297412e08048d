// bench/relocation_bench.cpp — vectors of the element types people store (smart pointers, vectors,
// std::function, std::string), which relo relocates as bytes where their layout allows (docs/relocation.md).
//
//   relocation_bench grow --impl I --type T --n N --reps R
//       R times: a fresh vector and N push_backs of T, moved from values made before the clock starts; the
//       time is the pushes' (std-reserve reserves N first: the foresight floor)
//   relocation_bench middle --impl I --type T --n N --ops K
//       a vector of N elements, then K times an insert at the middle and an erase at a third: each shifts
//       about half the elements (by memmove where T relocates as bytes, by a chain of moves otherwise)
//   relocation_bench list
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "vector_peers.hpp"

namespace relo_bench {
namespace {

using relocation_element_types =
    table<named<"unique_ptr", std::unique_ptr<int>>, named<"shared_ptr", std::shared_ptr<int>>,
          named<"vector3", std::vector<int>>, named<"relo-vector3", relo::vector<int>>,
          named<"function", std::function<int()>>, named<"string", std::string>>;

using middle_impls = join_t<table<named<"std", std_vector>, named<"boost", boost_vector>, named<"relo", relo_vector<>>>,
                            folly_vectors>;
using grow_impls = join_t<table<named<"std-reserve", reserving<std_vector>>>, middle_impls>;

/// A value of each element type, distinct for each i: what a program would push.
template <class T>
T make_value(int i) {
    if constexpr (std::is_same_v<T, std::unique_ptr<int>>) {
        return std::make_unique<int>(i);
    } else if constexpr (std::is_same_v<T, std::shared_ptr<int>>) {
        return std::make_shared<int>(i);
    } else if constexpr (std::is_same_v<T, std::vector<int>> || std::is_same_v<T, relo::vector<int>>) {
        return T{i, i + 1, i + 2};
    } else if constexpr (std::is_same_v<T, std::function<int()>>) {
        return [i] { return i; };
    } else {
        return std::to_string(i);  // short: inside the string's own buffer
    }
}

template <class T>
std::vector<T> values(long n, int first = 0) {
    std::vector<T> out;
    out.reserve(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i) out.push_back(make_value<T>(first + static_cast<int>(i)));
    return out;
}

template <class Impl, class T>
double grow(long n, long reps) {
    using V = typename Impl::template type<T>;
    double total = 0;
    for (long r = 0; r < reps; ++r) {
        std::vector<T> source = values<T>(n);
        V v;
        const double start = now_seconds();
        if constexpr (reserves_v<Impl>) v.reserve(static_cast<std::size_t>(n));
        for (T& x : source) v.push_back(std::move(x));
        total += now_seconds() - start;
        keep(v.size());
    }
    return total;
}

template <class Impl, class T>
double middle(long n, long ops) {
    using V = typename Impl::template type<T>;
    std::vector<T> start_values = values<T>(n);
    std::vector<T> inserted = values<T>(ops, static_cast<int>(n));
    V v;
    for (T& x : start_values) v.push_back(std::move(x));
    const double start = now_seconds();
    for (long k = 0; k < ops; ++k) {
        v.insert(v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), std::move(inserted[static_cast<std::size_t>(k)]));
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(v.size() / 3));
    }
    const double elapsed = now_seconds() - start;
    keep(v.size());
    return elapsed;
}

template <class Impls, class Run>
int run_mode(const options& opt, const char* count_name, Run run) {
    const std::string impl = opt.required("impl");
    const std::string type = opt.required("type");
    const long n = opt.number("n", 100000);
    const long count = opt.number(count_name, 1);
    const process_counters before = process_counters::read();
    double t = 0;
    bool found_type = false;
    const bool found = Impls::with(impl, [&](auto impl_tag) {
        using Impl = typename decltype(impl_tag)::type;
        set_up<Impl>();
        found_type = relocation_element_types::with(type, [&](auto element) {
            t = run(impl_tag, element, n, count);
        });
    });
    if (!found) options::usage_error("unknown implementation " + impl);
    if (!found_type) options::usage_error("unknown type " + type);
    json_line out;
    out.add("impl", impl).add("type", type).add("n", n).add(count_name, count).add("time_s", t);
    out.add_process_counters(before);
    out.print();
    return 0;
}

int run_grow(const options& opt) {
    return run_mode<grow_impls>(opt, "reps", [](auto impl, auto element, long n, long reps) {
        return grow<typename decltype(impl)::type, typename decltype(element)::type>(n, reps);
    });
}

int run_middle(const options& opt) {
    return run_mode<middle_impls>(opt, "ops", [](auto impl, auto element, long n, long ops) {
        return middle<typename decltype(impl)::type, typename decltype(element)::type>(n, ops);
    });
}

}  // namespace

program this_program() {
    return program("relocation_bench", {
        mode::of<grow_impls, relocation_element_types>("grow", run_grow),
        mode::of<middle_impls, relocation_element_types>("middle", run_middle),
    });
}

}  // namespace relo_bench
