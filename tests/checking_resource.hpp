// tests/checking_resource.hpp — an upstream memory resource for testing resources built on one: it
// records every allocation and checks that each deallocation gives back a block it handed out, whole, with
// the same size and alignment; it can be told to fail. It refuses (std::bad_alloc) what no test machine
// holds, a size or an alignment of 1 TiB or more, and an alignment that is no power of two
// (AddressSanitizer's operator new aborts on those rather than throw), and remembers the largest size and
// alignment asked, and the requests that relo's own rule for a block (detail::fits_in_block) refuses, so
// that a test can check that a request was refused before it came here.
#ifndef RELO_TESTS_CHECKING_RESOURCE_HPP
#define RELO_TESTS_CHECKING_RESOURCE_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory_resource>
#include <new>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "relo/detail/errors.hpp"

namespace relo_test {

class checking_resource final : public std::pmr::memory_resource {
public:
    struct block {
        std::size_t bytes;
        std::size_t alignment;
    };

    ~checking_resource() override {
        EXPECT_TRUE(live_.empty()) << live_.size() << " blocks never given back to the upstream";
        for (const auto& [p, b] : live_) std::pmr::new_delete_resource()->deallocate(p, b.bytes, b.alignment);
    }

    /// The next `n` allocations succeed, the one after throws std::bad_alloc (n < 0: never fail).
    void fail_after(long n) { fail_after_ = n; }

    std::size_t live_blocks() const { return live_.size(); }
    std::size_t live_bytes() const {
        std::size_t total = 0;
        for (const auto& [p, b] : live_) total += b.bytes;
        return total;
    }
    std::size_t allocations() const { return allocations_; }
    /// The allocations asked for, refused or not.
    std::size_t requests() const { return requests_; }
    /// The largest alignment asked for (refused or not).
    std::size_t largest_alignment_asked() const { return largest_alignment_; }
    /// The requests at an alignment that is no power of two (refused).
    std::size_t non_power_alignments_asked() const { return non_power_alignments_; }
    /// The largest size asked for (refused or not).
    std::size_t largest_bytes_asked() const { return largest_bytes_; }
    /// The requests that relo::detail::fits_in_block refuses (refused or not here): none, when every
    /// resource checks what it asks of its upstream.
    std::size_t requests_beyond_a_block() const { return beyond_a_block_; }
    static constexpr std::size_t unholdable_bytes = std::size_t{1} << 40;
    const std::map<void*, block>& live() const { return live_; }

private:
    std::map<void*, block> live_;
    long fail_after_ = -1;
    std::size_t allocations_ = 0;
    std::size_t requests_ = 0;
    std::size_t largest_alignment_ = 0;
    std::size_t non_power_alignments_ = 0;
    std::size_t largest_bytes_ = 0;
    std::size_t beyond_a_block_ = 0;

    void* do_allocate(std::size_t bytes, std::size_t alignment) override {
        ++requests_;
        if (bytes > largest_bytes_) largest_bytes_ = bytes;
        if (alignment > largest_alignment_) largest_alignment_ = alignment;
        if (!relo::detail::fits_in_block(bytes, alignment)) ++beyond_a_block_;
        if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
            ++non_power_alignments_;
            throw std::bad_alloc();
        }
        if (bytes >= unholdable_bytes || alignment >= unholdable_bytes) throw std::bad_alloc();
        if (fail_after_ == 0) throw std::bad_alloc();
        if (fail_after_ > 0) --fail_after_;
        void* p = std::pmr::new_delete_resource()->allocate(bytes, alignment);
        live_[p] = {bytes, alignment};
        ++allocations_;
        return p;
    }
    void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
        const auto it = live_.find(p);
        if (it == live_.end()) {
            ADD_FAILURE() << "deallocate of a block the upstream did not hand out";
            return;
        }
        EXPECT_EQ(it->second.bytes, bytes) << "deallocate with another size than allocated";
        EXPECT_EQ(it->second.alignment, alignment) << "deallocate with another alignment than allocated";
        std::pmr::new_delete_resource()->deallocate(p, it->second.bytes, it->second.alignment);
        live_.erase(it);
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

}  // namespace relo_test

#endif  // RELO_TESTS_CHECKING_RESOURCE_HPP
