// bench/structures_bench.cpp — P0089's benchmark I (P0089R0, section 7): creating and destroying isolated
// data structures under the paper's fourteen allocation strategies, one case per process.
//
//   structures_bench run --impl AS7 --ds 3 --size-log 10 --leaves-log 27
//       builds DS3 (unordered_set<int>) of 2^10 elements and destroys it, 2^(27 - 10) times; DS5..DS12 have
//       2^7 leaves per element, so they are built 2^(27 - 7 - 10) times (at least once); with --warm 1 every
//       strategy first builds and destroys one untimed (a long-lived program's memory: warm)
//   structures_bench list
//
// The data structures (the paper's Table 2): DS1 vector<int>, DS2 vector<string>, DS3 unordered_set<int>,
// DS4 unordered_set<string>, then DS5..DS8 a vector and DS9..DS12 an unordered_set of each of DS1..DS4
// with 2^7 leaves each. Strings are 33 to 100 characters long (uniform), outside the short-string buffer.
// Vectors are reserved to their final size first. The paper wrote every leaf through a pointer to volatile,
// so that the compiler could not skip the work: a string's bytes are written so here, and an int leaf
// passes through an empty asm statement (hidden from the optimizer without a store and a load per leaf).
// The code that builds a structure is the same under every strategy: fill() is always inlined and the
// structure's address escapes (left to the compiler, only std::allocator's loop was inlined and kept the
// vector in registers, which halved its time per leaf of vector<int>, none of it the allocator's).
// One allocator serves the whole structure: relo's resources through
// std::scoped_allocator_adaptor<relo::resource_allocator> (compile-time binding) or
// std::pmr::polymorphic_allocator (runtime binding, which propagates itself).
//
// The strategies (the paper's Table 1): AS1 the global allocator (std::allocator); AS2 the global allocator
// through std::pmr::memory_resource (new_delete_resource); AS3..AS6 relo::monotonic_resource, AS7..AS10
// relo::multipool_resource, AS11..AS14 a multipool over a monotonic resource — in each group of four:
// compile-time binding, the same winked out, runtime binding, the same winked out. "Winked out": the
// structure is never destroyed; the resource, a local of the iteration, gives its memory back at once.
// Beside them: std-pool and std-monotonic (std::pmr's unsynchronized pool and monotonic buffer resources
// in the AS9 and AS5 roles), boost-pool and boost-monotonic (Boost.Container's), AS1 under another
// global allocator (the runner preloads it: AS1+mimalloc ...), and the floors: allocation at no cost (a
// bump pointer, never freeing) over memory an untimed first build faulted in (floor) or that the timed
// builds fault in once (floor-cold), what every strategy is measured against.
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

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_support.hpp"
#include "relo/memory_resource.hpp"
#include "relo/profiling_resource.hpp"
#include "resource_states.hpp"

#if defined(RELO_BENCH_HAVE_BOOST_PMR)
#include <boost/container/pmr/memory_resource.hpp>
#include <boost/container/pmr/monotonic_buffer_resource.hpp>
#include <boost/container/pmr/polymorphic_allocator.hpp>
#include <boost/container/pmr/unsynchronized_pool_resource.hpp>
#endif

namespace relo_bench {
namespace {

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

using strategies = join_t<
    table<named<"AS1", strategy<global_allocator, no_state, false>>,
          named<"AS2", strategy<pmr_allocator, resource_state<new_delete>, false>>,
          named<"AS3", compile_time<relo::monotonic_resource, relo_monotonic, false>>,
          named<"AS4", compile_time<relo::monotonic_resource, relo_monotonic, true>>,
          named<"AS5", strategy<pmr_allocator, relo_monotonic, false>>,
          named<"AS6", strategy<pmr_allocator, relo_monotonic, true>>,
          named<"AS7", compile_time<relo::multipool_resource, relo_multipool, false>>,
          named<"AS8", compile_time<relo::multipool_resource, relo_multipool, true>>,
          named<"AS9", strategy<pmr_allocator, relo_multipool, false>>,
          named<"AS10", strategy<pmr_allocator, relo_multipool, true>>,
          named<"AS11", compile_time<relo::multipool_resource, relo_composite, false>>,
          named<"AS12", compile_time<relo::multipool_resource, relo_composite, true>>,
          named<"AS13", strategy<pmr_allocator, relo_composite, false>>,
          named<"AS14", strategy<pmr_allocator, relo_composite, true>>,
          named<"floor", floor_strategy>,
          named<"floor-cold", floor_cold_strategy>,
          named<"std-pool", strategy<pmr_allocator, resource_state<just<std::pmr::unsynchronized_pool_resource>>, false>>,
          named<"std-monotonic", strategy<pmr_allocator, resource_state<just<std::pmr::monotonic_buffer_resource>>, false>>>,
    boost_strategies,
    table<named<"AS3-cache0", with_chunk_cache_limit<compile_time<relo::monotonic_resource, relo_monotonic, false>, 0>>,
          named<"AS3-cache1m", with_chunk_cache_limit<compile_time<relo::monotonic_resource, relo_monotonic, false>, 1u << 20>>,
          named<"AS3-cache64m", with_chunk_cache_limit<compile_time<relo::monotonic_resource, relo_monotonic, false>, 64u << 20>>,
          named<"AS7-cache0", with_chunk_cache_limit<compile_time<relo::multipool_resource, relo_multipool, false>, 0>>,
          named<"AS7-cache1m", with_chunk_cache_limit<compile_time<relo::multipool_resource, relo_multipool, false>, 1u << 20>>,
          named<"AS7-cache64m", with_chunk_cache_limit<compile_time<relo::multipool_resource, relo_multipool, false>, 64u << 20>>>>;

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

/// The implementation "recommended" (listed only: run() profiles, then runs the strategy chosen).
struct recommended_by_profile {};

/// What relo::recommend says of data structure number ds at 2^size_log elements, built once on a
/// relo::profiling_resource and profiled before it is destroyed, as the name of the strategy that carries
/// it out here. The structures are dropped whole, so a local resource is winked out (AS4, AS8, AS12).
std::string recommended_strategy(int ds, std::size_t elements, relo::allocation_profile& profile) {
    structures<pmr_allocator>::with(ds, [&](auto d) {
        using DS = typename decltype(d)::type;
        relo::profiling_resource profiler;
        leaf_source leaves;
        DS built{typename DS::allocator_type(&profiler)};
        fill(built, elements, leaves);
        profile = profiler.profile();
    });
    switch (relo::recommend(profile).strategy) {
        case relo::allocation_strategy::global_allocator: return "AS1";
        case relo::allocation_strategy::monotonic: return "AS4";
        case relo::allocation_strategy::multipool: return "AS8";
        case relo::allocation_strategy::multipool_over_monotonic: return "AS12";
        case relo::allocation_strategy::synchronized_multipool: return "AS7";  // (one thread here)
    }
    return "AS1";
}

/// `structures_bench recommend --ds D --size-log N`: relo::recommend's choice for the cell and the profile,
/// as raw bytes on stdout (for run(), which asks a process of its own: see recommended_by_a_process).
int recommend_mode(const options& opt) {
    const int ds = static_cast<int>(opt.number("ds", 1));
    const int size_log = static_cast<int>(opt.number("size-log", 10));
    relo::allocation_profile profile;
    char name[8] = {};
    std::snprintf(name, sizeof name, "%s", recommended_strategy(ds, std::size_t{1} << size_log, profile).c_str());
    const bool written = std::fwrite(name, sizeof name, 1, stdout) == 1 && std::fwrite(&profile, sizeof profile, 1, stdout) == 1;
    return written ? 0 : 1;
}

/// recommend_mode() run by another process (posix_spawn of this program, which shares nothing with this
/// one: a fork would leave every page of this process copy-on-write, and the timed builds would fault them).
std::string recommended_by_a_process(int ds, int size_log, relo::allocation_profile& profile) {
    int fds[2];
    if (::pipe(fds) != 0) options::usage_error("pipe() failed");
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    ::posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::string ds_arg = std::to_string(ds), size_arg = std::to_string(size_log);
    char program[] = "/proc/self/exe";
    char mode[] = "recommend";
    char ds_key[] = "--ds";
    char size_key[] = "--size-log";
    char* argv[] = {program, mode, ds_key, ds_arg.data(), size_key, size_arg.data(), nullptr};
    pid_t child = 0;
    const int spawned = ::posix_spawn(&child, program, &actions, nullptr, argv, environ);
    ::posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    char name[8] = {};
    const bool read_all = spawned == 0 && ::read(fds[0], name, sizeof name) == static_cast<ssize_t>(sizeof name) &&
                          ::read(fds[0], &profile, sizeof profile) == static_cast<ssize_t>(sizeof profile);
    ::close(fds[0]);
    int status = 0;
    if (spawned == 0) ::waitpid(child, &status, 0);
    if (!read_all || !WIFEXITED(status) || WEXITSTATUS(status) != 0) options::usage_error("the profiling process failed");
    return name;
}

int run(const options& opt) {
    std::string impl = opt.required("impl");
    const int ds = static_cast<int>(opt.number("ds", 1));
    const int size_log = static_cast<int>(opt.number("size-log", 10));
    const int leaves_log = static_cast<int>(opt.number("leaves-log", 20));
    const bool warm = opt.number("warm", 0) != 0;
    if (ds < 1 || ds > 12) options::usage_error("--ds is 1 to 12");
    if (size_log < 0 || size_log > 24) options::usage_error("--size-log is 0 to 24");
    const int per_element_log = ds <= 4 ? 0 : leaves_per_element_log;
    const int iterations_log = leaves_log - per_element_log - size_log;
    const long iterations = iterations_log > 0 ? long{1} << iterations_log : 1;
    double t = -1;
    // "recommended": the strategy relo::recommend picks from a profile of one build — made by another
    // process, so that the profiling build leaves nothing in this one —, then timed as itself.
    const std::string asked = impl;
    relo::allocation_profile profile;
    if (impl == "recommended") impl = recommended_by_a_process(ds, size_log, profile);
    const bool found = strategies::with(impl, [&](auto s) {
        using Strategy = typename decltype(s)::type;
        structures<Strategy::template allocator>::with(
            ds, [&](auto d) {
                t = run_structure<Strategy, typename decltype(d)::type>(std::size_t{1} << size_log, iterations, warm);
            });
    });
    if (!found) options::usage_error("unknown strategy " + impl);
    const double leaves = static_cast<double>(iterations) * static_cast<double>(std::size_t{1} << (size_log + per_element_log));
    json_line out;
    out.add("impl", asked).add("ds", static_cast<long>(ds)).add("size_log", static_cast<long>(size_log));
    if (asked != impl) {
        out.add("recommended_as", impl).add("profile_allocations", static_cast<long>(profile.allocations));
        out.add("profile_peak_to_total", profile.peak_to_total()).add("profile_reuse", profile.reuse_fraction());
    }
    out.add("iterations", iterations).add("leaves", leaves).add("time_s", t);
    out.add("max_rss_kb", process_counters::read().max_rss_kb);
    out.print();
    return 0;
}

}  // namespace

program this_program() {
    return program("structures_bench", {
        mode::of<join_t<strategies, table<named<"recommended", recommended_by_profile>>>, table<named<"leaf", int>>>(
            "run", run),
        mode::of<table<>, table<named<"leaf", int>>>("recommend", recommend_mode),
    });
}

}  // namespace relo_bench
