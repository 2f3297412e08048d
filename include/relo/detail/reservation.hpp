// relo/detail/reservation.hpp — a reserved range of address space committed as it fills, in
// type-free code shared by relo::pinned_vector and relo::vm_arena.
//
// A reservation is `reserved` bytes of address space (PROT_NONE, MAP_NORESERVE: no memory and no commit
// charge behind it) followed by one guard page that is never committed. Its first `committed` bytes are
// readable and writable; everything after them faults. The owner keeps (base, committed, reserved) in its
// own members and passes them by value, so that a push_back loop keeps them in registers; the functions
// here are the out-of-line part. Under a rule that uses huge pages, reservations that can hold one start on
// a huge-page boundary, so that their pages can become huge pages once the rule says so.
//
// The commit rule (relo/commit_policy.hpp): the first commit is rule.first_step, later ones double the
// committed size, at most rule.max_step at once; from rule.huge_page_threshold on, the whole range is
// advised MADV_HUGEPAGE and commits end on huge-page boundaries. A range always has two mappings (the
// committed prefix, the rest with the guard page), or one when nothing or everything is committed.
//
// The reservation cache: a pinned_vector or vm_arena that gives its reservation back (release_to_cache)
// leaves it to the next one of the same size and rule on the same thread (take_cached), with its first
// pages still committed (within a per-thread budget, and at least the rule's retained minimum): a
// short-lived container or arena then makes no system call and faults no fresh page. The bounds, and how
// to trim the cache, are relo/warm_memory.hpp's. Rules with huge pages are not cached (a range once
// advised MADV_HUGEPAGE keeps the advice).
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_RESERVATION_HPP
#define RELO_DETAIL_RESERVATION_HPP

#include <cstddef>
#include <cstdint>

#include "relo/commit_policy.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/os_memory.hpp"
#include "relo/detail/thread_cache.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// The most reservations each thread keeps (relo::set_reservation_cache_limit: at most this many slots).
inline constexpr std::size_t reservation_cache_slots = 8;
inline atomic<std::size_t> reservation_cache_limit_count{4};
/// The committed bytes each thread's cached reservations keep beyond their rules' retained minimums: an
/// arena or pinned_vector per task of up to 32 MiB then faults no page again (with the 2 MiB minimum
/// alone, arenas per task of 6-13 MiB lost their lead over std::pmr's monotonic resource:
/// docs/measurements/memory_resources.md, "Warm memory").
inline constexpr std::size_t reservation_cache_committed_budget = std::size_t{32} << 20;

/// One thread's cached reservations (a detail/thread_cache.hpp state: emptied when the thread ends, after
/// which reservations go straight back to the system, on a trim, or at a keep after an idle delay).
struct reservation_cache_state : thread_cache_state {
    struct entry {
        char* base;
        std::size_t reserved;
        std::size_t committed;
        commit_rule rule;  // (by value: a vm_arena holds its own copy)
    };
    entry entries[reservation_cache_slots];
    std::size_t count;
};

inline std::size_t empty_reservation_cache(reservation_cache_state& c) noexcept;
using reservation_thread_cache = thread_cache<reservation_cache_state, empty_reservation_cache>;

inline reservation_cache_state& reservation_cache() noexcept { return reservation_thread_cache::state(); }

struct reservation {
    /// The most bytes a reservation may hold (so that sizes and pointer differences never overflow).
    static constexpr std::size_t max_bytes = SIZE_MAX / 4;

    /// Reserves `bytes` (rounded up to whole pages) and the guard page after them; returns the base, on a
    /// huge-page boundary when the rule uses huge pages and the reservation can hold one. Throws
    /// std::bad_alloc naming the size when the system refuses.
    static char* reserve(std::size_t& bytes, const commit_rule& rule) {
        char* base = try_reserve(bytes, rule);
        if (base == nullptr) throw_reservation_failure(bytes);
        return base;
    }

    /// Reserves `bytes` as reserve() does or, where the address space is smaller (RLIMIT_AS, a 32-bit
    /// process), the largest of bytes/2, bytes/4, ... that fits, down to `minimum`; `bytes` becomes what was
    /// reserved. Throws std::bad_alloc naming `minimum` when not even that fits.
    static char* reserve_at_most(std::size_t& bytes, std::size_t minimum, const commit_rule& rule) {
        std::size_t want = bytes;
        for (;;) {
            if (char* base = try_reserve(want, rule)) {
                bytes = want;
                return base;
            }
            if (want <= minimum) throw_reservation_failure(minimum);
            want = want / 2 > minimum ? want / 2 : minimum;
        }
    }

    /// Unmaps a reservation (its committed pages included).
    static void release(char* base, std::size_t reserved) noexcept {
        if (base != nullptr) os::release(base, reserved + os::page_size());
    }

    /// A reservation of `bytes` (rounded up to whole pages, as reserve() rounds them: `bytes` becomes that)
    /// under `rule` from this thread's cache, with `committed` set to its committed prefix; nullptr when
    /// the cache has none.
    static char* take_cached(std::size_t& bytes, const commit_rule& rule, std::size_t& committed) noexcept {
        if (!warm_caches_built || bytes > max_bytes) return nullptr;
        const std::size_t rounded = os::round_up_to_pages(bytes);
        reservation_cache_state& own = reservation_cache();
        const owner_visit visit(own);
        reservation_cache_state& c = reservation_thread_cache::visited(visit, own);
        for (std::size_t i = c.count; i-- > 0;) {  // (the most recent first: its pages are the warmest)
            const reservation_cache_state::entry e = c.entries[i];
            if (e.reserved != rounded || !same_rule(e.rule, rule)) continue;
            remove_cached(c, i);
            bytes = rounded;
            committed = e.committed;
            return e.base;
        }
        return nullptr;
    }

    /// Gives a reservation back: to this thread's cache, when the cache may keep reservations and the rule
    /// uses no huge pages, with its committed prefix cut to what the cache's committed budget has left (but
    /// never below the rule's retained minimum); to the system otherwise.
    static void release_to_cache(char* base, std::size_t reserved, std::size_t committed, const commit_rule& rule) noexcept {
        if (base == nullptr) return;
        if (!warm_caches_built) return release(base, reserved);
        reservation_cache_state& own = reservation_cache();
        const owner_visit visit(own);
        reservation_cache_state& c = reservation_thread_cache::visited(visit, own);
        const std::size_t limit = reservation_cache_limit_count.load(memory_order_relaxed);  // (<= slots)
        if (c.closed || rule.huge_page_threshold != SIZE_MAX || limit == 0) return release(base, reserved);
        reservation_thread_cache::keeping(c);
        while (c.count >= limit) {  // (the oldest go)
            release(c.entries[0].base, c.entries[0].reserved);
            remove_cached(c, 0);
        }
        const std::size_t held = cached_bytes(c);
        const std::size_t left = held < reservation_cache_committed_budget ? reservation_cache_committed_budget - held : 0;
        const std::size_t keep = left > rule.retained_minimum ? left : rule.retained_minimum;
        const std::size_t kept = committed > keep ? decommit_beyond(base, committed, keep, rule) : committed;
        if (!take_warm_budget(kept)) return release(base, reserved);  // (other threads keep the process's budget)
        c.entries[c.count++] = {base, reserved, kept, rule};
    }

    /// Unmaps every reservation of a thread's cache; returns their committed bytes.
    static std::size_t empty_cache(reservation_cache_state& c) noexcept {
        std::size_t given_back = 0;
        while (c.count > 0) {
            const reservation_cache_state::entry& e = c.entries[--c.count];
            given_back += e.committed;
            return_warm_budget(e.committed);
            release(e.base, e.reserved);
        }
        return given_back;
    }

    /// Commits at least `needed` bytes (committed < needed <= reserved) by the rule's steps; returns the
    /// new committed size. Throws std::bad_alloc (nothing changed) when the system refuses the commit.
    RELO_NOINLINE static std::size_t grow(char* base, std::size_t committed, std::size_t reserved, std::size_t needed,
                                          const commit_rule& rule) {
        const std::size_t step = committed == 0 ? rule.first_step : (committed < rule.max_step ? committed : rule.max_step);
        const std::size_t ahead = committed + step;
        return commit_to(base, committed, reserved, needed > ahead ? needed : ahead, rule);
    }

    /// Commits at least `needed` bytes (committed < needed <= reserved), no further than the page or huge
    /// page that holds them (reserve()). Throws std::bad_alloc (nothing changed).
    static std::size_t commit_exactly(char* base, std::size_t committed, std::size_t reserved, std::size_t needed,
                                      const commit_rule& rule) {
        return commit_to(base, committed, reserved, needed, rule);
    }

    /// After an arena was reset having used `in_use` bytes at most: the committed size it keeps, max(2 x in_use, the rule's
    /// retained minimum) in whole commit units, and the pages beyond it decommitted (given back, and
    /// inaccessible again). Keeping twice the size means that an arena reset and filled again to about the
    /// same size does not fault the same pages again and again.
    static std::size_t trim(char* base, std::size_t committed, std::size_t in_use, const commit_rule& rule) noexcept {
        const std::size_t doubled = in_use < max_bytes ? 2 * in_use : in_use;
        const std::size_t keep = doubled > rule.retained_minimum ? doubled : rule.retained_minimum;
        return keep < committed ? decommit_beyond(base, committed, keep, rule) : committed;
    }

    /// Decommits everything past `in_use` bytes (rounded up to the commit unit); returns the new committed size.
    static std::size_t decommit_beyond(char* base, std::size_t committed, std::size_t in_use,
                                       const commit_rule& rule) noexcept {
        const std::size_t keep = commit_length(in_use, rule);
        if (keep >= committed) return committed;
        os::decommit(base + keep, committed - keep);
        return keep;
    }

    /// The committed length that holds `bytes`: whole pages, or whole huge pages from the threshold on.
    static std::size_t commit_length(std::size_t bytes, const commit_rule& rule) noexcept {
        return uses_huge_pages(bytes, rule) ? os::round_up_to_huge_pages(bytes) : os::round_up_to_pages(bytes);
    }

    /// The committed bytes of the thread's cached reservations.
    static std::size_t cached_bytes(const reservation_cache_state& c) noexcept {
        std::size_t bytes = 0;
        for (std::size_t i = 0; i < c.count; ++i) bytes += c.entries[i].committed;
        return bytes;
    }

private:
    static bool same_rule(const commit_rule& a, const commit_rule& b) noexcept {
        return a.first_step == b.first_step && a.max_step == b.max_step &&
               a.huge_page_threshold == b.huge_page_threshold && a.retained_minimum == b.retained_minimum;
    }

    static void remove_cached(reservation_cache_state& c, std::size_t i) noexcept {
        return_warm_budget(c.entries[i].committed);
        for (std::size_t j = i + 1; j < c.count; ++j) c.entries[j - 1] = c.entries[j];
        --c.count;
    }

    static bool uses_huge_pages(std::size_t committed, const commit_rule& rule) noexcept {
        const std::size_t huge = os::huge_page_size();
        return huge != 0 && committed >= rule.huge_page_threshold && committed >= huge;
    }

    static char* try_reserve(std::size_t& bytes, const commit_rule& rule) noexcept {
        if (bytes > max_bytes) return nullptr;
        bytes = os::round_up_to_pages(bytes);
        // (Aligning costs two more system calls: only for a reservation that will use huge pages.)
        const std::size_t alignment = uses_huge_pages(bytes, rule) ? os::huge_page_size() : 0;
        return static_cast<char*>(os::try_reserve_aligned(bytes + os::page_size(), alignment));
    }

    static std::size_t commit_to(char* base, std::size_t committed, std::size_t reserved, std::size_t target,
                                 const commit_rule& rule) {
        std::size_t length = commit_length(target, rule);
        if (length > reserved) length = reserved;
        if (!os::commit(base + committed, length - committed)) throw_commit_failure(length - committed);
        // Crossing the threshold: the pages faulted from now on are huge. The whole range (guard page
        // included) is advised, so that it stays two mappings.
        if (!uses_huge_pages(committed, rule) && uses_huge_pages(length, rule))
            os::advise_huge_pages(base, reserved + os::page_size());
        return length;
    }
};

inline std::size_t empty_reservation_cache(reservation_cache_state& c) noexcept { return reservation::empty_cache(c); }

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_RESERVATION_HPP
