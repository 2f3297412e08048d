// relo/synchronized_multipool_resource.hpp — relo::synchronized_multipool_resource: a multipool resource
// that threads may share.
//
//     relo::synchronized_multipool_resource pool;            // chunks from the default resource
//     std::pmr::unordered_set<int> shared(&pool);             // used by several threads (with a lock of its own)
//     // or one container per thread, all on `pool`: allocate in one thread, free in another
//
// Sharded: the resource holds several relo::multipool_resource shards (a power of two, at least four and
// twice the hardware threads, at most 64), each behind a spin lock; a thread uses the shard its thread
// number selects, so that threads rarely meet on a lock. A block freed by another thread than the one that
// allocated it goes to the freeing thread's shard (every shard has the same size classes), so a free never
// waits for the allocating thread's shard. Requests larger than the largest class go to the upstream
// through one more shard under its own lock. The upstream must be thread-safe (the default resource is).
//
// Everything else is relo::multipool_resource's: the options, the classes and their alignment, release()
// (which must not run while other threads use the resource), winking out, the hardened checks (which lock
// every shard to find the block's owner).
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_SYNCHRONIZED_MULTIPOOL_RESOURCE_HPP
#define RELO_SYNCHRONIZED_MULTIPOOL_RESOURCE_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <new>
#include <optional>
#include <thread>

#include "relo/detail/config.hpp"
#include "relo/detail/resource_base.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/multipool_resource.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace relo {

namespace detail {

/// A test-and-test-and-set lock: one atomic exchange when it is free; spins briefly, then yields.
class spin_lock {
public:
    void lock() noexcept {
        for (int spins = 0; locked_.exchange(true, std::memory_order_acquire); ++spins) {
            while (locked_.load(std::memory_order_relaxed)) {
                if (spins < 64) {
                    pause();
                    ++spins;
                } else {
                    std::this_thread::yield();  // the holder may have been preempted (more threads than cores)
                }
            }
        }
    }
    void unlock() noexcept { locked_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> locked_{false};
    static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
    }
};

/// A small number for the calling thread, given out in order of first use (shared by every resource).
inline std::size_t thread_number() noexcept {
    static std::atomic<std::size_t> next{0};
    thread_local const std::size_t mine = next.fetch_add(1, std::memory_order_relaxed);
    return mine;
}

}  // namespace detail

class synchronized_multipool_resource final : public detail::resource_base<synchronized_multipool_resource> {
public:
    explicit synchronized_multipool_resource(std::pmr::memory_resource* upstream = std::pmr::get_default_resource())
        : synchronized_multipool_resource(multipool_options{}, upstream) {}
    explicit synchronized_multipool_resource(const multipool_options& options,
                                             std::pmr::memory_resource* upstream = std::pmr::get_default_resource())
        : shard_count_(shards_for(std::thread::hardware_concurrency())),
          shards_(new shard[shard_count_ + 1]) {  // (the last one holds the upstream's blocks)
        for (std::size_t i = 0; i <= shard_count_; ++i) shards_[i].pool.emplace(options, upstream);
    }

    synchronized_multipool_resource(const synchronized_multipool_resource&) = delete;
    synchronized_multipool_resource& operator=(const synchronized_multipool_resource&) = delete;
    ~synchronized_multipool_resource() override { release(); }

    /// As multipool_resource::allocate, from the calling thread's shard.
    void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        shard& s = shard_for(bytes, alignment);
        guard g(s.lock);
        return s.pool->allocate(bytes, alignment);
    }

    /// As multipool_resource::deallocate; a pool block goes to the calling thread's shard.
    void deallocate(void* block, std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) noexcept {
        const multipool_resource& classes = class_table();
        const std::size_t i = classes.class_of(bytes, alignment);
        if (i >= classes.pool_count_) {
            shard& s = shards_[shard_count_];
            guard g(s.lock);
            s.pool->deallocate(block, bytes, alignment);
            return;
        }
        check_pool_block(block, i, alignment);
        shard& s = shards_[detail::thread_number() & (shard_count_ - 1)];
        guard g(s.lock);
        s.pool->push_free(block, i);
    }

    /// Gives everything back (see multipool_resource::release). No other thread may use the resource meanwhile.
    void release() noexcept {
        for (std::size_t i = 0; i <= shard_count_; ++i) {
            guard g(shards_[i].lock);
            shards_[i].pool->release();
        }
    }

    // ---- Introspection (sums over the shards; exact when no other thread allocates or frees meanwhile).

    std::size_t shard_count() const noexcept { return shard_count_; }
    std::size_t bytes_in_use() noexcept { return sum([](const multipool_resource& p) { return p.bytes_in_use(); }); }
    std::size_t upstream_bytes() noexcept { return sum([](const multipool_resource& p) { return p.upstream_bytes(); }); }
    const multipool_options& options() const noexcept { return shards_[0].pool->options(); }

private:
    /// A shard on its own cache lines, so that two threads' locks and pools do not share one.
    struct alignas(64) shard {
        detail::spin_lock lock;
        std::optional<multipool_resource> pool;
    };
    struct guard {
        explicit guard(detail::spin_lock& l) noexcept : lock(l) { lock.lock(); }
        ~guard() { lock.unlock(); }
        guard(const guard&) = delete;
        guard& operator=(const guard&) = delete;
        detail::spin_lock& lock;
    };

    std::size_t shard_count_;
    std::unique_ptr<shard[]> shards_;

    static std::size_t shards_for(unsigned hardware_threads) noexcept {
        std::size_t n = 4;
        while (n < 2 * static_cast<std::size_t>(hardware_threads) && n < 64) n *= 2;
        return n;
    }

    /// The size classes, read by every thread: those of the shard that holds the upstream's blocks, whose
    /// pools are never used (a working shard's pools share cache lines with its free lists).
    const multipool_resource& class_table() const noexcept { return *shards_[shard_count_].pool; }

    shard& shard_for(std::size_t bytes, std::size_t alignment) noexcept {
        const multipool_resource& classes = class_table();
        if (classes.class_of(bytes, alignment) >= classes.pool_count_) return shards_[shard_count_];
        return shards_[detail::thread_number() & (shard_count_ - 1)];
    }

    template <class F>
    std::size_t sum(F f) noexcept {
        std::size_t total = 0;
        for (std::size_t i = 0; i <= shard_count_; ++i) {
            guard g(shards_[i].lock);
            total += f(*shards_[i].pool);
        }
        return total;
    }

    /// The hardened checks of multipool_resource::deallocate, over every shard: a block of one shard's
    /// chunks may be on any shard's free list (it goes to the freeing thread's).
    // (The parameters are unused where preconditions are not checked.)
    void check_pool_block([[maybe_unused]] void* block, [[maybe_unused]] std::size_t i,
                          [[maybe_unused]] std::size_t alignment) noexcept {
#if RELO_PRECONDITIONS_CHECKED
        const std::size_t bytes = class_table().pools_[i].size;
        bool ours = false, fits = false;
        for (std::size_t s = 0; s < shard_count_ && !ours; ++s) {
            guard g(shards_[s].lock);
            const auto* c = shards_[s].pool->chunk_of(block);
            ours = c != nullptr;
            fits = shards_[s].pool->holds_block_of(c, block, i);
        }
        RELO_EXPECTS_MSG(ours, "relo::synchronized_multipool_resource::deallocate: %p is not a block of this resource",
                         block);
        RELO_EXPECTS_MSG(fits && reinterpret_cast<std::uintptr_t>(block) % alignment == 0,
                         "relo::synchronized_multipool_resource::deallocate: %p is not a block of the %zu-byte class "
                         "at alignment %zu (another size or alignment than the allocation's)", block, bytes, alignment);
        // Free: poisoned under AddressSanitizer; otherwise it reads as free (its mark, or its link, to null or
        // a block of the class in any shard), and it is on a shard's list.
        bool reads_as_free = RELO_ASAN && detail::is_poisoned(block), is_free = reads_as_free;
        for (std::size_t s = 0; s < shard_count_ && !RELO_ASAN && !reads_as_free; ++s) {
            guard g(shards_[s].lock);
            reads_as_free = shards_[s].pool->reads_as_free(block, i);
        }
        for (std::size_t s = 0; s < shard_count_ && !RELO_ASAN && reads_as_free && !is_free; ++s) {
            guard g(shards_[s].lock);
            is_free = shards_[s].pool->on_free_list(block, i);
        }
        RELO_EXPECTS_MSG(!is_free,
                         "relo::synchronized_multipool_resource::deallocate: %p (class of %zu bytes) is already free: "
                         "a double deallocation", block, bytes);
#endif
    }
};

}  // namespace relo

#endif  // RELO_SYNCHRONIZED_MULTIPOOL_RESOURCE_HPP
