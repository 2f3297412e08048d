// tests/compile_fail/relocation_diagnostic.cpp — RELO_ASSERT_TRIVIALLY_RELOCATABLE says why a type is not
// trivially relocatable. Each RELO_CASE must fail to compile with the reason tests/CMakeLists.txt expects;
// without a case, every assertion holds and the file compiles.
#include <relo/relo.hpp>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

struct with_virtual {
    virtual ~with_virtual() = default;
};
struct with_move {
    int* p = nullptr;
    with_move() = default;
    with_move(with_move&& other) noexcept : p(other.p) { other.p = nullptr; }
};
struct with_destructor {
    int x = 0;
    ~with_destructor() {}
};

RELO_ASSERT_TRIVIALLY_RELOCATABLE(std::pair<std::unique_ptr<int>, std::vector<std::shared_ptr<int>>>);
RELO_ASSERT_TRIVIALLY_RELOCATABLE(relo::vector<relo::vector<int>>);

#if RELO_CASE == 1
RELO_ASSERT_TRIVIALLY_RELOCATABLE(std::tuple<int, std::pair<std::string, int>>);  // the string, deep inside
#elif RELO_CASE == 2
RELO_ASSERT_TRIVIALLY_RELOCATABLE(std::vector<with_virtual>);  // fine: a vector holds pointers
RELO_ASSERT_TRIVIALLY_RELOCATABLE(std::optional<with_virtual>);
#elif RELO_CASE == 3
RELO_ASSERT_TRIVIALLY_RELOCATABLE(with_move);
#elif RELO_CASE == 4
RELO_ASSERT_TRIVIALLY_RELOCATABLE(with_destructor);
#elif RELO_CASE == 5
RELO_ASSERT_TRIVIALLY_RELOCATABLE(relo::small_vector<int, 8>);
#endif

int main() {}
