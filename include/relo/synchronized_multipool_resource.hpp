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
// waits for the allocating thread's shard. A shard keeps at most two batches of free blocks a class (a
// batch: 16 KiB of blocks, at least 16 and at most 1,024 of them); past that it hands a batch to the class's
// depot, shared by every shard, and a shard whose class has no free block and no room left in its chunk
// takes a batch from the depot before it asks for a new chunk. So blocks that one thread frees for another
// (a queue, a pipeline) come back into use by the allocating thread, and the memory held stays bounded by
// the blocks in use plus two batches a class and shard, whatever the threads do (docs/measurements/
// memory_resources.md, "Blocks freed by another thread"). Requests larger than the largest class go to the
// upstream through one more shard under its own lock. The upstream must be thread-safe (the default
// resource is).
//
// Everything else is relo::multipool_resource's: the options, the classes and their alignment, release()
// (which must not run while other threads use the resource), winking out, the hardened checks (which lock
// every shard to find the block's owner).
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_SYNCHRONIZED_MULTIPOOL_RESOURCE_HPP
#define RELO_SYNCHRONIZED_MULTIPOOL_RESOURCE_HPP

#include <algorithm>
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
        const std::size_t classes = class_table().pool_count_;
        depots_.reset(new depot[classes]);
        batches_.reset(new std::size_t[classes]);
        for (std::size_t c = 0; c < classes; ++c) batches_[c] = batch_for(class_table().pools_[c].size);
        for (std::size_t i = 0; i < shard_count_; ++i) shards_[i].free_blocks.reset(new std::size_t[classes]());
    }

    synchronized_multipool_resource(const synchronized_multipool_resource&) = delete;
    synchronized_multipool_resource& operator=(const synchronized_multipool_resource&) = delete;
    ~synchronized_multipool_resource() override { release(); }

    /// As multipool_resource::allocate, from the calling thread's shard.
    void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        const std::size_t i = class_table().class_of(bytes, alignment);
        if (i >= class_table().pool_count_) {
            shard& s = shards_[shard_count_];
            guard g(s.lock);
            return s.pool->allocate(bytes, alignment);
        }
        shard& s = own_shard();
        guard g(s.lock);
        const multipool_resource::pool& p = s.pool->pools_[i];
        if (p.free != nullptr) {
            --s.free_blocks[i];
        } else if (p.next == p.end && depots_[i].count.load(std::memory_order_relaxed) != 0) {
            take_batch(s, i);
            if (p.free != nullptr) --s.free_blocks[i];
        }
        return s.pool->allocate_in(i);
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
        shard& s = own_shard();
        guard g(s.lock);
        s.pool->push_free(block, i);
        if (RELO_UNLIKELY(++s.free_blocks[i] > 2 * batches_[i])) give_batch(s, i);
    }

    /// Gives everything back (see multipool_resource::release). No other thread may use the resource meanwhile.
    void release() noexcept {
        const std::size_t classes = class_table().pool_count_;
        for (std::size_t i = 0; i <= shard_count_; ++i) {
            guard g(shards_[i].lock);
            shards_[i].pool->release();
            if (i < shard_count_) std::fill_n(shards_[i].free_blocks.get(), classes, std::size_t{0});
        }
        for (std::size_t c = 0; c < classes; ++c) {
            guard g(depots_[c].lock);
            depots_[c].head = nullptr;
            depots_[c].count.store(0, std::memory_order_relaxed);
        }
    }

    /// Free blocks of the class of `bytes` (at `alignment`) waiting in the depot for a thread that
    /// allocates them (0 for requests that go to the upstream).
    std::size_t depot_blocks(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) const noexcept {
        const std::size_t i = class_table().class_of(bytes, alignment);
        return i < class_table().pool_count_ ? depots_[i].count.load(std::memory_order_relaxed) : 0;
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
        std::unique_ptr<std::size_t[]> free_blocks;  // on the pool's free list, per class
    };
    /// A class's free blocks that the shards held past their bound, linked through their first word as on
    /// a pool's free list (and poisoned the same way).
    struct alignas(64) depot {
        detail::spin_lock lock;
        std::atomic<std::size_t> count{0};  // (read without the lock, to pass an empty depot by)
        void* head = nullptr;
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
    std::unique_ptr<depot[]> depots_;          // one per class
    std::unique_ptr<std::size_t[]> batches_;  // per class: the blocks that move between a shard and the depot

    /// The blocks that move between a shard and the depot at a time: 16 KiB of them, 16 to 1,024.
    /// (4 KiB and 64 KiB measured: docs/measurements/memory_resources.md, "Blocks freed by another thread".)
    static std::size_t batch_for(std::size_t block_size) noexcept {
        const std::size_t n = (std::size_t{16} << 10) / block_size;
        return n < 16 ? 16 : (n > 1024 ? 1024 : n);
    }

    /// The first n blocks of a free list starting at head (n >= 1, and the list that long): the last of
    /// them, whose link is the rest of the list. (Free blocks are poisoned under AddressSanitizer.)
    static void* nth_free(void* head, std::size_t n, std::size_t block_size) noexcept {
        void* b = head;
        for (std::size_t k = 1; k < n; ++k) b = link_of_free(b, block_size);
        return b;
    }
    static void* link_of_free(void* b, std::size_t block_size) noexcept {
        detail::unpoison(b, block_size);
        void* next = multipool_resource::link_of(b);
        detail::poison(b, block_size);
        return next;
    }
    static void set_link(void* b, void* next, std::size_t block_size) noexcept {
        detail::unpoison(b, block_size);
        multipool_resource::set_word(b, 0, reinterpret_cast<std::uintptr_t>(next));
        detail::poison(b, block_size);
    }

    /// Moves a batch from the front of shard s's free list of class i to the class's depot (s locked).
    void give_batch(shard& s, std::size_t i) noexcept {
        multipool_resource::pool& p = s.pool->pools_[i];
        const std::size_t n = batches_[i];
        void* const first = p.free;
        void* const last = nth_free(first, n, p.size);
        p.free = link_of_free(last, p.size);
        s.free_blocks[i] -= n;
        depot& d = depots_[i];
        guard g(d.lock);
        set_link(last, d.head, p.size);
        d.head = first;
        d.count.store(d.count.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }

    /// Moves up to a batch from class i's depot to shard s's free list, which is empty (s locked).
    void take_batch(shard& s, std::size_t i) noexcept {
        multipool_resource::pool& p = s.pool->pools_[i];
        depot& d = depots_[i];
        guard g(d.lock);
        const std::size_t available = d.count.load(std::memory_order_relaxed);
        if (available == 0) return;
        const std::size_t n = available < batches_[i] ? available : batches_[i];
        void* const first = d.head;
        void* const last = nth_free(first, n, p.size);
        d.head = link_of_free(last, p.size);
        d.count.store(available - n, std::memory_order_relaxed);
        set_link(last, p.free, p.size);
        p.free = first;
        s.free_blocks[i] += n;
    }

    shard& own_shard() noexcept { return shards_[detail::thread_number() & (shard_count_ - 1)]; }

    static std::size_t shards_for(unsigned hardware_threads) noexcept {
        std::size_t n = 4;
        while (n < 2 * static_cast<std::size_t>(hardware_threads) && n < 64) n *= 2;
        return n;
    }

    /// The size classes, read by every thread: those of the shard that holds the upstream's blocks, whose
    /// pools are never used (a working shard's pools share cache lines with its free lists).
    const multipool_resource& class_table() const noexcept { return *shards_[shard_count_].pool; }

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
        if (!RELO_ASAN && reads_as_free && !is_free) {
            guard g(depots_[i].lock);
            for (const void* f = depots_[i].head; f != nullptr && !is_free; f = multipool_resource::link_of(f))
                is_free = f == block;
        }
        RELO_EXPECTS_MSG(!is_free,
                         "relo::synchronized_multipool_resource::deallocate: %p (class of %zu bytes) is already free: "
                         "a double deallocation", block, bytes);
#endif
    }
};

}  // namespace relo

#endif  // RELO_SYNCHRONIZED_MULTIPOOL_RESOURCE_HPP
