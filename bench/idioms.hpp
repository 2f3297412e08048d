// bench/idioms.hpp — the element types real code stores and the ways it fills a vector with them, for the
// idioms experiment (bench/idioms_bench.cpp): every relo container against std::vector (and Boost's small
// and static vectors) on the same element type, the same idiom, reserved first or growing from empty.
//
// An element kind (kind<T>) says how real code writes a value of T in each idiom: make(k) (a function
// returning T, as make_pair does), braced(v, k) (v.push_back({...})), emplace(v, k) (v.emplace_back(args...)),
// assign(x, k) (the fields written one by one), key(x) (what the checksum reads).
#ifndef RELO_BENCH_IDIOMS_HPP
#define RELO_BENCH_IDIOMS_HPP

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "bench_support.hpp"

namespace relo_bench::idioms {

/// 16 bytes with a user-written copy constructor (as in code older than `= default`).
struct point {
    int id = 0;
    double x = 0;
    point() = default;
    point(int i, double v) noexcept : id(i), x(v) {}
    point(const point& o) noexcept : id(o.id), x(o.x) {}
    point& operator=(const point& o) noexcept {
        id = o.id;
        x = o.x;
        return *this;
    }
};
static_assert(sizeof(point) == 16);

/// 64 bytes with a user-written copy constructor: a record of a few fields.
struct record {
    int id = 0;
    double x = 0, y = 0, z = 0;
    long stamp = 0;
    double weights[3] = {};
    record() = default;
    record(int i, double v) noexcept : id(i), x(v), y(v), z(v), stamp(i) {}
    record(const record& o) noexcept : id(o.id), x(o.x), y(o.y), z(o.z), stamp(o.stamp) {
        std::copy(o.weights, o.weights + 3, weights);
    }
    record& operator=(const record& o) noexcept {
        id = o.id;
        x = o.x;
        y = o.y;
        z = o.z;
        stamp = o.stamp;
        std::copy(o.weights, o.weights + 3, weights);
        return *this;
    }
};
static_assert(sizeof(record) == 64);

/// Targets for the pointers and views (a static array: their values are addresses into it).
inline int* pointee(int k) {
    static int cells[64];
    return cells + (k & 63);
}
inline const char* text_of(int k) {
    static const char text[] = "the quick brown fox jumps over the lazy dog, again and again";
    return text + (k & 15);
}

template <class T>
struct kind;

template <>
struct kind<int> {
    static int make(int k) { return k; }
    template <class V> static void braced(V& v, int k) { v.push_back({k}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(k); }
    static void assign(int& x, int k) { x = k; }
    static long key(int x) { return x; }
};
template <>
struct kind<double> {
    static double make(int k) { return k * 0.5; }
    template <class V> static void braced(V& v, int k) { v.push_back({k * 0.5}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(k * 0.5); }
    static void assign(double& x, int k) { x = k * 0.5; }
    static long key(double x) { return static_cast<long>(x); }
};
template <>
struct kind<int*> {
    static int* make(int k) { return pointee(k); }
    template <class V> static void braced(V& v, int k) { v.push_back({pointee(k)}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(pointee(k)); }
    static void assign(int*& x, int k) { x = pointee(k); }
    static long key(const int* x) { return static_cast<long>(x - pointee(0)); }
};
template <>
struct kind<std::pair<int, double>> {
    static std::pair<int, double> make(int k) { return std::make_pair(k, 1.0); }
    template <class V> static void braced(V& v, int k) { v.push_back({k, 1.0}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(k, 1.0); }
    static void assign(std::pair<int, double>& x, int k) {
        x.first = k;
        x.second = 1.0;
    }
    static long key(const std::pair<int, double>& x) { return x.first; }
};
template <>
struct kind<std::pair<int, int>> {
    static std::pair<int, int> make(int k) { return std::make_pair(k, k); }
    template <class V> static void braced(V& v, int k) { v.push_back({k, k}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(k, k); }
    static void assign(std::pair<int, int>& x, int k) {
        x.first = k;
        x.second = k;
    }
    static long key(const std::pair<int, int>& x) { return x.first + x.second; }
};
template <>
struct kind<std::tuple<int, double, int>> {
    using T = std::tuple<int, double, int>;
    static T make(int k) { return std::make_tuple(k, 1.0, k); }
    template <class V> static void braced(V& v, int k) { v.push_back({k, 1.0, k}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(k, 1.0, k); }
    static void assign(T& x, int k) {
        std::get<0>(x) = k;
        std::get<1>(x) = 1.0;
        std::get<2>(x) = k;
    }
    static long key(const T& x) { return std::get<0>(x) + std::get<2>(x); }
};
template <>
struct kind<std::optional<double>> {
    static std::optional<double> make(int k) { return std::make_optional(k * 0.5); }
    template <class V> static void braced(V& v, int k) { v.push_back({k * 0.5}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(k * 0.5); }
    static void assign(std::optional<double>& x, int k) { x = k * 0.5; }
    static long key(const std::optional<double>& x) { return static_cast<long>(x.value_or(0)); }
};
template <>
struct kind<std::string_view> {
    static std::string_view make(int k) { return std::string_view(text_of(k), 8); }
    template <class V> static void braced(V& v, int k) { v.push_back({text_of(k), 8}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(text_of(k), 8); }
    static void assign(std::string_view& x, int k) { x = std::string_view(text_of(k), 8); }
    static long key(std::string_view x) { return x[0]; }
};
template <>
struct kind<std::complex<double>> {
    static std::complex<double> make(int k) { return std::complex<double>(k, 1.0); }
    template <class V> static void braced(V& v, int k) { v.push_back({double(k), 1.0}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(k, 1.0); }
    static void assign(std::complex<double>& x, int k) {
        x.real(k);
        x.imag(1.0);
    }
    static long key(const std::complex<double>& x) { return static_cast<long>(x.real()); }
};
template <>
struct kind<point> {
    static point make(int k) { return point(k, 1.0); }
    template <class V> static void braced(V& v, int k) { v.push_back({k, 1.0}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(k, 1.0); }
    static void assign(point& x, int k) {
        x.id = k;
        x.x = 1.0;
    }
    static long key(const point& x) { return x.id; }
};
template <>
struct kind<record> {
    static record make(int k) { return record(k, 1.0); }
    template <class V> static void braced(V& v, int k) { v.push_back({k, 1.0}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(k, 1.0); }
    static void assign(record& x, int k) {
        x.id = k;
        x.x = x.y = x.z = 1.0;
        x.stamp = k;
    }
    static long key(const record& x) { return x.id + x.stamp; }
};
template <>
struct kind<std::unique_ptr<int>> {
    static std::unique_ptr<int> make(int k) { return std::make_unique<int>(k); }
    template <class V> static void braced(V& v, int) { v.push_back(nullptr); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(new int(k)); }
    static void assign(std::unique_ptr<int>& x, int k) { x = std::make_unique<int>(k); }
    static long key(const std::unique_ptr<int>& x) { return x ? *x : 0; }
};
template <>
struct kind<std::shared_ptr<int>> {
    /// Copies of a few shared pointers (what real code keeps: handles to objects that exist already).
    static const std::shared_ptr<int>& shared(int k) {
        static const std::array<std::shared_ptr<int>, 16> owners = [] {
            std::array<std::shared_ptr<int>, 16> a;
            for (int i = 0; i < 16; ++i) a[static_cast<std::size_t>(i)] = std::make_shared<int>(i);
            return a;
        }();
        return owners[static_cast<std::size_t>(k & 15)];
    }
    static std::shared_ptr<int> make(int k) { return shared(k); }
    template <class V> static void braced(V& v, int) { v.push_back({}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(shared(k)); }
    static void assign(std::shared_ptr<int>& x, int k) { x = shared(k); }
    static long key(const std::shared_ptr<int>& x) { return x ? *x : 0; }
};
template <>
struct kind<std::string> {
    static std::string make(int k) { return std::string(text_of(k), 12); }  // (in the small-string buffer)
    template <class V> static void braced(V& v, int k) { v.push_back({text_of(k), 12}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(text_of(k), 12); }
    static void assign(std::string& x, int k) { x.assign(text_of(k), 12); }
    static long key(const std::string& x) { return x[0]; }
};
template <>
struct kind<std::array<int, 10>> {
    using T = std::array<int, 10>;
    static T make(int k) { return T{k, 1, 2, 3, 4, 5, 6, 7, 8, k}; }
    template <class V> static void braced(V& v, int k) { v.push_back({k, 1, 2, 3, 4, 5, 6, 7, 8, k}); }
    template <class V> static void emplace(V& v, int k) { v.emplace_back(make(k)); }
    static void assign(T& x, int k) {
        for (int i = 0; i < 10; ++i) x[static_cast<std::size_t>(i)] = i;
        x[0] = x[9] = k;
    }
    static long key(const T& x) { return x[0] + x[9]; }
};

// The element types, in three groups (each compiled in a translation unit of its own: idioms_mode.hpp).
using value_types = table<named<"int", int>, named<"double", double>, named<"pointer", int*>,
                          named<"pair<int,double>", std::pair<int, double>>, named<"pair<int,int>", std::pair<int, int>>>;
using compound_types =
    table<named<"tuple<int,double,int>", std::tuple<int, double, int>>, named<"optional<double>", std::optional<double>>,
          named<"string_view", std::string_view>, named<"complex<double>", std::complex<double>>, named<"point16", point>>;
using owner_types = table<named<"record64", record>, named<"unique_ptr<int>", std::unique_ptr<int>>,
                          named<"shared_ptr<int>", std::shared_ptr<int>>, named<"string", std::string>,
                          named<"array<int,10>", std::array<int, 10>>>;
using element_types = join_t<value_types, compound_types, owner_types>;

/// The ways real code fills a vector. Each runs reserved (room made first, only the fill timed) or growing
/// (from an empty container, construction and destruction timed too); range_input is a constructor,
/// clear_refill reuses one container (cleared and filled again, every fill timed).
enum class idiom {
    braced,             // v.push_back({a, b})
    made,               // v.push_back(make_pair(a, b)): a function's prvalue
    lvalue,             // T x = ...; v.push_back(x);
    emplace,            // v.emplace_back(a, b)
    emplace_assign,     // auto& e = v.emplace_back(); e.first = a; ...
    copy_back_inserter, // std::copy(first, last, std::back_inserter(v))
    transform_back_inserter,  // std::transform(keys, keys + n, std::back_inserter(v), make)
    insert_end,         // v.insert(v.end(), x)
    resize_index,       // v.resize(n); v[i] = ...
    range_input,        // V v(first, last) over an input iterator
    clear_refill,       // v.clear(); then v.push_back(make(...)) n times: a reused buffer
};

struct idiom_name {
    idiom which;
    const char* name;
};
inline constexpr idiom_name idiom_names[] = {
    {idiom::braced, "braced"},
    {idiom::made, "make"},
    {idiom::lvalue, "lvalue"},
    {idiom::emplace, "emplace"},
    {idiom::emplace_assign, "emplace-assign"},
    {idiom::copy_back_inserter, "copy-back-inserter"},
    {idiom::transform_back_inserter, "transform-back-inserter"},
    {idiom::insert_end, "insert-end"},
    {idiom::resize_index, "resize-index"},
    {idiom::range_input, "range-input"},
    {idiom::clear_refill, "clear-refill"},
};

/// Whether real code can write the idiom for T (a move-only T is not copied from an lvalue or a range).
template <class T>
constexpr bool applies(idiom i) {
    if constexpr (!std::is_copy_constructible_v<T>)
        return i != idiom::lvalue && i != idiom::copy_back_inserter && i != idiom::insert_end;
    else
        return true;
}

/// An input iterator that makes kind<T>::make(k) for k = first, first + 1, ... (a range read once, as
/// from a stream).
template <class T>
class making_iterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;
    explicit making_iterator(int k) noexcept : k_(k) {}
    T operator*() const { return kind<T>::make(k_); }
    making_iterator& operator++() noexcept {
        ++k_;
        return *this;
    }
    making_iterator operator++(int) noexcept {
        making_iterator old = *this;
        ++k_;
        return old;
    }
    friend bool operator==(const making_iterator& a, const making_iterator& b) noexcept { return a.k_ == b.k_; }
    friend bool operator!=(const making_iterator& a, const making_iterator& b) noexcept { return a.k_ != b.k_; }

private:
    int k_;
};

/// What each filling needs prepared (untimed): n values to copy from, n keys to transform.
template <class T>
struct sources {
    std::vector<T> values;
    std::vector<int> keys;
    explicit sources(int n) {
        keys.resize(static_cast<std::size_t>(n));
        for (int k = 0; k < n; ++k) keys[static_cast<std::size_t>(k)] = k;
        if constexpr (std::is_copy_constructible_v<T>) {
            values.reserve(static_cast<std::size_t>(n));
            for (int k = 0; k < n; ++k) values.push_back(kind<T>::make(k));
        }
    }
};

/// Appends n elements to v the idiom's way (every idiom but range_input; resize_index from v's size 0).
template <idiom I, class V, class T>
inline void fill(V& v, int n, const sources<T>& src) {
    using K = kind<T>;
    if constexpr (I == idiom::braced) {
        for (int k = 0; k < n; ++k) K::braced(v, k);
    } else if constexpr (I == idiom::made || I == idiom::clear_refill) {
        for (int k = 0; k < n; ++k) v.push_back(K::make(k));
    } else if constexpr (I == idiom::lvalue) {
        for (int k = 0; k < n; ++k) {
            T x = K::make(k);
            v.push_back(x);
        }
    } else if constexpr (I == idiom::emplace) {
        for (int k = 0; k < n; ++k) K::emplace(v, k);
    } else if constexpr (I == idiom::emplace_assign) {
        for (int k = 0; k < n; ++k) {
            v.emplace_back();
            K::assign(v.back(), k);
        }
    } else if constexpr (I == idiom::copy_back_inserter) {
        std::copy(src.values.begin(), src.values.end(), std::back_inserter(v));
    } else if constexpr (I == idiom::transform_back_inserter) {
        std::transform(src.keys.begin(), src.keys.end(), std::back_inserter(v), [](int k) { return K::make(k); });
    } else if constexpr (I == idiom::insert_end) {
        for (int k = 0; k < n; ++k) {
            T x = K::make(k);
            v.insert(v.end(), x);
        }
    } else if constexpr (I == idiom::resize_index) {
        v.resize(static_cast<std::size_t>(n));
        for (int k = 0; k < n; ++k) v[static_cast<std::size_t>(k)] = K::make(k);
    }
}

template <class V>
long checksum(const V& v) {
    using T = typename V::value_type;
    long sum = static_cast<long>(v.size());
    for (std::size_t i = 0; i < v.size(); i += 61) sum += kind<T>::key(v[i]);
    return sum;
}

}  // namespace relo_bench::idioms

#endif  // RELO_BENCH_IDIOMS_HPP
