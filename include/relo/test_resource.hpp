// relo/test_resource.hpp — relo::test_resource: a std::pmr::memory_resource for tests, over any upstream,
// that counts what a program allocates, fails on demand, and checks every block given back (after BDE's
// bslma::TestAllocator).
//
//     relo::test_resource r;                                  // over the global heap
//     std::pmr::vector<std::string> v(&r);                    // or relo::vector on relo::resource_allocator
//     ... EXPECT_EQ(r.blocks_in_use(), 0u); EXPECT_LE(r.max_bytes_in_use(), 4096u);
//     relo::exception_test(r, [&] { v.insert(v.begin(), words.begin(), words.end()); });
//
// Counts: blocks and bytes in use, their maxima, and the totals allocated; deallocations.
// The allocation limit: set_allocation_limit(k) lets k more allocations through, then each throws
// std::bad_alloc until the limit is set again (-1: no limit). relo::exception_test(r, f) runs f with the
// limit at 0, 1, 2, ... until it completes, and after each run that threw checks that the run left no
// block behind: the exception-safety loop relo's own tests use, for a user's code.
// Checks: a block given back with another size or alignment than it was allocated with, given back
// twice, or a pointer the resource never handed out, are problems; so is every block still outstanding
// when the resource is destroyed (a leak), and every block a failed run of exception_test left behind.
// Each problem goes to the reporter with the block's details (its address, size, alignment and serial
// number: the n-th allocation of the resource); the default reporter prints one line to stderr and
// aborts, so that a test with a problem fails; set_reporter() installs another (one that records, or calls
// a test framework's failure). A block given back wrongly is still given to the upstream as it was
// allocated; a double free or a foreign pointer is not given to it at all.
//
// Cost: every allocation and deallocation takes a lock and a hash-table operation beside the upstream's
// (docs/measurements/memory_resources.md, "test_resource and profiling_resource"). Thread-safe. The
// resource remembers the addresses of freed blocks (to tell a double free from a foreign pointer) until
// they are handed out again.
// fork(): no handler, as std::pmr::synchronized_pool_resource: a fork's child may use the resource where
// no other thread was inside it at the fork (its lock is then free).
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_TEST_RESOURCE_HPP
#define RELO_TEST_RESOURCE_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory_resource>
#include <mutex>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

#include "relo/detail/config.hpp"  // (and detail/contracts.hpp: print_to)
#include "relo/detail/errors.hpp"
#include "relo/detail/resource_base.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// A block a test_resource handed out.
struct test_resource_block {
    void* address;          ///< where it is
    std::size_t bytes;      ///< its size, as allocated
    std::size_t alignment;  ///< its alignment, as allocated
    std::uint64_t serial;   ///< the n-th allocation of the resource, from 1
};

/// What went wrong with a block.
enum class test_resource_problem_kind {
    wrong_size,       ///< given back with another size than allocated
    wrong_alignment,  ///< given back with another alignment than allocated
    double_free,      ///< given back again
    /// never handed out by this resource (or handed out and given back before it was last handed out:
    /// then it is a double free of an older block)
    foreign_pointer,
    leak,             ///< still in use when the resource died, or left behind by a failed run of exception_test
};

/// A problem, with the call's and the block's details.
struct test_resource_problem {
    test_resource_problem_kind kind;  ///< what went wrong
    void* address;                    ///< the pointer given back (a leak: the block's)
    std::size_t bytes;                ///< as the call gave it (a leak: the block's)
    std::size_t alignment;            ///< as the call gave it (a leak: the block's)
    test_resource_block block;        ///< the block as allocated (all zero for a foreign pointer)
};

/// The words of a problem kind ("double free", ...).
inline const char* to_string(test_resource_problem_kind kind) noexcept {
    switch (kind) {
        case test_resource_problem_kind::wrong_size: return "wrong size";
        case test_resource_problem_kind::wrong_alignment: return "wrong alignment";
        case test_resource_problem_kind::double_free: return "double free";
        case test_resource_problem_kind::foreign_pointer: return "foreign pointer";
        case test_resource_problem_kind::leak: return "leak";
    }
    return "problem";
}

/// A memory resource for tests, over any upstream: counts what a program allocates, fails on demand (the
/// allocation limit, exception_test) and checks every block given back, reporting each problem; this
/// header's opening comment (relo/test_resource.hpp) says what it checks. Thread-safe.
class test_resource final : public detail::resource_base<test_resource> {
public:
    /// What set_reporter() installs: called with the resource and each problem it finds.
    using reporter = std::function<void(const test_resource&, const test_resource_problem&)>;

    /// Over `upstream` (the global heap by default), named `name` in reports (the string must outlive
    /// the resource).
    explicit test_resource(std::pmr::memory_resource* upstream = std::pmr::new_delete_resource(),
                           const char* name = "relo::test_resource") noexcept
        : upstream_(upstream), name_(name) {}
    /// Over the global heap, named `name` in reports (the string must outlive the resource).
    explicit test_resource(const char* name) noexcept : test_resource(std::pmr::new_delete_resource(), name) {}

    test_resource(const test_resource&) = delete;
    test_resource& operator=(const test_resource&) = delete;

    /// Reports every block still in use as a leak (oldest first), then gives it back to the upstream.
    ~test_resource() override {
        for (const test_resource_block& b : outstanding()) {
            report({test_resource_problem_kind::leak, b.address, b.bytes, b.alignment, b});
            upstream_->deallocate(b.address, b.bytes, b.alignment);
        }
    }

    /// `bytes` at `alignment` from the upstream, counted; std::bad_alloc when the allocation limit is
    /// reached, or when no block can hold `bytes` at `alignment` (more than detail::max_block_bytes: a size
    /// computed wrongly, refused here whatever the upstream would do with it), nothing counted then; or
    /// what the upstream throws.
    void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        detail::check_block_size(bytes, alignment);
        const std::lock_guard<std::mutex> lock(mutex_);
        if (limit_ == 0) {
            ++refused_;
            throw std::bad_alloc();
        }
        void* const p = upstream_->allocate(bytes, alignment);
        if (limit_ > 0) --limit_;
        const test_resource_block b{p, bytes, alignment, ++serial_};
        try {
            live_.emplace(p, b);
        } catch (...) {
            upstream_->deallocate(p, bytes, alignment);
            throw;
        }
        freed_.erase(p);
        ++blocks_in_use_;
        bytes_in_use_ += bytes;
        total_bytes_ += bytes;
        max_blocks_in_use_ = std::max(max_blocks_in_use_, blocks_in_use_);
        max_bytes_in_use_ = std::max(max_bytes_in_use_, bytes_in_use_);
        return p;
    }

    /// Gives p back to the upstream, after checking that it is a block in use allocated with this size
    /// and alignment; reports (and does not pass on) a double free or a foreign pointer.
    void deallocate(void* p, std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) noexcept {
        test_resource_problem problem{};
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            ++deallocations_;
            const auto it = live_.find(p);
            if (it != live_.end()) {
                const test_resource_block b = it->second;
                if (b.bytes != bytes) problem = {test_resource_problem_kind::wrong_size, p, bytes, alignment, b};
                else if (b.alignment != alignment) problem = {test_resource_problem_kind::wrong_alignment, p, bytes, alignment, b};
                live_.erase(it);
                --blocks_in_use_;
                bytes_in_use_ -= b.bytes;
                remember_freed(b);
                upstream_->deallocate(p, b.bytes, b.alignment);  // (as allocated, whatever the call said)
                if (problem.address == nullptr) return;
            } else {
                const auto old = freed_.find(p);
                problem = old != freed_.end()
                              ? test_resource_problem{test_resource_problem_kind::double_free, p, bytes, alignment, old->second}
                              : test_resource_problem{test_resource_problem_kind::foreign_pointer, p, bytes, alignment, {}};
            }
        }
        report(problem);
    }

    // ---- Counts (each read under the lock).
    /// Blocks allocated and not given back.
    std::size_t blocks_in_use() const { return read(blocks_in_use_); }
    /// Bytes of the blocks in use, as allocated.
    std::size_t bytes_in_use() const { return read(bytes_in_use_); }
    /// The most blocks in use at once since the resource was made.
    std::size_t max_blocks_in_use() const { return read(max_blocks_in_use_); }
    /// The most bytes in use at once since the resource was made.
    std::size_t max_bytes_in_use() const { return read(max_bytes_in_use_); }
    /// Blocks and bytes allocated since the resource was made.
    ///@{
    std::size_t total_blocks() const { return static_cast<std::size_t>(read(serial_)); }
    std::size_t total_bytes() const { return read(total_bytes_); }
    ///@}
    /// Calls of deallocate(), a double free's and a foreign pointer's included.
    std::size_t deallocations() const { return read(deallocations_); }
    /// Allocations refused by the limit.
    std::size_t refused_allocations() const { return read(refused_); }
    /// Problems reported so far.
    std::size_t problems() const { return read(problems_); }

    /// The blocks in use, oldest first.
    std::vector<test_resource_block> outstanding() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        std::vector<test_resource_block> blocks;
        blocks.reserve(live_.size());
        for (const auto& entry : live_) blocks.push_back(entry.second);
        std::sort(blocks.begin(), blocks.end(),
                  [](const test_resource_block& a, const test_resource_block& b) { return a.serial < b.serial; });
        return blocks;
    }

    // ---- The allocation limit.
    /// Lets `allocations` more allocations through, then each throws std::bad_alloc (-1: no limit).
    void set_allocation_limit(long long allocations) noexcept {
        const std::lock_guard<std::mutex> lock(mutex_);
        limit_ = allocations < 0 ? -1 : allocations;
    }
    /// How many more allocations the limit lets through (-1: no limit).
    long long allocation_limit() const noexcept {
        const std::lock_guard<std::mutex> lock(mutex_);
        return limit_;
    }

    // ---- Reporting.
    /// Installs the reporter (an empty one restores the default).
    void set_reporter(reporter r) {
        const std::lock_guard<std::mutex> lock(mutex_);
        reporter_ = std::move(r);
    }
    /// Writes the problem as one line to `out`: "relo::test_resource: double free of block #12 (64 bytes,
    /// alignment 8) at 0x..., given back as 64 bytes, alignment 8".
    static void print(const test_resource& r, const test_resource_problem& p, std::FILE* out = stderr) {
        if (p.kind == test_resource_problem_kind::foreign_pointer) {
            detail::print_to(out, "%s: foreign pointer %p given back (%zu bytes, alignment %zu): not a block of this resource\n",
                         r.name(), p.address, p.bytes, p.alignment);
        } else if (p.kind == test_resource_problem_kind::leak) {
            detail::print_to(out, "%s: leak of block #%llu (%zu bytes, alignment %zu) at %p\n", r.name(),
                         static_cast<unsigned long long>(p.block.serial), p.block.bytes, p.block.alignment, p.address);
        } else {
            detail::print_to(out, "%s: %s of block #%llu (%zu bytes, alignment %zu) at %p, given back as %zu bytes, alignment %zu\n",
                         r.name(), to_string(p.kind), static_cast<unsigned long long>(p.block.serial), p.block.bytes,
                         p.block.alignment, p.address, p.bytes, p.alignment);
        }
    }
    /// The default reporter: print() to stderr, then abort (a test with a problem fails).
    static void print_and_abort(const test_resource& r, const test_resource_problem& p) {
        print(r, p);
        std::fflush(stderr);
        std::abort();
    }

    /// The name reports give it.
    const char* name() const noexcept { return name_; }
    /// Where the blocks come from.
    std::pmr::memory_resource* upstream_resource() const noexcept { return upstream_; }

    /// Reports a problem found outside the resource's own calls (relo::exception_test's leaks).
    void report(const test_resource_problem& problem) {
        reporter r;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            ++problems_;
            r = reporter_;
        }
        if (r) r(*this, problem);
        else print_and_abort(*this, problem);
    }

private:
    template <class N>
    N read(const N& counter) const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return counter;
    }
    void remember_freed(const test_resource_block& b) noexcept {
        try {
            freed_[b.address] = b;
        } catch (...) {  // (out of memory: the next double free of it reads as a foreign pointer)
        }
    }

    std::pmr::memory_resource* upstream_;
    const char* name_;
    mutable std::mutex mutex_;
    std::unordered_map<const void*, test_resource_block> live_;
    std::unordered_map<const void*, test_resource_block> freed_;
    reporter reporter_;
    std::uint64_t serial_ = 0;
    std::size_t blocks_in_use_ = 0;
    std::size_t bytes_in_use_ = 0;
    std::size_t max_blocks_in_use_ = 0;
    std::size_t max_bytes_in_use_ = 0;
    std::size_t total_bytes_ = 0;
    std::size_t deallocations_ = 0;
    std::size_t refused_ = 0;
    std::size_t problems_ = 0;
    long long limit_ = -1;
};

/// What relo::exception_test found.
struct exception_test_result {
    std::size_t failed_runs;   ///< runs that threw std::bad_alloc (the run that completed is not counted)
    std::size_t leaky_runs;    ///< of those, runs that left blocks behind (each block reported as a leak)
};

/// Runs f() with r's allocation limit at 0, 1, 2, ... until a run completes without std::bad_alloc; after
/// each run that threw it, checks that r holds no block the run allocated (each such block is reported as
/// a leak). Other exceptions propagate. The limit is off again at the end (and if f throws otherwise).
/// f is typically a lambda that builds what it works on afresh (a copy of the container under test), so
/// that every run starts from the same state.
template <class F>
exception_test_result exception_test(test_resource& r, F&& f) {
    struct limit_off {
        test_resource& r;
        ~limit_off() { r.set_allocation_limit(-1); }
    } restore{r};
    exception_test_result result{0, 0};
    for (long long limit = 0;; ++limit) {
        const std::size_t serial_before = r.total_blocks();
        r.set_allocation_limit(limit);
        try {
            f();
            return result;
        } catch (const std::bad_alloc&) {
            ++result.failed_runs;
        }
        bool leaked = false;
        for (const test_resource_block& b : r.outstanding()) {
            if (b.serial <= serial_before) continue;
            leaked = true;
            r.report({test_resource_problem_kind::leak, b.address, b.bytes, b.alignment, b});
        }
        if (leaked) ++result.leaky_runs;
    }
}

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_TEST_RESOURCE_HPP
