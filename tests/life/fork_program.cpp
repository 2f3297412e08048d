// A program that registers fork handlers of its own before its first use of relo (as the libraries a
// program starts with do), whose prepare, parent and child handlers use relo on the forking thread while
// other threads keep, take and trim. relo registers no fork handler: the forking thread's caches are
// whole in every handler and in the child. Run by life_events_test; exits 0 when every child did its work
// and none hung, 1 otherwise.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "relo/multipool_resource.hpp"
#include "relo/vector.hpp"
#include "../mapped_ints.hpp"
#include "relo/warm_memory.hpp"

namespace {

/// Uses the calling thread's chunk and large-block caches and trims them every other time; false if a value
/// read back was wrong.
bool use_relo(int seed) {
    relo_test::mapped_ints v(std::size_t{1} << 18, seed);
    relo::multipool_resource pools;
    auto* p = static_cast<int*>(pools.allocate(64));
    *p = seed;
    const bool ok = v[1000] == seed && *p == seed;
    if (seed % 2 == 0) relo::trim_warm_memory();
    return ok;
}

std::atomic<bool> handlers_ok{true};

}  // namespace

int main() {
    if (::pthread_atfork([] { handlers_ok = handlers_ok && use_relo(1); }, [] { handlers_ok = handlers_ok && use_relo(2); },
                         [] { handlers_ok = handlers_ok && use_relo(3); }) != 0)
        return 1;
    if (!use_relo(0)) return 1;
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; !stop.load(); ++i) (void)use_relo(t + i);
        });
    int failed = 0;
    for (int child = 0; child < 40 && failed == 0; ++child) {
        const pid_t pid = ::fork();
        if (pid == 0) ::_exit(handlers_ok.load() && use_relo(4) && use_relo(5) ? 0 : 1);
        int status = 0;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (::waitpid(pid, &status, WNOHANG) == 0) {
            if (std::chrono::steady_clock::now() > deadline) {
                ::kill(pid, SIGKILL);
                ::waitpid(pid, &status, 0);
                std::fprintf(stderr, "child %d hung\n", child);
                failed = 1;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        if (failed == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            std::fprintf(stderr, "child %d failed\n", child);
            failed = 1;
        }
    }
    stop = true;
    for (auto& t : threads) t.join();
    return failed == 0 && handlers_ok.load() ? 0 : 1;
}
