// examples/warm_memory.cpp — relo/warm_memory.hpp: the memory relo keeps warm for a thread's next containers
// and resources, its bounds, and how to give it back.
//
// A server's threads each handle one request at a time: a request builds a large relo::vector, a
// multipool for its small nodes and a vm_arena for scratch memory, and drops them. What they give back stays
// with the thread, in three caches (chunks, large blocks, reservations), for the next request, which then
// faults in no fresh pages. Every bound is process-wide; the process's budget caps all threads together.
// Only a thread gives its own caches back: on trim_warm_memory() (say, at the end of a burst), at its next
// keep once it kept nothing for the idle delay, and at its end. A thread that waits and never comes back
// keeps its share, within the budget.
#include <relo/multipool_resource.hpp>  // (and chunk_cache.hpp: the chunk cache's settings)
#include <relo/pinned_vector.hpp>  // (the reservation cache's settings)
#include <relo/vector.hpp>  // (and page_allocator.hpp: the large-block cache's settings)
#include <relo/vm_arena.hpp>
#include <relo/warm_memory.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>
#include <string>
#include <thread>

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

/// A request's table: strings, whose vector takes relo's large blocks from 128 KiB. (A vector of elements
/// that move as bytes, such as ints, grows by realloc in the heap below 32 MiB, and the heap keeps it warm.)
using table_type = relo::vector<std::string>;
constexpr std::size_t strings_in(std::size_t bytes) { return bytes / sizeof(std::string); }

/// One request: a 4 MiB vector (a large block), 1,000 small nodes (a multipool's chunks), 1 MiB of scratch
/// memory (an arena's reservation). Returns a checksum, so that the work is not optimized away.
long handle_request() {
    const table_type table(strings_in(4 * mib), "row");
    relo::multipool_resource nodes;
    for (int i = 0; i < 1000; ++i) static_cast<char*>(nodes.allocate(64))[0] = 1;
    relo::vm_arena scratch(16 * mib);
    std::memset(scratch.allocate(mib), 0, mib);
    return static_cast<long>(table.size()) + static_cast<long>(nodes.pool_count());
}

void print(const char* when, const relo::warm_memory_held& held) {
    std::printf("%-28s chunks %5zu KiB, large blocks %5zu KiB, reservations %zu (%zu KiB); this thread %zu KiB, "
                "the process %zu KiB\n",
                when, held.chunk_bytes >> 10, held.large_block_bytes >> 10, held.reservations,
                held.reservation_bytes >> 10, held.total() >> 10, held.process_bytes >> 10);
}

}  // namespace

int main() {
    bool ok = true;

    // The bounds, set before the first use (they then take precedence over RELO_WARM_MEMORY_LIMIT and
    // RELO_WARM_MEMORY_IDLE_DELAY_MS in the environment: docs/settings.md). Each applies from the next
    // give-back.
    relo::set_warm_memory_limit(64 * mib);  // every thread's caches together
    relo::set_warm_memory_idle_delay(std::chrono::milliseconds(500));
    relo::set_chunk_cache_limit(4 * mib);  // each thread's caches
    relo::set_large_block_cache_limit(32 * mib);
    relo::set_reservation_cache_limit(2);
    std::printf("budget %zu MiB, idle after %lld ms; per thread: chunks %zu MiB, large blocks %zu MiB, %zu "
                "reservations\n",
                relo::warm_memory_limit() / mib,
                static_cast<long long>(
                    std::chrono::duration_cast<std::chrono::milliseconds>(relo::warm_memory_idle_delay()).count()),
                relo::chunk_cache_limit() / mib, relo::large_block_cache_limit() / mib, relo::reservation_cache_limit());
    ok = ok && relo::warm_memory_limit() == 64 * mib && relo::reservation_cache_limit() == 2;

    // 1. After a request, the thread keeps what it gave back; the next request takes it again.
    long work = handle_request();
    const relo::warm_memory_held held = relo::warm_memory();
    print("after a request:", held);
    ok = ok && held.chunk_bytes > 0 && held.chunk_bytes == relo::chunk_cache_bytes() &&
         held.large_block_bytes >= 4 * mib && held.large_block_bytes == relo::large_block_cache_bytes() &&
         held.reservations == 1 && held.reservations == relo::reservation_cache_count() &&
         held.total() == held.chunk_bytes + held.large_block_bytes + held.reservation_bytes &&
         held.process_bytes == held.total();  // (no other thread keeps anything yet)
    {
        const table_type again(strings_in(4 * mib), "again");  // the cached block: no page to fault in
        print("while the next one runs:", relo::warm_memory());
        ok = ok && relo::large_block_cache_bytes() < held.large_block_bytes;
    }

    // 2. Giving it back: one cache at a time, or the thread's three at once.
    relo::trim_chunk_cache();
    relo::trim_large_block_cache();
    relo::trim_reservation_cache();
    ok = ok && relo::warm_memory().total() == 0 && relo::reservation_cache_count() == 0;
    work += handle_request();
    relo::trim_warm_memory();
    print("after trim_warm_memory():", relo::warm_memory());
    ok = ok && relo::warm_memory().total() == 0 && relo::warm_memory().process_bytes == 0;

    // 3. A worker's caches are its own: while it waits for work they stay (counted in the budget); whatever
    // this thread does gives nothing of them back.
    std::promise<std::size_t> request_done;
    std::promise<void> burst_over;
    std::promise<std::size_t> trimmed;
    long worker_work = 0;
    std::thread worker([&] {
        worker_work = handle_request();
        request_done.set_value(relo::warm_memory().total());
        burst_over.get_future().wait();  // idle, its caches full
        relo::trim_warm_memory();        // the end of a burst: the worker gives its own back
        trimmed.set_value(relo::warm_memory().total());
    });
    const std::size_t worker_kept = request_done.get_future().get();
    relo::trim_warm_memory();  // (this thread's: the worker's stay)
    const std::size_t while_idle = relo::warm_memory().process_bytes;
    std::printf("the idle worker keeps %zu KiB; the process %zu KiB\n", worker_kept >> 10, while_idle >> 10);
    ok = ok && worker_kept > 0 && worker_work > 0 && while_idle == worker_kept;
    burst_over.set_value();
    const std::size_t worker_after = trimmed.get_future().get();
    worker.join();  // (a thread's end gives its caches back too)
    ok = ok && worker_after == 0 && relo::warm_memory().process_bytes == 0;

    // 4. The idle delay: a thread that kept nothing for warm_memory_idle_delay() gives back what its caches
    // held at its next keep (nothing asked for it meanwhile), then keeps the new block.
    relo::set_warm_memory_idle_delay(std::chrono::milliseconds(50));
    {
        const table_type later(strings_in(8 * mib), "later");  // 8 MiB, alive through the pause
        { const table_type now(strings_in(4 * mib), "now"); }   // 4 MiB, kept
        print("before an idle pause:", relo::warm_memory());
        ok = ok && relo::large_block_cache_bytes() >= 4 * mib;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }  // later's block: the first keep after the pause gives the 4 MiB block back, then keeps this one
    print("after an idle pause:", relo::warm_memory());
    ok = ok && relo::large_block_cache_bytes() >= 8 * mib && relo::large_block_cache_bytes() < 12 * mib;
    relo::trim_warm_memory();

    // 5. A budget of 0 keeps nothing: every block goes straight back to the system or the heap.
    relo::set_warm_memory_limit(0);
    work += handle_request();
    print("with a budget of 0:", relo::warm_memory());
    ok = ok && relo::warm_memory().total() == 0;

    return ok && work > 0 ? 0 : 1;
}
