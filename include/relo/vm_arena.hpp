// relo/vm_arena.hpp — relo::vm_arena: a bump allocator over one reservation of address space, without
// chunks, committing pages as it fills; also a std::pmr::memory_resource.
//
//     relo::vm_arena arena(std::size_t{1} << 30);             // 1 GiB of address space, nothing committed
//     void* p = arena.allocate(100, 16);                     // inline: align the top, bump it
//     std::pmr::vector<int> v(&arena);                       // std::pmr containers run on it
//     relo::vector<int, relo::resource_allocator<int, relo::vm_arena>> w(&arena);  // grows in place at the top
//     auto m = arena.mark();  /* ... */  arena.rewind(m);    // drop everything allocated since the mark
//     arena.reset();                                         // O(1), whatever was allocated
//
// Allocation bumps a pointer; the pages behind it are committed by the commit policy's steps (the code of
// relo::pinned_vector: detail/reservation.hpp), so the memory in use stays close to what was allocated.
// Everything past the committed end is inaccessible, and so is a guard page after the reservation.
// Deallocation does nothing, except that a block that ends at the top (the most recent allocation, or
// one that became the top when those after it were given back) is reclaimed. try_expand() grows or
// shrinks the block at the top in place: a relo::vector on a relo::resource_allocator over the arena
// then grows without moving while it is the arena's most recent block.
//
// Exhausting the reservation, or a commit the system refuses, is std::bad_alloc. Alignments are any
// power of two (the reservation starts on a page boundary). An arena is neither copyable nor movable
// (containers hold its address), and not thread-safe. reset() and the destructor take O(1) time in the
// number of allocations; objects still in the arena are not destroyed ("winking out": only objects whose
// destructors have no effect beyond giving memory back to this arena may be abandoned).
//
// In hardened builds (detail/contracts.hpp) deallocating a block that is not the arena's, or one not
// aligned as the call says, and a rewind to a mark above the top, trap with a message naming the block.
// (A block beyond the top, given back by a container destroyed after a rewind or reset, is ignored.)
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_VM_ARENA_HPP
#define RELO_VM_ARENA_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <new>

#include "relo/commit_policy.hpp"
#include "relo/detail/bump.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/resource_base.hpp"
#include "relo/detail/reservation.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/warm_memory.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// A bump allocator over one reservation of address space, committing pages as it fills; also a
/// std::pmr::memory_resource. Neither copyable nor movable, not thread-safe; this header's opening comment
/// (relo/vm_arena.hpp) says how it commits and what the hardened checks catch.
class vm_arena final : public detail::resource_base<vm_arena> {
    using reservation = detail::reservation;

public:
    /// What reset() gives back to the system.
    enum class give_back {
        nothing,      ///< every committed page stays committed (and resident, where it was written)
        beyond_slack, ///< pages beyond max(2 x the most used since the last reset, the policy's retained minimum)
        everything,   ///< every page
    };

    /// A point to rewind() to.
    class marker {
        friend class vm_arena;
        char* top_ = nullptr;
    };

    /// The address space a default-constructed arena reserves (16 GiB on 64-bit systems).
    static constexpr std::size_t default_reservation = std::size_t{1} << (sizeof(void*) >= 8 ? 34 : 28);

    /// Reserves default_reservation bytes, halved until it fits where the address space is limited; commits
    /// nothing (but what a cached reservation brings: the destructor). O(1); throws std::bad_alloc when not
    /// even a page can be reserved.
    vm_arena() : vm_arena(default_reservation, geometric_commit::rule, true) {}
    /// Reserves `bytes` (rounded up to whole pages) and a guard page after them, O(1), or takes a cached
    /// reservation of that size (the destructor); throws std::bad_alloc naming the size when the system refuses. Pages are committed by `rule`
    /// (relo/commit_policy.hpp).
    explicit vm_arena(std::size_t bytes, const commit_rule& rule = geometric_commit::rule)
        : vm_arena(bytes, rule, false) {}

    vm_arena(const vm_arena&) = delete;
    vm_arena& operator=(const vm_arena&) = delete;
    /// Gives the reservation back, O(1) in the number of allocations; objects still in it are not
    /// destroyed. The thread's reservation cache (relo/warm_memory.hpp) keeps it, with its first pages
    /// committed, for the next arena or pinned_vector of its size and rule; otherwise it is unmapped.
    ~vm_arena() override {
        detail::unpoison(base_, committed_);  // (the pages may be anyone's next)
        reservation::release_to_cache(base_, reserved_, committed_, rule_);
    }

    /// `bytes` at a multiple of `alignment` (a power of two), O(1) and inline. Throws std::bad_alloc when the reservation is
    /// used up or the system refuses a commit (the arena is then unchanged). Zero bytes take one: every block
    /// is distinct, as operator new's are.
    RELO_ALWAYS_INLINE void* allocate(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) {
        const std::size_t n = bytes != 0 ? bytes : 1;  // distinct blocks even for zero bytes (as operator new)
        if (void* p = detail::bump(top_, committed_end_, n, alignment)) {
            detail::unpoison(p, n);
            return p;
        }
        return allocate_committing(n, alignment);
    }

    /// O(1), never throws: reclaims the block when it ends at the top (the most recent allocation, or one
    /// that became the top when those after it were given back); otherwise does nothing (reset() gives it
    /// back). Through std::pmr::memory_resource, do_allocate and do_deallocate are allocate and
    /// deallocate, and do_is_equal is identity.
    void deallocate(void* p, std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) noexcept {
        RELO_EXPECTS_MSG(static_cast<char*>(p) >= base_ && static_cast<char*>(p) <= base_ + reserved_ &&
                             bytes <= static_cast<std::size_t>(base_ + reserved_ - static_cast<char*>(p)),
                         "relo::vm_arena::deallocate: %p (%zu bytes) is not a block of this arena", p, bytes);
        RELO_EXPECTS_MSG(reinterpret_cast<std::uintptr_t>(p) % alignment == 0,
                         "relo::vm_arena::deallocate: %p is not aligned to %zu, the alignment given", p, alignment);
        (void)alignment;
        const std::size_t n = bytes != 0 ? bytes : 1;
        if (static_cast<char*>(p) + n > top_) return;  // (beyond the top: given back by a rewind or reset)
        detail::poison(p, n);
        if (static_cast<char*>(p) + n == top_) lower_top(static_cast<char*>(p));
    }

    /// Resizes the block at p, of old_bytes, to new_bytes in place: true when it is the block at the top
    /// and the reservation has room (committing pages as needed); false, and nothing changed, otherwise.
    /// (The alignment, that of the allocation, does not matter here: it is taken for the same signature as
    /// every resource's.)
    bool try_expand(void* p, std::size_t old_bytes, std::size_t new_bytes,
                    std::size_t /*alignment*/ = alignof(std::max_align_t)) noexcept {
        char* const block = static_cast<char*>(p);
        if (old_bytes == 0 || new_bytes == 0 || block + old_bytes != top_) return false;  // (zero: held as one byte)
        const std::size_t offset = static_cast<std::size_t>(block - base_);
        if (new_bytes > reserved_ - offset) return false;
        if (new_bytes < old_bytes) {
            lower_top(block + new_bytes);
            return true;
        }
        if (offset + new_bytes > committed_ && !commit_noexcept(offset + new_bytes)) return false;
        top_ = block + new_bytes;
        detail::unpoison(block + old_bytes, new_bytes - old_bytes);
        return true;
    }

    /// The top, to rewind() to later.
    marker mark() const noexcept {
        marker m;
        m.top_ = top_;
        return m;
    }
    /// Gives back everything allocated since m was taken (in O(1); nothing is destroyed). Precondition: m
    /// is a mark of this arena not older than the last reset(), and no rewind() went below it since.
    void rewind(marker m) noexcept {
        RELO_EXPECTS_MSG(m.top_ >= base_ && m.top_ <= top_,
                         "relo::vm_arena::rewind: the mark (%p) is not between the start (%p) and the top (%p)",
                         static_cast<void*>(m.top_), static_cast<void*>(base_), static_cast<void*>(top_));
        lower_top(m.top_);
    }

    /// Gives back every allocation (in O(1); nothing is destroyed), and the pages `what` says.
    void reset(give_back what = give_back::beyond_slack) noexcept {
        const std::size_t most_used = static_cast<std::size_t>((high_water_ > top_ ? high_water_ : top_) - base_);
        detail::poison(base_, static_cast<std::size_t>(top_ - base_));
        top_ = base_;
        high_water_ = base_;
        switch (what) {
            case give_back::nothing:
                break;
            case give_back::beyond_slack:
                set_committed(reservation::trim(base_, committed_, most_used, rule_));
                break;
            case give_back::everything:
                set_committed(reservation::decommit_beyond(base_, committed_, 0, rule_));
                break;
        }
    }

    /// The bytes of address space reserved (without the guard page).
    std::size_t reserved() const noexcept { return reserved_; }
    /// The bytes readable and writable.
    std::size_t committed() const noexcept { return committed_; }
    /// The bytes from the start of the reservation to the top (allocations and their alignment padding).
    std::size_t used() const noexcept { return static_cast<std::size_t>(top_ - base_); }

private:
    char* top_ = nullptr;
    char* committed_end_ = nullptr;
    char* base_ = nullptr;
    char* high_water_ = nullptr;  // the highest top since the last reset, as of the last time top went down
    std::size_t committed_ = 0;
    std::size_t reserved_ = 0;
    commit_rule rule_;

    /// The reservation comes from the thread's reservation cache when it holds one of this size and rule
    /// (its committed pages are above the top: poisoned), from the system otherwise.
    vm_arena(std::size_t bytes, const commit_rule& rule, bool shrink_to_fit_address_space) : rule_(rule) {
        std::size_t reserved = bytes == 0 ? 1 : bytes;
        std::size_t committed = 0;
        base_ = reservation::take_cached(reserved, rule_, committed);
        if (base_ == nullptr) {
            base_ = shrink_to_fit_address_space ? reservation::reserve_at_most(reserved, 1, rule_)
                                                : reservation::reserve(reserved, rule_);
        }
        reserved_ = reserved;
        top_ = committed_end_ = high_water_ = base_;
        set_committed(committed);
    }

    /// Records the committed size. Pages committed afresh are poisoned (they are above the top); pages
    /// given back are unpoisoned (their address range may be used otherwise once the arena is gone).
    void set_committed(std::size_t bytes) noexcept {
        if (bytes > committed_) detail::poison(base_ + committed_, bytes - committed_);
        else detail::unpoison(base_ + bytes, committed_ - bytes);
        committed_ = bytes;
        committed_end_ = base_ + bytes;
    }

    /// Every byte from new_top to the top is given back (poisoned).
    void lower_top(char* new_top) noexcept {
        detail::poison(new_top, static_cast<std::size_t>(top_ - new_top));
        if (top_ > high_water_) high_water_ = top_;
        top_ = new_top;
    }

    RELO_NOINLINE void* allocate_committing(std::size_t bytes, std::size_t alignment) {
        detail::check_block_size(bytes, alignment);  // (a power of two up to detail::max_block_alignment below)
        // Where the block starts, as an offset into the reservation (alignments beyond a page included).
        const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(base_);
        const std::uintptr_t top = reinterpret_cast<std::uintptr_t>(top_);
        if (alignment > reserved_ || top > UINTPTR_MAX - alignment) detail::throw_bad_alloc();
        const std::size_t start = static_cast<std::size_t>(((top + alignment - 1) & ~(alignment - 1)) - base);
        if (start > reserved_ || bytes > reserved_ - start) detail::throw_bad_alloc();
        if (start + bytes > committed_)
            set_committed(reservation::grow(base_, committed_, reserved_, start + bytes, rule_));
        top_ = base_ + start + bytes;
        detail::unpoison(base_ + start, bytes);
        return base_ + start;
    }

    bool commit_noexcept(std::size_t needed) noexcept {
        try {
            set_committed(reservation::grow(base_, committed_, reserved_, needed, rule_));
            return true;
        } catch (const std::bad_alloc&) {
            return false;
        }
    }
};

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_VM_ARENA_HPP
