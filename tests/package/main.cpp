// A consumer of the installed or embedded relo: every public header through relo.hpp, one use of each
// container and resource; exits 0 when they behave.
#include <relo/relo.hpp>

#include <string>

int main() {
    relo::vector<std::string> names{"relo", "is", "a", "library"};
    relo::vector<int> numbers;
    for (int i = 0; i < 100000; ++i) numbers.push_back(i);
    relo::small_vector<int, 4> small{1, 2, 3};
    relo::inplace_vector<int, 4> fixed{1, 2};
    relo::pinned_vector<int> pinned;
    pinned.push_back(7);
    relo::vm_arena arena(1 << 20);
    relo::monotonic_resource monotonic;
    relo::multipool_resource multipool(&monotonic);
    relo::pmr::vector<int> on_pool(&multipool);
    on_pool.assign(100, 1);
    const bool ok = names.size() == 4 && numbers.back() == 99999 && !small.is_on_heap() && fixed.size() == 2 &&
                    pinned[0] == 7 && arena.allocate(64, 8) != nullptr && on_pool.size() == 100;
    return ok ? 0 : 1;
}
