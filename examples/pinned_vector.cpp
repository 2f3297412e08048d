// examples/pinned_vector.cpp — relo::pinned_vector: elements that never move.
//
// A symbol table hands out pointers to its entries and keeps growing. With std::vector every growth would
// invalidate them; a pinned_vector reserves address space once and commits pages as it grows, so the
// pointers stay valid, and growth copies nothing and never needs twice the memory.
#include <relo/pinned_vector.hpp>

#include <cstdio>
#include <string>

struct symbol {
    std::string name;
    int uses = 0;
};

int main() {
    // Room for up to 10 million symbols: address space only, nothing committed yet.
    relo::pinned_vector<symbol> table(relo::max_capacity, 10'000'000);
    symbol* first = &table.emplace_back(symbol{"main", 0});
    symbol* second = &table.emplace_back(symbol{"printf", 0});
    for (int i = 0; i < 200'000; ++i) table.push_back(symbol{"tmp" + std::to_string(i), i});
    first->uses += 1;  // still valid: the table grew in place
    second->uses += 2;
    std::printf("%zu symbols, %zu bytes committed of %zu reserved; %s used %d time(s)\n", table.size(),
                table.committed_bytes(), table.reserved_bytes(), first->name.c_str(), first->uses);
    table.clear();
    table.shrink_to_fit();  // gives the pages back; the reservation stays
    return first == &table.emplace_back(symbol{"again", 0}) && table.committed_bytes() > 0 ? 0 : 1;
}
