// A program whose first relo use is a global vector made before main, run by life_events_test under a
// seccomp filter, installed before exec, that kills the process on membarrier (as strict sandboxes do):
// relo never calls it, nor anything else but memory and clock calls, at any event it goes through here —
// the first use before main, threads that keep and end, a keep after the idle delay, trims, a fork and the
// child's use, the program's end. Exits 0 when every check held, 1 otherwise.
//
//   sandboxed_program [call-membarrier]
//
// With "call-membarrier" it calls membarrier itself first (the filter's own check: killed by SIGSYS).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "relo/multipool_resource.hpp"
#include "relo/vector.hpp"
#include "../mapped_ints.hpp"
#include "relo/vm_arena.hpp"
#include "relo/warm_memory.hpp"

relo::vector<int> made_before_main{1, 2, 3};

namespace {

/// Keeps something in each of the calling thread's caches; false if a value read back was wrong.
bool keep(int seed) {
    relo_test::mapped_ints v(std::size_t{1} << 20, seed);  // (4 MiB: a large block)
    relo::multipool_resource pools;
    auto* p = static_cast<int*>(pools.allocate(64));
    *p = seed;
    relo::vm_arena arena(std::size_t{4} << 20);
    auto* q = static_cast<char*>(arena.allocate(std::size_t{1} << 20, 1));
    std::memset(q, seed & 0x7f, std::size_t{1} << 20);
    return v[12345] == seed && *p == seed && q[999] == static_cast<char>(seed & 0x7f);
}

}  // namespace

int main(int argc, char** argv) {
#if defined(SYS_membarrier)
    if (argc > 1 && std::strcmp(argv[1], "call-membarrier") == 0) (void)::syscall(SYS_membarrier, 0, 0, 0);
#else
    (void)argc;
    (void)argv;
#endif
    bool ok = made_before_main.size() == 3 && keep(1);
    relo::set_warm_memory_idle_delay(std::chrono::milliseconds(20));
    std::atomic<bool> threads_ok{true};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&threads_ok, t] {
            for (int i = 0; i < 20; ++i)
                if (!keep(t + i)) threads_ok = false;
            if (t % 2 == 0) relo::trim_warm_memory();  // (the others' ends give theirs back)
        });
    for (auto& t : threads) t.join();
    ok = ok && threads_ok.load() && relo::warm_memory().process_bytes == relo::warm_memory().total();
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    ok = ok && keep(2);  // (each cache idle past the delay: what it held goes back first)
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(keep(3) ? 0 : 1);
    int status = 0;
    ok = ok && pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    relo::trim_warm_memory();
    ok = ok && relo::warm_memory().process_bytes == 0;
    std::printf("%s\n", ok ? "sandboxed program ok" : "sandboxed program failed");
    return ok ? 0 : 1;
}
