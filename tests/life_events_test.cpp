// The host process's life events, with relo's thread caches in use (docs/life_in_a_process.md): fork while
// other threads keep, take and trim (the child uses what it inherited and forks again); a thread whose first
// keep is in a pthread key's destructor or a thread_local's; thousands of short threads; detached threads
// at the program's end; a signal handler that uses relo while its thread is inside its own cache; the
// first trim of a thread idle since its last keep. Each case that could hang runs in a child process
// with a deadline, so that a hang fails the test instead of stopping the run. (POSIX. Fork with other
// threads running is skipped where a sanitizer's runtime cannot take it: tests/child_process.hpp.)
#include "relo/warm_memory.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <typeinfo>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "child_process.hpp"
#include "life/busy_threads.hpp"
#include "os_probes.hpp"
#include "parked_thread.hpp"
#include "sanitizers.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/vector.hpp"
#include "relo/vm_arena.hpp"

#if RELO_TEST_ASAN
#include <sanitizer/lsan_interface.h>
#endif
#if !defined(_WIN32)
#include <pthread.h>
#include <signal.h>
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

#if defined(_WIN32)
TEST(LifeEvents, PosixOnly) { GTEST_SKIP() << "fork, pthread keys and signals: POSIX (Windows' thread ends: warm_memory_test)"; }
#else

/// What the process's caches keep, and how many threads' caches the registry lists.
std::size_t process_bytes() { return relo::warm_memory().process_bytes; }
std::size_t listed_caches() {
    const std::lock_guard<relo::detail::os_lock> hold(relo::detail::registry_lock());
    std::size_t n = 0;
    for (auto* e = relo::detail::reclaimable_caches.first; e != nullptr; e = e->next) {
        if (++n > 100000) return n;  // (a cycle)
    }
    return n;
}

/// Keeps something in each of the calling thread's three caches: a 4 MiB block, a multipool's chunks, an
/// arena's reservation; checks what it wrote on the way.
bool keep_in_every_cache(int seed) {
    bool ok = true;
    {
        relo::vector<int> v(std::size_t{1} << 20, seed);
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

class LifeEvents : public ::testing::Test {
protected:
    void SetUp() override { relo::trim_warm_memory(); }
    void TearDown() override {
        relo::set_warm_memory_idle_delay(delay_);
        relo::trim_warm_memory();
    }

private:
    std::chrono::nanoseconds delay_ = relo::warm_memory_idle_delay();
};

/// While one thread trims every idle cache again and again and two others keep and take, this thread
/// forks children that each use every cache, trim, and fork a grandchild that does the same. A child that
/// inherits the registry's lock held (or a cache claimed) by a thread it does not have hangs.
TEST_F(LifeEvents, ForksWhileOtherThreadsKeepTakeAndTrim) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    relo::set_warm_memory_idle_delay(std::chrono::nanoseconds(0));
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads = busy_threads(stop, keep_in_every_cache);
    relo::vector<int> inherited(std::size_t{1} << 20, 7);
    int hung = 0, failed = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    int children = 0;
    for (; children < 400 && std::chrono::steady_clock::now() < until; ++children) {
        const int status = in_child(std::chrono::seconds(10), [&] {
            if (inherited[4242] != 7) return 3;
            inherited.push_back(8);  // (the inherited vector grows, moves and is freed in the child)
            inherited.shrink_to_fit();
            if (!keep_in_every_cache(children)) return 4;
            (void)relo::trim_idle_warm_memory(std::chrono::nanoseconds(0));
            relo::trim_warm_memory();
            if (relo::warm_memory().process_bytes != 0) return 5;  // (the other threads' caches: given back)
            const int grandchild = in_child(std::chrono::seconds(5), [&] {
                if (!keep_in_every_cache(children + 1)) return 4;
                const std::size_t kept = relo::warm_memory().process_bytes;
                const std::size_t given_back = relo::trim_idle_warm_memory(std::chrono::nanoseconds(0));
                return kept > 0 && given_back == kept && relo::warm_memory().process_bytes == 0 ? 0 : 6;
            });
            return grandchild == 0 ? 0 : grandchild == -1 ? 7 : 8;
        });
        hung += status == -1 || status == 7;
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

/// Repeated forks leak nothing in the parent: its caches and memory stay as they were.
TEST_F(LifeEvents, RepeatedForksLeaveTheParentAsItWas) {
    ASSERT_TRUE(keep_in_every_cache(1));
    const std::size_t kept = process_bytes();
    const std::size_t listed = listed_caches();
    for (int i = 0; i < 100; ++i) ASSERT_EQ(in_child(std::chrono::seconds(10), [] { return keep_in_every_cache(2) ? 0 : 1; }), 0);
    EXPECT_EQ(process_bytes(), kept);
    EXPECT_EQ(listed_caches(), listed);
}

/// The child frees the other threads' parts (no thread owns them there) and gives their memory back.
TEST_F(LifeEvents, AChildGivesBackWhatOtherThreadsKeptAtTheFork) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    const parked_thread other([] { (void)keep_in_every_cache(3); }, [] {});
    const std::size_t others = process_bytes();
    EXPECT_GE(others, 5 * mib);
    const int status = in_child(std::chrono::seconds(10), [] {
        if (relo::warm_memory().process_bytes != 0) return 1;  // (this thread keeps nothing: trimmed in SetUp)
        return listed_caches() <= 3 ? 0 : 2;                    // (this thread's own, at most)
    });
    EXPECT_EQ(status, 0) << "1: the other thread's caches still count in the child; 2: still listed";
    EXPECT_EQ(process_bytes(), others) << "the parent's are its own";
}

/// GoogleTest's death tests in the fast style fork while other threads run.
TEST_F(LifeEvents, DeathTestsForkWhileOtherThreadsUseTheCaches) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    GTEST_FLAG_SET(death_test_style, "fast");
    std::atomic<bool> stop{false};
    std::thread keeper([&] {
        for (int i = 0; !stop.load(); ++i) (void)keep_in_every_cache(i);
    });
    std::thread trimmer([&] {
        while (!stop.load()) (void)relo::trim_idle_warm_memory(std::chrono::nanoseconds(0));
    });
    for (int i = 0; i < 50; ++i) {
        EXPECT_EXIT(
            {
                (void)keep_in_every_cache(i);
                (void)relo::trim_idle_warm_memory(std::chrono::nanoseconds(0));
                std::_Exit(keep_in_every_cache(i + 1) ? 42 : 1);
            },
            ::testing::ExitedWithCode(42), "");
    }
    stop = true;
    keeper.join();
    trimmer.join();
    GTEST_FLAG_SET(death_test_style, "threadsafe");
}

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
                        if (i % 3 == 0) (void)relo::trim_idle_warm_memory(std::chrono::nanoseconds(0));
                    }
                }).detach();
            std::this_thread::sleep_for(std::chrono::milliseconds(5 + 3 * round));
            std::exit(0);  // (static destruction with the threads running)
            return 0;
        });
        EXPECT_EQ(status, 0) << "round " << round << " (-1: hung)";
    }
}

#if defined(__linux__) && defined(SYS_membarrier) && defined(RELO_SANDBOXED_PROGRAM)
/// Runs tests/life/sandboxed_program under a seccomp filter, installed before exec, whose answer to
/// membarrier is `action`, with RELO_MEMBARRIER set to `setting` (unless null); its exit status (128 +
/// the signal if one ended it).
int run_sandboxed(std::uint32_t action, const char* setting, const char* program = RELO_SANDBOXED_PROGRAM) {
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
        if (setting != nullptr) ::setenv("RELO_MEMBARRIER", setting, 1);
        else ::unsetenv("RELO_MEMBARRIER");
        ::execl(program, program, static_cast<char*>(nullptr));
        ::_exit(101);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_F(LifeEvents, ASandboxThatDeniesMembarrier) {
    EXPECT_EQ(run_sandboxed(SECCOMP_RET_ERRNO | EPERM, nullptr), 0) << "1: idle threads' memory was not given back";
    EXPECT_EQ(run_sandboxed(SECCOMP_RET_ERRNO | ENOSYS, nullptr), 0) << "1: idle threads' memory was not given back";
}
/// A sandbox that kills the process on membarrier: RELO_MEMBARRIER=0 keeps relo from calling it, and idle
/// threads' memory is still given back.
TEST_F(LifeEvents, ASandboxThatKillsOnMembarrierWithTheSwitch) {
    EXPECT_EQ(run_sandboxed(SECCOMP_RET_KILL_PROCESS, "0"), 0) << "128 + 31 (SIGSYS): relo called membarrier";
}
/// The same, the program built with -DRELO_NO_MEMBARRIER and nothing in its environment.
TEST_F(LifeEvents, ASandboxThatKillsOnMembarrierWithTheBuildSwitch) {
    EXPECT_EQ(run_sandboxed(SECCOMP_RET_KILL_PROCESS, nullptr, RELO_SANDBOXED_PROGRAM_NO_MEMBARRIER), 0)
        << "128 + 31 (SIGSYS): relo called membarrier";
}
/// Without the filter, the program gives idle threads' memory back through the process-wide fence.
TEST_F(LifeEvents, TheSandboxedProgramOutsideTheSandbox) {
    EXPECT_EQ(run_sandboxed(SECCOMP_RET_ALLOW, nullptr), 0);
}
#endif

#if defined(RELO_LIFE_PLUGIN_A) && defined(RELO_LIFE_PLUGIN_B)
/// Not reported as leaks: the parts that a thread still living leaves in a copy that is unloaded (a few
/// hundred bytes a kind of cache, docs/life_in_a_process.md: no thread but their own may free them).
struct parts_left_at_unloading {
#if RELO_TEST_ASAN
    __lsan::ScopedDisabler disabled;
#endif
};

/// tests/life/plugin: a library with its own copy of relo.
struct plugin {
    void* handle;
    const void* (*keep)(int) = nullptr;
    std::size_t (*process_bytes)() = nullptr;
    std::size_t (*trim_idle)() = nullptr;

    explicit plugin(const char* path) : handle(::dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
        if (handle == nullptr) return;
        keep = reinterpret_cast<const void* (*)(int)>(::dlsym(handle, "plugin_keep"));
        process_bytes = reinterpret_cast<std::size_t (*)()>(::dlsym(handle, "plugin_process_bytes"));
        trim_idle = reinterpret_cast<std::size_t (*)()>(::dlsym(handle, "plugin_trim_idle"));
    }
    bool usable() const { return handle != nullptr && keep != nullptr && process_bytes != nullptr && trim_idle != nullptr; }
    void unload() {
        if (handle != nullptr) ::dlclose(handle);
        handle = nullptr;
    }
    ~plugin() { unload(); }
    plugin(const plugin&) = delete;
    plugin& operator=(const plugin&) = delete;
};

/// Two libraries with their own copies: each keeps its own caches and its own budget, apart from the
/// program's; each copy's trim gives back its own.
TEST_F(LifeEvents, CopiesInLibrariesKeepTheirOwnCaches) {
    const parts_left_at_unloading parts;
    (void)parts;
    plugin a(RELO_LIFE_PLUGIN_A), b(RELO_LIFE_PLUGIN_B);
    ASSERT_TRUE(a.usable()) << ::dlerror();
    ASSERT_TRUE(b.usable()) << ::dlerror();
    ASSERT_TRUE(keep_in_every_cache(1));
    const std::size_t mine = process_bytes();
    (void)a.keep(2);
    EXPECT_GE(a.process_bytes(), 5 * mib);
    EXPECT_EQ(b.process_bytes(), 0u);
    EXPECT_EQ(process_bytes(), mine);
    (void)b.keep(3);
    EXPECT_GE(b.process_bytes(), 5 * mib);
    const std::size_t kept_by_a = a.process_bytes();
    EXPECT_EQ(a.trim_idle(), kept_by_a) << "the copy's own trim";
    EXPECT_EQ(a.process_bytes(), 0u);
    EXPECT_GE(b.process_bytes(), 5 * mib);
    EXPECT_EQ(process_bytes(), mine);
}

/// A library unloaded while a thread that kept memory in its copy lives: the unloading gives back what
/// idle threads keep there, the thread's end calls nothing of it, and a fork after it runs none of its
/// handlers. Loaded again, it works as new.
TEST_F(LifeEvents, UnloadingALibraryWhileThreadsThatUsedItLive) {
    for (int round = 0; round < 3; ++round) {
        plugin a(RELO_LIFE_PLUGIN_A);
        ASSERT_TRUE(a.usable()) << ::dlerror();
        const void* block = nullptr;
        parked_thread user(
            [&] {
                const parts_left_at_unloading parts;
                (void)parts;
                block = a.keep(round);  // (in the library's code, back in the program's after)
            },
            [round] { (void)keep_in_every_cache(round); });  // (the program's own copy)
        EXPECT_GE(a.process_bytes(), 4 * mib);
        EXPECT_NE(resident_pages(block, page()), static_cast<std::size_t>(-1)) << "kept by the thread's cache";
        a.unload();
        EXPECT_EQ(resident_pages(block, page()), static_cast<std::size_t>(-1)) << "given back at the unloading";
        user.resume_and_join();
        EXPECT_EQ(in_child(std::chrono::seconds(10), [] { return keep_in_every_cache(4) ? 0 : 1; }), 0);
    }
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

#if defined(RELO_FORK_PROGRAM)
/// tests/life/fork_program: fork handlers registered before relo's, whose parent and child handlers use
/// relo on the forking thread while relo's locks are held, and threads that keep, take and trim.
TEST_F(LifeEvents, ForkHandlersRegisteredBeforeRelosUseIt) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    const int status = in_child(std::chrono::seconds(60), [] {
        ::execl(RELO_FORK_PROGRAM, RELO_FORK_PROGRAM, static_cast<char*>(nullptr));
        return 101;
    });
    EXPECT_EQ(status, 0) << "-1: the program hung; 1: a child hung or failed (its stderr says which)";
}
#endif

#if defined(RELO_FORK_FIRST_USE_PROGRAM)
/// tests/life/fork_first_use_program: a fork at the moment other threads use relo for the first time, in
/// 60 fresh processes (the moment differs in each). A child forked while another thread was inside the
/// first initialization of a guarded static (the registry's node) waited for it for good: 7 of 300 runs
/// under load hung so before the registry's node was listed through an atomic pointer.
TEST_F(LifeEvents, AForkWhileOtherThreadsUseReloForTheFirstTime) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    int hung_or_failed = 0;
    for (int run = 0; run < 60 && hung_or_failed == 0; ++run) {
        const int status = in_child(std::chrono::seconds(60), [] {
            ::execl(RELO_FORK_FIRST_USE_PROGRAM, RELO_FORK_FIRST_USE_PROGRAM, static_cast<char*>(nullptr));
            return 101;
        });
        if (status != 0) ADD_FAILURE() << "run " << run << ": " << status << " (-1: the program hung; 1: a child hung or failed)";
        hung_or_failed += status != 0;
    }
    EXPECT_EQ(hung_or_failed, 0);
}
#endif

/// A pthread key whose destructor makes the thread's first keep (as boost::thread_specific_ptr's and
/// many C libraries' per-thread data do): the keep is given back at the thread's end, and the registry
/// never lists a part of an ended thread.
TEST_F(LifeEvents, AFirstKeepInAKeyDestructor) {
    pthread_key_t key;
    ASSERT_EQ(::pthread_key_create(&key, [](void*) { (void)keep_in_every_cache(5); }), 0);
    const std::size_t listed = listed_caches();
    std::thread([&] { ::pthread_setspecific(key, &key); }).join();
    EXPECT_EQ(process_bytes(), relo::warm_memory().total()) << "nothing kept for the ended thread";
    EXPECT_EQ(listed_caches(), listed);
    for (int i = 0; i < 2; ++i) std::thread([] { (void)keep_in_every_cache(6); }).join();
    EXPECT_EQ(listed_caches(), listed);
    const auto start = std::chrono::steady_clock::now();
    (void)relo::trim_idle_warm_memory(std::chrono::nanoseconds(0));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    ::pthread_key_delete(key);
}

/// The same in the destructor of a thread_local made after the thread's first use of the caches (it is
/// destroyed before relo's key destructor runs), and of one made before.
TEST_F(LifeEvents, KeepsInThreadLocalDestructors) {
    struct keeps_at_end {
        ~keeps_at_end() { (void)keep_in_every_cache(9); }
    };
    const std::size_t listed = listed_caches();
    std::thread([] {
        thread_local keeps_at_end before;
        (void)before;
        (void)keep_in_every_cache(7);
        thread_local keeps_at_end after;
        (void)after;
    }).join();
    EXPECT_EQ(process_bytes(), relo::warm_memory().total()) << "nothing kept for the ended thread";
    EXPECT_EQ(listed_caches(), listed);
}

/// Thousands of short threads, each keeping something: nothing stays kept or listed after them.
TEST_F(LifeEvents, ThousandsOfShortThreads) {
    const std::size_t listed = listed_caches();
    for (int batch = 0; batch < 100; ++batch) {
        std::vector<std::thread> threads;
        for (int t = 0; t < 20; ++t)
            threads.emplace_back([t] {
                relo::vector<int> v(std::size_t{1} << 12, t);  // (a small block: malloc's)
                relo::multipool_resource pools;
                (void)pools.allocate(100);
            });
        for (auto& t : threads) t.join();
    }
    EXPECT_EQ(process_bytes(), relo::warm_memory().total());
    EXPECT_EQ(listed_caches(), listed);
}

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

/// A signal handler that interrupts its thread while the thread holds the registry's lock (in a pass, or
/// listing its caches) and makes its first keep and a trim: neither waits for the thread itself.
TEST_F(LifeEvents, ASignalHandlerWhileItsThreadHoldsTheRegistry) {
    if (RELO_TSAN) GTEST_SKIP() << "ThreadSanitizer reports the malloc a handler makes, which this test does on purpose";
    const int status = in_child(std::chrono::seconds(10), [] {
        static std::atomic<bool> handler_ok{false};
        struct sigaction action {};
        action.sa_handler = [](int) {
            handler_ok = keep_in_every_cache(13);
            (void)relo::trim_idle_warm_memory(std::chrono::nanoseconds(0));
        };
        if (::sigaction(SIGUSR1, &action, nullptr) != 0) return 2;
        std::thread([] {
            const relo::detail::registry_hold hold;
            ::raise(SIGUSR1);
        }).join();
        return handler_ok.load() && process_bytes() == relo::warm_memory().total() ? 0 : 1;
    });
    EXPECT_EQ(status, 0) << "-1: the handler waited for its own thread; 1: something kept for the ended thread";
}

/// What was kept a moment ago has not been idle for a few milliseconds, however coarse the clock.
TEST_F(LifeEvents, NothingIsGivenBackBeforeItHasBeenIdleThatLong) {
    // (No look at its caches after the keep: its last visit is the keep.)
    const parked_thread parked([] { const relo::vector<int> v(std::size_t{1} << 20, 1); }, [] {}, false);
    const auto kept_by = std::chrono::steady_clock::now();
    const std::size_t given_back = relo::trim_idle_warm_memory(std::chrono::milliseconds(50));
    if (std::chrono::steady_clock::now() - kept_by < std::chrono::milliseconds(45)) {
        EXPECT_EQ(given_back, 0u) << "kept less than 50 ms ago";
    }
}

/// A thread that keeps 4 MiB and parks: the first trim after the delay gives it back (idle time counts
/// from its last visit, which kept the block, not from the first look).
TEST_F(LifeEvents, TheFirstTrimCountsFromTheOwnersLastVisit) {
    // (No look at its caches after the keep: its last visit is the keep.)
    const parked_thread parked([] { const relo::vector<int> v(std::size_t{1} << 20, 1); }, [] {}, false);
    const std::size_t kept = process_bytes() - relo::warm_memory().total();
    EXPECT_GE(kept, 4 * mib);
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_EQ(relo::trim_idle_warm_memory(std::chrono::milliseconds(100)), kept) << "idle for 150 ms since its keep";
}

#endif  // !_WIN32

}  // namespace
}  // namespace relo_test
