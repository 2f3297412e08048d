// The warm budget's settings as a host program gives them (docs/settings.md): run by ctest with each
// environment, and built twice (the second time with other defaults in macros).
//
//   settings_program LIMIT DELAY_MS [set-first]
//
// Checks that relo::warm_memory_limit() is LIMIT bytes and relo::warm_memory_idle_delay() DELAY_MS (with
// "set-first", after set_warm_memory_limit(12345) before any other use of relo: the code's value wins over
// the environment's), and that a large block given back is kept only within the limit. Prints
// "settings ok", or what differs and exits 1.
#include <relo/vector.hpp>
#include <relo/warm_memory.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s LIMIT DELAY_MS [set-first]\n", argv[0]);
        return 2;
    }
    const std::size_t expected_limit = std::strtoull(argv[1], nullptr, 10);
    const long long expected_delay_ms = std::strtoll(argv[2], nullptr, 10);
    if (argc > 3 && std::strcmp(argv[3], "set-first") == 0) relo::set_warm_memory_limit(12345);

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
    {
        relo::vector<char> large(std::size_t{8} << 20);  // (a large block, which its cache keeps if the limit lets it)
        large.back() = 1;
    }
    const relo::warm_memory_held held = relo::warm_memory();
    if (held.process_bytes > limit || held.total() > limit) {
        std::printf("mismatch: %zu bytes kept (the process %zu) over a limit of %zu\n", held.total(),
                    held.process_bytes, limit);
        ++failures;
    }
    if (failures == 0) std::printf("settings ok\n");
    return failures == 0 ? 0 : 1;
}
