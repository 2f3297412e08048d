// tests/fuzz/profiling_resource_fuzz.cpp — relo::profiling_resource under the resource fuzz driver
// (resource_fuzz.hpp), over a counting upstream that fails on demand or over the global heap, as the first
// byte picks. The subject keeps its own list of the blocks out (the profiler keeps none), and the profile is
// checked against it: allocations less deallocations, the bytes in use, a peak at least that; everything
// goes back to the upstream, headers included.
#include <cstddef>
#include <map>
#include <memory_resource>
#include <utility>

#include "relo/profiling_resource.hpp"

#include "resource_fuzz.hpp"

namespace {

class profiling_subject {
public:
    profiling_subject(relo::profiling_resource& r, relo_fuzz::counting_upstream* upstream) noexcept
        : r_(r), upstream_(upstream) {}

    void* allocate(std::size_t bytes, std::size_t alignment) {
        void* p = r_.allocate(bytes, alignment);
        out_[p] = {bytes, alignment};
        return p;
    }
    void deallocate(void* p, std::size_t bytes, std::size_t alignment) {
        out_.erase(p);
        r_.deallocate(p, bytes, alignment);
    }
    bool try_expand(void*, std::size_t, std::size_t, std::size_t) { return false; }
    void give_back_all() {
        for (const auto& [p, b] : out_) r_.deallocate(p, b.first, b.second);
        out_.clear();
        check();
        if (upstream_ != nullptr) RELO_FUZZ_CHECK(upstream_->bytes_held == 0, "release (the upstream's count)");
    }
    void mark() {}
    bool rewind(char*&) { return false; }
    relo_fuzz::counting_upstream* upstream() const noexcept { return upstream_; }

    void check() const {
        const relo::allocation_profile p = r_.profile();
        std::size_t bytes = 0;
        for (const auto& entry : out_) bytes += entry.second.first;
        RELO_FUZZ_CHECK(p.live_blocks() == out_.size(), "the profile's live blocks");
        RELO_FUZZ_CHECK(p.bytes_in_use == bytes && p.peak_bytes_in_use >= bytes, "the profile's bytes in use");
        RELO_FUZZ_CHECK(p.threads <= 1 && p.cross_thread_frees == 0, "one thread");
    }

private:
    relo::profiling_resource& r_;
    relo_fuzz::counting_upstream* upstream_;
    std::map<void*, std::pair<std::size_t, std::size_t>> out_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    relo_fuzz::input in(data, size);
    const bool global_heap = in.byte() % 2 == 1;
    relo_fuzz::counting_upstream upstream;
    {
        relo::profiling_resource r(global_heap ? std::pmr::new_delete_resource() : &upstream);
        profiling_subject subject(r, global_heap ? nullptr : &upstream);
        relo_fuzz::resource_run<profiling_subject>(in, subject, global_heap).run();
        subject.check();
        subject.give_back_all();
    }
    RELO_FUZZ_CHECK(upstream.bytes_held == 0 && upstream.blocks_held == 0, "destruction (kept from the upstream)");
    return 0;
}
