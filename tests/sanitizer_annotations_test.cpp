// tests/sanitizer_annotations_test.cpp — what relo tells AddressSanitizer (detail/sanitizers.hpp): each
// read past size() inside a container's capacity is a container-overflow, each use of memory a resource
// holds but has not handed out (a freed pool block, bytes above a monotonic or arena top, chunks after
// release()) is a use-after-poison. Every death here needs the annotations: without them the reads are
// of memory the process owns, and nothing is reported. Built in every configuration, run where
// AddressSanitizer is (the others skip).
#include <cstddef>
#include <memory_resource>
#include <string>

#include <gtest/gtest.h>

#include "relo/inplace_vector.hpp"
#include "relo/monotonic_resource.hpp"
#include "relo/multipool_resource.hpp"
#include "relo/pinned_vector.hpp"
#include "relo/small_vector.hpp"
#include "relo/synchronized_multipool_resource.hpp"
#include "relo/vector.hpp"
#include "relo/vm_arena.hpp"
#include "sanitizers.hpp"

/// An allocator that turns the annotations off (relo::sanitizer_annotations).
template <class T>
struct unannotated_allocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = unannotated_allocator<U>;
    };
    unannotated_allocator() = default;
    template <class U>
    unannotated_allocator(const unannotated_allocator<U>&) noexcept {}
};
template <class T>
struct relo::sanitizer_annotations<unannotated_allocator<T>> {
    static constexpr bool value = false;
};

namespace relo_test {
namespace {

/// Reads the byte at p (volatile: the read happens).
char read_byte(const void* p) { return *static_cast<const volatile char*>(p); }

class SanitizerAnnotations : public ::testing::Test {
protected:
    void SetUp() override {
        if (!RELO_TEST_ASAN) GTEST_SKIP() << "needs AddressSanitizer";
        GTEST_FLAG_SET(death_test_style, "threadsafe");
    }
};

template <class C>
void expect_overflow_past_size(C& c) {
    ASSERT_LT(c.size(), c.capacity());
    read_byte(c.data());  // (an element: fine)
    EXPECT_DEATH(read_byte(c.data() + c.size()), "container-overflow");
    EXPECT_DEATH(read_byte(c.data() + c.capacity() - 1), "container-overflow");
}

TEST_F(SanitizerAnnotations, VectorReadPastSize) {
    // Nine ints: a capacity of 12, so that the end of the size and of the capacity lie in different
    // 8-byte granules (AddressSanitizer calls a read past a partly addressable granule that the heap's
    // red zone follows a heap-buffer-overflow, not a container-overflow).
    relo::vector<int> v;
    for (int i = 0; i < 9; ++i) v.push_back(i);
    expect_overflow_past_size(v);
    v.pop_back();
    EXPECT_DEATH(read_byte(v.data() + 8), "container-overflow");  // (the slot pop_back emptied)
    v.insert(v.begin(), 3, 7);
    v.erase(v.begin() + 1, v.begin() + 3);
    expect_overflow_past_size(v);
    relo::vector<int> copy = v;
    copy.reserve(100);
    expect_overflow_past_size(copy);
    relo::vector<int> moved = std::move(copy);
    expect_overflow_past_size(moved);
}

TEST_F(SanitizerAnnotations, SmallVectorInlineAndOnTheHeap) {
    relo::small_vector<int, 8> s;
    s.push_back(1);
    s.push_back(2);
    expect_overflow_past_size(s);  // inline
    for (int i = 0; i < 20; ++i) s.push_back(i);
    expect_overflow_past_size(s);  // on the heap
    s.resize(3);
    s.shrink_to_fit();
    ASSERT_FALSE(s.is_on_heap());
    expect_overflow_past_size(s);  // inline again
    relo::small_vector<int, 8> other{9};
    s.swap(other);
    expect_overflow_past_size(s);
    expect_overflow_past_size(other);
}

TEST_F(SanitizerAnnotations, InplaceVectorOfStrings) {
    relo::inplace_vector<std::string, 4> v;
    v.push_back("a string long enough to live on the heap");
    v.emplace_back("b");
    expect_overflow_past_size(v);
    relo::inplace_vector<std::string, 4> copy(v);
    expect_overflow_past_size(copy);
    v.clear();
    EXPECT_DEATH(read_byte(v.data()), "container-overflow");
}

TEST_F(SanitizerAnnotations, PinnedVector) {
    relo::pinned_vector<int> v;
    for (int i = 0; i < 10; ++i) v.push_back(i);
    expect_overflow_past_size(v);
    v.resize(2000);
    v.resize(10);
    expect_overflow_past_size(v);
}

// A reservation from the thread's reservation cache comes with committed pages: the vector that takes it
// annotates them as unused capacity, made empty or with elements.
TEST_F(SanitizerAnnotations, PinnedVectorFromTheReservationCache) {
    relo::trim_reservation_cache();
    { relo::pinned_vector<int> first(3000, 1); }
    relo::pinned_vector<int> empty;
    ASSERT_GT(empty.capacity(), 0u);  // (it took the cached reservation)
    EXPECT_DEATH(read_byte(empty.data()), "container-overflow");
    { relo::pinned_vector<int> gone(std::move(empty)); }
    relo::pinned_vector<int> three{1, 2, 3};
    ASSERT_GT(three.capacity(), 3u);
    expect_overflow_past_size(three);
}

TEST_F(SanitizerAnnotations, AnAllocatorMayTurnThemOff) {
    relo::vector<int, unannotated_allocator<int>> v;
    v.reserve(10);
    v.push_back(1);
    read_byte(v.data() + 5);  // (not annotated: no report)
    SUCCEED();
}

TEST_F(SanitizerAnnotations, MultipoolFreedBlocks) {
    for (std::size_t bytes : {std::size_t{8}, std::size_t{32}, std::size_t{64}, std::size_t{2048}}) {  // (class sizes)
        relo::multipool_resource pool;
        void* a = pool.allocate(bytes, 8);
        void* b = pool.allocate(bytes, 8);
        read_byte(a);
        pool.deallocate(a, bytes, 8);
        EXPECT_DEATH(read_byte(a), "use-after-poison");
        EXPECT_DEATH(read_byte(static_cast<char*>(b) + bytes), "use-after-poison");  // (not handed out yet)
        pool.release();
        EXPECT_DEATH(read_byte(b), "use-after-poison");  // (its chunk waits in the thread's chunk cache)
    }
    relo::synchronized_multipool_resource shared;
    void* c = shared.allocate(64, 8);
    shared.deallocate(c, 64, 8);
    EXPECT_DEATH(read_byte(c), "use-after-poison");
}

TEST_F(SanitizerAnnotations, MonotonicAboveTheTopAndAfterRelease) {
    char buffer[256];
    relo::monotonic_resource mono(buffer, sizeof buffer);
    auto* p = static_cast<char*>(mono.allocate(16, 8));
    read_byte(p + 15);
    EXPECT_DEATH(read_byte(p + 16), "use-after-poison");
    mono.deallocate(p, 16, 8);
    EXPECT_DEATH(read_byte(p), "use-after-poison");
    auto* q = static_cast<char*>(mono.allocate(1000, 8));  // (from a chunk)
    read_byte(q + 999);
    mono.release();
    EXPECT_DEATH(read_byte(q), "use-after-poison");
}

TEST_F(SanitizerAnnotations, ArenaAfterRewindAndReset) {
    relo::vm_arena arena(std::size_t{1} << 20);
    const relo::vm_arena::marker start = arena.mark();
    auto* p = static_cast<char*>(arena.allocate(100, 8));
    read_byte(p + 99);
    EXPECT_DEATH(read_byte(p + 100), "use-after-poison");
    arena.rewind(start);
    EXPECT_DEATH(read_byte(p), "use-after-poison");
    auto* q = static_cast<char*>(arena.allocate(5000, 8));
    read_byte(q + 4999);
    arena.reset();
    EXPECT_DEATH(read_byte(q + 4000), "use-after-poison");
}

// Containers on resources: the resources' poison and the containers' annotations together.
TEST_F(SanitizerAnnotations, ContainersOnResources) {
    relo::multipool_resource pool;
    std::pmr::polymorphic_allocator<int> alloc(&pool);
    relo::vector<int, std::pmr::polymorphic_allocator<int>> v(alloc);
    for (int i = 0; i < 100; ++i) v.push_back(i);
    expect_overflow_past_size(v);
    const int* old = v.data();
    const std::size_t capacity = v.capacity();
    while (v.capacity() == capacity) v.push_back(1);  // (grows into a block of another size class)
    EXPECT_DEATH(read_byte(old), "use-after-poison");  // (the block growth gave back)
}

}  // namespace
}  // namespace relo_test
