// examples/vm_arena.cpp — relo::vm_arena: a bump allocator over one reservation of address space.
//
// A game allocates scratch memory while it builds each frame and drops it all when the frame is done.
// The arena makes each allocation a pointer bump, frees the whole frame in O(1) with reset(), and commits
// only the pages a frame actually used. mark()/rewind() drop just what a step allocated.
#include <relo/vm_arena.hpp>

#include <cstdio>
#include <memory_resource>
#include <vector>

int main() {
    relo::vm_arena arena(std::size_t{1} << 30);  // 1 GiB of address space; nothing committed yet
    std::size_t most_used = 0;
    for (int frame = 0; frame < 60; ++frame) {
        std::pmr::vector<int> visible(&arena);  // std::pmr containers run on the arena
        for (int object = 0; object < 1000 + frame * 100; ++object) visible.push_back(object);

        const relo::vm_arena::marker before_step = arena.mark();
        void* temporary = arena.allocate(64 * 1024, 64);  // a step's scratch buffer
        (void)temporary;
        arena.rewind(before_step);  // dropped; the memory is reused by the next allocation

        most_used = arena.used() > most_used ? arena.used() : most_used;
        arena.reset();  // the frame is over: everything goes at once, in O(1)
    }
    std::printf("most used in a frame: %zu bytes; committed now: %zu of %zu reserved\n", most_used,
                arena.committed(), arena.reserved());
    return arena.used() == 0 && most_used > 0 && arena.committed() < arena.reserved() ? 0 : 1;
}
