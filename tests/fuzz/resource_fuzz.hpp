// tests/fuzz/resource_fuzz.hpp — the fuzz driver of the memory resources: the fuzzer's bytes decode into
// allocate / deallocate / try_expand / release (or rewind and reset for an arena) sequences, checked
// against a shadow map of the live blocks: each new block is aligned as asked and overlaps no live one,
// every block keeps the bytes written into it until it is given back, and after release() (or
// reset(everything)) every byte is back with the upstream (or the system). The upstream counts what it
// holds and may be told to fail its k-th allocation: the resource then throws std::bad_alloc and goes on
// working. A share of the sizes come from the edges: near SIZE_MAX, near 2^63 (detail::max_block_bytes,
// the largest block relo hands out), near 2^62, and at the resources' own limits (class boundaries, chunk
// sizes, reservations, which lie at or between powers of two). A size no machine holds must be refused
// with std::bad_alloc, the resource unchanged, and no upstream may be asked for more than max_block_bytes.
#ifndef RELO_TESTS_FUZZ_RESOURCE_FUZZ_HPP
#define RELO_TESTS_FUZZ_RESOURCE_FUZZ_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <memory_resource>
#include <new>
#include <type_traits>
#include <utility>

#include "relo/detail/errors.hpp"
#include "relo/multipool_resource.hpp"

#include "fuzz_support.hpp"

namespace relo_fuzz {

/// An upstream over new/delete that counts the bytes it holds and fails its k-th allocation on demand.
/// Asked for more than detail::max_block_bytes, it fails the run: relo checks sizes before its upstream.
class counting_upstream final : public std::pmr::memory_resource {
public:
    std::size_t bytes_held = 0;
    long blocks_held = 0;
    long countdown = 0;  // 0: never fail
    bool failed = false;

private:
    void* do_allocate(std::size_t bytes, std::size_t alignment) override {
        RELO_FUZZ_CHECK(relo::detail::fits_in_block(bytes, alignment), "a request to the upstream beyond any block");
        if (bytes >= unholdable_bytes) throw std::bad_alloc();
        if (countdown > 0 && --countdown == 0) {
            failed = true;
            throw std::bad_alloc();
        }
        void* p = std::pmr::new_delete_resource()->allocate(bytes, alignment);
        bytes_held += bytes;
        ++blocks_held;
        return p;
    }
    void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
        RELO_FUZZ_CHECK(bytes_held >= bytes && blocks_held > 0, "a deallocation to the upstream");
        bytes_held -= bytes;
        --blocks_held;
        std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

/// The resource's side of a run. Subject provides
///   void* allocate(std::size_t bytes, std::size_t alignment)   (nullptr: refused as its contract allows,
///                                                              which the subject has checked)
///   void deallocate(void* p, std::size_t bytes, std::size_t alignment)
///   bool try_expand(void* p, std::size_t old_bytes, std::size_t new_bytes, std::size_t alignment)
///                                           (may always say false)
///   void give_back_all()        release() / reset(): every block is gone; then checks all is given back
///   bool mark() / bool rewind(char*& from)   an arena's marks: rewind says from which address blocks are gone
///   counting_upstream* upstream()           the upstream to arm failures on (nullptr: none)
///
/// global_heap_behind: the resource passes blocks to the global heap, where sizes below max_block_bytes
/// that no machine holds are not drawn (under AddressSanitizer, operator new aborts on them).
template <class Subject>
class resource_run {
public:
    resource_run(input& in, Subject& subject, bool global_heap_behind = false)
        : in_(in), subject_(subject), global_heap_behind_(global_heap_behind) {}

    void run() {
        for (int step = 0; step < 3000 && !in_.done(); ++step) {
            const std::uint8_t op = in_.byte();
            switch (op % 8) {
                case 0:
                case 1:
                case 2: allocate(); break;
                case 3:
                case 4: deallocate(); break;
                case 5: expand(); break;
                case 6:
                    if (in_.byte() < 32) {
                        what_ = "release";
                        verify_all();
                        subject_.give_back_all();
                        live_.clear();
                    } else {
                        verify_all();
                    }
                    break;
                default:
                    what_ = "mark / rewind";
                    if (in_.byte() & 1) {
                        subject_.mark();
                    } else {
                        char* from = nullptr;
                        if (subject_.rewind(from)) forget_from(from);
                    }
                    break;
            }
        }
        verify_all();
        for (const auto& [p, b] : live_) subject_.deallocate(p, b.bytes, b.alignment);
        live_.clear();
    }

private:
    struct block {
        std::size_t bytes;
        std::size_t alignment;
        std::uint8_t fill;
    };
    input& in_;
    Subject& subject_;
    bool global_heap_behind_;
    std::map<char*, block> live_;  // by address: a new block's neighbours are found in O(log n)
    const char* what_ = "start";
    std::uint8_t next_fill_ = 1;

    std::size_t pick_size() {
        const std::uint8_t b = in_.byte();
        if (b < 160) return b % 65;            // (the smallest classes, 0 included)
        if (b < 232) return in_.two_bytes() % 4200;  // (every class, and past the default largest)
        if (b < 248) return in_.two_bytes() * std::size_t{4} % 200000;  // (the upstream's, chunks of their own)
        return edge_size();
    }
    /// A size at an edge: one no machine holds (near SIZE_MAX, 2^63, 2^62), or one at a limit of the
    /// resources (a quarter-step of a power of two from 2^3 to 2^20, give or take a few bytes: every class
    /// boundary at up to 4 classes per doubling, the chunk sizes, the arena's smaller reservations).
    std::size_t edge_size() {
        constexpr std::size_t max_block = relo::detail::max_block_bytes;
        const std::uint8_t family = in_.byte();
        const std::size_t delta = in_.two_bytes();
        switch (family % 6) {
            case 0: return SIZE_MAX - delta;
            case 1: return max_block + 1 + delta;  // (2^63 and above: refused before any upstream)
            case 2:
                if (global_heap_behind_) return SIZE_MAX - delta / 2;
                return max_block - delta;
            case 3:
                if (global_heap_behind_) return max_block + 1;
                return (std::size_t{1} << 62) + delta - 32768;
            default: {
                const std::size_t power = std::size_t{1} << (3 + family / 6 % 18);
                return power + power / 4 * (delta % 4) + (delta >> 2) % 17 - 8;
            }
        }
    }
    static bool unholdable(std::size_t bytes) noexcept { return bytes >= unholdable_bytes; }
    std::size_t pick_alignment() {
        const std::uint8_t b = in_.byte();
        return b < 192 ? alignof(std::max_align_t) : std::size_t{1} << (b % 13);  // (1 ... 4096)
    }

    void allocate() {
        what_ = "allocate";
        const std::size_t bytes = pick_size();
        const std::size_t alignment = pick_alignment();
        counting_upstream* up = subject_.upstream();
        const bool arm = up != nullptr && in_.byte() >= 224;
        if (arm) {
            up->countdown = 1 + in_.byte() % 3;
            up->failed = false;
        }
        char* p = nullptr;
        try {
            p = static_cast<char*>(subject_.allocate(bytes, alignment));
        } catch (const std::bad_alloc&) {
            RELO_FUZZ_CHECK((arm && up->failed) || unholdable(bytes), "allocate (an unplanned std::bad_alloc)");
        }
        if (up != nullptr) up->countdown = 0;
        if (p == nullptr) return;
        RELO_FUZZ_CHECK(!unholdable(bytes), "allocate (a block no machine holds was handed out)");
        RELO_FUZZ_CHECK(reinterpret_cast<std::uintptr_t>(p) % alignment == 0, "allocate (misaligned)");
        check_no_overlap(p, bytes);
        const std::uint8_t fill = next_fill_++;
        if (next_fill_ == 0) next_fill_ = 1;
        std::memset(p, fill, bytes);
        live_[p] = {bytes, alignment, fill};
    }

    void check_no_overlap(char* p, std::size_t bytes) const {
        const std::size_t span = bytes != 0 ? bytes : 1;
        auto next = live_.lower_bound(p);
        if (next != live_.end()) RELO_FUZZ_CHECK(p + span <= next->first, "allocate (overlaps the next live block)");
        if (next != live_.begin()) {
            const auto previous = std::prev(next);
            const std::size_t previous_span = previous->second.bytes != 0 ? previous->second.bytes : 1;
            RELO_FUZZ_CHECK(previous->first + previous_span <= p, "allocate (overlaps the previous live block)");
        }
    }

    typename std::map<char*, block>::iterator pick_live() {
        auto it = live_.begin();
        std::advance(it, static_cast<long>(in_.below(live_.size())));
        return it;
    }

    void verify(char* p, const block& b) const {
        for (std::size_t i = 0; i < b.bytes; ++i) RELO_FUZZ_CHECK(static_cast<std::uint8_t>(p[i]) == b.fill, what_);
    }
    void verify_all() const {
        for (const auto& [p, b] : live_) verify(p, b);
    }

    void deallocate() {
        what_ = "deallocate";
        if (live_.empty()) return;
        const auto it = pick_live();
        verify(it->first, it->second);
        subject_.deallocate(it->first, it->second.bytes, it->second.alignment);
        live_.erase(it);
    }

    void expand() {
        what_ = "try_expand";
        if (live_.empty()) return;
        const auto it = pick_live();
        char* const p = it->first;
        const block b = it->second;
        std::size_t new_bytes = in_.below(b.bytes + 1);
        if (in_.byte() & 1) {
            const std::size_t more = pick_size();
            new_bytes = unholdable(more) ? more : b.bytes + more;  // (an edge size is the new size itself)
        }
        if (b.bytes == 0 || new_bytes == 0) return;
        if (!subject_.try_expand(p, b.bytes, new_bytes, b.alignment)) {
            verify(p, b);
            return;
        }
        RELO_FUZZ_CHECK(!unholdable(new_bytes), "try_expand (to a size no machine holds)");
        live_.erase(it);
        check_no_overlap(p, new_bytes);
        if (new_bytes > b.bytes) std::memset(p + b.bytes, b.fill, new_bytes - b.bytes);
        live_[p] = {new_bytes, b.alignment, b.fill};
        verify(p, live_[p]);
    }

    /// A rewind gave back every block that reaches past `from`.
    void forget_from(char* from) {
        for (auto it = live_.begin(); it != live_.end();) {
            if (it->first + it->second.bytes > from || it->first >= from) it = live_.erase(it);
            else ++it;
        }
    }
};

/// The subject of a resource whose release() gives everything back: relo's monotonic, multipool and
/// synchronized multipool resources. Checked after each release: nothing in use, and the upstream holds
/// what the resource says it holds (for a multipool, the table of its pools at most).
template <class Resource>
class releasing_subject {
public:
    /// upstream: where failures are planned (nullptr: nowhere); direct: it is the resource's own upstream,
    /// whose bytes the resource accounts for.
    releasing_subject(Resource& r, counting_upstream* upstream, bool direct = true) noexcept
        : r_(r), upstream_(upstream), direct_(direct) {}

    void* allocate(std::size_t bytes, std::size_t alignment) { return r_.allocate(bytes, alignment); }
    void deallocate(void* p, std::size_t bytes, std::size_t alignment) { r_.deallocate(p, bytes, alignment); }
    bool try_expand(void* p, std::size_t old_bytes, std::size_t new_bytes, std::size_t alignment) {
        if constexpr (has_try_expand<Resource>::value) return r_.try_expand(p, old_bytes, new_bytes, alignment);
        return false;
    }
    void give_back_all() {
        r_.release();
        RELO_FUZZ_CHECK(r_.bytes_in_use() == 0, "release (bytes still in use)");
        if (upstream_ != nullptr && direct_) RELO_FUZZ_CHECK(upstream_->bytes_held == r_.upstream_bytes(), "release (the upstream's count)");
    }
    void mark() {}
    bool rewind(char*&) { return false; }
    counting_upstream* upstream() const noexcept { return upstream_; }

private:
    template <class R, class = void>
    struct has_try_expand : std::false_type {};
    template <class R>
    struct has_try_expand<R, std::void_t<decltype(std::declval<R&>().try_expand(nullptr, 1, 1, 1))>> : std::true_type {};

    Resource& r_;
    counting_upstream* upstream_;
    bool direct_;
};

/// Multipool settings from two bytes: 1, 2 or 4 classes per doubling, a largest class from 8 bytes to
/// 4 KiB, first chunks of 1 to 16 blocks, chunks up to 256 bytes ... 128 KiB.
inline relo::multipool_options pick_multipool_options(input& in) {
    const std::uint8_t a = in.byte();
    const std::uint8_t b = in.byte();
    relo::multipool_options o;
    o.classes_per_doubling = std::size_t{1} << (a % 3);
    o.max_block = std::size_t{8} << (a / 3 % 10);
    o.first_blocks = 1 + b % 16;
    o.max_chunk = std::size_t{256} << (b / 16 % 10);
    return o;
}

}  // namespace relo_fuzz

#endif  // RELO_TESTS_FUZZ_RESOURCE_FUZZ_HPP
