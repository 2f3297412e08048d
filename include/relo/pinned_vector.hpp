// relo/pinned_vector.hpp — relo::pinned_vector<T, CommitPolicy>: a vector that reserves a range of address
// space once and commits pages as it grows, so that its elements never move.
//
//     relo::pinned_vector<int> v;                                  // reserves default_reservation bytes
//     relo::pinned_vector<int> w(relo::max_capacity, 1'000'000);   // room for 10^6 elements, none committed
//     int* p = &w.emplace_back(1);
//     for (int i = 0; i < 999'999; ++i) w.push_back(i);           // p is still valid
//
// The interface is relo::vector's (std::vector's, with the C++23 range members and relo's extras), and
// every std::vector constructor has a counterpart taking relo::max_capacity and a capacity (in elements)
// first. The operations every relo vector shares (access, push_back, insert, erase, resize, assign,
// comparison: detail::sequence_ops) have the contracts on their members in detail/sequence.hpp, with the
// differences below; the members of its own state theirs in the class.
// What differs:
//   * max_size() is the reservation: growing beyond it throws std::length_error (the vector unchanged);
//     capacity() is what is committed. Committing fails with std::bad_alloc (the vector unchanged); a
//     reservation the system refuses is a std::bad_alloc whose what() names its size.
//   * Growth never moves an element: push_back, emplace_back, resize, reserve, append_range and insert at
//     the end keep every pointer, reference and iterator valid. insert and erase elsewhere shift the
//     elements after the position, and invalidate from the position on, as std::vector does.
//   * Beyond capacity() the reservation is inaccessible, and so is the page after it: a write past the
//     committed end faults instead of corrupting a neighbour.
//   * Memory goes back to the system when asked: shrink_to_fit() decommits every page past size().
//     clear(), erase and a shrinking resize() keep capacity(), as std::vector's do: a buffer cleared and
//     filled again (per frame, per request) faults none of its pages again (docs/decisions.md).
//   * Moving transfers the reservation (the elements stay where they are; the source is left empty
//     without one, and reserves the default again if it grows); copying makes a new reservation of the
//     same size; swap is O(1). assign() that needs more than capacity() builds the new elements in a new
//     reservation of the same size before the old ones are destroyed (strong guarantee, like std::vector's
//     reallocation); every other operation stays in the reservation.
//   * There is no allocator: the elements are constructed and destroyed as std::allocator<T> does.
//   * A vector destroyed leaves its reservation, first pages committed, to the next one its thread makes
//     of the same size and policy (the reservation cache, below): short-lived vectors make no system call.
// Each vector is one or two mappings (the committed pages, the rest of the reservation with its guard
// page): Linux's default vm.max_map_count (65530) allows about 32,000 vectors that have committed pages,
// and the default 4 GiB reservations as many in a 47-bit address space (128 TiB; 20,000 of them take 78
// TiB), so both limits meet there (docs/measurements/pinned_vector.md). Past either, or under a lower
// RLIMIT_AS, the constructor throws a std::bad_alloc that names the reservation's size and those limits;
// it never reserves less than it says (relo::max_capacity asks for less). Committed pages take memory only once written (with huge pages, at most
// one partly used 2 MiB page beyond the elements). A reservation is MAP_NORESERVE: commits do not count
// against the commit limit under Linux's heuristic overcommit; under strict overcommit
// (vm.overcommit_memory = 2) they are charged and may fail with std::bad_alloc.
//
// CommitPolicy says how pages are committed: the rule and the policies are stated in relo/commit_policy.hpp
// (the default, relo::geometric_commit, commits geometrically in 4 KiB pages).
// Layer 5, containers (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_PINNED_VECTOR_HPP
#define RELO_PINNED_VECTOR_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <utility>

#include "relo/commit_policy.hpp"
#include "relo/detail/allocation.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"
#include "relo/detail/errors.hpp"
#include "relo/detail/os_memory.hpp"
#include "relo/detail/reservation.hpp"
#include "relo/detail/sanitizers.hpp"
#include "relo/detail/sequence.hpp"
#include "relo/detail/uninitialized.hpp"
#include "relo/relocation.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

/// The tag of pinned_vector's constructors that take the reservation's size, in elements.
struct max_capacity_t {
    explicit max_capacity_t() = default;
};
inline constexpr max_capacity_t max_capacity{};  ///< pinned_vector(relo::max_capacity, n): room for n elements

/// The reservation cache (one of relo/warm_memory.hpp's three): a pinned_vector destroyed leaves its
/// reservation, with its first pages committed, to the next pinned_vector (or vm_arena) of the same
/// reservation size and policy made on the same thread, which then makes no system call. Each thread keeps
/// at most reservation_cache_limit() reservations (default 4, at most 8; 0 keeps none: every reservation
/// is unmapped when its vector goes); policies with huge pages are never cached.
inline std::size_t reservation_cache_limit() noexcept {
    return detail::reservation_cache_limit_count.load(detail::memory_order_relaxed);
}
/// Sets reservation_cache_limit() for every thread (at most 8 are kept), from the next reservation left.
inline void set_reservation_cache_limit(std::size_t reservations) noexcept {
    detail::reservation_cache_limit_count.store(
        reservations < detail::reservation_cache_slots ? reservations : detail::reservation_cache_slots,
        detail::memory_order_relaxed);
}
/// How many reservations the calling thread's cache holds.
inline std::size_t reservation_cache_count() noexcept {
    return detail::reservation_thread_cache::visit([](const detail::reservation_cache_state& c) { return c.count; });
}
/// Unmaps the calling thread's cached reservations.
inline void trim_reservation_cache() noexcept { (void)detail::reservation_thread_cache::trim(); }

/// A vector that reserves a range of address space once and commits pages as it grows, so that its
/// elements never move: this header's opening comment (relo/pinned_vector.hpp) says where it differs
/// from the other relo vectors, whose shared operations are documented on detail::sequence_ops.
template <class T, class CommitPolicy = geometric_commit>
class pinned_vector : public detail::sequence_ops<pinned_vector<T, CommitPolicy>, T, std::allocator<T>> {
    using base = detail::sequence_ops<pinned_vector<T, CommitPolicy>, T, std::allocator<T>>;
    friend base;
    using reservation = detail::reservation;

public:
    using typename base::difference_type;
    using typename base::size_type;
    /// The commit policy (relo/commit_policy.hpp): how far ahead pages of the reservation are committed.
    using commit_policy = CommitPolicy;

private:
    struct without_reservation_t {};
    static constexpr without_reservation_t without_reservation{};
    explicit pinned_vector(without_reservation_t) noexcept {}

public:
    /// The address space a default-constructed vector reserves: 4 GiB on 64-bit systems (256 MiB on 32-bit
    /// ones), so that the 128 TiB of a 47-bit address space hold as many vectors as Linux's default
    /// vm.max_map_count lets a process map (about 32,000).
    static constexpr std::size_t default_reservation = std::size_t{1} << (sizeof(void*) >= 8 ? 32 : 28);

    // ---------------------------------------------------------------------------------------------------
    // Construction.

    /// An empty vector. Reserves default_reservation bytes, or, with relo::max_capacity, room for exactly
    /// `capacity` elements (rounded up to whole pages). Reserving is one mmap, O(1): it throws
    /// std::bad_alloc (whose what() names the size and the limits that refuse it) when the system refuses,
    /// std::length_error when capacity * sizeof(T) overflows. Commits nothing, but for the pages a
    /// reservation taken from the thread's reservation cache (relo::reservation_cache_limit()) kept
    /// committed: then capacity() starts above 0, and no system call is made.
    ///@{
    pinned_vector() {
        reserve_default(0);
        annotate_unused_capacity();
    }
    pinned_vector(max_capacity_t, size_type capacity) {
        reserve_elements(capacity);
        annotate_unused_capacity();
    }
    ///@}

    /// A vector of n value-initialized elements, of n copies of value, or of a range's elements, in a
    /// reservation made as by the constructors above: default_reservation bytes, more if the elements
    /// need more and their number is known (a count, a forward range); with relo::max_capacity, room for
    /// `capacity` elements. O(n): commits what the elements need, once. Throws as reserving does, what
    /// constructing T throws, and std::length_error when the elements exceed the reservation; nothing
    /// leaks.
    ///@{

    explicit pinned_vector(size_type n) : pinned_vector(without_reservation) {
        reserve_default(n);
        build_value_initialized(n);
    }
    pinned_vector(max_capacity_t, size_type capacity, size_type n) : pinned_vector(max_capacity, capacity) {
        build_value_initialized(n);
    }
    pinned_vector(size_type n, const T& value) : pinned_vector(without_reservation) {
        reserve_default(n);
        build_filled(n, value);
    }
    pinned_vector(max_capacity_t, size_type capacity, size_type n, const T& value)
        : pinned_vector(max_capacity, capacity) {
        build_filled(n, value);
    }
    template <class InputIt, std::enable_if_t<detail::is_input_iterator_v<InputIt>, int> = 0>
    pinned_vector(InputIt first, InputIt last) : pinned_vector(without_reservation) {
        reserve_default_for(first, last);
        build_from_range(std::move(first), std::move(last));
    }
    template <class InputIt, std::enable_if_t<detail::is_input_iterator_v<InputIt>, int> = 0>
    pinned_vector(max_capacity_t, size_type capacity, InputIt first, InputIt last) : pinned_vector(max_capacity, capacity) {
        build_from_range(std::move(first), std::move(last));
    }
    pinned_vector(std::initializer_list<T> list) : pinned_vector(without_reservation) {
        reserve_default(list.size());
        build_from_range(list.begin(), list.end());
    }
    pinned_vector(max_capacity_t, size_type capacity, std::initializer_list<T> list) : pinned_vector(max_capacity, capacity) {
        build_from_range(list.begin(), list.end());
    }
#if RELO_HAS_FROM_RANGE
    template <class R>
    pinned_vector(std::from_range_t, R&& range) : pinned_vector(without_reservation) {
        reserve_default_for(std::ranges::begin(range), std::ranges::end(range));
        build_from_range(std::ranges::begin(range), std::ranges::end(range));
    }
    template <class R>
    pinned_vector(max_capacity_t, size_type capacity, std::from_range_t, R&& range) : pinned_vector(max_capacity, capacity) {
        build_from_range(std::ranges::begin(range), std::ranges::end(range));
    }
#endif
    ///@}

    /// O(n): a new reservation of other's size, holding copies of its elements.
    pinned_vector(const pinned_vector& other) : pinned_vector(without_reservation) {
        if (other.begin_ != nullptr) reserve_bytes(other.reserved_);
        build_from_range(other.begin(), other.end());
    }
    /// O(1), never throws: takes other's reservation, so the elements stay where they are and iterators
    /// follow them; other is left empty without a reservation (it reserves the default again if it grows).
    pinned_vector(pinned_vector&& other) noexcept { steal(other); }

    /// Destroys the elements, O(n), and unmaps the reservation or leaves it to the thread's reservation
    /// cache.
    ~pinned_vector() {
        const typename base::capacity_guard open(*this, base::whole_capacity, base::capacity_guard::on_close::leave_open);
        release_all();
    }

    // ---------------------------------------------------------------------------------------------------
    // Assignment.

    /// O(n): keeps this reservation when other's elements fit in it (assign()'s contract), else copies
    /// them into a new reservation of other's size (strong).
    pinned_vector& operator=(const pinned_vector& other) {
        if (this == std::addressof(other)) return *this;
        if (other.size() > this->max_size()) {
            pinned_vector copy(other);
            swap(copy);
        } else {
            this->assign(other.begin(), other.end());
        }
        return *this;
    }
    /// O(size()), never throws: destroys this vector's elements, gives its reservation back (as the
    /// destructor does) and takes other's, which is left empty without one.
    pinned_vector& operator=(pinned_vector&& other) noexcept {
        if (this != std::addressof(other)) {
            const typename base::capacity_guard open_this(*this, base::whole_capacity), open_other(other, base::whole_capacity);
            release_all();
            steal(other);
        }
        return *this;
    }
    /// assign(list).
    pinned_vector& operator=(std::initializer_list<T> list) {
        this->assign(list);
        return *this;
    }

    // ---------------------------------------------------------------------------------------------------
    // Capacity and memory. max_size() is the reservation, in elements; capacity() what is committed.
    // reserve(n) (the shared one) commits exactly the pages n elements need (whole huge pages past the
    // policy's threshold), one mprotect, invalidating nothing; std::length_error beyond max_size(),
    // std::bad_alloc when the system refuses the commit (then nothing changes). Growth (push_back,
    // emplace_back, insert at the end, append_range, a growing resize) commits by the policy
    // (relo/commit_policy.hpp) with the same errors, and invalidates nothing.

    /// The bytes of address space reserved (0 for a moved-from vector, until it grows).
    std::size_t reserved_bytes() const noexcept { return reserved_; }
    /// The bytes committed (readable and writable): capacity() elements and the rest of the last page.
    std::size_t committed_bytes() const noexcept { return committed_; }

    /// Never throws: decommits every page past size() (one system call; the kernel's work is per page given
    /// back); capacity() becomes size() rounded up to whole pages (huge pages past the commit policy's
    /// threshold). Invalidates nothing (past-the-end iterators stay valid).
    void shrink_to_fit() noexcept {
        const typename base::capacity_guard open(*this, 0);
        set_committed(reservation::decommit_beyond(base_bytes(), committed_, used_bytes(), rule()));
    }

    // clear() and resize() are sequence_ops's: growing commits by the policy and moves nothing; shrinking
    // keeps every committed page, as std::vector keeps its capacity (shrink_to_fit() gives them back).

    /// Exchanges the reservations in O(1), never throwing; no element moves, and iterators follow their
    /// elements.
    void swap(pinned_vector& other) noexcept {
        std::swap(begin_, other.begin_);
        std::swap(end_, other.end_);
        std::swap(capacity_end_, other.capacity_end_);
        std::swap(committed_, other.committed_);
        std::swap(reserved_, other.reserved_);
    }

private:
    static_assert(alignof(T) <= 4096, "relo::pinned_vector: elements are aligned to at most a page");

    T* begin_ = nullptr;
    T* end_ = nullptr;
    T* capacity_end_ = nullptr;
    std::size_t committed_ = 0;  // bytes
    std::size_t reserved_ = 0;   // bytes, not counting the guard page
    std::allocator<T> allocator_;

    static constexpr const commit_rule& rule() noexcept { return CommitPolicy::rule; }
    static constexpr size_type max_elements = static_cast<size_type>(std::numeric_limits<difference_type>::max()) / sizeof(T);

    char* base_bytes() const noexcept { return reinterpret_cast<char*>(begin_); }
    std::size_t used_bytes() const noexcept { return static_cast<std::size_t>(end_ - begin_) * sizeof(T); }

    // The storage interface of detail::sequence_ops.
    RELO_ALWAYS_INLINE T* seq_begin() const noexcept { return begin_; }
    RELO_ALWAYS_INLINE T* seq_end() const noexcept { return end_; }
    RELO_ALWAYS_INLINE T* seq_capacity_end() const noexcept { return capacity_end_; }
    /// Iterators stay valid as the vector grows: a bounded iterator's storage is the whole reservation.
    RELO_ALWAYS_INLINE T* seq_iterator_end() const noexcept { return begin_ + reserved_ / sizeof(T); }
    RELO_ALWAYS_INLINE bool seq_full() const noexcept { return end_ == capacity_end_; }
    RELO_ALWAYS_INLINE void seq_set_end(T* e) noexcept { end_ = e; }
    RELO_ALWAYS_INLINE void seq_added_one() noexcept { ++end_; }
    RELO_ALWAYS_INLINE void seq_removed_one() noexcept { --end_; }
    RELO_ALWAYS_INLINE std::allocator<T>& seq_allocator() noexcept { return allocator_; }
    size_type seq_max_size() const noexcept {
        const size_type n = (begin_ != nullptr ? reserved_ : default_reservation) / sizeof(T);
        return n < max_elements ? n : max_elements;
    }
    static constexpr bool seq_fixed_capacity = false;
    static constexpr bool seq_grows_out_of_line = false;
    static constexpr const char* seq_name = "relo::pinned_vector";
    static constexpr bool seq_annotated = true;
    [[noreturn]] static void seq_too_large(const char* what) { detail::throw_length_error(what); }

    /// A reservation taken, not yet adopted. (The out-of-line parts below take and return values, never
    /// `this`: a vector whose address no call sees keeps its pointers in registers in a push_back loop.)
    struct taken {
        char* base;
        std::size_t reserved;
        std::size_t committed;
    };

    // Growth commits pages; nothing moves. (Inline glue around one out-of-line call that takes values,
    // so that a push_back loop keeps the vector in registers.)
    // (A reservation taken from the cache may already hold what is required.)
    RELO_ALWAYS_INLINE void seq_grow(size_type required) {
        if (RELO_UNLIKELY(begin_ == nullptr)) {
            reserve_default(required);
            if (required <= this->capacity()) return;
        }
        set_committed(reservation::grow(base_bytes(), committed_, reserved_, required * sizeof(T), rule()));
    }
    // A push's growth is one call taking and returning values (inline, the reservation and commit glue
    // made back_insert_iterator's operator= too large for Clang to inline: docs/measurements/vector.md,
    // "Types and idioms").
    RELO_ALWAYS_INLINE void seq_grow_for_push() {
        const size_type n = this->size();
        const taken t = commit_one_more(base_bytes(), reserved_, committed_, n);
        begin_ = reinterpret_cast<T*>(t.base);
        end_ = begin_ + n;
        committed_ = t.committed;
        capacity_end_ = begin_ + t.committed / sizeof(T);
        reserved_ = t.reserved;
    }
    /// The reservation (made when there is none) with room for n + 1 elements committed. (Its parts are
    /// passed one by one, in registers: a `taken` passed by value went on the stack, and GCC then kept a
    /// frame pointer, which cost a push loop the register of its counter.)
    RELO_NOINLINE static taken commit_one_more(char* base, std::size_t reserved, std::size_t committed, size_type n) {
        taken r{base, reserved, committed};
        if (r.base == nullptr) {
            r = take_default_reservation(n + 1);
            if ((n + 1) * sizeof(T) <= r.committed) return r;
        }
        if (n >= r.reserved / sizeof(T)) seq_too_large("relo: size would exceed max_size()");
        r.committed = reservation::grow(r.base, r.committed, r.reserved, (n + 1) * sizeof(T), rule());
        return r;
    }
    void seq_reserve(size_type n) {
        if (begin_ == nullptr) reserve_default(n);
        if (n <= this->capacity()) return;
        set_committed(reservation::commit_exactly(base_bytes(), committed_, reserved_, n * sizeof(T), rule()));
    }
    void seq_grow_with_gap(size_type required, size_type at, size_type n) {
        seq_grow(required);
        detail::open_gap(allocator_, begin_ + at, end_, n);
    }
    template <class Build>
    void seq_grow_emplacing(size_type required, Build&& build) {
        seq_grow(required);
        build(end_);
        ++end_;
    }
    /// n new elements in place of the present ones (only called when n > capacity()): built where they
    /// stay when the vector is empty; otherwise in a new reservation of the same size, taken over once
    /// they exist (the old elements may be what they are built from).
    template <class Build>
    void seq_rebuild(size_type n, Build&& build) {
        if (begin_ == end_) {
            seq_reserve(n);
            build(begin_);
            end_ = begin_ + n;
            return;
        }
        pinned_vector fresh(without_reservation);
        fresh.reserve_bytes(reserved_);
        fresh.seq_reserve(n);
        build(fresh.begin_);
        fresh.end_ = fresh.begin_ + n;
        swap(fresh);
    }
    void seq_release() noexcept {
        detail::destroy(allocator_, begin_, end_);
        end_ = begin_;
    }

    /// Records the committed size. Pages given back are unpoisoned first: committed again later, they
    /// must not carry the annotation of the unused capacity they had (detail/sanitizers.hpp).
    void set_committed(std::size_t bytes) noexcept {
        if (bytes < committed_) {  // (from the new capacity's end: the bytes after it are clean too)
            const char* const new_capacity_end = base_bytes() + bytes / sizeof(T) * sizeof(T);
            detail::unpoison(new_capacity_end, static_cast<std::size_t>(base_bytes() + committed_ - new_capacity_end));
        }
        committed_ = bytes;
        capacity_end_ = begin_ + bytes / sizeof(T);
    }

    void reserve_elements(size_type capacity) {
        if (capacity > max_elements) detail::throw_length_error("relo: pinned_vector reservation beyond max_size()");
        reserve_bytes(capacity * sizeof(T));
    }
    static taken take_reservation(std::size_t bytes) {
        taken t{nullptr, bytes == 0 ? 1 : bytes, 0};
        t.base = reservation::take_cached(t.reserved, rule(), t.committed);
        if (t.base == nullptr) t.base = reservation::reserve(t.reserved, rule());  // (rounds `reserved` up to what it reserved)
        return t;
    }
    /// The default reservation, or room for `elements` if that is more.
    RELO_NOINLINE static taken take_default_reservation(size_type elements) {
        if (elements > max_elements) detail::throw_length_error("relo: pinned_vector reservation beyond max_size()");
        const std::size_t needed = elements * sizeof(T);
        return take_reservation(needed > default_reservation ? needed : default_reservation);
    }
    void reserve_bytes(std::size_t bytes) {
        const taken t = take_reservation(bytes);
        adopt_reservation(t.base, t.reserved, t.committed);
    }
    void reserve_default(size_type elements) {
        const taken t = take_default_reservation(elements);
        adopt_reservation(t.base, t.reserved, t.committed);
    }
    /// reserve_default() for the elements of a range whose length is known (forward iterators).
    template <class It, class Sent>
    void reserve_default_for(const It& first, const Sent& last) {
        if constexpr (detail::is_forward_iterator_v<It>) {
            reserve_default(detail::range_length(first, last));
        } else {
            reserve_default(0);
        }
    }
    /// Takes a reservation, empty; a cached one comes with its first `committed` bytes committed and clean,
    /// as freshly committed pages are (the annotations of detail/sanitizers.hpp: an operation that adopts
    /// storage annotates it when it ends).
    void adopt_reservation(char* start, std::size_t reserved, std::size_t committed) noexcept {
        begin_ = reinterpret_cast<T*>(start);
        end_ = begin_;
        committed_ = committed;
        capacity_end_ = begin_ + committed / sizeof(T);
        reserved_ = reserved;
    }
    /// For the constructors that make no element (no operation follows to annotate the capacity): the
    /// committed pages of a cached reservation become unused capacity.
    void annotate_unused_capacity() noexcept {
        if (capacity_end_ != begin_) detail::annotate_contiguous(begin_, capacity_end_, capacity_end_, begin_);
    }

    // Constructors: the storage for n elements is committed first, so that they are built in place.
    // (Only constructors call these: the capacity a cached reservation brings is annotated first.)
    void build_value_initialized(size_type n) {
        annotate_unused_capacity();
        commit_for(n);
        this->construct_value_initialized(n);
    }
    void build_filled(size_type n, const T& value) {
        annotate_unused_capacity();
        commit_for(n);
        this->construct_filled(n, value);
    }
    template <class It, class Sent>
    void build_from_range(It first, Sent last) {
        annotate_unused_capacity();
        if constexpr (detail::is_forward_iterator_v<It>) commit_for(detail::range_length(first, last));
        this->construct_from_range(std::move(first), std::move(last));
    }
    void commit_for(size_type n) {
        if (n > this->capacity()) this->reserve(n);
    }

    void release_all() noexcept {
        if (begin_ == nullptr) return;
        detail::destroy(allocator_, begin_, end_);
        reservation::release_to_cache(base_bytes(), reserved_, committed_, rule());
        begin_ = end_ = capacity_end_ = nullptr;
        committed_ = reserved_ = 0;
    }
    void steal(pinned_vector& other) noexcept {
        begin_ = std::exchange(other.begin_, nullptr);
        end_ = std::exchange(other.end_, nullptr);
        capacity_end_ = std::exchange(other.capacity_end_, nullptr);
        committed_ = std::exchange(other.committed_, 0);
        reserved_ = std::exchange(other.reserved_, 0);
    }
};

/// The element type deduced from an iterator range, as std::vector's guide does.
template <class InputIt, std::enable_if_t<detail::is_input_iterator_v<InputIt>, int> = 0>
pinned_vector(InputIt, InputIt) -> pinned_vector<typename std::iterator_traits<InputIt>::value_type>;
/// The same, with the reservation's size.
template <class InputIt, std::enable_if_t<detail::is_input_iterator_v<InputIt>, int> = 0>
pinned_vector(max_capacity_t, std::size_t, InputIt, InputIt) -> pinned_vector<typename std::iterator_traits<InputIt>::value_type>;

/// Pointers into its reservation and sizes: the elements stay where they are when the object moves.
template <class T, class P>
struct is_trivially_relocatable<pinned_vector<T, P>> : std::true_type {};

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_PINNED_VECTOR_HPP
