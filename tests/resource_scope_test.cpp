// relo::resource_scope, relo::current_resource() and relo::current_resource_allocator<T>
// (relo/resource_scope.hpp): scopes nest and are per thread; every block comes from the resource current
// when it was allocated and goes back to that one, whatever is current when it is freed (test_resource
// checks each block given back); standard and relo containers, over-aligned types, sizes no block can
// hold, a resource that refuses. (nlohmann/json on a scope's resource: tests/clients_test.cpp.)
#include "relo/resource_scope.hpp"

#include <cstdint>
#include <list>
#include <map>
#include <memory_resource>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "relo/multipool_resource.hpp"
#include "relo/test_resource.hpp"
#include "relo/vector.hpp"

namespace relo_test {
namespace {

template <class T>
using scoped = relo::current_resource_allocator<T>;

/// Frees c's memory (assigning `{}` keeps a vector's capacity).
template <class Container>
void free_all(Container& c) {
    Container().swap(c);
}

TEST(ResourceScope, ScopesNestAndRestore) {
    std::pmr::memory_resource* const global = std::pmr::get_default_resource();
    EXPECT_EQ(relo::current_resource(), global);
    relo::test_resource a, b;
    {
        const relo::resource_scope outer(&a);
        EXPECT_EQ(relo::current_resource(), &a);
        EXPECT_EQ(outer.resource(), &a);
        {
            const relo::resource_scope inner(&b);
            EXPECT_EQ(relo::current_resource(), &b);
        }
        EXPECT_EQ(relo::current_resource(), &a);
    }
    EXPECT_EQ(relo::current_resource(), global);
}

TEST(ResourceScope, AScopeIsTheThreadsOnly) {
    relo::test_resource a;
    const relo::resource_scope scope(&a);
    std::pmr::memory_resource* seen = nullptr;
    std::thread other([&] {
        seen = relo::current_resource();
        std::vector<int, scoped<int>> v(100, 7);  // from the other thread's current resource: the default
    });
    other.join();
    EXPECT_EQ(seen, std::pmr::get_default_resource());
    EXPECT_EQ(a.total_blocks(), 0u);
}

TEST(ResourceScope, EachBlockGoesBackToItsOwnResource) {
    relo::test_resource a, b;
    scoped<std::uint64_t> alloc;
    std::uint64_t* from_a = nullptr;
    std::uint64_t* from_default = alloc.allocate(3);  // outside every scope
    {
        const relo::resource_scope scope(&a);
        from_a = alloc.allocate(10);
        for (int i = 0; i < 10; ++i) from_a[i] = static_cast<std::uint64_t>(i);
    }
    EXPECT_EQ(a.blocks_in_use(), 1u);
    {
        const relo::resource_scope scope(&b);  // freed while another resource is current
        alloc.deallocate(from_a, 10);
        alloc.deallocate(from_default, 3);
        EXPECT_EQ(b.total_blocks(), 0u);
    }
    EXPECT_EQ(a.blocks_in_use(), 0u);
    EXPECT_EQ(a.deallocations(), 1u);
    EXPECT_EQ(a.problems(), 0u);
    EXPECT_EQ(b.deallocations(), 0u);
}

TEST(ResourceScope, ContainersBuiltInAScopeOutliveIt) {
    relo::test_resource upstream;
    relo::multipool_resource pool(&upstream);
    std::vector<int, scoped<int>> numbers;
    std::map<int, std::string, std::less<int>, scoped<std::pair<const int, std::string>>> names;
    std::list<double, scoped<double>> values;
    relo::vector<long, scoped<long>> longs;
    std::vector<int> model;
    {
        const relo::resource_scope scope(&pool);
        for (int i = 0; i < 1000; ++i) {
            numbers.push_back(i * 3);
            model.push_back(i * 3);
            names.emplace(i, std::to_string(i));
            values.push_back(i * 0.5);
            longs.push_back(i);
        }
    }
    EXPECT_GT(upstream.total_blocks(), 0u);
    const std::size_t pool_blocks = upstream.blocks_in_use();
    // Outside the scope: they keep their pool, grow from the default resource, and free each block to
    // the resource it came from.
    for (int i = 1000; i < 1100; ++i) {
        numbers.push_back(i * 3);
        model.push_back(i * 3);
        longs.push_back(i);
    }
    EXPECT_EQ(std::vector<int>(numbers.begin(), numbers.end()), model);
    EXPECT_EQ(names.size(), 1000u);
    EXPECT_EQ(names.at(417), "417");
    EXPECT_EQ(values.size(), 1000u);
    EXPECT_EQ(longs.size(), 1100u);
    EXPECT_EQ(longs[1099], 1099);
    EXPECT_LE(upstream.blocks_in_use(), pool_blocks);
    free_all(numbers);
    names.clear();
    values.clear();
    free_all(longs);
    pool.release();
    EXPECT_EQ(upstream.blocks_in_use(), 0u);
    EXPECT_EQ(upstream.problems(), 0u);
}

TEST(ResourceScope, MovedContainersAndAnyInstanceAreInterchangeable) {
    relo::test_resource a;
    std::vector<std::string, scoped<std::string>> built;
    {
        const relo::resource_scope scope(&a);
        for (int i = 0; i < 50; ++i) built.push_back(std::string(40, static_cast<char>('a' + i % 26)));
    }
    std::vector<std::string, scoped<std::string>> moved = std::move(built);
    std::vector<std::string, scoped<std::string>> assigned;
    assigned = std::move(moved);
    EXPECT_EQ(assigned.size(), 50u);
    EXPECT_EQ(assigned[27], std::string(40, 'b'));
    EXPECT_TRUE(scoped<int>() == scoped<double>());
    EXPECT_FALSE(scoped<int>() != scoped<double>());
    free_all(assigned);
    EXPECT_EQ(a.blocks_in_use(), 0u);
    EXPECT_EQ(a.problems(), 0u);
}

TEST(ResourceScope, OverAlignedTypesKeepTheirAlignment) {
    struct alignas(64) line {
        char bytes[64];
    };
    struct alignas(4096) page {
        char bytes[4096];
    };
    relo::test_resource a;
    const relo::resource_scope scope(&a);
    scoped<line> lines;
    scoped<page> pages;
    for (std::size_t n : {1u, 3u, 17u}) {
        line* l = lines.allocate(n);
        page* p = pages.allocate(n);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(l) % 64, 0u);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 4096, 0u);
        l[n - 1].bytes[63] = 1;
        p[n - 1].bytes[4095] = 1;
        lines.deallocate(l, n);
        pages.deallocate(p, n);
    }
    EXPECT_EQ(a.blocks_in_use(), 0u);
    EXPECT_EQ(a.problems(), 0u);
}

TEST(ResourceScope, SizesNoBlockCanHoldAndARefusingResource) {
    relo::test_resource a;
    const relo::resource_scope scope(&a);
    scoped<std::uint64_t> alloc;
    for (std::size_t n : {alloc.max_size() + 1, SIZE_MAX, SIZE_MAX / 8, SIZE_MAX / 16 + 1}) {
        EXPECT_THROW((void)alloc.allocate(n), std::bad_array_new_length) << n;
    }
    EXPECT_EQ(a.total_blocks(), 0u) << "the resource is not asked for what no block can hold";
    a.set_allocation_limit(0);
    EXPECT_THROW((void)alloc.allocate(4), std::bad_alloc);
    std::vector<int, scoped<int>> v;
    EXPECT_THROW(v.resize(100), std::bad_alloc);
    EXPECT_TRUE(v.empty());
    a.set_allocation_limit(-1);
    v.resize(100, 5);
    EXPECT_EQ(v[99], 5);
    free_all(v);
    EXPECT_EQ(a.blocks_in_use(), 0u);
}


}  // namespace
}  // namespace relo_test
