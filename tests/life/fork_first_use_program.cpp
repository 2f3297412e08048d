// A program that forks at once while its other threads use relo for the first time (the thread-end key's
// pthread_once, each thread's first part, the settings' first read, a synchronized pool's and a
// profiling_resource's first use, the first thread's end): the child, whose only thread is the forking
// one, must find none of relo's state half made. Run many times by life_events_test (the moment differs
// each run); exits 0 when each child did its work, 1 when one hung (killed after 5 s) or failed.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "relo/multipool_resource.hpp"
#include "relo/profiling_resource.hpp"
#include "relo/synchronized_multipool_resource.hpp"
#include "relo/vector.hpp"
#include "../mapped_ints.hpp"
#include "relo/vm_arena.hpp"
#include "relo/warm_memory.hpp"
#include "../child_process.hpp"

#include "busy_threads.hpp"

namespace {

/// Keeps something in each of the calling thread's caches; false if a value read back was wrong.
bool keep(int seed) {
    bool ok = true;
    {
        relo_test::mapped_ints v(std::size_t{1} << 20, seed);
        ok = ok && v[12345] == seed;
    }
    {
        relo::multipool_resource pools;
        for (int i = 0; i < 200; ++i) {
            auto* p = static_cast<int*>(pools.allocate(64 + 32 * (i % 8)));
            *p = seed + i;
            ok = ok && *p == seed + i;
        }
    }
    {
        relo::synchronized_multipool_resource shared;
        relo::profiling_resource profiled(&shared);
        for (int i = 0; i < 100; ++i) {
            auto* p = static_cast<int*>(profiled.allocate(16 + 48 * (i % 4)));
            *p = seed + i;
            ok = ok && *p == seed + i;
            profiled.deallocate(p, 16 + 48 * (i % 4));
        }
    }
    {
        relo::vm_arena arena(std::size_t{4} << 20);
        auto* p = static_cast<char*>(arena.allocate(std::size_t{1} << 20, 1));
        std::memset(p, seed & 0x7f, std::size_t{1} << 20);
        ok = ok && p[1000] == static_cast<char>(seed & 0x7f);
    }
    return ok;
}

}  // namespace

int main() {
    relo::set_warm_memory_idle_delay(std::chrono::nanoseconds(0));
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads = relo_test::busy_threads(stop, keep);
    threads.emplace_back([&stop] {  // (threads that end, and give their parts back, during the forks)
        for (int i = 0; !stop.load(); ++i) std::thread([i] { (void)keep(i); }).join();
    });
    int failed = 0;
    for (int c = 0; c < 3 && failed == 0; ++c) {  // (the first fork is the one at the threads' first use)
        std::fflush(nullptr);
        const pid_t pid = ::fork();
        if (pid < 0) return 1;
        if (pid == 0) {
            if (!keep(c)) ::_exit(4);
            relo::trim_warm_memory();
            // (The other threads' caches are abandoned here and still counted, within the budget.)
            const relo::warm_memory_held held = relo::warm_memory();
            ::_exit(held.total() == 0 && held.process_bytes <= relo::warm_memory_limit() ? 0 : 5);
        }
        const int code = relo_test::wait_within(pid, std::chrono::seconds(5));
        if (code != 0) {
            std::fprintf(stderr, "child %d: %s (%d)\n", c, code == -1 ? "hung" : "failed", code);
            failed = 1;
        }
    }
    stop = true;
    for (std::thread& t : threads) t.join();
    return failed;
}
