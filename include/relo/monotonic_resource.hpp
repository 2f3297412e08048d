// relo/monotonic_resource.hpp — relo::monotonic_resource: bump allocation from an optional initial buffer,
// then from chunks of geometrically increasing size taken from an upstream resource, or from a
// relo::vm_arena (one contiguous reservation, no chunks). The monotonic allocator of P0089R0.
//
//     char buffer[4096];
//     relo::monotonic_resource mono(buffer, sizeof buffer);   // the stack first, then the default resource
//     std::pmr::vector<int> v(&mono);
//     relo::vector<int, relo::resource_allocator<int, relo::monotonic_resource>> w(&mono);  // grows in place
//     mono.release();                                          // everything back; the buffer is used again
//
// allocate() is inline: align the top of the current chunk and bump it. Deallocation does nothing, except
// that a block ending at the top is reclaimed (the most recent allocation, or one that became the top
// when those after it were given back); try_expand() grows or shrinks the block at the top in place, so a
// relo container on a resource_allocator over the resource grows without moving while it is the most
// recent block. release() gives every chunk back to the upstream in O(number of chunks) and starts again
// from the initial buffer (std::pmr::monotonic_buffer_resource's MSVC implementation does not, LWG 3120);
// so does the destructor. Objects in the resource are not destroyed by either ("winking out": only
// objects that own nothing but memory from this resource may be abandoned so).
//
// Chunks: the first holds `first_chunk` bytes (default below), each next one twice the last, up to
// max_chunk; a request larger than the next chunk gets a chunk of its own size (and the next one still
// doubles). A block whose size is a multiple of 1 KiB, aligned to at most a cache line, is followed by a
// cache line (64 bytes) left unused when more than a line is left after it in its chunk (top_after(); not
// on an arena): remaining() then drops by the block and the line, bytes_in_use() counts both, and a
// block that leaves a line or less takes the rest. The alignment given to try_expand() decides the same
// for the resized block.
// Every chunk is one upstream allocation at the alignment of std::max_align_t (a page at most is ever
// asked of the upstream: larger alignments are made inside a larger chunk). An upstream failure is std::bad_alloc and
// leaves the resource unchanged. Not thread-safe.
//
// In hardened builds (detail/contracts.hpp) deallocating a pointer the resource did not hand out, or one
// not aligned as the call says, traps with a message naming the block; the test takes O(log chunks)
// (detail/chunk_index.hpp).
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_MONOTONIC_RESOURCE_HPP
#define RELO_MONOTONIC_RESOURCE_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <new>

#include "relo/chunk_cache.hpp"
#include "relo/detail/bump.hpp"
#include "relo/detail/chunk_index.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/resource_base.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/detail/os_memory.hpp"
#include "relo/vm_arena.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// Bump allocation from an optional initial buffer, then from chunks of an upstream resource, or from a
/// vm_arena; deallocation reclaims only the block at the top, release() everything. This header's opening
/// comment (relo/monotonic_resource.hpp) says how chunks grow. Not thread-safe.
class monotonic_resource final : public detail::resource_base<monotonic_resource> {
public:
    /// The first chunk's size when none is given.
    static constexpr std::size_t default_first_chunk = std::size_t{4} << 10;
    /// The largest chunk growth makes (a larger request gets a chunk of its own size).
    static constexpr std::size_t max_chunk = std::size_t{64} << 20;

    /// Chunks from `upstream` (the default resource, i.e. the global heap unless the program set another).
    explicit monotonic_resource(std::pmr::memory_resource* upstream = std::pmr::get_default_resource()) noexcept
        : monotonic_resource(default_first_chunk, upstream) {}
    /// The first chunk holds `first_chunk` bytes (at least 64).
    explicit monotonic_resource(std::size_t first_chunk,
                                std::pmr::memory_resource* upstream = std::pmr::get_default_resource()) noexcept
        : upstream_(upstream), first_chunk_(first_chunk < 64 ? 64 : first_chunk), next_chunk_(first_chunk_) {}
    /// [buffer, buffer + size) first (e.g. on the stack; it must outlive the resource), then chunks from
    /// `upstream`, the first one of max(size, default_first_chunk) bytes.
    monotonic_resource(void* buffer, std::size_t size,
                       std::pmr::memory_resource* upstream = std::pmr::get_default_resource()) noexcept
        : monotonic_resource(size > default_first_chunk ? size : default_first_chunk, upstream) {
        buffer_ = static_cast<char*>(buffer);
        buffer_size_ = size;
        current_start_ = buffer_;
        top_ = buffer_;
        end_ = buffer_ + size;
        detail::poison(buffer_, buffer_size_);  // (nothing handed out yet)
    }
    /// Everything from `arena` (which must outlive the resource): no chunks; release() rewinds the arena to
    /// where it stood when the resource was made (so nothing else may rewind it below that meanwhile).
    explicit monotonic_resource(vm_arena* arena) noexcept
        : upstream_(nullptr), first_chunk_(0), next_chunk_(0), arena_(arena), arena_start_(arena->mark()),
          arena_used_at_start_(arena->used()) {}

    monotonic_resource(const monotonic_resource&) = delete;
    monotonic_resource& operator=(const monotonic_resource&) = delete;
    ~monotonic_resource() override {
        release();
        detail::unpoison(buffer_, buffer_size_);  // (the buffer is its owner's again)
    }

    /// `bytes` at a multiple of `alignment` (a power of two). Throws std::bad_alloc when the upstream (or the
    /// arena) does, or when the size cannot be represented; the resource is then unchanged.
    RELO_ALWAYS_INLINE void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        const std::size_t n = bytes != 0 ? bytes : 1;  // distinct blocks even for zero bytes
        if (void* p = detail::bump(top_, end_, n, alignment)) {
            if (RELO_UNLIKELY((n & 1023) == 0)) top_ = top_after(static_cast<char*>(p), n, alignment);
            detail::unpoison(p, n);
            return p;
        }
        return allocate_slow(n, alignment);
    }

    /// Reclaims the block when it ends at the top; otherwise nothing (release() gives it back).
    void deallocate(void* p, std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) noexcept {
        check_owned(p, alignment);
        const std::size_t n = bytes != 0 ? bytes : 1;
        if (arena_ != nullptr) {
            arena_->deallocate(p, n, alignment);
            return;
        }
        detail::poison(p, n);
        if (is_top_block(static_cast<char*>(p), n)) top_ = static_cast<char*>(p);
    }

    /// Resizes the block at p, of old_bytes, to new_bytes in place: true when it is the block at the top
    /// and its chunk (or the arena) has room; false, and nothing changed, otherwise. (The alignment, that of
    /// the allocation, decides only whether a cache line follows the block: top_after.)
    bool try_expand(void* p, std::size_t old_bytes, std::size_t new_bytes,
                    std::size_t alignment = alignof(std::max_align_t)) noexcept {
        if (arena_ != nullptr) return arena_->try_expand(p, old_bytes, new_bytes);
        char* const block = static_cast<char*>(p);
        if (old_bytes == 0 || !is_top_block(block, old_bytes)) return false;
        if (new_bytes == 0 || new_bytes > static_cast<std::size_t>(end_ - block)) return false;
        if (new_bytes > old_bytes) detail::unpoison(block + old_bytes, new_bytes - old_bytes);
        else detail::poison(block + new_bytes, old_bytes - new_bytes);
        top_ = top_after(block, new_bytes, alignment);
        return true;
    }

    /// Gives every chunk back to the upstream (O(number of chunks)) and starts again from the initial
    /// buffer; nothing is destroyed. Safe to repeat.
    void release() noexcept {
        if (arena_ != nullptr) {
            arena_->rewind(arena_start_);
            return;
        }
        ++chunk_epoch_;
        detail::chunk_return give_back(upstream_);
        while (chunks_ != nullptr) {
            chunk* const c = chunks_;
            chunks_ = c->previous;
            give_back(c, c->size, chunk_alignment);
        }
        detail::poison(buffer_, buffer_size_);
        top_ = buffer_;
        end_ = buffer_ == nullptr ? nullptr : buffer_ + buffer_size_;
        current_start_ = buffer_;
        next_chunk_ = first_chunk_;
        retired_in_use_ = 0;
        held_ = 0;
        chunk_count_ = 0;
    }

    // ---- Introspection.

    /// Bytes handed out and not reclaimed, alignment padding and the line after each whole-KiB block included
    /// (the arena's for an arena-backed one).
    std::size_t bytes_in_use() const noexcept {
        if (arena_ != nullptr) return arena_->used() - arena_used_at_start_;
        return retired_in_use_ + static_cast<std::size_t>(top_ - current_start_);
    }
    /// Bytes held from the upstream (the chunks, headers included).
    std::size_t upstream_bytes() const noexcept { return held_; }
    /// Chunks held from the upstream.
    std::size_t chunk_count() const noexcept { return chunk_count_; }
    /// Bytes left in the current chunk (or buffer).
    std::size_t remaining() const noexcept { return static_cast<std::size_t>(end_ - top_); }
    /// Where the chunks come from (null for an arena-backed resource).
    std::pmr::memory_resource* upstream_resource() const noexcept { return upstream_; }

private:
    struct chunk {
        chunk* previous;
        std::size_t size;  // as allocated from the upstream, this header included
    };
    static constexpr std::size_t chunk_alignment = alignof(std::max_align_t);
    static constexpr std::size_t header = (sizeof(chunk) + chunk_alignment - 1) / chunk_alignment * chunk_alignment;

    /// The top after a block at p of n bytes: its end, and a cache line more when n is a multiple of 1 KiB
    /// and the block is aligned to at most a line (as far as the chunk has room). Blocks of one such size,
    /// laid end to end, would all start in the same few cache sets, and a walk over many of them in step
    /// (buffers grown together, rows at a 4 KiB stride walked by column) missed the caches at every step, where
    /// the global heap's headers stagger its blocks (docs/measurements/memory_resources.md, "Blocks of one
    /// power-of-two size, walked in step"). A block aligned more lands in the same sets whatever follows.
    RELO_ALWAYS_INLINE char* top_after(char* p, std::size_t n, std::size_t alignment) const noexcept {
        char* const end = p + n;
        if ((n & 1023) != 0 || alignment > line) return end;
        return static_cast<std::size_t>(end_ - end) > line ? end + line : end_;
    }
    /// Whether the block at p of n bytes is the last one handed out in the current chunk: the top is its end,
    /// or within the line that may follow it (any later block starts past that line).
    bool is_top_block(const char* p, std::size_t n) const noexcept {
        if (p < current_start_ || p > top_) return false;
        const std::size_t to_top = static_cast<std::size_t>(top_ - p);
        return to_top == n || ((n & 1023) == 0 && to_top > n && to_top <= n + line);
    }
    static constexpr std::size_t line = 64;

    char* top_ = nullptr;
    char* end_ = nullptr;
    char* current_start_ = nullptr;  // where the current chunk's (or the buffer's) blocks start
    std::pmr::memory_resource* upstream_;
    std::size_t first_chunk_;
    std::size_t next_chunk_;
    chunk* chunks_ = nullptr;  // newest first
    char* buffer_ = nullptr;
    std::size_t buffer_size_ = 0;
    std::size_t retired_in_use_ = 0;  // bytes in use in the chunks before the current one
    std::size_t held_ = 0;
    std::size_t chunk_count_ = 0;
    vm_arena* arena_ = nullptr;
    vm_arena::marker arena_start_{};
    std::size_t arena_used_at_start_ = 0;
    std::size_t chunk_epoch_ = 0;      // how many times the chunks were given back (for chunk_index_)
    detail::chunk_index chunk_index_;  // (hardened checks only)

    RELO_NOINLINE void* allocate_slow(std::size_t bytes, std::size_t alignment) {
        if (arena_ != nullptr) return arena_->allocate(bytes, alignment);
        detail::check_block_size(bytes, alignment, header);
        // A chunk holds the header, the padding that alignment may need, and the block (no more than the
        // check counted: the alignment a power of two up to detail::max_block_alignment, nothing wraps).
        const std::size_t extra = header + (alignment > chunk_alignment ? alignment : 0);
        const std::size_t needed = bytes + extra;
        const std::size_t size = needed > next_chunk_ ? needed : next_chunk_;
        void* memory = detail::take_chunk(upstream_, size, chunk_alignment);  // may throw: nothing changed yet
        chunk* const c = static_cast<chunk*>(memory);
        c->previous = chunks_;
        c->size = size;
        chunks_ = c;
        held_ += size;
        ++chunk_count_;
        retired_in_use_ += static_cast<std::size_t>(top_ - current_start_);
        // (after a chunk of a request's own size too: requests that each outgrow the next chunk would
        // otherwise each take a chunk, one upstream allocation apiece, for good)
        if (next_chunk_ < max_chunk) next_chunk_ = next_chunk_ * 2 < max_chunk ? next_chunk_ * 2 : max_chunk;
        char* const first = static_cast<char*>(memory) + header;
        const std::uintptr_t start =
            (reinterpret_cast<std::uintptr_t>(first) + alignment - 1) & ~(std::uintptr_t{alignment} - 1);
        current_start_ = first;
        end_ = static_cast<char*>(memory) + size;  // (before top_after, which stops at it)
        top_ = top_after(reinterpret_cast<char*>(start), bytes, alignment);
        detail::poison(first, static_cast<std::size_t>(end_ - first));
        detail::unpoison(reinterpret_cast<void*>(start), bytes);
        return reinterpret_cast<void*>(start);
    }

    void check_owned(const void* p, std::size_t alignment) noexcept {
#if RELO_PRECONDITIONS_CHECKED
        if (arena_ != nullptr) return;  // (the arena checks its own blocks)
        const char* q = static_cast<const char*>(p);
        const bool in_buffer = buffer_ != nullptr && q >= buffer_ && q < buffer_ + buffer_size_;
        RELO_EXPECTS_MSG(in_buffer || chunk_index_.find(p, chunk_epoch_, chunks_,
                                                        [](const chunk* c) {
                                                            const char* first = reinterpret_cast<const char*>(c);
                                                            return detail::chunk_index::range{first + header,
                                                                                              first + c->size, c};
                                                        },
                                                        [](const chunk* c) { return static_cast<const chunk*>(c->previous); })
                                          .chunk != nullptr,
                         "relo::monotonic_resource::deallocate: %p is not a block of this resource", p);
        RELO_EXPECTS_MSG(reinterpret_cast<std::uintptr_t>(p) % alignment == 0,
                         "relo::monotonic_resource::deallocate: %p is not aligned to %zu, the alignment given", p,
                         alignment);
#else
        (void)p;
        (void)alignment;
#endif
    }
};

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_MONOTONIC_RESOURCE_HPP
