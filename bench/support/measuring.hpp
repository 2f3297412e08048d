// bench/support/measuring.hpp — clocks (the steady clock, the CPU's tick counter), latency histograms,
// the process's counters (page faults, peak resident memory), keeping the optimizer from deleting work,
// and the push_back loop two programs time.
#ifndef RELO_BENCH_SUPPORT_MEASURING_HPP
#define RELO_BENCH_SUPPORT_MEASURING_HPP

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/resource.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace relo_bench {

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
    static long peak_rss_kb() { return status_kb("VmHWM:"); }
    /// VmRSS of /proc/self/status: the resident memory now, or -1 where there is none.
    static long rss_kb() { return status_kb("VmRSS:"); }
    /// The kB of a line of /proc/self/status (its field with the colon), or -1.
    static long status_kb(const char* field) {
        std::FILE* status = std::fopen("/proc/self/status", "r");
        if (status == nullptr) return -1;
        char line[256];
        long kb = -1;
        const std::size_t length = std::strlen(field);
        while (std::fgets(line, sizeof line, status) != nullptr) {
            if (std::strncmp(line, field, length) == 0) {
                kb = std::strtol(line + length, nullptr, 10);
                break;
            }
        }
        std::fclose(status);
        return kb;
    }
};

/// A cheap random generator that fits a register (xorshift64), next to what is measured.
struct xorshift {
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    std::uint64_t next() noexcept {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    }
};

/// Keeps the optimizer from deleting work whose result is unused.
template <class T>
inline void keep(T const& value) {
    asm volatile("" : : "r,m"(value) : "memory");
}

/// A fresh vector filled by n push_backs, `reps` times: the 2005 POD-allocator slides' loop, and the
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

}  // namespace relo_bench

#endif  // RELO_BENCH_SUPPORT_MEASURING_HPP
