// tests/fuzz/container_fuzz.hpp — the fuzz driver of the vector-like containers: the fuzzer's bytes decode
// into operations (every modifier and constructor: insert and erase of one, n and a range at any position,
// resize, reserve, shrink_to_fit, assign, swap, copy and move construction and assignment, try_ and
// unchecked_ push), run on two containers of one type with std::vector<int> of keys as their models, each
// checked after every step. Before an operation the bytes may arm a planned failure: an element's k-th
// copy throws, or the allocator's k-th allocation fails. The container must then be as the guarantee its
// contract states (include/relo/detail/sequence.hpp, on each shared operation) says: unchanged where it
// is strong, valid and leak-free where it is basic. At the end no object is alive and no block outstanding.
#ifndef RELO_TESTS_FUZZ_CONTAINER_FUZZ_HPP
#define RELO_TESTS_FUZZ_CONTAINER_FUZZ_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fuzz_support.hpp"

namespace relo_fuzz {

/// Blocks the failing allocators hold, and the planned failure of the k-th allocation.
struct allocation_log {
    static inline long outstanding = 0;
    static inline long countdown = 0;  // 0: never fail
    static inline bool failed = false;  // the planned failure happened
};

/// A standard allocator over operator new that fails the k-th allocation once allocation_log says so.
template <class T>
struct failing_allocator {
    using value_type = T;
    failing_allocator() = default;
    template <class U>
    failing_allocator(const failing_allocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        if (n >= unholdable_bytes / sizeof(T)) throw std::bad_alloc();  // (operator new may abort instead)
        if (allocation_log::countdown > 0 && --allocation_log::countdown == 0) {
            allocation_log::failed = true;
            throw std::bad_alloc();
        }
        T* p = static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{alignof(T)}));
        ++allocation_log::outstanding;
        return p;
    }
    void deallocate(T* p, std::size_t) noexcept {
        --allocation_log::outstanding;
        ::operator delete(p, std::align_val_t{alignof(T)});
    }
    friend bool operator==(const failing_allocator&, const failing_allocator&) noexcept { return true; }
    friend bool operator!=(const failing_allocator&, const failing_allocator&) noexcept { return false; }
};

/// A single-pass view of a vector's elements (what insert and assign do with input iterators).
template <class T>
class input_only_iterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;
    explicit input_only_iterator(const T* p) noexcept : p_(p) {}
    reference operator*() const noexcept { return *p_; }
    input_only_iterator& operator++() noexcept {
        ++p_;
        return *this;
    }
    void operator++(int) noexcept { ++p_; }
    friend bool operator==(const input_only_iterator& a, const input_only_iterator& b) noexcept { return a.p_ == b.p_; }
    friend bool operator!=(const input_only_iterator& a, const input_only_iterator& b) noexcept { return a.p_ != b.p_; }

private:
    const T* p_;
};

/// What a container promises when an operation throws.
enum class promise { strong, basic };

/// One run of the bytes on two containers of type V, made by Traits (fuzz_family's Family).
template <class V, class Traits>
class container_run {
    using T = typename V::value_type;
    using K = kind<T>;
    static constexpr std::size_t size_cap = 2000;
    static constexpr bool throws_bad_alloc_when_too_large = std::is_same_v<typename Traits::too_large, std::bad_alloc>;  // (cleared beyond: each input stays fast)

    struct subject {
        V c;
        std::vector<int> model;
    };

public:
    explicit container_run(input& in) : in_(in) {}

    void run() {
        const long blocks_before = allocation_log::outstanding;
        {
            subject a{Traits::template make<V>(), {}};
            subject b{Traits::template make<V>(), {}};
            a_ = &a;
            b_ = &b;
            for (int step = 0; step < 3000 && !in_.done(); ++step) {
                const std::uint8_t op = in_.byte();
                subject& s = (op & 0x80) ? b : a;
                run_one(op & 0x7f, s, &s == &a ? b : a);
                check(s);
                check_live();
                if (s.model.size() > size_cap) {
                    s.c.clear();
                    s.model.clear();
                }
            }
            check(a);
            check(b);
        }
        RELO_FUZZ_CHECK(K::live() == live_at_start_, "the end (an element leaked or was destroyed twice)");
        RELO_FUZZ_CHECK(allocation_log::outstanding == blocks_before, "the end (a block leaked)");
    }

private:
    input& in_;
    subject* a_ = nullptr;
    subject* b_ = nullptr;
    const char* what_ = "construction";
    int next_key_ = 1;

    int fresh() noexcept { return next_key_ = next_key_ % 1000000 + 1; }

    void check(const subject& s) {
        RELO_FUZZ_CHECK(s.c.size() == s.model.size(), what_);
        RELO_FUZZ_CHECK(s.c.capacity() >= s.c.size(), what_);
        RELO_FUZZ_CHECK(s.c.size() <= s.c.max_size(), what_);
        RELO_FUZZ_CHECK(s.c.empty() == (s.c.size() == 0), what_);
        RELO_FUZZ_CHECK(s.c.data() + s.c.size() == std::to_address(s.c.end()), what_);
        RELO_FUZZ_CHECK(static_cast<std::size_t>(s.c.end() - s.c.begin()) == s.c.size(), what_);
        for (std::size_t i = 0; i < s.model.size(); ++i) RELO_FUZZ_CHECK(K::key(s.c[i]) == s.model[i], what_);
    }
    void check_live() {
        if constexpr (K::counting)
            RELO_FUZZ_CHECK(K::live() - live_at_start_ == static_cast<long>(a_->c.size() + b_->c.size()), what_);
    }
    long live_at_start_ = K::live();

    /// The model after a basic guarantee: whatever valid contents the container kept.
    void adopt(subject& s) {
        s.model.clear();
        for (const T& e : s.c) s.model.push_back(K::key(e));
    }

    // ---- Planned failures: a byte before an operation may arm one.
    void arm() {
        const std::uint8_t b = in_.byte();
        if (b < 208) return;
        if (K::can_throw && (b & 1)) {
            counted::copy_countdown = 1 + in_.byte() % 8;
        } else {
            allocation_log::countdown = 1 + in_.byte() % 4;
            allocation_log::failed = false;
        }
    }
    static void disarm() noexcept {
        counted::copy_countdown = 0;
        allocation_log::countdown = 0;
        allocation_log::failed = false;
    }

    /// Runs op, which leaves s `new_size` long (or asks for that much room) and is mirrored on the model by
    /// mirror() when it completes. Beyond max_size() it must throw Traits::too_large, and change nothing
    /// when the operation knows the length first (an input range is consumed as it goes: then basic).
    /// A size no machine holds (max_size() itself, for most containers) may also throw std::bad_alloc.
    template <class Op, class Mirror>
    void attempt(subject& s, std::size_t new_size, promise p, Op&& op, Mirror&& mirror, bool length_known = true) {
        const bool beyond = new_size > s.c.max_size();
        const bool unholdable = new_size >= unholdable_bytes / sizeof(T);
        arm();
        try {
            op();
            disarm();
            RELO_FUZZ_CHECK(!beyond && !unholdable, what_);  // (it should have thrown)
            mirror();
            return;
        } catch (const planned_failure&) {
            RELO_FUZZ_CHECK(counted::copy_countdown == 0, what_);
        } catch (const std::bad_alloc&) {
            const bool planned = allocation_log::failed;
            RELO_FUZZ_CHECK(planned || (beyond && throws_bad_alloc_when_too_large) || (unholdable && !beyond), what_);
            if (!planned && length_known) p = promise::strong;
        } catch (const std::length_error&) {
            RELO_FUZZ_CHECK(beyond && !throws_bad_alloc_when_too_large, what_);
            if (length_known) p = promise::strong;
        }
        disarm();
        if (p == promise::basic) adopt(s);  // (strong: the model stays as it was, and check() compares)
    }

    std::vector<T> make_values(std::size_t n, std::vector<int>& keys) {
        std::vector<T> values;
        values.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            keys.push_back(fresh());
            values.push_back(K::make(keys.back()));
        }
        return values;
    }

    void run_one(std::uint8_t op, subject& s, subject& other) {
        V& c = s.c;
        std::vector<int>& m = s.model;
        const std::size_t n = m.size();
        switch (op % 27) {
            case 0: {
                what_ = "push_back(const T&)";
                const int k = fresh();
                const T x = K::make(k);
                attempt(s, n + 1, promise::strong, [&] { c.push_back(x); }, [&] { m.push_back(k); });
                break;
            }
            case 1: {
                what_ = "push_back(T&&)";
                const int k = fresh();
                attempt(s, n + 1, promise::strong, [&] { c.push_back(K::make(k)); }, [&] { m.push_back(k); });
                break;
            }
            case 2: {
                what_ = "push_back(an element of the container)";
                if (n == 0) break;
                const std::size_t i = in_.below(n);
                attempt(s, n + 1, promise::strong, [&] { c.push_back(c[i]); }, [&] { m.push_back(m[i]); });
                break;
            }
            case 3: {
                what_ = "emplace_back";
                const int k = fresh();
                attempt(s, n + 1, promise::strong, [&] { RELO_FUZZ_CHECK(K::key(c.emplace_back(K::make(k))) == k, what_); },
                        [&] { m.push_back(k); });
                break;
            }
            case 4: {
                what_ = "try_push_back";
                const int k = fresh();
                const T x = K::make(k);
                const bool room = c.size() < c.capacity();
                bool pushed = false;
                attempt(s, n, promise::strong, [&] { pushed = c.try_push_back(x).has_value(); }, [&] {
                    RELO_FUZZ_CHECK(pushed == room, what_);
                    if (pushed) m.push_back(k);
                });
                break;
            }
            case 5: {
                what_ = "unchecked_push_back / fast_emplace_back";
                if (c.size() == c.capacity()) break;  // (a precondition)
                const int k = fresh();
                const bool fast = in_.byte() & 1;
                attempt(s, n + 1, promise::strong,
                        [&] {
                            if (fast) c.fast_emplace_back(K::make(k));
                            else c.unchecked_push_back(K::make(k));
                        },
                        [&] { m.push_back(k); });
                break;
            }
            case 6: {
                what_ = "pop_back / safe_pop_back";
                if (n == 0) {
                    c.safe_pop_back();
                } else {
                    c.pop_back();
                    m.pop_back();
                }
                break;
            }
            case 7: {
                what_ = "insert(pos, const T&)";
                const std::size_t at = in_.below(n + 1);
                const int k = fresh();
                const T x = K::make(k);
                attempt(s, n + 1, promise::strong,
                        [&] { RELO_FUZZ_CHECK(c.insert(c.begin() + at, x) == c.begin() + at, what_); },
                        [&] { m.insert(m.begin() + at, k); });
                break;
            }
            case 8: {
                what_ = "insert(pos, an element of the container)";
                if (n == 0) break;
                const std::size_t at = in_.below(n + 1);
                const std::size_t i = in_.below(n);
                attempt(s, n + 1, promise::strong, [&] { c.insert(c.begin() + at, c[i]); },
                        [&] { m.insert(m.begin() + at, m[i]); });
                break;
            }
            case 9: {
                what_ = "emplace(pos)";
                const std::size_t at = in_.below(n + 1);
                const int k = fresh();
                attempt(s, n + 1, promise::strong, [&] { c.emplace(c.begin() + at, K::make(k)); },
                        [&] { m.insert(m.begin() + at, k); });
                break;
            }
            case 10: {
                what_ = "insert(pos, count, value)";
                const std::size_t at = in_.below(n + 1);
                const std::size_t count = count_or_edge(c, in_.count());
                const bool own = n != 0 && (in_.byte() & 1);
                const std::size_t i = own ? in_.below(n) : 0;
                const int k = own ? m[i] : fresh();
                const T x = K::make(k);
                attempt(s, saturating_sum(n, count), promise::strong,
                        [&] { c.insert(c.begin() + at, count, own ? c[i] : x); },
                        [&] { m.insert(m.begin() + at, count, k); });
                break;
            }
            case 11: {
                what_ = "insert(pos, first, last) (forward)";
                const std::size_t at = in_.below(n + 1);
                std::vector<int> keys;
                const std::vector<T> values = make_values(in_.count(), keys);
                attempt(s, n + keys.size(), promise::strong, [&] { c.insert(c.begin() + at, values.begin(), values.end()); },
                        [&] { m.insert(m.begin() + at, keys.begin(), keys.end()); });
                break;
            }
            case 12: {
                what_ = "insert(pos, first, last) (part of the container itself)";
                const std::size_t at = in_.below(n + 1);
                const std::size_t first = in_.below(n + 1);
                const std::size_t last = first + in_.below(n - first + 1);
                const std::vector<int> part(m.begin() + first, m.begin() + last);
                attempt(s, n + part.size(), promise::strong,
                        [&] { c.insert(c.begin() + at, c.begin() + first, c.begin() + last); },
                        [&] { m.insert(m.begin() + at, part.begin(), part.end()); });
                break;
            }
            case 13: {
                what_ = "insert(pos, first, last) (input iterators)";
                const std::size_t at = in_.below(n + 1);
                std::vector<int> keys;
                const std::vector<T> values = make_values(in_.count(), keys);
                using it = input_only_iterator<T>;
                attempt(s, n + keys.size(), promise::basic,
                        [&] { c.insert(c.begin() + at, it(values.data()), it(values.data() + values.size())); },
                        [&] { m.insert(m.begin() + at, keys.begin(), keys.end()); }, /*length_known=*/false);
                break;
            }
            case 14: {
                what_ = "erase(pos)";
                if (n == 0) break;
                const std::size_t at = in_.below(n);
                RELO_FUZZ_CHECK(c.erase(c.begin() + at) == c.begin() + at, what_);
                m.erase(m.begin() + at);
                break;
            }
            case 15: {
                what_ = "erase(first, last)";
                const std::size_t first = in_.below(n + 1);
                const std::size_t last = first + in_.below(n - first + 1);
                RELO_FUZZ_CHECK(c.erase(c.begin() + first, c.begin() + last) == c.begin() + first, what_);
                m.erase(m.begin() + first, m.begin() + last);
                break;
            }
            case 16: {
                what_ = "resize(count)";
                const std::size_t count = count_or_edge(c, in_.byte() & 1 ? in_.below(n + 1) : n + in_.count());
                attempt(s, count, promise::strong, [&] { c.resize(count); }, [&] { m.resize(count, K::key(T{})); });
                break;
            }
            case 17: {
                what_ = "resize(count, value)";
                const std::size_t count = count_or_edge(c, in_.byte() & 1 ? in_.below(n + 1) : n + in_.count());
                const bool own = n != 0 && (in_.byte() & 1);
                const std::size_t i = own ? in_.below(n) : 0;
                const int k = own ? m[i] : fresh();
                const T x = K::make(k);
                attempt(s, count, promise::strong, [&] { c.resize(count, own ? c[i] : x); }, [&] { m.resize(count, k); });
                break;
            }
            case 18: {
                what_ = "reserve";
                const std::size_t want = count_or_edge(c, n + in_.count() * (in_.byte() & 1 ? 8 : 1));
                attempt(s, want, promise::strong, [&] {
                    c.reserve(want);
                    RELO_FUZZ_CHECK(c.capacity() >= want, what_);
                }, [] {});
                break;
            }
            case 19: {
                what_ = "shrink_to_fit";
                attempt(s, n, promise::strong, [&] { c.shrink_to_fit(); }, [] {});
                break;
            }
            case 20: {
                what_ = "assign(count, value)";
                const std::size_t count = count_or_edge(c, in_.count());
                const bool own = n != 0 && (in_.byte() & 1);
                const std::size_t i = own ? in_.below(n) : 0;
                const int k = own ? m[i] : fresh();
                const T x = K::make(k);
                attempt(s, count, assign_promise(c, count), [&] { c.assign(count, own ? c[i] : x); },
                        [&] { m.assign(count, k); });
                break;
            }
            case 21: {
                what_ = "assign(first, last)";
                std::vector<int> keys;
                const std::vector<T> values = make_values(in_.count(), keys);
                if (in_.byte() & 1) {
                    attempt(s, keys.size(), assign_promise(c, keys.size()), [&] { c.assign(values.begin(), values.end()); },
                            [&] { m = keys; });
                } else {
                    what_ = "assign(first, last) (input iterators)";
                    using it = input_only_iterator<T>;
                    attempt(s, keys.size(), promise::basic,
                            [&] { c.assign(it(values.data()), it(values.data() + values.size())); }, [&] { m = keys; },
                            /*length_known=*/false);
                }
                break;
            }
            case 22: {
                what_ = "clear";
                c.clear();
                m.clear();
                break;
            }
            case 23: {
                what_ = "copy construction";
                attempt(s, n, promise::strong, [&] {
                    const V copy(c);
                    RELO_FUZZ_CHECK(copy == c, what_);
                    RELO_FUZZ_CHECK(copy.size() == m.size(), what_);
                    for (std::size_t i = 0; i < m.size(); ++i) RELO_FUZZ_CHECK(K::key(copy[i]) == m[i], what_);
                }, [] {});
                break;
            }
            case 24: {
                what_ = "copy assignment";
                // The target keeps the basic guarantee; the source is unchanged either way. (Never too large:
                // a pinned_vector takes a larger reservation when it must.)
                attempt(other, 0, promise::basic, [&] { other.c = c; }, [&] { other.model = m; });
                check(other);
                break;
            }
            case 25: {
                what_ = "move construction and move assignment";
                V moved(std::move(c));
                RELO_FUZZ_CHECK(moved.size() == m.size(), what_);
                c = std::move(moved);
                if (in_.byte() & 1) {
                    other.c = std::move(c);
                    other.model = m;
                    c.clear();  // (moved-from: valid, contents unspecified)
                    m.clear();
                    check(other);
                }
                break;
            }
            case 26: {
                what_ = "swap";
                if (in_.byte() & 1) {
                    c.swap(other.c);
                } else {
                    using std::swap;
                    swap(c, other.c);
                }
                m.swap(other.model);
                check(other);
                break;
            }
        }
    }

    /// n + more, or SIZE_MAX when that wraps (a count from the edges added to the size).
    static std::size_t saturating_sum(std::size_t n, std::size_t more) noexcept {
        return more > SIZE_MAX - n ? SIZE_MAX : n + more;
    }
    /// Now and then (1 in 16) a count from the edges: max_size(), one or a few more, SIZE_MAX or a little
    /// less, SIZE_MAX / sizeof(T) (where count * sizeof(T) wraps); otherwise `usual`. (max_size() itself
    /// only where it is small, or more than a machine holds: a pinned_vector's default reservation, a few
    /// GiB, would be committed whole.)
    std::size_t count_or_edge(const V& c, std::size_t usual) {
        const std::uint8_t b = in_.byte();
        if (b < 240) return usual;
        const std::size_t small = in_.byte() % 8;
        switch (b % 4) {
            case 0: return c.max_size() <= size_cap * 2 || c.max_size() >= unholdable_bytes / sizeof(T) ? c.max_size() : usual;
            case 1: return saturating_sum(c.max_size(), 1 + small);
            case 2: return SIZE_MAX - small;
            default: return SIZE_MAX / sizeof(T) + 1 + small;
        }
    }

    promise assign_promise(const V& c, std::size_t count) const noexcept {
        return Traits::growth_assign_is_strong && count > c.capacity() ? promise::strong : promise::basic;
    }
};

/// The target of one container family: the first byte picks the element kind (int, std::string, counted)
/// and, for families that take an allocator, relo's default allocator or failing_allocator. Family has
///   template <class T> using with_default = ...       the container of T with its default allocator
///   template <class T> using with_failing = ...       ... with failing_allocator<T> (or void: none)
///   template <class V> static V make()                an empty container
///   static constexpr bool growth_assign_is_strong     assign() that grows the storage is strong
///   using too_large = ...                             what growing past max_size() throws
template <class Family>
int fuzz_family(const std::uint8_t* data, std::size_t size) {
    input in(data, size);
    const std::uint8_t pick = in.byte();
    const bool failing = (pick & 4) != 0;
    switch (pick % 3) {
        case 0: run_kind<Family, int>(in, failing); break;
        case 1: run_kind<Family, std::string>(in, failing); break;
        default: run_kind<Family, counted>(in, failing); break;
    }
    return 0;
}

template <class Family, class T>
void run_kind(input& in, bool failing) {
    using with_failing = typename Family::template with_failing<T>;
    if constexpr (!std::is_void_v<with_failing>) {
        if (failing) {
            container_run<with_failing, Family>(in).run();
            return;
        }
    }
    container_run<typename Family::template with_default<T>, Family>(in).run();
}

}  // namespace relo_fuzz

#endif  // RELO_TESTS_FUZZ_CONTAINER_FUZZ_HPP
