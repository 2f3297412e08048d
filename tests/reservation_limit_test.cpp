// tests/reservation_limit_test.cpp — mappings are a resource: past relo::reservation_limit() (or when the
// system refuses a mapping) relo::vector's and small_vector's large blocks come from the heap, grow there
// and are given back there; a block that cannot move into a new reservation moves to the heap; pinned_vector
// and vm_arena, which need their reservation, throw std::bad_alloc naming the limits. Every container is
// checked against a std::vector model; ints take large blocks from 64 KiB here (mapped_ints.hpp).
#include "relo/page_allocator.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/small_vector.hpp"
#include "relo/vector.hpp"

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#if !defined(_WIN32)
#include <sys/mman.h>
#endif

#include <gtest/gtest.h>

#if defined(__linux__)
#include "child_process.hpp"
#endif
#include "mapped_ints.hpp"
#include "sanitizers.hpp"

namespace relo_test {
namespace {

/// Sets relo::reservation_limit() for a scope, then restores it.
class limit_scope {
public:
    explicit limit_scope(std::size_t limit) : saved_(relo::reservation_limit()) { relo::set_reservation_limit(limit); }
    ~limit_scope() { relo::set_reservation_limit(saved_); }
    limit_scope(const limit_scope&) = delete;
    limit_scope& operator=(const limit_scope&) = delete;

private:
    std::size_t saved_;
};

template <class T>
constexpr std::size_t threshold_elements() {
    return mapped_allocator<T>::mapping_threshold() / sizeof(T);
}

template <class Vector, class Model>
void expect_same(const Vector& v, const Model& model) {
    ASSERT_EQ(v.size(), model.size());
    for (std::size_t i = 0; i < model.size(); ++i) ASSERT_EQ(v[i], model[i]) << "at " << i;
}

template <std::size_t Alignment>
struct alignas(Alignment) aligned_int {
    int value;
    friend bool operator==(const aligned_int& a, const aligned_int& b) { return a.value == b.value; }
};

// A vector of over-aligned elements on the heap: each push's block keeps the alignment (64: the header's
// own; 128 and 4096: a header as large as the alignment).
template <std::size_t Alignment>
void expect_aligned_growth_on_heap() {
    using element = aligned_int<Alignment>;
    mapped_vector<element> v;
    std::vector<element> model;
    for (int i = 0; i < static_cast<int>(threshold_elements<element>() * 8); ++i) {
        v.push_back({i});
        model.push_back({i});
        ASSERT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % Alignment, 0u);
    }
    expect_same(v, model);
}

TEST(ReservationLimit, IsCountedAndSet) {
    const std::size_t before = relo::reservations_held();
    const std::size_t cache_limit = relo::large_block_cache_limit();
    {
        relo::trim_large_block_cache();
        mapped_vector<int> v(threshold_elements<int>() * 2, 7);
        EXPECT_EQ(relo::reservations_held(), before + 1) << "a large block is one reservation";
        relo::set_large_block_cache_limit(0);
    }
    relo::set_large_block_cache_limit(cache_limit);
    EXPECT_EQ(relo::reservations_held(), before) << "given back";
    limit_scope limit(123);
    EXPECT_EQ(relo::reservation_limit(), 123u);
}

// Past the limit every large block comes from the heap: each element kind, each way a vector grows.
TEST(ReservationLimit, LargeBlocksComeFromTheHeapPastIt) {
    relo::trim_large_block_cache();
    const std::size_t held = relo::reservations_held();
    limit_scope limit(held);
    {
        // Trivially relocatable: the heap block grows by realloc, shrinks, crosses back below the threshold.
        mapped_vector<int> v;
        std::vector<int> model;
        const std::size_t n = threshold_elements<int>() * 40;
        for (std::size_t i = 0; i < n; ++i) {
            v.push_back(static_cast<int>(i));
            model.push_back(static_cast<int>(i));
        }
        expect_same(v, model);
        v.insert(v.begin() + 5, n, -1);  // a range into the middle of a vector that must grow
        model.insert(model.begin() + 5, n, -1);
        expect_same(v, model);
        v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n + n / 2));
        model.erase(model.begin(), model.begin() + static_cast<std::ptrdiff_t>(n + n / 2));
        v.shrink_to_fit();
        expect_same(v, model);
        mapped_vector<int> copy = v;
        expect_same(copy, model);
        v.resize(10);
        v.shrink_to_fit();
        model.resize(10);
        expect_same(v, model);
        EXPECT_EQ(relo::reservations_held(), held);
    }
    {
        // Other types: a fresh heap block each growth, the elements moved.
        mapped_vector<std::string> v;
        std::vector<std::string> model;
        for (std::size_t i = 0; i < threshold_elements<std::string>() * 8; ++i) {
            v.push_back(std::to_string(i));
            model.push_back(std::to_string(i));
        }
        expect_same(v, model);
        EXPECT_EQ(relo::reservations_held(), held);
    }
    expect_aligned_growth_on_heap<64>();
    expect_aligned_growth_on_heap<128>();
    expect_aligned_growth_on_heap<4096>();
    EXPECT_EQ(relo::reservations_held(), held);
    {
        mapped_small_vector<int, 4> v;
        std::vector<int> model;
        for (int i = 0; i < static_cast<int>(threshold_elements<int>() * 4); ++i) {
            v.push_back(i);
            model.push_back(i);
        }
        expect_same(v, model);
        EXPECT_EQ(relo::reservations_held(), held);
    }
    EXPECT_EQ(relo::reservations_held(), held);
}

// A heap block that realloc would copy (over-aligned: aligned blocks have no realloc), or whose policy
// wants huge pages, moves into a reservation once it grows past heap_maps_fresh_from.
TEST(ReservationLimit, HeapBlocksReallocCannotServeMoveIntoAReservationPastTheHeapsMappingSize) {
    relo::trim_large_block_cache();
    const std::size_t held = relo::reservations_held();
    using element = aligned_int<64>;
    mapped_vector<element> v;
    std::vector<element> model;
    {
        limit_scope limit(held);
        for (int i = 0; i < static_cast<int>(threshold_elements<element>() * 4); ++i) {
            v.push_back({i});
            model.push_back({i});
        }
        EXPECT_EQ(relo::reservations_held(), held) << "a block from the heap";
    }
    const std::size_t past = relo::page_allocator_policy::heap_maps_fresh_from / sizeof(element) + 1;
    for (int i = static_cast<int>(v.size()); i < static_cast<int>(past); ++i) {
        v.push_back({i});
        model.push_back({i});
    }
    EXPECT_EQ(relo::reservations_held(), held + 1) << "past 32 MiB: a reservation";
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % 64, 0u);
    expect_same(v, model);
    // So does one under a policy with huge pages, which only a reservation gives.
    relo::page_allocator<int, relo::large_block_policy> a;
    const std::size_t small = (std::size_t{4} << 20) / sizeof(int);
    const std::size_t large = (std::size_t{40} << 20) / sizeof(int);
    int* p = nullptr;
    {
        limit_scope limit(relo::reservations_held());
        p = a.allocate(small);
    }
    const std::size_t before = relo::reservations_held();
    for (std::size_t i = 0; i < small; ++i) p[i] = static_cast<int>(i);
    p = a.reallocate(p, small, large);
    EXPECT_EQ(relo::reservations_held(), before + 1) << "huge pages: a reservation";
    for (std::size_t i = 0; i < small; ++i) ASSERT_EQ(p[i], static_cast<int>(i));
    a.deallocate(p, large);
}

// A vector whose block is a reservation, grown past it once no reservation is to be had: its bytes (or
// elements) move to the heap and the reservation is given back.
TEST(ReservationLimit, ABlockThatCannotMoveToANewReservationMovesToTheHeap) {
    relo::trim_large_block_cache();
    const std::size_t held = relo::reservations_held();
    mapped_vector<int> v(threshold_elements<int>() * 2, 3);
    std::vector<int> model(v.size(), 3);
    ASSERT_EQ(relo::reservations_held(), held + 1);
    {
        limit_scope limit(held + 1);  // the vector's reservation, and no other
        for (int i = 0; i < static_cast<int>(threshold_elements<int>() * 64); ++i) {  // past its reservation (16x)
            v.push_back(i);
            model.push_back(i);
        }
        expect_same(v, model);
        relo::trim_large_block_cache();  // (where the reservation went, warm for the thread's next block)
        EXPECT_EQ(relo::reservations_held(), held) << "the reservation went back";
    }
    mapped_vector<std::string> s;
    std::vector<std::string> strings;
    for (std::size_t i = 0; i < threshold_elements<std::string>() * 2; ++i) {
        s.push_back(std::to_string(i));
        strings.push_back(std::to_string(i));
    }
    {
        limit_scope limit(relo::reservations_held());
        for (std::size_t i = 0; i < threshold_elements<std::string>() * 64; ++i) {
            s.push_back(std::to_string(i));
            strings.push_back(std::to_string(i));
        }
        expect_same(s, strings);
    }
}

#if defined(__linux__) && !RELO_TEST_ASAN
// (Not under AddressSanitizer, whose own allocator maps memory and dies when it cannot.)
// The system's own limit, reached in a child: mappings taken one page at a time until the kernel refuses
// one, a few given back for the C library's heap. relo::vector's large blocks then come from the heap, and
// a pinned_vector's reservation throws std::bad_alloc naming the limit.
TEST(ReservationLimit, MappingsUsedUpByTheProcess) {
    const int status = in_child(std::chrono::milliseconds(60000), [] {
        relo::set_reservation_limit(SIZE_MAX);
        relo::trim_large_block_cache();
        std::vector<void*> pages;
        pages.reserve(1 << 17);
        int prot = PROT_READ;
        const auto use_up = [&] {  // (alternating protections: neighbours never merge into one mapping)
            for (;; prot = prot == PROT_READ ? PROT_NONE : PROT_READ) {
                void* p = ::mmap(nullptr, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p == MAP_FAILED || pages.size() == pages.capacity()) return p != MAP_FAILED;
                pages.push_back(p);
            }
        };
        if (use_up()) return 2;
        for (int i = 0; i < 16; ++i) {  // (room for the heap's own growth)
            ::munmap(pages.back(), 4096);
            pages.pop_back();
        }
        std::vector<mapped_vector<char>> vectors(8);
        const std::size_t n = threshold_elements<char>() * 3;
        for (std::size_t k = 0; k < vectors.size(); ++k) {
            for (std::size_t i = 0; i < n; ++i) vectors[k].push_back(static_cast<char>(k + i));
        }
        for (std::size_t k = 0; k < vectors.size(); ++k) {
            for (std::size_t i = 0; i < n; ++i)
                if (vectors[k][i] != static_cast<char>(k + i)) return 3;
        }
        if (use_up()) return 2;
        try {
            relo::pinned_vector<int> pinned(relo::max_capacity, std::size_t{1} << 20);
            return 4;
        } catch (const std::bad_alloc& e) {
            if (std::string(e.what()).find("vm.max_map_count") == std::string::npos) return 5;
        }
        return 0;
    });
    EXPECT_EQ(status, 0);
}
#endif

}  // namespace
}  // namespace relo_test
