// relo/detail/chunk_index.hpp — hardened checks' index of a resource's chunks: which chunk, if any, holds
// an address, in O(log chunks).
//
// A resource keeps its chunks in a list, newest first, and gives them back all at once. The index is an
// array of the chunks' address ranges sorted by address, made on demand by the hardened checks from that
// list: each check first brings it up to date (the chunks added since the last check are at the head of
// the list: sorted and merged in, O(new + indexed)), then searches it. Its memory comes from std::malloc,
// never from the resource's upstream (a hardened build must not change what the upstream sees); if
// malloc fails, the check walks the list instead. The resource's state is the same with checks on or
// off: the index is only read and written by the checks, and a resource counts the times it gave its
// chunks back (`epoch`) whether checks are on or not, so that an index older than that is rebuilt.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_CHUNK_INDEX_HPP
#define RELO_DETAIL_CHUNK_INDEX_HPP

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <functional>

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

class chunk_index {
public:
    /// A chunk's usable addresses [begin, end), and the chunk.
    struct range {
        const char* begin;
        const char* end;
        const void* chunk;
    };

    chunk_index() noexcept = default;
    chunk_index(const chunk_index&) = delete;
    chunk_index& operator=(const chunk_index&) = delete;
    ~chunk_index() {
        if (table_ != nullptr) std::free(table_);  // (most resources never index: no call for them)
    }

    /// The range that holds p (its chunk is nullptr when no chunk does). `newest` is the head of the
    /// resource's chunk list, `epoch` the number of times the resource gave its chunks back; describe(chunk)
    /// gives a chunk's range and next(chunk) the chunk before it in the list (nullptr at the end).
    template <class Chunk, class Describe, class Next>
    range find(const void* p, std::size_t epoch, const Chunk* newest, Describe describe, Next next) noexcept {
        const char* q = static_cast<const char*>(p);
        if (!update(epoch, newest, describe, next)) {  // (no memory for the index: walk the list)
            for (const Chunk* c = newest; c != nullptr; c = next(c)) {
                const range r = describe(c);
                if (contains(r, q)) return r;
            }
            return range{nullptr, nullptr, nullptr};
        }
        const range* const first = table_->ranges;
        const range* const last = first + table_->count;
        if (table_->last_found < table_->count && contains(first[table_->last_found], q))  // (often the same chunk)
            return first[table_->last_found];
        // The last range that begins at or before q.
        const range* r = std::upper_bound(first, last, q, [](const char* a, const range& b) {
            return std::less<const char*>{}(a, b.begin);
        });
        if (r == first || !contains(r[-1], q)) return range{nullptr, nullptr, nullptr};
        table_->last_found = static_cast<std::size_t>(r - 1 - first);
        return r[-1];
    }

private:
    struct table {
        std::size_t epoch;
        const void* newest;  // the list's head when the table was last brought up to date
        std::size_t count;
        std::size_t capacity;
        std::size_t last_found;  // the range the last search found
        range ranges[1];  // (count of them, sorted by begin; the allocation holds capacity)
    };
    table* table_ = nullptr;

    static bool contains(const range& r, const char* q) noexcept {
        return !std::less<const char*>{}(q, r.begin) && std::less<const char*>{}(q, r.end);
    }
    static bool by_address(const range& a, const range& b) noexcept { return std::less<const char*>{}(a.begin, b.begin); }

    template <class Chunk, class Describe, class Next>
    bool update(std::size_t epoch, const Chunk* newest, Describe& describe, Next& next) noexcept {
        if (table_ != nullptr && table_->epoch == epoch && table_->newest == newest) return true;
        // The chunks added since: the head of the list down to the newest one indexed (all of them when
        // the resource gave its chunks back since, or nothing is indexed yet).
        const bool extend = table_ != nullptr && table_->epoch == epoch && table_->newest != nullptr;
        const void* stop = extend ? table_->newest : nullptr;
        std::size_t added = 0;
        for (const Chunk* c = newest; c != nullptr && c != stop; c = next(c)) ++added;
        const std::size_t kept = extend ? table_->count : 0;
        if (!reserve(kept + added)) return false;
        range* const fresh = table_->ranges + kept;
        std::size_t k = 0;
        for (const Chunk* c = newest; c != nullptr && c != stop; c = next(c)) fresh[k++] = describe(c);
        std::sort(fresh, fresh + added, by_address);
        std::inplace_merge(table_->ranges, fresh, fresh + added, by_address);
        table_->count = kept + added;
        table_->epoch = epoch;
        table_->newest = newest;
        return true;
    }

    bool reserve(std::size_t n) noexcept {
        if (table_ != nullptr && table_->capacity >= n) return true;
        const std::size_t capacity = n < 16 ? 16 : n * 2;
        auto* grown = static_cast<table*>(std::realloc(table_, sizeof(table) + (capacity - 1) * sizeof(range)));
        if (grown == nullptr) return false;
        if (table_ == nullptr) grown->count = 0;
        grown->last_found = 0;
        grown->capacity = capacity;
        table_ = grown;
        return true;
    }
};

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_CHUNK_INDEX_HPP
