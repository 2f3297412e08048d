// tests/fuzz/multipool_fuzz.cpp — relo::multipool_resource under the resource fuzz driver
// (resource_fuzz.hpp), with settings from the first bytes, over a counting upstream that fails on demand,
// or over the global heap (the chunk cache's path).
#include "relo/multipool_resource.hpp"

#include "resource_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    relo_fuzz::input in(data, size);
    const relo::multipool_options options = relo_fuzz::pick_multipool_options(in);
    const bool global_heap = in.byte() < 64;
    relo_fuzz::counting_upstream upstream;
    {
        relo::multipool_resource pool(options, global_heap ? std::pmr::new_delete_resource() : &upstream);
        relo_fuzz::releasing_subject<relo::multipool_resource> subject(pool, global_heap ? nullptr : &upstream);
        relo_fuzz::resource_run<decltype(subject)>(in, subject, global_heap).run();
    }
    RELO_FUZZ_CHECK(upstream.bytes_held == 0 && upstream.blocks_held == 0, "destruction (kept from the upstream)");
    return 0;
}
