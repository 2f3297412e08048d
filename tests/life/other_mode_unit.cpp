// A unit of life_events_test built in the other backend mode than the rest (RELO_PORTABLE_POSIX on or
// off): one program with both modes, whose relo types live in different inline namespaces
// (relo/detail/abi.hpp), so that each unit uses its own code and its own thread caches.
#if defined(RELO_PORTABLE_POSIX)
#undef RELO_PORTABLE_POSIX
#else
#define RELO_PORTABLE_POSIX
#endif

#include <cstddef>
#include <string>
#include <typeinfo>

#include "relo/page_allocator.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/vector.hpp"
#include "relo/warm_memory.hpp"

namespace relo_test {

std::string other_mode_vector_type() { return typeid(relo::vector<int>).name(); }

namespace {
// (Ints on large blocks from 64 KiB, as tests/mapped_ints.hpp's, defined here: that header's types would
// derive from the other mode's relo types under the same names.)
struct ints_mapped_from_64k : relo::page_allocator_policy {
    static constexpr std::size_t relocatable_mapping_threshold = std::size_t{64} << 10;
};
}  // namespace

/// Grows and drops containers on this mode's large-block and reservation paths; the sum of what it read.
std::size_t other_mode_workout() {
    std::size_t sum = 0;
    for (int round = 0; round < 3; ++round) {
        relo::vector<int, relo::page_allocator<int, ints_mapped_from_64k>> v;
        for (int i = 0; i < (1 << 21); ++i) v.push_back(i);  // (8 MiB: mapped, moved, given back)
        v.resize(1000);
        v.shrink_to_fit();
        sum += static_cast<std::size_t>(v[999]);
        relo::pinned_vector<std::size_t> pinned(relo::max_capacity, std::size_t{1} << 20);
        for (std::size_t i = 0; i < 100000; ++i) pinned.push_back(i);
        sum += pinned[99999];
    }
    return sum;
}

/// What this mode's caches keep, in all threads.
std::size_t other_mode_process_bytes() { return relo::warm_memory().process_bytes; }

}  // namespace relo_test
