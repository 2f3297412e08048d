// A shared library with its own copy of relo (built with hidden visibility), loaded and unloaded by
// life_events_test while threads use it: each copy keeps its own caches and budget; unloading it gives
// back what the unloading thread keeps in its caches and leaves no callback into its code (what other
// living threads keep there is left, within the copy's budget).
#include <cstddef>
#include <cstring>

#include "relo/multipool_resource.hpp"
#include "relo/vector.hpp"
#include "../mapped_ints.hpp"
#include "relo/vm_arena.hpp"
#include "relo/warm_memory.hpp"

#define RELO_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

/// Keeps something in each of the calling thread's caches of this copy; returns where the large block
/// the cache keeps lies (its first element).
RELO_PLUGIN_EXPORT const void* plugin_keep(int seed) {
    const void* block = nullptr;
    {
        relo_test::mapped_ints v(std::size_t{1} << 20, seed);
        block = v.data();
    }
    {
        relo::multipool_resource pools;
        for (int i = 0; i < 100; ++i) *static_cast<int*>(pools.allocate(64)) = seed;
    }
    {
        relo::vm_arena arena(std::size_t{4} << 20);
        std::memset(arena.allocate(std::size_t{1} << 20, 1), seed & 0x7f, std::size_t{1} << 20);
    }
    return block;
}

/// What this copy's caches keep in all threads.
RELO_PLUGIN_EXPORT std::size_t plugin_process_bytes() { return relo::warm_memory().process_bytes; }

/// What the calling thread's caches of this copy keep.
RELO_PLUGIN_EXPORT std::size_t plugin_thread_bytes() { return relo::warm_memory().total(); }

/// This copy's trim of the calling thread's caches; the bytes it gave back.
RELO_PLUGIN_EXPORT std::size_t plugin_trim() {
    const std::size_t before = relo::warm_memory().total();
    relo::trim_warm_memory();
    return before - relo::warm_memory().total();
}
