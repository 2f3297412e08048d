// relo/chunk_cache.hpp — the chunks relo's local resources give back to the global heap, kept by each thread
// for the next resource it makes (a bounded cache), and its settings.
//
// A local resource is often made for one data structure and destroyed with it (P0089's use). Its chunks then
// go back to the global heap all at once, and glibc gives the top of its heap back to the kernel whenever
// more than M_TRIM_THRESHOLD (128 KiB) lies free there: the next resource's chunks are fresh pages, each
// faulted in and zeroed again, which made a multipool per structure slower than the malloc it replaces
// (docs/measurements/memory_resources.md, "With the chunk cache"). So the chunks relo::monotonic_resource and relo::multipool_resource (and the
// synchronized one) give back to std::pmr::new_delete_resource() are kept by the thread that gives them
// back, up to chunk_cache_limit() bytes, and handed to the next chunk request of the same size and
// alignment on that thread. The multipool's blocks too large for its classes, passed through to the heap,
// are kept the same way (a hash table's bucket arrays come back in the same sizes for the next table).
// Chunks of any other upstream go straight back to it: a user's resource keeps its own policy. The cache
// gives everything back when its thread ends, or on trim_chunk_cache() (one of relo/warm_memory.hpp's
// three caches: trim_warm_memory() empties them all).
// Layer 4, allocators and resources (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_CHUNK_CACHE_HPP
#define RELO_CHUNK_CACHE_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <memory_resource>

#include "relo/detail/sanitizers.hpp"
#include "relo/detail/thread_cache.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

namespace detail {

/// One thread's cached chunks: a few exact sizes, each a LIFO list threaded through the chunks themselves
/// (a detail/thread_cache.hpp state: emptied when the thread ends, on a trim, or at a keep after an idle
/// delay).
struct chunk_cache_state : thread_cache_state {
    static constexpr std::size_t sizes = 24;
    struct free_chunk {
        free_chunk* next;
    };
    struct bucket {
        std::size_t bytes;
        free_chunk* head;
    };
    bucket buckets[sizes];
    std::size_t held;
};

inline atomic<std::size_t> chunk_cache_limit_bytes{std::size_t{8} << 20};

/// Gives every cached chunk back to the global heap; returns their bytes.
inline std::size_t empty_chunk_cache(chunk_cache_state& c) noexcept {
    std::pmr::memory_resource* heap = std::pmr::new_delete_resource();
    for (auto& b : c.buckets) {
        while (b.head != nullptr) {
            chunk_cache_state::free_chunk* const f = b.head;
            b.head = f->next;
            unpoison(f, b.bytes);
            heap->deallocate(f, b.bytes, alignof(std::max_align_t));
        }
        b.bytes = 0;
    }
    const std::size_t given_back = c.held;
    return_warm_budget(given_back);
    c.held = 0;
    return given_back;
}

using chunk_thread_cache = thread_cache<chunk_cache_state, empty_chunk_cache>;

inline chunk_cache_state& chunk_cache() noexcept { return chunk_thread_cache::state(); }

/// The global heap's resource, asked for once: new_delete_resource() is a call into the standard library,
/// and a resource made for one small structure asked for it twice. (Null until the program's dynamic
/// initialization reaches it: a chunk taken before that is simply not cached.)
inline std::pmr::memory_resource* const heap_resource = std::pmr::new_delete_resource();

inline bool cacheable(std::pmr::memory_resource* upstream, std::size_t alignment) noexcept {
    return warm_caches_built && upstream == heap_resource && alignment <= alignof(std::max_align_t);
}

/// A chunk of `bytes` at `alignment` from the upstream, or from the thread's cache when it holds one of
/// that size. Throws what the upstream throws. (A chunk the cache may keep is asked of the heap at
/// std::max_align_t's alignment whatever was asked, and given back so: the cache holds chunks asked at
/// different alignments, and the heap's sized, aligned delete must be told the alignment of the new.)
inline void* take_chunk(std::pmr::memory_resource* upstream, std::size_t bytes, std::size_t alignment) {
    if (cacheable(upstream, alignment)) {
        alignment = alignof(std::max_align_t);
        chunk_cache_state& own = chunk_cache();
        const owner_visit visit(own);
        chunk_cache_state& c = chunk_thread_cache::visited(visit, own);
        for (auto& b : c.buckets) {
            if (b.bytes == bytes && b.head != nullptr) {
                chunk_cache_state::free_chunk* const f = b.head;
                b.head = f->next;
                c.held -= bytes;
                return_warm_budget(bytes);
                unpoison(f, bytes);
                return f;
            }
        }
    }
    return upstream->allocate(bytes, alignment);
}

/// Gives a resource's chunks back, each to the thread's cache when its upstream is the global heap and
/// the cache has room and a list for its size (and the process's warm budget has room), to the upstream
/// otherwise; the chunks kept in a row in one visit of the cache (a resource's chunks go back together: one
/// mark and one clock read for all), left before any call to the upstream (a user's resource, which may
/// take locks of its own). (Under AddressSanitizer a cached chunk is
/// poisoned but for its link, so that a use after a resource's release() is reported; one given to the
/// upstream is unpoisoned, as the upstream may hand it out again.)
class chunk_return {
public:
    explicit chunk_return(std::pmr::memory_resource* upstream) noexcept : upstream_(upstream) {}
    ~chunk_return() { leave(); }
    chunk_return(const chunk_return&) = delete;
    chunk_return& operator=(const chunk_return&) = delete;

    RELO_ALWAYS_INLINE void operator()(void* chunk, std::size_t bytes, std::size_t alignment) noexcept {
        unpoison(chunk, bytes);  // (a resource may have poisoned parts of it)
        const bool keepable = cacheable(upstream_, alignment);
        if (keepable) alignment = alignof(std::max_align_t);  // (as take_chunk asked the heap)
        if (keepable && bytes >= sizeof(chunk_cache_state::free_chunk) && keep(chunk, bytes)) return;
        leave();
        upstream_->deallocate(chunk, bytes, alignment);
    }

private:
    void leave() noexcept {
        if (cache_ == nullptr) return;
        visit_.~owner_visit();
        cache_ = nullptr;
        kept_ = false;
    }

    bool keep(void* chunk, std::size_t bytes) noexcept {
        if (cache_ == nullptr) {
            chunk_cache_state& own = chunk_cache();
            ::new (static_cast<void*>(&visit_)) owner_visit(own);
            cache_ = &chunk_thread_cache::visited(visit_, own);
        }
        chunk_cache_state& c = *cache_;
        if (c.closed || bytes > chunk_cache_limit_bytes.load(memory_order_relaxed)) return false;
        if (!kept_) chunk_thread_cache::keeping(c);  // (once a visit)
        if (c.held + bytes > chunk_cache_limit_bytes.load(memory_order_relaxed)) return false;
        chunk_cache_state::bucket* slot = nullptr;
        for (auto& b : c.buckets) {
            if (b.bytes == bytes) {
                slot = &b;
                break;
            }
            if (slot == nullptr && b.head == nullptr) slot = &b;
        }
        if (slot == nullptr || !take_warm_budget(bytes)) return false;
        slot->bytes = bytes;
        auto* f = static_cast<chunk_cache_state::free_chunk*>(chunk);
        f->next = slot->head;
        slot->head = f;
        c.held += bytes;
        poison(f + 1, bytes - sizeof *f);
        kept_ = true;
        return true;
    }

    std::pmr::memory_resource* upstream_;
    chunk_cache_state* cache_ = nullptr;  // the visited cache, once visit_ is made
    bool kept_ = false;
    union {
        owner_visit visit_;
    };
};

/// Gives one chunk back (chunk_return).
inline void give_back_chunk(std::pmr::memory_resource* upstream, void* chunk, std::size_t bytes,
                            std::size_t alignment) noexcept {
    chunk_return give_back(upstream);
    give_back(chunk, bytes, alignment);
}

}  // namespace detail

/// The most bytes of released chunks each thread keeps for its next local resources (default 8 MiB,
/// measured in docs/measurements/memory_resources.md; 0 keeps none). Applies from the next chunk given back.
inline std::size_t chunk_cache_limit() noexcept { return detail::chunk_cache_limit_bytes.load(detail::memory_order_relaxed); }
/// Sets chunk_cache_limit() for every thread, from the next chunk given back (nothing is given back now).
inline void set_chunk_cache_limit(std::size_t bytes) noexcept {
    detail::chunk_cache_limit_bytes.store(bytes, detail::memory_order_relaxed);
}

/// Bytes the calling thread's cache holds.
inline std::size_t chunk_cache_bytes() noexcept {
    return detail::chunk_thread_cache::visit([](const detail::chunk_cache_state& c) { return c.held; });
}

/// Gives the calling thread's cached chunks back to the global heap.
inline void trim_chunk_cache() noexcept { (void)detail::chunk_thread_cache::trim(); }

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_CHUNK_CACHE_HPP
