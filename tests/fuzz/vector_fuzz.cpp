// tests/fuzz/vector_fuzz.cpp — relo::vector under the container fuzz driver (container_fuzz.hpp), with
// relo's default allocator (malloc and realloc, relo's large blocks past the thresholds) and with an
// allocator that fails on demand.
#include "relo/vector.hpp"

#include "container_fuzz.hpp"

namespace {
struct vector_family {
    template <class T>
    using with_default = relo::vector<T>;
    template <class T>
    using with_failing = relo::vector<T, relo_fuzz::failing_allocator<T>>;
    template <class V>
    static V make() { return V(); }
    static constexpr bool growth_assign_is_strong = true;
    using too_large = std::length_error;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return relo_fuzz::fuzz_family<vector_family>(data, size);
}
