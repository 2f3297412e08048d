// A program whose first relo use is a global vector made before main, run by life_events_test under a
// seccomp filter installed before exec that denies or kills membarrier (as sandboxes do): it must start,
// and another thread must give back what idle threads keep. Exits 0 when it does, 1 otherwise.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "relo/vector.hpp"
#include "relo/warm_memory.hpp"

relo::vector<int> made_before_main{1, 2, 3};

int main() {
    if (made_before_main.size() != 3) return 1;
    std::atomic<int> parked{0};
    std::atomic<bool> leave{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            { const relo::vector<int> v(std::size_t{1} << 20, 1); }  // (4 MiB kept warm by this thread)
            ++parked;
            while (!leave.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
    while (parked.load() != 4) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const std::size_t kept = relo::warm_memory().process_bytes;
    const std::size_t given_back = relo::trim_idle_warm_memory(std::chrono::nanoseconds(0));
    const std::size_t left = relo::warm_memory().process_bytes;
    leave = true;
    for (auto& t : threads) t.join();
    std::printf("kept %zu, given back %zu, left %zu\n", kept, given_back, left);
    return kept >= (std::size_t{16} << 20) && given_back == kept && left == 0 ? 0 : 1;
}
