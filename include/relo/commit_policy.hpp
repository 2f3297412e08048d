// relo/commit_policy.hpp — how relo::pinned_vector and relo::vm_arena commit the pages of their reservation.
//
// Both reserve a range of address space once (no memory behind it) and make pages of it readable and
// writable as their contents grow: committing a page is one mprotect; the memory itself comes with the
// first write to each page (a page fault). A commit policy says how far ahead each commit goes, whether
// transparent huge pages are used, and how much committed memory a shrinking container keeps:
//
//   relo::geometric_commit   (the default) commits one page first, then doubles the committed size, at
//                            most 64 MiB at once; 4 KiB pages.
//   relo::huge_page_commit   the same steps, and from 2 MiB on the reservation is advised MADV_HUGEPAGE
//                            and commits are whole huge pages, so each fault maps 2 MiB: faster where the
//                            system has free huge pages at hand, slower where it must make them (on VMs
//                            whose free memory goes back to the host; docs/measurements/pinned_vector.md);
//                            measure yours.
//   relo::page_commit        one 4 KiB page at a time (the reserve-and-commit notes' DynArray: the fewest bytes committed,
//                            and the most commit calls).
//
// Committing ahead costs no memory: only written pages are resident (and, with huge pages, at most one
// partly used huge page). The constants are measured in docs/measurements/pinned_vector.md.
//
// A user policy is a type with a `static constexpr relo::commit_rule rule`.
// Layer 1, vocabulary (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_COMMIT_POLICY_HPP
#define RELO_COMMIT_POLICY_HPP

#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <cstdint>

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// The numbers a commit policy is made of (bytes).
struct commit_rule {
    std::size_t first_step;           ///< the first commit (rounded up to whole pages)
    std::size_t max_step;             ///< later commits double what is committed, up to this much at once
    std::size_t huge_page_threshold;  ///< from this committed size on: huge pages (SIZE_MAX: never)
    std::size_t retained_minimum;     ///< vm_arena::reset() keeps max(2 x most used, this) committed; so do cached reservations
};

/// The default: one page first, then the committed size doubles, at most 64 MiB at once; 4 KiB pages.
struct geometric_commit {
    /// First step one 4 KiB page, steps up to 64 MiB, no huge pages, 2 MiB retained.
    static constexpr commit_rule rule{std::size_t{4} << 10, std::size_t{64} << 20, SIZE_MAX, std::size_t{2} << 20};
};

/// geometric_commit's steps, and transparent huge pages from 2 MiB committed on (this header's opening
/// comment says when they pay; measure yours).
struct huge_page_commit {
    /// First step one 4 KiB page, steps up to 64 MiB, huge pages from 2 MiB, 2 MiB retained.
    static constexpr commit_rule rule{std::size_t{4} << 10, std::size_t{64} << 20, std::size_t{2} << 20,
                                      std::size_t{2} << 20};
};

/// One 4 KiB page at a time: the fewest bytes committed, and the most commit calls.
struct page_commit {
    /// Every step one 4 KiB page, no huge pages, one page retained.
    static constexpr commit_rule rule{std::size_t{4} << 10, std::size_t{4} << 10, SIZE_MAX, std::size_t{4} << 10};
};

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_COMMIT_POLICY_HPP
