// tests/fuzz/multipool_monotonic_fuzz.cpp — a relo::multipool_resource whose upstream is a
// relo::monotonic_resource (P0089's composition) under the resource fuzz driver (resource_fuzz.hpp); the
// monotonic resource's own upstream counts and fails on demand, and holds nothing once both are gone.
#include "relo/monotonic_resource.hpp"
#include "relo/multipool_resource.hpp"

#include "resource_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    relo_fuzz::input in(data, size);
    const relo::multipool_options options = relo_fuzz::pick_multipool_options(in);
    const std::size_t first_chunk = std::size_t{64} << (in.byte() % 12);
    relo_fuzz::counting_upstream upstream;
    {
        relo::monotonic_resource monotonic(first_chunk, &upstream);
        relo::multipool_resource pool(options, &monotonic);
        relo_fuzz::releasing_subject<relo::multipool_resource> subject(pool, &upstream, /*direct=*/false);
        relo_fuzz::resource_run<decltype(subject)>(in, subject).run();
        pool.release();
        RELO_FUZZ_CHECK(upstream.bytes_held == monotonic.upstream_bytes(), "the end (the monotonic upstream's count)");
    }
    RELO_FUZZ_CHECK(upstream.bytes_held == 0 && upstream.blocks_held == 0, "destruction (kept from the upstream)");
    return 0;
}
