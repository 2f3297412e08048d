// fork() while other threads are inside relo's resources (docs/life_in_a_process.md, "fork"): the
// child inherits each lock in whatever state the fork found it. A synchronized_multipool_resource keeps
// std::pmr::synchronized_pool_resource's contract there (no fork handler): the child may use, destroy and
// make resources, fork again and exit() where no other thread was inside them at the fork, whatever
// other threads did in other resources; the parent goes on unaffected.
//   - a synchronized pool that other threads used and left, while threads hammer other pools (bins,
//     depots, shards, the upstream's shard, more pools than a thread's table holds) and end;
//   - a synchronized pool whose bins another thread raised and left idle (their budget in the child);
//   - a test_resource and a profiling_resource shared by threads (their mutexes; no fork handler either:
//     the threads use them under a lock of the fork idiom, pthread_atfork's, as a host would);
//   - resources made and destroyed by other threads while the forks go on, and resources that call each
//     other (a pool over a test_resource over a pool) hammered by threads while the child uses its own;
//   - one thread only (what ThreadSanitizer runs, and AddressSanitizer runtimes that do not lock their own
//     allocator around a fork: fork_with_threads_untestable).
// Each child runs with a deadline, so that a hang fails the test instead of stopping the run: it is
// killed, and the test says "child hung". A child reports through its exit code (0: every check held).
// The cases with threads run in a process of their own, with a deadline too: fork handlers that wait for
// each other hang the forking process itself.
#include "relo/profiling_resource.hpp"
#include "relo/synchronized_multipool_resource.hpp"
#include "relo/test_resource.hpp"
#include "relo/warm_memory.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "child_process.hpp"
#include "sanitizers.hpp"

#if !defined(_WIN32)
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace relo_test {
namespace {

#if defined(_WIN32)
TEST(Fork, PosixOnly) { GTEST_SKIP() << "fork: POSIX only"; }
#else

using std::chrono::milliseconds;

/// What a child's code means.
std::string meaning(int code) {
    if (code == 0) return "passed";
    if (code == child_hung) return "child hung (a lock held for good in the child)";
    if (code >= 128) return "child killed by signal " + std::to_string(code - 128);
    if (code == 60) return "the grandchild hung";
    if (code > 60 && code < 99) return "the grandchild failed with code " + std::to_string(code - 60);
    return "child failed with code " + std::to_string(code);
}

// A child's deadline, and its grandchild's (well inside it).
constexpr milliseconds child_limit{10000};
constexpr milliseconds grandchild_limit{4000};

/// A grandchild's code as its parent reports it: 0, 60 (hung) or 60 + its code.
int as_grandchild(int code) { return code == 0 ? 0 : code == child_hung ? 60 : 60 + (code > 38 ? 38 : code); }

// ---- Blocks whose contents are checked.

struct block {
    unsigned char* p;
    std::size_t bytes;
    std::uint32_t key;
};

void fill(const block& b) {
    for (std::size_t i = 0; i < b.bytes; i += 7) b.p[i] = static_cast<unsigned char>(b.key * 131u + i);
}
bool intact(const block& b) {
    for (std::size_t i = 0; i < b.bytes; i += 7)
        if (b.p[i] != static_cast<unsigned char>(b.key * 131u + i)) return false;
    return true;
}
block take(std::pmr::memory_resource& r, std::size_t bytes, std::uint32_t key) {
    block b{static_cast<unsigned char*>(r.allocate(bytes)), bytes, key};
    fill(b);
    return b;
}
void give_back(std::pmr::memory_resource& r, const block& b) { r.deallocate(b.p, b.bytes); }

/// Allocates blocks of every kind a resource treats apart, checks them and frees them: small blocks of
/// several classes, more than three batches of one class freed and taken again (a synchronized pool's bin
/// gives batches to the class's depot and takes them back; a class new to the thread comes from its
/// shard), and blocks larger than the largest class (the upstream's shard). 0, or a code.
/// (`batches` false: a lighter round, for threads that run while something else happens: 64 blocks of the
/// one class.)
int work(std::pmr::memory_resource& r, std::uint32_t seed, bool batches = true) {
    std::vector<block> blocks;
    blocks.reserve(64);
    std::uint32_t key = seed;
    for (std::size_t bytes : {8, 24, 40, 100, 200, 300, 500, 1000, 2000, 3000, 4000})
        for (int k = 0; k < 4; ++k) blocks.push_back(take(r, bytes, ++key));
    for (std::size_t bytes : {5000, 9000, 20000, 70000}) blocks.push_back(take(r, bytes, ++key));
    const int count = batches ? 900 : 64;  // (900 blocks of 48 bytes: 2.6 batches)
    std::vector<block> many;
    many.reserve(count);
    for (int k = 0; k < count; ++k) many.push_back(take(r, 48, ++key));
    for (const block& b : blocks)
        if (!intact(b)) return 11;
    for (const block& b : many)
        if (!intact(b)) return 12;
    for (const block& b : many) give_back(r, b);
    many.clear();
    for (int k = 0; k < count; ++k) many.push_back(take(r, 48, ++key));
    for (const block& b : many)
        if (!intact(b)) return 13;
    for (const block& b : many) give_back(r, b);
    for (const block& b : blocks) give_back(r, b);
    return 0;
}

/// Blocks the test's thread allocates before the threads start, checked (and freed) by every child.
struct inherited {
    std::vector<block> blocks;
    inherited(std::pmr::memory_resource& r, std::uint32_t seed) {
        for (std::size_t bytes : {16, 64, 256, 1024, 4096, 6000})
            for (int k = 0; k < 3; ++k) blocks.push_back(take(r, bytes, seed++));
    }
    bool intact_all() const {
        for (const block& b : blocks)
            if (!intact(b)) return false;
        return true;
    }
    void free_all(std::pmr::memory_resource& r) {
        for (const block& b : blocks) give_back(r, b);
        blocks.clear();
    }
};

/// Forks a grandchild that runs f while two threads of this process work on `resources`; waits for all.
/// 0, the grandchild's code (as_grandchild), or 22 when the threads' work failed.
int while_two_threads_work(const std::vector<std::pmr::memory_resource*>& resources, const std::function<int()>& f) {
    std::atomic<int> failed{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (std::uint32_t t = 0; t < 2; ++t) {
        threads.emplace_back([&, t] {
            for (std::uint32_t round = 0; !stop.load(std::memory_order_relaxed) && round < 20; ++round)
                for (std::pmr::memory_resource* r : resources)
                    if (work(*r, 7919 * (t + 1) + round, false) != 0) failed.store(1);
        });
    }
    const int grandchild = in_child(grandchild_limit, f);
    stop.store(true);
    for (std::thread& t : threads) t.join();
    if (grandchild != 0) return as_grandchild(grandchild);
    return failed.load() != 0 ? 22 : 0;
}

/// What a child does with each resource it inherited: checks and frees the inherited blocks, works; starts
/// two threads that work too, forks a grandchild while they run that works once more (and forks nothing);
/// waits for everything. 0, or a code.
int child_work(const std::vector<std::pmr::memory_resource*>& resources, inherited* blocks,
               std::pmr::memory_resource* blocks_resource, bool fork_again = true) {
    if (blocks != nullptr) {
        if (!blocks->intact_all()) return 21;
        blocks->free_all(*blocks_resource);
    }
    std::uint32_t seed = 1000;
    for (std::pmr::memory_resource* r : resources)
        if (const int code = work(*r, seed += 1000)) return code;
    if (!fork_again) return 0;
    return while_two_threads_work(resources, [&] {
        for (std::pmr::memory_resource* r : resources)
            if (const int code = work(*r, 99)) return code;
        return 0;
    });
}

// ---- Threads that keep locks busy in the parent.

/// Threads that allocate blocks of mixed sizes (a quarter of them larger than a pool's largest class),
/// check them, and free half of them themselves and half of another thread's (handed over through a
/// mutex-guarded list the children never touch), until stopped. Each checks what it frees. Paused while
/// a child runs (between rounds), so that the child has the cores; resumed before the next fork.
class hammers {
public:
    void pause() { paused_.store(true); }
    void resume() { paused_.store(false); }

    hammers(std::vector<std::pmr::memory_resource*> resources, unsigned threads)
        : resources_(std::move(resources)), handed_(threads) {
        for (unsigned t = 0; t < threads; ++t) threads_.emplace_back([this, t] { run(t); });
    }
    ~hammers() { stop(); }
    /// Stops and joins the threads; true if every check held.
    bool stop() {
        stop_.store(true);
        for (std::thread& t : threads_)
            if (t.joinable()) t.join();
        for (auto& h : handed_) {
            for (const auto& [r, b] : h.blocks) give_back(*r, b);
            h.blocks.clear();
        }
        return failures_.load() == 0;
    }
    /// Runs f(k) in a loop on one more thread, until stopped.
    void also(std::function<void(unsigned)> f) {
        threads_.emplace_back([this, f] {
            for (unsigned k = 0; wait_while_paused(); ++k) f(k);
        });
    }

private:
    struct handoff {
        std::mutex lock;
        std::vector<std::pair<std::pmr::memory_resource*, block>> blocks;
    };

    /// False once stopped.
    bool wait_while_paused() {
        while (paused_.load(std::memory_order_relaxed) && !stop_.load(std::memory_order_relaxed))
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        return !stop_.load(std::memory_order_relaxed);
    }

    void run(unsigned t) {
        std::minstd_rand rng(t + 1);
        std::vector<std::pair<std::pmr::memory_resource*, block>> mine;
        std::uint32_t key = t << 24;
        while (wait_while_paused()) {
            for (int k = 0; k < 64; ++k) {
                std::pmr::memory_resource* r = resources_[rng() % resources_.size()];
                const std::size_t bytes = rng() % 4 == 0 ? 4097 + rng() % 30000 : 8 + rng() % 600;
                mine.emplace_back(r, take(*r, bytes, ++key));
            }
            // Half to the next thread; the rest, and what the previous thread handed over, freed here.
            handoff& next = handed_[(t + 1) % handed_.size()];
            {
                const std::lock_guard<std::mutex> hold(next.lock);
                for (std::size_t k = 0; k < mine.size(); k += 2) next.blocks.push_back(mine[k]);
            }
            std::vector<std::pair<std::pmr::memory_resource*, block>> received;
            {
                handoff& own = handed_[t];
                const std::lock_guard<std::mutex> hold(own.lock);
                received.swap(own.blocks);
            }
            for (std::size_t k = 1; k < mine.size(); k += 2) received.push_back(mine[k]);
            mine.clear();
            for (const auto& [r, b] : received) {
                if (!intact(b)) failures_.fetch_add(1);
                give_back(*r, b);
            }
        }
    }

    std::vector<std::pmr::memory_resource*> resources_;
    std::vector<handoff> handed_;
    std::vector<std::thread> threads_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> paused_{false};
    std::atomic<int> failures_{0};
};

/// Forks `forks` children that each run child(), one after another, each while the threads of h run (for
/// 0.2 to 1.1 ms first). 0, or 1 at the first child that fails or hangs (said on stderr; the rest are not
/// forked).
int fork_children(int forks, hammers& h, const std::function<int()>& child) {
    for (int k = 0; k < forks; ++k) {
        h.resume();
        std::this_thread::sleep_for(std::chrono::microseconds(200 + 100 * (k % 10)));
        const int code = in_child(child_limit, child, [&] { h.pause(); });
        if (code != 0) {
            std::fprintf(stderr, "fork %d: %s\n", k, meaning(code).c_str());
            h.resume();
            return 1;
        }
    }
    h.resume();
    return 0;
}

/// What a scenario checks in the process that forks: each failed check is said on stderr.
struct checks {
    int failed = 0;
    void expect(bool ok, const char* what) {
        if (ok) return;
        std::fprintf(stderr, "check failed: %s\n", what);
        ++failed;
    }
    int code(int forks) const { return forks != 0 ? 1 : failed != 0 ? 2 : 0; }
};

/// Runs a scenario whose threads run while it forks in a process of its own, forked by the test's thread
/// before any of them starts: a deadlock of the forking process itself (fork handlers that wait for each
/// other) then fails the test too, instead of blocking the run.
void run_scenario(const std::function<int()>& scenario) {
    const int code = in_child(std::chrono::seconds(40), scenario);
    EXPECT_EQ(code, 0) << (code == child_hung ? std::string("the forking process hung: a deadlock in its fork handlers")
                           : code == 1        ? std::string("a child failed or hung (stderr says which)")
                           : code == 2        ? std::string("a check of the forking process failed (stderr says which)")
                                              : meaning(code));
}

/// What a child does with a resource r that no other thread was inside at the fork: checks and frees the
/// blocks it inherited (if any) and works; two threads of its own work on a pool made here while it forks
/// a grandchild that works on r and ends with exit(); then it ends with exit() too. The process's end
/// gives the thread's bins back (detail/thread_cache.hpp): nothing there may wait for a lock that a thread
/// held at the fork in a resource the child did not use. Never returns.
[[noreturn]] void work_then_exit(std::pmr::memory_resource& r, inherited* blocks) {
    if (blocks != nullptr) {
        if (!blocks->intact_all()) std::exit(21);
        blocks->free_all(r);
    }
    if (const int code = work(r, 1000)) std::exit(code);
    relo::synchronized_multipool_resource theirs;
    std::exit(while_two_threads_work({&theirs}, [&]() -> int { std::exit(work(r, 99)); }));
}

/// Threads that each work once on r and end, one after another, until stopped (each end gives its bins
/// back; a fork may catch one giving them back).
void short_threads(hammers& h, std::pmr::memory_resource& r) {
    h.also([&r](unsigned k) { std::thread([&r, k] { (void)work(r, 5000 + k, false); }).join(); });
}

/// (a) A synchronized pool that three threads used and left (their bins given back) and the forking
/// thread uses: each child checks the blocks it inherited from it, works on it and from two threads of its
/// own on another pool, forks a grandchild that works on it too, and both exit(); meanwhile threads hammer
/// five other pools (more than a thread's table holds: bins given back as they move between them), one of
/// them through short threads that end. A lock that every pool shared, held by one of those at a fork,
/// hangs the child at its exit (its thread gives its bins back there).
TEST(Fork, ASynchronizedPoolNoOtherThreadWasInside) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    run_scenario([] {
        relo::synchronized_multipool_resource mine;
        inherited blocks(mine, 1);
        for (std::uint32_t t = 0; t < 3; ++t) std::thread([&, t] { (void)work(mine, 300 + t); }).join();
        std::vector<std::unique_ptr<relo::synchronized_multipool_resource>> others;
        std::vector<std::pmr::memory_resource*> used;
        for (int k = 0; k < 5; ++k) {
            others.push_back(std::make_unique<relo::synchronized_multipool_resource>());
            used.push_back(others.back().get());
        }
        hammers h(used, 3);
        short_threads(h, *others[0]);
        const int forks = fork_children(100, h, [&]() -> int { work_then_exit(mine, &blocks); });
        checks c;
        c.expect(h.stop(), "the threads' blocks were intact");
        c.expect(blocks.intact_all(), "the inherited blocks are intact in the parent");
        blocks.free_all(mine);
        c.expect(mine.bytes_in_use() == 0, "every block of the pool came back");
        return c.code(forks);
    });
}

/// Forwards to the heap (thread-safe): an upstream whose chunks no thread's cache keeps warm.
class heap_upstream final : public std::pmr::memory_resource {
    void* do_allocate(std::size_t bytes, std::size_t alignment) override {
        return std::pmr::new_delete_resource()->allocate(bytes, alignment);
    }
    void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
        std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

/// A thread whose bins' limits rose (taking warm budget) and that then waits, outside the pool, is not in
/// the child: the pool works there, and the budget of those bins comes back with the pool's release() and
/// with its end (where the thread's bins are left, abandoned).
TEST(Fork, AChildGetsBackTheBudgetOfAnotherThreadsBinsFromThePool) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    run_scenario([] {
        heap_upstream upstream;
        auto pool = std::make_unique<relo::synchronized_multipool_resource>(&upstream);
        relo::set_warm_memory_limit(relo::warm_memory().process_bytes + (std::size_t{8} << 20));
        std::mutex m;
        std::condition_variable changed;
        int stage = 0;
        const std::size_t before = relo::warm_memory().process_bytes;
        std::thread worker([&] {
            for (int round = 0; round < 2; ++round) {  // (a batch built and freed: the bin's limit rises)
                std::vector<void*> blocks(2000);
                for (void*& p : blocks) p = pool->allocate(64, 8);
                for (void* p : blocks) pool->deallocate(p, 64, 8);
            }
            std::unique_lock<std::mutex> lock(m);
            stage = 1;
            changed.notify_all();
            changed.wait(lock, [&] { return stage == 2; });
        });
        {
            std::unique_lock<std::mutex> lock(m);
            changed.wait(lock, [&] { return stage == 1; });
        }
        checks c;
        const std::size_t raised = relo::warm_memory().process_bytes - before;
        c.expect(raised >= (std::size_t{16} << 10), "the worker's limit rose");
        for (const bool destroy : {false, true}) {
            const int code = in_child(child_limit, [&] {
                if (work(*pool, 7) != 0) return 3;
                const std::size_t held = relo::warm_memory().process_bytes;
                if (destroy) pool.reset();
                else pool->release();
                const std::size_t now = relo::warm_memory().process_bytes;
                if (now > held || held - now < raised) return 4;  // (and not given back twice: no wrap)
                if (!destroy && work(*pool, 8) != 0) return 5;
                return 0;
            });
            c.expect(code == 0, destroy ? "the child's destruction of the pool gave the worker's budget back"
                                        : "the child's release() gave the worker's budget back");
            if (code != 0) std::fprintf(stderr, "%s\n", meaning(code).c_str());
        }
        {
            const std::lock_guard<std::mutex> lock(m);
            stage = 2;
        }
        changed.notify_all();
        worker.join();
        pool.reset();
        c.expect(relo::warm_memory().process_bytes == before, "the parent's budget is as before");
        return c.code(0);
    });
}

/// The fork idiom of a library with a global lock: pthread_atfork(lock, unlock, unlock), registered once in
/// the scenario's own process (its children inherit it). Threads that use a resource only under the lock
/// are never inside it at a fork.
pthread_mutex_t fork_idiom_lock = PTHREAD_MUTEX_INITIALIZER;
bool register_fork_idiom() {
    static const bool registered = ::pthread_atfork([] { ::pthread_mutex_lock(&fork_idiom_lock); },
                                                    [] { ::pthread_mutex_unlock(&fork_idiom_lock); },
                                                    [] { ::pthread_mutex_unlock(&fork_idiom_lock); }) == 0;
    return registered;
}
struct under_fork_idiom_lock {
    under_fork_idiom_lock() { ::pthread_mutex_lock(&fork_idiom_lock); }
    ~under_fork_idiom_lock() { ::pthread_mutex_unlock(&fork_idiom_lock); }
    under_fork_idiom_lock(const under_fork_idiom_lock&) = delete;
    under_fork_idiom_lock& operator=(const under_fork_idiom_lock&) = delete;
};

/// Forwards to a resource under the fork idiom's lock.
class under_fork_idiom final : public std::pmr::memory_resource {
public:
    explicit under_fork_idiom(std::pmr::memory_resource& r) : r_(r) {}

private:
    void* do_allocate(std::size_t bytes, std::size_t alignment) override {
        const under_fork_idiom_lock hold;
        return r_.allocate(bytes, alignment);
    }
    void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
        const under_fork_idiom_lock hold;
        r_.deallocate(p, bytes, alignment);
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
    std::pmr::memory_resource& r_;
};

/// (b) A test_resource and a profiling_resource shared by threads (each takes its mutex: the test_resource
/// at every call, the profiling_resource when a thread looks for its record and when a profile is taken,
/// which one more thread does all the time). Neither registers a fork handler: as with
/// std::pmr::synchronized_pool_resource, a child may use one where no other thread was inside it at the
/// fork, which the threads here ensure as a host would, by the fork idiom (they use the resources only
/// under a lock that a prepare handler takes). Each child checks and frees the blocks it inherited, works
/// on both resources and from two threads of its own (under the same lock), and forks a grandchild that
/// works too.
TEST(Fork, TestAndProfilingResourcesUsedByOtherThreadsUnderTheForkIdiom) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    run_scenario([] {
        checks c;
        c.expect(register_fork_idiom(), "pthread_atfork registered the fork idiom's handlers");
        relo::test_resource tested;
        relo::profiling_resource profiled;
        under_fork_idiom tested_outside_forks(tested), profiled_outside_forks(profiled);
        inherited blocks(tested_outside_forks, 1);
        std::atomic<std::uint64_t> profiles{0};
        int forks = 0;
        {
            hammers h({&tested_outside_forks, &profiled_outside_forks}, 3);
            h.also([&](unsigned) {
                const under_fork_idiom_lock hold;
                profiles.fetch_add(profiled.profile().allocations > 0 ? 1 : 0);
            });
            h.also([&](unsigned) {
                const under_fork_idiom_lock hold;
                (void)tested.blocks_in_use();
            });
            forks = fork_children(100, h, [&] {
                const std::size_t before = tested.blocks_in_use(), inherited_blocks = blocks.blocks.size();
                if (const int code = child_work({&tested_outside_forks, &profiled_outside_forks}, &blocks, &tested_outside_forks))
                    return code;
                if (tested.blocks_in_use() + inherited_blocks != before) return 31;  // (it freed those, and all its own)
                if (profiled.profile().allocations == 0) return 32;
                return 0;
            });
            c.expect(h.stop(), "the threads' blocks were intact");
        }
        c.expect(profiles.load() > 0, "profiles were taken meanwhile");
        c.expect(blocks.intact_all(), "the inherited blocks are intact in the parent");
        blocks.free_all(tested);
        c.expect(tested.blocks_in_use() == 0, "no block of the test_resource is left");
        c.expect(tested.problems() == 0, "the test_resource found no problem");
        return c.code(forks);
    });
}

/// (c) Other threads make resources of every kind and destroy them, in any order, while the forks go on,
/// and hammer a pool and a test_resource; each child makes its own, destroys one made before another,
/// uses a pool and a test_resource it inherited that no thread used, and forks a grandchild that uses them
/// too (work_then_exit).
TEST(Fork, ResourcesMadeAndDestroyedMeanwhile) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    run_scenario([] {
        relo::synchronized_multipool_resource pool, quiet_pool;
        relo::test_resource tested;
        relo::test_resource quiet(&quiet_pool);
        hammers h({&pool, &tested}, 2);
        std::atomic<int> failed{0};
        h.also([&](unsigned k) {
            auto a = std::make_unique<relo::synchronized_multipool_resource>();
            auto t = std::make_unique<relo::test_resource>();
            auto p = std::make_unique<relo::profiling_resource>(a.get());
            auto over_a = std::make_unique<relo::test_resource>(a.get());
            int code = work(*p, k) | work(*t, k) | work(*over_a, k);
            if (k % 2 == 0) t.reset();
            else p.reset();
            code |= work(*a, k);
            if (code != 0) failed.store(code);
        });
        const int forks = fork_children(60, h, [&]() -> int {
            auto first = std::make_unique<relo::synchronized_multipool_resource>();
            auto second = std::make_unique<relo::test_resource>();
            auto third = std::make_unique<relo::profiling_resource>(first.get());
            if (const int code = work(*third, 5)) return code;
            second.reset();  // (between two that live on)
            if (const int code = work(quiet_pool, 6)) return code;
            work_then_exit(quiet, nullptr);
        });
        checks c;
        c.expect(h.stop(), "the threads' blocks were intact");
        c.expect(failed.load() == 0, "the resources made meanwhile worked");
        c.expect(tested.blocks_in_use() == 0, "no block of the test_resource is left");
        c.expect(quiet.blocks_in_use() == 0, "no block of the quiet test_resource is left");
        return c.code(forks);
    });
}

/// (d) Resources that call each other: threads hammer a pool over a test_resource over a pool, and four
/// more pools; each child uses another such stack that only the forking thread used before (while the
/// hammered ones' locks may be held, and their threads giving bins back to each other).
TEST(Fork, ResourcesOverEachOther) {
    if (const char* why = fork_with_threads_untestable()) GTEST_SKIP() << why;
    run_scenario([] {
        relo::synchronized_multipool_resource bottom, quiet_bottom;
        relo::test_resource middle(&bottom), quiet_middle(&quiet_bottom);
        relo::synchronized_multipool_resource top(&middle), quiet_top(&quiet_middle);
        std::vector<std::unique_ptr<relo::synchronized_multipool_resource>> more;
        std::vector<std::pmr::memory_resource*> used{&top, &middle, &bottom};
        for (int k = 0; k < 4; ++k) {
            more.push_back(std::make_unique<relo::synchronized_multipool_resource>());
            used.push_back(more.back().get());
        }
        inherited blocks(quiet_top, 1);
        hammers h(used, 3);
        const int forks = fork_children(60, h, [&]() -> int {
            if (const int code = work(quiet_middle, 3)) return code;
            if (const int code = work(quiet_bottom, 4)) return code;
            work_then_exit(quiet_top, &blocks);
        });
        checks c;
        c.expect(h.stop(), "the threads' blocks were intact");
        top.release();
        c.expect(middle.blocks_in_use() == 0, "every block of the pool over the test_resource came back");
        blocks.free_all(quiet_top);
        quiet_top.release();
        c.expect(quiet_middle.blocks_in_use() == 0, "every block of the quiet pool over the test_resource came back");
        return c.code(forks);
    });
}
/// One thread only: resources made before and after forks, destroyed between them; each child uses what
/// it inherited and forks again (without threads: every build runs this one).
TEST(Fork, OneThread) {
    relo::synchronized_multipool_resource pool;
    relo::test_resource tested(&pool);
    inherited blocks(tested, 1);
    for (int round = 0; round < 8; ++round) {
        relo::profiling_resource profiled(&tested);
        auto extra = std::make_unique<relo::synchronized_multipool_resource>(&tested);
        if (round % 2 == 1) extra.reset();
        std::vector<std::pmr::memory_resource*> resources{&pool, &tested, &profiled};
        if (extra != nullptr) resources.push_back(extra.get());
        const int code = in_child(child_limit, [&] {
            if (const int c = child_work(resources, &blocks, &tested, false)) return c;
            const int grandchild = in_child(grandchild_limit, [&] { return child_work(resources, nullptr, nullptr, false); });
            return as_grandchild(grandchild);
        });
        ASSERT_EQ(code, 0) << "round " << round << ": " << meaning(code);
    }
    EXPECT_TRUE(blocks.intact_all());
    blocks.free_all(tested);
    EXPECT_EQ(tested.blocks_in_use(), 0u);
}

#endif  // _WIN32

}  // namespace
}  // namespace relo_test
