// tests/fuzz/small_vector_fuzz.cpp — relo::small_vector<T, 4> under the container fuzz driver
// (container_fuzz.hpp): four elements inline, then the heap, with relo's default allocator and with an
// allocator that fails on demand.
#include "relo/small_vector.hpp"

#include "container_fuzz.hpp"

namespace {
struct small_vector_family {
    template <class T>
    using with_default = relo::small_vector<T, 4>;
    template <class T>
    using with_failing = relo::small_vector<T, 4, relo_fuzz::failing_allocator<T>>;
    template <class V>
    static V make() { return V(); }
    static constexpr bool growth_assign_is_strong = true;
    using too_large = std::length_error;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return relo_fuzz::fuzz_family<small_vector_family>(data, size);
}
