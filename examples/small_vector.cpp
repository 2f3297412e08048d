// examples/small_vector.cpp — relo::small_vector: the first N elements inside the object, the heap beyond.
//
// Most words of a sentence have few letters' worth of positions; a per-word list of positions rarely passes
// four entries, so small_vector<int, 4> keeps them without allocating. A function that accepts any N takes
// relo::small_vector_base<T>&.
#include <relo/small_vector.hpp>

#include <cstdio>
#include <map>
#include <string>

// Works on every small_vector<int, N>, whatever N.
int last_position(const relo::small_vector_base<int>& positions) { return positions.empty() ? -1 : positions.back(); }

int main() {
    const std::string text = "the cat saw the dog and the dog saw the cat run to the end of the road";
    std::map<std::string, relo::small_vector<int, 4>> where;
    std::size_t start = 0;
    for (int word = 0; start < text.size(); ++word) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        where[text.substr(start, end - start)].push_back(word);
        start = end + 1;
    }
    int on_heap = 0;
    for (const auto& [word, positions] : where) {
        on_heap += positions.is_on_heap();
        std::printf("%-5s %zu time(s), last at %d%s\n", word.c_str(), positions.size(), last_position(positions),
                    positions.is_on_heap() ? " (on the heap)" : "");
    }
    // Only "the", used six times, outgrew its four inline slots; shrink_to_fit brings four back inline.
    relo::small_vector<int, 4>& the = where["the"];
    const bool six = the.size() == 6;
    the.resize(4);
    the.shrink_to_fit();
    static_assert(relo::small_vector<int, 4>::inline_capacity_v == 4, "N, at compile time");
    return on_heap == 1 && six && !the.is_on_heap() && the.inline_capacity() == 4 && !where["cat"].is_on_heap() ? 0 : 1;
}
