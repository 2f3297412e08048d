// relo/profiling_resource.hpp — relo::profiling_resource: a std::pmr::memory_resource over any upstream that
// records how a program allocates, in P0089's terms, cheaply enough to leave on in a test run; and
// relo::recommend(profile): which of relo's strategies fits what was recorded.
//
//     relo::profiling_resource profiler;                      // over the global heap
//     build_my_structure(&profiler);                          // the program's own work
//     const relo::allocation_profile p = profiler.profile();
//     std::puts(p.text().c_str());                            // or p.json()
//     std::puts(relo::recommend(p).text().c_str());           // and why
//
// Recorded: sizes (a histogram by powers of two) and alignments; lifetimes, counted in the allocations the
// allocating thread made between a block's allocation and its deallocation, and the blocks still live
// when the profile is taken; reuse (an allocation of a size its thread had freed and not yet asked for
// again); the bytes in use, their peak and the total; the threads that allocated, and blocks freed by
// another thread than the one that allocated them.
//
// Cost: each block carries a 16-byte header (its alignment, when larger) in front of it; each thread
// counts in its own record, with plain loads and stores; only the bytes in use are shared (one atomic
// add per allocation and per deallocation). A thread finds its record in a table of the last 8 resources
// it used; beyond them it takes a lock to find it among the resource's records (one per thread and
// resource, however many resources a thread uses in turn). docs/measurements/memory_resources.md, "test_resource and
// profiling_resource", measures it against the upstream alone. Thread-safe; profile() may run while
// other threads allocate (it sums what each thread's record holds at that moment).
// fork(): no handler, as std::pmr::synchronized_pool_resource: a fork's child may use the resource where
// no other thread was inside it at the fork (its lock is then free). The child's records of threads it
// does not have stay, and count in its profile.
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_PROFILING_RESOURCE_HPP
#define RELO_PROFILING_RESOURCE_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <memory_resource>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/resource_base.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// What a profiling_resource recorded (relo::profiling_resource::profile()).
struct allocation_profile {
    static constexpr std::size_t size_buckets = 24;       ///< [0, 2), [2, 4), ... [2^22, 2^23), then larger
    static constexpr std::size_t lifetime_buckets = 24;   ///< in allocations: 0, [1, 2), [2, 4), ..., then longer
    static constexpr std::size_t alignment_buckets = 14;  ///< 1, 2, 4, ... 4096, then larger

    std::uint64_t allocations = 0;          ///< blocks allocated
    std::uint64_t deallocations = 0;        ///< blocks deallocated
    std::uint64_t total_bytes = 0;          ///< allocated in all
    std::uint64_t bytes_in_use = 0;         ///< when the profile was taken
    std::uint64_t peak_bytes_in_use = 0;    ///< the most bytes in use at once
    std::uint64_t reused = 0;               ///< allocations of a size the same thread had freed and not yet reused
    std::uint64_t threads = 0;              ///< threads that allocated or deallocated
    std::uint64_t cross_thread_frees = 0;   ///< blocks freed by another thread than the allocating one
    std::uint64_t largest_allocation = 0;   ///< bytes of the largest block asked for
    std::uint64_t sizes[size_buckets] = {};            ///< allocations by size (the buckets: size_buckets)
    std::uint64_t alignments[alignment_buckets] = {};  ///< allocations by alignment (alignment_buckets)
    std::uint64_t lifetimes[lifetime_buckets] = {};    ///< blocks deallocated, by lifetime (lifetime_buckets)

    /// Blocks still live (allocated, not yet deallocated).
    std::uint64_t live_blocks() const noexcept { return allocations - deallocations; }
    /// The size buckets in use.
    std::size_t size_classes() const noexcept {
        std::size_t n = 0;
        for (std::uint64_t c : sizes) n += c != 0 ? 1 : 0;
        return n;
    }
    /// The fraction of the allocations still live (1: every block lives until the end, as in a
    /// structure built and then dropped whole).
    double live_fraction() const noexcept {
        return allocations == 0 ? 0 : static_cast<double>(live_blocks()) / static_cast<double>(allocations);
    }
    /// The peak bytes in use against the bytes allocated in all (1: nothing was freed before the peak).
    double peak_to_total() const noexcept {
        return total_bytes == 0 ? 0 : static_cast<double>(peak_bytes_in_use) / static_cast<double>(total_bytes);
    }
    /// The fraction of the allocations that reused a size freed before.
    double reuse_fraction() const noexcept {
        return allocations == 0 ? 0 : static_cast<double>(reused) / static_cast<double>(allocations);
    }
    /// The mean size of an allocation, in bytes.
    double mean_size() const noexcept {
        return allocations == 0 ? 0 : static_cast<double>(total_bytes) / static_cast<double>(allocations);
    }

    /// A few lines in P0089's terms, then the histograms.
    std::string text() const {
        std::string out;
        append(out, "%llu allocations (%llu live), %llu bytes in all, mean %.1f, largest %llu; peak %llu bytes in use "
                    "(%.2f of the total)\n",
               u(allocations), u(live_blocks()), u(total_bytes), mean_size(), u(largest_allocation), u(peak_bytes_in_use),
               peak_to_total());
        append(out, "utilization: %.2f of the blocks live at the end; reuse: %.2f of the allocations reused a freed size\n",
               live_fraction(), reuse_fraction());
        append(out, "variation: %zu size classes; contention: %llu threads, %llu blocks freed by another thread\n",
               size_classes(), u(threads), u(cross_thread_frees));
        out += "sizes (bytes):";
        for (std::size_t k = 0; k < size_buckets; ++k)
            if (sizes[k] != 0) append(out, " [%llu, %llu): %llu", u(k == 0 ? 0 : 1ull << k), u(2ull << k), u(sizes[k]));
        out += "\nlifetimes (allocations):";
        for (std::size_t k = 0; k < lifetime_buckets; ++k)
            if (lifetimes[k] != 0) append(out, " %s%llu: %llu", k == 0 ? "" : "<", u(k == 0 ? 0 : 1ull << k), u(lifetimes[k]));
        out += "\n";
        return out;
    }
    /// The same as a JSON object.
    std::string json() const {
        std::string out = "{";
        append(out, "\"allocations\": %llu, \"deallocations\": %llu, \"live_blocks\": %llu, \"total_bytes\": %llu, "
                    "\"bytes_in_use\": %llu, \"peak_bytes_in_use\": %llu, \"reused\": %llu, \"threads\": %llu, "
                    "\"cross_thread_frees\": %llu, \"size_classes\": %zu, \"live_fraction\": %.4f, "
                    "\"peak_to_total\": %.4f, \"reuse_fraction\": %.4f, \"mean_size\": %.2f, \"largest_allocation\": %llu",
               u(allocations), u(deallocations), u(live_blocks()), u(total_bytes), u(bytes_in_use), u(peak_bytes_in_use),
               u(reused), u(threads), u(cross_thread_frees), size_classes(), live_fraction(), peak_to_total(),
               reuse_fraction(), mean_size(), u(largest_allocation));
        list(out, "sizes", sizes, size_buckets);
        list(out, "alignments", alignments, alignment_buckets);
        list(out, "lifetimes", lifetimes, lifetime_buckets);
        return out + "}";
    }

private:
    static unsigned long long u(std::uint64_t x) noexcept { return static_cast<unsigned long long>(x); }
    RELO_PRINTF_FORMAT(2, 3) static void append(std::string& out, const char* format, ...) {
        char line[512];
        va_list args;
        va_start(args, format);
        const int n = detail::vprint_into(line, sizeof line, format, args);
        va_end(args);
        if (n > 0) out.append(line, static_cast<std::size_t>(n) < sizeof line ? static_cast<std::size_t>(n) : sizeof line - 1);
    }
    static void list(std::string& out, const char* name, const std::uint64_t* values, std::size_t n) {
        append(out, ", \"%s\": [", name);
        for (std::size_t k = 0; k < n; ++k) append(out, k == 0 ? "%llu" : ", %llu", u(values[k]));
        out += "]";
    }
};

namespace detail {

/// The bucket of x: 0 for 0 and 1, else floor(log2 x), at most last.
inline std::size_t log2_bucket(std::uint64_t x, std::size_t last) noexcept {
    const std::size_t k = x > 1 ? floor_log2(x) : 0;
    return k < last ? k : last;
}

/// One thread's counts for one profiling_resource: written by that thread alone (plain loads and stores of
/// relaxed atomics: no read-modify-write), read by profile() from any thread.
struct profile_record {
    using counter = std::atomic<std::uint64_t>;
    counter allocations{0};
    counter deallocations{0};
    counter total_bytes{0};
    counter reused{0};
    counter cross_thread_frees{0};
    counter largest{0};
    counter sizes[allocation_profile::size_buckets] = {};
    counter alignments[allocation_profile::alignment_buckets] = {};
    counter lifetimes[allocation_profile::lifetime_buckets] = {};
    std::uint64_t waiting[allocation_profile::size_buckets] = {};  // freed, not yet asked for again (this thread's only)

    static void bump(counter& c, std::uint64_t by = 1) noexcept {
        c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
    }
};

/// The calling thread's records of the last few profiling_resources it used (by their never-reused ids):
/// a cache. Each resource keeps its records by thread (profiling_resource::find_or_add_record), so a thread
/// that uses more resources than the table holds finds its record there again, never makes a second one.
struct profile_thread_table {
    static constexpr std::size_t slots = 8;
    std::uint64_t ids[slots] = {};
    profile_record* records[slots] = {};
    std::size_t next = 0;
    std::uint64_t thread_serial = 0;  // this thread's never-reused number, from its first record on
};

inline profile_thread_table& profile_table() noexcept {
    thread_local profile_thread_table table;  // (constant-initialized: no guard on the way in)
    return table;
}

inline std::atomic<std::uint64_t>& profiling_resource_ids() noexcept {
    RELO_CONSTINIT static std::atomic<std::uint64_t> ids{0};
    return ids;
}
inline std::uint64_t new_profiling_thread_serial() noexcept {
    RELO_CONSTINIT static std::atomic<std::uint64_t> serials{0};
    return serials.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace detail

/// A memory resource over any upstream that records how a program allocates (allocation_profile), cheaply
/// enough to leave on in a test run; thread-safe. What it records and what that costs: this header's
/// opening comment (relo/profiling_resource.hpp).
class profiling_resource final : public detail::resource_base<profiling_resource> {
public:
    /// Records the blocks of `upstream` (the global heap's new_delete_resource() by default). Allocates
    /// nothing; never throws.
    explicit profiling_resource(std::pmr::memory_resource* upstream = std::pmr::new_delete_resource()) noexcept
        : upstream_(upstream), id_(detail::profiling_resource_ids().fetch_add(1, std::memory_order_relaxed) + 1) {}
    profiling_resource(const profiling_resource&) = delete;
    profiling_resource& operator=(const profiling_resource&) = delete;
    /// Blocks still live are not given back (the upstream may release them in bulk, as a monotonic one does).
    ~profiling_resource() override = default;

    /// `bytes` at `alignment` from the upstream, recorded. Throws what the upstream throws, or
    /// std::bad_alloc before asking it when no block holds `bytes` at `alignment` with the header
    /// (detail::check_block_size).
    void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        detail::check_block_size(bytes, alignment, sizeof(header));  // (before bytes + offset, or the offset, can wrap)
        const std::size_t offset = header_offset(alignment);
        detail::profile_record& r = record();
        char* const raw = static_cast<char*>(upstream_->allocate(bytes + offset, upstream_alignment(alignment)));
        const std::uint64_t serial = r.allocations.load(std::memory_order_relaxed) + 1;
        r.allocations.store(serial, std::memory_order_relaxed);
        char* const block = raw + offset;
        ::new (static_cast<void*>(block - sizeof(header))) header{&r, serial};
        const std::size_t k = detail::log2_bucket(bytes, allocation_profile::size_buckets - 1);
        detail::profile_record::bump(r.sizes[k]);
        detail::profile_record::bump(r.alignments[detail::log2_bucket(alignment, allocation_profile::alignment_buckets - 1)]);
        detail::profile_record::bump(r.total_bytes, bytes);
        if (bytes > r.largest.load(std::memory_order_relaxed)) r.largest.store(bytes, std::memory_order_relaxed);
        if (r.waiting[k] != 0) {
            --r.waiting[k];
            detail::profile_record::bump(r.reused);
        }
        const std::uint64_t in_use = bytes_in_use_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
        std::uint64_t peak = peak_.load(std::memory_order_relaxed);
        while (in_use > peak && !peak_.compare_exchange_weak(peak, in_use, std::memory_order_relaxed)) {
        }
        return block;
    }

    /// Gives p back to the upstream, recorded.
    void deallocate(void* p, std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) noexcept {
        char* const block = static_cast<char*>(p);
        if (detail::profile_record* r = record_if_possible()) {
            const header h = *reinterpret_cast<const header*>(block - sizeof(header));
            const std::uint64_t now = h.owner->allocations.load(std::memory_order_relaxed);
            detail::profile_record::bump(r->lifetimes[detail::log2_bucket(now - h.serial, allocation_profile::lifetime_buckets - 1)]);
            detail::profile_record::bump(r->deallocations);
            if (h.owner != r) detail::profile_record::bump(r->cross_thread_frees);
            ++r->waiting[detail::log2_bucket(bytes, allocation_profile::size_buckets - 1)];
        }
        bytes_in_use_.fetch_sub(bytes, std::memory_order_relaxed);
        const std::size_t offset = header_offset(alignment);
        upstream_->deallocate(block - offset, bytes + offset, upstream_alignment(alignment));
    }

    /// What was recorded so far, summed over the threads.
    allocation_profile profile() const {
        allocation_profile p;
        const std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& r : records_) {
            p.allocations += load(r->allocations);
            p.deallocations += load(r->deallocations);
            p.total_bytes += load(r->total_bytes);
            p.reused += load(r->reused);
            p.cross_thread_frees += load(r->cross_thread_frees);
            p.largest_allocation = std::max(p.largest_allocation, load(r->largest));
            for (std::size_t k = 0; k < allocation_profile::size_buckets; ++k) p.sizes[k] += load(r->sizes[k]);
            for (std::size_t k = 0; k < allocation_profile::alignment_buckets; ++k) p.alignments[k] += load(r->alignments[k]);
            for (std::size_t k = 0; k < allocation_profile::lifetime_buckets; ++k) p.lifetimes[k] += load(r->lifetimes[k]);
        }
        p.threads = thread_records_;
        p.bytes_in_use = bytes_in_use_.load(std::memory_order_relaxed);
        p.peak_bytes_in_use = peak_.load(std::memory_order_relaxed);
        return p;
    }

    /// Where the blocks come from.
    std::pmr::memory_resource* upstream_resource() const noexcept { return upstream_; }

private:
    /// In front of every block: the record of the thread that allocated it, and that thread's allocation
    /// count when it did.
    struct header {
        detail::profile_record* owner;
        std::uint64_t serial;
    };
    static std::size_t upstream_alignment(std::size_t alignment) noexcept {
        return alignment > alignof(header) ? alignment : alignof(header);
    }
    static std::size_t header_offset(std::size_t alignment) noexcept {  // (a multiple of the alignment)
        return alignment > sizeof(header) ? alignment : (sizeof(header) + alignment - 1) / alignment * alignment;
    }
    static std::uint64_t load(const detail::profile_record::counter& c) noexcept {
        return c.load(std::memory_order_relaxed);
    }

    /// The calling thread's record for this resource: found in its table of recent resources, else in this
    /// resource's records by thread, else made.
    RELO_ALWAYS_INLINE detail::profile_record& record() {
        detail::profile_thread_table& t = detail::profile_table();
        for (std::size_t i = 0; i < detail::profile_thread_table::slots; ++i)
            if (t.ids[i] == id_) return *t.records[i];
        return find_or_add_record(t);
    }
    /// record() for deallocate, which may not throw: null when no record can be made (out of memory; the
    /// deallocation then goes uncounted).
    detail::profile_record* record_if_possible() noexcept {
        try {
            return &record();
        } catch (...) {
            return nullptr;
        }
    }
    /// One record per thread and resource: memory bounded by the threads that used this resource, counts
    /// exact however many resources a thread uses in turn (a miss costs this lock and a lookup).
    RELO_NOINLINE detail::profile_record& find_or_add_record(detail::profile_thread_table& t) {
        if (t.thread_serial == 0) t.thread_serial = detail::new_profiling_thread_serial();
        const std::lock_guard<std::mutex> lock(mutex_);
        detail::profile_record*& r = record_of_thread_[t.thread_serial];
        if (r == nullptr) {
            records_.push_back(std::make_unique<detail::profile_record>());
            thread_records_ = records_.size();
            r = records_.back().get();
        }
        const std::size_t slot = t.next++ % detail::profile_thread_table::slots;
        t.ids[slot] = id_;
        t.records[slot] = r;
        return *r;
    }

    std::pmr::memory_resource* upstream_;
    std::uint64_t id_;
    std::atomic<std::uint64_t> bytes_in_use_{0};
    std::atomic<std::uint64_t> peak_{0};
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<detail::profile_record>> records_;   // one per thread that used this resource
    std::unordered_map<std::uint64_t, detail::profile_record*> record_of_thread_;  // by thread serial
    std::size_t thread_records_ = 0;  // records_.size() (for the debuggers' printers)
};

/// relo's strategies, as relo::recommend names them.
enum class allocation_strategy {
    global_allocator,          ///< std::allocator / new_delete_resource(): nothing to gain
    monotonic,                 ///< relo::monotonic_resource: blocks die together
    multipool,                 ///< relo::multipool_resource: most blocks freed before the peak
    multipool_over_monotonic,  ///< a multipool whose upstream is a monotonic_resource
    synchronized_multipool,    ///< relo::synchronized_multipool_resource: several threads
};

/// The strategy's name as a user writes it ("relo::monotonic_resource", ...), for messages.
inline const char* to_string(allocation_strategy s) noexcept {
    switch (s) {
        case allocation_strategy::global_allocator: return "the global allocator";
        case allocation_strategy::monotonic: return "relo::monotonic_resource";
        case allocation_strategy::multipool: return "relo::multipool_resource";
        case allocation_strategy::multipool_over_monotonic: return "relo::multipool_resource over a relo::monotonic_resource";
        case allocation_strategy::synchronized_multipool: return "relo::synchronized_multipool_resource";
    }
    return "?";
}

/// What relo::recommend says, and why.
struct allocation_recommendation {
    allocation_strategy strategy;  ///< the strategy that fits
    std::string why;               ///< the profile's numbers that decided it
    std::string resembles;         ///< the measured workload it is closest to (P0089's benchmarks, the suite's families)
    /// The size of one block that holds much of the peak (recommendation_thresholds' dominant_block and
    /// dominant_share), or 0. Where it belongs decides where it is best, and a profile cannot tell: a relo
    /// container's is best on the container's own allocator, where it grows in place, the rest of the part
    /// on `strategy`; a standard container's (which grows by copying wherever it is) goes with the rest.
    std::uint64_t owner_decides_bytes = 0;

    /// One line: `use STRATEGY: WHY (as RESEMBLES)`, the strategy named by to_string().
    std::string text() const { return std::string("use ") + to_string(strategy) + ": " + why + " (as " + resembles + ")"; }
};

/// The thresholds of relo::recommend, each chosen from the benchmark suite's measurements
/// (docs/measurements/p0089_benchmarks.md, "Choosing a strategy from a profile").
struct recommendation_thresholds {
    std::uint64_t few_allocations = 8;     ///< at most this many: a local resource costs more than it saves
    /// A block at least this large that holds at least dominant_share of the peak is a table that grows:
    /// the recommendation names it (allocation_recommendation::owner_decides_bytes), as its owner decides
    /// where it is best.
    std::uint64_t dominant_block = std::uint64_t{1} << 20;
    double dominant_share = 0.25;          ///< the share of the peak that makes such a block dominant
    double monotonic_peak_to_total = 0.5;  ///< peak ÷ total at least this: a monotonic resource wastes at most half
    /// Below the peak ratio, reuse at least this: the multipool; less: a multipool over a monotonic
    /// resource. 0 by default, which turns the second branch off (reuse then decides nothing; the earlier
    /// rule's threshold is in the page cited here): on the held-out workloads below the peak ratio the
    /// multipool came close to the fastest strategy, and the multipool over a monotonic resource was
    /// never clearly faster than it and held as much as the monotonic one where that was measured
    /// (docs/measurements/p0089_benchmarks.md, "The last rule on four more held-out workloads").
    double multipool_reuse = 0;
};

namespace detail {
/// recommend's choice from the blocks' sizes, lifetimes and reuse (its last three rules).
inline allocation_recommendation recommend_for_blocks(const allocation_profile& p, const recommendation_thresholds& t) {
    char why[256];
    if (p.peak_to_total() >= t.monotonic_peak_to_total) {
        detail::print_into(why, sizeof why,
                      "the peak holds %.2f of all bytes allocated: never reusing freed memory wastes little; if the "
                      "structure is dropped whole, let the resource go without destroying it (wink out)",
                      p.peak_to_total());
        return {allocation_strategy::monotonic, why, "benchmark I's structures, built and dropped whole"};
    }
    if (p.reuse_fraction() >= t.multipool_reuse) {
        detail::print_into(why, sizeof why, "the peak holds only %.2f of the bytes allocated: pools keep about what is "
                                            "live, where a monotonic resource would keep every byte (%.2f of the "
                                            "allocations reused a freed size)",
                      p.peak_to_total(), p.reuse_fraction());
        return {allocation_strategy::multipool, why, "benchmark III (utilization), the allocators family's random blocks and the held-out merges"};
    }
    detail::print_into(why, sizeof why, "the peak holds %.2f of the bytes and only %.2f of the allocations reuse a freed size",
                  p.peak_to_total(), p.reuse_fraction());
    return {allocation_strategy::multipool_over_monotonic, why, "benchmark I's nested structures (DS5, DS9)"};
}
}  // namespace detail

/// Which of relo's strategies fits the profile, with the reasons.
inline allocation_recommendation recommend(const allocation_profile& p, const recommendation_thresholds& t = {}) {
    char why[256];
    allocation_recommendation r;
    if (p.threads > 1 || p.cross_thread_frees > 0) {
        detail::print_into(why, sizeof why, "%llu threads allocate, %llu blocks freed by another thread",
                      static_cast<unsigned long long>(p.threads), static_cast<unsigned long long>(p.cross_thread_frees));
        r = {allocation_strategy::synchronized_multipool, why, "benchmark IV and the contention family"};
    } else if (p.allocations <= t.few_allocations) {
        detail::print_into(why, sizeof why, "only %llu allocations: a local resource costs more than the ones it saves",
                           static_cast<unsigned long long>(p.allocations));
        r = {allocation_strategy::global_allocator, why, "benchmark I's DS1, a reserved vector<int>"};
    } else {
        r = detail::recommend_for_blocks(p, t);
    }
    const std::uint64_t largest = p.largest_allocation;
    if (largest >= t.dominant_block &&
        static_cast<double>(largest) >= t.dominant_share * static_cast<double>(p.peak_bytes_in_use)) {
        // (A profile sees sizes, not owners: the block's owner decides, and the advice says how.)
        detail::print_into(why, sizeof why,
                           "; one block of %llu bytes holds %.2f of the peak: if a relo container owns it, keep that "
                           "container on its own allocator, where it grows in place (a local resource keeps or "
                           "passes through every copy it outgrows), and the rest here",
                           static_cast<unsigned long long>(largest),
                           static_cast<double>(largest) / static_cast<double>(p.peak_bytes_in_use));
        r.why += why;
        r.owner_decides_bytes = largest;
    }
    return r;
}

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_PROFILING_RESOURCE_HPP
