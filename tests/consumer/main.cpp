#include <relo/relo.hpp>

#include <string>

int main() {
    relo::vector<std::string> names{"relo", "is", "a", "library"};
    relo::vector<int> numbers;
    for (int i = 0; i < 100000; ++i) numbers.push_back(i);
    return names.size() == 4 && numbers.back() == 99999 ? 0 : 1;
}
