// examples/vector_extras.cpp — what every relo vector adds to std::vector's interface: appending without
// the capacity check (fast_push_back, and C++26's names unchecked_push_back / unchecked_emplace_back),
// appending only while there is room (try_push_back, returning a relo::optional_ref), growing without
// initializing (resize_for_overwrite), popping what may be empty (safe_pop_back), and the growth policy
// (relo/growth.hpp).
//
// A sensor logger: each frame's bytes are decoded into a vector reserved once, so no push checks the
// capacity; a backlog takes readings only while it has room, never reallocating; a scratch buffer is sized
// for a read without being zeroed first. Then how the growth factor trades reallocations for slack.
#include <relo/growth.hpp>
#include <relo/vector.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <ratio>
#include <stdexcept>

namespace {

struct reading {
    int sensor;
    float value;
    reading(int s, float v) : sensor(s), value(v) {}
};

/// The frame's samples: reserved once, so that each push can skip the capacity check.
relo::vector<float> decode(const std::uint8_t* bytes, std::size_t n) {
    relo::vector<float> samples;
    samples.reserve(n);
    for (std::size_t i = 0; i < n; ++i) samples.fast_push_back(bytes[i] / 4.0f);  // pre: size() < capacity()
    return samples;
}

/// How often a vector with growth policy Growth reallocates on its way to n elements; false in `ok` when a
/// growth fell short of the factor (the rule: at least capacity x num / den).
template <class Growth>
std::size_t reallocations(std::size_t n, bool& ok) {
    relo::vector<int, relo::default_allocator<int>, Growth> v;
    using policy = typename decltype(v)::growth_policy;
    std::size_t count = 0;
    std::size_t capacity = 0;
    for (std::size_t i = 0; i < n; ++i) {
        v.push_back(static_cast<int>(i));
        if (v.capacity() == capacity) continue;
        ok = ok && v.capacity() >= capacity / policy::den * policy::num;
        capacity = v.capacity();
        ++count;
    }
    return count;
}

}  // namespace

int main() {
    bool ok = true;

    // 1. Appending into reserved room: fast_push_back and the C++26 names, which return the new element.
    const std::uint8_t frame[] = {0, 1, 2, 3, 4, 0, 0, 2};
    relo::vector<float> samples = decode(frame, sizeof frame);
    relo::erase(samples, 0.0f);  // the silent samples (relo::erase_if takes a predicate)
    relo::vector<reading> readings;
    readings.reserve(3);
    readings.unchecked_emplace_back(1, 0.5f);
    readings.unchecked_push_back(reading(2, 0.25f)).value *= 2;  // the reference to the element just added
    readings.fast_emplace_back(3, samples.back());
    const float sum = std::accumulate(samples.cbegin(), samples.cend(), 0.0f);
    std::printf("%zu samples (sum %.1f), %zu readings, the second %.2f\n", samples.size(), sum, readings.size(),
                readings[1].value);
    ok = ok && samples.size() == 5 && sum == 3.0f && readings[1].value == 0.5f && readings.back().value == 0.5f;

    // 2. A backlog that never reallocates: try_push_back refuses once size() == capacity().
    relo::vector<int> backlog;
    backlog.reserve(4);  // (the block may hold more: capacity() says how many fit)
    std::size_t accepted = 0;
    relo::optional_ref<int> newest;  // C++26's std::optional<int&> where the library has it
    for (int value = 1; value <= 100; ++value) {
        const relo::optional_ref<int> slot = backlog.try_push_back(value);
        if (!slot.has_value()) break;
        ++accepted;
        newest = slot;
    }
    const int refused = backlog.try_emplace_back(101).value_or(-1);  // full: nothing appended
    std::printf("backlog of capacity %zu took %zu readings, the newest %d; then %d\n", backlog.capacity(), accepted,
                newest.value(), refused);
    ok = ok && accepted == backlog.capacity() && refused == -1 && &*newest == &backlog.back();
    newest.reset();  // (it referred to an element the flush below destroys)
    backlog.assign(2, 0);

    // 3. A scratch buffer sized without zeroing: the read that follows writes every byte.
    const char packet[] = "header:payload";
    relo::vector<char> buffer;
    buffer.resize_for_overwrite(sizeof packet);  // its chars are indeterminate until written
    std::memcpy(buffer.data(), packet, sizeof packet);
    ok = ok && std::strcmp(buffer.data(), packet) == 0;

    // 4. An undo stack: pop_back needs an entry (pre: !empty()); safe_pop_back may be called on none.
    relo::vector<int> undo = {1, 2, 3, 4};
    const relo::vector<int> newest_first(undo.crbegin(), undo.crend());
    undo.pop_back();
    for (int i = 0; i < 10; ++i) undo.safe_pop_back();  // the last seven find it empty and do nothing
    relo::vector<int> redo(newest_first.rbegin(), newest_first.rend());
    redo.swap(undo);  // O(1): the two blocks change hands
    ok = ok && newest_first.front() == 4 && undo.size() == 4 && undo.back() == 4 && redo.empty();

    // 5. Beyond max_size() is std::length_error, as for std::vector.
    bool too_large = false;
    try {
        buffer.reserve(buffer.max_size() + 1);
    } catch (const std::length_error&) {
        too_large = true;
    }
    ok = ok && too_large;

#if RELO_HAS_RANGES  // (relo's switch for the C++23 range members, which C++20 builds have too)
    // 6. C++23's range members: any range (an array, a container, a view) in one call.
    const int first[] = {10, 11, 12};
    const relo::vector<int> later = {20, 21};
    relo::vector<int> ids;
    ids.assign_range(first);               // 10 11 12
    ids.append_range(later);               // 10 11 12 20 21
    ids.insert_range(ids.begin(), later);  // 20 21 10 11 12 20 21
    ok = ok && ids.size() == 7 && ids[2] == 10 && ids.back() == 21;
#endif

    // 7. The growth policy: a smaller factor reallocates more often and leaves less unused capacity.
    // (std::ratio works as a policy too: any type with num and den.)
    const std::size_t n = 100'000;
    const std::size_t by_2 = reallocations<relo::growth_2>(n, ok);
    const std::size_t by_1_6 = reallocations<relo::growth_1_6>(n, ok);
    const std::size_t by_1_5 = reallocations<relo::growth_1_5>(n, ok);
    const std::size_t by_3 = reallocations<relo::growth_factor<3>>(n, ok);
    const std::size_t by_7_5 = reallocations<std::ratio<7, 5>>(n, ok);
    std::printf("reallocations on the way to %zu ints: x3 %zu, x2 %zu, x1.6 %zu, x1.5 %zu, x1.4 %zu\n", n, by_3, by_2,
                by_1_6, by_1_5, by_7_5);
    ok = ok && by_3 < by_2 && by_2 < by_1_5 && by_1_6 <= by_1_5 && by_1_5 < by_7_5;
    static_assert(relo::growth_factor<6, 4>::num == 3 && relo::growth_factor<6, 4>::den == 2, "reduced: 1.5");

    return ok ? 0 : 1;
}
