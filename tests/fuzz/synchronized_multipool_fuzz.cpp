// tests/fuzz/synchronized_multipool_fuzz.cpp — relo::synchronized_multipool_resource, from one thread,
// under the resource fuzz driver (resource_fuzz.hpp), over a counting upstream that fails on demand.
#include "relo/synchronized_multipool_resource.hpp"

#include "resource_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    relo_fuzz::input in(data, size);
    const relo::multipool_options options = relo_fuzz::pick_multipool_options(in);
    relo_fuzz::counting_upstream upstream;
    {
        relo::synchronized_multipool_resource pool(options, &upstream);
        relo_fuzz::releasing_subject<relo::synchronized_multipool_resource> subject(pool, &upstream);
        relo_fuzz::resource_run<decltype(subject)>(in, subject).run();
    }
    RELO_FUZZ_CHECK(upstream.bytes_held == 0 && upstream.blocks_held == 0, "destruction (kept from the upstream)");
    return 0;
}
