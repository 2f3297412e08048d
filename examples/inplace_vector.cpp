// examples/inplace_vector.cpp — relo::inplace_vector (alias relo::static_vector): C++26's
// std::inplace_vector. Capacity fixed at compile time, storage inside the object, never allocates.
//
// A network packet carries at most 8 options; parsing them into an inplace_vector<option, 8> costs no
// allocation, and a malformed packet with more is caught by try_push_back (or push_back's std::bad_alloc).
#include <relo/inplace_vector.hpp>

#include <cstdint>
#include <cstdio>
#include <new>
#include <type_traits>

struct option {
    std::uint8_t kind;
    std::uint8_t length;
};

using options = relo::inplace_vector<option, 8>;  // (or relo::static_vector<option, 8>, Boost's name)
static_assert(std::is_same_v<options, relo::static_vector<option, 8>>, "one type, two names");

// Returns false for a packet with more options than fit.
bool parse(const std::uint8_t* bytes, std::size_t n, options& out) {
    out.clear();
    for (std::size_t i = 0; i + 1 < n; i += 2)
        if (!out.try_push_back(option{bytes[i], bytes[i + 1]})) return false;  // full: never grows
    return true;
}

int main() {
    const std::uint8_t good[] = {1, 4, 2, 8, 3, 2};
    std::uint8_t bad[20] = {};
    options parsed;
    const bool good_ok = parse(good, sizeof good, parsed);
    std::printf("good packet: %zu options, the second of kind %d\n", parsed.size(), parsed[1].kind);
    const bool bad_ok = parse(bad, sizeof bad, parsed);
    std::printf("bad packet: %s after %zu options\n", bad_ok ? "accepted" : "refused", parsed.size());

    bool threw = false;
    try {
        parsed.push_back(option{9, 9});  // the checked push: std::bad_alloc when full (P0843)
    } catch (const std::bad_alloc&) {
        threw = true;
    }
    static_assert(sizeof(options) <= 8 * sizeof(option) + sizeof(std::size_t), "the elements live in the object");
    return good_ok && !bad_ok && threw && parsed.size() == 8 ? 0 : 1;
}
