// examples/quick_start.cpp — the README's quick start (the part between the markers is shown there
// verbatim; the test readme_snippet checks that they agree, and this program is built and run by the tests).
// [quick-start]
#include <relo/inplace_vector.hpp>
#include <relo/pinned_vector.hpp>
#include <relo/small_vector.hpp>
#include <relo/vector.hpp>

#include <cstdio>
#include <string>

// A type with its own move constructor that is still safe to move as bytes: say so, and relo grows a
// vector of it with realloc/mremap instead of calling the constructor for every element.
struct handle {
    int* resource = nullptr;
    handle() = default;
    handle(handle&& other) noexcept : resource(other.resource) { other.resource = nullptr; }
    ~handle() { delete resource; }
};
RELO_TRIVIALLY_RELOCATABLE(handle);

int main() {
    relo::vector<double> xs;                 // the whole std::vector interface
    for (int i = 0; i < 10'000'000; ++i) xs.push_back(i);  // realloc, then past 32 MiB in place or by mremap
    xs.insert(xs.begin(), xs.back());        // arguments may alias the vector

    relo::vector<handle> handles(1000);
    handles.resize(1'000'000);               // relocated as bytes

    relo::small_vector<std::string, 4> words = {"grow", "in", "place"};  // inline: no allocation
    relo::inplace_vector<int, 8> digits;     // C++26's std::inplace_vector: never allocates
    while (digits.try_push_back(int(digits.size()))) {}      // stops when full

    relo::pinned_vector<std::string> log(relo::max_capacity, 1'000'000);  // address space, no memory yet
    const std::string& first = log.emplace_back("start");
    for (int i = 0; i < 100'000; ++i) log.push_back(std::to_string(i));  // commits pages: nothing moves

    std::printf("%zu doubles, %zu handles, %zu words, %zu digits, %zu lines\n", xs.size(), handles.size(),
                words.size(), digits.size(), log.size());
    return xs.front() == 9'999'999.0 && words.size() == 3 && !words.is_on_heap() && digits.size() == 8 &&
                   &first == &log[0] && first == "start"
               ? 0
               : 1;
}
// [quick-start end]
