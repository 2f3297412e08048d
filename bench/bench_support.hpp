// bench/bench_support.hpp — what every benchmark program of relo shares: the element types of the
// experiments, the implementation protocol and the name→type tables a program is driven by, its uniform
// `list` and mode dispatch, clocks, process counters, and a tiny command-line/JSON toolkit.
#ifndef RELO_BENCH_SUPPORT_HPP
#define RELO_BENCH_SUPPORT_HPP

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory_resource>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/resource.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "relo/relocation.hpp"

namespace relo_bench {

// ---- Element types (the thesis's four, plus its "overriding triviality" wrapper).

/// 8 bytes with user-defined special members that do a little checking: lighter than std::string, but
/// not trivially copyable, so vectors must call its constructors.
struct test_type {
    static constexpr std::uint32_t alive = 0x5AFEu;
    std::uint32_t value = 0;
    std::uint32_t canary = alive;

    test_type() noexcept = default;
    explicit test_type(std::uint32_t v) noexcept : value(v) {}
    test_type(const test_type& o) noexcept : value(o.checked()) {}
    test_type(test_type&& o) noexcept : value(o.checked()) { o.value = 0; }
    test_type& operator=(const test_type& o) noexcept {
        value = o.checked();
        return *this;
    }
    test_type& operator=(test_type&& o) noexcept {
        value = o.checked();
        o.value = 0;
        return *this;
    }
    ~test_type() {
        if (canary != alive) std::abort();
        canary = 0;
    }
    std::uint32_t checked() const noexcept {
        if (canary != alive) std::abort();
        return value;
    }
};
static_assert(sizeof(test_type) == 8);

/// test_type wrapped and declared trivially relocatable (the thesis's T_test_type).
struct relocatable_test_type {
    test_type t;
};

using big_trivial = std::array<int, 10>;

/// The POD slides' "Thingie" (seed 003): a small class with its own copy constructor that is safe to move
/// as bytes, and says so.
struct thingie {
    int a = 0;
    int b = 0;
    thingie() = default;
    explicit thingie(int v) noexcept : a(v), b(-v) {}
    thingie(const thingie& o) noexcept : a(o.a), b(o.b) {}
    thingie& operator=(const thingie& o) noexcept {
        a = o.a;
        b = o.b;
        return *this;
    }
};

// ---- Clocks and process counters.

inline double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// A cheap timestamp for timing single operations: the CPU's time-stamp counter on x86 (a few ns to
/// read), the steady clock in nanoseconds elsewhere. latency_histogram::calibrate turns ticks into time.
inline std::uint64_t cpu_ticks() {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// Latencies in ticks, bucketed logarithmically with 8 sub-buckets per power of two (so a quantile is
/// known within 12.5%); the maximum is kept exactly.
class latency_histogram {
public:
    void add(std::uint64_t ticks) {
        ++counts_[bucket_of(ticks)];
        ++total_;
        if (ticks > max_ticks_) max_ticks_ = ticks;
    }
    /// `ticks` counted during `seconds` of wall time.
    void calibrate(std::uint64_t ticks, double seconds) {
        seconds_ = seconds;
        ns_per_tick_ = ticks ? seconds * 1e9 / static_cast<double>(ticks) : 1.0;
    }
    double total_seconds() const { return seconds_; }
    double max_ns() const { return static_cast<double>(max_ticks_) * ns_per_tick_; }
    /// The upper bound of the bucket holding the q-quantile (at most the maximum).
    double quantile_ns(double q) const {
        const double rank = q * static_cast<double>(total_);
        std::uint64_t seen = 0;
        for (std::size_t b = 0; b < buckets; ++b) {
            seen += counts_[b];
            if (static_cast<double>(seen) >= rank && counts_[b] != 0)
                return static_cast<double>(std::min(lower_bound(b + 1), max_ticks_)) * ns_per_tick_;
        }
        return max_ns();
    }
    /// Operations in buckets that start at or above `ns` (those straddling it are not counted).
    long count_over_ns(double ns) const {
        long n = 0;
        for (std::size_t b = 0; b < buckets; ++b)
            if (static_cast<double>(lower_bound(b)) * ns_per_tick_ >= ns) n += static_cast<long>(counts_[b]);
        return n;
    }
    /// The non-empty buckets: their lower bounds in ns, and their counts.
    std::vector<double> bucket_bounds_ns() const {
        std::vector<double> out;
        for (std::size_t b = 0; b < buckets; ++b)
            if (counts_[b] != 0) out.push_back(static_cast<double>(lower_bound(b)) * ns_per_tick_);
        return out;
    }
    std::vector<double> bucket_counts() const {
        std::vector<double> out;
        for (std::size_t b = 0; b < buckets; ++b)
            if (counts_[b] != 0) out.push_back(static_cast<double>(counts_[b]));
        return out;
    }

private:
    // Values below 16 have a bucket each; above, bucket 16 + 8·(e − 4) + s holds [(8 + s)·2^(e−3), (9 + s)·2^(e−3)).
    static constexpr std::size_t buckets = 16 + 8 * 60;
    static std::size_t bucket_of(std::uint64_t x) {
        if (x < 16) return static_cast<std::size_t>(x);
        const int e = 63 - __builtin_clzll(x);
        return 16 + 8 * static_cast<std::size_t>(e - 4) + static_cast<std::size_t>((x >> (e - 3)) & 7);
    }
    static std::uint64_t lower_bound(std::size_t b) {
        if (b < 16) return b;
        const std::size_t e = (b - 16) / 8 + 4, s = (b - 16) % 8;
        if (e >= 64) return ~std::uint64_t{0};
        return static_cast<std::uint64_t>(8 + s) << (e - 3);
    }

    std::array<std::uint64_t, buckets> counts_{};
    std::uint64_t total_ = 0;
    std::uint64_t max_ticks_ = 0;
    double seconds_ = 0;
    double ns_per_tick_ = 1.0;
};

struct process_counters {
    long minor_faults = 0;
    long major_faults = 0;
    long max_rss_kb = 0;  // the peak resident memory of this program
    static process_counters read() {
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        const long hwm = peak_rss_kb();
        return {ru.ru_minflt, ru.ru_majflt, hwm >= 0 ? hwm : ru.ru_maxrss};
    }
    /// VmHWM of /proc/self/status, or -1 where there is none. (getrusage's ru_maxrss is no good for
    /// small cases: Linux carries the parent's peak at fork over to the child, and the runner's Python
    /// takes 16 MB.)
    static long peak_rss_kb() {
        std::FILE* status = std::fopen("/proc/self/status", "r");
        if (status == nullptr) return -1;
        char line[256];
        long kb = -1;
        while (std::fgets(line, sizeof line, status) != nullptr) {
            if (std::strncmp(line, "VmHWM:", 6) == 0) {
                kb = std::strtol(line + 6, nullptr, 10);
                break;
            }
        }
        std::fclose(status);
        return kb;
    }
};

/// Keeps the optimizer from deleting work whose result is unused.
template <class T>
inline void keep(T const& value) {
    asm volatile("" : : "r,m"(value) : "memory");
}

/// A fresh vector filled by n push_backs, `reps` times: the POD slides' loop (seed 003), and the
/// loop-shapes family's local shape: build a vector by push_back of n elements, `reps` times.
template <class V>
double push_loops(long n, long reps) {
    using T = typename V::value_type;
    const double start = now_seconds();
    for (long r = 0; r < reps; ++r) {
        V v;
        for (long i = 0; i < n; ++i) v.push_back(T(static_cast<int>(i)));
        keep(v.data());
    }
    return now_seconds() - start;
}

// ---- Command line: --key value pairs.

class options {
public:
    options(int argc, char** argv) {
        for (int i = 1; i < argc; ++i) {
            std::string key = argv[i];
            if (key.rfind("--", 0) != 0) usage_error("unexpected argument " + key);
            key = key.substr(2);
            const auto eq = key.find('=');
            if (eq != std::string::npos) {
                values_[key.substr(0, eq)] = key.substr(eq + 1);
            } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
                values_[key] = argv[++i];
            } else {
                values_[key] = "1";
            }
        }
    }
    std::string get(const std::string& key, const std::string& fallback = "") const {
        auto it = values_.find(key);
        return it == values_.end() ? fallback : it->second;
    }
    long number(const std::string& key, long fallback) const {
        auto it = values_.find(key);
        return it == values_.end() ? fallback : std::atol(it->second.c_str());
    }
    std::string required(const std::string& key) const {
        auto it = values_.find(key);
        if (it == values_.end()) usage_error("missing --" + key);
        return it->second;
    }
    [[noreturn]] static void usage_error(const std::string& what) {
        std::fprintf(stderr, "error: %s\n", what.c_str());
        std::exit(2);
    }

private:
    std::map<std::string, std::string> values_;
};

/// One flat JSON object, printed on one line.
class json_line {
public:
    json_line& add(const std::string& key, const std::string& value) {
        std::string escaped;
        for (char c : value) {
            if (c == '"' || c == '\\') escaped += '\\';
            escaped += c;
        }
        return raw(key, "\"" + escaped + "\"");
    }
    json_line& add(const std::string& key, double value) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.9g", value);
        return raw(key, buf);
    }
    json_line& add(const std::string& key, long value) { return raw(key, std::to_string(value)); }
    json_line& add_array(const std::string& key, const std::vector<double>& values) {
        std::string s = "[";
        char buf[64];
        for (std::size_t i = 0; i < values.size(); ++i) {
            std::snprintf(buf, sizeof buf, "%s%.6g", i ? "," : "", values[i]);
            s += buf;
        }
        return raw(key, s + "]");
    }
    void print() const { std::printf("{%s}\n", body_.c_str()); }

private:
    json_line& raw(const std::string& key, const std::string& value) {
        if (!body_.empty()) body_ += ", ";
        body_ += "\"" + key + "\": " + value;
        return *this;
    }
    std::string body_;
};


// ---- Name → type tables: how a program maps the names on its command line to types.

/// A string literal as a template argument: the names in the tables.
template <std::size_t N>
struct fixed_name {
    char text[N]{};
    constexpr fixed_name(const char (&s)[N]) {
        for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
    }
};

/// One row of a table: a name and the type it stands for. Optional rows are peers built in because the
/// user pointed CMake at them (listed as such, so the runner knows what this build has).
template <fixed_name Name, class Type, bool Optional = false>
struct named {
    static constexpr const char* name = Name.text;
    using type = Type;
    static constexpr bool optional = Optional;
};

template <class T>
struct tag {
    using type = T;
};

template <class... Rows>
struct table {
    /// Calls f(tag<Type>{}) for the row called `name`; false if there is none.
    template <class F>
    static bool with(std::string_view name, F&& f) {
        return ((name == Rows::name && (f(tag<typename Rows::type>{}), true)) || ...);
    }
    /// Calls f(tag<Type>{}, name) for every row, in order.
    template <class F>
    static void for_each(F&& f) {
        (f(tag<typename Rows::type>{}, Rows::name), ...);
    }
    static std::vector<std::string> names(bool optional_only = false) {
        std::vector<std::string> out;
        ((optional_only && !Rows::optional ? void() : out.push_back(Rows::name)), ...);
        return out;
    }
};

template <class... Tables>
struct join;
template <>
struct join<> {
    using type = table<>;
};
template <class... A>
struct join<table<A...>> {
    using type = table<A...>;
};
template <class... A, class... B, class... Rest>
struct join<table<A...>, table<B...>, Rest...> : join<table<A..., B...>, Rest...> {};
/// The rows of several tables, in order (e.g. the peers that are always there, then the optional ones).
template <class... Tables>
using join_t = typename join<Tables...>::type;

// ---- The element types of the experiments, by name.

using trivial_element_types = table<named<"int", int>, named<"array", big_trivial>>;
using class_element_types =
    table<named<"test_type", test_type>, named<"string", std::string>, named<"T_test_type", relocatable_test_type>>;
using vector_element_types = join_t<trivial_element_types, class_element_types>;

// ---- The implementation protocol.
//
// An implementation is a type Impl with
//     template <class T> using type = ...;      the container of T (small and fixed-capacity vectors:
//                                               template <class T, std::size_t N>)
// and, optionally,
//     static void set_up();                     process-wide setup, run once before anything is measured
//                                               (e.g. installing a default memory resource)
//     static constexpr bool reserves = true;    the benchmark reserves what it knows it will need first
//     template <class T> static type<T> make(const make_args&);   how one data structure is built
// A benchmark builds its data structures with make<Impl, T>(args): Impl::make when Impl has one,
// otherwise the container on args.resource (when given, through its allocator) with args.reservation
// reserved (when Impl reserves).

/// What one data structure is built with.
struct make_args {
    std::size_t reservation = 0;                    // elements known to be needed (or a reservation's size)
    std::pmr::memory_resource* resource = nullptr;  // this data structure's own memory resource
};

template <class Impl, class = void>
struct reserves_first : std::false_type {};
template <class Impl>
struct reserves_first<Impl, std::enable_if_t<Impl::reserves>> : std::true_type {};
template <class Impl>
inline constexpr bool reserves_v = reserves_first<Impl>::value;

/// Impl with reserves = true: the benchmark reserves first (std-reserve, the foresight floor).
template <class Impl>
struct reserving : Impl {
    static constexpr bool reserves = true;
};

template <class Impl, class = void>
struct has_set_up : std::false_type {};
template <class Impl>
struct has_set_up<Impl, std::void_t<decltype(Impl::set_up())>> : std::true_type {};

template <class Impl>
void set_up() {
    if constexpr (has_set_up<Impl>::value) Impl::set_up();
}

template <class Impl, class T, class = void>
struct has_make : std::false_type {};
template <class Impl, class T>
struct has_make<Impl, T, std::void_t<decltype(Impl::template make<T>(make_args{}))>> : std::true_type {};

template <class C, class = void>
struct takes_resource : std::false_type {};
template <class C>
struct takes_resource<C, std::enable_if_t<std::is_constructible_v<typename C::allocator_type, std::pmr::memory_resource*>>>
    : std::true_type {};

template <class Impl, class T>
typename Impl::template type<T> make(const make_args& args) {
    using C = typename Impl::template type<T>;
    if constexpr (has_make<Impl, T>::value) {
        return Impl::template make<T>(args);
    } else {
        C c = [&] {
            if constexpr (takes_resource<C>::value) {
                if (args.resource != nullptr) return C(typename C::allocator_type(args.resource));
            }
            return C();
        }();
        if constexpr (reserves_v<Impl>) c.reserve(args.reservation);
        return c;
    }
}

// ---- A program: its modes, their tables, and the one `list` every program answers.

/// One mode of a program (`vector_bench env ...`): the function that runs it and what it accepts.
struct mode {
    std::string name;
    int (*run)(const options&);
    std::vector<std::string> impls;
    std::vector<std::string> optional_impls;
    std::vector<std::pair<std::string, std::size_t>> types;  // name, sizeof
    std::vector<long> params;                                 // e.g. the capacities a mode is compiled for

    template <class Impls, class Types>
    static mode of(std::string name, int (*run)(const options&), std::vector<long> params = {}) {
        mode m{std::move(name), run, Impls::names(), Impls::names(true), {}, std::move(params)};
        Types::for_each([&](auto t, const char* type_name) {
            m.types.emplace_back(type_name, sizeof(typename decltype(t)::type));
        });
        return m;
    }
};

/// The numbers of an index_sequence, as a mode's params.
template <std::size_t... N>
std::vector<long> params_of(std::index_sequence<N...>) {
    return {static_cast<long>(N)...};
}

class program {
public:
    program(std::string name, std::vector<mode> modes) : name_(std::move(name)), modes_(std::move(modes)) {}

    /// `NAME MODE --key value ...` runs a mode; `NAME list` prints what the program has, as one JSON object:
    /// {"program": ..., "optional": [optional peers built in], "modes": {mode: {"impls": [...], "types":
    /// {name: sizeof}, "params": [...]}}}.
    int main(int argc, char** argv) const {
        const std::string m = argc > 1 ? argv[1] : "";
        if (m == "list") return list(), 0;
        for (const mode& candidate : modes_)
            if (candidate.name == m) return candidate.run(options(argc - 1, argv + 1));
        std::string known = "list";
        for (const mode& candidate : modes_) known += "|" + candidate.name;
        options::usage_error("usage: " + name_ + " " + known + " --key value ...");
    }

private:
    std::string name_;
    std::vector<mode> modes_;

    static std::string quoted(const std::string& s) { return "\"" + s + "\""; }
    static std::string array(const std::vector<std::string>& items) {
        std::string out = "[";
        for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + quoted(items[i]);
        return out + "]";
    }

    void list() const {
        std::vector<std::string> optional;
        std::string modes;
        for (const mode& m : modes_) {
            for (const auto& peer : m.optional_impls)
                if (std::find(optional.begin(), optional.end(), peer) == optional.end()) optional.push_back(peer);
            std::string types, params;
            for (const auto& [type, size] : m.types)
                types += (types.empty() ? "" : ", ") + quoted(type) + ": " + std::to_string(size);
            for (long p : m.params) params += (params.empty() ? "" : ", ") + std::to_string(p);
            modes += (modes.empty() ? "" : ", ") + quoted(m.name) + ": {\"impls\": " + array(m.impls) +
                     ", \"types\": {" + types + "}, \"params\": [" + params + "]}";
        }
        std::printf("{\"program\": %s, \"optional\": %s, \"modes\": {%s}}\n", quoted(name_).c_str(),
                    array(optional).c_str(), modes.c_str());
    }
};

}  // namespace relo_bench

RELO_TRIVIALLY_RELOCATABLE(relo_bench::relocatable_test_type);
RELO_TRIVIALLY_RELOCATABLE(relo_bench::thingie);

#endif  // RELO_BENCH_SUPPORT_HPP
