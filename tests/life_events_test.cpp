// The host process's life events, with relo's thread caches in use (docs/life_in_a_process.md): fork while
// other threads keep, take and trim (the child has the forking thread's caches whole and the parent's count
// of the others', uses what it inherited and forks again); forks from many threads at once, from a signal
// handler inside a cache visit, and under the fork idiom of a library with a global lock; threads that end
// in any order, whose first keep is in a pthread key's destructor or a thread_local's; thousands of short
// threads; detached threads at the program's end; a signal handler that uses relo while its thread is
// inside its own cache; a sandbox that kills on membarrier; copies of relo in libraries, unloaded while
// threads hold warm memory in them; two backend modes in one program. Each case that could hang runs in a
// child process with a deadline, so that a hang fails the test instead of stopping the run. (POSIX. Fork
// with other threads inside malloc is skipped where a sanitizer's runtime cannot take it:
// tests/child_process.hpp.)
#include "relo/warm_memory.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <typeinfo>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "child_process.hpp"
#include "life/busy_threads.hpp"
#include "mapped_ints.hpp"
#include "os_probes.hpp"
#include "parked_thread.hpp"
#include "sanitizers.hpp"
#include "relo/monotonic_resource.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/vector.hpp"
#include "relo/vm_arena.hpp"

#if !defined(_WIN32)
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dlfcn.h>
#if defined(__linux__)
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif
#endif

namespace relo_test {

// tests/life/other_mode_unit.cpp: the other backend mode's unit of this program.
std::string other_mode_vector_type();
std::size_t other_mode_workout();
std::size_t other_mode_process_bytes();

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;
[[maybe_unused]] constexpr std::size_t unmapped = static_cast<std::size_t>(-1);  // (resident_pages of a range not mapped)

#if defined(_WIN32)
TEST(LifeEvents, PosixOnly) { GTEST_SKIP() << "fork, pthread keys and signals: POSIX (Windows' thread ends: warm_memory_test)"; }
#else

/// What the process's caches keep (every thread's, as the counter says).
std::size_t process_bytes() { return relo::warm_memory().process_bytes; }

/// Why a fork with other threads parked (waiting on a condition variable, inside no allocator) cannot be
/// tested in this build (null: it can).
const char* fork_with_parked_threads_untestable() {
    return RELO_TSAN ? "ThreadSanitizer does not support fork with other threads running" : nullptr;
}

/// Keeps something in each of the calling thread's three caches: a 4 MiB block, a multipool's chunks, an
/// arena's reservation; checks what it wrote on the way.
bool keep_in_every_cache(int seed) {
    bool ok = true;
    {
        mapped_ints v(std::size_t{1} << 20, seed);
        ok = ok && v[12345] == seed && v.back() == seed;
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
        relo::vm_arena arena(4 * mib);
        auto* p = static_cast<char*>(arena.allocate(mib, 1));
        std::memset(p, seed & 0x7f, mib);
        ok = ok && p[mib - 1] == static_cast<char>(seed & 0x7f);
    }
    return ok;
}

/// Takes from and keeps in every cache, by every kind of user: chunks through a monotonic and a multipool
/// resource over the global heap, large blocks through relo::vectors of more than 64 KiB, reservations
/// through a vm_arena and a pinned_vector; checks what it wrote.
bool use_every_cache(int seed) {
    bool ok = true;
    {
        relo::monotonic_resource mono;
        relo::multipool_resource pools;
        for (int i = 0; i < 100; ++i) {
            auto* p = static_cast<int*>(mono.allocate(200));
            auto* q = static_cast<int*>(pools.allocate(48 + 16 * (i % 4)));
            *p = seed + i;
            *q = seed - i;
            ok = ok && *p == seed + i && *q == seed - i;
        }
    }
    {
        mapped_vector<char> bytes(100000, static_cast<char>(seed));
        mapped_ints ints(std::size_t{1} << 18, seed);
        ok = ok && bytes[99999] == static_cast<char>(seed) && ints[1000] == seed;
    }
    {
        relo::vm_arena arena(4 * mib);
        auto* p = static_cast<char*>(arena.allocate(256 << 10, 1));
        std::memset(p, seed & 0x7f, 256 << 10);
        relo::pinned_vector<int> pinned;
        for (int i = 0; i < 5000; ++i) pinned.push_back(seed + i);
        ok = ok && p[1000] == static_cast<char>(seed & 0x7f) && pinned[4999] == seed + 4999;
    }
    return ok;
}

/// Runs `program` with `argument` (unless null) in a child process within `limit`: its exit status, 128 +
/// the signal that ended it, or child_hung.
[[maybe_unused]] int run_program(const char* program, const char* argument, std::chrono::milliseconds limit) {
    return in_child(limit, [program, argument] {
        ::execl(program, program, argument, static_cast<char*>(nullptr));
        return 101;
    });
}

class LifeEvents : public ::testing::Test {
protected:
    void SetUp() override { relo::trim_warm_memory(); }
    void TearDown() override {
        relo::set_warm_memory_idle_delay(delay_);
        relo::set_warm_memory_limit(limit_);
        relo::trim_warm_memory();
    }

private:
    std::chrono::nanoseconds delay_ = relo::warm_memory_idle_delay();
    std::size_t limit_ = relo::warm_memory_limit();
};

// ---- fork

/// While two threads keep, take and trim, this thread forks children that each use what they inherited
/// and every cache, trim, and fork a grandchild that does the same. The other threads' caches are
/// abandoned in the child, and still counted there: the child's own trim gives back its own only.
TEST_F(LifeEvents, ForksWhileOtherThreadsKeepTakeAndTrim) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    relo::set_warm_memory_idle_delay(std::chrono::nanoseconds(0));  // (every keep gives the cache back first)
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads = busy_threads(stop, keep_in_every_cache);
    mapped_ints inherited(std::size_t{1} << 20, 7);
    int hung = 0, failed = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    int children = 0;
    for (; children < 400 && std::chrono::steady_clock::now() < until; ++children) {
        const int status = in_child(std::chrono::seconds(10), [&] {
            if (inherited[4242] != 7) return 3;
            inherited.push_back(8);  // (the inherited vector grows, moves and is freed in the child)
            inherited.shrink_to_fit();
            if (!keep_in_every_cache(children)) return 4;
            relo::trim_warm_memory();
            if (relo::warm_memory().total() != 0 || process_bytes() > relo::warm_memory_limit()) return 5;
            const int grandchild = in_child(std::chrono::seconds(5), [&] {
                const std::size_t before = process_bytes();  // (the abandoned caches' count)
                if (!keep_in_every_cache(children + 1)) return 4;
                const std::size_t kept = relo::warm_memory().total();
                if (kept == 0 || process_bytes() != before + kept) return 6;
                relo::trim_warm_memory();
                return process_bytes() == before ? 0 : 6;
            });
            return grandchild == 0 ? 0 : grandchild == child_hung ? 7 : 8;
        });
        hung += status == child_hung || status == 7;
        failed += status != 0;
        if (status != 0) ADD_FAILURE() << "child " << children << " ended with " << status << " (-1, 7: hung)";
        if (failed > 3) break;
    }
    stop = true;
    for (auto& t : threads) t.join();
    EXPECT_EQ(hung, 0);
    EXPECT_EQ(failed, 0) << "of " << children << " children";
    EXPECT_EQ(inherited[4242], 7) << "the parent's vector is its own";
}

/// Repeated forks leave the parent as it was: its caches, and the count, unchanged.
TEST_F(LifeEvents, RepeatedForksLeaveTheParentAsItWas) {
    ASSERT_TRUE(keep_in_every_cache(1));
    const relo::warm_memory_held kept = relo::warm_memory();
    for (int i = 0; i < 100; ++i) ASSERT_EQ(in_child(std::chrono::seconds(10), [] { return keep_in_every_cache(2) ? 0 : 1; }), 0);
    EXPECT_EQ(relo::warm_memory().total(), kept.total());
    EXPECT_EQ(relo::warm_memory().reservations, kept.reservations);
    EXPECT_EQ(process_bytes(), kept.process_bytes);
}

/// In a child, the forking thread's caches are whole (their blocks taken again, at the same addresses) and
/// the count is the parent's at the fork: another thread's holdings, abandoned there, are still counted,
/// so that the child keeps at most the budget less what they held.
TEST_F(LifeEvents, AChildHasTheForkingThreadsCachesWholeAndTheParentsCount) {
    if (const char* why = fork_with_parked_threads_untestable()) GTEST_SKIP() << why;
    const parked_thread other([] { (void)keep_in_every_cache(3); }, [] {});
    const std::size_t others = process_bytes();
    EXPECT_GE(others, 5 * mib);
    const int* block = nullptr;
    {
        const mapped_ints v(std::size_t{1} << 20, 4);
        block = v.data();
    }
    char* const reservation = [] {
        relo::vm_arena arena(4 * mib);
        auto* p = static_cast<char*>(arena.allocate(mib, 1));
        std::memset(p, 1, mib);
        return p;
    }();
    const relo::warm_memory_held mine = relo::warm_memory();
    EXPECT_GE(mine.total(), 5 * mib);
    EXPECT_EQ(mine.process_bytes, others + mine.total());
    const int status = in_child(std::chrono::seconds(10), [&] {
        const relo::warm_memory_held held = relo::warm_memory();
        if (held.total() != mine.total() || held.reservations != mine.reservations) return 1;
        if (held.process_bytes != mine.process_bytes) return 2;
        {
            const mapped_ints again(std::size_t{1} << 20, 5);
            if (again.data() != block || again[777] != 5) return 3;
        }
        {
            relo::vm_arena arena(4 * mib);
            if (arena.allocate(mib, 1) != reservation) return 4;
        }
        relo::trim_warm_memory();
        if (relo::warm_memory().total() != 0 || process_bytes() != others) return 5;
        relo::set_warm_memory_limit(others + 2 * mib);
        { const mapped_ints v(std::size_t{8} << 20, 6); }  // (32 MiB: a reservation past the budget)
        const relo::warm_memory_held capped = relo::warm_memory();
        if (capped.total() == 0 || capped.total() > 2 * mib || capped.process_bytes > others + 2 * mib) return 6;
        return 0;
    });
    EXPECT_EQ(status, 0) << "1: the forking thread's caches were not whole in the child; 2: the count was not the "
                            "parent's; 3, 4: a cached block or reservation was not taken again; 5: the other "
                            "thread's holdings were not counted; 6: the child kept more than the budget left";
    EXPECT_EQ(relo::warm_memory().total(), mine.total()) << "the parent's caches are its own";
    EXPECT_EQ(process_bytes(), mine.process_bytes);
}

/// Several threads that use every cache fork at once, again and again; each child uses every cache, and
/// half of them end by exit() (relo's end-of-program work in a child whose other threads are gone).
TEST_F(LifeEvents, ForksFromManyThreads) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    const int status = in_child(std::chrono::seconds(120), [] {
        constexpr int threads_count = 4;
        constexpr int forks_each = 25;
        std::atomic<int> failed{0};
        std::atomic<int> ready{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < threads_count; ++t)
            threads.emplace_back([&, t] {
                ready.fetch_add(1);
                while (ready.load() < threads_count) std::this_thread::yield();
                for (int k = 0; k < forks_each; ++k) {
                    if (!use_every_cache(100 * t + k)) failed.fetch_add(1);
                    const pid_t pid = ::fork();
                    if (pid == 0) {
                        bool ok = use_every_cache(k) && use_every_cache(k + 1);
                        relo::trim_warm_memory();
                        ok = ok && relo::warm_memory().total() == 0;
                        // (Under AddressSanitizer, exit() would run LeakSanitizer over the abandoned caches.)
                        if (!RELO_TEST_ASAN && k % 2 == 1) std::exit(ok ? 0 : 1);
                        ::_exit(ok ? 0 : 1);
                    }
                    const int code = pid < 0 ? 126 : wait_within(pid, std::chrono::seconds(10));
                    if (code != 0) {
                        std::fprintf(stderr, "thread %d, fork %d: %s (%d)\n", t, k, code == child_hung ? "hung" : "failed", code);
                        failed.fetch_add(1);
                    }
                }
            });
        for (auto& t : threads) t.join();
        return failed.load() == 0 ? 0 : 1;
    });
    EXPECT_EQ(status, 0) << "-1: the forking process hung; 1: a child hung or failed (stderr says which)";
}

/// GoogleTest's death tests in the fast style fork while other threads run.
TEST_F(LifeEvents, DeathTestsForkWhileOtherThreadsUseTheCaches) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    GTEST_FLAG_SET(death_test_style, "fast");
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; !stop.load(); ++i) {
                (void)keep_in_every_cache(i + t);
                if (i % 3 == t) relo::trim_warm_memory();
            }
        });
    for (int i = 0; i < 50; ++i) {
        EXPECT_EXIT(
            {
                (void)keep_in_every_cache(i);
                relo::trim_warm_memory();
                std::_Exit(keep_in_every_cache(i + 1) ? 42 : 1);
            },
            ::testing::ExitedWithCode(42), "");
    }
    stop = true;
    for (auto& t : threads) t.join();
    GTEST_FLAG_SET(death_test_style, "threadsafe");
}

#if defined(RELO_FORK_PROGRAM)
/// tests/life/fork_program: fork handlers registered before relo's first use, whose prepare, parent and
/// child handlers use relo on the forking thread, while threads keep, take and trim.
TEST_F(LifeEvents, ForkHandlersOfTheProgramUseRelo) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    const int status = run_program(RELO_FORK_PROGRAM, nullptr, std::chrono::seconds(60));
    EXPECT_EQ(status, 0) << "-1: the program hung; 1: a child hung or failed (its stderr says which)";
}
#endif

#if defined(RELO_ATFORK_IDIOM_PROGRAM)
/// tests/life/atfork_idiom_program: pthread_atfork(lock M, unlock M, unlock M) registered at start, a
/// worker that uses relo only under M (its first use too), 300 forks whose children use relo: no hang in
/// the parent (a handler of relo's that waits for the worker, which waits for M, held by the other
/// library's prepare) nor in a child. (The worker enters no allocator outside M, which the forking thread
/// holds at each fork: AddressSanitizer's runtime takes it.)
int run_atfork_idiom(const char* mode) {
    return run_program(RELO_ATFORK_IDIOM_PROGRAM, mode, std::chrono::seconds(120));
}
constexpr const char* atfork_idiom_failure = "-1: the parent hung in fork(); 1: a child hung or failed (stderr says which)";

/// With relo::vector: the worker's vectors of 300,000 and 70,000 bytes (the warm-block cache), the children's.
TEST_F(LifeEvents, AtforkIdiomWithVectors) {
    if (RELO_TSAN) GTEST_SKIP() << "ThreadSanitizer does not support fork with other threads running";
    EXPECT_EQ(run_atfork_idiom("vector"), 0) << atfork_idiom_failure;
}

/// With a synchronized_multipool_resource as well, which the worker uses under M and every child uses too.
TEST_F(LifeEvents, AtforkIdiomWithASynchronizedPool) {
    if (RELO_TSAN) GTEST_SKIP() << "ThreadSanitizer does not support fork with other threads running";
    EXPECT_EQ(run_atfork_idiom("pool"), 0) << atfork_idiom_failure;
}
#endif

#if defined(RELO_FORK_FIRST_USE_PROGRAM)
/// tests/life/fork_first_use_program: a fork at the moment other threads use relo for the first time, in
/// 60 fresh processes (the moment differs in each). A child forked while another thread was inside the
/// first initialization of a guarded static waited for it for good: the key is made by pthread_once,
/// which glibc starts again in a child (tests/lazy_statics.py checks that no other relo static is lazy).
TEST_F(LifeEvents, AForkWhileOtherThreadsUseReloForTheFirstTime) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    int hung_or_failed = 0;
    for (int run = 0; run < 60 && hung_or_failed == 0; ++run) {
        const int status = run_program(RELO_FORK_FIRST_USE_PROGRAM, nullptr, std::chrono::seconds(60));
        if (status != 0) ADD_FAILURE() << "run " << run << ": " << status << " (-1: the program hung; 1: a child hung or failed)";
        hung_or_failed += status != 0;
    }
    EXPECT_EQ(hung_or_failed, 0);
}
#endif

// ---- The program's end

/// Detached threads that keep and trim while the program ends (static destruction, the key's deletion)
/// neither crash nor hang it.
TEST_F(LifeEvents, DetachedThreadsWhileTheProgramEnds) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    for (int round = 0; round < 10; ++round) {
        const int status = in_child(std::chrono::seconds(20), [round] {
            for (int t = 0; t < 3; ++t)
                std::thread([t, round] {
                    for (int i = 0;; ++i) {
                        (void)keep_in_every_cache(t + i + round);
                        if (i % 3 == 0) relo::trim_warm_memory();
                    }
                }).detach();
            std::this_thread::sleep_for(std::chrono::milliseconds(5 + 3 * round));
            std::exit(0);  // (static destruction with the threads running)
            return 0;
        });
        EXPECT_EQ(status, 0) << "round " << round << " (-1: hung)";
    }
}

// ---- Sandboxes

#if defined(__linux__) && defined(SYS_membarrier) && defined(RELO_SANDBOXED_PROGRAM)
/// Runs tests/life/sandboxed_program (with `argument`, unless null) under a seccomp filter, installed
/// before exec, whose answer to membarrier is `action`; its exit status (128 + the signal if one ended it).
int run_sandboxed(std::uint32_t action, const char* argument) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        sock_filter filter[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<std::uint32_t>(offsetof(seccomp_data, nr))),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_membarrier, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, action),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        sock_fprog filter_program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
        if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter_program) != 0)
            ::_exit(100);
        ::execl(RELO_SANDBOXED_PROGRAM, RELO_SANDBOXED_PROGRAM, argument, static_cast<char*>(nullptr));
        ::_exit(101);
    }
    return wait_within(pid, std::chrono::seconds(60));
}

/// A sandbox that kills the process on membarrier: relo never calls it (nor needs any setting for that),
/// at any event the program goes through. The filter's own check: the program's own call is killed.
TEST_F(LifeEvents, ASandboxThatKillsOnMembarrierNeverSeesReloCallIt) {
    EXPECT_EQ(run_sandboxed(SECCOMP_RET_KILL_PROCESS, nullptr), 0) << "128 + 31 (SIGSYS): relo called membarrier";
    EXPECT_EQ(run_sandboxed(SECCOMP_RET_KILL_PROCESS, "call-membarrier"), 128 + SIGSYS) << "the filter kills on it";
    EXPECT_EQ(run_sandboxed(SECCOMP_RET_ALLOW, nullptr), 0) << "the program outside the sandbox";
}
#endif

// ---- Copies of relo in libraries

#if defined(RELO_LIFE_PLUGIN_A) && defined(RELO_LIFE_PLUGIN_B)
/// tests/life/plugin: a library with its own copy of relo.
struct plugin {
    void* handle;
    const void* (*keep)(int) = nullptr;
    std::size_t (*process_bytes)() = nullptr;
    std::size_t (*thread_bytes)() = nullptr;
    std::size_t (*trim)() = nullptr;

    explicit plugin(const char* path) : handle(::dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
        if (handle == nullptr) return;
        keep = reinterpret_cast<const void* (*)(int)>(::dlsym(handle, "plugin_keep"));
        process_bytes = reinterpret_cast<std::size_t (*)()>(::dlsym(handle, "plugin_process_bytes"));
        thread_bytes = reinterpret_cast<std::size_t (*)()>(::dlsym(handle, "plugin_thread_bytes"));
        trim = reinterpret_cast<std::size_t (*)()>(::dlsym(handle, "plugin_trim"));
    }
    bool usable() const {
        return handle != nullptr && keep != nullptr && process_bytes != nullptr && thread_bytes != nullptr && trim != nullptr;
    }
    void unload() {
        if (handle != nullptr) ::dlclose(handle);
        handle = nullptr;
    }
    ~plugin() { unload(); }
    plugin(const plugin&) = delete;
    plugin& operator=(const plugin&) = delete;
};

/// Two libraries with their own copies: each keeps its own caches and its own budget, apart from the
/// program's; each copy's trim gives back its own. (Only this thread uses them: what it keeps in each is
/// given back when each is unloaded.)
TEST_F(LifeEvents, CopiesInLibrariesKeepTheirOwnCaches) {
    plugin a(RELO_LIFE_PLUGIN_A), b(RELO_LIFE_PLUGIN_B);
    ASSERT_TRUE(a.usable()) << ::dlerror();
    ASSERT_TRUE(b.usable()) << ::dlerror();
    ASSERT_TRUE(keep_in_every_cache(1));
    const std::size_t mine = process_bytes();
    (void)a.keep(2);
    EXPECT_GE(a.process_bytes(), 5 * mib);
    EXPECT_EQ(a.thread_bytes(), a.process_bytes());
    EXPECT_EQ(b.process_bytes(), 0u);
    EXPECT_EQ(process_bytes(), mine);
    (void)b.keep(3);
    EXPECT_GE(b.process_bytes(), 5 * mib);
    const std::size_t kept_by_a = a.process_bytes();
    EXPECT_EQ(a.trim(), kept_by_a) << "the copy's own trim";
    EXPECT_EQ(a.process_bytes(), 0u);
    EXPECT_GE(b.process_bytes(), 5 * mib);
    EXPECT_EQ(process_bytes(), mine);
    const void* block = b.keep(4);
    EXPECT_NE(resident_pages(block, page()), unmapped);
    b.unload();
    EXPECT_EQ(resident_pages(block, page()), unmapped) << "the unloading thread's own caches given back";
}

/// A library unloaded while threads that hold warm memory in its copy live: the unloading thread's own
/// caches are given back; the other threads' are left to them (leaked, within the copy's budget); their
/// ends call nothing of the unloaded code (its key is deleted), and a fork after it runs none of it. Loaded
/// again, it works as new. In a child with a deadline: a crash or a hang at the threads' ends fails here.
TEST_F(LifeEvents, UnloadingALibraryWhileThreadsThatUsedItLive) {
    const int status = in_child(std::chrono::seconds(60), [] {
        for (int round = 0; round < 3; ++round) {
            plugin a(RELO_LIFE_PLUGIN_A);
            if (!a.usable()) return 2;
            constexpr int users_count = 3;
            const void* blocks[users_count] = {};
            std::vector<std::unique_ptr<parked_thread>> users;
            for (int t = 0; t < users_count; ++t)
                users.push_back(std::make_unique<parked_thread>(
                    [&a, &blocks, t, round] { blocks[t] = a.keep(round + t); },  // (in the library's code)
                    [t, round] { (void)keep_in_every_cache(round + t); }));      // (the program's own copy)
            const void* mine = a.keep(round + 10);
            if (a.process_bytes() < (users_count + 1) * 4 * mib) return 3;
            a.unload();
            if (resident_pages(mine, page()) != unmapped) return 4;
            for (const void* block : blocks)
                if (resident_pages(block, page()) == unmapped) return 5;
            for (int t = users_count; t-- > 0;) users[static_cast<std::size_t>(t)]->resume_and_join();
            if (in_child(std::chrono::seconds(10), [] { return keep_in_every_cache(4) ? 0 : 1; }) != 0) return 6;
        }
        return 0;
    });
    EXPECT_EQ(status, 0) << "-1: hung; 128 + n: killed by signal n (a call into the unloaded code); 2: not loaded; "
                            "3: the copy kept too little; 4: the unloading thread's caches were not given back; "
                            "5: another thread's were (not documented: a thread may be inside them); 6: a fork "
                            "after failed";
}
#endif

/// Units built in two backend modes in one program: different types (no inline function of one mode is
/// shared with the other), each working on its own, with caches of its own.
TEST_F(LifeEvents, TwoModesInOneProgram) {
    EXPECT_NE(other_mode_vector_type(), std::string(typeid(relo::vector<int>).name()));
    const std::size_t mine = process_bytes();
    std::size_t expected = 0;
    for (int round = 0; round < 3; ++round) expected += 999 + 99999;
    EXPECT_EQ(other_mode_workout(), expected);
    EXPECT_EQ(process_bytes(), mine) << "the other mode keeps its blocks in its own caches";
    EXPECT_GT(other_mode_process_bytes(), 0u);
    ASSERT_TRUE(keep_in_every_cache(3));
}

// ---- Threads' ends

/// Threads that each keep in every cache and park, resumed in an order that is neither their start's nor
/// its reverse: each end gives back exactly what that thread kept.
TEST_F(LifeEvents, ThreadsEndInAnyOrder) {
    const std::size_t before = process_bytes();
    constexpr int count = 6;
    std::vector<std::unique_ptr<parked_thread>> threads;
    for (int t = 0; t < count; ++t)
        threads.push_back(std::make_unique<parked_thread>([t] { (void)keep_in_every_cache(20 + t); }, [] {}));
    std::size_t held = 0;
    for (const auto& t : threads) held += t->kept();
    EXPECT_EQ(process_bytes(), before + held);
    for (const int t : {3, 0, 5, 1, 4, 2}) {
        const std::size_t kept = threads[static_cast<std::size_t>(t)]->kept();
        const std::size_t now = process_bytes();
        threads[static_cast<std::size_t>(t)]->resume_and_join();
        EXPECT_EQ(process_bytes(), now - kept) << "thread " << t;
    }
    EXPECT_EQ(process_bytes(), before);
}

/// A pthread key whose destructor makes the thread's first keep (as boost::thread_specific_ptr's and
/// many C libraries' per-thread data do): the keep is given back at the thread's end (relo's key
/// destructor runs in a later round, or the keep went straight back).
TEST_F(LifeEvents, AFirstKeepInAKeyDestructor) {
    pthread_key_t key;
    ASSERT_EQ(::pthread_key_create(&key, [](void*) { (void)keep_in_every_cache(5); }), 0);
    const std::size_t before = process_bytes();
    std::thread([&] { ::pthread_setspecific(key, &key); }).join();
    EXPECT_EQ(process_bytes(), before) << "nothing kept for the ended thread";
    std::thread([&] {  // (the same after a first use before it)
        (void)keep_in_every_cache(6);
        ::pthread_setspecific(key, &key);
    }).join();
    EXPECT_EQ(process_bytes(), before);
    ::pthread_key_delete(key);
}

/// The same in the destructor of a thread_local made after the thread's first use of the caches (it is
/// destroyed before relo's key destructor runs), and of one made before.
TEST_F(LifeEvents, KeepsInThreadLocalDestructors) {
    struct keeps_at_end {
        ~keeps_at_end() { (void)keep_in_every_cache(9); }
    };
    const std::size_t before = process_bytes();
    std::thread([] {
        thread_local keeps_at_end before_first_use;
        (void)before_first_use;
        (void)keep_in_every_cache(7);
        thread_local keeps_at_end after_first_use;
        (void)after_first_use;
    }).join();
    EXPECT_EQ(process_bytes(), before) << "nothing kept for the ended thread";
}

/// Thousands of short threads, each keeping something: nothing stays kept after them (and, under
/// LeakSanitizer, no thread's part is left on the heap).
TEST_F(LifeEvents, ThousandsOfShortThreads) {
    const std::size_t before = process_bytes();
    for (int batch = 0; batch < 100; ++batch) {
        std::vector<std::thread> threads;
        for (int t = 0; t < 20; ++t)
            threads.emplace_back([t] {
                relo::vector<int> v(std::size_t{1} << 12, t);  // (a small block: malloc's)
                mapped_vector<char> large(100000, static_cast<char>(t));  // (a large block, kept)
                relo::multipool_resource pools;
                (void)pools.allocate(100);
            });
        for (auto& t : threads) t.join();
    }
    EXPECT_EQ(process_bytes(), before);
}

// ---- Signals

/// A signal handler that uses relo while its thread is inside its own chunk cache (as in the middle of
/// taking a chunk): the handler's containers and resources work (straight to the system), and the cache
/// the interrupted code is in is left as it was.
TEST_F(LifeEvents, ASignalHandlerUsesReloInsideAVisit) {
    if (RELO_TSAN) GTEST_SKIP() << "ThreadSanitizer reports the malloc a handler makes, which this test does on purpose";
    static std::atomic<bool> handler_ok{false};
    ASSERT_TRUE(keep_in_every_cache(11));
    relo::trim_chunk_cache();  // (what the handler's resource gives back would be seen there)
    const std::size_t kept = process_bytes();
    struct sigaction action {}, previous{};
    action.sa_handler = [](int) { handler_ok = keep_in_every_cache(12); };
    ASSERT_EQ(::sigaction(SIGUSR1, &action, &previous), 0);
    {
        relo::detail::chunk_cache_state& c = relo::detail::chunk_cache();
        const relo::detail::owner_visit visit(c);
        ASSERT_TRUE(visit.inside());
        ::raise(SIGUSR1);
        EXPECT_EQ(c.held, 0u) << "the interrupted visit's cache is untouched";
    }
    ::sigaction(SIGUSR1, &previous, nullptr);
    EXPECT_TRUE(handler_ok.load());
    EXPECT_EQ(relo::chunk_cache_bytes(), 0u) << "the handler's chunks went straight back";
    EXPECT_EQ(process_bytes(), kept) << "(its large block and reservation: the caches it was not inside)";
}

/// Whether the calling thread is inside a visit of cache c (or a child forked inside one).
bool busy(const relo::detail::thread_cache_state& c) { return c.busy.load(relo::detail::memory_order_relaxed); }

/// What a child forked by a signal handler inside a visit of the chunk cache finds (run there, still in the
/// handler): the chunk cache left busy, untouched (its chunks given straight back), the other caches whole.
int in_child_forked_inside_a_visit(std::size_t chunks_at_fork, const void* block) {
    relo::detail::chunk_cache_state& chunks = relo::detail::chunk_cache();
    if (!busy(chunks) || chunks.held != chunks_at_fork) return 2;
    {
        relo::multipool_resource pools;
        for (int i = 0; i < 100; ++i) *static_cast<int*>(pools.allocate(64)) = i;
    }
    if (chunks.held != chunks_at_fork) return 3;
    {
        const mapped_ints v(std::size_t{1} << 20, 9);
        if (v.data() != block || v[4321] != 9) return 4;  // (the large-block cache whole)
    }
    return keep_in_every_cache(10) ? 0 : 5;
}

/// A signal handler that forks while its thread is inside its own chunk cache: the child works, without
/// that cache; the parent's visit goes on unharmed. In a child with a deadline.
TEST_F(LifeEvents, ForkFromASignalHandlerInsideAVisit) {
    if (RELO_TSAN) GTEST_SKIP() << "ThreadSanitizer reports the malloc a handler makes, which this test does on purpose";
    const int status = in_child(std::chrono::seconds(20), [] {
        static std::size_t chunks_at_fork = 0;
        static const void* block = nullptr;
        static volatile sig_atomic_t grandchild = -100;
        if (!keep_in_every_cache(8)) return 10;
        {
            const mapped_ints v(std::size_t{1} << 20, 8);
            block = v.data();
        }
        chunks_at_fork = relo::chunk_cache_bytes();
        if (chunks_at_fork == 0) return 11;
        struct sigaction action {};
        action.sa_handler = [](int) {
            const pid_t pid = ::fork();
            if (pid == 0) ::_exit(in_child_forked_inside_a_visit(chunks_at_fork, block));
            int st = 0;
            grandchild = pid > 0 && ::waitpid(pid, &st, 0) == pid ? (WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)) : 126;
        };
        if (::sigaction(SIGUSR1, &action, nullptr) != 0) return 12;
        {
            relo::detail::chunk_cache_state& c = relo::detail::chunk_cache();
            const relo::detail::owner_visit visit(c);
            if (!visit.inside()) return 13;
            ::raise(SIGUSR1);
            if (c.held != chunks_at_fork) return 14;
        }
        if (grandchild != 0) return 20 + grandchild;
        return relo::chunk_cache_bytes() == chunks_at_fork && keep_in_every_cache(11) ? 0 : 15;
    });
    EXPECT_EQ(status, 0) << "-1: hung; 22: the child did not find the cache busy and untouched; 23: it kept chunks "
                            "in the busy cache; 24: the other caches were not whole; 25: relo failed in the child";
}

/// A timer's signal, again and again, while the thread keeps and takes large blocks, reservations and
/// chunks; when it lands inside a visit of one of the thread's caches (nothing of relo's inside malloc
/// then), the handler forks, and the child uses relo and _exits; the handler waits for it. No hang, every
/// child works. In a process of its own with a deadline.
TEST_F(LifeEvents, ForksFromATimerSignalInsideCacheVisits) {
    if (RELO_TSAN) GTEST_SKIP() << "ThreadSanitizer reports the malloc a handler makes, which this test does on purpose";
    const int status = in_child(std::chrono::seconds(60), [] {
        static volatile sig_atomic_t forks = 0, failures = 0, last_code = 0;
        relo::set_warm_memory_idle_delay(std::chrono::nanoseconds::max());  // (no keep gives chunks to free())
        if (!keep_in_every_cache(1)) return 10;  // (the thread's caches made: none is made in the handler)
        struct sigaction action {};
        action.sa_flags = SA_RESTART;
        action.sa_handler = [](int) {
            if (forks >= 40) return;
            if (!busy(relo::detail::chunk_cache()) && !busy(relo::detail::warm_block_cache()) &&
                !busy(relo::detail::reservation_cache()))
                return;  // (not inside a visit: maybe inside malloc, which a fork in a handler must not be)
            const pid_t pid = ::fork();
            if (pid == 0) ::_exit(keep_in_every_cache(static_cast<int>(forks)) && use_every_cache(2) ? 0 : 1);
            int st = 0;
            const int code = pid > 0 && ::waitpid(pid, &st, 0) == pid ? (WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)) : 126;
            forks = forks + 1;
            if (code != 0) {
                failures = failures + 1;
                last_code = code;
            }
        };
        if (::sigaction(SIGALRM, &action, nullptr) != 0) return 11;
        itimerval every{{0, 300}, {0, 300}};
        if (::setitimer(ITIMER_REAL, &every, nullptr) != 0) return 12;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        for (int i = 0; forks < 40 && std::chrono::steady_clock::now() < until; ++i) {
            {
                mapped_vector<char> v;
                v.reserve(300000);  // (a cached block, no page touched)
                v.push_back(static_cast<char>(i));
            }
            {
                relo::vm_arena arena(4 * mib);
                *static_cast<char*>(arena.allocate(64, 1)) = 1;
            }
            {
                relo::multipool_resource pools;
                *static_cast<int*>(pools.allocate(64)) = i;
            }
        }
        itimerval off{};
        ::setitimer(ITIMER_REAL, &off, nullptr);
        std::fprintf(stderr, "%d forks inside a visit, %d failed (last code %d)\n", static_cast<int>(forks),
                     static_cast<int>(failures), static_cast<int>(last_code));
        return failures != 0 ? 1 : forks < 10 ? 2 : 0;
    });
    EXPECT_EQ(status, 0) << "-1: hung; 1: a child failed (stderr says how); 2: too few signals landed inside a visit";
}

#endif  // !_WIN32

}  // namespace
}  // namespace relo_test
