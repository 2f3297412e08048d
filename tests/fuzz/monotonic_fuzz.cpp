// tests/fuzz/monotonic_fuzz.cpp — relo::monotonic_resource under the resource fuzz driver
// (resource_fuzz.hpp): over a counting upstream that fails on demand, from an initial buffer first, over a
// relo::vm_arena, or over the global heap (the chunk cache's path), as the first byte picks.
#include <cstddef>

#include "relo/monotonic_resource.hpp"
#include "relo/vm_arena.hpp"

#include "resource_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    relo_fuzz::input in(data, size);
    const std::uint8_t variant = in.byte();
    const std::size_t first_chunk = std::size_t{64} << (variant / 4 % 12);
    relo_fuzz::counting_upstream upstream;
    switch (variant % 4) {
        case 0: {
            relo::monotonic_resource r(first_chunk, &upstream);
            relo_fuzz::releasing_subject<relo::monotonic_resource> subject(r, &upstream);
            relo_fuzz::resource_run<decltype(subject)>(in, subject).run();
            break;
        }
        case 1: {
            alignas(std::max_align_t) char buffer[1000];
            relo::monotonic_resource r(buffer, sizeof buffer - variant / 4 % 8, &upstream);
            relo_fuzz::releasing_subject<relo::monotonic_resource> subject(r, &upstream);
            relo_fuzz::resource_run<decltype(subject)>(in, subject).run();
            break;
        }
        case 2: {
            relo::vm_arena arena(std::size_t{1} << 28);
            relo::monotonic_resource r(&arena);
            relo_fuzz::releasing_subject<relo::monotonic_resource> subject(r, nullptr);
            relo_fuzz::resource_run<decltype(subject)>(in, subject).run();
            break;
        }
        default: {
            relo::monotonic_resource r(first_chunk, std::pmr::new_delete_resource());
            relo_fuzz::releasing_subject<relo::monotonic_resource> subject(r, nullptr);
            relo_fuzz::resource_run<decltype(subject)>(in, subject, /*global_heap_behind=*/true).run();
            break;
        }
    }
    RELO_FUZZ_CHECK(upstream.bytes_held == 0 && upstream.blocks_held == 0, "destruction (kept from the upstream)");
    return 0;
}
