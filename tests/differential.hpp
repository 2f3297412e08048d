// tests/differential.hpp — long random sequences of every modifier on a vector-like container, checked
// after every operation against std::vector<int> as the model: contents, size, capacity >= size,
// contiguity and live-object counts. Fixed-capacity containers (sequence_limit) must refuse growth past
// their capacity with std::bad_alloc and no change. RELO_DIFFERENTIAL_OPS sets the number of operations
// per test.
#ifndef RELO_TESTS_DIFFERENTIAL_HPP
#define RELO_TESTS_DIFFERENTIAL_HPP

#include <cstdlib>
#include <new>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "element_kinds.hpp"
#include "sequence_limit.hpp"

namespace relo_test {


inline long operations_per_kind() {
    if (const char* env = std::getenv("RELO_DIFFERENTIAL_OPS")) return std::atol(env);
    return 150000;
}

template <class V>
class differential {
    using T = typename V::value_type;
    using K = kind<T>;
    static constexpr bool copyable = std::is_copy_constructible_v<T>;

public:
    explicit differential(unsigned seed) : rng_(seed) {}

    void run(long operations) {
        const long live_before = K::live();
        live_at_start_ = live_before;
        {
            V v;
            std::vector<int> model;
            for (long op = 0; op < operations; ++op) {
                step(v, model);
                if (::testing::Test::HasFailure()) {
                    ADD_FAILURE() << "after operation " << op << " (" << last_ << ")";
                    return;
                }
                // Sizes drift with the random walk; an occasional reset keeps both small and large sizes
                // (past the mapping thresholds) in the mix.
                if (model.size() > limit_ || (capacity_ != unlimited && pick(50) == 0)) {
                    v.clear();
                    model.clear();
                    limit_ = pick(10) < 8 ? 300 : 20000;
                }
            }
            if (K::counting) {
                EXPECT_EQ(K::live() - live_before, static_cast<long>(v.size()));
            }
        }
        EXPECT_EQ(K::live(), live_before) << "leak or double destruction";
    }

private:
    std::mt19937 rng_;
    std::size_t limit_ = 300;
    const char* last_ = "";
    int next_key_ = 1;
    long live_at_start_ = 0;

    static constexpr std::size_t unlimited = static_cast<std::size_t>(-1);
    const std::size_t capacity_ = sequence_limit<V>::value;

    /// Runs op, which makes the container `new_size` long (or reserves that much). Beyond a fixed
    /// capacity it must throw std::bad_alloc and change nothing (the caller then leaves the model as it
    /// is, and check() compares); returns whether the operation took place.
    template <class Op>
    bool attempt(std::size_t new_size, Op&& op) {
        if (new_size <= capacity_) {
            op();
            return true;
        }
        EXPECT_THROW(op(), std::bad_alloc) << last_;
        return false;
    }

    std::size_t pick(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    int fresh() { return next_key_++ % 1000000 + 1; }

    void check(const V& v, const std::vector<int>& model, bool count_live = true) {
        ASSERT_EQ(v.size(), model.size()) << last_;
        ASSERT_GE(v.capacity(), v.size()) << last_;
        ASSERT_EQ(static_cast<std::size_t>(v.end() - v.begin()), v.size()) << last_;
        if (!v.empty()) {
            ASSERT_EQ(std::addressof(*v.begin()), v.data()) << last_;
        }
        if (K::counting && count_live) {
            ASSERT_EQ(K::live() - live_at_start_, static_cast<long>(model.size())) << last_;
        }
        // (A plain loop to the first difference, then one assertion: an assertion per element was most of
        // the test's time at -O0 and under the sanitizers.)
        std::size_t i = 0;
        while (i < model.size() && K::key(v[i]) == model[i]) ++i;
        if (i < model.size()) {
            ASSERT_EQ(K::key(v[i]), model[i]) << last_ << " at " << i;
        }
    }

    // The operations that copy elements (not for move-only kinds).
    void copying_step(V& v, std::vector<int>& model) {
        const std::size_t n = model.size();
        switch (pick(6)) {
            case 0: {
                last_ = "insert(pos, n, value)";
                const std::size_t pos = pick(n + 1);
                const std::size_t count = pick(40);
                const int k = fresh();
                if (attempt(n + count, [&] { v.insert(v.begin() + pos, count, K::make(k)); }))
                    model.insert(model.begin() + pos, count, k);
                break;
            }
            case 1: {
                last_ = "insert(pos, v[i]) (aliasing)";
                if (n == 0) break;
                const std::size_t pos = pick(n + 1);
                const std::size_t src = pick(n);
                if (attempt(n + 1, [&] { v.insert(v.begin() + pos, v[src]); }))
                    model.insert(model.begin() + pos, model[src]);
                break;
            }
            case 2: {
                last_ = "insert(pos, own range) (aliasing)";
                const std::size_t pos = pick(n + 1);
                const std::size_t first = pick(n + 1);
                const std::size_t last = first + pick(std::min<std::size_t>(n - first, 50) + 1);
                if (attempt(n + (last - first), [&] { v.insert(v.begin() + pos, v.begin() + first, v.begin() + last); })) {
                    const std::vector<int> part(model.begin() + first, model.begin() + last);
                    model.insert(model.begin() + pos, part.begin(), part.end());
                }
                break;
            }
            case 3: {
                last_ = "push_back(v[i]) (aliasing)";
                if (n == 0) break;
                const std::size_t src = pick(n);
                if (attempt(n + 1, [&] { v.push_back(v[src]); })) model.push_back(model[src]);
                break;
            }
            case 4: {
                last_ = "assign(range) / copy assign";
                std::vector<T> source;
                std::vector<int> keys;
                const std::size_t count = pick(n + 20);
                for (std::size_t i = 0; i < count; ++i) {
                    keys.push_back(fresh());
                    source.push_back(K::make(keys.back()));
                }
                const bool done = attempt(count, [&] {
                    if (pick(2)) {
                        v.assign(source.begin(), source.end());
                    } else {
                        V copy(source.begin(), source.end());
                        v = copy;
                    }
                });
                if (done) model = keys;
                break;
            }
            case 5: {
                last_ = "copy construct and compare";
                const V copy(v);
                check(copy, model, false);
                ASSERT_TRUE(copy == v);
                break;
            }
        }
    }

    void step(V& v, std::vector<int>& model) {
        const std::size_t n = model.size();
        switch (pick(copyable ? 17 : 11)) {
            case 0:
            case 1:
            case 2: {
                last_ = "push_back";
                const int k = fresh();
                if (attempt(n + 1, [&] { v.push_back(K::make(k)); })) model.push_back(k);
                break;
            }
            case 3: {
                last_ = "emplace_back";
                const int k = fresh();
                if (attempt(n + 1, [&] { v.emplace_back(K::make(k)); })) model.push_back(k);
                break;
            }
            case 4: {
                last_ = "pop_back";
                if (n == 0) {
                    v.safe_pop_back();
                } else {
                    v.pop_back();
                    model.pop_back();
                }
                break;
            }
            case 5: {
                last_ = "insert(pos, T&&)";
                const std::size_t pos = pick(n + 1);
                const int k = fresh();
                if (attempt(n + 1, [&] { v.insert(v.begin() + pos, K::make(k)); })) model.insert(model.begin() + pos, k);
                break;
            }
            case 6: {
                last_ = "erase(first, last)";
                const std::size_t first = pick(n + 1);
                const std::size_t last = first + pick(n - first + 1);
                v.erase(v.begin() + first, v.begin() + last);
                model.erase(model.begin() + first, model.begin() + last);
                break;
            }
            case 7: {
                last_ = "erase(pos)";
                if (n == 0) break;
                const std::size_t pos = pick(n);
                v.erase(v.begin() + pos);
                model.erase(model.begin() + pos);
                break;
            }
            case 8: {
                last_ = "resize";
                const std::size_t size = pick(n * 2 + 2);
                if (attempt(size, [&] { v.resize(size); })) {
                    // Value-initialized elements: compare their keys as the kind makes them.
                    const T blank{};
                    const int blank_key = K::key(blank);
                    model.resize(size, blank_key);
                }
                break;
            }
            case 9: {
                last_ = pick(2) ? "reserve" : "shrink_to_fit";
                if (last_[0] == 'r') {
                    const std::size_t want = n + pick(3000);
                    attempt(want, [&] { v.reserve(want); });
                } else {
                    v.shrink_to_fit();
                }
                break;
            }
            case 10: {
                last_ = "move construct/assign, swap";
                V other(std::move(v));
                V third;
                third = std::move(other);
                third.swap(v);
                break;
            }
            default:
                if constexpr (copyable) copying_step(v, model);
                break;
        }
        check(v, model);
    }
};

/// How many random operations each differential test runs (RELO_DIFFERENTIAL_OPS, default 150000).
template <class V>
void run_differential(unsigned seed) {
    differential<V>(seed).run(operations_per_kind());
}

}  // namespace relo_test

#endif  // RELO_TESTS_DIFFERENTIAL_HPP
