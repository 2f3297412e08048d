// relo/detail/large_block.hpp — layer 3: the large blocks of page_allocator, in type-free code.
//
// A large block is a reservation of address space (PROT_NONE, no memory behind it) several times larger
// than asked for, whose first pages are committed (readable, writable). Growing is committing more of the
// reservation (one mprotect: nothing moves, whatever the element type); shrinking decommits. The first
// `offset` bytes of the reservation hold its length, so the block needs no side table; the elements start
// at `offset` (a multiple of their alignment, at most a page).
//
// Blocks of at least a huge page are aligned to huge pages and advised MADV_HUGEPAGE: each fault then maps
// 2 MiB instead of 4 KiB. On the VMs this project is measured on a 4 KiB fault costs ~10 µs, so this is
// the largest single effect on large vectors (docs/thresholds.md).
//
// Only when the reservation is used up does a block move: reallocate() moves its pages (mremap with
// MREMAP_FIXED into a larger reservation: page-table entries move, no byte is copied); resize_in_place()
// first tries to extend the reservation where the address space behind it is free.
#ifndef RELO_DETAIL_LARGE_BLOCK_HPP
#define RELO_DETAIL_LARGE_BLOCK_HPP

#include <cstddef>
#include <cstdint>
#include <new>

#include "relo/detail/config.hpp"
#include "relo/detail/os_memory.hpp"

namespace relo::detail {

struct large_block_options {
    std::size_t reservation_factor;  // reserve this many times the bytes asked for (1 = exactly)
    bool huge_pages;                 // align and advise blocks of at least a huge page
};

class large_block {
public:
    struct allocation {
        void* data;
        std::size_t usable_bytes;  // from data to the end of the committed pages
    };

    /// The committed length of a block whose elements end `end` bytes into the reservation: whole
    /// pages, or whole huge pages for a block of at least one.
    static std::size_t committed_length(std::size_t end, bool huge_pages) noexcept {
        const std::size_t huge = os::huge_page_size();
        if (huge_pages && huge != 0 && end >= huge) return round_up(end, huge);
        return os::round_up_to_pages(end);
    }

    /// A new block for `bytes` bytes of elements. Throws std::bad_alloc.
    static allocation allocate(std::size_t offset, std::size_t bytes, large_block_options opt) {
        if (bytes > SIZE_MAX / 2 - offset) os::throw_bad_alloc();
        const std::size_t committed = committed_length(offset + bytes, opt.huge_pages);
        std::size_t reserved = reservation_for(offset, bytes, committed, opt);
        // A reservation of at least a huge page is aligned to one, so that the block's pages become huge
        // pages as soon as it has grown over them, even if it starts smaller.
        bool huge = is_huge(reserved, opt);
        void* base = reserve_aligned(reserved, huge);
        if (base == nullptr && reserved != committed) {  // e.g. under RLIMIT_AS: no headroom, then
            reserved = committed;
            huge = is_huge(reserved, opt);
            base = reserve_aligned(reserved, huge);
        }
        if (base == nullptr) os::throw_bad_alloc();
        if (huge) os::advise_huge_pages(base, reserved);
        if (!os::commit(base, committed)) {
            os::release(base, reserved);
            os::throw_bad_alloc();
        }
        header(base)->reserved = reserved;
        return {static_cast<char*>(base) + offset, committed - offset};
    }

    static void release(void* data, std::size_t offset) noexcept {
        void* base = static_cast<char*>(data) - offset;
        os::release(base, header(base)->reserved);
    }

    /// Resizes the block in place from old_bytes to new_bytes of elements; never moves. False (and no
    /// change) when the reservation is used up and the address space behind it is taken.
    static bool resize_in_place(void* data, std::size_t offset, std::size_t old_bytes, std::size_t new_bytes,
                                large_block_options opt) noexcept {
        if (new_bytes > SIZE_MAX / 2 - offset) return false;
        char* base = static_cast<char*>(data) - offset;
        const std::size_t reserved = header(base)->reserved;
        const std::size_t old_committed = committed_length(offset + old_bytes, opt.huge_pages);
        const std::size_t new_committed = committed_length(offset + new_bytes, opt.huge_pages);
        if (new_committed == old_committed) return true;
        if (new_committed < old_committed) {
            os::decommit(base + new_committed, old_committed - new_committed);
            return true;
        }
        if (new_committed > reserved && !extend_reservation(base, old_committed, reserved, new_committed)) return false;
        return os::commit(base + old_committed, new_committed - old_committed);
    }

    /// Resizes the block, moving its pages into a new, larger reservation when it cannot grow in place.
    /// The bytes are kept. Throws std::bad_alloc; then nothing changed.
    static void* reallocate(void* data, std::size_t offset, std::size_t old_bytes, std::size_t new_bytes,
                            large_block_options opt) {
        if (resize_in_place(data, offset, old_bytes, new_bytes, opt)) return data;
        if (new_bytes > SIZE_MAX / 2 - offset) os::throw_bad_alloc();
        char* base = static_cast<char*>(data) - offset;
        const std::size_t old_reserved = header(base)->reserved;
        const std::size_t old_committed = committed_length(offset + old_bytes, opt.huge_pages);
        const std::size_t new_committed = committed_length(offset + new_bytes, opt.huge_pages);
        std::size_t reserved = reservation_for(offset, new_bytes, new_committed, opt);
        bool huge = is_huge(reserved, opt);
        void* target = reserve_aligned(reserved, huge);
        if (target == nullptr) {
            reserved = new_committed;
            huge = is_huge(reserved, opt);
            target = reserve_aligned(reserved, huge);
        }
        if (target == nullptr) os::throw_bad_alloc();
        if (huge) os::advise_huge_pages(target, reserved);
        try {
            os::remap_to(base, old_committed, new_committed, target);
        } catch (...) {
            os::release(target, reserved);
            throw;
        }
        if (old_reserved > old_committed) os::release(base + old_committed, old_reserved - old_committed);
        header(target)->reserved = reserved;
        return static_cast<char*>(target) + offset;
    }

private:
    struct block_header {
        std::size_t reserved;
    };
    static block_header* header(void* base) noexcept { return static_cast<block_header*>(base); }

    static std::size_t round_up(std::size_t n, std::size_t unit) noexcept { return (n + unit - 1) / unit * unit; }

    static bool is_huge(std::size_t length, large_block_options opt) noexcept {
        return opt.huge_pages && os::huge_page_size() != 0 && length >= os::huge_page_size();
    }

    static std::size_t reservation_for(std::size_t offset, std::size_t bytes, std::size_t committed,
                                       large_block_options opt) noexcept {
        if (opt.reservation_factor <= 1 || bytes > (SIZE_MAX / 4 - offset) / opt.reservation_factor) return committed;
        const std::size_t r = committed_length(offset + bytes * opt.reservation_factor, opt.huge_pages);
        return r > committed ? r : committed;
    }

    /// Reserves `length` bytes, aligned to a huge page if asked (by trimming an over-sized reservation).
    static void* reserve_aligned(std::size_t length, bool huge) noexcept {
        if (!huge) return os::try_reserve(length);
        const std::size_t align = os::huge_page_size();
        char* raw = static_cast<char*>(os::try_reserve(length + align));
        if (raw == nullptr) return nullptr;
        char* aligned = reinterpret_cast<char*>(round_up(reinterpret_cast<std::uintptr_t>(raw), align));
        if (aligned != raw) os::release(raw, static_cast<std::size_t>(aligned - raw));
        const std::size_t tail = static_cast<std::size_t>(raw + length + align - (aligned + length));
        if (tail != 0) os::release(aligned + length, tail);
        return aligned;
    }

    /// Grows the reservation in place to `wanted` bytes, if the address space behind it is free.
    static bool extend_reservation(char* base, std::size_t committed, std::size_t reserved, std::size_t wanted) noexcept {
        // The committed pages and the reserved tail are separate mappings; grow the last one.
        const bool has_tail = reserved > committed;
        char* last = has_tail ? base + committed : base;
        const std::size_t last_length = has_tail ? reserved - committed : committed;
        if (!os::remap_in_place(last, last_length, last_length + (wanted - reserved))) return false;
        header(base)->reserved = wanted;
        return true;
    }
};

}  // namespace relo::detail

#endif  // RELO_DETAIL_LARGE_BLOCK_HPP
