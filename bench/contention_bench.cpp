// bench/contention_bench.cpp — P0089's benchmark IV (P0089R0, section 10): variation in contention, one
// case per process.
//
//   contention_bench run --impl AS7 --threads W --iterations-log N --size-log S
//
// W threads each allocate a block of 2^S bytes and free it at once, 2^N times; printed: the time from the
// start of the first thread to the end of the last. AS1/AS2: every thread on the global allocator
// (directly, or through std::pmr::memory_resource); AS3..AS13: every thread on a local, unsynchronized
// resource of its own (relo's monotonic, multipool and multipool over monotonic, bound at compile time or
// at run time), as in the paper; relo-sync and std-sync-pool: every thread on one shared resource
// (relo::synchronized_multipool_resource, std::pmr::synchronized_pool_resource).
//
// Two patterns of long-lived programs besides the paper's, with the peak resident memory beside the time:
//
//   contention_bench pipeline --impl I --pairs P --blocks-log N
//       P producer/consumer pairs: the producer allocates 2^N blocks of 8-512 bytes (uniform) and hands
//       each through a queue of at most 1,024 to its consumer, which frees it (a work queue, a pipeline).
//   contention_bench churn --impl I --threads W --replacements-log N
//       W threads each keep 1,000 live blocks of 8-512 bytes and replace one at random, 2^N times.
//   contention_bench batch --impl I --threads W --blocks B --pairs-log N
//       W threads each allocate B blocks of 8-512 bytes and then free them, in the order allocated, until
//       2^N blocks were allocated and freed (a request's or a frame's objects, freed by the thread that
//       made them).
//
// And what a pool of threads keeps once idle:
//
//   contention_bench idle-pool --impl std|relo --threads W [--active-ms T]
//       W threads each build and destroy a vector of 12 Mi ints (48 MiB; std::vector or relo::vector) and
//       a std::pmr::vector of 20,000 std::pmr::vector<int> of 100 ints on a monotonic resource of its own
//       (std::pmr::monotonic_buffer_resource or relo::monotonic_resource), then sleep until all are done;
//       printed: the process's resident memory then (resident_kb), beside its peak. With T > 0 the main
//       thread then stays active for T ms while the pool sleeps (every 100 us a std::pmr::vector of 1,000
//       ints on a multipool resource of its own: std::pmr::unsynchronized_pool_resource or
//       relo::multipool_resource) and the resident memory after that is printed too (resident_later_kb):
//       what is given back over time.
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory_resource>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "relo/memory_resource.hpp"
#include "relo/vector.hpp"
#include "resource_states.hpp"

namespace relo_bench {
namespace {

constexpr std::size_t block_alignment = alignof(std::max_align_t);

/// The global allocator: nothing of its own.
struct global_impl {
    struct shared {};
    struct local {
        explicit local(shared&) {}
        void* allocate(std::size_t bytes) { return ::operator new(bytes); }
        void deallocate(void* p, std::size_t bytes) { ::operator delete(p, bytes); }
    };
};

/// A resource of each thread's own (made in the thread), reached directly or through memory_resource*.
template <class State, bool Virtual>
struct per_thread_impl {
    struct shared {};
    struct local : State {
        reach<resource_of<State>, Virtual> calls{this->resource};
        explicit local(shared&) {}
        void* allocate(std::size_t bytes) { return calls.allocate(bytes, block_alignment); }
        void deallocate(void* p, std::size_t bytes) { calls.deallocate(p, bytes, block_alignment); }
    };
};

/// One resource every thread shares, reached directly or through memory_resource*.
template <class Resource, bool Virtual>
struct shared_impl {
    struct shared {
        Resource resource;
    };
    struct local {
        reach<Resource, Virtual> calls;
        explicit local(shared& sh) : calls(sh.resource) {}
        void* allocate(std::size_t bytes) { return calls.allocate(bytes, block_alignment); }
        void deallocate(void* p, std::size_t bytes) { calls.deallocate(p, bytes, block_alignment); }
    };
};

using impls = table<named<"AS1", global_impl>,
                    named<"AS2", per_thread_impl<new_delete, true>>,
                    named<"AS3", per_thread_impl<just<relo::monotonic_resource>, false>>,
                    named<"AS5", per_thread_impl<just<relo::monotonic_resource>, true>>,
                    named<"AS7", per_thread_impl<just<relo::multipool_resource>, false>>,
                    named<"AS9", per_thread_impl<just<relo::multipool_resource>, true>>,
                    named<"AS11", per_thread_impl<multipool_over_monotonic, false>>,
                    named<"AS13", per_thread_impl<multipool_over_monotonic, true>>,
                    named<"relo-sync", shared_impl<relo::synchronized_multipool_resource, false>>,
                    named<"std-sync-pool", shared_impl<std::pmr::synchronized_pool_resource, true>>>;

/// The strategies whose blocks may be freed by another thread than the allocating one.
using crossing_impls = table<named<"AS1", global_impl>,
                             named<"relo-sync", shared_impl<relo::synchronized_multipool_resource, false>>,
                             named<"std-sync-pool", shared_impl<std::pmr::synchronized_pool_resource, true>>>;
/// The churn's: those, and a multipool of each thread's own (the unsynchronized floor).
using churn_impls = join_t<crossing_impls, table<named<"AS7", per_thread_impl<just<relo::multipool_resource>, false>>>>;
/// The batch's: the churn's, and the synchronized multipool through std::pmr::memory_resource* (as a
/// std::pmr container reaches it).
using batch_impls = join_t<churn_impls, table<named<"relo-sync-pmr", shared_impl<relo::synchronized_multipool_resource, true>>>>;

/// A block handed from a producer to its consumer.
struct handed {
    unsigned char* p;
    std::size_t bytes;
};

/// A single-producer single-consumer queue of at most `capacity` blocks (spins, yielding, when full or empty).
class handoff_queue {
public:
    static constexpr std::size_t capacity = 1024;
    void push(const handed& h) {
        const std::size_t tail = tail_.load(std::memory_order_relaxed);
        while (tail - head_.load(std::memory_order_acquire) == capacity) std::this_thread::yield();
        slots_[tail % capacity] = h;
        tail_.store(tail + 1, std::memory_order_release);
    }
    handed pop() {
        const std::size_t head = head_.load(std::memory_order_relaxed);
        while (tail_.load(std::memory_order_acquire) == head) std::this_thread::yield();
        const handed h = slots_[head % capacity];
        head_.store(head + 1, std::memory_order_release);
        return h;
    }

private:
    std::array<handed, capacity> slots_{};
    alignas(64) std::atomic<std::size_t> head_{0};
    alignas(64) std::atomic<std::size_t> tail_{0};
};

/// Sizes of 8 to 512 bytes, uniform.
struct block_sizes {
    xorshift random;
    std::size_t next() noexcept { return 8 + static_cast<std::size_t>(random.next() % 505); }
};

/// Starts `count` threads running body(index), releases them together, and returns the time until the
/// last one ends. Each makes its Impl::local itself, before the start.
template <class Impl, class Body>
double run_threads(typename Impl::shared& shared, int count, Body body) {
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < count; ++t) {
        threads.emplace_back([&, t] {
            typename Impl::local allocator(shared);
            ready.fetch_add(1);
            while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
            body(t, allocator);
        });
    }
    while (ready.load() < count) std::this_thread::yield();
    const double start = now_seconds();
    go.store(true, std::memory_order_release);
    for (std::thread& t : threads) t.join();
    return now_seconds() - start;
}

template <class Impl>
double pipeline(int pairs, std::size_t blocks) {
    typename Impl::shared shared;
    std::vector<handoff_queue> queues(static_cast<std::size_t>(pairs));
    return run_threads<Impl>(shared, 2 * pairs, [&](int t, typename Impl::local& allocator) {
        handoff_queue& queue = queues[static_cast<std::size_t>(t / 2)];
        if (t % 2 == 0) {
            block_sizes sizes{{0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(t)}};
            for (std::size_t i = 0; i < blocks; ++i) {
                const std::size_t bytes = sizes.next();
                auto* p = static_cast<unsigned char*>(allocator.allocate(bytes));
                p[0] = static_cast<unsigned char>(i);
                queue.push({p, bytes});
            }
        } else {
            for (std::size_t i = 0; i < blocks; ++i) {
                const handed h = queue.pop();
                keep(h.p[0]);
                allocator.deallocate(h.p, h.bytes);
            }
        }
    });
}

template <class Impl>
double churn(int workers, std::size_t replacements) {
    constexpr std::size_t live = 1000;
    typename Impl::shared shared;
    return run_threads<Impl>(shared, workers, [&](int t, typename Impl::local& allocator) {
        block_sizes sizes{{0x2545F4914F6CDD1Dull + static_cast<std::uint64_t>(t)}};
        std::vector<handed> blocks(live);
        for (handed& b : blocks) {
            b.bytes = sizes.next();
            b.p = static_cast<unsigned char*>(allocator.allocate(b.bytes));
            b.p[0] = 1;
        }
        for (std::size_t i = 0; i < replacements; ++i) {
            handed& b = blocks[sizes.random.next() % live];
            allocator.deallocate(b.p, b.bytes);
            b.bytes = sizes.next();
            b.p = static_cast<unsigned char*>(allocator.allocate(b.bytes));
            b.p[0] = static_cast<unsigned char>(i);
        }
        for (handed& b : blocks) allocator.deallocate(b.p, b.bytes);
    });
}

template <class Impl>
double batch(int workers, std::size_t blocks, std::size_t pairs) {
    typename Impl::shared shared;
    return run_threads<Impl>(shared, workers, [&](int t, typename Impl::local& allocator) {
        block_sizes sizes{{0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(t + 1)}};
        std::vector<handed> made(blocks);
        for (std::size_t done = 0; done < pairs; done += blocks) {
            for (handed& b : made) {
                b.bytes = sizes.next();
                b.p = static_cast<unsigned char*>(allocator.allocate(b.bytes));
                b.p[0] = static_cast<unsigned char>(done);
            }
            for (handed& b : made) {
                keep(b.p[0]);
                allocator.deallocate(b.p, b.bytes);
            }
        }
    });
}

/// Prints one pattern's result: the time and the peak resident memory of the process.
void print_pattern(const std::string& impl, const char* count_name, long count, long log, double t) {
    json_line out;
    out.add("impl", impl).add(count_name, count).add("log", log).add("time_s", t);
    out.add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
}

int run_pipeline(const options& opt) {
    const std::string impl = opt.required("impl");
    const long pairs = opt.number("pairs", 1);
    const long log = opt.number("blocks-log", 20);
    if (pairs < 1 || pairs > 64 || log < 1 || log > 40) options::usage_error("need 1 <= --pairs <= 64, 1 <= --blocks-log <= 40");
    double t = -1;
    if (!crossing_impls::with(impl, [&](auto tag) {
            t = pipeline<typename decltype(tag)::type>(static_cast<int>(pairs), std::size_t{1} << log);
        }))
        options::usage_error("unknown strategy " + impl);
    print_pattern(impl, "pairs", pairs, log, t);
    return 0;
}

int run_churn(const options& opt) {
    const std::string impl = opt.required("impl");
    const long workers = opt.number("threads", 1);
    const long log = opt.number("replacements-log", 20);
    if (workers < 1 || workers > 256 || log < 1 || log > 40)
        options::usage_error("need 1 <= --threads <= 256, 1 <= --replacements-log <= 40");
    double t = -1;
    if (!churn_impls::with(impl, [&](auto tag) {
            t = churn<typename decltype(tag)::type>(static_cast<int>(workers), std::size_t{1} << log);
        }))
        options::usage_error("unknown strategy " + impl);
    print_pattern(impl, "threads", workers, log, t);
    return 0;
}

int run_batch(const options& opt) {
    const std::string impl = opt.required("impl");
    const long workers = opt.number("threads", 1);
    const long blocks = opt.number("blocks", 1000);
    const long log = opt.number("pairs-log", 22);
    if (workers < 1 || workers > 256 || blocks < 1 || blocks > (1L << 24) || log < 1 || log > 40)
        options::usage_error("need 1 <= --threads <= 256, 1 <= --blocks <= 2^24, 1 <= --pairs-log <= 40");
    double t = -1;
    if (!batch_impls::with(impl, [&](auto tag) {
            t = batch<typename decltype(tag)::type>(static_cast<int>(workers), static_cast<std::size_t>(blocks),
                                                    std::size_t{1} << log);
        }))
        options::usage_error("unknown strategy " + impl);
    json_line out;
    out.add("impl", impl).add("threads", workers).add("blocks", blocks).add("log", log).add("time_s", t);
    out.add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
    return 0;
}

/// One idle-pool worker's work on a vector type and a monotonic resource type.
template <class Vector, class Monotonic>
void build_and_destroy() {
    {
        Vector v;
        for (int i = 0; i < 12 * (1 << 20); ++i) v.push_back(i);
        keep(v.back());
    }
    Monotonic arena;
    std::pmr::vector<std::pmr::vector<int>> rows(&arena);
    for (int r = 0; r < 20000; ++r) {
        rows.emplace_back();
        for (int i = 0; i < 100; ++i) rows.back().push_back(i);
    }
    keep(rows.back().back());
}

/// A thread's small work while the others are idle, for `ms` milliseconds: every 100 us a vector of 1,000
/// ints on a pool resource of its own.
template <class Pools>
void stay_active(long ms) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < end) {
        {
            Pools pools;
            std::pmr::vector<int> v(&pools);
            for (int i = 0; i < 1000; ++i) v.push_back(i);
            keep(v.back());
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

int run_idle_pool(const options& opt) {
    const std::string impl = opt.required("impl");
    const long workers = opt.number("threads", 8);
    const long active_ms = opt.number("active-ms", 0);
    if (workers < 1 || workers > 256 || active_ms < 0) options::usage_error("need 1 <= --threads <= 256, --active-ms >= 0");
    if (impl != "std" && impl != "relo") options::usage_error("unknown implementation " + impl);
    std::mutex m;
    std::condition_variable changed;
    long done = 0;
    bool ending = false;
    std::vector<std::thread> threads;
    for (long t = 0; t < workers; ++t)
        threads.emplace_back([&] {
            if (impl == "std") {
                build_and_destroy<std::vector<int>, std::pmr::monotonic_buffer_resource>();
            } else {
                build_and_destroy<relo::vector<int>, relo::monotonic_resource>();
            }
            std::unique_lock<std::mutex> lock(m);
            ++done;
            changed.notify_all();
            changed.wait(lock, [&] { return ending; });
        });
    long resident_kb = 0;
    long resident_later_kb = 0;
    {
        std::unique_lock<std::mutex> lock(m);
        changed.wait(lock, [&] { return done == workers; });
        resident_kb = process_counters::rss_kb();
        if (active_ms > 0) {
            lock.unlock();
            if (impl == "std") {
                stay_active<std::pmr::unsynchronized_pool_resource>(active_ms);
            } else {
                stay_active<relo::multipool_resource>(active_ms);
            }
            resident_later_kb = process_counters::rss_kb();
            lock.lock();
        }
        ending = true;
    }
    changed.notify_all();
    for (std::thread& t : threads) t.join();
    json_line out;
    out.add("impl", impl).add("threads", workers).add("resident_kb", resident_kb);
    if (active_ms > 0) out.add("active_ms", active_ms).add("resident_later_kb", resident_later_kb);
    out.add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
    return 0;
}

template <class Impl>
double contend(int workers, std::size_t iterations, std::size_t size) {
    typename Impl::shared shared;
    return run_threads<Impl>(shared, workers, [&](int, typename Impl::local& allocator) {
        for (std::size_t i = 0; i < iterations; ++i) {
            auto* p = static_cast<unsigned char*>(allocator.allocate(size));
            *static_cast<volatile unsigned char*>(p) = static_cast<unsigned char>(i);
            allocator.deallocate(p, size);
        }
    });
}

int run(const options& opt) {
    const std::string impl = opt.required("impl");
    const int workers = static_cast<int>(opt.number("threads", 1));
    const int iterations_log = static_cast<int>(opt.number("iterations-log", 15));
    const int size_log = static_cast<int>(opt.number("size-log", 6));
    if (workers < 1 || workers > 256 || iterations_log > 40 || size_log < 3 || size_log > 30)
        options::usage_error("need 1 <= --threads <= 256, --iterations-log <= 40, 3 <= --size-log <= 30");
    double t = -1;
    const bool found = impls::with(impl, [&](auto tag) {
        t = contend<typename decltype(tag)::type>(workers, std::size_t{1} << iterations_log, std::size_t{1} << size_log);
    });
    if (!found) options::usage_error("unknown strategy " + impl);
    json_line out;
    out.add("impl", impl).add("threads", static_cast<long>(workers)).add("iterations_log", static_cast<long>(iterations_log));
    out.add("size_log", static_cast<long>(size_log)).add("time_s", t).add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
    return 0;
}

}  // namespace

program this_program() {
    return program("contention_bench", {
        mode::of<impls, table<named<"bytes", char>>>("run", run),
        mode::of<crossing_impls, table<named<"bytes", char>>>("pipeline", run_pipeline),
        mode::of<churn_impls, table<named<"bytes", char>>>("churn", run_churn),
        mode::of<batch_impls, table<named<"bytes", char>>>("batch", run_batch),
        mode{"idle-pool", run_idle_pool, {"std", "relo"}, {}, {{"bytes", 1}}, {}},
    });
}

}  // namespace relo_bench
