// bench/bench_support.hpp — what every benchmark program of relo shares: the element types of the
// thesis's experiments, clocks, process counters, and a tiny command-line/JSON toolkit.
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
#include <string>
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
    long max_rss_kb = 0;
    static process_counters read() {
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        return {ru.ru_minflt, ru.ru_majflt, ru.ru_maxrss};
    }
};

/// Keeps the optimizer from deleting work whose result is unused.
template <class T>
inline void keep(T const& value) {
    asm volatile("" : : "r,m"(value) : "memory");
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

}  // namespace relo_bench

RELO_TRIVIALLY_RELOCATABLE(relo_bench::relocatable_test_type);
RELO_TRIVIALLY_RELOCATABLE(relo_bench::thingie);

#endif  // RELO_BENCH_SUPPORT_HPP
