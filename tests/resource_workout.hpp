// tests/resource_workout.hpp — containers running on a memory resource under random operations, checked
// after every step against the same containers on the default allocator, and under upstream failures.
#ifndef RELO_TESTS_RESOURCE_WORKOUT_HPP
#define RELO_TESTS_RESOURCE_WORKOUT_HPP

#include <algorithm>
#include <list>
#include <memory>
#include <memory_resource>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "checking_resource.hpp"
#include "relo/resource_allocator.hpp"
#include "relo/vector.hpp"

namespace relo_test {

/// `steps` random operations on a std::vector (through resource_allocator<int, Resource>), a
/// std::pmr::unordered_set, std::pmr::list and std::pmr::string (through the memory_resource interface)
/// and a relo::vector (through resource_allocator), all on `resource`, each compared with its model on
/// the default allocator.
template <class Resource>
void random_container_workout(Resource& resource, unsigned seed, int steps) {
    using alloc = relo::resource_allocator<int, Resource>;
    std::vector<int, alloc> vector_on(&resource);
    std::pmr::unordered_set<int> set_on(&resource);
    std::pmr::list<int> list_on(&resource);
    std::pmr::string string_on(&resource);
    relo::vector<int, alloc> relo_on(&resource);
    std::vector<int> vector_model, relo_model;
    std::unordered_set<int> set_model;
    std::list<int> list_model;
    std::string string_model;
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    for (int step = 0; step < steps; ++step) {
        const int x = pick(100000);
        switch (pick(10)) {
            case 0: case 1:
                vector_on.push_back(x);
                vector_model.push_back(x);
                relo_on.push_back(x);
                relo_model.push_back(x);
                break;
            case 2:
                if (!vector_on.empty()) {
                    const auto at = static_cast<std::size_t>(pick(static_cast<int>(vector_on.size())));
                    vector_on.erase(vector_on.begin() + static_cast<long>(at));
                    vector_model.erase(vector_model.begin() + static_cast<long>(at));
                    relo_on.insert(relo_on.begin() + static_cast<long>(at % (relo_on.size() + 1)), x);
                    relo_model.insert(relo_model.begin() + static_cast<long>(at % (relo_model.size() + 1)), x);
                }
                break;
            case 3: case 4:
                set_on.insert(x % 5000);
                set_model.insert(x % 5000);
                break;
            case 5:
                set_on.erase(x % 5000);
                set_model.erase(x % 5000);
                break;
            case 6:
                list_on.push_back(x);
                list_model.push_back(x);
                if (pick(3) == 0 && !list_on.empty()) {
                    list_on.pop_front();
                    list_model.pop_front();
                }
                break;
            case 7: {
                const auto count = static_cast<std::size_t>(pick(40));
                const auto c = static_cast<char>('a' + pick(26));
                string_on.append(count, c);
                string_model.append(count, c);
                break;
            }
            case 8:
                if (pick(20) == 0) {
                    vector_on.clear();
                    vector_model.clear();
                    string_on.clear();
                    string_model.clear();
                    // (Bounded: inserting in the middle of an ever-growing vector made the test quadratic.)
                    if (relo_on.size() > 20000) {
                        relo_on.erase(relo_on.begin() + 1000, relo_on.end());
                        relo_model.erase(relo_model.begin() + 1000, relo_model.end());
                    }
                    relo_on.shrink_to_fit();
                    relo_model.shrink_to_fit();
                }
                break;
            default: {
                const auto more = static_cast<std::size_t>(pick(30));
                relo_on.resize(relo_on.size() + more, x);
                relo_model.resize(relo_model.size() + more, x);
                break;
            }
        }
        // Sizes and ends often; everything now and then (a full comparison every 97 steps made the test
        // quadratic in its length) and at the end: a divergence, once there, stays until the end.
        if (step % 97 == 0) {
            ASSERT_EQ(vector_on.size(), vector_model.size());
            ASSERT_EQ(relo_on.size(), relo_model.size());
            if (!relo_on.empty()) {
                ASSERT_EQ(relo_on.back(), relo_model.back());
            }
            ASSERT_EQ(set_on.size(), set_model.size());
            ASSERT_EQ(string_on.size(), string_model.size());
        }
        if (step % 1999 == 0 || step + 1 == steps) {
            ASSERT_TRUE(std::equal(vector_on.begin(), vector_on.end(), vector_model.begin(), vector_model.end()));
            ASSERT_TRUE(std::equal(relo_on.begin(), relo_on.end(), relo_model.begin(), relo_model.end()));
            ASSERT_EQ(set_on.size(), set_model.size());
            for (int k : set_model) ASSERT_EQ(set_on.count(k), 1u);
            ASSERT_TRUE(std::equal(list_on.begin(), list_on.end(), list_model.begin(), list_model.end()));
            ASSERT_EQ(std::string(string_on), string_model);
        }
    }
}

/// Containers on a resource whose upstream fails its k-th allocation, for k = 0, 1, ... until every
/// operation completes: a relo::vector of strings (through resource_allocator) and a
/// std::pmr::unordered_set (through the memory_resource interface) grow, insert and reserve; each failure
/// is std::bad_alloc out of the operation, the vector unchanged by it (its guarantee is strong for these),
/// and once the containers and the resource are gone the upstream holds nothing (checking_resource
/// checks it). make(upstream) returns the resource as a std::unique_ptr or std::shared_ptr. Returns how
/// many of the upstream's allocations were made to fail.
template <class Make>
long at_every_upstream_failure(Make make) {
    for (long k = 0;; ++k) {
        checking_resource upstream;
        bool failed = false;
        {
            auto resource = make(&upstream);
            using R = typename decltype(resource)::element_type;
            relo::vector<std::string, relo::resource_allocator<std::string, R>> v(resource.get());
            std::pmr::unordered_set<int> set(resource.get());
            std::vector<std::string> model;
            upstream.fail_after(k);
            try {
                for (int i = 0; i < 300; ++i) {
                    const std::string s = "a string long enough for the heap #" + std::to_string(i);
                    v.push_back(s);
                    model.push_back(s);
                    set.insert(i);
                }
                v.insert(v.begin() + 1, 50, "inserted");
                model.insert(model.begin() + 1, 50, "inserted");
                v.reserve(5000);
                v.resize(6000, "resized");
                model.resize(6000, "resized");
            } catch (const std::bad_alloc&) {
                failed = true;
            }
            upstream.fail_after(-1);
            EXPECT_TRUE(std::equal(v.begin(), v.end(), model.begin(), model.end())) << "upstream failure " << k;
            v.push_back("after");  // (and the resource goes on working)
        }
        EXPECT_EQ(upstream.live_blocks(), 0u) << "upstream failure " << k;
        if (!failed) return k;
        if (k > 10000) {
            ADD_FAILURE() << "the operations never complete";
            return k;
        }
    }
}

}  // namespace relo_test

#endif  // RELO_TESTS_RESOURCE_WORKOUT_HPP
