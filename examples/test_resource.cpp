// examples/test_resource.cpp — relo::test_resource: testing code that allocates.
//
// A function builds an index of words on the memory resource it is given. In a test, a test_resource says
// how much it allocated and at most held, and relo::exception_test runs it with every allocation in turn
// failing: the function must then throw std::bad_alloc and leave nothing behind (set_allocation_limit
// fails a chosen one). Each wrong deallocation, and each leak, is reported with the block's details (here
// to a reporter that counts each kind of problem; by default it prints and aborts).
#include <relo/test_resource.hpp>
#include <relo/vector.hpp>

#include <cstdio>
#include <new>
#include <memory_resource>
#include <string>
#include <string_view>

namespace {

/// The words of `text` longer than three letters, on `memory`.
relo::pmr::vector<std::pmr::string> long_words(std::string_view text, std::pmr::memory_resource* memory) {
    relo::pmr::vector<std::pmr::string> words(memory);
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string_view::npos) end = text.size();
        if (end - start > 3) words.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return words;
}

}  // namespace

int main() {
    const std::string_view text =
        "relocation moves elements as bytes where the type allows it and a test resource checks what the code "
        "allocated and gave back again";
    relo::test_resource memory("index");
    std::size_t found = long_words(text, &memory).size();
    std::printf("%s: %zu words; %zu blocks (%zu bytes) allocated, at most %zu blocks and %zu bytes held at once; %zu "
                "deallocations, %zu blocks in use now\n",
                memory.name(), found, memory.total_blocks(), memory.total_bytes(), memory.max_blocks_in_use(),
                memory.max_bytes_in_use(), memory.deallocations(), memory.blocks_in_use());

    // The allocation limit: the next two allocations go through, then each throws std::bad_alloc.
    memory.set_allocation_limit(2);
    bool refused = false;
    try {
        found = long_words(text, &memory).size();
    } catch (const std::bad_alloc&) {
        refused = true;
    }
    const long long left = memory.allocation_limit();  // 0: the two went through
    memory.set_allocation_limit(-1);                    // no limit
    const std::size_t refused_count = memory.refused_allocations();
    std::printf("with a limit of 2: %s after %zu refused allocation(s)\n", refused ? "std::bad_alloc" : "no failure",
                refused_count);

    // exception_test does that for every limit in turn; each failed run must leave nothing behind.
    const relo::exception_test_result result = relo::exception_test(memory, [&] { found = long_words(text, &memory).size(); });
    std::printf("%zu runs failed with std::bad_alloc, %zu of them leaked\n", result.failed_runs, result.leaky_runs);

    // Problems, reported with the block they name (to a reporter that counts each kind; the default one
    // prints and aborts, so that a test with a problem fails).
    std::size_t by_kind[5] = {};
    memory.set_reporter([&](const relo::test_resource& r, const relo::test_resource_problem& p) {
        relo::test_resource::print(r, p, stdout);
        switch (p.kind) {
            case relo::test_resource_problem_kind::wrong_size: ++by_kind[0]; break;
            case relo::test_resource_problem_kind::wrong_alignment: ++by_kind[1]; break;
            case relo::test_resource_problem_kind::double_free: ++by_kind[2]; break;
            case relo::test_resource_problem_kind::foreign_pointer: ++by_kind[3]; break;
            case relo::test_resource_problem_kind::leak: ++by_kind[4]; break;
        }
    });
    void* block = memory.allocate(64);
    memory.deallocate(block, 32);  // wrong size (still given back, as allocated)
    memory.deallocate(block, 64);  // double free
    void* aligned = memory.allocate(64, 32);
    memory.deallocate(aligned, 64, 8);  // wrong alignment
    int not_from_it = 0;
    memory.deallocate(&not_from_it, sizeof not_from_it);  // foreign pointer

    // A leak found at a checkpoint of the test, before the resource's end would report it.
    void* forgotten = memory.allocate(100);
    for (const relo::test_resource_block& b : memory.outstanding()) {
        std::printf("block #%llu: %zu bytes at %p\n", static_cast<unsigned long long>(b.serial), b.bytes, b.address);
        memory.report({relo::test_resource_problem_kind::leak, b.address, b.bytes, b.alignment, b});
    }
    memory.deallocate(forgotten, 100);
    memory.set_reporter(relo::test_resource::print_and_abort);  // the default again (an empty reporter too)

    return found == 16 && refused && left == 0 && refused_count == 1 && result.failed_runs > 0 &&
                   result.leaky_runs == 0 && by_kind[0] == 1 && by_kind[1] == 1 && by_kind[2] == 1 &&
                   by_kind[3] == 1 && by_kind[4] == 1 && memory.problems() == 5 && memory.blocks_in_use() == 0 &&
                   memory.upstream_resource() == std::pmr::new_delete_resource()
               ? 0
               : 1;
}
