// relo/detail/large_block.hpp — the large blocks of page_allocator, in type-free code.
//
// A large block is a reservation of address space (PROT_NONE, no memory behind it) several times larger
// than asked for, whose first pages are committed (readable, writable). Growing is committing more of the
// reservation (one mprotect: nothing moves, whatever the element type); shrinking decommits. The first
// `offset` bytes of the reservation hold its reserved and committed lengths, so the block needs no side
// table; the elements start at `offset` (a multiple of their alignment, at most a page).
//
// Warm memory first: relo maps no more than it can keep warm. Its live reserved blocks (a block past
// heap_maps_fresh_from counts that much) and all its warm caches together commit at most the warm budget
// (warm_memory_limit(), 64 MiB), and at most what a thread's cache keeps (large_block_cache_limit()), so that every page relo maps serves again warm when its block
// dies, as the pages of std::vector's blocks do in the heap. A block that would pass that comes from the
// heap instead (a block that would grow past it moves there, copied as std::vector's growth copies), where
// std::vector's own would be, warm or not; a new block of `heap_maps_fresh_from` bytes or more (32 MiB) is
// a cached block or a reservation whatever relo holds, since the heap maps one that large fresh anyway
// (may_map). The rule uses what relo observes (its own blocks and caches), never the heap's state: measured in
// docs/measurements/thresholds.md, "Warm memory first".
//
// Mappings are a resource like memory: when the system refuses a reservation or a commit (Linux's
// vm.max_map_count, which then fails the C library's malloc too), or relo holds relo::reservation_limit()
// reservations, a block comes from the heap too. A block from the heap says so in its header (reserved
// 0); it grows by realloc there (glibc moves its own mapped chunks by mremap; past heap_maps_fresh_from,
// where realloc would copy, into a reservation: reallocate_on_heap), and is cached
// from heap_maps_fresh_from on (where the heap would give its pages back); a reserved block that cannot
// move into a new reservation moves its bytes to the heap. A relocatable type's malloc block that grows
// past heap_maps_fresh_from stays where it is too (grow_heap_block): a copy into a fresh reservation
// faulted every page that mremap would have moved.
//
// The warm-block cache: a released block (on 4 KiB pages) stays with its thread, its committed pages
// still in place, up to large_block_cache_limit() committed bytes (64 MiB by default) and 256 blocks, and
// serves the thread's next large block whose size its reservation holds (the block that best fits). A
// program that builds and destroys large vectors then faults their pages once, as glibc's heap lets
// std::vector do, instead of once per vector. A block taken from the cache keeps every page it had
// committed (its next growth needs no system call) until it shrinks or dies. A vector of a type moved one
// by one that would fault in, to grow in place, fresh pages of at least an eighth of its bytes moves instead
// into a cached block whose warm pages hold its new size (warm_block_beats_growth: the container asks
// once, before growing), as std::vector's growth moves into the heap's warm memory. The oldest blocks go first;
// everything goes back when the thread ends or on trim_large_block_cache(). (Smaller bounds left more
// page faults than std::vector's where many mid-sized vectors live and die in a long-lived process:
// docs/measurements/thresholds.md, "Warm blocks".)
//
// Reservations of at least a huge page are aligned to huge pages; once a block commits at least
// `huge_page_threshold` bytes it is advised MADV_HUGEPAGE, and committed in whole huge pages where that
// adds at most an eighth to it: each fault then maps 2 MiB instead of 4 KiB. Where 4 KiB faults are
// slow that is the largest single effect on large vectors; where free memory goes back to the host a
// huge page's first touch can cost more than the 512 small faults it replaces
// (docs/measurements/thresholds.md measures both); below the threshold the half huge page a block commits
// but does not use on average costs more than the faults it saves.
//
// Only when the reservation is used up does a block move: reallocate() moves its pages (mremap with
// MREMAP_FIXED into a larger reservation: page-table entries move, no byte is copied), one kernel mapping
// at a time, since a block moved before is several (block_header says where they begin); resize_in_place()
// first tries to extend the reservation where the address space behind it is free.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_LARGE_BLOCK_HPP
#define RELO_DETAIL_LARGE_BLOCK_HPP

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/os_memory.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/detail/thread_cache.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

struct large_block_options {
    std::size_t reservation_factor;   // reserve this many times the bytes asked for (1 = exactly)
    std::size_t huge_page_threshold;  // blocks committing at least this many bytes use huge pages
    std::size_t alignment = alignof(std::max_align_t);  // the elements' (a block from the heap keeps it)
    std::size_t heap_maps_fresh_from = SIZE_MAX;  // new blocks of this many bytes are reservations, whatever relo holds
};

/// The committed bytes of the live large blocks on reservations (not those a cache keeps): may_map() keeps
/// them within the warm budget.
inline atomic<std::size_t> large_block_live_bytes{0};

inline atomic<std::size_t> large_block_cache_limit_bytes{std::size_t{64} << 20};

/// relo::reservation_limit(): past this many reservations held (os::reservations_held), large blocks come
/// from the heap. A block is two of the kernel's mappings or more (its pages, its reserved tail, moved
/// pages): 16,384 reservations take about half of Linux's default vm.max_map_count (65,530), leaving the
/// rest to the process, whose malloc also fails when they are used up (brk needs one as much as mmap).
inline atomic<std::size_t> large_block_reservation_limit{16384};

/// One thread's released large blocks, the most recent last (a detail/thread_cache.hpp state: emptied when
/// the thread ends, after which blocks go straight back to the system, on a trim, or at a keep after an
/// idle delay).
struct warm_block_cache_state : thread_cache_state {
    static constexpr std::size_t slots = 256;
    struct entry {
        char* base;
        std::size_t reserved;
        std::size_t committed;
    };
    entry entries[slots];
    std::size_t count;
    std::size_t held;  // committed bytes of the entries
};

inline std::size_t empty_warm_block_cache(warm_block_cache_state& c) noexcept;
using warm_block_thread_cache = thread_cache<warm_block_cache_state, empty_warm_block_cache>;

inline warm_block_cache_state& warm_block_cache() noexcept { return warm_block_thread_cache::state(); }

class large_block {
public:
    struct allocation {
        void* data;
        std::size_t usable_bytes;  // from data to the end of the committed pages
    };

    /// The committed length of a block whose elements end `end` bytes into the reservation: whole pages;
    /// from the huge-page threshold on, whole huge pages when rounding up to them adds at most an eighth.
    /// (A huge page is zeroed whole at its first write: rounding a block just past 2 MiB up to 4 MiB made
    /// a hundred such vectors zero twice what they used, slower than std::vector; the 2 MiB ranges a block
    /// covers only in part fault in as small pages. docs/measurements/thresholds.md.) A pure function of
    /// `end` that returns its own result unchanged, as growing and shrinking recompute the old length.
    static std::size_t committed_length(std::size_t end, const large_block_options& opt) noexcept {
        const std::size_t pages = os::round_up_to_pages(end);
        if (!uses_huge_pages(pages, opt)) return pages;
        const std::size_t whole = os::round_up_to_huge_pages(pages);
        return whole - pages <= pages / 8 ? whole : pages;
    }

    /// A new block for `bytes` bytes of elements: the thread's cached block that best fits them
    /// (take_cached), or a fresh reservation, where relo may map them (may_map); else, or when the system
    /// gives no reservation (the process's mappings or relo::reservation_limit() used up), a block from
    /// the heap. Throws std::bad_alloc.
    static allocation allocate(std::size_t offset, std::size_t bytes, const large_block_options& opt) {
        check_block_size(bytes, 1, offset);  // (the reservation starts on a page: the header holds the alignment)
        const std::size_t committed = committed_length(offset + bytes, opt);
        const std::size_t room = map_room(committed, opt);
        if (char* base = take_warm(offset + bytes, committed, room, opt))
            return {base + offset, (on_heap(base) ? header(base)->committed : committed) - offset};
        if (committed <= room) {
            if (char* base = reserve_block(offset, bytes, committed, opt)) return {base + offset, committed - offset};
        }
        return allocate_on_heap(offset, bytes, opt);
    }

    /// A heap block of old_bytes (malloc's, at malloc's alignment) grown into a large block of new_bytes,
    /// heap_maps_fresh_from or more: into the thread's cached block that best fits them where one does
    /// (its pages warm: a copy), else by realloc where it is, the bytes then moved past the header in place
    /// (where glibc mapped the block itself, past its mapping threshold, it moves the pages by mremap: none
    /// faults in fresh, as a reservation's copy would; a block in its own heap it extends or copies).
    /// Only where realloc_moves_pages(opt). Throws std::bad_alloc; then nothing changed.
    static void* grow_heap_block(void* data, std::size_t offset, std::size_t old_bytes, std::size_t new_bytes,
                                 const large_block_options& opt) {
        check_block_size(new_bytes, 1, offset);
        const std::size_t committed = committed_length(offset + new_bytes, opt);
        if (char* base = take_warm(offset + new_bytes, committed, map_room(committed, opt), opt)) {
            std::memcpy(base + offset, data, old_bytes);
            std::free(data);
            return base + offset;
        }
        void* moved = std::realloc(data, offset + new_bytes);
        if (moved == nullptr) throw_bad_alloc();
        char* base = static_cast<char*>(moved);
        std::memmove(base + offset, base, old_bytes);
        *header(base) = {0, offset + new_bytes, {}, 0};
        return base + offset;
    }

    /// Whether a block from the heap past heap_maps_fresh_from grows there by realloc: not where realloc
    /// copies (Windows), where there is none (over-aligned blocks), nor where the policy wants huge pages,
    /// which only a reservation gives.
    static bool realloc_moves_pages(const large_block_options& opt) noexcept {
        return !RELO_OS_WINDOWS && opt.huge_page_threshold == SIZE_MAX && !os::over_aligned(opt.alignment);
    }

    /// Gives the block back: to the thread's warm-block cache where it may keep it, to the system (or the
    /// heap) otherwise. (Out of line: inlined into a container's destructor, it took registers from the
    /// loop before it.)
    RELO_NOINLINE static void release(void* data, std::size_t offset, const large_block_options& opt) noexcept {
        char* base = static_cast<char*>(data) - offset;
        if (!on_heap(base)) {
            give_back(base, opt);
        } else if (cacheable_on_heap(base, opt)) {
            cache(base, opt);
        } else {
            free_on_heap(base, offset, opt);
        }
    }

    /// Gives back every block of a thread's warm-block cache; returns their committed bytes.
    static std::size_t empty_cache(warm_block_cache_state& c) noexcept {
        const std::size_t given_back = c.held;
        while (c.count > 0) drop_cached(c, c.count - 1);
        return given_back;
    }

    /// Resizes the block in place from old_bytes to new_bytes of elements; never moves. False (and no
    /// change) when the reservation is used up and the address space behind it is taken, when relo may
    /// not map the pages (may_map), or for a block from the heap past its usable size.
    static bool resize_in_place(void* data, std::size_t offset, std::size_t old_bytes, std::size_t new_bytes,
                                const large_block_options& opt) noexcept {
        if (!fits_in_block(new_bytes, 1, offset)) return false;
        char* base = static_cast<char*>(data) - offset;
        if (on_heap(base)) return new_bytes <= old_bytes || usable_on_heap(base, offset, opt) - offset >= new_bytes;
        const std::size_t reserved = header(base)->reserved;
        const std::size_t committed = header(base)->committed;  // (a warm block may have more than old_bytes need)
        const std::size_t new_committed = committed_length(offset + new_bytes, opt);
        if (new_bytes <= old_bytes) {
            if (new_committed < committed) {
                os::decommit(base + new_committed, committed - new_committed);
                header(base)->committed = new_committed;
                count_live(committed, new_committed, opt);
            }
            return true;
        }
        if (new_committed <= committed) return true;
        if (!may_map(new_committed - committed, new_committed, opt)) return false;
        if (new_committed > reserved && !extend_reservation(base, committed, reserved, new_committed)) return false;
        if (!os::commit(base + committed, new_committed - committed)) return false;
        header(base)->committed = new_committed;
        count_live(committed, new_committed, opt);
        // Crossing the threshold: the pages faulted from now on are huge (the reservation's extension, if
        // any, inherited nothing, so the whole range is advised).
        if (!uses_huge_pages(committed, opt) && uses_huge_pages(new_committed, opt))
            os::advise_huge_pages(base, header(base)->reserved);
        return true;
    }

    /// A growth moves into a warm block where it would fault in at least this fraction (1/n) of the bytes
    /// the move copies: a page copied costs a part of a fault, and a move copies no more than
    /// std::vector's growth always does. Why 8: of 1, 2, 4, 8, 16 and at every growth, the fewest faults in the
    /// long-lived environment (docs/measurements/thresholds.md, "Growth into a cached warm block").
    static constexpr std::size_t warm_move_bytes_per_fresh_byte = 8;

    /// Whether a block growing from its committed pages to new_bytes of elements, used_bytes of them in
    /// use, had better move into the thread's cached block whose warm pages hold new_bytes (which the
    /// allocation of new_bytes then takes: take_warm) than grow in place: where growing would fault in
    /// fresh pages of at least used_bytes / warm_move_bytes_per_fresh_byte. Asked once, before the growth:
    /// the container's probes of resize_in_place may settle for less than new_bytes, a size the cached
    /// block was not chosen for. False for a block from the heap. (A cached block's committed pages are
    /// taken as warm; those its vector never reached are not: a move into a block reserved far ahead and
    /// little filled faults them still.)
    RELO_NOINLINE static bool warm_block_beats_growth(void* data, std::size_t offset, std::size_t used_bytes,
                                                      std::size_t new_bytes, const large_block_options& opt) noexcept {
        char* base = static_cast<char*>(data) - offset;
        if (!cacheable(opt) || on_heap(base) || !fits_in_block(new_bytes, 1, offset)) return false;
        const std::size_t committed = header(base)->committed;
        const std::size_t new_committed = committed_length(offset + new_bytes, opt);
        if (new_committed <= committed || new_committed - committed < used_bytes / warm_move_bytes_per_fresh_byte)
            return false;
        warm_block_cache_state* own = warm_block_thread_cache::existing_state();
        if (own == nullptr) return false;  // (a thread that never cached a block holds none)
        const owner_visit visit(*own);
        if (!visit.inside()) return false;
        // The block take_warm would take for new_bytes: a reservation (a heap block grows in place only
        // within its usable size, where the vector's own reservation grows for its whole life) whose
        // committed pages hold the new size.
        const std::size_t end = offset + new_bytes;
        const std::size_t best =
            best_cached(*own, end, new_committed, map_room(new_committed, opt), heap_blocks_serve(end, opt));
        if (best == own->count) return false;
        const warm_block_cache_state::entry& e = own->entries[best];
        return e.reserved != 0 && e.committed >= new_committed;
    }

    /// Resizes the block, moving its pages into a new, larger reservation when it cannot grow in place;
    /// its bytes into a block from the heap where relo may not map the pages or the system gives no
    /// reservation. A block on the heap grows there (reallocate_on_heap). The bytes are kept. Throws
    /// std::bad_alloc; then nothing changed.
    static void* reallocate(void* data, std::size_t offset, std::size_t old_bytes, std::size_t new_bytes,
                            const large_block_options& opt) {
        char* base = static_cast<char*>(data) - offset;
        if (on_heap(base)) return reallocate_on_heap(base, offset, old_bytes, new_bytes, opt);
        if (resize_in_place(data, offset, old_bytes, new_bytes, opt)) return data;
        check_block_size(new_bytes, 1, offset);
        const std::size_t old_reserved = header(base)->reserved;
        const std::size_t old_committed = header(base)->committed;
        const std::size_t new_committed = committed_length(offset + new_bytes, opt);  // (> old_committed)
        if (!may_map(new_committed - old_committed, new_committed, opt))
            return move_to_heap(base, offset, old_bytes, new_bytes, opt);
        std::size_t reserved = reservation_for(offset, new_bytes, new_committed, opt);
        void* target = reserve_or_less(reserved, new_committed, opt);
        if (target == nullptr) return move_to_heap(base, offset, old_bytes, new_bytes, opt);
        // The pages move mapping by mapping while the header can record where the new mappings begin;
        // past that, a copy makes the block one mapping again.
        const block_header old = *header(base);
        const bool may_move = old.mapping_start_count < max_mapping_starts;
        std::size_t moved = 0;
        try {
            if (may_move) {
                moved = os::remap_to(base, old_committed, old_reserved, new_committed, target, old.mapping_starts,
                                     old.mapping_start_count);
            } else {
                os::copy_to(base, old_committed, old_reserved, new_committed, target);
            }
        } catch (const std::bad_alloc&) {  // (the new pages refused: the process's mappings are used up)
            os::release(target, reserved);
            return move_to_heap(base, offset, old_bytes, new_bytes, opt);
        }
        // After the move: the moved pages keep their old mapping's advice, the rest gets it here.
        if (uses_huge_pages(new_committed, opt)) os::advise_huge_pages(target, reserved);
        count_live(old_committed, new_committed, opt);
        block_header& h = *header(target);
        h = {reserved, new_committed, {}, 0};
        if (moved != 0) {  // the moved mappings, and the new one where they end
            for (std::size_t k = 0; k < old.mapping_start_count; ++k)
                if (old.mapping_starts[k] < moved) h.mapping_starts[h.mapping_start_count++] = old.mapping_starts[k];
            h.mapping_starts[h.mapping_start_count++] = moved;
        }
        return static_cast<char*>(target) + offset;
    }

private:
    static constexpr std::size_t max_mapping_starts = 5;
    struct block_header {
        std::size_t reserved;   // the reservation's length; 0: a block from the heap (allocate_on_heap)
        std::size_t committed;  // its committed prefix's length
        // Where the kernel's mappings of the reservation begin, past the first (and past `committed`, the
        // end of the pages with access), ascending. A new reservation is one mapping; moving a block's pages
        // into another keeps every moved mapping whole (their pages keep their old offsets, so the kernel
        // merges none of them with the new reservation's own), and the new reservation's mapping begins
        // where they end. A page move goes mapping by mapping (os::remap_to), and growth in place extends
        // the last mapping.
        std::size_t mapping_starts[max_mapping_starts];
        std::size_t mapping_start_count;
    };

public:
    /// The header's size: page_allocator's elements start at least this far into the block.
    static constexpr std::size_t header_size = sizeof(block_header);

private:
    static block_header* header(void* base) noexcept { return static_cast<block_header*>(base); }

    /// Reserves and commits a block of `committed` bytes whose elements start at `offset`; nullptr when
    /// the system refuses.
    static char* reserve_block(std::size_t offset, std::size_t bytes, std::size_t committed,
                               const large_block_options& opt) noexcept {
        std::size_t reserved = reservation_for(offset, bytes, committed, opt);
        void* base = reserve_or_less(reserved, committed, opt);
        if (base == nullptr) return nullptr;
        if (uses_huge_pages(committed, opt)) os::advise_huge_pages(base, reserved);
        if (!os::commit(base, committed)) {
            os::release(base, reserved);
            return nullptr;
        }
        *header(base) = {reserved, committed, {}, 0};
        count_live(0, committed, opt);
        return static_cast<char*>(base);
    }

    /// Reserves `reserved` bytes or, where that fails (under RLIMIT_AS: no headroom), `committed`; sets
    /// `reserved` to what it got. A reservation of at least a huge page is aligned to one, so that the
    /// block's pages become huge pages once it has grown over the threshold, even if it starts smaller.
    static void* reserve_or_less(std::size_t& reserved, std::size_t committed, const large_block_options& opt) noexcept {
        void* base = reserve_aligned(reserved, opt);
        if (base == nullptr && reserved != committed) {
            reserved = committed;
            base = reserve_aligned(reserved, opt);
        }
        return base;
    }

    /// The bytes a block reaching `committed` may newly map: relo maps no more than it can keep warm, so
    /// that a page it maps serves again warm when its block dies, as the heap's pages serve std::vector.
    /// Its live reserved blocks' committed bytes (their counted share) and every warm cache's bytes stay
    /// within the warm budget and a thread's large-block cache limit. SIZE_MAX for a block exempt from
    /// that: one of heap_maps_fresh_from bytes or more (the heap would map it fresh anyway), or one never
    /// cached (huge pages).
    static std::size_t map_room(std::size_t committed, const large_block_options& opt) noexcept {
        if (!cacheable(opt) || committed >= opt.heap_maps_fresh_from) return SIZE_MAX;
        const std::size_t held = large_block_live_bytes.load(memory_order_relaxed) +
                                 warm_bytes_of_process.load(memory_order_relaxed);
        const std::size_t budget = warm_memory_limit_setting();
        const std::size_t cache = large_block_cache_limit_bytes.load(memory_order_relaxed);
        const std::size_t limit = budget < cache ? budget : cache;
        return held < limit ? limit - held : 0;
    }
    /// Whether a block may commit `more` bytes of a reservation, to `committed` in all (map_room).
    static bool may_map(std::size_t more, std::size_t committed, const large_block_options& opt) noexcept {
        return more <= map_room(committed, opt);
    }
    /// A reserved block's share of large_block_live_bytes: its committed bytes, up to heap_maps_fresh_from
    /// (a block past that is exempt from the rule, and its first bytes count as a smaller block's would);
    /// none for blocks never cached. A pure function of the committed length, so that every path adds the
    /// difference of the shares of its old and new lengths.
    static std::size_t live_share(std::size_t committed, const large_block_options& opt) noexcept {
        if (!cacheable(opt)) return 0;
        return committed < opt.heap_maps_fresh_from ? committed : opt.heap_maps_fresh_from;
    }
    static void count_live(std::size_t old_committed, std::size_t new_committed, const large_block_options& opt) noexcept {
        // (modulo 2^N: a shrink adds the negated difference)
        large_block_live_bytes.fetch_add(live_share(new_committed, opt) - live_share(old_committed, opt),
                                         memory_order_relaxed);
    }

    /// A live reserved block given back: to the thread's warm-block cache where it may keep it, to the
    /// system otherwise.
    static void give_back(char* base, const large_block_options& opt) noexcept {
        count_live(header(base)->committed, 0, opt);
        if (cacheable(opt)) {
            cache(base, opt);
        } else {
            os::release(base, header(base)->reserved);
        }
    }

    // A block from the heap stands in for a reservation where relo may not map one or the system gives
    // none: `offset` + the elements' bytes from the heap (at `offset`'s alignment for over-aligned
    // elements: the elements start `offset` bytes in), its header's `reserved` 0 and `committed` its
    // length. It grows by realloc (past heap_maps_fresh_from into a reservation where realloc would copy),
    // and is cached from heap_maps_fresh_from on (cacheable_on_heap).
    static bool on_heap(char* base) noexcept { return header(base)->reserved == 0; }
    static std::size_t heap_alignment(std::size_t offset, const large_block_options& opt) noexcept {
        return os::over_aligned(opt.alignment) ? offset : alignof(std::max_align_t);
    }
    static allocation allocate_on_heap(std::size_t offset, std::size_t bytes, const large_block_options& opt) {
        const std::size_t length = offset + bytes;  // (check_block_size: no overflow)
        void* base = os::heap_allocate(length, heap_alignment(offset, opt));
        if (base == nullptr) throw_bad_alloc();
        *header(base) = {0, length, {}, 0};
        return {static_cast<char*>(base) + offset, bytes};
    }
    static void free_on_heap(char* base, std::size_t offset, const large_block_options& opt) noexcept {
        os::heap_free(base, heap_alignment(offset, opt));
    }
    static std::size_t usable_on_heap(char* base, std::size_t offset, const large_block_options& opt) noexcept {
        return os::heap_usable_bytes(base, header(base)->committed, heap_alignment(offset, opt));
    }
    static void* reallocate_on_heap(char* base, std::size_t offset, std::size_t old_bytes, std::size_t new_bytes,
                                    const large_block_options& opt) {
        check_block_size(new_bytes, 1, offset);
        // Past heap_maps_fresh_from, where realloc would copy, into a reservation, which then grows in place.
        const std::size_t committed = committed_length(offset + new_bytes, opt);
        char* target = !realloc_moves_pages(opt) && committed >= opt.heap_maps_fresh_from
                           ? reserve_block(offset, new_bytes, committed, opt)
                           : nullptr;
        if (target != nullptr || os::over_aligned(heap_alignment(offset, opt))) {
            void* moved = target != nullptr ? target + offset : allocate_on_heap(offset, new_bytes, opt).data;
            std::memcpy(moved, base + offset, old_bytes < new_bytes ? old_bytes : new_bytes);
            free_on_heap(base, offset, opt);
            return moved;
        }
        void* moved = std::realloc(base, offset + new_bytes);
        if (moved == nullptr) throw_bad_alloc();
        header(moved)->committed = offset + new_bytes;
        return static_cast<char*>(moved) + offset;
    }
    /// The bytes of a reserved block moved into a block from the heap, the reservation given back (kept
    /// warm for the thread's next block where the cache may keep it).
    static void* move_to_heap(char* base, std::size_t offset, std::size_t old_bytes, std::size_t new_bytes,
                              const large_block_options& opt) {
        void* moved = allocate_on_heap(offset, new_bytes, opt).data;
        std::memcpy(moved, base + offset, old_bytes < new_bytes ? old_bytes : new_bytes);
        give_back(base, opt);
        return moved;
    }
    /// Blocks on huge pages are not cached: a range once advised MADV_HUGEPAGE keeps the advice.
    static bool cacheable(const large_block_options& opt) noexcept {
        return warm_caches_built && opt.huge_page_threshold == SIZE_MAX;
    }
    /// A block from the heap is cached from heap_maps_fresh_from on (at malloc's alignment), where the heap
    /// would give its pages back to the system and map fresh ones for the next: below that the heap keeps
    /// them warm itself, and a block held idle in a cache would stop it from trimming behind it
    /// (docs/measurements/thresholds.md, "Other types where the heap has warm pages", rule P).
    static bool cacheable_on_heap(char* base, const large_block_options& opt) noexcept {
        return cacheable(opt) && !os::over_aligned(opt.alignment) && header(base)->committed >= opt.heap_maps_fresh_from;
    }

    /// The thread's cached block that best fits a block ending `end` bytes in, `committed` bytes in whole
    /// pages (take_cached), its pages committed that far (and counted live) if it is a reservation; nullptr
    /// if none fits. (A cached block's warm pages serve whatever relo holds; more pages only within `room`.)
    static char* take_warm(std::size_t end, std::size_t committed, std::size_t room,
                           const large_block_options& opt) noexcept {
        if (!cacheable(opt)) return nullptr;
        char* base = take_cached(end, committed, room, heap_blocks_serve(end, opt));
        if (base == nullptr || on_heap(base)) return base;
        const std::size_t warm = header(base)->committed;
        if (warm >= committed || os::commit(base + warm, committed - warm)) {
            if (warm < committed) header(base)->committed = committed;
            count_live(0, header(base)->committed, opt);
            return base;
        }
        os::release(base, header(base)->reserved);
        return nullptr;
    }
    /// Whether the cache's heap blocks may serve a block ending `end` bytes in: one the heap would map fresh
    /// too (a smaller one would hold its whole length outside the warm budget), at malloc's alignment.
    static bool heap_blocks_serve(std::size_t end, const large_block_options& opt) noexcept {
        return !os::over_aligned(opt.alignment) && end >= opt.heap_maps_fresh_from;
    }
    /// Gives a block that is not in use back where it came from: the heap's to the heap, a reservation's
    /// pages to the system.
    static void discard(char* base) noexcept {
        if (on_heap(base)) {
            std::free(base);  // (cacheable_on_heap: malloc's alignment)
        } else {
            os::release(base, header(base)->reserved);
        }
    }

    /// Takes the cached block that best fits a block ending `end` bytes in, `committed` in whole pages: of
    /// the reservations that hold them and need at most `room` bytes more committed, and (where
    /// `heap_blocks` may serve: elements at malloc's alignment, `end` past heap_maps_fresh_from) the
    /// blocks from the heap at least `end` long, the one with the fewest committed bytes that are enough,
    /// else the one with the most (the fewest pages to fault in); nullptr if none fits.
    static char* take_cached(std::size_t end, std::size_t committed, std::size_t room, bool heap_blocks) noexcept {
        warm_block_cache_state& own = warm_block_cache();
        const owner_visit visit(own);
        warm_block_cache_state& c = warm_block_thread_cache::visited(visit, own);
        const std::size_t best = best_cached(c, end, committed, room, heap_blocks);
        if (best == c.count) return nullptr;
        const warm_block_cache_state::entry e = c.entries[best];
        remove_cached(c, best);
        unpoison(e.base, e.committed);
        return e.base;
    }
    /// The index in c of the block take_cached takes; c.count if none fits.
    static std::size_t best_cached(const warm_block_cache_state& c, std::size_t end, std::size_t committed,
                                   std::size_t room, bool heap_blocks) noexcept {
        std::size_t best = c.count;
        for (std::size_t i = c.count; i-- > 0;) {  // (the most recent first: of equals, its pages are the warmest)
            const warm_block_cache_state::entry& e = c.entries[i];
            const bool fits = e.reserved == 0 ? heap_blocks && e.committed >= end
                                              : e.reserved >= committed &&
                                                    (e.committed >= committed || committed - e.committed <= room);
            if (!fits) continue;
            if (best == c.count) {
                best = i;
                continue;
            }
            const std::size_t has = c.entries[best].committed;
            if (has >= end ? e.committed >= end && e.committed < has : e.committed > has) best = i;
        }
        return best;
    }

    /// Keeps a released block in the thread's cache, its committed bytes cut to the limit (a block from the
    /// heap shrunk by realloc, or given back where the cache could not keep at least half of it and
    /// heap_maps_fresh_from), the oldest blocks given back to make room; or gives it back when the cache
    /// keeps nothing.
    static void cache(char* base, const large_block_options& opt) noexcept {
        warm_block_cache_state& own = warm_block_cache();
        const owner_visit visit(own);
        warm_block_cache_state& c = warm_block_thread_cache::visited(visit, own);
        const std::size_t limit = large_block_cache_limit_bytes.load(memory_order_relaxed);
        if (c.closed || limit < os::page_size()) return discard(base);
        if (on_heap(base)) {  // (decided before any cached block is given back to make room for it)
            const std::size_t budget = warm_budget_left() + c.held;
            const std::size_t can_keep = limit < budget ? limit : budget;
            if (can_keep < opt.heap_maps_fresh_from || can_keep < header(base)->committed / 2) return discard(base);
        }
        warm_block_thread_cache::keeping(c);
        // Its first pages stay warm, as many as this thread's limit and then the process's budget leave room
        // for (a block larger than either is still mostly warm for the next one); the rest go back now.
        base = keep_first_pages(base, limit, opt);
        if (base == nullptr) return;
        while (c.count > 0 && (c.count == warm_block_cache_state::slots || c.held + header(base)->committed > limit))
            drop_cached(c, 0);  // (the oldest go)
        const std::size_t room = warm_budget_left();
        if (room < os::page_size()) return discard(base);
        base = keep_first_pages(base, room, opt);
        if (base == nullptr) return;
        const block_header& h = *header(base);
        if (!take_warm_budget(h.committed)) return discard(base);  // (other threads took it)
        c.entries[c.count++] = {base, h.reserved, h.committed};
        c.held += h.committed;
        // A use of a dead vector's elements is reported as one after free() is (the header stays readable).
        poison(base + sizeof(block_header), h.committed - sizeof(block_header));
    }

    /// Gives back a block's pages past the first `bytes` (rounded down to whole pages, at least one): a
    /// reservation decommits them, a block from the heap shrinks by realloc (in place: glibc unmaps the
    /// tail of a block it mapped), or goes back whole where that would leave it below heap_maps_fresh_from
    /// (cacheable_on_heap), would more than halve it, or where the malloc kept the tail. The block's base
    /// after (nullptr: it went back whole).
    static char* keep_first_pages(char* base, std::size_t bytes, const large_block_options& opt) noexcept {
        const std::size_t pages = bytes / os::page_size() * os::page_size();
        const std::size_t keep = pages > os::page_size() ? pages : os::page_size();
        if (header(base)->committed <= keep) return base;
        if (!on_heap(base)) {
            os::decommit(base + keep, header(base)->committed - keep);
            header(base)->committed = keep;
            return base;
        }
        // (At most halved: a malloc may move a block it shrinks by more, tcmalloc for one.)
        const bool shrinks = keep >= opt.heap_maps_fresh_from && keep >= header(base)->committed / 2;
        char* kept = shrinks ? static_cast<char*>(std::realloc(base, keep)) : nullptr;
        if (kept == nullptr) {
            discard(base);
            return nullptr;
        }
        // (A malloc that kept the tail: glibc leaves less than a page past `keep`, the rest of the last one.)
        if (os::malloc_usable_bytes(kept, keep) - keep >= os::page_size()) {
            std::free(kept);
            return nullptr;
        }
        header(kept)->committed = keep;
        return kept;
    }

    static void drop_cached(warm_block_cache_state& c, std::size_t i) noexcept {
        const warm_block_cache_state::entry e = c.entries[i];
        remove_cached(c, i);
        unpoison(e.base, e.committed);
        discard(e.base);
    }

    static void remove_cached(warm_block_cache_state& c, std::size_t i) noexcept {
        c.held -= c.entries[i].committed;
        return_warm_budget(c.entries[i].committed);
        for (std::size_t j = i + 1; j < c.count; ++j) c.entries[j - 1] = c.entries[j];
        --c.count;
    }

    static bool uses_huge_pages(std::size_t committed, const large_block_options& opt) noexcept {
        const std::size_t huge = os::huge_page_size();
        return huge != 0 && committed >= huge && committed >= opt.huge_page_threshold;
    }

    static std::size_t reservation_for(std::size_t offset, std::size_t bytes, std::size_t committed,
                                       const large_block_options& opt) noexcept {
        if (opt.reservation_factor <= 1 || bytes > (SIZE_MAX / 4 - offset) / opt.reservation_factor) return committed;
        const std::size_t r = committed_length(offset + bytes * opt.reservation_factor, opt);
        return r > committed ? r : committed;
    }

    /// Reserves `length` bytes; aligned to a huge page when the block may use huge pages within it.
    static void* reserve_aligned(std::size_t length, const large_block_options& opt) noexcept {
        if (os::reservations_held.load(memory_order_relaxed) >= large_block_reservation_limit.load(memory_order_relaxed))
            return nullptr;
        return os::try_reserve_aligned(length, uses_huge_pages(length, opt) ? os::huge_page_size() : 0);
    }

    /// Grows the reservation in place to `wanted` bytes, if the address space behind it is free.
    static bool extend_reservation(char* base, std::size_t committed, std::size_t reserved, std::size_t wanted) noexcept {
        // Grow the last mapping: the reserved tail, which the committed pages end; else the committed
        // pages' last (block_header::mapping_starts).
        std::size_t last_start = reserved > committed ? committed : 0;
        const block_header& h = *header(base);
        for (std::size_t k = 0; k < h.mapping_start_count; ++k)
            if (h.mapping_starts[k] > last_start && h.mapping_starts[k] < reserved) last_start = h.mapping_starts[k];
        char* last = base + last_start;
        const std::size_t last_length = reserved - last_start;
        if (!os::remap_in_place(last, last_length, last_length + (wanted - reserved))) return false;
        header(base)->reserved = wanted;
        return true;
    }
};

inline std::size_t empty_warm_block_cache(warm_block_cache_state& c) noexcept { return large_block::empty_cache(c); }

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_LARGE_BLOCK_HPP
