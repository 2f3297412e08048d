// examples/test_resource.cpp — relo::test_resource: testing code that allocates.
//
// A function builds an index of words on the memory resource it is given. In a test, a test_resource says
// how much it allocated and at most held, and relo::exception_test runs it with every allocation in turn
// failing: the function must then throw std::bad_alloc and leave nothing behind. A wrong deallocation is
// reported with the block's details (here to a reporter that counts; by default it prints and aborts).
#include <relo/test_resource.hpp>
#include <relo/vector.hpp>

#include <cstdio>
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
    std::printf("%zu words; %zu blocks allocated, at most %zu bytes held, %zu blocks in use now\n", found,
                memory.total_blocks(), memory.max_bytes_in_use(), memory.blocks_in_use());

    // Every allocation in turn fails; each failed run must leave nothing behind.
    const relo::exception_test_result result = relo::exception_test(memory, [&] { found = long_words(text, &memory).size(); });
    std::printf("%zu runs failed with std::bad_alloc, %zu of them leaked\n", result.failed_runs, result.leaky_runs);

    // A wrong deallocation, reported with the block it names.
    std::size_t problems = 0;
    memory.set_reporter([&](const relo::test_resource& r, const relo::test_resource_problem& p) {
        relo::test_resource::print(r, p, stdout);
        ++problems;
    });
    void* block = memory.allocate(64);
    memory.deallocate(block, 32);
    return found == 16 && result.failed_runs > 0 && result.leaky_runs == 0 && problems == 1 &&
                   memory.blocks_in_use() == 0
               ? 0
               : 1;
}
