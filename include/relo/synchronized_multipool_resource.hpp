// relo/synchronized_multipool_resource.hpp — relo::synchronized_multipool_resource: a multipool resource
// that threads may share.
//
//     relo::synchronized_multipool_resource pool;            // chunks from the default resource
//     std::pmr::unordered_set<int> shared(&pool);             // used by several threads (with a lock of its own)
//     // or one container per thread, all on `pool`: allocate in one thread, free in another
//
// Three levels, as the per-thread caches of tcmalloc:
//   - each thread's bins: per size class, the thread's free blocks, taken and given back with no lock and
//     no atomic read-modify-write (a table per thread finds the bins of the last four resources it used);
//   - a depot per class, shared by every thread behind a spin lock: a bin that holds more than its limit
//     (two batches; a batch: 16 KiB of blocks, at least 16 and at most 1,024) hands it a batch, an empty
//     bin takes one from it first, and a thread that ends hands it everything its bins held. When a bin
//     runs empty after it handed the depot batches, its limit rises by those batches (as tcmalloc's free
//     lists grow), up to 4 MiB a thread and resource past the two batches a class and within the process's
//     warm-memory budget (relo/warm_memory.hpp), and comes down by a batch every fourth time it overflows:
//     a thread that frees the blocks it allocated keeps them, one that frees what others allocate, or only
//     allocates, keeps two batches;
//   - shards (several relo::multipool_resource, a power of two, at least four and twice the hardware
//     threads, at most 64, each behind a spin lock, selected by the thread's number): they make new
//     blocks from their chunks, a batch at a time, only when the depot of the class is empty.
// So a block that one thread frees for another (a queue, a pipeline) comes back into use by the thread
// that allocates, and the memory held is the blocks in use plus two batches per class and thread, and at
// most 4 MiB more per thread, within the warm budget: docs/measurements/memory_resources.md, "Blocks freed
// by another thread, and a bin per thread" and "Blocks freed by the thread that allocated them". A
// thread that is ending (another thread_local's destructor) uses its shard directly. Requests larger than
// the largest class go to the upstream through one more shard under its own lock. The upstream must be
// thread-safe (the default resource is).
//
// Everything else is relo::multipool_resource's: the options, the classes and their alignment, release()
// (which must not run while other threads use the resource; their bins are emptied), winking out, the
// hardened checks (which lock every shard, the depot and every thread's bins to find a double free).
//
// A thread gives its bins back (at its end, or when its table needs the slot) through a state in the
// bins, with no lock shared between resources; bins whose resource was destroyed first are freed by their
// thread (thread_bins). fork(): no handler. In the child a resource is usable where no other thread was
// inside it at the fork, as std::pmr::synchronized_pool_resource; the bins of the threads the child does
// not have are abandoned (their blocks and raises come back with release() or the resource's end). A
// thread's bins of a resource still alive are not given back at the program's end (thread_table), so a
// child's exit() gives nothing back to a resource another thread was inside at the fork; but destroying
// one (a static resource at exit) waits for a thread that was giving its bins back at the fork: a thread
// ending, or moving to other resources, is inside the resource it leaves.
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_SYNCHRONIZED_MULTIPOOL_RESOURCE_HPP
#define RELO_SYNCHRONIZED_MULTIPOOL_RESOURCE_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <new>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

#include "relo/detail/config.hpp"
#include "relo/detail/resource_base.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/detail/thread_cache.hpp"
#include "relo/multipool_resource.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

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
    RELO_CONSTINIT static std::atomic<std::size_t> next{0};
    thread_local const std::size_t mine = next.fetch_add(1, std::memory_order_relaxed);
    return mine;
}

}  // namespace detail

/// A multipool resource that threads may share: per-thread bins, a depot per size class and locked shards
/// (this header's opening comment, relo/synchronized_multipool_resource.hpp); everything else is
/// multipool_resource's.
class synchronized_multipool_resource final : public detail::resource_base<synchronized_multipool_resource> {
public:
    /// With the options (multipool_options' defaults in the first form), chunks from `upstream`, which must
    /// be thread-safe. Makes the shards (a power of two, at least four and twice the hardware threads, at
    /// most 64) and the depots. Throws std::invalid_argument for options outside their ranges (as
    /// multipool_resource's constructor), std::bad_alloc when memory for the shards and depots is refused.
    ///@{
    explicit synchronized_multipool_resource(std::pmr::memory_resource* upstream = std::pmr::get_default_resource())
        : synchronized_multipool_resource(multipool_options{}, upstream) {}
    explicit synchronized_multipool_resource(const multipool_options& options,
                                             std::pmr::memory_resource* upstream = std::pmr::get_default_resource())
        : shard_count_(shards_for(std::thread::hardware_concurrency())),
          shards_(new shard[shard_count_ + 1]) {  // (the last one holds the upstream's blocks)
        for (std::size_t i = 0; i <= shard_count_; ++i) shards_[i].pool.emplace(options, upstream);
        classes_ = &*shards_[shard_count_].pool;
        const std::size_t classes = class_table().pool_count_;
        depots_.reset(new depot[classes]);
        batches_.reset(new std::size_t[classes]);
        for (std::size_t c = 0; c < classes; ++c) batches_[c] = batch_for(class_table().pools_[c].size);
        for (std::size_t i = 0; i < shard_count_; ++i) shards_[i].free_blocks.reset(new std::size_t[classes]());
        detail::trim_own_bins.store(&trim_own, detail::memory_order_relaxed);  // (relo::trim_warm_memory's)
    }
    ///@}

    synchronized_multipool_resource(const synchronized_multipool_resource&) = delete;
    synchronized_multipool_resource& operator=(const synchronized_multipool_resource&) = delete;
    /// Frees the threads' vacant bins (waiting for a thread that is giving its own back) and leaves those
    /// still taken to their threads (orphan); then gives everything back (release). Other threads may outlive
    /// the resource, and hold its bins in their tables, but not use it.
    ~synchronized_multipool_resource() override {
        if (thread_table* const own = bins_table::existing_state()) {  // (the calling thread's: freed below)
            for (bins_slot& slot : own->slot)
                if (slot.resource == id_) give_back(slot);
        }
        thread_bins* t = caches_;
        caches_ = nullptr;  // (release() then leaves the bins alone: an orphan's thread may free it)
        while (t != nullptr) {
            thread_bins* const next = t->next;  // (read first: t may be freed by its thread from orphan() on)
            orphan(t);
            t = next;
        }
        release();
    }

    /// As multipool_resource::allocate, from the calling thread's bin. (The fast path is inline, as
    /// multipool_resource's: out of line, the churn benchmark lost to a multipool per thread; and it calls
    /// nothing but one slow path, in tail position, so that it saves no register:
    /// docs/measurements/memory_resources.md.)
    RELO_ALWAYS_INLINE void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        if constexpr (!RELO_PRECONDITIONS_CHECKED) {
            std::size_t i;
            thread_bins* own;
            if (RELO_LIKELY(fast_bins(bytes, alignment, i, own))) {
                bin& b = own->bins()[i];
                if (RELO_LIKELY(b.head != nullptr)) return pop(b, i);
            }
        }
        return allocate_slowly<RELO_PRECONDITIONS_CHECKED>(bytes, alignment);
    }

    /// As multipool_resource::deallocate; a pool block goes to the calling thread's bin.
    RELO_ALWAYS_INLINE void deallocate(void* block, std::size_t bytes,
                                       std::size_t alignment = alignof(std::max_align_t)) noexcept {
        if constexpr (!RELO_PRECONDITIONS_CHECKED) {
            std::size_t i;
            thread_bins* own;
            if (RELO_LIKELY(fast_bins(bytes, alignment, i, own))) {
                bin& b = own->bins()[i];
                if (RELO_LIKELY(push(b, block, i) <= b.limit)) return;
                return bin_overflows(*own, b, i);
            }
        }
        return deallocate_slowly<RELO_PRECONDITIONS_CHECKED>(block, bytes, alignment);
    }

    /// Gives everything back (see multipool_resource::release). No other thread may use the resource meanwhile;
    /// one that gives it its bins back (ending, or moving to other resources) waits until it is done.
    void release() noexcept {
        const std::size_t classes = class_table().pool_count_;
        guard g(caches_lock_);
        for (thread_bins* t = caches_; t != nullptr; t = t->next) t->previous = settle(*t);
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
        for (thread_bins* t = caches_; t != nullptr; t = t->next) {
            for (std::size_t c = 0; c < classes; ++c) {
                t->bins()[c].head = nullptr;
                t->bins()[c].count.store(0, std::memory_order_relaxed);
                t->bins()[c].received.store(0, std::memory_order_relaxed);
            }
            reset_limits(*t);
            // (Vacant where their thread let them go meanwhile: left_settling.)
            unsigned char settling = thread_bins::settling;
            if (!t->state.compare_exchange_strong(settling, t->previous, std::memory_order_release,
                                                  std::memory_order_relaxed))
                t->state.store(thread_bins::vacant, std::memory_order_release);
        }
    }

    /// Free blocks of the class of `bytes` (at `alignment`) waiting in the depot for a thread that
    /// allocates them (0 for requests that go to the upstream).
    std::size_t depot_blocks(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) const noexcept {
        const std::size_t i = class_table().class_of(bytes, alignment);
        return i < class_table().pool_count_ ? depots_[i].count.load(std::memory_order_relaxed) : 0;
    }

    // ---- Introspection (sums over the shards and the threads' bins; exact when no other thread allocates
    // or frees meanwhile).

    /// The number of shards that make new blocks (the one that holds the upstream's blocks not counted).
    std::size_t shard_count() const noexcept { return shard_count_; }
    /// Bytes handed out and not given back, as multipool_resource::bytes_in_use(): blocks at their class's
    /// size, upstream blocks at theirs.
    std::size_t bytes_in_use() noexcept {
        std::size_t total = sum([](const multipool_resource& p) { return p.bytes_in_use(); });
        guard g(caches_lock_);
        for (const thread_bins* t = caches_; t != nullptr; t = t->next) {
            for (std::size_t c = 0; c < class_table().pool_count_; ++c)
                total += static_cast<std::size_t>(t->bins()[c].handed_out()) * size_of(c);
        }
        return total;
    }
    /// Free blocks of the class of `bytes` (at `alignment`) in the calling thread's bin, which it takes and
    /// gives back without a lock (0 for requests that go to the upstream).
    std::size_t own_bin_blocks(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) noexcept {
        const std::size_t i = class_table().class_of(bytes, alignment);
        thread_bins* const own = i < class_table().pool_count_ ? own_bins() : nullptr;
        return own != nullptr ? own->bins()[i].count.load(std::memory_order_relaxed) : 0;
    }
    /// Bytes held from the upstream, as multipool_resource::upstream_bytes(), summed over the shards.
    std::size_t upstream_bytes() noexcept { return sum([](const multipool_resource& p) { return p.upstream_bytes(); }); }
    /// The options the resource was made with.
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
    const multipool_resource* classes_ = nullptr;  // class_table()
    std::unique_ptr<depot[]> depots_;          // one per class
    std::unique_ptr<std::size_t[]> batches_;  // per class: the blocks that move between a shard and the depot

    /// The blocks that move between a bin (or a shard) and the depot at a time: 16 KiB of them, 16 to
    /// 1,024. (4 KiB and 64 KiB measured: docs/measurements/memory_resources.md, "Blocks freed by another
    /// thread, and a bin per thread".)
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

    /// Moves the first n blocks of the free list at `head` (n at most its length) to class i's depot.
    void give_to_depot(void*& head, std::size_t i, std::size_t n) noexcept {
        const std::size_t size = size_of(i);
        void* const first = head;
        void* const last = nth_free(first, n, size);
        head = link_of_free(last, size);
        depot& d = depots_[i];
        guard g(d.lock);
        set_link(last, d.head, size);
        d.head = first;
        d.count.store(d.count.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }

    /// Moves up to n blocks from class i's depot to the front of the free list at `head`; how many.
    std::size_t take_from_depot(void*& head, std::size_t i, std::size_t n) noexcept {
        depot& d = depots_[i];
        guard g(d.lock);
        const std::size_t available = d.count.load(std::memory_order_relaxed);
        if (available < n) n = available;
        if (n == 0) return 0;
        const std::size_t size = size_of(i);
        void* const first = d.head;
        void* const last = nth_free(first, n, size);
        d.head = link_of_free(last, size);
        d.count.store(available - n, std::memory_order_relaxed);
        set_link(last, head, size);
        head = first;
        return n;
    }

    RELO_NOINLINE void* allocate_upstream(std::size_t bytes, std::size_t alignment) {
        shard& s = shards_[shard_count_];
        guard g(s.lock);
        return s.pool->allocate(bytes, alignment);
    }
    RELO_NOINLINE void deallocate_upstream(void* block, std::size_t bytes, std::size_t alignment) noexcept {
        shard& s = shards_[shard_count_];
        guard g(s.lock);
        s.pool->deallocate(block, bytes, alignment);
    }

    /// A pool block of class i back to the calling thread's shard (threads without bins: one that is ending).
    RELO_NOINLINE void deallocate_to_shard(void* block, std::size_t i) noexcept {
        shard& s = own_shard();
        guard g(s.lock);
        s.pool->push_free(block, i);
        if (RELO_UNLIKELY(++s.free_blocks[i] > 2 * batches_[i])) {
            give_to_depot(s.pool->pools_[i].free, i, batches_[i]);
            s.free_blocks[i] -= batches_[i];
        }
    }

    /// A block of class i from the calling thread's shard (threads without bins: one that is ending).
    RELO_NOINLINE void* allocate_from_shard(std::size_t i) {
        shard& s = own_shard();
        guard g(s.lock);
        multipool_resource::pool& p = s.pool->pools_[i];
        if (p.free == nullptr && p.next == p.end && depots_[i].count.load(std::memory_order_relaxed) != 0)
            s.free_blocks[i] += take_from_depot(p.free, i, batches_[i]);
        if (p.free != nullptr) --s.free_blocks[i];
        return s.pool->allocate_in(i);
    }

    shard& own_shard() noexcept { return shards_[detail::thread_number() & (shard_count_ - 1)]; }

    // ---- The threads' bins: each thread's free blocks of each class, taken and given back without a lock
    // or an atomic read-modify-write; a bin exchanges a batch at a time with the class's depot, or with
    // the thread's shard, which makes new blocks from its chunks. A bin holds at most its limit: two
    // batches, more while it runs empty (raise_limit).

    /// (The counts are atomic for bytes_in_use, which reads them from another thread; their owner only
    /// loads and stores them. The blocks handed out less those taken back, which bytes_in_use needs, are
    /// received less count: kept that way, allocate and deallocate change one count, not two.)
    struct bin {
        void* head = nullptr;  // free blocks, linked and poisoned as on a pool's free list
        std::atomic<std::size_t> count{0};
        std::atomic<std::ptrdiff_t> received{0};  // blocks from the depot and the shard less blocks given back
        std::uint32_t limit = 0;       // count past which a batch goes to the depot: two batches, or more (raise_limit)
        std::uint16_t overflows = 0;   // past the limit, since it last came down (bin_overflows)
        std::uint16_t given_back = 0;  // batches given to the depot since the bin last ran empty (raise_limit)
        std::ptrdiff_t handed_out() const noexcept {
            return received.load(std::memory_order_relaxed) -
                   static_cast<std::ptrdiff_t>(count.load(std::memory_order_relaxed));
        }
        /// (The new count, from the value stored rather than a load after the store: a store and a load of
        /// an atomic are not merged, and the load waited on the store.)
        std::size_t add(std::size_t blocks) noexcept {
            const std::size_t n = count.load(std::memory_order_relaxed) + blocks;
            count.store(n, std::memory_order_relaxed);
            return n;
        }
        void take(std::size_t blocks) noexcept {
            count.store(count.load(std::memory_order_relaxed) - blocks, std::memory_order_relaxed);
        }
        void receive(std::ptrdiff_t blocks) noexcept {
            received.store(received.load(std::memory_order_relaxed) + blocks, std::memory_order_relaxed);
        }
    };
    /// A thread's bins of one resource. Their state says who may touch them, with no lock that other
    /// resources share (one held by another thread at a fork would hang the child's next give-back, even
    /// at its exit, whichever resources the child used):
    ///   vacant -> taken         a thread takes them (take_vacant_bins, under caches_lock_);
    ///   taken -> vacating       their thread gives them back (give_back): emptied into the depots, then
    ///   vacating -> vacant      vacant; the resource's destructor waits for that short loop;
    ///   taken -> orphaned       the resource's destructor (orphan): their raises' budget given back, they
    ///                           are their thread's, which frees them at its give-back and touches nothing else;
    ///   vacant or taken ->      release() (settle), for as long as it empties them, then back; their
    ///     settling              thread's give-back meanwhile (release() may run on it, its upstream
    ///   settling ->             calls giving bins back) leaves them to it as left_settling, then vacant.
    ///     left_settling
    /// Each change to vacant, taken or orphaned is a release that the next one to touch the bins reads with an
    /// acquire. Only the destructor and release() wait, for a vacating thread's short loop.
    struct alignas(64) thread_bins {
        enum : unsigned char { vacant, taken, vacating, orphaned, settling, left_settling };
        thread_bins* next = nullptr;  // the resource's list of them (under caches_lock_)
        unsigned char previous = vacant;  // (release()'s: the state to restore)
        synchronized_multipool_resource* resource;  // (their thread reads it only once it took them to vacate)
        std::atomic<unsigned char> state{vacant};
        // What the bins' limits were raised by, in bytes (raise_limit): the owner's, which loads and
        // stores it; atomic for the destructor, which reads it before it orphans the bins and may lose the
        // race to their thread's give-back (whose write then makes the value moot).
        std::atomic<std::size_t> raised_bytes{0};
        detail::spin_lock check_lock;  // (hardened builds: the double-free check reads other threads' bins)
        /// One bin per class, in the same allocation, just after (one load less on every fast path).
        bin* bins() noexcept { return std::launder(reinterpret_cast<bin*>(reinterpret_cast<char*>(this) + sizeof(*this))); }
        const bin* bins() const noexcept { return const_cast<thread_bins*>(this)->bins(); }
        static thread_bins* make(synchronized_multipool_resource& r, std::size_t classes) noexcept {
            void* p = ::operator new(sizeof(thread_bins) + classes * sizeof(bin), std::align_val_t{alignof(thread_bins)},
                                     std::nothrow);
            if (p == nullptr) return nullptr;
            auto* t = ::new (p) thread_bins;
            t->resource = &r;
            for (std::size_t c = 0; c < classes; ++c) ::new (static_cast<void*>(t->bins() + c)) bin;
            return t;
        }
        static void destroy(thread_bins* t) noexcept {  // (bins and their atomics are trivially destructible)
            t->~thread_bins();
            ::operator delete(t, std::align_val_t{alignof(thread_bins)});
        }
    };
    static_assert(std::is_trivially_destructible<bin>::value && sizeof(thread_bins) % alignof(bin) == 0,
                  "thread_bins::make places the bins after the header, destroy does not run their destructors");
    /// Held by the bins' owner around every use, and by the hardened checks: only where they are on
    /// (Checked), and always where the bins are emptied for good (vacate).
    template <bool Checked>
    struct bins_guard {
        explicit bins_guard(thread_bins& t) noexcept : bins(t) {
            if constexpr (Checked) bins.check_lock.lock();
        }
        ~bins_guard() {
            if constexpr (Checked) bins.check_lock.unlock();
        }
        bins_guard(const bins_guard&) = delete;
        bins_guard& operator=(const bins_guard&) = delete;
        thread_bins& bins;
    };

    /// Each thread's bins of the last few resources it used, the one it used last first. (The id, not
    /// bins->resource: one load less on the fast paths, and a resource made at a destroyed one's address
    /// is not mistaken for it: ids are never reused.)
    struct bins_slot {
        std::uint64_t resource;  // the resource's id_ (0: none)
        thread_bins* bins;
    };
    struct thread_table : detail::thread_cache_state {
        static constexpr std::size_t slots = 4;
        bins_slot slot[slots];
        /// When relo's copy ends: frees the bins of resources destroyed already, and says whether none is
        /// left. Bins of a resource still alive stay (the resource frees them at its end): giving them back
        /// would take its depots' locks, which another thread may have held at a fork whose child exits.
        static bool let_go_at_copy_end(thread_table& table) noexcept {
            bool none_left = true;
            for (bins_slot& slot : table.slot) {
                if (slot.resource == 0) continue;
                if (slot.bins->state.load(std::memory_order_acquire) == thread_bins::orphaned) {
                    thread_bins::destroy(slot.bins);
                    slot = {0, nullptr};
                } else {
                    none_left = false;
                }
            }
            return none_left;
        }
    };
    static void give_back_all_bins(thread_table& table) noexcept {
        for (bins_slot& slot : table.slot) give_back(slot);
    }
    using bins_table = detail::thread_cache<thread_table, &synchronized_multipool_resource::give_back_all_bins>;
    /// The calling thread's bins of every resource given back (raised limits and their budget with them).
    static void trim_own() noexcept {
        thread_table* const table = bins_table::existing_state();
        if (table == nullptr) return;
        const detail::owner_visit visit(*table);
        if (visit.inside()) give_back_all_bins(*table);
    }

    detail::spin_lock caches_lock_;
    thread_bins* caches_ = nullptr;
    const std::uint64_t id_ = next_id();

    static std::uint64_t next_id() noexcept {
        RELO_CONSTINIT static std::atomic<std::uint64_t> last{0};
        return last.fetch_add(1, std::memory_order_relaxed) + 1;
    }

    /// The calling thread's bins for this resource, or null (the thread is ending, or no memory for them).
    RELO_ALWAYS_INLINE thread_bins* own_bins() noexcept {
        thread_table& table = bins_table::state();
        if (RELO_LIKELY(table.slot[0].resource == id_)) return table.slot[0].bins;
        return find_own_bins(table);
    }

    /// Whether the calling thread's bins for this resource (in own) and the class of the request (in i) are
    /// found at once: a class from the table, and the bins of the resource the thread used last. (The slow
    /// paths find them otherwise.)
    RELO_ALWAYS_INLINE bool fast_bins(std::size_t bytes, std::size_t alignment, std::size_t& i,
                                      thread_bins*& own) const noexcept {
        if (RELO_UNLIKELY(!class_table().table_class_of(bytes, alignment, i))) return false;
        const thread_table* const table = bins_table::existing_state();
        if (RELO_UNLIKELY(table == nullptr || table->slot[0].resource != id_)) return false;
        own = table->slot[0].bins;  // (never null in a slot with a resource)
        return true;
    }

    /// allocate and deallocate, every case. (Templates on the checks' mode: a unit built with the hardened
    /// checks and one without, in one program, each keep their own, whatever the link order.)
    template <bool Checked>
    RELO_NOINLINE void* allocate_slowly(std::size_t bytes, std::size_t alignment) {
        const std::size_t i = class_table().class_of(bytes, alignment);
        if (RELO_UNLIKELY(i >= class_table().pool_count_)) return allocate_upstream(bytes, alignment);
        thread_bins* const own = own_bins();
        if (RELO_UNLIKELY(own == nullptr)) return allocate_from_shard(i);
        const bins_guard<Checked> g(*own);
        bin& b = own->bins()[i];
        return RELO_LIKELY(b.head != nullptr) ? pop(b, i) : refill_and_pop(*own, b, i);
    }
    template <bool Checked>
    RELO_NOINLINE void deallocate_slowly(void* block, std::size_t bytes, std::size_t alignment) noexcept {
        const std::size_t i = class_table().class_of(bytes, alignment);
        if (RELO_UNLIKELY(i >= class_table().pool_count_)) return deallocate_upstream(block, bytes, alignment);
        if constexpr (Checked) check_pool_block(block, i, alignment);
        thread_bins* const own = own_bins();
        if (RELO_UNLIKELY(own == nullptr)) return deallocate_to_shard(block, i);
        const bins_guard<Checked> g(*own);
        bin& b = own->bins()[i];
        if (RELO_UNLIKELY(push(b, block, i) > b.limit)) bin_overflows(*own, b, i);
    }

    RELO_NOINLINE thread_bins* find_own_bins(thread_table& table) noexcept {
        if (table.closed) return nullptr;
        for (std::size_t k = 1; k < thread_table::slots; ++k) {
            if (table.slot[k].resource == id_) {
                std::swap(table.slot[0], table.slot[k]);
                return table.slot[0].bins;
            }
        }
        thread_bins* t = take_vacant_bins();
        if (t == nullptr) return nullptr;
        give_back(table.slot[thread_table::slots - 1]);
        for (std::size_t k = thread_table::slots - 1; k > 0; --k) table.slot[k] = table.slot[k - 1];
        table.slot[0] = {id_, t};
        return t;
    }

    /// Vacant bins for the calling thread (acquire: as the thread that vacated them left them), or new ones.
    thread_bins* take_vacant_bins() noexcept {
        guard g(caches_lock_);
        for (thread_bins* t = caches_; t != nullptr; t = t->next) {
            unsigned char vacant = thread_bins::vacant;
            if (t->state.compare_exchange_strong(vacant, thread_bins::taken, std::memory_order_acquire,
                                                 std::memory_order_relaxed))
                return t;
        }
        thread_bins* const t = thread_bins::make(*this, class_table().pool_count_);
        if (t == nullptr) return nullptr;
        reset_limits(*t);
        t->state.store(thread_bins::taken, std::memory_order_relaxed);
        t->next = caches_;
        caches_ = t;
        return t;
    }

    /// Gives a slot's bins back (the calling thread's): their blocks to their resource's depots and the
    /// bins to the next thread that needs some, or, if the resource was destroyed (orphaned, its
    /// destructor's writes acquired), the bins to the heap.
    static void give_back(bins_slot& slot) noexcept {
        thread_bins* const t = slot.bins;
        slot = {0, nullptr};
        if (t == nullptr) return;
        for (;;) {
            unsigned char s = thread_bins::taken;
            if (t->state.compare_exchange_weak(s, thread_bins::vacating, std::memory_order_acquire,
                                               std::memory_order_acquire))
                break;
            if (s == thread_bins::orphaned) return thread_bins::destroy(t);
            if (s == thread_bins::settling &&
                t->state.compare_exchange_weak(s, thread_bins::left_settling, std::memory_order_relaxed))
                return;  // (release() empties them and makes them vacant)
        }
        t->resource->vacate(*t);
    }

    /// Holds bins t for release() (under caches_lock_): once no thread is giving them back, settling;
    /// returns the state to restore.
    static unsigned char settle(thread_bins& t) noexcept {
        unsigned char s = t.state.load(std::memory_order_acquire);
        for (;;) {
            if (s == thread_bins::vacating) {
                std::this_thread::yield();
                s = t.state.load(std::memory_order_acquire);
            } else if (t.state.compare_exchange_weak(s, thread_bins::settling, std::memory_order_acquire,
                                                     std::memory_order_acquire)) {
                return s;
            }
        }
    }

    /// At the resource's end, for bins t of its list: frees them if vacant (once their thread, if vacating
    /// them, is done), else orphans them, their raises' budget given back. (A taken bins' thread is not
    /// inside the resource: its last use came before the destructor, the caller's duty. It frees them at
    /// its next give-back; one that never gives them back leaks a few hundred bytes: a thread that neither
    /// ends nor moves to other resources, or one that a fork's child does not have.)
    static void orphan(thread_bins* t) noexcept {
        unsigned char s = t->state.load(std::memory_order_acquire);
        for (;;) {
            if (s == thread_bins::vacant) return thread_bins::destroy(t);
            if (s == thread_bins::vacating) {
                std::this_thread::yield();
                s = t->state.load(std::memory_order_acquire);
                continue;
            }
            // (taken: read before, since t is its thread's once orphaned; valid if the exchange succeeds,
            // as their thread writes it only while using the resource or once it took t to vacate)
            const std::size_t raised = t->raised_bytes.load(std::memory_order_relaxed);
            if (t->state.compare_exchange_weak(s, thread_bins::orphaned, std::memory_order_release,
                                               std::memory_order_acquire)) {
                detail::return_warm_budget(raised);
                return;
            }
        }
    }

    /// Empties t's bins into the depots and makes t vacant (t's thread no longer uses it).
    void vacate(thread_bins& t) noexcept {
        {
            const bins_guard<true> g(t);
            for (std::size_t i = 0; i < class_table().pool_count_; ++i) {
                bin& b = t.bins()[i];
                const std::size_t n = b.count.load(std::memory_order_relaxed);
                if (n != 0) give_to_depot(b.head, i, n);
                b.take(n);
                b.receive(-static_cast<std::ptrdiff_t>(n));
            }
            reset_limits(t);
        }
        t.state.store(thread_bins::vacant, std::memory_order_release);  // (neither t nor the resource touched after)
    }

    std::size_t size_of(std::size_t i) const noexcept { return class_table().pools_[i].size; }

    /// A block of bin b (class i), which has one.
    RELO_ALWAYS_INLINE void* pop(bin& b, std::size_t i) noexcept {
        b.take(1);
        return multipool_resource::pop_free(b.head, size_of(i));
    }

    /// Puts a block of class i on bin b, as a pool's free list holds it; the bin's count after.
    RELO_ALWAYS_INLINE std::size_t push(bin& b, void* block, std::size_t i) noexcept {
        multipool_resource::push_free(b.head, block, size_of(i));
        return b.add(1);
    }

    /// Bin b (class i) of t holds more than its limit: a batch goes to the depot, and is counted until the
    /// bin next runs empty (raise_limit). A limit raised past two batches comes down by a batch at every
    /// fourth overflow, as tcmalloc's: the thread now frees more of the class than it allocates.
    RELO_NOINLINE void bin_overflows(thread_bins& t, bin& b, std::size_t i) noexcept {
        give_batch_of_bin(b, i);
        if (b.given_back != UINT16_MAX) ++b.given_back;
        if (b.limit > 2 * batches_[i] && ++b.overflows > 3) {
            lower_limit(t, b, i, 1);
            b.overflows = 0;
        }
    }

    /// Bin b (class i) of t ran empty after it gave the depot batches: the thread takes back what it gave,
    /// so its limit rises by those batches (as tcmalloc's free lists grow when they run empty), while t's
    /// raises stay within raise_allowance and the process's warm-memory budget has room for them. So a
    /// thread that takes many blocks of a class and gives them back (a batch built and freed, a churn)
    /// keeps them in its bin, where they crossed the depot's lock twice a batch; a thread that only frees
    /// (what another allocated) never runs empty, and one that only allocates never gave any back: both
    /// keep two batches.
    void raise_limit(thread_bins& t, bin& b, std::size_t i) noexcept {
        const std::size_t batches = b.given_back;
        b.given_back = 0;
        if (batches == 0) return;
        const std::size_t batch_bytes = batches_[i] * size_of(i);
        const std::size_t raised = t.raised_bytes.load(std::memory_order_relaxed);
        std::size_t raise = batches;
        if (raise > (raise_allowance - raised) / batch_bytes) raise = (raise_allowance - raised) / batch_bytes;
        while (raise != 0 && !detail::take_warm_budget(raise * batch_bytes)) raise /= 2;  // (what the budget has room for)
        if (raise == 0) return;
        t.raised_bytes.store(raised + raise * batch_bytes, std::memory_order_relaxed);
        b.limit += static_cast<std::uint32_t>(raise * batches_[i]);
    }

    /// Bin b (class i) of t's limit down by `batches` batches it was raised by, their budget given back.
    void lower_limit(thread_bins& t, bin& b, std::size_t i, std::size_t batches) noexcept {
        const std::size_t bytes = batches * batches_[i] * size_of(i);
        b.limit -= static_cast<std::uint32_t>(batches * batches_[i]);
        t.raised_bytes.store(t.raised_bytes.load(std::memory_order_relaxed) - bytes, std::memory_order_relaxed);
        detail::return_warm_budget(bytes);
    }

    /// What one thread's bins of one resource may hold past two batches a class, when their limits rise:
    /// 4 MiB, tcmalloc's bound on a thread's cache, and within the process's warm-memory budget
    /// (relo/warm_memory.hpp) with every other cache (docs/measurements/memory_resources.md, "Blocks
    /// freed by the thread that allocated them").
    static constexpr std::size_t raise_allowance = std::size_t{4} << 20;

    /// Every bin of t back to two batches, the raises' budget given back.
    void reset_limits(thread_bins& t) noexcept {
        for (std::size_t c = 0; c < class_table().pool_count_; ++c) {
            bin& b = t.bins()[c];
            if (b.limit > 2 * batches_[c]) lower_limit(t, b, c, (b.limit - 2 * batches_[c]) / batches_[c]);
            b.limit = static_cast<std::uint32_t>(2 * batches_[c]);  // (new bins: from 0)
            b.overflows = 0;
            b.given_back = 0;
        }
    }

    /// A batch of bin b (class i), which holds more than two, to the depot.
    RELO_NOINLINE void give_batch_of_bin(bin& b, std::size_t i) noexcept {
        give_to_depot(b.head, i, batches_[i]);
        b.take(batches_[i]);
        b.receive(-static_cast<std::ptrdiff_t>(batches_[i]));
    }

    /// Fills the empty bin b (class i) with a batch: from the depot, or from the thread's shard (its free
    /// blocks, then its newest chunk, then a new chunk); and takes a block of it. Throws std::bad_alloc
    /// when the upstream does and nothing was found.
    RELO_NOINLINE void* refill_and_pop(thread_bins& t, bin& b, std::size_t i) {
        const std::size_t n = batches_[i];
        if (depots_[i].count.load(std::memory_order_relaxed) != 0) {
            const std::size_t got = take_from_depot(b.head, i, n);
            b.add(got);
            b.receive(static_cast<std::ptrdiff_t>(got));
        }
        if (b.head == nullptr) {
            shard& s = own_shard();
            guard g(s.lock);
            multipool_resource::pool& p = s.pool->pools_[i];
            std::size_t k = 0;
            for (; k < n; ++k) {
                if (p.free == nullptr && p.next == p.end && k != 0) break;  // (a new chunk only for the first)
                if (p.free != nullptr) --s.free_blocks[i];
                void* block = s.pool->allocate_in(i);  // (throws only for the first, with nothing taken)
                --p.in_use;  // (the bin counts its own)
                push(b, block, i);
            }
            b.receive(static_cast<std::ptrdiff_t>(k));
        }
        raise_limit(t, b, i);  // (once the refill succeeded: a refill that throws raises nothing)
        return pop(b, i);
    }


    static std::size_t shards_for(unsigned hardware_threads) noexcept {
        std::size_t n = 4;
        while (n < 2 * static_cast<std::size_t>(hardware_threads) && n < 64) n *= 2;
        return n;
    }

    /// The size classes, read by every thread: those of the shard that holds the upstream's blocks, whose
    /// pools are never used (a working shard's pools share cache lines with its free lists).
    const multipool_resource& class_table() const noexcept { return *classes_; }

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
    /// chunks may be in any thread's bin, a depot or any shard's free list (blocks move between them).
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
            is_free = on_list(depots_[i].head, block);
        }
        if (!RELO_ASAN && reads_as_free && !is_free) {
            // (The bins list only grows at its front, and a node's link never changes once listed: walked
            // without its lock, so that no lock is held while a check lock is waited for.)
            thread_bins* first = nullptr;
            {
                guard g(caches_lock_);
                first = caches_;
            }
            for (thread_bins* t = first; t != nullptr && !is_free; t = t->next) {
                const bins_guard<true> b(*t);
                is_free = on_list(t->bins()[i].head, block);
            }
        }
        RELO_EXPECTS_MSG(!is_free,
                         "relo::synchronized_multipool_resource::deallocate: %p (class of %zu bytes) is already free: "
                         "a double deallocation", block, bytes);
#endif
    }
    static bool on_list(const void* head, const void* block) noexcept {
        for (const void* f = head; f != nullptr; f = multipool_resource::link_of(f))
            if (f == block) return true;
        return false;
    }
};

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_SYNCHRONIZED_MULTIPOOL_RESOURCE_HPP
