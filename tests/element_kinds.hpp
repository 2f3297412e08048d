// tests/element_kinds.hpp — the element kinds every container is tested with, and the
// allocators that fail or track on demand.
//
// Each kind K has a traits class kind<K> with
//   static K make(int i)          a value that encodes i
//   static int key(const K& v)    the i it encodes (checks the value is intact on the way)
//   static long live()            objects alive now (0 for kinds that do not count)
//   counting                      whether live() counts
// so that a test can compare a container of K with a std::vector<int> model.
#ifndef RELO_TESTS_ELEMENT_KINDS_HPP
#define RELO_TESTS_ELEMENT_KINDS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

#include "relo/relocation.hpp"

namespace relo_test {

// ---- A non-trivial type with user-defined special members that counts live instances and detects use
// after destruction (a leak or a double destruction shows up as a wrong count or a dead magic).
struct counted {
    static constexpr std::uint32_t alive_magic = 0xA11CE5u;
    static constexpr std::uint32_t dead_magic = 0xDEADu;
    static inline long live = 0;

    int value = 0;
    std::uint32_t magic = alive_magic;

    counted() noexcept { ++live; }
    explicit counted(int v) noexcept : value(v) { ++live; }
    counted(const counted& o) noexcept : value(o.checked()) { ++live; }
    counted(counted&& o) noexcept : value(o.checked()) {
        o.value = -1;
        ++live;
    }
    counted& operator=(const counted& o) noexcept {
        checked();
        value = o.checked();
        return *this;
    }
    counted& operator=(counted&& o) noexcept {
        checked();
        value = o.checked();
        o.value = -1;
        return *this;
    }
    ~counted() {
        if (magic != alive_magic) ADD_FAILURE() << "destroying an object that is not alive";
        magic = dead_magic;
        --live;
    }
    int checked() const {
        // (A test, then the failure: an assertion object per use was much of a sanitized run's time.)
        if (magic != alive_magic) ADD_FAILURE() << "using an object that is not alive";
        return value;
    }
    friend bool operator==(const counted& a, const counted& b) { return a.checked() == b.checked(); }
    friend bool operator!=(const counted& a, const counted& b) { return !(a == b); }
    friend bool operator<(const counted& a, const counted& b) { return a.checked() < b.checked(); }
};

// ---- A type whose copy and move constructors and assignments throw on the k-th call (counting down
// from `countdown` when it is positive). Its move is not noexcept, so containers must copy it to keep the
// strong guarantee.
struct thrower {
    static inline long live = 0;
    static inline long countdown = 0;  // 0 = never throw

    int value = 0;

    static void tick() {
        if (countdown > 0 && --countdown == 0) throw std::runtime_error("thrower: planned failure");
    }
    thrower() { ++live; }
    explicit thrower(int v) : value(v) { ++live; }
    thrower(const thrower& o) : value(o.value) {
        tick();
        ++live;
    }
    thrower(thrower&& o) : value(o.value) {
        tick();
        ++live;
    }
    thrower& operator=(const thrower& o) {
        tick();
        value = o.value;
        return *this;
    }
    thrower& operator=(thrower&& o) {
        tick();
        value = o.value;
        return *this;
    }
    ~thrower() { --live; }
    friend bool operator==(const thrower& a, const thrower& b) { return a.value == b.value; }
    friend bool operator!=(const thrower& a, const thrower& b) { return !(a == b); }
    friend bool operator<(const thrower& a, const thrower& b) { return a.value < b.value; }
};

// ---- An over-aligned trivial type.
struct alignas(64) overaligned {
    int value = 0;
    friend bool operator==(const overaligned& a, const overaligned& b) { return a.value == b.value; }
    friend bool operator!=(const overaligned& a, const overaligned& b) { return !(a == b); }
    friend bool operator<(const overaligned& a, const overaligned& b) { return a.value < b.value; }
};

// ---- A type with user-defined moves (which count) that is declared trivially relocatable.
struct marked_relocatable {
    static inline long live = 0;
    int* payload = nullptr;  // owns an int, so a lost or doubled object leaks or double-frees under ASan

    marked_relocatable() : payload(new int(0)) { ++live; }
    explicit marked_relocatable(int v) : payload(new int(v)) { ++live; }
    marked_relocatable(const marked_relocatable& o) : payload(new int(*o.payload)) { ++live; }
    marked_relocatable(marked_relocatable&& o) noexcept : payload(std::exchange(o.payload, nullptr)) { ++live; }
    marked_relocatable& operator=(const marked_relocatable& o) {
        *payload = *o.payload;
        return *this;
    }
    marked_relocatable& operator=(marked_relocatable&& o) noexcept {
        std::swap(payload, o.payload);
        return *this;
    }
    ~marked_relocatable() {
        delete payload;
        --live;
    }
    int get() const { return payload ? *payload : -1; }
    friend bool operator==(const marked_relocatable& a, const marked_relocatable& b) { return a.get() == b.get(); }
    friend bool operator!=(const marked_relocatable& a, const marked_relocatable& b) { return !(a == b); }
    friend bool operator<(const marked_relocatable& a, const marked_relocatable& b) { return a.get() < b.get(); }
};

template <class T>
struct kind;

template <>
struct kind<int> {
    static int make(int i) { return i; }
    static int key(int v) { return v; }
    static long live() { return 0; }
    static constexpr bool counting = false;
};

/// Counts its move constructions and move assignments (tests of how often containers move elements);
/// relocatable without throwing, but not trivially.
struct move_counter {
    static inline long moves = 0;
    int value = 0;
    explicit move_counter(int v) noexcept : value(v) {}
    move_counter(const move_counter& o) noexcept : value(o.value) {}
    move_counter(move_counter&& o) noexcept : value(o.value) { ++moves; }
    move_counter& operator=(const move_counter&) noexcept = default;
    move_counter& operator=(move_counter&& o) noexcept {
        value = o.value;
        ++moves;
        return *this;
    }
    ~move_counter() {}
};

/// Counts the operations that shift elements inside a container's storage: constructions (of any kind),
/// destructions and assignments. All noexcept, so containers may shift it by assignment.
struct operation_counter {
    static inline long constructions = 0;
    static inline long destructions = 0;
    static inline long assignments = 0;
    static void reset() noexcept { constructions = destructions = assignments = 0; }

    int value = 0;
    explicit operation_counter(int v) noexcept : value(v) { ++constructions; }
    operation_counter(const operation_counter& o) noexcept : value(o.value) { ++constructions; }
    operation_counter(operation_counter&& o) noexcept : value(o.value) { ++constructions; }
    operation_counter& operator=(const operation_counter& o) noexcept {
        value = o.value;
        ++assignments;
        return *this;
    }
    operation_counter& operator=(operation_counter&& o) noexcept {
        value = o.value;
        ++assignments;
        return *this;
    }
    ~operation_counter() { ++destructions; }
};

using big_trivial = std::array<int, 10>;
template <>
struct kind<big_trivial> {
    static big_trivial make(int i) {
        big_trivial a;
        a.fill(i);
        return a;
    }
    static int key(const big_trivial& a) {
        const int* const x = a.data();  // (a plain loop and one assertion: this is most of a debug run's time)
        bool whole = true;
        for (std::size_t i = 1; i < a.size(); ++i) whole = whole && x[i] == x[0];
        if (!whole) ADD_FAILURE() << "std::array value torn";
        return x[0];
    }
    static long live() { return 0; }
    static constexpr bool counting = false;
};

template <>
struct kind<counted> {
    static counted make(int i) { return counted(i); }
    static int key(const counted& c) { return c.checked(); }
    static long live() { return counted::live; }
    static constexpr bool counting = true;
};

// Values longer than the small-string buffer, and the empty string for 0.
template <>
struct kind<std::string> {
    static std::string make(int i) { return i == 0 ? std::string() : "a string longer than SSO #" + std::to_string(i); }
    // Allocation-free, so that it also works where memory has run out (the RLIMIT_AS tests).
    static int key(const std::string& s) {
        if (s.empty()) return 0;
        static constexpr char prefix[] = "a string longer than SSO #";
        constexpr std::size_t length = sizeof prefix - 1;
        if (s.compare(0, length, prefix) != 0) ADD_FAILURE() << "string value torn: " << s;
        return static_cast<int>(std::strtol(s.c_str() + length, nullptr, 10));
    }
    static long live() { return 0; }
    static constexpr bool counting = false;
};

template <>
struct kind<std::unique_ptr<int>> {
    static std::unique_ptr<int> make(int i) { return std::make_unique<int>(i); }
    static int key(const std::unique_ptr<int>& p) { return p ? *p : -1; }
    static long live() { return 0; }
    static constexpr bool counting = false;
};

template <>
struct kind<thrower> {
    static thrower make(int i) { return thrower(i); }
    static int key(const thrower& t) { return t.value; }
    static long live() { return thrower::live; }
    static constexpr bool counting = true;
};

template <>
struct kind<overaligned> {
    static overaligned make(int i) { return overaligned{i}; }
    static int key(const overaligned& o) {
        const std::uintptr_t misalignment = reinterpret_cast<std::uintptr_t>(&o) % 64;
        if (misalignment != 0) ADD_FAILURE() << "over-aligned element misaligned by " << misalignment;
        return o.value;
    }
    static long live() { return 0; }
    static constexpr bool counting = false;
};

template <>
struct kind<marked_relocatable> {
    static marked_relocatable make(int i) { return marked_relocatable(i); }
    static int key(const marked_relocatable& m) { return m.get(); }
    static long live() { return marked_relocatable::live; }
    static constexpr bool counting = true;
};

// ---- Allocators.

/// Counts outstanding allocations, and fails the k-th allocation when `fail_countdown` is set to k.
struct allocation_log {
    static inline long outstanding = 0;
    static inline long allocations = 0;
    static inline long fail_countdown = 0;  // 0 = never fail
};

/// A stateful allocator: equal only to allocators with the same id; the propagation traits are parameters.
template <class T, bool POCCA = false, bool POCMA = false, bool POCS = false>
struct test_allocator {
    using value_type = T;
    using propagate_on_container_copy_assignment = std::bool_constant<POCCA>;
    using propagate_on_container_move_assignment = std::bool_constant<POCMA>;
    using propagate_on_container_swap = std::bool_constant<POCS>;
    using is_always_equal = std::false_type;
    template <class U>
    struct rebind {
        using other = test_allocator<U, POCCA, POCMA, POCS>;
    };

    int id = 0;

    test_allocator() = default;
    explicit test_allocator(int i) : id(i) {}
    template <class U>
    test_allocator(const test_allocator<U, POCCA, POCMA, POCS>& o) : id(o.id) {}

    T* allocate(std::size_t n) {
        if (allocation_log::fail_countdown > 0 && --allocation_log::fail_countdown == 0) throw std::bad_alloc();
        ++allocation_log::outstanding;
        ++allocation_log::allocations;
        return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{alignof(T)}));
    }
    void deallocate(T* p, std::size_t) noexcept {
        --allocation_log::outstanding;
        ::operator delete(p, std::align_val_t{alignof(T)});
    }
    friend bool operator==(const test_allocator& a, const test_allocator& b) { return a.id == b.id; }
    friend bool operator!=(const test_allocator& a, const test_allocator& b) { return a.id != b.id; }
};

}  // namespace relo_test

RELO_TRIVIALLY_RELOCATABLE(relo_test::marked_relocatable);

#endif  // RELO_TESTS_ELEMENT_KINDS_HPP
