// tests/fuzz/pinned_vector_fuzz.cpp — relo::pinned_vector under the container fuzz driver
// (container_fuzz.hpp), on a reservation of 3000 elements, so that growth past it (std::length_error, the
// vector unchanged) is reached as often as the commits and decommits inside it.
#include "relo/pinned_vector.hpp"

#include "container_fuzz.hpp"

namespace {
struct pinned_vector_family {
    template <class T>
    using with_default = relo::pinned_vector<T>;
    template <class T>
    using with_failing = void;  // (it takes no allocator)
    template <class V>
    static V make() { return V(relo::max_capacity, 3000); }
    // Elements never move: an assign() that grows commits pages and builds in place, like one that does not.
    static constexpr bool growth_assign_is_strong = false;
    using too_large = std::length_error;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return relo_fuzz::fuzz_family<pinned_vector_family>(data, size);
}
