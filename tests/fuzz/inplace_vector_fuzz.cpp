// tests/fuzz/inplace_vector_fuzz.cpp — relo::inplace_vector<T, 40> under the container fuzz driver
// (container_fuzz.hpp): growth past 40 elements must throw std::bad_alloc and change nothing.
#include "relo/inplace_vector.hpp"

#include "container_fuzz.hpp"

namespace {
struct inplace_vector_family {
    template <class T>
    using with_default = relo::inplace_vector<T, 40>;
    template <class T>
    using with_failing = void;  // (it never allocates)
    template <class V>
    static V make() { return V(); }
    static constexpr bool growth_assign_is_strong = false;
    using too_large = std::bad_alloc;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return relo_fuzz::fuzz_family<inplace_vector_family>(data, size);
}
