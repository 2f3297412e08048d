// bench/build_cost_unit.cpp — the translation unit build_cost_bench compiles to measure what a user's build
// pays (bench/families/build_cost.py). CMake does not build it: build_cost_bench runs the compiler on it,
// with the container's header as BUILD_COST_HEADER and its type as BUILD_COST_VECTOR(T), and
//   BUILD_COST_INCLUDE_ONLY   the unit is the container's header and nothing else, or
//   BUILD_COST_TYPES=N        the unit uses the container with the first N of the 40 element types below:
//                             push_back, emplace_back, insert and erase in the middle, resize, a copy,
//                             std::sort and ==, as code using a vector does (at most 40).
#if !defined(BUILD_COST_HEADER) || !defined(BUILD_COST_VECTOR)
#error "build_cost_bench defines BUILD_COST_HEADER and BUILD_COST_VECTOR(T) from its table of containers"
#endif
#include BUILD_COST_HEADER
template <class T>
using vec = BUILD_COST_VECTOR(T);

#if !defined(BUILD_COST_INCLUDE_ONLY)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#if !defined(BUILD_COST_TYPES)
#define BUILD_COST_TYPES 40
#endif

namespace {

template <int N>
struct pod {
    int v[N];
    friend bool operator==(const pod& a, const pod& b) { return a.v[0] == b.v[0]; }
    friend bool operator<(const pod& a, const pod& b) { return a.v[0] < b.v[0]; }
};
template <int N>
struct obj {
    std::string s;
    int k = N;
    obj() = default;
    explicit obj(int i) : s(std::to_string(i)), k(i) {}
    friend bool operator==(const obj& a, const obj& b) { return a.k == b.k; }
    friend bool operator<(const obj& a, const obj& b) { return a.k < b.k; }
};

template <class T>
struct maker {
    static T make(int i) { return static_cast<T>(i); }
};
template <int N>
struct maker<pod<N>> {
    static pod<N> make(int i) {
        pod<N> p{};
        p.v[0] = i;
        return p;
    }
};
template <int N>
struct maker<obj<N>> {
    static obj<N> make(int i) { return obj<N>(i); }
};
template <>
struct maker<std::string> {
    static std::string make(int i) { return std::to_string(i); }
};
template <class A, class B>
struct maker<std::pair<A, B>> {
    static std::pair<A, B> make(int i) { return {static_cast<A>(i), static_cast<B>(i)}; }
};
template <>
struct maker<int*> {
    static int* make(int i) { return reinterpret_cast<int*>(static_cast<std::uintptr_t>(i) * 4); }
};

template <class T>
long use(int n) {
    vec<T> v;
    for (int i = 0; i < n; ++i) v.push_back(maker<T>::make(i));
    v.emplace_back(maker<T>::make(n));
    v.insert(v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), maker<T>::make(7));
    v.erase(v.begin() + 1);
    v.resize(v.size() + 3);
    vec<T> w = v;
    std::sort(w.begin(), w.end());
    return static_cast<long>(w.size()) + (v == w ? 1 : 0);
}

using types = std::tuple<char, short, int, long, unsigned, float, double, std::int8_t, std::uint16_t, std::uint64_t,
                         pod<1>, pod<2>, pod<3>, pod<4>, pod<5>, pod<6>, pod<7>, pod<8>, pod<12>, pod<16>,
                         obj<1>, obj<2>, obj<3>, obj<4>, obj<5>, obj<6>, obj<7>, obj<8>, obj<9>, obj<10>,
                         std::string, std::pair<int, int>, std::pair<long, double>, std::pair<int, char>, pod<24>,
                         pod<32>, obj<11>, obj<12>, long double, int*>;
static_assert(BUILD_COST_TYPES >= 1 && BUILD_COST_TYPES <= std::tuple_size_v<types>, "1 to 40 types");

template <std::size_t... I>
long use_all(int n, std::index_sequence<I...>) {
    return (use<std::tuple_element_t<I, types>>(n) + ...);
}

}  // namespace

long build_cost_unit(int n) { return use_all(n, std::make_index_sequence<BUILD_COST_TYPES>()); }
#endif
