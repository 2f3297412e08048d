// examples/monotonic_resource.cpp — relo::monotonic_resource: bump allocation, everything freed at once.
//
// A request handler builds a parse tree, uses it and throws it away. On a monotonic resource each node is
// a pointer bump (first in a buffer on the stack, then in chunks from the heap), the nodes need no
// destructor calls, and release() hands all the memory back in one step.
#include <relo/monotonic_resource.hpp>

#include <cstdio>
#include <memory_resource>
#include <string>
#include <vector>

struct node {
    std::pmr::string name;
    std::pmr::vector<node*> children;
    explicit node(const char* n, std::pmr::memory_resource* r) : name(n, r), children(r) {}
};

int main() {
    char stack_buffer[4096];
    relo::monotonic_resource arena(stack_buffer, sizeof stack_buffer);
    std::size_t total_nodes = 0;
    std::size_t most_chunks = 0;
    for (int request = 0; request < 100; ++request) {
        const auto make = [&arena](const char* name) {
            return new (arena.allocate(sizeof(node), alignof(node))) node(name, &arena);
        };
        node* root = make("root");
        for (int i = 0; i < 50; ++i) root->children.push_back(make("child with a long name"));
        total_nodes += 1 + root->children.size();
        most_chunks = arena.chunk_count() > most_chunks ? arena.chunk_count() : most_chunks;
        arena.release();  // the tree is gone: no destructor runs, the buffer is used again next time
    }
    std::printf("%zu nodes built over 100 requests, in the stack buffer and at most %zu chunk(s) from the heap; "
                "%zu bytes held after release, %zu left in the buffer\n",
                total_nodes, most_chunks, arena.upstream_bytes(), arena.remaining());

    // A tree known to be large: a first chunk sized for it (the default is default_first_chunk, 4 KiB), so
    // that one chunk holds it all.
    relo::monotonic_resource sized(64 * relo::monotonic_resource::default_first_chunk);
    for (int i = 0; i < 1000; ++i) sized.allocate(sizeof(node), alignof(node));
    std::printf("a first chunk of %zu KiB: %zu chunk(s) for 1000 nodes\n",
                64 * relo::monotonic_resource::default_first_chunk >> 10, sized.chunk_count());
    return total_nodes == 5100 && most_chunks > 0 && arena.bytes_in_use() == 0 && arena.upstream_bytes() == 0 &&
                   arena.remaining() == sizeof stack_buffer && sized.chunk_count() == 1
               ? 0
               : 1;
}
