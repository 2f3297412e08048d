// tests/hot_loops_test.cpp — the loops real code fills containers with, in every relo container, timed
// against the same loop on std::vector in this process (rounds interleaved, medians): the test fails when
// one falls far behind. The bound, 1.5x, survives a loaded machine and catches the stall this guards
// against: a braced pair written to the stack in two narrow stores and read back as one wide load on
// every push (several times std::vector's time), which instruction counts do not show. The loops that
// are named misses (docs/measurements/vector.md, "Types and idioms": small_vector's, whose object stays in
// memory; three of inplace_vector's with GCC, which stores the size on every push) have a bound of 2.5x;
// the idioms experiment of the benchmark suite measures every cell against 1.0x. Only the filling is
// timed, not the allocation. Built with -O2 whatever the configuration's flags, GCC and Clang, and only in
// configurations without sanitizers (tests/CMakeLists.txt).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "relo/inplace_vector.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/small_vector.hpp"
#include "relo/vector.hpp"

namespace {

constexpr int elements = 4096;

/// 16 bytes with a user-written copy constructor.
struct point {
    int id = 0;
    double x = 0;
    point() = default;
    point(int i, double v) noexcept : id(i), x(v) {}
    point(const point& o) noexcept : id(o.id), x(o.x) {}
    point& operator=(const point& o) noexcept = default;
};

using pair_id = std::pair<int, double>;

double seconds_now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The loops: each fills a local container (reserved first, so that only the push path runs), adds the
/// time the filling took (not the allocation's) to `seconds` and returns a checksum. Out of line, as a
/// function that builds a vector is.
template <class V>
[[gnu::noinline]] long braced_pair(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.push_back({k, 1.0});
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + v[static_cast<std::size_t>(n / 2)].first;
}
template <class V>
[[gnu::noinline]] long made_pair(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.push_back(std::make_pair(k, 1.0));
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + v[static_cast<std::size_t>(n / 2)].first;
}
template <class V>
[[gnu::noinline]] long lvalue_pair(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) {
        const pair_id p(k, 1.0);
        v.push_back(p);
    }
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + v[static_cast<std::size_t>(n / 2)].first;
}
template <class V>
[[gnu::noinline]] long emplaced_pair(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.emplace_back(k, 1.0);
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + v[static_cast<std::size_t>(n / 2)].first;
}
template <class V>
[[gnu::noinline]] long inserted_pair(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.insert(v.end(), pair_id(k, 1.0));
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + v[static_cast<std::size_t>(n / 2)].first;
}
template <class V>
[[gnu::noinline]] long transformed_pair(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    static std::vector<int> keys;
    if (keys.empty())
        for (int k = 0; k < elements; ++k) keys.push_back(k);
    std::transform(keys.begin(), keys.begin() + n, std::back_inserter(v), [](int k) { return std::make_pair(k, 1.0); });
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + v[static_cast<std::size_t>(n / 2)].first;
}
template <class V>
[[gnu::noinline]] long braced_int_pair(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.push_back({k, k});
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + v[static_cast<std::size_t>(n / 2)].first;
}
template <class V>
[[gnu::noinline]] long braced_tuple(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.push_back({k, 1.0, k});
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + std::get<0>(v[static_cast<std::size_t>(n / 2)]);
}
template <class V>
[[gnu::noinline]] long braced_point(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.push_back(point(k, 1.0));
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + v[static_cast<std::size_t>(n / 2)].id;
}
template <class V>
[[gnu::noinline]] long emplaced_string(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.emplace_back("short text", 1 + k % 8);
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + static_cast<long>(v[static_cast<std::size_t>(n / 2)].size());
}
template <class V>
[[gnu::noinline]] long null_unique_ptrs(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.push_back(nullptr);
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + (v[static_cast<std::size_t>(n / 2)] ? 1 : 0);
}
template <class V>
[[gnu::noinline]] long pushed_ints(int n, double& seconds) {
    V v;
    v.reserve(static_cast<std::size_t>(n));
    const double start = seconds_now();
    for (int k = 0; k < n; ++k) v.push_back(k);
    seconds += seconds_now() - start;
    return static_cast<long>(v.size()) + v[static_cast<std::size_t>(n / 2)];
}

/// relo's loop ÷ std::vector's: the median of `rounds` interleaved rounds of each, a round `reps` calls.
using loop_function = long (*)(int, double&);
double ratio(loop_function relo_loop, loop_function std_loop) {
    constexpr int rounds = 9;
    long reps = 1;
    long sink = 0;
    // As many calls per round as take about a millisecond of std::vector's loop.
    for (double t = 0; t < 1e-3 && reps < (1 << 20); reps *= 2) {
        t = 0;
        for (long r = 0; r < reps; ++r) sink += std_loop(elements, t);
    }
    std::vector<double> mine, theirs;
    for (int round = 0; round < rounds; ++round) {
        for (int side = 0; side < 2; ++side) {
            const bool relo_first = round % 2 == 0;
            const loop_function loop = (side == 0) == relo_first ? relo_loop : std_loop;
            double t = 0;
            for (long r = 0; r < reps; ++r) sink += loop(elements, t);
            ((side == 0) == relo_first ? mine : theirs).push_back(t);
        }
    }
    EXPECT_GT(sink, 0);
    std::nth_element(mine.begin(), mine.begin() + rounds / 2, mine.end());
    std::nth_element(theirs.begin(), theirs.begin() + rounds / 2, theirs.end());
    return mine[rounds / 2] / theirs[rounds / 2];
}

/// The bound of every loop, and of the loops a container names as known misses.
constexpr double bound = 1.5;
constexpr double known_miss_bound = 2.5;

/// The loop on relo's container C against std::vector: within the limit in one of three tries (a try
/// that a burst of other work slowed is measured again).
void expect_within_bound(const char* what, loop_function relo_loop, loop_function std_loop, double limit) {
    double best = 0;
    for (int attempt = 0; attempt < 3; ++attempt) {
        const double r = ratio(relo_loop, std_loop);
        best = attempt == 0 || r < best ? r : best;
        if (best <= limit) break;
    }
    std::printf("  %-48s %.2f\n", what, best);
    EXPECT_LE(best, limit) << what << ": relo's loop takes " << best << "x std::vector's";
}

/// The loops of one container; those whose names contain one of `known_misses` are held to
/// known_miss_bound, the others to bound.
template <template <class> class Container>
void every_loop(const char* container, std::initializer_list<const char*> known_misses = {}) {
    const std::string name = container;
    const auto check = [&](const std::string& what, loop_function relo_loop, loop_function std_loop) {
        double limit = bound;
        for (const char* miss : known_misses)
            if (what.find(miss) != std::string::npos) limit = known_miss_bound;
        expect_within_bound(what.c_str(), relo_loop, std_loop, limit);
    };
    check(name + " push_back({k, 1.0})", braced_pair<Container<pair_id>>,
          braced_pair<std::vector<pair_id>>);
    check(name + " push_back(make_pair(k, 1.0))", made_pair<Container<pair_id>>,
          made_pair<std::vector<pair_id>>);
    check(name + " push_back(lvalue pair)", lvalue_pair<Container<pair_id>>,
          lvalue_pair<std::vector<pair_id>>);
    check(name + " emplace_back(k, 1.0)", emplaced_pair<Container<pair_id>>,
          emplaced_pair<std::vector<pair_id>>);
    check(name + " insert(end(), pair)", inserted_pair<Container<pair_id>>,
          inserted_pair<std::vector<pair_id>>);
    check(name + " transform into back_inserter", transformed_pair<Container<pair_id>>,
          transformed_pair<std::vector<pair_id>>);
    using int_pair = std::pair<int, int>;
    check(name + " push_back({k, k}) of pair<int, int>", braced_int_pair<Container<int_pair>>,
          braced_int_pair<std::vector<int_pair>>);
    using triple = std::tuple<int, double, int>;
    check(name + " push_back({k, 1.0, k}) of a tuple", braced_tuple<Container<triple>>,
          braced_tuple<std::vector<triple>>);
    check(name + " push_back(point(k, 1.0))", braced_point<Container<point>>,
          braced_point<std::vector<point>>);
    check(name + " emplace_back of a string", emplaced_string<Container<std::string>>,
          emplaced_string<std::vector<std::string>>);
    using owner = std::unique_ptr<int>;
    check(name + " push_back(nullptr) of unique_ptr", null_unique_ptrs<Container<owner>>,
          null_unique_ptrs<std::vector<owner>>);
    check(name + " push_back(k) of int", pushed_ints<Container<int>>,
          pushed_ints<std::vector<int>>);
}

template <class T>
using vector_of = relo::vector<T>;
template <class T>
using small_vector_of = relo::small_vector<T, 8>;
template <class T>
using pinned_vector_of = relo::pinned_vector<T>;
template <class T>
using inplace_vector_of = relo::inplace_vector<T, elements>;

TEST(HotLoops, Vector) { every_loop<vector_of>("relo::vector"); }
// small_vector's object stays in memory (its begin may point into it), so every push stores its size.
TEST(HotLoops, SmallVector) { every_loop<small_vector_of>("relo::small_vector<T, 8>", {"relo::small_vector"}); }
TEST(HotLoops, PinnedVector) { every_loop<pinned_vector_of>("relo::pinned_vector"); }
// With GCC, a push of an element with a destructor stores the size every time (the destructor needs it
// if the full container throws), and so does a tuple's in C++20.
TEST(HotLoops, InplaceVector) {
    every_loop<inplace_vector_of>("relo::inplace_vector<T, 4096>", {"string", "unique_ptr", "tuple"});
}

}  // namespace
