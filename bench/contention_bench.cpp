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
#include <atomic>
#include <cstdint>
#include <memory_resource>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "relo/memory_resource.hpp"
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

template <class Impl>
double contend(int workers, std::size_t iterations, std::size_t size) {
    typename Impl::shared shared;
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) {
        threads.emplace_back([&] {
            typename Impl::local allocator(shared);  // (made by the thread that uses it)
            ready.fetch_add(1);
            while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
            for (std::size_t i = 0; i < iterations; ++i) {
                auto* p = static_cast<unsigned char*>(allocator.allocate(size));
                *static_cast<volatile unsigned char*>(p) = static_cast<unsigned char>(i);
                allocator.deallocate(p, size);
            }
        });
    }
    while (ready.load() < workers) std::this_thread::yield();
    const double start = now_seconds();
    go.store(true, std::memory_order_release);
    for (std::thread& t : threads) t.join();
    return now_seconds() - start;
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
    });
}

}  // namespace relo_bench
