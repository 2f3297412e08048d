// tests/life/busy_threads.hpp — threads that use relo's thread caches until told to stop: two keep
// something in every cache (keep(seed), false if a value read back was wrong: the process aborts), look at
// what they keep and trim their own now and then. For the tests of forks while other threads work.
#ifndef RELO_TESTS_LIFE_BUSY_THREADS_HPP
#define RELO_TESTS_LIFE_BUSY_THREADS_HPP

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include "relo/warm_memory.hpp"

namespace relo_test {

template <class Keep>
std::vector<std::thread> busy_threads(std::atomic<bool>& stop, Keep keep) {
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&stop, keep, t] {
            for (int i = 0; !stop.load(); ++i) {
                if (!keep(t * 1000 + i % 1000)) std::abort();
                (void)relo::warm_memory();  // (three visits open at once)
                if (i % 4 == 0) relo::trim_warm_memory();
            }
        });
    return threads;
}

}  // namespace relo_test

#endif  // RELO_TESTS_LIFE_BUSY_THREADS_HPP
