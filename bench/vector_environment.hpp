// bench/vector_environment.hpp — the thesis's vector benchmark environment (the 2021 thesis, section 4.1).
//
// An environment holds a collection of vectors of one element type and runs an experiment: a sequence
// of iterations, each performing one randomly chosen action, itself repeated a random number of times:
//   construct  adds a new small vector of 0 to i + 10 default-constructed elements (i = iteration), as
//              the thesis's code does (`emplace_back(size)`);
//   destroy    swaps a random vector with the last one and removes it;
//   push_back  appends up to 100·i + 1 default-constructed elements (i = iteration) to random vectors;
//   pop_back   removes a random number of elements from the end of random vectors;
//   copy       copy-assigns a random vector into a new one;
//   insert     inserts up to i + 1 elements at a random position of random vectors;
//   erase      erases a random range of random vectors.
// The suites choose among them with equal probability: push-only (push_back alone, on a fixed number of
// vectors), push-cons-dest (construct, destroy, push_back) and all (every action). Every implementation
// sees the same random choices for the same seed, because the choices never depend on the vectors'
// capacities or addresses.
//
// Fixed-capacity vectors (Capacity > 0, the thesis's static_vector experiments, section 6.4): push_back and
// insert add at most what still fits, so the random choices stay the same for every implementation; the
// vectors are kept in a std::deque, so that adding one never moves the others. Unchecked = true appends
// with fast_emplace_back (no capacity check), the thesis's "push_back optimization".
#ifndef RELO_BENCH_VECTOR_ENVIRONMENT_HPP
#define RELO_BENCH_VECTOR_ENVIRONMENT_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench_support.hpp"

namespace relo_bench {

enum class suite { push_only, push_cons_dest, all };

inline suite parse_suite(const std::string& s) {
    if (s == "push-only") return suite::push_only;
    if (s == "push-cons-dest") return suite::push_cons_dest;
    if (s == "all") return suite::all;
    options::usage_error("unknown suite " + s);
}

/// Reallocation statistics, gathered in a separate (untimed) run.
struct growth_stats {
    long reallocations = 0;  // capacity changes caused by growth
    long in_place = 0;       // ... of which kept the data where it was
    long bytes_moved = 0;    // bytes of elements whose address changed in a growth
};

template <class Vector, bool Track = false, std::size_t Capacity = 0, bool Unchecked = false>
class vector_environment {
    using T = typename Vector::value_type;
    using collection = std::conditional_t<Capacity == 0, std::vector<Vector>, std::deque<Vector>>;

public:
    vector_environment(suite s, unsigned seed, std::size_t vectors) : suite_(s), rng_(seed), vectors_(vectors) {}

    void iteration(long i) {
        iteration_ = i;
        int action = 3;  // push_back
        if (suite_ == suite::push_cons_dest) action = pick(1, 3);
        if (suite_ == suite::all) action = pick(1, 7);
        switch (action) {
            case 1: construct(); break;
            case 2: destroy(); break;
            case 3: push_back(i); break;
            case 4: pop_back(); break;
            case 5: copy(); break;
            case 6: insert(i); break;
            case 7: erase(); break;
        }
    }

    std::size_t total_size() const {
        std::size_t n = 0;
        for (const auto& v : env_) n += v.size();
        return n;
    }
    const growth_stats& stats() const { return stats_; }

private:
    suite suite_;
    std::mt19937_64 rng_;
    std::size_t vectors_;
    collection env_;
    growth_stats stats_;
    long iteration_ = 0;

    template <class I>
    I pick(I lo, I hi) {  // inclusive
        return std::uniform_int_distribution<I>(lo, hi)(rng_);
    }
    std::size_t pick_index() { return pick<std::size_t>(0, env_.size() - 1); }
    std::size_t repeats() { return pick<std::size_t>(1, env_.size() / 3 + 1); }

    void construct() {
        const int q = suite_ == suite::push_only ? 1 : pick(1, 3);
        for (int k = 0; k < q; ++k) {
            std::size_t n = pick<std::size_t>(0, static_cast<std::size_t>(iteration_) + 10);
            if constexpr (Capacity != 0) n = std::min(n, Capacity);
            env_.emplace_back(n);
        }
    }

    void destroy() {
        if (env_.empty()) return construct();
        const std::size_t q = pick<std::size_t>(1, std::min<std::size_t>(3, env_.size()));
        for (std::size_t k = 0; k < q; ++k) {
            using std::swap;
            swap(env_[pick_index()], env_.back());
            env_.pop_back();
        }
    }

    void push_back(long i) {
        if (env_.size() < vectors_) return construct();
        const std::size_t q = repeats();
        for (std::size_t k = 0; k < q; ++k) {
            Vector& v = env_[pick_index()];
            std::size_t n = pick<std::size_t>(0, static_cast<std::size_t>(i) * 100 + 1);
            if constexpr (Capacity != 0) n = std::min(n, Capacity - v.size());
            while (n--) {
                if constexpr (Unchecked) {
                    v.fast_emplace_back();
                } else if constexpr (Track) {
                    const auto* before = v.data();
                    const std::size_t cap = v.capacity();
                    v.emplace_back();
                    if (v.capacity() != cap) record_growth(before, v.data(), v.size() - 1);
                } else {
                    v.emplace_back();
                }
            }
        }
    }

    void pop_back() {
        if (env_.empty()) return construct();
        const std::size_t q = repeats();
        for (std::size_t k = 0; k < q; ++k) {
            Vector& v = env_[pick_index()];
            std::size_t n = pick<std::size_t>(0, v.size());
            while (n--) v.pop_back();
        }
    }

    void copy() {
        if (env_.empty()) return construct();
        const int q = pick(1, 3);
        for (int k = 0; k < q; ++k) {
            const std::size_t source = pick_index();
            env_.emplace_back();
            env_.back() = env_[source];
        }
    }

    void insert(long i) {
        if (env_.empty()) return construct();
        const std::size_t q = repeats();
        for (std::size_t k = 0; k < q; ++k) {
            Vector& v = env_[pick_index()];
            std::size_t n = pick<std::size_t>(0, static_cast<std::size_t>(i) + 1);
            if constexpr (Capacity != 0) n = std::min(n, Capacity - v.size());
            const std::size_t pos = pick<std::size_t>(0, v.size());
            v.insert(v.begin() + static_cast<std::ptrdiff_t>(pos), n, T());
        }
    }

    void erase() {
        if (env_.empty()) return construct();
        const std::size_t q = repeats();
        for (std::size_t k = 0; k < q; ++k) {
            Vector& v = env_[pick_index()];
            if (v.empty()) continue;
            const std::size_t last = pick<std::size_t>(1, v.size());
            const std::size_t first = pick<std::size_t>(0, last - 1);
            v.erase(v.begin() + static_cast<std::ptrdiff_t>(first), v.begin() + static_cast<std::ptrdiff_t>(last));
        }
    }

    void record_growth(const T* before, const T* after, std::size_t old_size) {
        if (before == nullptr) return;  // the first allocation is not a reallocation
        ++stats_.reallocations;
        if (before == after) {
            ++stats_.in_place;
        } else {
            stats_.bytes_moved += static_cast<long>(old_size * sizeof(T));
        }
    }
};

}  // namespace relo_bench

#endif  // RELO_BENCH_VECTOR_ENVIRONMENT_HPP
