// examples/quick_start.cpp — relo::vector as a drop-in std::vector.
#include <relo/vector.hpp>

#include <cstdio>
#include <string>

struct particle {
    double x, y, z;
};

// A type with its own move constructor that is still safe to move as bytes: say so, and relo moves it
// with realloc/mremap instead of calling the constructor for every element.
struct handle {
    int* resource = nullptr;
    handle() = default;
    handle(handle&& o) noexcept : resource(o.resource) { o.resource = nullptr; }
    ~handle() { delete resource; }
};
RELO_TRIVIALLY_RELOCATABLE(handle);

int main() {
    relo::vector<particle> particles;  // grows by mremap once it is large: no element is ever copied
    for (int i = 0; i < 1'000'000; ++i) particles.push_back({double(i), 0.0, 0.0});

    relo::vector<std::string> words = {"grow", "in", "place"};
    words.insert(words.begin() + 1, words.back());  // arguments may alias the vector

    relo::vector<handle> handles(10);
    handles.reserve(100000);

    std::printf("%zu particles, first word '%s', %zu handles\n", particles.size(), words[1].c_str(), handles.size());
    return particles.back().x == 999999.0 && words[1] == "place" ? 0 : 1;
}
