// tests/vector_differential_test.cpp — long random sequences of every modifier on relo::vector, checked
// after every operation against std::vector<int> as the model: contents, size, capacity >= size,
// contiguity and live-object counts. RELO_DIFFERENTIAL_OPS sets the number of operations per element kind.
#include "relo/vector.hpp"

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "element_kinds.hpp"

namespace relo_test {
namespace {

long operations_per_kind() {
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
                if (model.size() > limit_) {
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

    std::size_t pick(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    int fresh() { return next_key_++ % 1000000 + 1; }

    void check(const V& v, const std::vector<int>& model, bool count_live = true) {
        ASSERT_EQ(v.size(), model.size()) << last_;
        ASSERT_GE(v.capacity(), v.size()) << last_;
        ASSERT_EQ(v.data() + v.size(), v.end()) << last_;
        if (K::counting && count_live) {
            ASSERT_EQ(K::live() - live_at_start_, static_cast<long>(model.size())) << last_;
        }
        for (std::size_t i = 0; i < model.size(); ++i) ASSERT_EQ(K::key(v[i]), model[i]) << last_ << " at " << i;
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
                v.insert(v.begin() + pos, count, K::make(k));
                model.insert(model.begin() + pos, count, k);
                break;
            }
            case 1: {
                last_ = "insert(pos, v[i]) (aliasing)";
                if (n == 0) break;
                const std::size_t pos = pick(n + 1);
                const std::size_t src = pick(n);
                v.insert(v.begin() + pos, v[src]);
                model.insert(model.begin() + pos, model[src]);
                break;
            }
            case 2: {
                last_ = "insert(pos, own range) (aliasing)";
                const std::size_t pos = pick(n + 1);
                const std::size_t first = pick(n + 1);
                const std::size_t last = first + pick(std::min<std::size_t>(n - first, 50) + 1);
                v.insert(v.begin() + pos, v.begin() + first, v.begin() + last);
                const std::vector<int> part(model.begin() + first, model.begin() + last);
                model.insert(model.begin() + pos, part.begin(), part.end());
                break;
            }
            case 3: {
                last_ = "push_back(v[i]) (aliasing)";
                if (n == 0) break;
                const std::size_t src = pick(n);
                v.push_back(v[src]);
                model.push_back(model[src]);
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
                if (pick(2)) {
                    v.assign(source.begin(), source.end());
                } else {
                    V copy(source.begin(), source.end());
                    v = copy;
                }
                model = keys;
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
                v.push_back(K::make(k));
                model.push_back(k);
                break;
            }
            case 3: {
                last_ = "emplace_back";
                const int k = fresh();
                v.emplace_back(K::make(k));
                model.push_back(k);
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
                v.insert(v.begin() + pos, K::make(k));
                model.insert(model.begin() + pos, k);
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
                v.resize(size);
                // Value-initialized elements: compare their keys as the kind makes them.
                const T blank{};
                const int blank_key = K::key(blank);
                model.resize(size, blank_key);
                break;
            }
            case 9: {
                last_ = pick(2) ? "reserve" : "shrink_to_fit";
                if (last_[0] == 'r') {
                    v.reserve(n + pick(3000));
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

template <class V>
void run_differential(unsigned seed) {
    differential<V>(seed).run(operations_per_kind());
}

TEST(VectorDifferential, Int) { run_differential<relo::vector<int>>(1); }
TEST(VectorDifferential, BigTrivial) { run_differential<relo::vector<big_trivial>>(2); }
TEST(VectorDifferential, Counted) { run_differential<relo::vector<counted>>(3); }
TEST(VectorDifferential, String) { run_differential<relo::vector<std::string>>(4); }
TEST(VectorDifferential, UniquePtr) { run_differential<relo::vector<std::unique_ptr<int>>>(5); }
TEST(VectorDifferential, Thrower) { run_differential<relo::vector<thrower>>(6); }
TEST(VectorDifferential, Overaligned) { run_differential<relo::vector<overaligned>>(7); }
TEST(VectorDifferential, MarkedRelocatable) { run_differential<relo::vector<marked_relocatable>>(8); }
TEST(VectorDifferential, StringWithStdAllocator) {
    run_differential<relo::vector<std::string, std::allocator<std::string>, relo::growth_1_5>>(9);
}

}  // namespace
}  // namespace relo_test
