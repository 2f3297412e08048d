// examples/allocators.cpp — relo's allocators: relo::page_allocator (relo::default_allocator, every relo
// vector's unless told otherwise), its policies and its expansion protocol, and relo::resource_allocator's
// conveniences (C++20 polymorphic_allocator's, on a resource bound at compile time).
//
// page_allocator takes blocks from malloc while they are small and from reserved mappings of its own once
// they are large, so that a large block grows in place (or moves by mremap, for trivially relocatable
// contents). A policy says where "large" starts; the expansion protocol (allocate_at_least, try_expand,
// reallocate: docs/expansion_protocol.md) is what relo's containers call, and a buffer of your own can too.
#include <relo/monotonic_resource.hpp>
#include <relo/page_allocator.hpp>
#include <relo/resource_allocator.hpp>
#include <relo/vector.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory_resource>
#include <string>
#include <type_traits>

namespace {

/// Large blocks from 16 KiB for trivially relocatable types, each reserving 64 times its size to grow into.
struct early_mappings : relo::page_allocator_policy {
    static constexpr std::size_t relocatable_mapping_threshold = std::size_t{16} << 10;
    static constexpr std::size_t reservation_factor = 64;
};

template <class T, class Policy>
using vector_with = relo::vector<T, relo::page_allocator<T, Policy>>;

}  // namespace

int main() {
    bool ok = true;

    // 1. The policies: where large blocks start, and when they use transparent huge pages.
    using defaults = relo::page_allocator_policy;
    const relo::vector<double> plain;
    std::printf("default policy: large blocks from %zu KiB (other types %zu KiB), reserving %zux; realloc from %zu "
                "bytes; huge pages %s\n",
                plain.get_allocator().mapping_threshold() >> 10, defaults::other_mapping_threshold >> 10,
                defaults::reservation_factor, defaults::realloc_threshold,
                defaults::huge_page_threshold == static_cast<std::size_t>(-1) ? "never" : "from a threshold");
    std::printf("large_block_policy: large blocks from %zu KiB, huge pages from %zu KiB\n",
                relo::page_allocator<double, relo::large_block_policy>::mapping_threshold() >> 10,
                relo::large_block_policy::huge_page_threshold >> 10);
    vector_with<double, early_mappings> samples(10'000, 0.5);  // 80 KB: a large block under this policy
    ok = ok && plain.get_allocator().mapping_threshold() == defaults::relocatable_mapping_threshold &&
         samples.get_allocator().mapping_threshold() == early_mappings::relocatable_mapping_threshold &&
         relo::page_allocator<std::string>::mapping_threshold() == defaults::other_mapping_threshold &&
         relo::page_allocator<double, relo::large_block_policy>::mapping_threshold() ==
             relo::large_block_policy::relocatable_mapping_threshold;

    // Mappings are a resource: past reservation_limit() reservations held, large blocks come from the heap
    // (as past the system's vm.max_map_count); blocks of heap_maps_fresh_from bytes or more are reservations
    // whatever relo holds, smaller ones while relo can keep their pages warm (relo/warm_memory.hpp).
    const std::size_t held_before = relo::reservations_held();
    const std::size_t reservation_limit = relo::reservation_limit();
    relo::set_reservation_limit(held_before);  // no more reservations from here on
    const relo::vector<std::string> from_heap(100'000, "x");  // 3.2 MB of strings: a large block, from the heap
    relo::set_reservation_limit(reservation_limit);
    std::printf("reservations held: %zu of at most %zu; from %zu MiB a block is one whatever relo holds\n",
                relo::reservations_held(), reservation_limit, defaults::heap_maps_fresh_from >> 20);
    ok = ok && relo::reservations_held() == held_before && from_heap.back() == "x";

    // 2. The expansion protocol on a buffer of one's own: how much the block really holds, growth in place,
    // and else a move of the bytes (never of objects: for trivially relocatable contents only).
    relo::page_allocator<char, early_mappings> bytes;
    const std::size_t asked = std::size_t{1} << 20;  // 1 MiB: a large block under this policy
    const relo::allocation_result<char*> block = bytes.allocate_at_least(asked);
    char* buffer = block.ptr;
    std::size_t held = block.count;  // at least `asked`
    std::memset(buffer, 'x', held);
    const std::size_t wanted = 4 * held;
    // (may_expand: whether try_expand can grow it at all; false for a malloc block, whose count is all it has.
    // prefers_new_block: whether a move into a warm block the thread's cache holds would fault fewer pages
    // than growing in place; relo's containers ask it first for the types they move one by one.)
    const bool rather_move = bytes.prefers_new_block(buffer, held, held, wanted);
    const bool in_place = !rather_move && bytes.may_expand(held) && bytes.try_expand(buffer, held, wanted);
    if (!in_place) buffer = bytes.reallocate(buffer, held, wanted);  // the bytes move; the first `held` are kept
    std::printf("a block of %zu bytes (asked %zu) grew to %zu %s\n", held, asked, wanted,
                in_place ? "in place" : "by moving its bytes");
    ok = ok && held >= asked && buffer[held - 1] == 'x' && bytes.max_size() > wanted;
    bytes.deallocate(buffer, wanted);  // (the count it holds now)

    // 3. resource_allocator: the resource's calls without a virtual one, and C++20 polymorphic_allocator's
    // conveniences (objects built with the arguments given: no uses-allocator construction).
    relo::monotonic_resource arena;
    using arena_allocator = relo::resource_allocator<std::string, relo::monotonic_resource>;
    arena_allocator strings(&arena);
    static_assert(std::is_same_v<arena_allocator::resource_type, relo::monotonic_resource>, "bound at compile time");
    void* raw = strings.allocate_bytes(256, 64);  // bytes, at an alignment
    int* counts = strings.allocate_object<int>(16);  // room for 16 ints, not constructed
    std::string* name = strings.new_object<std::string>("built in the arena");  // allocated and constructed
    const bool aligned = reinterpret_cast<std::uintptr_t>(raw) % 64 == 0;
    std::printf("%s; %zu bytes in use in the arena; at most %zu strings per allocation\n", name->c_str(),
                strings.resource()->bytes_in_use(), strings.max_size());
    ok = ok && aligned && *name == "built in the arena" && strings.resource() == &arena;
    strings.delete_object(name);  // destroyed, then given back
    strings.deallocate_object(counts, 16);
    strings.deallocate_bytes(raw, 256, 64);
    return ok ? 0 : 1;
}
