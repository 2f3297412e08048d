// tests/pinned_vector_test.cpp — relo::pinned_vector: the shared sequence suite, random differential runs
// and the exception matrix over the element kinds, then what is particular to it: elements that never move,
// the reservation's limits, the commit policies, memory given back, guard pages, and failures of the
// system's calls (in child processes with lowered limits).
#include "relo/pinned_vector.hpp"
#include "relo/warm_memory.hpp"

#if !defined(_WIN32)
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "differential.hpp"
#include "element_kinds.hpp"
#include "exception_matrix.hpp"
#include "os_probes.hpp"
#include "sanitizers.hpp"
#include "sequence_suite.hpp"

namespace relo_test {
namespace {

using relo::max_capacity;
using relo::pinned_vector;

/// For a test that counts commits, mappings or capacity from a fresh reservation: the thread's reservation
/// cache emptied and off while it runs (another test's vector would otherwise hand over its committed pages).
struct fresh_reservations {
    std::size_t saved = relo::reservation_cache_limit();
    fresh_reservations() noexcept {
        relo::set_reservation_cache_limit(0);
        relo::trim_reservation_cache();
    }
    ~fresh_reservations() { relo::set_reservation_cache_limit(saved); }
    fresh_reservations(const fresh_reservations&) = delete;
    fresh_reservations& operator=(const fresh_reservations&) = delete;
};

/// Fills what v has committed, then pushes one element: the push that grows it, without the millions of
/// pushes between two commits (most of a sanitized run's time).
template <class V>
void push_past_capacity(V& v, const typename V::value_type& value) {
    v.resize(v.capacity(), value);
    v.push_back(value);
}
}  // namespace

template <class T, class P>
struct growth_moves_elements<pinned_vector<T, P>> : std::false_type {};

namespace {

using pinned_kinds = ::testing::Types<pinned_vector<int>, pinned_vector<big_trivial>, pinned_vector<counted>,
                                      pinned_vector<std::string>, pinned_vector<std::unique_ptr<int>>,
                                      pinned_vector<thrower>, pinned_vector<overaligned>,
                                      pinned_vector<marked_relocatable>, pinned_vector<int, relo::page_commit>,
                                      pinned_vector<int, relo::huge_page_commit>,
                                      pinned_vector<std::string, relo::page_commit>>;
INSTANTIATE_TYPED_TEST_SUITE_P(pinned_vector, SequenceTest, pinned_kinds, numbered_types);

TEST(PinnedVectorDifferential, Int) { run_differential<pinned_vector<int>>(21); }
TEST(PinnedVectorDifferential, BigTrivial) { run_differential<pinned_vector<big_trivial>>(22); }
TEST(PinnedVectorDifferential, Counted) { run_differential<pinned_vector<counted>>(23); }
TEST(PinnedVectorDifferential, String) { run_differential<pinned_vector<std::string>>(24); }
TEST(PinnedVectorDifferential, UniquePtr) { run_differential<pinned_vector<std::unique_ptr<int>>>(25); }
TEST(PinnedVectorDifferential, Thrower) { run_differential<pinned_vector<thrower>>(26); }
TEST(PinnedVectorDifferential, Overaligned) { run_differential<pinned_vector<overaligned>>(27); }
TEST(PinnedVectorDifferential, StringPageCommit) { run_differential<pinned_vector<std::string, relo::page_commit>>(28); }

TEST(PinnedVectorExceptions, EveryThrowPoint) {
    const fresh_reservations fresh;
    run_modifier_matrix<pinned_vector<thrower>>(guarantee::basic);
    run_modifier_matrix<pinned_vector<copy_thrower>>(guarantee::strong);
}

// ---- Helpers: what the system says about a range of memory.

#if !defined(_WIN32)  // (/proc/self/maps and resource limits: Linux)
/// The mappings of /proc/self/maps that overlap [p, p + bytes).
int mappings_over(const void* p, std::size_t bytes) {
    std::ifstream maps("/proc/self/maps");
    const auto first = reinterpret_cast<std::uintptr_t>(p);
    const auto last = first + bytes;
    int count = 0;
    std::string line;
    while (std::getline(maps, line)) {
        unsigned long long start = 0, end = 0;
        if (std::sscanf(line.c_str(), "%llx-%llx", &start, &end) != 2) continue;
        if (start < last && end > first) ++count;
    }
    return count;
}

void set_limit(int resource, std::size_t bytes) {
    const rlimit limit{bytes, bytes};
    if (::setrlimit(resource, &limit) != 0) std::_Exit(3);
}
#endif

// ---- Elements never move.

// 10^6 appends of std::string: every address taken along the way still holds its element.
TEST(PinnedVector, AddressesSurviveAMillionAppends) {
    pinned_vector<std::string> v;
    std::vector<const std::string*> addresses;
    const int n = 1000000;
    addresses.reserve(n);
    for (int i = 0; i < n; ++i) {
        v.push_back("element " + std::to_string(i));
        addresses.push_back(&v.back());
    }
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(addresses[static_cast<std::size_t>(i)], &v[static_cast<std::size_t>(i)]);
        ASSERT_EQ(*addresses[static_cast<std::size_t>(i)], "element " + std::to_string(i));
    }
}

// Every growing member keeps pointers, references and iterators to the existing elements.
TEST(PinnedVector, GrowthKeepsIteratorsValid) {
    pinned_vector<std::string> v{"a", "b", "c"};
    const std::string* first = v.data();
    auto it = v.begin() + 1;
    std::string& last = v.back();
    auto check = [&] {
        ASSERT_EQ(v.data(), first);
        ASSERT_EQ(*it, "b");
        ASSERT_EQ(last, "c");
    };
    v.emplace_back(5000, 'x');
    check();
    v.resize(20000, "r");
    check();
    v.reserve(300000);
    check();
    const std::vector<std::string> more(100000, "m");
    v.insert(v.end(), more.begin(), more.end());
    check();
    v.insert(v.end(), 1000, "n");
#if RELO_HAS_FROM_RANGE
    v.append_range(more);
#endif
    check();
    for (int i = 0; i < 300000; ++i) v.push_back(v[static_cast<std::size_t>(i) % 3]);
    check();
}

TEST(PinnedVector, MoveTransfersTheReservation) {
    const fresh_reservations fresh;
    pinned_vector<int> v(max_capacity, 100000);
    for (int i = 0; i < 5000; ++i) v.push_back(i);
    const int* data = v.data();
    const std::size_t reserved = v.reserved_bytes();
    pinned_vector<int> w(std::move(v));
    EXPECT_EQ(w.data(), data);
    EXPECT_EQ(w.reserved_bytes(), reserved);
    EXPECT_EQ(w.size(), 5000u);
    EXPECT_TRUE(v.empty());                // NOLINT(bugprone-use-after-move): the moved-from state is specified
    EXPECT_EQ(v.reserved_bytes(), 0u);     // NOLINT(bugprone-use-after-move)
    v.push_back(7);                        // reserves the default again
    EXPECT_EQ(v.reserved_bytes(), pinned_vector<int>::default_reservation);
    EXPECT_EQ(v.back(), 7);

    pinned_vector<int> x;
    x = std::move(w);
    EXPECT_EQ(x.data(), data);
    EXPECT_EQ(x[4999], 4999);

    pinned_vector<int> y(max_capacity, 10, 3, 1);
    const int* y_data = y.data();
    x.swap(y);
    EXPECT_EQ(x.data(), y_data);
    EXPECT_EQ(y.data(), data);
    EXPECT_EQ(y.size(), 5000u);
    EXPECT_EQ(x.size(), 3u);
}

TEST(PinnedVector, CopyMakesAReservationOfTheSameSize) {
    const fresh_reservations fresh;
    pinned_vector<std::string> v(max_capacity, 5000, 10, "s");
    const pinned_vector<std::string> copy(v);
    EXPECT_EQ(copy.reserved_bytes(), v.reserved_bytes());
    EXPECT_NE(copy.data(), v.data());
    EXPECT_EQ(copy, v);

    // Copy assignment keeps the target's reservation when the elements fit, takes the source's size when not.
    pinned_vector<std::string> small(max_capacity, 1024);
    small = v;
    EXPECT_EQ(small, v);
    pinned_vector<std::string> big(max_capacity, 1, 1, "b");
    big.resize(big.max_size(), "b");
    pinned_vector<std::string> target(max_capacity, 10);
    target = big;
    EXPECT_EQ(target, big);
    EXPECT_GE(target.max_size(), big.size());
}

// assign() beyond capacity() from one of the vector's own elements (strong guarantee: the new elements
// exist before the old ones go).
TEST(PinnedVector, AssignBeyondCapacityFromAnElement) {
    pinned_vector<std::string> v{"keep", "x"};
    v.shrink_to_fit();
    const std::size_t n = v.capacity() + 10;
    v.assign(n, v[0]);
    EXPECT_EQ(v.size(), n);
    EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](const std::string& s) { return s == "keep"; }));
}

TEST(PinnedVector, ClassTemplateArgumentDeduction) {
    const std::vector<std::string> words{"a", "b"};
    pinned_vector from_range(words.begin(), words.end());
    static_assert(std::is_same_v<decltype(from_range), pinned_vector<std::string>>);
    pinned_vector bounded(max_capacity, 10, words.begin(), words.end());
    static_assert(std::is_same_v<decltype(bounded), pinned_vector<std::string>>);
    pinned_vector listed{1, 2, 3};
    static_assert(std::is_same_v<decltype(listed), pinned_vector<int>>);
    EXPECT_EQ(from_range.size() + bounded.size() + listed.size(), 7u);
    EXPECT_EQ(bounded.reserved_bytes(), page());
}

// ---- The reservation's limits.

TEST(PinnedVector, ReservationSizes) {
    const fresh_reservations fresh;
    const pinned_vector<int> by_default;
    EXPECT_EQ(by_default.reserved_bytes(), pinned_vector<int>::default_reservation);
    EXPECT_EQ(by_default.max_size(), pinned_vector<int>::default_reservation / sizeof(int));
    EXPECT_EQ(by_default.capacity(), 0u);
    EXPECT_EQ(by_default.committed_bytes(), 0u);

    const pinned_vector<int> sized(max_capacity, 1000);
    EXPECT_EQ(sized.reserved_bytes(), page());  // rounded up to whole pages
    EXPECT_EQ(sized.max_size(), page() / sizeof(int));

    // The default reservation bounds a default-constructed vector as any other.
    pinned_vector<char> v;
    EXPECT_THROW(v.reserve(pinned_vector<char>::default_reservation + 1), std::length_error);
    EXPECT_EQ(v.capacity(), 0u);
}

TEST(PinnedVector, GrowthBeyondTheReservationThrowsLengthError) {
    pinned_vector<std::string> v(max_capacity, 1500);
    const std::size_t max = v.max_size();
    ASSERT_GE(max, 1500u);
    for (std::size_t i = 0; i < max; ++i) v.push_back(std::to_string(i));
    const std::string* data = v.data();
    EXPECT_THROW(v.push_back("over"), std::length_error);
    EXPECT_THROW(v.emplace_back("over"), std::length_error);
    EXPECT_THROW(v.insert(v.begin(), "over"), std::length_error);
    EXPECT_THROW(v.resize(max + 1), std::length_error);
    EXPECT_THROW(v.reserve(max + 1), std::length_error);
    EXPECT_THROW(v.assign(max + 1, "over"), std::length_error);
    EXPECT_EQ(v.size(), max);
    EXPECT_EQ(v.data(), data);
    for (std::size_t i = 0; i < max; ++i) ASSERT_EQ(v[i], std::to_string(i));
    EXPECT_THROW((pinned_vector<int>(max_capacity, SIZE_MAX / 2)), std::length_error);
}

TEST(PinnedVector, RefusedReservationNamesItsSize) {
    // More than any 64-bit process can map (2^60 bytes), less than max_size() arithmetic refuses.
    try {
        pinned_vector<char> v(max_capacity, std::size_t{1} << 60);
        FAIL() << "reserved 2^60 bytes";
    } catch (const std::bad_alloc& e) {
        EXPECT_NE(std::string(e.what()).find("1152921504606846976"), std::string::npos) << e.what();
    }
}

// ---- Commit policies.

TEST(PinnedVector, GeometricCommitDoubles) {
    const fresh_reservations fresh;
    pinned_vector<int> v(max_capacity, std::size_t{64} << 20);
    v.push_back(0);
    EXPECT_EQ(v.committed_bytes(), page());
    std::size_t previous = v.committed_bytes();
    while (v.committed_bytes() < (std::size_t{256} << 20)) {
        push_past_capacity(v, 1);
        const std::size_t step = std::min(previous, relo::geometric_commit::rule.max_step);
        ASSERT_EQ(v.committed_bytes(), previous + step) << "after " << v.size() << " elements";
        previous = v.committed_bytes();
    }
}

TEST(PinnedVector, HugePageCommitDoublesThenCommitsHugePages) {
    const fresh_reservations fresh;
    pinned_vector<int, relo::huge_page_commit> v(max_capacity, std::size_t{64} << 20);
    v.push_back(0);
    EXPECT_EQ(v.committed_bytes(), page());
    std::size_t previous = v.committed_bytes();
    int commits = 1;
    while (v.committed_bytes() < (std::size_t{8} << 20)) {
        v.push_back(1);
        if (v.committed_bytes() != previous) {
            ++commits;
            EXPECT_EQ(v.committed_bytes(), 2 * previous) << "after " << v.size() << " elements";
            previous = v.committed_bytes();
        }
    }
    EXPECT_LE(commits, 12);
    EXPECT_EQ(v.committed_bytes() % (std::size_t{2} << 20), 0u);
    EXPECT_EQ(v.capacity(), v.committed_bytes() / sizeof(int));
    if (relo::detail::os::huge_page_size() != 0) {  // (where relo uses huge pages: not on other systems)
        const auto start = reinterpret_cast<std::uintptr_t>(v.data());
        EXPECT_EQ(relo::detail::os::round_up_to_huge_pages(start), start) << "huge-page aligned";
    }
}

TEST(PinnedVector, PageCommitCommitsOnePageAtATime) {
    const fresh_reservations fresh;
    pinned_vector<int, relo::page_commit> v(max_capacity, 100000);
    for (std::size_t i = 0; i < 10 * page() / sizeof(int) + 1; ++i) {
        v.push_back(static_cast<int>(i));
        ASSERT_EQ(v.committed_bytes(), (i * sizeof(int) / page() + 1) * page());
    }
    v.reserve(v.capacity() + 1);  // reserve() commits exactly what it needs, whatever the policy
    EXPECT_EQ(v.committed_bytes(), 12 * page());
}

TEST(PinnedVector, ReserveCommitsOnlyWhatItNeeds) {
    const fresh_reservations fresh;
    pinned_vector<char> v(max_capacity, std::size_t{1} << 20);
    v.reserve(10 * page() + 1);
    EXPECT_EQ(v.committed_bytes(), 11 * page());
    EXPECT_EQ(v.capacity(), 11 * page());
}

// ---- Memory given back.

TEST(PinnedVector, ShrinkingGivesPagesBack) {
    const fresh_reservations fresh;
    const std::size_t mib = std::size_t{1} << 20;
    pinned_vector<int> v(max_capacity, 64 * mib / sizeof(int));
    v.resize(16 * mib / sizeof(int), 1);  // every page written
    const char* base = reinterpret_cast<const char*>(v.data());
    EXPECT_GE(resident_pages(base, 16 * mib), 16 * mib / page() * 9 / 10);

    // A shrinking resize and clear() keep the capacity, as std::vector's do; shrink_to_fit() gives back
    // everything past the size.
    const std::size_t committed = v.committed_bytes();
    const std::size_t capacity = v.capacity();
    v.resize(3 * mib / sizeof(int));
    EXPECT_EQ(v.committed_bytes(), committed);
    EXPECT_EQ(v.capacity(), capacity);
    v.clear();
    EXPECT_EQ(v.committed_bytes(), committed);
    EXPECT_EQ(v.capacity(), capacity);
    EXPECT_GE(resident_pages(base, 16 * mib), 16 * mib / page() * 9 / 10);
    v.push_back(5);
    v.shrink_to_fit();
    EXPECT_EQ(v.committed_bytes(), page());
    EXPECT_EQ(resident_pages(base + page(), 16 * mib - page()), 0u);
    EXPECT_EQ(v[0], 5);

    // Decommitted pages come back as zero-filled memory when the vector grows again.
    v.resize(8 * mib / sizeof(int));
    EXPECT_TRUE(std::all_of(v.begin() + 1, v.end(), [](int x) { return x == 0; }));
}

#if !defined(_WIN32)  // (counts the process's page faults)
// A buffer cleared and filled again (per frame, per request) faults none of its pages again: 16 refills
// of 4 MiB of pairs, each of which faulted half its pages again when clear() kept only 2 MiB committed.
TEST(PinnedVector, ClearAndRefillFaultsNothingAgain) {
    const fresh_reservations fresh;
    pinned_vector<std::pair<int, double>> v;
    const std::size_t n = std::size_t{1} << 18;
    for (std::size_t i = 0; i < n; ++i) v.push_back({static_cast<int>(i), 1.0});
    const std::size_t capacity = v.capacity();
    const long faults_before = minor_page_faults();
    for (int refill = 0; refill < 16; ++refill) {
        v.clear();
        ASSERT_EQ(v.capacity(), capacity);
        for (std::size_t i = 0; i < n; ++i) v.push_back({static_cast<int>(i) + refill, 1.0});
        ASSERT_EQ(v[n - 1].first, static_cast<int>(n - 1) + refill);
    }
    EXPECT_LT(minor_page_faults() - faults_before, 16) << "the refills faulted pages the vector had already";
    v.resize(10);
    EXPECT_EQ(v.capacity(), capacity);
}
#endif

// A vector oscillating around a size commits no more after the first round.
TEST(PinnedVector, OscillationDoesNotRecommit) {
    const fresh_reservations fresh;
    pinned_vector<int> v(max_capacity, std::size_t{16} << 20);
    const std::size_t size = std::size_t{3} << 20;  // 12 MiB of ints
    v.resize(size);
    v.resize(size + 100000);
    v.resize(size);
    const std::size_t committed = v.committed_bytes();
    for (int round = 0; round < 20; ++round) {
        v.resize(size + 100000);
        v.resize(size);
        ASSERT_EQ(v.committed_bytes(), committed);
    }
}

// ---- Guard pages and mappings.

using PinnedVectorDeathTest = ::testing::Test;

TEST(PinnedVectorDeathTest, WritePastTheCommittedEndFaults) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    pinned_vector<int> v(max_capacity, 1 << 20);
    v.resize(1000);
    volatile int* past = v.data() + v.capacity();
    EXPECT_DEATH(*past = 1, "");
}
#if !defined(_WIN32)  // (counts the mappings of /proc/self/maps)

TEST(PinnedVectorDeathTest, WritePastTheReservationFaults) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    pinned_vector<int> v(max_capacity, 4096);
    v.resize(v.max_size());
    EXPECT_EQ(v.capacity(), v.max_size());
    volatile int* past = v.data() + v.max_size();  // the guard page
    EXPECT_DEATH(*past = 1, "");
}

template <class Policy>
void expect_one_or_two_mappings() {
    pinned_vector<int, Policy> v(max_capacity, std::size_t{64} << 20);
    const std::size_t span = v.reserved_bytes() + page();
    EXPECT_EQ(mappings_over(v.data(), span), 1);
    std::size_t next_check = 0;
    while (v.size() < 5000000) {  // crosses the huge-page threshold, a commit at a time
        push_past_capacity(v, 1);
        if (v.size() >= next_check) {  // (every 500,000 elements: page_commit commits a page at a time)
            ASSERT_LE(mappings_over(v.data(), span), 2) << "at " << v.size();
            next_check = v.size() + 500000;
        }
    }
    EXPECT_LE(mappings_over(v.data(), span), 2);
    v.resize(v.max_size());
    EXPECT_LE(mappings_over(v.data(), span), 2);
}

TEST(PinnedVector, OneOrTwoMappingsPerVector) {
    const fresh_reservations fresh;
    expect_one_or_two_mappings<relo::geometric_commit>();
    expect_one_or_two_mappings<relo::huge_page_commit>();
    expect_one_or_two_mappings<relo::page_commit>();
}
#endif

// ---- The reservation cache: short-lived vectors reuse their thread's released reservations.

/// The cache on, with `limit` reservations, and empty; the limit before restored at the end.
struct cache_of {
    std::size_t saved = relo::reservation_cache_limit();
    explicit cache_of(std::size_t limit) noexcept {
        relo::trim_reservation_cache();
        relo::set_reservation_cache_limit(limit);
    }
    ~cache_of() {
        relo::trim_reservation_cache();
        relo::set_reservation_cache_limit(saved);
    }
    cache_of(const cache_of&) = delete;
    cache_of& operator=(const cache_of&) = delete;
};

TEST(PinnedVectorReservationCache, ANewVectorTakesTheLastReleasedReservation) {
    const cache_of cache(4);
    const int* first = nullptr;
    std::size_t committed = 0;
    {
        pinned_vector<int> v;
        for (int i = 0; i < 1000; ++i) v.push_back(i);
        first = v.data();
        committed = v.committed_bytes();
    }
    EXPECT_EQ(relo::reservation_cache_count(), 1u);
    pinned_vector<int> w;
    EXPECT_EQ(relo::reservation_cache_count(), 0u);
    EXPECT_EQ(w.data(), first);
    EXPECT_TRUE(w.empty());
    EXPECT_EQ(w.committed_bytes(), committed);
    EXPECT_EQ(w.capacity(), committed / sizeof(int));
    EXPECT_EQ(w.reserved_bytes(), pinned_vector<int>::default_reservation);
    std::vector<int> model;
    for (int i = 0; i < 100000; ++i) {  // (beyond what was committed: it grows from there)
        w.push_back(3 * i);
        model.push_back(3 * i);
    }
    EXPECT_TRUE(std::equal(w.begin(), w.end(), model.begin(), model.end()));
    EXPECT_EQ(w.data(), first);
}

// Cached reservations keep their committed pages within the thread's budget (32 MiB), each at least its
// policy's retained minimum (what clear() keeps): the rest is decommitted when it is cached, and a vector
// taking it starts with that capacity.
TEST(PinnedVectorReservationCache, KeepsItsCommittedPagesWithinTheBudget) {
    const cache_of cache(4);
    // (The thread's reservation budget alone: the process's warm budget, smaller, is warm_memory_test's.)
    const std::size_t process_budget = relo::warm_memory_limit();
    relo::set_warm_memory_limit(SIZE_MAX);
    struct restore {
        std::size_t bytes;
        ~restore() { relo::set_warm_memory_limit(bytes); }
    } const restored{process_budget};
    const std::size_t budget = relo::detail::reservation_cache_committed_budget;
    const std::size_t minimum = relo::geometric_commit::rule.retained_minimum;
    const int* first = nullptr;
    const int* second = nullptr;
    {
        pinned_vector<int> v, w;
        while (v.committed_bytes() <= budget || w.committed_bytes() <= budget) {  // (their commits interleaved)
            push_past_capacity(v, 1);
            push_past_capacity(w, 2);
        }
        ASSERT_GT(v.committed_bytes(), budget);
        first = v.data();
        second = w.data();
    }  // (w goes first: it keeps the budget; v then keeps the minimum)
    pinned_vector<int> after_v;
    ASSERT_EQ(after_v.data(), first) << "the most recent first";
    EXPECT_EQ(after_v.committed_bytes(), minimum);
#if !defined(_WIN32)
    EXPECT_EQ(mappings_over(after_v.data(), after_v.reserved_bytes() + page()), 2);  // (the 2 MiB, then the rest)
#endif
    pinned_vector<int> after_w;
    ASSERT_EQ(after_w.data(), second);
    EXPECT_EQ(after_w.committed_bytes(), budget);
    after_w.resize(1000, 7);
    EXPECT_EQ(std::count(after_w.begin(), after_w.end(), 7), 1000);
}

TEST(PinnedVectorReservationCache, BoundedPerThreadAndTrimmedOnDemand) {
    const cache_of cache(2);
    {
        pinned_vector<int> a, b, c, d;
        a.push_back(1);
        d.push_back(4);
    }
    EXPECT_EQ(relo::reservation_cache_count(), 2u);
    relo::trim_reservation_cache();
    EXPECT_EQ(relo::reservation_cache_count(), 0u);
    relo::set_reservation_cache_limit(0);
    { pinned_vector<int> e{1, 2, 3}; }
    EXPECT_EQ(relo::reservation_cache_count(), 0u);
    relo::set_reservation_cache_limit(100);
    EXPECT_EQ(relo::reservation_cache_limit(), 8u);  // (at most 8)
}

// Only a vector of the same reservation size and commit policy takes a cached reservation, and policies
// with huge pages are never cached.
TEST(PinnedVectorReservationCache, OnlyTheSameSizeAndPolicy) {
    const cache_of cache(4);
    { pinned_vector<int> sized(max_capacity, 1000); sized.push_back(1); }
    EXPECT_EQ(relo::reservation_cache_count(), 1u);
    {
        pinned_vector<int> by_default;
        pinned_vector<int, relo::page_commit> other_policy(max_capacity, 1000);
        pinned_vector<char> other_size(max_capacity, 10000);  // (12 KiB: 100 chars would be the same page)
        EXPECT_EQ(by_default.committed_bytes(), 0u);
        EXPECT_EQ(other_policy.committed_bytes(), 0u);
        EXPECT_EQ(other_size.committed_bytes(), 0u);
        EXPECT_EQ(relo::reservation_cache_count(), 1u);
    }
    relo::trim_reservation_cache();
    { pinned_vector<int, relo::huge_page_commit> huge{1, 2, 3}; }
    EXPECT_EQ(relo::reservation_cache_count(), 0u);
    { pinned_vector<int> sized(max_capacity, 1000); }
    pinned_vector<int> same(max_capacity, 1000);
    EXPECT_EQ(relo::reservation_cache_count(), 0u);
}

// Each thread has its own cache, emptied when the thread ends.
TEST(PinnedVectorReservationCache, EachThreadKeepsItsOwn) {
    const cache_of cache(4);
    const int* left_by_thread = nullptr;
    std::thread worker([&] {
        pinned_vector<int> v{1, 2, 3};
        left_by_thread = v.data();
    });
    worker.join();
    EXPECT_EQ(relo::reservation_cache_count(), 0u);
#if !defined(_WIN32)
    EXPECT_EQ(mappings_over(left_by_thread, pinned_vector<int>::default_reservation), 0);  // (unmapped)
#endif
}

// ---- Failures of the system's calls, in a child process with a lowered limit. (Linux's resource limits;
// Windows has none for a process: a job object's limit would be the counterpart.)
#if !defined(_WIN32)

// A commit the system refuses (RLIMIT_DATA bounds writable private memory, mprotect included) is
// std::bad_alloc naming the limits that refuse one, and the vector is unchanged.
TEST(PinnedVectorDeathTest, RefusedCommitIsBadAllocAndChangesNothing) {
    // (AddressSanitizer maps its own memory as the test runs: under the lowered limit it fails first.)
    if (RELO_TEST_ASAN) GTEST_SKIP() << "AddressSanitizer's own allocations fail under RLIMIT_DATA first";
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            pinned_vector<int> v(max_capacity, std::size_t{1} << 30);
            set_limit(RLIMIT_DATA, status_bytes("VmData:") + (std::size_t{64} << 20));
            std::size_t pushed = 0;
            try {
                for (;;) {
                    v.push_back(static_cast<int>(pushed));
                    ++pushed;
                }
            } catch (const std::bad_alloc& e) {
                bool intact = v.size() == pushed && v.capacity() == pushed;
                for (std::size_t i = 0; intact && i < pushed; ++i) intact = v[i] == static_cast<int>(i);
                const std::string what = e.what();
                const bool named = what.find("cannot commit") != std::string::npos &&
                                   what.find("vm.max_map_count") != std::string::npos;
                std::_Exit(intact && named && pushed > 0 && pushed < (std::size_t{1} << 30) ? 0 : 1);
            } catch (...) {
                std::_Exit(2);
            }
        },
        ::testing::ExitedWithCode(0), "");
}

// Under RLIMIT_AS a reservation beyond the limit is std::bad_alloc naming its size and the limits; the
// default constructor too (never a silently smaller reservation), and a vector given a reservation that
// fits works.
TEST(PinnedVectorDeathTest, LimitedAddressSpace) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            set_limit(RLIMIT_AS, status_bytes("VmSize:") + (std::size_t{256} << 20));
            try {
                pinned_vector<int> v(max_capacity, std::size_t{1} << 30);
                std::_Exit(1);
            } catch (const std::bad_alloc& e) {
                if (std::string(e.what()).find("4294967296") == std::string::npos) std::_Exit(2);
            }
            try {
                pinned_vector<int> by_default;
                std::_Exit(3);
            } catch (const std::bad_alloc& e) {
                const std::string what = e.what();
                if (what.find(std::to_string(pinned_vector<int>::default_reservation)) == std::string::npos ||
                    what.find("RLIMIT_AS") == std::string::npos || what.find("vm.max_map_count") == std::string::npos)
                    std::_Exit(5);
            }
            pinned_vector<int> v(max_capacity, 1000000);
            for (int i = 0; i < 1000000; ++i) v.push_back(i);
            std::_Exit(v.size() == 1000000 && v[999999] == 999999 ? 0 : 4);
        },
        ::testing::ExitedWithCode(0), "");
}

#endif

#if !defined(_WIN32)
// 20,000 default pinned_vectors live at once (78 TiB of address space, 40,000 mappings once each has a
// page): every one reserves the whole default, and any of them can grow past 1 MiB.
TEST(PinnedVectorAtScale, TwentyThousandDefaultVectorsEachWithItsWholeReservation) {
    std::vector<pinned_vector<int>> many(20000);
    for (std::size_t i = 0; i < many.size(); ++i) {
        ASSERT_EQ(many[i].reserved_bytes(), pinned_vector<int>::default_reservation) << "vector " << i;
        many[i].push_back(static_cast<int>(i));
    }
    const std::size_t past_a_mib = (std::size_t{1} << 20) / sizeof(int) + 1;
    for (std::size_t i = 0; i < many.size(); i += 997) {
        for (std::size_t k = 1; k < past_a_mib; ++k) many[i].push_back(static_cast<int>(k));
        ASSERT_EQ(many[i].size(), past_a_mib);
        ASSERT_EQ(many[i][past_a_mib - 1], static_cast<int>(past_a_mib - 1));
    }
    for (std::size_t i = 0; i < many.size(); ++i) ASSERT_EQ(many[i][0], static_cast<int>(i));
}
#endif

}  // namespace
}  // namespace relo_test
