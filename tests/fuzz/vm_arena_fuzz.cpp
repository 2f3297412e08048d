// tests/fuzz/vm_arena_fuzz.cpp — relo::vm_arena under the resource fuzz driver (resource_fuzz.hpp): a
// reservation of 64 KiB to 64 MiB (so that running out is reached: std::bad_alloc, the arena unchanged),
// committed page by page or geometrically; marks and rewinds, and resets that give back nothing, the
// pages beyond the slack, or everything (then nothing may stay committed).
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "relo/vm_arena.hpp"

#include "resource_fuzz.hpp"

namespace {

class arena_subject {
public:
    arena_subject(relo_fuzz::input& in, relo::vm_arena& arena) noexcept : in_(in), arena_(arena) {}

    void* allocate(std::size_t bytes, std::size_t alignment) {
        const std::size_t used = arena_.used();
        try {
            char* p = static_cast<char*>(arena_.allocate(bytes, alignment));
            base_ = p + bytes - arena_.used();  // (the top is the end of the newest block)
            return p;
        } catch (const std::bad_alloc&) {
            const std::size_t start = (used + alignment - 1) / alignment * alignment;  // (the base is page-aligned)
            const std::size_t n = bytes != 0 ? bytes : 1;
            RELO_FUZZ_CHECK(start > arena_.reserved() || n > arena_.reserved() - start, "allocate (refused with room left)");
            RELO_FUZZ_CHECK(arena_.used() == used, "allocate (a refusal changed the arena)");
            return nullptr;
        }
    }
    void deallocate(void* p, std::size_t bytes, std::size_t alignment) { arena_.deallocate(p, bytes, alignment); }
    bool try_expand(void* p, std::size_t old_bytes, std::size_t new_bytes, std::size_t alignment) {
        return arena_.try_expand(p, old_bytes, new_bytes, alignment);
    }
    void give_back_all() {
        const std::uint8_t how = in_.byte() % 3;
        arena_.reset(how == 0 ? relo::vm_arena::give_back::nothing
                              : how == 1 ? relo::vm_arena::give_back::beyond_slack : relo::vm_arena::give_back::everything);
        marks_.clear();
        RELO_FUZZ_CHECK(arena_.used() == 0, "reset (bytes still in use)");
        RELO_FUZZ_CHECK(arena_.committed() <= arena_.reserved(), "reset");
        if (how == 2) RELO_FUZZ_CHECK(arena_.committed() == 0, "reset(everything) (pages still committed)");
    }
    void mark() { marks_.push_back({arena_.mark(), arena_.used()}); }
    /// Rewinds to a mark still valid (not above the top, not under a rewind since); says from where.
    bool rewind(char*& from) {
        while (!marks_.empty() && marks_.back().used > arena_.used()) marks_.pop_back();
        if (marks_.empty()) return false;
        const std::size_t i = in_.below(marks_.size());
        const saved m = marks_[i];
        if (m.used > arena_.used()) return false;
        arena_.rewind(m.at);
        RELO_FUZZ_CHECK(arena_.used() == m.used, "rewind (the top)");
        marks_.resize(i + 1);
        from = base_ != nullptr ? base_ + m.used : nullptr;
        return base_ != nullptr;
    }
    relo_fuzz::counting_upstream* upstream() const noexcept { return nullptr; }

private:
    struct saved {
        relo::vm_arena::marker at;
        std::size_t used;
    };
    relo_fuzz::input& in_;
    relo::vm_arena& arena_;
    std::vector<saved> marks_;
    char* base_ = nullptr;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    relo_fuzz::input in(data, size);
    const std::uint8_t variant = in.byte();
    const std::size_t reservation = std::size_t{64} << 10 << (variant % 11);
    relo::vm_arena arena(reservation, variant & 0x80 ? relo::page_commit::rule : relo::geometric_commit::rule);
    arena_subject subject(in, arena);
    relo_fuzz::resource_run<arena_subject>(in, subject).run();
    return 0;
}
