// bench/structures.hpp — structures_bench's data structures, strategies and timed loop (P0089's benchmark I:
// bench/structures_bench.cpp says what it measures), shared by the translation units that each run one
// group of strategies (bench/structures_*.cpp).
#ifndef RELO_BENCH_STRUCTURES_HPP
#define RELO_BENCH_STRUCTURES_HPP

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <memory_resource>
#include <new>
#include <scoped_allocator>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "bench_support.hpp"
#include "relo/memory_resource.hpp"
#include "resource_states.hpp"

#if defined(RELO_BENCH_HAVE_BOOST_PMR)
#include <boost/container/pmr/memory_resource.hpp>
#include <boost/container/pmr/monotonic_buffer_resource.hpp>
#include <boost/container/pmr/polymorphic_allocator.hpp>
#include <boost/container/pmr/unsynchronized_pool_resource.hpp>
#endif

namespace relo_bench::structures_detail {

constexpr int leaves_per_element_log = 7;  // DS5..DS12: 2^7 leaves in every element

// ---- Hashing the elements of the unordered_sets (strings, vectors and sets of leaves).

struct element_hash {
    std::size_t operator()(int x) const noexcept { return std::hash<int>()(x); }
    template <class A>
    std::size_t operator()(const std::basic_string<char, std::char_traits<char>, A>& s) const noexcept {
        return std::hash<std::string_view>()(std::string_view(s.data(), s.size()));
    }
    template <class E, class A>
    std::size_t operator()(const std::vector<E, A>& v) const noexcept {
        std::size_t h = v.size();
        for (const E& e : v) h = h * 0x100000001b3u ^ (*this)(e);
        return h;
    }
    template <class E, class H, class Eq, class A>
    std::size_t operator()(const std::unordered_set<E, H, Eq, A>& s) const noexcept {
        std::size_t h = s.size();  // (order-independent: the sets compare equal in any order)
        for (const E& e : s) h += (*this)(e) * 0x9e3779b97f4a7c15u;
        return h;
    }
};

// ---- The leaves: distinct values the compiler cannot know.

class leaf_source {
public:
    int next_int() {
        int value = static_cast<int>(count_++);
        asm volatile("" : "+r"(value));  // (the compiler cannot know the value)
        return value;
    }
    /// A string of 33 to 100 characters, whose first bytes hold its number (so set elements differ).
    template <class String, class Alloc>
    String next_string(const Alloc& alloc) {
        const std::size_t length = 33 + (rng_.next() % 68);
        String s(length, 'a', alloc);
        volatile char* bytes = s.data();
        const std::uint64_t number = count_++;
        for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(number >> (8 * i));
        return s;
    }

private:
    struct {
        std::uint64_t state = 0x2545f4914f6cdd1du;
        std::uint64_t next() {
            state = state * 6364136223846793005u + 1442695040888963407u;
            return state >> 33;
        }
    } rng_;
    std::uint64_t count_ = 0;
};

template <class T>
struct is_vector : std::false_type {};
template <class E, class A>
struct is_vector<std::vector<E, A>> : std::true_type {};

template <class C>
RELO_ALWAYS_INLINE inline void fill(C& c, std::size_t n, leaf_source& leaves);

/// Appends a new element (a leaf, or an inner container of 2^7 leaves) to a vector.
template <class Vector>
RELO_ALWAYS_INLINE inline void append(Vector& v, leaf_source& leaves) {
    using E = typename Vector::value_type;
    if constexpr (std::is_same_v<E, int>) {
        v.push_back(leaves.next_int());
    } else if constexpr (std::is_class_v<E> && std::is_same_v<typename E::value_type, char>) {
        v.push_back(leaves.template next_string<E>(typename E::allocator_type(v.get_allocator())));
    } else {
        v.emplace_back();  // (with the vector's allocator: uses-allocator construction)
        fill(v.back(), std::size_t{1} << leaves_per_element_log, leaves);
    }
}

/// Inserts a new element into a set: built with the set's allocator, then moved in (no copy).
template <class Set>
RELO_ALWAYS_INLINE inline void insert(Set& s, leaf_source& leaves) {
    using E = typename Set::value_type;
    if constexpr (std::is_same_v<E, int>) {
        s.insert(leaves.next_int());
    } else if constexpr (std::is_class_v<E> && std::is_same_v<typename E::value_type, char>) {
        s.insert(leaves.template next_string<E>(typename E::allocator_type(s.get_allocator())));
    } else {
        E inner{typename E::allocator_type(s.get_allocator())};
        fill(inner, std::size_t{1} << leaves_per_element_log, leaves);
        s.insert(std::move(inner));
    }
}

template <class C>
RELO_ALWAYS_INLINE inline void fill(C& c, std::size_t n, leaf_source& leaves) {
    if constexpr (is_vector<C>::value) {
        c.reserve(n);
        for (std::size_t i = 0; i < n; ++i) append(c, leaves);
    } else {
        for (std::size_t i = 0; i < n; ++i) insert(c, leaves);
    }
}

/// The twelve data structures over one allocator template.
template <template <class> class Alloc>
struct structures {
    using string = std::basic_string<char, std::char_traits<char>, Alloc<char>>;
    template <class E>
    using vec = std::vector<E, Alloc<E>>;
    template <class E>
    using set = std::unordered_set<E, element_hash, std::equal_to<E>, Alloc<E>>;

    /// Calls f(tag<DS>{}) for data structure number ds (1..12).
    template <class F>
    static bool with(int ds, F&& f) {
        switch (ds) {
            case 1: return f(tag<vec<int>>{}), true;
            case 2: return f(tag<vec<string>>{}), true;
            case 3: return f(tag<set<int>>{}), true;
            case 4: return f(tag<set<string>>{}), true;
            case 5: return f(tag<vec<vec<int>>>{}), true;
            case 6: return f(tag<vec<vec<string>>>{}), true;
            case 7: return f(tag<vec<set<int>>>{}), true;
            case 8: return f(tag<vec<set<string>>>{}), true;
            case 9: return f(tag<set<vec<int>>>{}), true;
            case 10: return f(tag<set<vec<string>>>{}), true;
            case 11: return f(tag<set<set<int>>>{}), true;
            case 12: return f(tag<set<set<string>>>{}), true;
            default: return false;
        }
    }
};

// ---- The strategies: an allocator template, the state behind it (made afresh for every structure),
// and whether the structure is winked out.

template <class T>
using global_allocator = std::allocator<T>;
template <class T>
using pmr_allocator = std::pmr::polymorphic_allocator<T>;
template <class Resource>
struct bound {
    template <class T>
    using allocator = std::scoped_allocator_adaptor<relo::resource_allocator<T, Resource>>;
};

struct no_state {
    template <class A>
    A allocator() {
        return A();
    }
};
/// A resource (and what it is built on: State), reached through std::pmr::memory_resource* or directly.
template <class State>
struct resource_state : State {
    template <class A>
    A allocator() {
        if constexpr (std::is_constructible_v<A, std::pmr::memory_resource*>) {
            std::pmr::memory_resource* base = &this->resource;
            keep(base);  // (so that the calls stay virtual)
            return A(base);
        } else {
            return A(&this->resource);
        }
    }
};

template <template <class> class Alloc, class State, bool Wink>
struct strategy {
    template <class T>
    using allocator = Alloc<T>;
    using state = State;
    static constexpr bool winks_out = Wink;
};

template <class Resource, class State, bool Wink>
using compile_time = strategy<bound<Resource>::template allocator, State, Wink>;

/// A strategy run with another limit on the chunks each thread keeps for the next resource (the sweep that
/// chose relo::chunk_cache_limit()'s default).
template <class Strategy, std::size_t CacheLimit>
struct with_chunk_cache_limit : Strategy {
    static constexpr std::size_t chunk_cache_limit = CacheLimit;
};
template <class Strategy, class = void>
struct sets_cache_limit : std::false_type {};
template <class Strategy>
struct sets_cache_limit<Strategy, std::void_t<decltype(Strategy::chunk_cache_limit)>> : std::true_type {};

/// The floor of benchmark I: allocation at (almost) no cost — a bump pointer over memory that a first,
/// untimed build faulted in, never freeing, reached at compile time like AS7. What is left of a case's time
/// is the structure's own work (hashing, copying, linking, destroying) and its cache misses.
class floor_resource {
public:
    floor_resource() noexcept { arena().reset(relo::vm_arena::give_back::nothing); }
    void* allocate(std::size_t bytes, std::size_t alignment) { return arena().allocate(bytes, alignment); }
    void deallocate(void*, std::size_t, std::size_t) noexcept {}

private:
    static relo::vm_arena& arena() {
        static relo::vm_arena one;  // (its pages stay committed across resets: give_back::nothing)
        return one;
    }
};
struct floor_state {
    floor_resource resource;
    template <class A>
    A allocator() {
        return A(&resource);
    }
};
// floor-cold: the same bump pointer, its memory faulted in by the first timed build, as every strategy's
// is in a fresh process; floor: one untimed build first, so no page fault is timed.
using floor_cold_strategy = compile_time<floor_resource, floor_state, false>;
struct floor_strategy : floor_cold_strategy {
    static constexpr bool warm_up = true;
};
template <class Strategy, class = void>
struct warms_up : std::false_type {};
template <class Strategy>
struct warms_up<Strategy, std::void_t<decltype(Strategy::warm_up)>> : std::true_type {};

using relo_monotonic = resource_state<just<relo::monotonic_resource>>;
using relo_multipool = resource_state<just<relo::multipool_resource>>;
using relo_composite = resource_state<multipool_over_monotonic>;

#if defined(RELO_BENCH_HAVE_BOOST_PMR)
template <class T>
using boost_allocator = boost::container::pmr::polymorphic_allocator<T>;
template <class Resource>
struct boost_state {
    Resource resource;
    template <class A>
    A allocator() {
        boost::container::pmr::memory_resource* base = &resource;
        keep(base);
        return A(base);
    }
};
using boost_strategies =
    table<named<"boost-pool",
                strategy<boost_allocator, boost_state<boost::container::pmr::unsynchronized_pool_resource>, false>>,
          named<"boost-monotonic",
                strategy<boost_allocator, boost_state<boost::container::pmr::monotonic_buffer_resource>, false>>>;
#else
using boost_strategies = table<>;
#endif

// The strategies, in groups of one translation unit each (bench/structures_*.cpp): one unit holding all of
// them was compiled past GCC's inline growth limit (--param inline-unit-growth), and the instantiations it
// met last lost their inlining — a multipool per vector of 64 ints took 3.7x malloc's time, 1.4x in a
// program of its own (docs/measurements/p0089_benchmarks.md, "DS1 at 2^6").
using global_strategies = table<named<"AS1", strategy<global_allocator, no_state, false>>,
                                named<"AS2", strategy<pmr_allocator, resource_state<new_delete>, false>>>;
using monotonic_strategies = table<named<"AS3", compile_time<relo::monotonic_resource, relo_monotonic, false>>,
                                   named<"AS4", compile_time<relo::monotonic_resource, relo_monotonic, true>>,
                                   named<"AS5", strategy<pmr_allocator, relo_monotonic, false>>,
                                   named<"AS6", strategy<pmr_allocator, relo_monotonic, true>>>;
using multipool_strategies = table<named<"AS7", compile_time<relo::multipool_resource, relo_multipool, false>>,
                                   named<"AS8", compile_time<relo::multipool_resource, relo_multipool, true>>,
                                   named<"AS9", strategy<pmr_allocator, relo_multipool, false>>,
                                   named<"AS10", strategy<pmr_allocator, relo_multipool, true>>>;
using composite_strategies = table<named<"AS11", compile_time<relo::multipool_resource, relo_composite, false>>,
                                   named<"AS12", compile_time<relo::multipool_resource, relo_composite, true>>,
                                   named<"AS13", strategy<pmr_allocator, relo_composite, false>>,
                                   named<"AS14", strategy<pmr_allocator, relo_composite, true>>>;
using other_strategies = join_t<
    table<named<"floor", floor_strategy>,
          named<"floor-cold", floor_cold_strategy>,
          named<"std-pool", strategy<pmr_allocator, resource_state<just<std::pmr::unsynchronized_pool_resource>>, false>>,
          named<"std-monotonic", strategy<pmr_allocator, resource_state<just<std::pmr::monotonic_buffer_resource>>, false>>>,
    boost_strategies>;
using tuning_strategies =
    table<named<"AS3-cache0", with_chunk_cache_limit<compile_time<relo::monotonic_resource, relo_monotonic, false>, 0>>,
          named<"AS3-cache1m", with_chunk_cache_limit<compile_time<relo::monotonic_resource, relo_monotonic, false>, 1u << 20>>,
          named<"AS3-cache64m", with_chunk_cache_limit<compile_time<relo::monotonic_resource, relo_monotonic, false>, 64u << 20>>,
          named<"AS7-cache0", with_chunk_cache_limit<compile_time<relo::multipool_resource, relo_multipool, false>, 0>>,
          named<"AS7-cache1m", with_chunk_cache_limit<compile_time<relo::multipool_resource, relo_multipool, false>, 1u << 20>>,
          named<"AS7-cache64m", with_chunk_cache_limit<compile_time<relo::multipool_resource, relo_multipool, false>, 64u << 20>>>;
using strategies = join_t<global_strategies, monotonic_strategies, multipool_strategies, composite_strategies,
                          other_strategies, tuning_strategies>;

/// Builds the structure `iterations` times, each on a fresh state, and destroys it (or winks it out).
template <class Strategy, class DS>
double run_structure(std::size_t elements, long iterations, bool warm) {
    if constexpr (sets_cache_limit<Strategy>::value) relo::set_chunk_cache_limit(Strategy::chunk_cache_limit);
    leaf_source leaves;
    auto build_and_destroy = [&] {
        typename Strategy::state state;
        alignas(DS) unsigned char storage[sizeof(DS)];
        DS* ds = ::new (static_cast<void*>(storage)) DS(state.template allocator<typename DS::allocator_type>());
        keep(ds);
        fill(*ds, elements, leaves);
        keep(ds->size());
        if constexpr (!Strategy::winks_out) ds->~DS();
        // (winked out: the state's destructor gives the memory back; nothing in it is destroyed)
    };
    if constexpr (warms_up<Strategy>::value) {
        typename Strategy::state state;
        DS ds(state.template allocator<typename DS::allocator_type>());
        fill(ds, elements, leaves);
        keep(ds.size());
    } else {
        if (warm) build_and_destroy();  // (--warm: one untimed build, as a long-lived program has made before)
    }
    const double start = now_seconds();
    for (long i = 0; i < iterations; ++i) build_and_destroy();
    return now_seconds() - start;
}

/// Runs strategy `impl` of Group on data structure number ds; false when Group has no such strategy.
template <class Group>
bool run_in(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds) {
    return Group::with(impl, [&](auto s) {
        using Strategy = typename decltype(s)::type;
        structures<Strategy::template allocator>::with(ds, [&](auto d) {
            seconds = run_structure<Strategy, typename decltype(d)::type>(elements, iterations, warm);
        });
    });
}

// One per group, each defined in a translation unit of its own.
bool run_global(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds);
bool run_monotonic(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds);
bool run_multipool(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds);
bool run_composite(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds);
bool run_other(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds);
bool run_tuning(const std::string& impl, int ds, std::size_t elements, long iterations, bool warm, double& seconds);

}  // namespace relo_bench::structures_detail

#endif  // RELO_BENCH_STRUCTURES_HPP
