// tests/debugger/debuggee.cpp — the program the debugger printers are checked against (debugger_test.py).
//
// It builds one value of every container and resource, writes to the file named by argv[1] what each
// printer must show — computed here from the public interface, the independent model of what the printers
// read from memory —, then stops in stop_here() where the test's debugger prints every variable.
// An element type shown as {T} stands for the debugger's own spelling of that type.
#include <relo/relo.hpp>

#include <cstdio>
#include <string>

namespace {

std::FILE* expected = nullptr;

extern "C" __attribute__((noinline)) void stop_here() { asm volatile("" ::: "memory"); }

std::string quoted(const std::string& s) { return '"' + s + '"'; }
std::string shown(int x) { return std::to_string(x); }
const std::string& shown(const std::string& s) {
    static std::string q;
    q = quoted(s);
    return q;
}

template <class Container>
std::string elements(const Container& c) {
    if (c.empty()) return "";
    std::string out = " = {";
    for (const auto& x : c) {
        if (&x != &*c.begin()) out += ", ";
        out += shown(x);
    }
    return out + "}";
}

void expect(const char* variable, const std::string& text) { std::fprintf(expected, "%s|%s\n", variable, text.c_str()); }

template <class Container>
std::string sequence(const char* kind, const Container& c) {
    return std::string(kind) + " of length " + std::to_string(c.size()) + ", capacity " + std::to_string(c.capacity());
}

template <class Small>
std::string small(const Small& c) {
    return sequence("relo::small_vector<{T}>", c) + (c.is_on_heap() ? ", on the heap" : ", inline") + elements(c);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || (expected = std::fopen(argv[1], "w")) == nullptr) return 2;
    const std::string long_text = "a string longer than any small-string buffer";

    relo::vector<int> ints{1, 2, 3};
    ints.reserve(10);
    relo::vector<std::string> strings{long_text, ""};
    relo::vector<int> empty_vector;
    expect("ints", sequence("relo::vector<{T}>", ints) + elements(ints));
    expect("strings", sequence("relo::vector<{T}>", strings) + elements(strings));
    expect("empty_vector", sequence("relo::vector<{T}>", empty_vector));

    relo::small_vector<int, 4> small_inline{1, 2};
    relo::small_vector<std::string, 2> small_heap{long_text, "b", "c"};
    relo::small_vector_base<std::string>& small_base = small_heap;
    relo::small_vector<int, 4> small_empty;
    expect("small_inline", small(small_inline));
    expect("small_heap", small(small_heap));
    expect("small_base", small(small_base));
    expect("small_empty", small(small_empty));

    relo::inplace_vector<int, 8> fixed{5, 6};
    relo::inplace_vector<std::string, 3> fixed_strings{long_text};
    relo::inplace_vector<int, 0> fixed_none;
    expect("fixed", "relo::inplace_vector<{T}, 8> of length 2" + elements(fixed));
    expect("fixed_strings", "relo::inplace_vector<{T}, 3> of length 1" + elements(fixed_strings));
    expect("fixed_none", "relo::inplace_vector<{T}, 0> of length 0");

    relo::pinned_vector<int> pinned;
    for (int i = 0; i < 5; ++i) pinned.push_back(i * i);
    relo::pinned_vector<std::string> pinned_empty;
    const auto pinned_text = [](const auto& p) {
        return sequence("relo::pinned_vector<{T}>", p) + ", " + std::to_string(p.committed_bytes()) +
               " bytes committed of " + std::to_string(p.reserved_bytes()) + " reserved" + elements(p);
    };
    expect("pinned", pinned_text(pinned));
    expect("pinned_empty", pinned_text(pinned_empty));

    relo::vm_arena arena(1 << 20);
    (void)arena.allocate(100, 8);
    expect("arena", "relo::vm_arena: " + std::to_string(arena.used()) + " bytes used, " +
                        std::to_string(arena.committed()) + " committed, " + std::to_string(arena.reserved()) +
                        " reserved");

    relo::monotonic_resource monotonic;
    (void)monotonic.allocate(100);
    (void)monotonic.allocate(10000);
    relo::monotonic_resource monotonic_empty;
    const auto monotonic_text = [](const relo::monotonic_resource& m) {
        return "relo::monotonic_resource: " + std::to_string(m.bytes_in_use()) + " bytes in use, " +
               std::to_string(m.chunk_count()) + " chunks holding " + std::to_string(m.upstream_bytes()) + " bytes";
    };
    expect("monotonic", monotonic_text(monotonic));
    expect("monotonic_empty", monotonic_text(monotonic_empty));

    relo::multipool_resource multipool;
    for (int i = 0; i < 10; ++i) (void)multipool.allocate(24);
    (void)multipool.allocate(100);  // (a later pool's first chunk: cut from the block of first chunks)
    void* big = multipool.allocate(100000);
    relo::multipool_resource multipool_empty;
    const auto multipool_text = [](const relo::multipool_resource& m) {
        std::size_t chunks = 0;
        for (std::size_t i = 0; i < m.pool_count(); ++i) chunks += m.stats(i).chunks;
        return "relo::multipool_resource: " + std::to_string(m.bytes_in_use()) + " bytes in use, " +
               std::to_string(chunks) + " chunks, " + std::to_string(m.upstream_bytes()) + " bytes from the upstream, " +
               std::to_string(m.pool_count()) + " size classes, " + std::to_string(m.upstream_blocks()) +
               " blocks passed through";
    };
    expect("multipool", multipool_text(multipool));
    expect("multipool_empty", multipool_text(multipool_empty));

    relo::synchronized_multipool_resource shared;
    for (int i = 0; i < 3; ++i) (void)shared.allocate(40);
    expect("shared", "relo::synchronized_multipool_resource: " + std::to_string(shared.shard_count()) + " shards, " +
                         std::to_string(shared.bytes_in_use()) + " bytes in use, " +
                         std::to_string(shared.upstream_bytes()) + " bytes from the upstream");
    const relo::synchronized_multipool_resource& shared_const = shared;  // (a const object's type is qualified)
    (void)shared_const;
    expect("shared_const", "relo::synchronized_multipool_resource: " + std::to_string(shared.shard_count()) +
                               " shards, " + std::to_string(shared.bytes_in_use()) + " bytes in use, " +
                               std::to_string(shared.upstream_bytes()) + " bytes from the upstream");
    relo::test_resource tested("tested");
    void* kept = tested.allocate(48);
    tested.deallocate(tested.allocate(1000), 1000);
    expect("tested", "relo::test_resource tested: " + std::to_string(tested.blocks_in_use()) + " blocks, " +
                         std::to_string(tested.bytes_in_use()) + " bytes in use (at most " +
                         std::to_string(tested.max_bytes_in_use()) + "), " + std::to_string(tested.total_blocks()) +
                         " blocks allocated in all, " + std::to_string(tested.problems()) + " problems");
    relo::profiling_resource profiler;
    void* profiled = profiler.allocate(300);
    profiler.deallocate(profiler.allocate(5000), 5000);
    const relo::allocation_profile profile = profiler.profile();
    expect("profiler", "relo::profiling_resource: " + std::to_string(profile.bytes_in_use) + " bytes in use, peak " +
                           std::to_string(profile.peak_bytes_in_use) + ", " + std::to_string(profile.threads) +
                           " threads recorded");
    std::fclose(expected);

    stop_here();
    multipool.deallocate(big, 100000);
    tested.deallocate(kept, 48);
    profiler.deallocate(profiled, 300);
    return static_cast<int>(ints.size() + small_base.size() + fixed_none.size()) == 6 ? 0 : 1;
}
