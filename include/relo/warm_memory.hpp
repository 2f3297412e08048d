// relo/warm_memory.hpp — what relo keeps for a thread's next containers and resources, as one policy.
//
// A long-lived program builds and destroys containers and local resources again and again; the memory one
// gives back is what the next one asks for. Given back to the system (or to a heap that trims), it is
// faulted in and zeroed again page by page. So what relo gives back stays with the thread that gives it
// back, in three bounded caches (detail/thread_cache.hpp: per thread, no lock, emptied when the thread
// ends; docs/life_in_a_process.md says what they do at each event of the process), one per kind of memory:
//
//   kind           given back by                        taken by the next          bound (default)
//   chunks         monotonic, multipool and             resource's chunk of the    chunk_cache_limit() bytes
//                  synchronized multipool resources     same size                  (8 MiB)
//                  over the global heap (chunk_cache.hpp)
//   large blocks   page_allocator (relo::vector's,      large block its            large_block_cache_limit()
//                  small_vector's heap storage)         reservation holds          committed bytes (64 MiB)
//   reservations   pinned_vector, vm_arena              reservation of the same    reservation_cache_limit()
//                                                       size and commit rule       reservations (4), their
//                                                                                  committed pages up to
//                                                                                  32 MiB, each at least its
//                                                                                  rule's retained minimum
//                                                                                  (2 MiB by default)
//
// With the defaults a thread keeps at most 8 + 64 + 32 + 4 x 2 = 112 MiB warm (resident where it was
// written; tests/warm_memory_test.cpp checks the sum), and all threads together at most the process's
// warm budget, warm_memory_limit() (64 MiB by default): a cache keeps a block only while the budget has
// room for it (a large block's first pages, as many as fit), so a pool of threads that each built a large
// structure and went idle keeps 64 MiB in all, not 112 MiB a thread. Only a thread gives its own caches
// back: at its end, on trim_warm_memory(), and in each cache at its first keep there after keeping nothing
// there for warm_memory_idle_delay() (1 s by default; what it held was not asked for meanwhile). A thread
// that never comes back keeps what it holds, within the budget: call trim_warm_memory() before parking. Each bound was measured where it is set; the policy,
// its cost and its measurements are docs/measurements/memory_resources.md, "Warm memory". Each bound is
// set process-wide (0 turns that cache off, or all of them for the budget) and applies from the next
// give-back; a host program sets the budget and the idle delay in its environment
// (RELO_WARM_MEMORY_LIMIT=0 turns every cache off) and a build their defaults in macros
// (docs/settings.md); warm_memory() says what the calling thread's caches hold and what the process's
// hold. Memory of a user's own upstream resource is never cached: it keeps its own policy.
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_WARM_MEMORY_HPP
#define RELO_WARM_MEMORY_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "relo/chunk_cache.hpp"
#include "relo/detail/large_block.hpp"
#include "relo/detail/reservation.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// What the calling thread keeps warm, in bytes of memory (committed, resident where it was written).
struct warm_memory_held {
    std::size_t chunk_bytes;        ///< the chunk cache's
    std::size_t large_block_bytes;  ///< the warm-block cache's committed bytes
    std::size_t reservation_bytes;  ///< the reservation cache's committed bytes
    std::size_t reservations;       ///< the reservation cache's reservations (address space, no memory beyond the above)
    std::size_t process_bytes;      ///< what every thread's caches hold together (at most warm_memory_limit())

    /// The calling thread's: its three caches' bytes.
    std::size_t total() const noexcept { return chunk_bytes + large_block_bytes + reservation_bytes; }
};

namespace detail {

/// f(chunks, large blocks, reservations): the calling thread's three caches, inside a visit of each
/// (a signal handler's visit then leaves them alone); the closed ones in a visit nested in another.
template <class F>
auto visit_warm_caches(F f) noexcept {
    chunk_cache_state& chunks = chunk_cache();
    warm_block_cache_state& blocks = warm_block_cache();
    reservation_cache_state& reservations = reservation_cache();
    const owner_visit chunks_visit(chunks), blocks_visit(blocks), reservations_visit(reservations);
    return f(chunk_thread_cache::visited(chunks_visit, chunks), warm_block_thread_cache::visited(blocks_visit, blocks),
             reservation_thread_cache::visited(reservations_visit, reservations));
}

}  // namespace detail

/// What the calling thread's three caches hold, and the process's total. O(1) in what was allocated (reads
/// at most 8 entries).
inline warm_memory_held warm_memory() noexcept {
    return detail::visit_warm_caches([](const detail::chunk_cache_state& chunks, const detail::warm_block_cache_state& blocks,
                                        const detail::reservation_cache_state& reservations) {
        return warm_memory_held{chunks.held, blocks.held, detail::reservation::cached_bytes(reservations),
                                reservations.count, detail::warm_bytes_of_process.load(detail::memory_order_relaxed)};
    });
}

/// The most all threads' caches keep together, in bytes (default 64 MiB: docs/measurements/thresholds.md,
/// "Warm memory first"; it also bounds what relo maps for its live large blocks: detail/large_block.hpp; the environment's RELO_WARM_MEMORY_LIMIT or the build's
/// RELO_DEFAULT_WARM_MEMORY_LIMIT, read at the first use unless a set_ came first: docs/settings.md); 0 keeps
/// nothing. Applies from the next give-back: lowering it gives
/// nothing back now (trim_warm_memory() in each thread does).
inline std::size_t warm_memory_limit() noexcept { return detail::warm_memory_limit_setting(); }
/// Sets warm_memory_limit() for the process, from the next give-back (SIZE_MAX reads back one less).
inline void set_warm_memory_limit(std::size_t bytes) noexcept {
    detail::warm_memory_limit_bytes.store(bytes < detail::unread_limit ? bytes : detail::unread_limit - 1,
                                          detail::memory_order_relaxed);
}

/// Gives everything the calling thread keeps warm back: chunks to the global heap, large blocks and
/// reservations to the system, its synchronized pools' bins to their pools (their raised limits' budget
/// with them). (Each thread's caches are also emptied when it ends.)
inline void trim_warm_memory() noexcept {
    if (void (*const trim_bins)() noexcept = detail::trim_own_bins.load(detail::memory_order_relaxed)) trim_bins();
    detail::visit_warm_caches([](detail::chunk_cache_state& chunks, detail::warm_block_cache_state& blocks,
                                 detail::reservation_cache_state& reservations) {
        detail::chunk_thread_cache::empty(chunks);
        detail::warm_block_thread_cache::empty(blocks);
        detail::reservation_thread_cache::empty(reservations);
    });
}

/// After how long without keeping anything in one of its caches a thread's next keep there gives back what
/// the cache held first (default 1 s: docs/measurements/memory_resources.md, "Idle threads" and "Warm
/// memory a thread gives back itself"; the
/// environment's RELO_WARM_MEMORY_IDLE_DELAY_MS or the build's RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS, as
/// for the limit). nanoseconds::max() never gives back for idleness.
inline std::chrono::nanoseconds warm_memory_idle_delay() noexcept {
    return std::chrono::nanoseconds(detail::warm_memory_idle_delay_setting());
}
/// Sets warm_memory_idle_delay() for the process (a negative delay is 0), from the next keep.
inline void set_warm_memory_idle_delay(std::chrono::nanoseconds delay) noexcept {
    const std::int64_t ns = delay.count() > 0 ? static_cast<std::int64_t>(delay.count()) : 0;
    detail::warm_memory_idle_delay_ns.store(ns, detail::memory_order_relaxed);
}

/// Gives back what the calling thread's caches hold if it kept nothing in them for at least `idle_for`;
/// returns the bytes. (Other threads' caches are theirs alone: each gives its own back.)
[[deprecated("no thread gives back another's caches: use trim_warm_memory() on the thread that holds them")]]
inline std::size_t trim_idle_warm_memory(std::chrono::nanoseconds idle_for = warm_memory_idle_delay()) noexcept {
    const std::int64_t ns = idle_for.count() > 0 ? static_cast<std::int64_t>(idle_for.count()) : 0;
    return detail::chunk_thread_cache::trim_if_idle(ns) + detail::warm_block_thread_cache::trim_if_idle(ns) +
           detail::reservation_thread_cache::trim_if_idle(ns);
}

/// False: no thread gives back another thread's idle warm memory.
[[deprecated("no thread gives back another's caches: each gives its own back (relo/warm_memory.hpp)")]]
inline bool idle_warm_memory_can_be_trimmed() noexcept { return false; }

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_WARM_MEMORY_HPP
