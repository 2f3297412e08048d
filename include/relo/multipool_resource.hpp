// relo/multipool_resource.hpp — relo::multipool_resource: pools of fixed-size blocks, one per size class,
// replenished by chunks from an upstream resource; larger requests go to the upstream. The multipool
// allocator of P0089R0.
//
//     relo::multipool_resource pool;                          // chunks from the default resource
//     std::pmr::unordered_set<int> s(&pool);
//     relo::monotonic_resource mono;
//     relo::multipool_resource over_mono(&mono);              // multipool backed by monotonic: composition
//     relo::resource_allocator<int, relo::multipool_resource> a(&pool);  // bound at compile time
//
// Size classes run from 8 bytes to `max_block` (options below): powers of two as in the paper, or
// `classes_per_doubling` classes between consecutive powers of two (fewer bytes lost to rounding, more
// pools). A request goes to the smallest class that holds it and whose blocks are aligned at least as
// asked (a block of a class of size s is aligned to the largest power of two dividing s, at most 4096);
// requests larger than max_block, or aligned more than any class can be, go to the upstream (and are
// still given back by release(); on the global heap they pass through the thread's chunk cache,
// relo/chunk_cache.hpp). A freed block goes back to its pool's free list. A pool's first chunk
// holds `first_blocks` blocks, each later chunk twice as many, up to `max_chunk` bytes. Chunks are
// requested at the alignment of std::max_align_t (the global heap's fast path); a class aligned more has
// its blocks aligned inside the chunk, which costs at most that alignment less 16 bytes per chunk.
//
// release() gives every chunk and every upstream block back, in O(chunks + upstream blocks); so does the
// destructor ("winking out": objects still in the resource are not destroyed, which is correct for those
// that own nothing but memory from it). The resource itself is under 1 KiB (a test checks): the pools
// live in it when there are at most 16 (the default options make 10); finer classes or larger blocks take
// a table of pools from the upstream when the resource is made, given back when it is destroyed. An
// upstream failure
// is std::bad_alloc and leaves the resource unchanged. Not thread-safe:
// relo::synchronized_multipool_resource is.
//
// In hardened builds (detail/contracts.hpp: RELO_HARDENED, the standard libraries' switches, or no NDEBUG)
// deallocate() traps, with a message naming the block, when it is not a block this resource handed out
// with that size and alignment, or when it is already free (a double deallocation). The test takes
// O(log chunks): the chunks are found in an index sorted by address, and a block given back twice is
// recognised by the mark a free block of 16 bytes or more carries in its second word in hardened builds,
// then confirmed on the free list. A block under 16 bytes has no room for it: it is taken for a free one
// when its first word reads as a free-list link (null, or the address of a block of its class), and the
// confirmation then walks the free list — O(free blocks) for blocks holding null or such an address.
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_MULTIPOOL_RESOURCE_HPP
#define RELO_MULTIPOOL_RESOURCE_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory_resource>
#include <new>
#include <stdexcept>

#include "relo/chunk_cache.hpp"
#include "relo/detail/chunk_index.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/resource_base.hpp"
#include "relo/detail/sanitizers.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

namespace detail {

/// A multipool's class for a request of n bytes (n <= its largest class), computed: 8 bytes, then 2^s
/// classes per doubling 2^e < n <= 2^(e+1), in steps of 2^(e-s).
constexpr std::size_t multipool_class_by_size(std::size_t n, unsigned s) noexcept {
    if (n <= 8) return 0;
    const unsigned e = floor_log2(n - 1);  // e >= 3
    // The m-th class above 2^e holds n for m = ceil((n - 2^e) / 2^(e-s)), which is ((n - 1) >> (e - s)) - 2^s + 1.
    return (std::size_t{e - 3} << s) + (((n - 1) >> (e - s)) + 1 - (std::size_t{1} << s));
}

/// The classes of the requests up to 1 KiB, looked up by (n - 1) / (8 / 2^s) (the finest step of the
/// classes): a row for each classes_per_doubling (128, 256 and 512 entries), shared by every resource. (The
/// arithmetic on the critical path of every allocate and deallocate was a large part of the time of blocks
/// replaced at random: docs/measurements/memory_resources.md, "The size class by a table".)
struct multipool_class_rows {
    static constexpr std::size_t limit = 1024;  // the largest request the rows answer
    static constexpr std::size_t row_of(unsigned s) noexcept { return (std::size_t{128} << s) - 128; }
    unsigned char index[128 + 256 + 512];
};
constexpr multipool_class_rows make_multipool_class_rows() noexcept {
    multipool_class_rows t{};
    for (unsigned s = 0; s < 3; ++s)
        for (std::size_t k = 0; k < (std::size_t{128} << s); ++k)
            t.index[multipool_class_rows::row_of(s) + k] =
                static_cast<unsigned char>(multipool_class_by_size((k + 1) << (3 - s), s));
    return t;
}
inline constexpr multipool_class_rows multipool_small_classes = make_multipool_class_rows();

/// A multipool's pool of one size class. (No member initializers: the pools past pool_count_ are never
/// touched, so making a resource writes only the pools it uses — the resource of a small structure is made
/// often. What can be derived is not kept: a class's alignment from its size, a pool's chunks from the
/// chunk list.)
struct multipool_pool {
    void* free;  // blocks given back, linked through their first word
    char* next;  // the newest chunk's blocks not handed out yet
    char* end;
    std::size_t size;
    std::size_t in_use;
    std::size_t next_blocks;  // in the pool's next chunk; 0 before its first (the options' first_blocks)
};

/// The size of a multipool's class i: 8 bytes, then 2^s classes per doubling 2^e < size <= 2^(e+1), in
/// steps of 2^(e-s).
constexpr std::size_t multipool_class_size(std::size_t i, unsigned s) noexcept {
    if (i == 0) return 8;
    const std::size_t doubling = (i - 1) >> s;  // from 0: 8 < size <= 16
    const std::size_t step = (i - 1) & ((std::size_t{1} << s) - 1);
    return (std::size_t{8} << doubling) + ((step + 1) << (3 + doubling - s));
}

/// Pool i of a multipool with 2^s classes per doubling, before its first chunk.
constexpr multipool_pool empty_multipool_pool(std::size_t i, unsigned s) noexcept {
    return multipool_pool{nullptr, nullptr, nullptr, multipool_class_size(i, s), 0, 0};
}

/// The empty pools a multipool starts with when they fit inside it (up to 16), one row per
/// classes_per_doubling: a resource copies its row (a resource per small structure is made often, and a
/// loop setting each pool was a measurable part of making it: docs/measurements/memory_resources.md,
/// "Making and destroying a multipool").
struct multipool_empty_pools {
    static constexpr std::size_t count = 16;
    multipool_pool row[3][count];
};
constexpr multipool_empty_pools make_multipool_empty_pools() noexcept {
    multipool_empty_pools t{};
    for (unsigned s = 0; s < 3; ++s)
        for (std::size_t i = 0; i < multipool_empty_pools::count; ++i) t.row[s][i] = empty_multipool_pool(i, s);
    return t;
}
inline constexpr multipool_empty_pools multipool_starting_pools = make_multipool_empty_pools();

}  // namespace detail

/// The settings of a multipool_resource (the defaults are measured in docs/measurements/memory_resources.md).
struct multipool_options {
    std::size_t max_block = 4096;          ///< the largest size class; larger requests go to the upstream
    std::size_t classes_per_doubling = 1;  ///< 1 (powers of two), 2 or 4
    std::size_t first_blocks = 8;          ///< blocks in a pool's first chunk
    std::size_t max_chunk = 64 << 10;      ///< a pool's chunks double up to this many bytes
};

class synchronized_multipool_resource;

/// Pools of fixed-size blocks, one per size class, replenished by chunks from an upstream resource; larger
/// requests go to the upstream. This header's opening comment (relo/multipool_resource.hpp) says how the
/// classes are made and what the hardened checks catch. Not thread-safe (synchronized_multipool_resource
/// is).
class multipool_resource final : public detail::resource_base<multipool_resource> {
public:
    /// What one pool holds (introspection).
    struct pool_stats {
        std::size_t block_size;     ///< its size class, in bytes
        std::size_t blocks_in_use;  ///< handed out and not given back
        std::size_t chunks;         ///< its chunks
        std::size_t bytes_held;     ///< its chunks, from the upstream
    };

    /// With the default options (multipool_options), chunks from `upstream`. Allocates nothing.
    explicit multipool_resource(std::pmr::memory_resource* upstream = std::pmr::get_default_resource())
        : multipool_resource(multipool_options{}, upstream) {}
    /// Throws std::invalid_argument for options outside their ranges (max_block from 8 to 1 MiB,
    /// classes_per_doubling 1, 2 or 4, first_blocks and max_chunk at least 1).
    explicit multipool_resource(const multipool_options& options,
                                std::pmr::memory_resource* upstream = std::pmr::get_default_resource())
        : upstream_(upstream), options_(options) {
        if (options.max_block < 8 || options.max_block > (std::size_t{1} << 20) || options.first_blocks == 0 ||
            options.max_chunk == 0 ||
            (options.classes_per_doubling != 1 && options.classes_per_doubling != 2 && options.classes_per_doubling != 4))
            detail::throw_invalid_argument("relo::multipool_resource: options out of range");
        per_doubling_shift_ = options.classes_per_doubling == 1 ? 0 : options.classes_per_doubling == 2 ? 1 : 2;
        // The classes: 8 bytes, then 2^s classes per doubling 2^e < size <= 2^(e+1), in steps of 2^(e-s).
        // (Counted and sized without a loop per class: a resource per small structure is made often.)
        const unsigned s = per_doubling_shift_;
        const unsigned top = detail::floor_log2(options.max_block);  // every doubling below 2^top is complete
        const std::size_t in_top = ((options.max_block - (std::size_t{1} << top)) << s) >> top;
        const std::size_t count = 1 + (std::size_t{top - 3} << s) + in_top;
        if (count > inline_pools)  // (finer classes or larger blocks than the defaults: a table from the upstream)
            pools_ = static_cast<pool*>(upstream_->allocate(count * sizeof(pool), alignof(pool)));
        pool_count_ = count;
        set_empty_pools();
        // Powers of two: the class that holds n >= alignment is a multiple of it (up to the natural
        // alignment's bound). Finer classes: 8 + 8 / 2^s is the least aligned.
        least_class_alignment_ = s == 0 ? max_natural_alignment : count > 1 ? std::size_t{8} >> s : 8;
        small_classes_ = detail::multipool_small_classes.index + detail::multipool_class_rows::row_of(s);
        small_class_shift_ = 3 - s;
        const std::size_t largest = pools_[count - 1].size;
        small_class_limit_ = std::min(largest, detail::multipool_class_rows::limit);
    }

    multipool_resource(const multipool_resource&) = delete;
    multipool_resource& operator=(const multipool_resource&) = delete;
    ~multipool_resource() override {
        give_back_chunks_and_upstream_blocks();  // (the pools need no resetting)
        if (pools_ != inline_pools_) upstream_->deallocate(pools_, pool_count_ * sizeof(pool), alignof(pool));
    }

    /// A block of at least `bytes` at a multiple of `alignment` (a power of two). Throws std::bad_alloc
    /// when the upstream does, or, before asking it, when no block holds `bytes` at `alignment`
    /// (detail::check_block_size); the resource is then unchanged.
    RELO_ALWAYS_INLINE void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        const std::size_t i = class_of(bytes, alignment);
        if (RELO_UNLIKELY(i >= pool_count_)) return allocate_upstream(bytes, alignment);
        return allocate_in(i);
    }

    /// Gives the block back to its pool (or to the upstream). bytes and alignment must be those of the
    /// allocation.
    RELO_ALWAYS_INLINE void deallocate(void* block, std::size_t bytes,
                                       std::size_t alignment = alignof(std::max_align_t)) noexcept {
        const std::size_t i = class_of(bytes, alignment);
        if (RELO_UNLIKELY(i >= pool_count_)) return deallocate_upstream(block, bytes, alignment);
        check_pool_block(block, i, alignment, "deallocate");
        push_free(block, i);
    }

    /// Resizes a block in place: true when the new size falls in the block's size class (nothing to do);
    /// false otherwise, and always for a block passed through to the upstream. (So a relo container's growth
    /// inside a class costs nothing.) old_bytes and alignment must be those of the allocation, as for
    /// deallocate(): they say which class holds the block. The alignment has no default: one that differs
    /// from the allocation's names another class, whose size the block may not have (a block of 1 byte at
    /// alignment 8 is in the 8-byte class; at max_align_t's 16, 9 bytes would have "fitted").
    bool try_expand(void* block, std::size_t old_bytes, std::size_t new_bytes, std::size_t alignment) noexcept {
        const std::size_t i = class_of(old_bytes, alignment);
        if (i >= pool_count_) return false;
        check_pool_block(block, i, alignment, "try_expand");
        return class_of(new_bytes, alignment) == i;
    }

    /// Gives every chunk and every upstream block back (O(chunks + upstream blocks)); the pools start
    /// again from their first chunk size. Nothing is destroyed. Safe to repeat.
    void release() noexcept {
        give_back_chunks_and_upstream_blocks();
        set_empty_pools();
    }

    // ---- Introspection.

    /// The number of size classes, one pool each (stats() takes an index below it).
    std::size_t pool_count() const noexcept { return pool_count_; }
    /// What pool `index` holds (index < pool_count()). O(chunks): the chunks are counted, not kept per
    /// pool.
    pool_stats stats(std::size_t index) const noexcept {
        const pool& p = pools_[index];
        pool_stats s{p.size, p.in_use, 0, 0};
        for (const chunk* c = chunks_; c != nullptr; c = c->previous)
            if (c->pool == index) {
                ++s.chunks;
                s.bytes_held += c->bytes;
            }
        return s;
    }
    /// Bytes handed out and not given back: blocks at their class's size, upstream blocks at theirs.
    std::size_t bytes_in_use() const noexcept {
        std::size_t total = upstream_bytes_;
        for (std::size_t i = 0; i < pool_count_; ++i) total += pools_[i].in_use * pools_[i].size;
        return total;
    }
    /// Bytes held from the upstream (chunks, the blocks passed through with their headers, and the table of
    /// pools when the options ask for more than 16 classes). O(chunks).
    std::size_t upstream_bytes() const noexcept {
        std::size_t total = upstream_held_ + (pools_ != inline_pools_ ? pool_count_ * sizeof(pool) : 0);
        for (const chunk* c = chunks_; c != nullptr; c = c->previous)
            if (c->base != nullptr) total += c->bytes;  // (a chunk cut from the first chunks' block: in it)
        return total;
    }
    /// Blocks passed through to the upstream and not given back.
    std::size_t upstream_blocks() const noexcept { return upstream_count_; }
    /// The options the resource was made with.
    const multipool_options& options() const noexcept { return options_; }
    /// Where the chunks and the larger blocks come from.
    std::pmr::memory_resource* upstream_resource() const noexcept { return upstream_; }

private:
    friend class synchronized_multipool_resource;

    /// A block on a free list holds the address of the next one in its first word. In hardened builds a
    /// block of 16 bytes or more also carries free_mark in its second word while it is free, and loses it
    /// when it is handed out: the checks' sign of a free block. (Only checks read the mark, so translation
    /// units built with checks and without share a resource safely; a block freed without checks just goes
    /// unrecognised. Writing it always was measurably slower: docs/measurements/memory_resources.md, "Making and
    /// destroying a multipool".) The words are copied with memcpy: a block of a finer class (10, 12, 20 bytes...) is
    /// aligned to 2 or 4 only.
    static constexpr std::uintptr_t free_mark = 0x9e3779b97f4a7c15u;
    static bool has_room_for_mark(std::size_t block_size) noexcept { return block_size >= 2 * sizeof(void*); }
    static std::uintptr_t word(const void* block, std::size_t k) noexcept {
        std::uintptr_t w;
        std::memcpy(&w, static_cast<const char*>(block) + k * sizeof w, sizeof w);
        return w;
    }
    static void set_word(void* block, std::size_t k, std::uintptr_t w) noexcept {
        std::memcpy(static_cast<char*>(block) + k * sizeof w, &w, sizeof w);
    }
    static void* link_of(const void* block) noexcept { return reinterpret_cast<void*>(word(block, 0)); }
    /// A block leaving the pool. Hardened builds wipe its mark, which it may carry from its last time on a
    /// free list, or from a chunk's earlier life (chunks are reused): a stale one would cost the check a walk.
    RELO_ALWAYS_INLINE static void* hand_out(std::size_t block_size, void* b) noexcept {
        if constexpr (RELO_PRECONDITIONS_CHECKED) {
            if (has_room_for_mark(block_size)) set_word(b, 1, 0);
        }
        (void)block_size;
        return b;
    }
    using pool = detail::multipool_pool;
    /// At the end of every chunk (after its blocks): the chunks of all pools form one list.
    /// (A pool's first chunk may be cut from the resource's block of first chunks, below: its base is then
    /// null, and it goes back with that block. The block itself is a chunk of no pool, pool_count_, with
    /// no blocks: its first_block is its header.)
    struct chunk {
        chunk* previous;
        void* base;         // as allocated from the upstream (null: cut from the block of first chunks)
        char* first_block;  // base, aligned up to the class's alignment
        std::size_t bytes;
        std::size_t pool;
    };
    /// The pools' first chunks (but the resource's very first) are cut from one block of this many bytes,
    /// while it has room, when they are at most half of it: a resource made for a small structure took a
    /// chunk from the upstream, and gave it back, for every class its structure went through (a vector<int>
    /// growing to 64 elements: six). (docs/measurements/memory_resources.md, "First chunks from one block".)
    static constexpr std::size_t first_chunks_block = 2048;
    /// Every chunk is asked of the upstream at this alignment (the global heap's fast path).
    static constexpr std::size_t chunk_alignment = alignof(std::max_align_t);
    /// In front of every block passed through to the upstream: they form a doubly-linked list.
    struct upstream_block {
        upstream_block* previous;
        upstream_block* next;
        std::size_t total;      // as allocated from the upstream
        std::size_t alignment;  // as asked of the upstream
        std::size_t offset;     // from the upstream's pointer to the end of this header (the block)
        std::size_t magic;
    };
    static constexpr std::size_t upstream_magic = 0x6d756c7469706f6fu;  // checked in hardened builds

    std::pmr::memory_resource* upstream_;
    multipool_options options_;
    // The pools: inside the resource up to inline_pools of them (the default options use 10), so that a
    // resource made per data structure or per subsystem stays small (under 1 KiB); more come from the upstream.
    static constexpr std::size_t inline_pools = detail::multipool_empty_pools::count;
    // (Only the first pool_count_ are set. On a 64-byte boundary: the constructor copies them in 64-byte
    // moves, which split across cache lines elsewhere and stalled the first allocate that read its pool.)
    alignas(64) pool inline_pools_[inline_pools];
    pool* pools_ = inline_pools_;
    std::size_t pool_count_ = 0;
    unsigned per_doubling_shift_ = 0;
    std::size_t least_class_alignment_ = 8;  // every request aligned to at most this fits its class's alignment
    const unsigned char* small_classes_ = nullptr;  // detail::multipool_small_classes' row for these classes
    unsigned small_class_shift_ = 3;               // its step: 8 >> per_doubling_shift_ bytes, as a shift
    std::size_t small_class_limit_ = 0;            // the largest request it answers
    chunk* chunks_ = nullptr;
    char* first_chunks_next_ = nullptr;  // the room left in the block of first chunks
    char* first_chunks_end_ = nullptr;
    upstream_block* upstream_list_ = nullptr;
    std::size_t chunk_epoch_ = 0;  // how many times the chunks were given back (for chunk_index_)
    detail::chunk_index chunk_index_;  // (hardened checks only)
    std::size_t upstream_bytes_ = 0;
    std::size_t upstream_held_ = 0;
    std::size_t upstream_count_ = 0;

    /// A class's blocks are aligned to the largest power of two dividing their size, up to this (a fixed
    /// bound: the OS page size does not enter into it).
    static constexpr std::size_t max_natural_alignment = 4096;
    static std::size_t natural_alignment(std::size_t size) noexcept {
        const std::size_t lowest = size & (~size + 1);
        return lowest < max_natural_alignment ? lowest : max_natural_alignment;
    }

    /// Every pool as before its first chunk: the pools inside the resource copied from
    /// detail::multipool_starting_pools, a table from the upstream set one by one.
    RELO_ALWAYS_INLINE void set_empty_pools() noexcept {
        const unsigned s = per_doubling_shift_;
        if (pools_ == inline_pools_)
            std::memcpy(inline_pools_, detail::multipool_starting_pools.row[s], pool_count_ * sizeof(pool));
        else
            for (std::size_t i = 0; i < pool_count_; ++i) pools_[i] = detail::empty_multipool_pool(i, s);
    }

    /// The class for a request, or pool_count_ when it goes to the upstream.
    RELO_ALWAYS_INLINE std::size_t class_of(std::size_t bytes, std::size_t alignment) const noexcept {
        const std::size_t n = bytes > alignment ? bytes : alignment;
        // (n - 1 indexes the table anyway: n = 0, zero bytes at alignment 0, goes out of line, not before it.)
        if (RELO_UNLIKELY(n - 1 >= small_class_limit_)) return class_of_larger(n, alignment);
        return aligned_class(small_classes_[(n - 1) >> small_class_shift_], alignment);
    }

    /// class_of where the table alone answers (a request within it, whose class is aligned enough): true,
    /// and the class in i; false otherwise (class_of answers).
    RELO_ALWAYS_INLINE bool table_class_of(std::size_t bytes, std::size_t alignment, std::size_t& i) const noexcept {
        const std::size_t n = bytes > alignment ? bytes : alignment;
        if (RELO_UNLIKELY(n - 1 >= small_class_limit_)) return false;
        i = small_classes_[(n - 1) >> small_class_shift_];  // (below pool_count_: the table ends at a class)
        return aligned_enough(i, alignment);
    }

    /// Whether class i's blocks are aligned to `alignment` (a finer class may not be: 40 bytes are aligned
    /// to 8, 12 bytes to 4).
    RELO_ALWAYS_INLINE bool aligned_enough(std::size_t i, std::size_t alignment) const noexcept {
        return !(RELO_UNLIKELY(alignment > least_class_alignment_) && natural_alignment(pools_[i].size) < alignment);
    }

    /// Class i, or when its blocks are less aligned than asked the first class above it that is.
    RELO_ALWAYS_INLINE std::size_t aligned_class(std::size_t i, std::size_t alignment) const noexcept {
        if (!aligned_enough(i, alignment)) return aligned_class_from(i, alignment);
        return i;
    }

    /// class_of for the requests past the table: computed, out of line (so that the inline fast paths
    /// stay small enough for the compiler to inline their callers in turn).
    RELO_NOINLINE std::size_t class_of_larger(std::size_t n, std::size_t alignment) const noexcept {
        if (n > options_.max_block || alignment == 0) return pool_count_;  // (alignment 0: refused upstream)
        const std::size_t i = detail::multipool_class_by_size(n, per_doubling_shift_);
        return i < pool_count_ ? aligned_class(i, alignment) : pool_count_;
    }

    /// The first class from i on whose blocks are aligned to `alignment`, or pool_count_.
    RELO_NOINLINE std::size_t aligned_class_from(std::size_t i, std::size_t alignment) const noexcept {
        while (i < pool_count_ && natural_alignment(pools_[i].size) < alignment) ++i;
        return i;
    }

    RELO_NOINLINE void* replenish(std::size_t i) {
        pool& p = pools_[i];
        // The pool's next chunk size, or as many blocks as max_chunk holds (at least one) once it would pass
        // it: divided only then (a division on every replenish slowed a resource made per block:
        // docs/measurements/memory_resources.md, "Making and destroying a multipool"). A class holds at most 1 MiB, so blocks * p.size cannot
        // overflow under the first test's bound.
        const bool first_chunk = p.next_blocks == 0;
        const std::size_t planned = first_chunk ? options_.first_blocks : p.next_blocks;
        std::size_t blocks = planned;
        if (blocks > (SIZE_MAX >> 20) || blocks * p.size > options_.max_chunk)
            blocks = options_.max_chunk / p.size > 0 ? options_.max_chunk / p.size : 1;
        const std::size_t block_alignment = natural_alignment(p.size);
        const std::size_t slack = block_alignment > chunk_alignment ? block_alignment - chunk_alignment : 0;
        const std::size_t header_at =
            (slack + blocks * p.size + alignof(chunk) - 1) / alignof(chunk) * alignof(chunk);
        const std::size_t bytes = header_at + sizeof(chunk);
        char* base;
        bool cut = false;  // from the block of first chunks
        try {
            base = first_chunk && chunks_ != nullptr ? cut_first_chunk(bytes) : nullptr;
            cut = base != nullptr;
            if (!cut) base = static_cast<char*>(detail::take_chunk(upstream_, bytes, chunk_alignment));
        } catch (...) {
            --p.in_use;  // (counted by allocate before it came here)
            throw;
        }
        char* const first = base + ((std::uintptr_t{0} - reinterpret_cast<std::uintptr_t>(base)) & (block_alignment - 1));
        add_chunk(base + header_at, cut ? nullptr : base, first, bytes, i);
        p.next_blocks = blocks == planned ? blocks * 2 : planned;  // (past max_chunk: stays capped)
        p.next = first + p.size;
        p.end = first + blocks * p.size;
        detail::poison(p.next, static_cast<std::size_t>(p.end - p.next));  // (blocks not handed out yet)
        return hand_out(p.size, first);
    }

    /// Puts a chunk's header at `at` (the end of its blocks) and the chunk at the head of the list.
    void add_chunk(char* at, void* base, char* first_block, std::size_t bytes, std::size_t pool_index) noexcept {
        auto* c = reinterpret_cast<chunk*>(at);
        c->previous = chunks_;
        c->base = base;
        c->first_block = first_block;
        c->bytes = bytes;
        c->pool = pool_index;
        chunks_ = c;
    }

    /// `bytes` (a pool's first chunk, not the resource's first) from the block of first chunks: a new block
    /// when the one in use has no room left for them; null when they are more than half a block.
    /// Throws what the upstream throws.
    char* cut_first_chunk(std::size_t bytes) {
        if (bytes > first_chunks_block / 2) return nullptr;
        const std::size_t step = (bytes + chunk_alignment - 1) / chunk_alignment * chunk_alignment;  // (the next at 16)
        if (static_cast<std::size_t>(first_chunks_end_ - first_chunks_next_) < step) {
            char* const block = static_cast<char*>(detail::take_chunk(upstream_, first_chunks_block, chunk_alignment));
            char* const header = block + first_chunks_block - sizeof(chunk);
            add_chunk(header, block, header, first_chunks_block, pool_count_);  // (no blocks: an empty range)
            first_chunks_next_ = block;
            first_chunks_end_ = header;
            detail::poison(block, first_chunks_block - sizeof(chunk));  // (not cut yet)
        }
        char* const cut = first_chunks_next_;
        first_chunks_next_ += step;
        detail::unpoison(cut, bytes);
        return cut;
    }

    /// Every chunk and every upstream block back to the upstream; the pools are left as they were.
    void give_back_chunks_and_upstream_blocks() noexcept {
        ++chunk_epoch_;
        detail::chunk_return give_back(upstream_);
        while (chunks_ != nullptr) {
            chunk* const c = chunks_;
            chunks_ = c->previous;
            if (c->base != nullptr) give_back(c->base, c->bytes, chunk_alignment);
        }
        first_chunks_next_ = first_chunks_end_ = nullptr;
        while (upstream_list_ != nullptr) {
            upstream_block* const l = upstream_list_;
            upstream_list_ = l->next;
            give_back(reinterpret_cast<char*>(l) + sizeof(upstream_block) - l->offset, l->total, l->alignment);
        }
        upstream_bytes_ = 0;
        upstream_held_ = 0;
        upstream_count_ = 0;
    }

    // Blocks passed through to the global heap take the chunks' way too (detail::take_chunk, give_back_chunk):
    // a hash table's bucket arrays, freed and made again of the same sizes by the next structure, would
    // otherwise leave the heap's top free for glibc to trim, and be faulted in again each time.
    RELO_NOINLINE void* allocate_upstream(std::size_t bytes, std::size_t alignment) {
        detail::check_block_size(bytes, alignment, sizeof(upstream_block));  // (before the alignment is used)
        const std::size_t align = alignment > alignof(upstream_block) ? alignment : alignof(upstream_block);
        const std::size_t offset = (sizeof(upstream_block) + align - 1) / align * align;
        const std::size_t total = offset + (bytes != 0 ? bytes : 1);  // (zero bytes: a distinct block all the same)
        char* const raw = static_cast<char*>(detail::take_chunk(upstream_, total, align));
        auto* l = reinterpret_cast<upstream_block*>(raw + offset - sizeof(upstream_block));
        l->previous = nullptr;
        l->next = upstream_list_;
        if (upstream_list_ != nullptr) upstream_list_->previous = l;
        l->total = total;
        l->alignment = align;
        l->offset = offset;
        l->magic = upstream_magic;
        upstream_list_ = l;
        upstream_bytes_ += bytes;
        upstream_held_ += total;
        ++upstream_count_;
        return raw + offset;
    }

    RELO_NOINLINE void deallocate_upstream(void* block, std::size_t bytes, std::size_t alignment) noexcept {
        auto* l = reinterpret_cast<upstream_block*>(static_cast<char*>(block) - sizeof(upstream_block));
#if RELO_PRECONDITIONS_CHECKED
        const std::size_t align = alignment > alignof(upstream_block) ? alignment : alignof(upstream_block);
        RELO_EXPECTS_MSG(l->magic == upstream_magic && l->total - l->offset == (bytes != 0 ? bytes : 1) && l->alignment == align,
                         "relo::multipool_resource::deallocate: %p (%zu bytes, alignment %zu) is not a block it "
                         "passed to the upstream with that size and alignment, or it was given back already",
                         block, bytes, alignment);
#else
        (void)alignment;
#endif
        if (l->previous != nullptr) l->previous->next = l->next;
        else upstream_list_ = l->next;
        if (l->next != nullptr) l->next->previous = l->previous;
        upstream_bytes_ -= bytes;
        upstream_held_ -= l->total;
        --upstream_count_;
        l->magic = 0;
        detail::give_back_chunk(upstream_, static_cast<char*>(block) - l->offset, l->total, l->alignment);
    }

    /// Puts a block of class i on this pool's free list, wherever it was allocated (the synchronized
    /// resource puts blocks of any shard's chunks on a shard's list: a batch from the depot, or a block
    /// freed by a thread that is ending; every shard has the same classes).
    /// A block of pool i (a class of this resource): from its free list, or the rest of its newest chunk,
    /// or a new chunk.
    RELO_ALWAYS_INLINE void* allocate_in(std::size_t i) {
        pool& p = pools_[i];
        ++p.in_use;
        if (p.free != nullptr) return pop_free(p.free, p.size);
        if (RELO_LIKELY(p.next != p.end)) {
            void* b = p.next;
            p.next += p.size;
            detail::unpoison(b, p.size);
            return hand_out(p.size, b);
        }
        return replenish(i);
    }

    void push_free(void* block, std::size_t i) noexcept {
        pool& p = pools_[i];
        --p.in_use;  // (per shard it may wrap; the sum over shards is right)
        push_free(p.free, block, p.size);
    }

    // A free list of blocks of one size, headed by `head`: each linked through its first word, marked in
    // hardened builds, poisoned under AddressSanitizer. (Also the synchronized resource's bins.)
    RELO_ALWAYS_INLINE static void push_free(void*& head, void* block, std::size_t block_size) noexcept {
        set_word(block, 0, reinterpret_cast<std::uintptr_t>(head));
        if constexpr (RELO_PRECONDITIONS_CHECKED) {
            if (has_room_for_mark(block_size)) set_word(block, 1, free_mark);
        }
        head = block;
        detail::poison(block, block_size);
    }
    /// The first block of a non-empty free list, taken off it, ready to hand out.
    RELO_ALWAYS_INLINE static void* pop_free(void*& head, std::size_t block_size) noexcept {
        void* b = head;
        detail::unpoison(b, block_size);
        head = link_of(b);
        return hand_out(block_size, b);
    }

    // ---- Hardened checks (O(log chunks)).

    /// The chunk that holds block, or nullptr.
    const chunk* chunk_of(const void* block) noexcept {
        const detail::chunk_index::range r = chunk_index_.find(
            block, chunk_epoch_, chunks_,
            [](const chunk* c) {
                return detail::chunk_index::range{c->first_block, reinterpret_cast<const char*>(c), c};
            },
            [](const chunk* c) { return static_cast<const chunk*>(c->previous); });
        return static_cast<const chunk*>(r.chunk);
    }

    /// Whether block is a block of pool i that this resource handed out at some time: in one of the
    /// pool's chunks, at a block boundary, and not past the newest chunk's blocks never handed out.
    bool holds_block_of(const void* block, std::size_t i) noexcept { return holds_block_of(chunk_of(block), block, i); }
    /// The same, for the chunk c that holds block (or nullptr).
    bool holds_block_of(const chunk* c, const void* block, std::size_t i) const noexcept {
        if (c == nullptr || c->pool != i) return false;
        const char* b = static_cast<const char*>(block);
        const pool& p = pools_[i];
        if (static_cast<std::size_t>(b - c->first_block) % p.size != 0) return false;
        return !(b >= p.next && b < p.end);
    }

    /// Whether block looks free: it carries free_mark (blocks of 16 bytes or more), or its first word reads
    /// as a link of pool i's free list (to null or a block of the pool). True for every free block; for a
    /// block in use only if its words happen to read so — on_free_list decides.
    bool reads_as_free(const void* block, std::size_t i) noexcept {
        if (has_room_for_mark(pools_[i].size)) return word(block, 1) == free_mark;
        const void* next = link_of(block);
        return next == nullptr || holds_block_of(next, i);
    }

    /// Whether block, a block of pool i, is free. Under AddressSanitizer free blocks are poisoned: O(1).
    bool is_free_block(const void* block, std::size_t i) noexcept {
        if constexpr (RELO_ASAN) return detail::is_poisoned(block);
        return reads_as_free(block, i) && on_free_list(block, i);
    }

    /// Whether block is on pool i's free list: O(free blocks), only run when reads_as_free.
    bool on_free_list(const void* block, std::size_t i) const noexcept {
        for (const void* f = pools_[i].free; f != nullptr; f = link_of(f))
            if (f == block) return true;
        return false;
    }

    // (The parameters are unused where preconditions are not checked.)
    /// The hardened checks of deallocate() and try_expand() (`operation`): block is a block of this
    /// resource, of class i at that alignment, and in use.
    void check_pool_block([[maybe_unused]] void* block, [[maybe_unused]] std::size_t i,
                          [[maybe_unused]] std::size_t alignment, [[maybe_unused]] const char* operation) noexcept {
#if RELO_PRECONDITIONS_CHECKED
        const std::size_t bytes = pools_[i].size;
        const chunk* const c = chunk_of(block);
        RELO_EXPECTS_MSG(c != nullptr, "relo::multipool_resource::%s: %p is not a block of this resource", operation,
                         block);
        RELO_EXPECTS_MSG(holds_block_of(c, block, i) && reinterpret_cast<std::uintptr_t>(block) % alignment == 0,
                         "relo::multipool_resource::%s: %p is not a block of the %zu-byte class at alignment %zu "
                         "(another size or alignment than the allocation's)", operation, block, bytes, alignment);
        const bool freeing = operation[0] == 'd';  // (deallocate)
        RELO_EXPECTS_MSG(!is_free_block(block, i), "relo::multipool_resource::%s: %p (class of %zu bytes) is already free%s",
                         operation, block, bytes, freeing ? ": a double deallocation" : "");
#endif
    }
};

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_MULTIPOOL_RESOURCE_HPP
