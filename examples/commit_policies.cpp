// examples/commit_policies.cpp — how relo::pinned_vector and relo::vm_arena commit the pages of their
// reservation (relo/commit_policy.hpp), and what vm_arena::reset() gives back.
//
// Both reserve address space once and make pages of it usable as they fill. The default, geometric_commit,
// doubles the committed size at each step; page_commit commits one page at a time (the fewest bytes
// committed, the most system calls); huge_page_commit takes transparent huge pages from 2 MiB on (faster
// where the system has them at hand: measure). A commit_rule of one's own sets the steps, for an arena
// whose frames are known to need a few MiB; reset() then says how much of a frame's memory stays.
#include <relo/commit_policy.hpp>
#include <relo/pinned_vector.hpp>
#include <relo/vm_arena.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace {

constexpr std::size_t kib = std::size_t{1} << 10;

template <class Policy>
std::size_t committed_for(std::size_t n) {
    relo::pinned_vector<int, Policy> v(relo::max_capacity, 1'000'000);
    for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<int>(i));
    static_assert(std::is_same_v<typename decltype(v)::commit_policy, Policy>, "the vector's policy");
    return v.committed_bytes() >= n * sizeof(int) && v.reserved_bytes() >= 1'000'000 * sizeof(int)
               ? v.committed_bytes()
               : 0;
}

}  // namespace

int main() {
    bool ok = true;

    // 1. The policies, on a pinned_vector of 100,000 ints (400 KB) in a reservation of a million.
    const std::size_t geometric = committed_for<relo::geometric_commit>(100'000);
    const std::size_t page_by_page = committed_for<relo::page_commit>(100'000);
    const std::size_t huge = committed_for<relo::huge_page_commit>(100'000);
    std::printf("committed for 400 KB: geometric %zu KiB, page by page %zu KiB, huge pages %zu KiB (huge pages from "
                "%zu KiB on)\n",
                geometric / kib, page_by_page / kib, huge / kib, relo::huge_page_commit::rule.huge_page_threshold / kib);
    std::printf("a default-constructed pinned_vector reserves %zu MiB, a vm_arena %zu MiB\n",
                relo::pinned_vector<int>::default_reservation >> 20, relo::vm_arena::default_reservation >> 20);
    ok = ok && geometric > 0 && page_by_page > 0 && huge > 0 && page_by_page <= geometric &&
         relo::page_commit::rule.max_step == relo::page_commit::rule.first_step &&
         relo::geometric_commit::rule.huge_page_threshold == SIZE_MAX;

    // 2. An arena with a rule of its own: 256 KiB first, then steps of at most 1 MiB; reset() keeps at least
    // 512 KiB committed (and twice the most a frame used), no huge pages.
    relo::commit_rule rule = relo::geometric_commit::rule;
    rule.first_step = 256 * kib;
    rule.max_step = 1024 * kib;
    rule.retained_minimum = 512 * kib;
    rule.huge_page_threshold = SIZE_MAX;
    relo::vm_arena arena(std::size_t{256} << 20, rule);

    std::memset(arena.allocate(3 * 1024 * kib), 1, 3 * 1024 * kib);  // a big frame: 3 MiB
    const std::size_t after_big_frame = arena.committed();
    arena.reset(relo::vm_arena::give_back::nothing);  // every page stays: the next frame faults none in
    const std::size_t kept_all = arena.committed();
    std::memset(arena.allocate(100 * kib), 2, 100 * kib);  // a small frame
    arena.reset(relo::vm_arena::give_back::beyond_slack);  // (the default) keeps max(2 x the most used since the last reset, 512 KiB)
    const std::size_t kept_slack = arena.committed();
    arena.reset(relo::vm_arena::give_back::everything);
    std::printf("arena: %zu KiB committed after a 3 MiB frame; reset keeping everything %zu KiB, keeping the "
                "slack %zu KiB, giving back everything %zu KiB\n",
                after_big_frame / kib, kept_all / kib, kept_slack / kib, arena.committed() / kib);
    ok = ok && after_big_frame >= 3 * 1024 * kib && kept_all == after_big_frame && kept_slack < kept_all &&
         kept_slack >= rule.retained_minimum && arena.committed() == 0 && arena.used() == 0;
    return ok ? 0 : 1;
}
