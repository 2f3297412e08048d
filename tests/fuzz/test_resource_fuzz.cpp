// tests/fuzz/test_resource_fuzz.cpp — relo::test_resource under the resource fuzz driver (resource_fuzz.hpp),
// over a counting upstream that fails on demand or over the global heap, as the first byte picks. The
// driver gives back only what it was given, so any problem the resource reports is a failure; its counts
// are checked against what is outstanding after the run, and everything goes back to the upstream.
#include <cstddef>
#include <memory_resource>

#include "relo/test_resource.hpp"

#include "resource_fuzz.hpp"

namespace {

/// The driver's view of a test_resource: "release" gives back every outstanding block.
class test_resource_subject {
public:
    test_resource_subject(relo::test_resource& r, relo_fuzz::counting_upstream* upstream) noexcept
        : r_(r), upstream_(upstream) {}

    void* allocate(std::size_t bytes, std::size_t alignment) { return r_.allocate(bytes, alignment); }
    void deallocate(void* p, std::size_t bytes, std::size_t alignment) { r_.deallocate(p, bytes, alignment); }
    bool try_expand(void*, std::size_t, std::size_t, std::size_t) { return false; }
    void give_back_all() {
        for (const relo::test_resource_block& b : r_.outstanding()) r_.deallocate(b.address, b.bytes, b.alignment);
        RELO_FUZZ_CHECK(r_.blocks_in_use() == 0 && r_.bytes_in_use() == 0, "release (blocks still in use)");
        if (upstream_ != nullptr) RELO_FUZZ_CHECK(upstream_->bytes_held == 0, "release (the upstream's count)");
    }
    void mark() {}
    bool rewind(char*&) { return false; }
    relo_fuzz::counting_upstream* upstream() const noexcept { return upstream_; }

private:
    relo::test_resource& r_;
    relo_fuzz::counting_upstream* upstream_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    relo_fuzz::input in(data, size);
    const bool global_heap = in.byte() % 2 == 1;
    relo_fuzz::counting_upstream upstream;
    {
        relo::test_resource r(global_heap ? std::pmr::new_delete_resource() : &upstream, "fuzzed");
        r.set_reporter([](const relo::test_resource&, const relo::test_resource_problem& p) {
            RELO_FUZZ_CHECK(false, relo::to_string(p.kind));
        });
        test_resource_subject subject(r, global_heap ? nullptr : &upstream);
        relo_fuzz::resource_run<test_resource_subject>(in, subject, global_heap).run();
        std::size_t bytes = 0;
        const auto left = r.outstanding();
        for (const relo::test_resource_block& b : left) bytes += b.bytes;
        RELO_FUZZ_CHECK(r.blocks_in_use() == left.size() && r.bytes_in_use() == bytes, "the counts after the run");
        RELO_FUZZ_CHECK(r.max_bytes_in_use() >= bytes && r.total_blocks() >= left.size(), "the maxima after the run");
        subject.give_back_all();
    }
    RELO_FUZZ_CHECK(upstream.bytes_held == 0 && upstream.blocks_held == 0, "destruction (kept from the upstream)");
    return 0;
}
