// The warm budget's settings as a host program gives them (docs/settings.md): run by ctest with each
// environment, and built twice (the second time with other defaults in macros).
//
//   settings_program LIMIT DELAY_MS [set-first | keep-first]
//
// Checks that relo::warm_memory_limit() is LIMIT bytes and relo::warm_memory_idle_delay() DELAY_MS, and
// that a large block given back is kept only within the limit. With "set-first", set_warm_memory_limit
// (12345) and set_warm_memory_idle_delay(77 ms) come before any other use of relo (the code's values win
// over the environment's); with "keep-first", the block is given back before the getters are called (the
// settings' first use is a cache's). Prints "settings ok", or what differs and exits 1.
#include <relo/vector.hpp>
#include <relo/warm_memory.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../mapped_ints.hpp"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s LIMIT DELAY_MS [set-first]\n", argv[0]);
        return 2;
    }
    const std::size_t expected_limit = std::strtoull(argv[1], nullptr, 10);
    const long long expected_delay_ms = std::strtoll(argv[2], nullptr, 10);
    const bool set_first = argc > 3 && std::strcmp(argv[3], "set-first") == 0;
    const bool keep_first = argc > 3 && std::strcmp(argv[3], "keep-first") == 0;
    if (set_first) {
        relo::set_warm_memory_limit(12345);
        relo::set_warm_memory_idle_delay(std::chrono::milliseconds(77));
    }
    const auto give_back_a_large_block = [] {
        relo_test::mapped_vector<char> large(std::size_t{8} << 20);  // (a large block, which its cache keeps if the limit lets it)
        large.back() = 1;
    };
    if (keep_first) give_back_a_large_block();

    int failures = 0;
    const std::size_t limit = relo::warm_memory_limit();
    if (limit != expected_limit) {
        std::printf("mismatch: warm_memory_limit() is %zu, expected %zu\n", limit, expected_limit);
        ++failures;
    }
    const auto delay_ms = std::chrono::duration_cast<std::chrono::milliseconds>(relo::warm_memory_idle_delay()).count();
    if (delay_ms != expected_delay_ms) {
        std::printf("mismatch: warm_memory_idle_delay() is %lld ms, expected %lld\n", static_cast<long long>(delay_ms),
                    expected_delay_ms);
        ++failures;
    }
    if (!keep_first) give_back_a_large_block();
    const relo::warm_memory_held held = relo::warm_memory();
    if (held.process_bytes > limit || held.total() > limit) {
        std::printf("mismatch: %zu bytes kept (the process %zu) over a limit of %zu\n", held.total(),
                    held.process_bytes, limit);
        ++failures;
    }
    if (failures == 0) std::printf("settings ok\n");
    return failures == 0 ? 0 : 1;
}
