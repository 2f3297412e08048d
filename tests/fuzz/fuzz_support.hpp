// tests/fuzz/fuzz_support.hpp — what every fuzz target shares: the reader that decodes the fuzzer's bytes
// into choices, the check that stops the run with a message, and the element kinds (int, a heap-allocating
// std::string, and a type that counts live objects and throws at the k-th copy on demand).
//
// The targets are libFuzzer's (LLVMFuzzerTestOneInput); tests/fuzz/README.md says how they are built, run
// and minimised, and docs/testing.md what a long run covered.
#ifndef RELO_TESTS_FUZZ_FUZZ_SUPPORT_HPP
#define RELO_TESTS_FUZZ_FUZZ_SUPPORT_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace relo_fuzz {

/// Stops the run: libFuzzer reports the input as a crash and keeps it.
[[noreturn]] inline void fail(const char* file, int line, const char* condition, const char* during) {
    std::fprintf(stderr, "%s:%d: check failed: %s (during %s)\n", file, line, condition, during);
    std::abort();
}

#define RELO_FUZZ_CHECK(condition, during)                                                      \
    do {                                                                                        \
        if (!(condition)) ::relo_fuzz::fail(__FILE__, __LINE__, #condition, (during));          \
    } while (false)

/// More than any machine the fuzzers run on holds (1 TiB): the test allocators and upstreams refuse it
/// themselves (AddressSanitizer's operator new aborts from this size on rather than throw
/// std::bad_alloc), and a block of it may never be handed out.
constexpr std::size_t unholdable_bytes = std::size_t{1} << 40;

/// The fuzzer's bytes as a stream of choices. Past the end every read is 0, so that every input decodes
/// to a complete, finite run.
class input {
public:
    input(const std::uint8_t* data, std::size_t size) noexcept : next_(data), end_(data + size) {}

    bool done() const noexcept { return next_ == end_; }
    std::uint8_t byte() noexcept { return next_ != end_ ? *next_++ : 0; }
    std::uint16_t two_bytes() noexcept {
        const std::uint16_t high = byte();
        return static_cast<std::uint16_t>(high << 8 | byte());
    }
    /// A number in [0, n) (0 when n is 0), from one byte when n fits in one, else from two.
    std::size_t below(std::size_t n) noexcept {
        if (n <= 1) return 0;
        return (n <= 256 ? byte() : two_bytes()) % n;
    }
    /// A count: mostly small, sometimes large enough to cross the page allocator's thresholds (a page of
    /// ints), and a pinned_vector's reservation in a few steps.
    std::size_t count() noexcept {
        const std::uint8_t b = byte();
        return b < 224 ? b % 24 : static_cast<std::size_t>(two_bytes()) % 1500;
    }

private:
    const std::uint8_t* next_;
    const std::uint8_t* end_;
};

/// The planned failure an element's copy throws.
struct planned_failure : std::runtime_error {
    planned_failure() : std::runtime_error("relo fuzz: planned failure of a copy") {}
};

/// Counts live objects, checks it is never used dead, and throws planned_failure at the k-th copy (copy
/// construction or copy assignment) once copy_countdown is set to k. Moves never throw, so the
/// containers keep the strong guarantee wherever they promise it for elements that relocate without
/// throwing.
struct counted {
    static constexpr std::uint32_t alive_magic = 0xA11CE5u;
    static constexpr std::uint32_t dead_magic = 0xDEADu;
    static inline long live = 0;
    static inline long copy_countdown = 0;  // 0: never throw

    int value = 0;
    std::uint32_t magic = alive_magic;

    static void copying() {
        if (copy_countdown > 0 && --copy_countdown == 0) throw planned_failure();
    }
    counted() noexcept { ++live; }
    explicit counted(int v) noexcept : value(v) { ++live; }
    counted(const counted& o) : value(o.checked()) {
        copying();
        ++live;
    }
    counted(counted&& o) noexcept : value(o.checked()) {
        o.value = -1;
        ++live;
    }
    counted& operator=(const counted& o) {
        checked();
        const int v = o.checked();
        copying();
        value = v;
        return *this;
    }
    counted& operator=(counted&& o) noexcept {
        checked();
        value = o.checked();
        o.value = -1;
        return *this;
    }
    ~counted() {
        RELO_FUZZ_CHECK(magic == alive_magic, "destroying an object that is not alive");
        magic = dead_magic;
        --live;
    }
    int checked() const {
        RELO_FUZZ_CHECK(magic == alive_magic, "using an object that is not alive");
        return value;
    }
    friend bool operator==(const counted& a, const counted& b) { return a.checked() == b.checked(); }
    friend bool operator!=(const counted& a, const counted& b) { return !(a == b); }
    friend bool operator<(const counted& a, const counted& b) { return a.checked() < b.checked(); }
};

/// How a fuzz target makes an element from a key and reads the key back, and whether it counts.
template <class T>
struct kind;

template <>
struct kind<int> {
    static constexpr const char* name = "int";
    static int make(int key) noexcept { return key; }
    static int key(int v) noexcept { return v; }
    static long live() noexcept { return 0; }
    static constexpr bool counting = false;
    static constexpr bool can_throw = false;
};

/// Longer than any small-string buffer (so every copy allocates), or empty for key 0.
template <>
struct kind<std::string> {
    static constexpr const char* name = "std::string";
    static constexpr char prefix[] = "a string long enough to live on the heap, number ";
    static std::string make(int key) { return key == 0 ? std::string() : prefix + std::to_string(key); }
    static int key(const std::string& s) {
        if (s.empty()) return 0;
        RELO_FUZZ_CHECK(s.size() > sizeof prefix - 1 && s.compare(0, sizeof prefix - 1, prefix) == 0,
                        "reading a std::string element (torn value)");
        return std::atoi(s.c_str() + sizeof prefix - 1);
    }
    static long live() noexcept { return 0; }
    static constexpr bool counting = false;
    static constexpr bool can_throw = false;
};

template <>
struct kind<counted> {
    static constexpr const char* name = "counted";
    static counted make(int key) noexcept { return counted(key); }
    static int key(const counted& c) { return c.checked(); }
    static long live() noexcept { return counted::live; }
    static constexpr bool counting = true;
    static constexpr bool can_throw = true;
};

}  // namespace relo_fuzz

#endif  // RELO_TESTS_FUZZ_FUZZ_SUPPORT_HPP
