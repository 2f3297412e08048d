// The fork idiom of any library with a global lock, in a program that uses relo under that lock:
// at start it registers pthread_atfork(lock M, unlock M, unlock M); a worker thread repeatedly takes M,
// uses relo (its first use of relo is under M), and releases M; the main thread forks 300 times, and each
// child uses relo and _exits. A fork handler of relo's that took or waited for anything the worker holds
// while it holds M hangs the parent in fork(); one that left a lock held hangs a child. Run by
// life_events_test, under a deadline of its own for the parent.
//
//   atfork_idiom_program vector | pool
//
// vector: the worker builds and drops a relo::vector<char> of 300,000 bytes and one of 70,000 (the
// warm-block cache keeps and takes them); each child builds both. pool: the worker also allocates and
// frees blocks of a relo::synchronized_multipool_resource under M, and each child uses that pool too (as
// std::pmr::synchronized_pool_resource allows: no other thread was inside it at the fork, since the worker
// is inside it only under M, which the forking thread holds there).
// Exits 0 when every child did its work, 1 when one failed or hung (killed after 10 s; stderr says which),
// 2 on bad arguments.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "relo/synchronized_multipool_resource.hpp"
#include "relo/vector.hpp"
#include "../mapped_ints.hpp"
#include "../child_process.hpp"

namespace {

pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;

/// Builds, checks and drops the two vectors.
bool use_vectors(int seed) {
    relo_test::mapped_vector<char> large(300000);  // (large blocks: the warm-block cache across fork)
    large[0] = static_cast<char>(seed);
    large.back() = static_cast<char>(seed + 1);
    relo_test::mapped_vector<char> smaller(70000, static_cast<char>(seed));
    return large[0] == static_cast<char>(seed) && large.back() == static_cast<char>(seed + 1) &&
           smaller[69999] == static_cast<char>(seed);
}

/// Allocates blocks of several sizes from the pool, checks and frees them.
bool use_pool(std::pmr::memory_resource& pool, int seed) {
    constexpr std::size_t sizes[] = {16, 48, 64, 200, 1000, 4000, 20000};
    void* blocks[sizeof sizes / sizeof sizes[0] * 4];
    std::size_t n = 0;
    for (int k = 0; k < 4; ++k)
        for (std::size_t bytes : sizes) {
            blocks[n] = pool.allocate(bytes);
            std::memset(blocks[n], (seed + static_cast<int>(n)) & 0x7f, bytes);
            ++n;
        }
    bool ok = true;
    n = 0;
    for (int k = 0; k < 4; ++k)
        for (std::size_t bytes : sizes) {
            const auto* p = static_cast<const unsigned char*>(blocks[n]);
            ok = ok && p[0] == ((seed + static_cast<int>(n)) & 0x7f) && p[bytes - 1] == p[0];
            pool.deallocate(blocks[n], bytes);
            ++n;
        }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    const bool with_pool = argc == 2 && std::strcmp(argv[1], "pool") == 0;
    if (argc != 2 || (!with_pool && std::strcmp(argv[1], "vector") != 0)) {
        std::fprintf(stderr, "usage: %s vector|pool\n", argv[0]);
        return 2;
    }
    if (::pthread_atfork([] { ::pthread_mutex_lock(&lock_m); }, [] { ::pthread_mutex_unlock(&lock_m); },
                         [] { ::pthread_mutex_unlock(&lock_m); }) != 0)
        return 1;
    std::optional<relo::synchronized_multipool_resource> pool;  // (the vector mode uses relo only in the worker and the children)
    if (with_pool) pool.emplace();
    std::atomic<bool> stop{false};
    std::atomic<bool> worker_ok{true};
    std::atomic<long> rounds{0};
    std::thread worker([&] {
        for (int i = 0; !stop.load(std::memory_order_relaxed); ++i) {
            ::pthread_mutex_lock(&lock_m);
            bool ok = use_vectors(i);
            if (with_pool) ok = use_pool(*pool, i) && ok;
            ::pthread_mutex_unlock(&lock_m);
            if (!ok) worker_ok = false;
            rounds.fetch_add(1, std::memory_order_relaxed);
            ::sched_yield();  // (lets the forking thread take M now and then)
        }
    });
    int failed = 0;
    for (int child = 0; child < 300 && failed == 0; ++child) {
        std::fflush(nullptr);
        const pid_t pid = ::fork();
        if (pid < 0) {
            std::fprintf(stderr, "fork %d failed\n", child);
            failed = 1;
            break;
        }
        if (pid == 0) ::_exit(use_vectors(child) && (!with_pool || use_pool(*pool, child)) ? 0 : 3);
        const int code = relo_test::wait_within(pid, std::chrono::seconds(10));
        if (code != 0) {
            std::fprintf(stderr, "child %d: %s (%d)\n", child, code == -1 ? "hung" : "failed", code);
            failed = 1;
        }
    }
    stop = true;
    worker.join();
    if (!worker_ok.load()) std::fprintf(stderr, "the worker read back a wrong value\n");
    std::printf("%s mode: %ld rounds of the worker during the forks\n", with_pool ? "pool" : "vector", rounds.load());
    return failed == 0 && worker_ok.load() ? 0 : 1;
}
