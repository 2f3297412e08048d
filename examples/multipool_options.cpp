// examples/multipool_options.cpp — relo::multipool_options: the size classes and chunks of a multipool, what
// each pool holds (stats()), and the synchronized multipool's bins and depot.
//
// A syntax tree's nodes come in many sizes between 24 and 200 bytes. With the default classes (powers of
// two) a 72-byte node takes a 128-byte block; four classes per doubling (80, 96, 112, 128, ...) waste less,
// for more pools. Larger first chunks mean fewer chunks for a tree of known size; max_block says which
// requests are too large for the pools and go to the upstream (here a monotonic resource: composition).
#include <relo/monotonic_resource.hpp>
#include <relo/multipool_resource.hpp>
#include <relo/synchronized_multipool_resource.hpp>

#include <cstdio>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

/// The tree: 3,000 nodes of sizes 24 to 200 bytes, and one 8 KiB table.
std::vector<void*> build_tree(std::pmr::memory_resource& r) {
    std::vector<void*> nodes;
    for (std::size_t i = 0; i < 3000; ++i) nodes.push_back(r.allocate(24 + (i * 37) % 177, 8));
    nodes.push_back(r.allocate(8192, 8));
    return nodes;
}

std::size_t chunks_of(const relo::multipool_resource& pool) {
    std::size_t chunks = 0;
    for (std::size_t i = 0; i < pool.pool_count(); ++i) chunks += pool.stats(i).chunks;
    return chunks;
}

void print_pools(const char* name, const relo::multipool_resource& pool, bool each_pool) {
    std::printf("%s: %zu classes, %zu bytes in use, %zu chunks, %zu bytes from the upstream, %zu block(s) passed "
                "through\n",
                name, pool.pool_count(), pool.bytes_in_use(), chunks_of(pool), pool.upstream_bytes(),
                pool.upstream_blocks());
    for (std::size_t i = 0; each_pool && i < pool.pool_count(); ++i) {
        const relo::multipool_resource::pool_stats s = pool.stats(i);
        if (s.blocks_in_use > 0)
            std::printf("  %4zu-byte blocks: %4zu in use, %zu chunk(s), %6zu bytes\n", s.block_size, s.blocks_in_use,
                        s.chunks, s.bytes_held);
    }
}

}  // namespace

int main() {
    bool ok = true;
    relo::monotonic_resource upstream;

    relo::multipool_resource coarse(&upstream);  // the defaults: multipool_options{}
    relo::multipool_options fine_options;
    fine_options.classes_per_doubling = 4;  // 1 (powers of two), 2 or 4
    fine_options.max_block = 16 << 10;      // the largest class: the 8 KiB table now comes from a pool
    relo::multipool_resource fine(fine_options, &upstream);
    relo::multipool_options large_chunks;
    large_chunks.first_blocks = 512;      // blocks in a pool's first chunk; each next chunk twice as many
    large_chunks.max_chunk = 256 << 10;   // ... up to this many bytes
    relo::multipool_resource few_chunks(large_chunks, &upstream);

    const std::vector<void*> coarse_tree = build_tree(coarse);
    const std::vector<void*> fine_tree = build_tree(fine);
    const std::vector<void*> tree_in_few_chunks = build_tree(few_chunks);
    print_pools("powers of two", coarse, true);
    print_pools("four classes per doubling", fine, true);
    print_pools("first chunks of 512 blocks", few_chunks, false);
    // (The finer classes hold fewer bytes in use, but 45 pools' partly used chunks take more from the
    // upstream than 10 pools' here: measure both on your own workload.)
    ok = ok && fine.bytes_in_use() < coarse.bytes_in_use() && chunks_of(few_chunks) < chunks_of(coarse) &&
         coarse.upstream_blocks() == 1 && fine.upstream_blocks() == 0 && fine.options().classes_per_doubling == 4 &&
         coarse.options().max_block == 4096 && few_chunks.options().first_blocks == 512 &&
         fine.upstream_resource() == &upstream;

    // A block grows in place while the new size stays in its class (how a relo container's growth on a
    // resource_allocator over the pool costs nothing): a 72-byte block is an 80-byte one here.
    void* node = fine.allocate(72, 8);
    const bool grew = fine.try_expand(node, 72, 80, 8);
    const bool moved_class = fine.try_expand(node, 72, 100, 8);
    fine.deallocate(node, 72, 8);  // (the size and alignment of the allocation: they name its class)
    ok = ok && grew && !moved_class;

    // Options out of range are std::invalid_argument.
    try {
        relo::multipool_options three;
        three.classes_per_doubling = 3;
        relo::multipool_resource refused(three);
        ok = false;
    } catch (const std::invalid_argument&) {
    }

    // Everything back at once; the nodes are not destroyed (they own nothing but memory from the pool).
    coarse.release();
    fine.release();
    ok = ok && coarse.bytes_in_use() == 0 && fine.bytes_in_use() == 0 && coarse.upstream_blocks() == 0;

    // The synchronized multipool, with the same options: each thread's bin, and the depot where a thread
    // that ends leaves its free blocks for the next thread.
    relo::synchronized_multipool_resource shared(fine_options);
    std::thread([&shared] {
        std::vector<void*> blocks;
        for (int i = 0; i < 1000; ++i) blocks.push_back(shared.allocate(64, 8));
        for (void* b : blocks) shared.deallocate(b, 64, 8);
    }).join();
    const std::size_t waiting = shared.depot_blocks(64, 8);
    void* taken = shared.allocate(64, 8);  // an empty bin takes a batch from the depot first
    std::printf("%zu shards; the depot held %zu free 64-byte blocks when the worker ended, %zu after this thread "
                "took a batch into its bin (which now holds %zu)\n",
                shared.shard_count(), waiting, shared.depot_blocks(64, 8), shared.own_bin_blocks(64, 8));
    ok = ok && waiting > 0 && shared.depot_blocks(64, 8) < waiting && shared.own_bin_blocks(64, 8) > 0 &&
         shared.options().max_block == fine_options.max_block;
    shared.deallocate(taken, 64, 8);
    return ok ? 0 : 1;
}
