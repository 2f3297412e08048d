// relo/small_vector.hpp — relo::small_vector<T, N, Allocator, Growth>: a vector that keeps up to N
// elements inside the object and moves to the heap beyond, growing there as relo::vector does (realloc /
// mremap for trivially relocatable T, in-place expansion for the others).
//
// The interface is relo::vector's (std::vector's, with the C++23 range members and relo's extras). Every
// function lives in relo::small_vector_base<T, Allocator, Growth>, which does not depend on N: a function
// can take `relo::small_vector_base<T>&` and accept small vectors of any inline capacity (as
// llvm::SmallVectorImpl).
//
// Layout: a pointer to the elements (the inline slots or a heap block), the size and the capacity, then
// the N inline slots (which record N while the elements are on the heap): sizeof(small_vector<int, 8>)
// == 56, as Boost's. Abseil's 40-byte layout (size and flag in one word, heap pointer and capacity
// sharing the slots) was measured slower on push_back-heavy work (docs/measurements/small_vectors.md). N is at most
// 65535.
//
// Differences from relo::vector:
//   * moving a small vector whose elements are inline moves (relocates) the elements, so iterators into
//     the source are invalidated; swap is O(size) unless both are on the heap, and is not noexcept;
//   * it is not trivially relocatable (it points into itself while the elements are inline);
//   * shrink_to_fit() moves the elements back inline when they fit.
// Invalidation otherwise as std::vector: growth invalidates everything, insert/erase from the position on.
//
// The operations every relo vector shares (access, push_back, insert, erase, resize, assign, comparison:
// detail::sequence_ops) have the contracts on their members in detail/sequence.hpp: "grows" is leaving
// the inline slots or the heap block, and data() is never null. The
// members of its own, and those that differ, state their contracts in the classes below.
// Layer 5, containers (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_SMALL_VECTOR_HPP
#define RELO_SMALL_VECTOR_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

#include "relo/detail/allocation.hpp"
#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"
#include "relo/detail/heap_block.hpp"
#include "relo/detail/sequence.hpp"
#include "relo/detail/uninitialized.hpp"
#include "relo/growth.hpp"
#include "relo/page_allocator.hpp"
#include "relo/relocation.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

template <class T, class Allocator = default_allocator<T>, class Growth = growth_2>
class small_vector_base;

namespace detail {

/// The inline elements, constructed by the vector as it needs them. While the elements are on the heap
/// the slots are free, and record the inline capacity N instead (for small_vector_base, which does not
/// know N).
template <class T, std::size_t N>
union small_vector_slots {
    T items[N];
    std::uint16_t inline_capacity;
    small_vector_slots() noexcept {}
    ~small_vector_slots() {}
};
template <class T, class = void>
struct is_complete : std::false_type {};
template <class T>
struct is_complete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};
/// T's alignment, for slots that hold none: T must be complete (docs/decisions.md, "small_vector<T, 0>
/// needs T complete"), and an incomplete one is said so, once.
template <class T>
struct empty_slots_alignment {
    static_assert(is_complete<T>::value,
                  "relo: small_vector<T, 0> needs T complete where it is instantiated; in a recursive type use "
                  "relo::vector<T>, which takes an incomplete T (docs/decisions.md)");
    static constexpr std::size_t value = alignof(std::conditional_t<is_complete<T>::value, T, char>);
};
template <class T>
union small_vector_slots<T, 0> {
    std::uint16_t inline_capacity;
    alignas(empty_slots_alignment<T>::value) unsigned char none[1];  // where the (empty) inline storage starts
};

/// The default inline capacity: the object is about 64 bytes, with at least one element inline.
template <class T>
inline constexpr std::size_t default_small_capacity =
    sizeof(T) <= 64 - 3 * sizeof(std::size_t) ? (64 - 3 * sizeof(std::size_t)) / sizeof(T) : 1;

}  // namespace detail

/// The part of every relo::small_vector<T, N, Allocator, Growth> that does not depend on N. It cannot be
/// created or destroyed by itself; take it by reference.
template <class T, class Allocator, class Growth>
class small_vector_base : public detail::sequence_ops<small_vector_base<T, Allocator, Growth>, T, Allocator> {
    using base = detail::sequence_ops<small_vector_base<T, Allocator, Growth>, T, Allocator>;
    friend base;
    template <class, std::size_t, class, class>
    friend class small_vector;
    using alloc_traits = std::allocator_traits<Allocator>;
    using blocks = detail::block_ops<Allocator, T>;
    using block = detail::heap_block<T>;

public:
    using typename base::allocator_type;
    using typename base::size_type;
    /// The growth policy (relo/growth.hpp): by how much the capacity grows when the vector is full.
    using growth_policy = Growth;
    /// Not trivially relocatable: while the elements are inline, the object points at its own slots.
    using relo_trivially_relocatable = std::false_type;

    small_vector_base(const small_vector_base&) = delete;

    /// Copy assignment, honouring propagate_on_container_copy_assignment.
    small_vector_base& operator=(const small_vector_base& other) {
        this->copy_assign(other);
        return *this;
    }

    /// Move assignment: destroys this vector's elements, then takes over other's heap block when the
    /// allocators allow (O(1)), otherwise relocates other's elements (O(other.size())); other is left
    /// empty. Throws only if a heap block is needed here (other's elements do not fit and its block cannot
    /// be taken over) or moving an element throws.
    small_vector_base& operator=(small_vector_base&& other) {
        if (this == std::addressof(other)) return *this;
        const typename base::capacity_guard open_this(*this, base::whole_capacity), open_other(other, base::whole_capacity);
        if constexpr (alloc_traits::propagate_on_container_move_assignment::value) {
            // (!(a == b), not a != b: with std::rel_ops in scope, != is ambiguous for some allocators.)
            if (!alloc_traits::is_always_equal::value && !(allocator() == other.allocator())) release_all();
            allocator() = std::move(other.allocator());
        }
        this->clear();
        take_elements(other);
        return *this;
    }

    /// assign(list).
    small_vector_base& operator=(std::initializer_list<T> list) {
        this->assign(list);
        return *this;
    }

    /// A copy of the allocator. Never throws.
    allocator_type get_allocator() const noexcept { return allocator(); }

    /// The number of elements held without allocating (N). O(1), never throws.
    size_type inline_capacity() const noexcept {
        if (!is_on_heap()) return storage_.capacity;
        std::uint16_t n;
        std::memcpy(&n, slots_address(), sizeof n);
        return n;
    }
    /// True when the elements live in a heap block. O(1), never throws.
    bool is_on_heap() const noexcept { return first() != inline_data(); }

    /// Gives memory back, O(n) at most: the elements move inline when they fit, otherwise the heap block
    /// shrinks as relo::vector's does. If moving the elements throws, nothing changes. Invalidates
    /// everything if the elements move.
    void shrink_to_fit() {
        if (!is_on_heap()) return;
        const typename base::capacity_guard open(*this, base::whole_capacity);
        const block b = heap_block();
        const size_type slots = inline_capacity();
        if (b.size() > slots) {
            adopt(blocks::shrink(allocator(), b));
            return;
        }
        try {
            detail::transfer_to_new_storage(allocator(), b.begin, b.end, inline_data());
        } catch (...) {
            record_inline_capacity(slots);  // the slots held it while the elements were on the heap
            throw;
        }
        detail::deallocate(allocator(), b.begin, b.capacity());
        set_inline(b.size(), slots);
    }

    /// Exchanges the contents: O(1) when both are on the heap, otherwise O(n): elements are relocated (and
    /// a heap block may be allocated for the side that needs one), invalidating iterators to them. Not
    /// noexcept: throws what moving T and allocating throw. The allocators are swapped when
    /// propagate_on_container_swap says so; otherwise they must compare equal (pre).
    void swap(small_vector_base& other) {
        if (this == std::addressof(other)) return;
        const typename base::capacity_guard open_this(*this, base::whole_capacity), open_other(other, base::whole_capacity);
        this->swap_allocators(other);
        if (is_on_heap() && other.is_on_heap()) {
            const block mine = heap_block();
            adopt(other.heap_block());
            other.adopt(mine);
        } else if (is_on_heap() && other.size() <= inline_capacity()) {
            give_heap_block_for_inline(other);
        } else if (other.is_on_heap() && this->size() <= other.inline_capacity()) {
            other.give_heap_block_for_inline(*this);
        } else {
            if (other.size() > this->capacity()) this->reserve(other.size());
            if (this->size() > other.capacity()) other.reserve(this->size());
            this->swap_elements(other);
        }
    }

protected:
    /// For small_vector's constructors: an empty vector whose storage is the `inline_capacity` slots that
    /// follow this base in the object. Never throws.
    small_vector_base(size_type inline_capacity, const Allocator& alloc) noexcept : storage_(alloc) {
        init(inline_capacity);
    }
    /// The same, the allocator moved in.
    small_vector_base(size_type inline_capacity, Allocator&& alloc) noexcept : storage_(std::move(alloc)) {
        init(inline_capacity);
    }
    ~small_vector_base() = default;  // small_vector's destructor releases the elements, while they exist

    /// Destroys the elements and frees the heap block; afterwards the vector is empty and inline.
    void release_all() noexcept {
        this->clear();
        if (!is_on_heap()) return;
        detail::deallocate(allocator(), first(), storage_.capacity);
        set_inline(0, inline_capacity());
    }

    /// Takes other's elements, this being empty: its heap block when the allocators are equal,
    /// otherwise by relocation. other is left empty.
    void take_elements(small_vector_base& other) {
        RELO_EXPECTS(this->empty());
        const typename base::capacity_guard open_this(*this, base::whole_capacity), open_other(other, base::whole_capacity);
        if (other.is_on_heap() && (alloc_traits::is_always_equal::value || allocator() == other.allocator())) {
            release_all();
            adopt(other.heap_block());
            other.set_inline(0, other.inline_capacity());
            return;
        }
        const size_type n = other.size();
        // Inline elements that fit this one's slots go there, its heap block (too small, perhaps: one taken
        // from a vector of fewer slots) given back: a move from a small_vector of the same N then never
        // allocates, as its noexcept says.
        if (n > this->capacity() && n <= inline_capacity()) release_all();
        if (n > this->capacity()) this->reserve(n);
        if (alloc_traits::is_always_equal::value || allocator() == other.allocator()) {
            detail::transfer_to_new_storage(allocator(), other.seq_begin(), other.seq_end(), seq_begin());
        } else {
            // Each allocator destroys what it constructed: the new elements are this one's, the old
            // ones other's.
            detail::uninitialized_move_if_noexcept(allocator(), other.seq_begin(), other.seq_end(), seq_begin());
            detail::destroy(other.allocator(), other.seq_begin(), other.seq_end());
        }
        storage_.size = n;
        other.storage_.size = 0;
    }

private:
    static constexpr size_type max_inline_capacity = 0xFFFF;  // what the free slots can record

    using stored_pointer = typename detail::allocator_pointers<Allocator, T>::pointer;
    // An empty allocator takes no space (empty-base optimization).
    struct storage : detail::allocator_holder<Allocator> {
        using detail::allocator_holder<Allocator>::allocator_holder;
        stored_pointer begin = nullptr;  // the inline slots or the heap block (the allocator's pointer type)
        size_type size = 0;
        size_type capacity = 0;  // of the inline slots (N) or of the heap block
    };
    storage storage_;

    /// small_vector<T, N> puts its slots right after this base, at T's alignment.
    static std::size_t slots_offset() noexcept {
        return (sizeof(small_vector_base) + alignof(T) - 1) / alignof(T) * alignof(T);
    }
    unsigned char* slots_address() const noexcept {
        return const_cast<unsigned char*>(reinterpret_cast<const unsigned char*>(this)) + slots_offset();
    }
    RELO_ALWAYS_INLINE T* inline_data() const noexcept { return reinterpret_cast<T*>(slots_address()); }

    /// The first element's raw address (the storage keeps the allocator's pointer type).
    RELO_ALWAYS_INLINE T* first() const noexcept { return detail::to_raw(storage_.begin); }

    RELO_ALWAYS_INLINE Allocator& allocator() noexcept { return storage_.allocator(); }
    RELO_ALWAYS_INLINE const Allocator& allocator() const noexcept { return storage_.allocator(); }

    void init(size_type inline_capacity) noexcept {
        set_inline(0, inline_capacity);
        if constexpr (seq_annotated) {  // (no element yet: every slot unused; detail/sanitizers.hpp)
            T* const slots = inline_data();
            detail::annotate_contiguous(slots, slots + inline_capacity, slots + inline_capacity, slots);
        }
    }
    block heap_block() const noexcept {
        return {first(), first() + storage_.size, first() + storage_.capacity};
    }
    void record_inline_capacity(size_type n) noexcept {
        const auto value = static_cast<std::uint16_t>(n);
        std::memcpy(slots_address(), &value, sizeof value);
    }
    /// Records b as the storage (the inline slots hold no elements by now, and keep N).
    void adopt(const block& b) noexcept {
        if (!is_on_heap()) {
            detail::unpoison(slots_address(), storage_.capacity * sizeof(T));  // (no more element storage)
            record_inline_capacity(storage_.capacity);
        }
        storage_.begin = detail::from_raw<stored_pointer>(b.begin);
        storage_.size = b.size();
        storage_.capacity = b.capacity();
    }
    /// The inline slots (there are `slots` of them) become the storage, holding n elements.
    void set_inline(size_type n, size_type slots) noexcept {
        storage_.begin = detail::from_raw<stored_pointer>(inline_data());
        storage_.size = n;
        storage_.capacity = slots;
    }

    /// this is on the heap, inline_one's elements fit inline here: the elements move here, the heap
    /// block there.
    void give_heap_block_for_inline(small_vector_base& inline_one) {
        const block mine = heap_block();
        const size_type slots = inline_capacity();
        try {
            detail::transfer_to_new_storage(allocator(), inline_one.seq_begin(), inline_one.seq_end(), inline_data());
        } catch (...) {
            record_inline_capacity(slots);
            throw;
        }
        set_inline(inline_one.size(), slots);
        inline_one.adopt(mine);
    }

    RELO_NOINLINE size_type grow_for_one_more() {
        this->ensure_room_for(1);
        return storage_.capacity;
    }

    // The storage interface of detail::sequence_ops.
    RELO_ALWAYS_INLINE T* seq_begin() const noexcept {
        if constexpr (std::is_same_v<stored_pointer, T*>) {
            return storage_.begin;  // (the field itself: each layer is stack traffic in a debug build)
        } else {
            return first();
        }
    }
    RELO_ALWAYS_INLINE size_type seq_size() const noexcept { return storage_.size; }
    RELO_ALWAYS_INLINE T* seq_end() const noexcept { return first() + storage_.size; }
    RELO_ALWAYS_INLINE T* seq_capacity_end() const noexcept { return first() + storage_.capacity; }
    RELO_ALWAYS_INLINE bool seq_full() const noexcept { return storage_.size == storage_.capacity; }
    RELO_ALWAYS_INLINE void seq_set_end(T* e) noexcept { storage_.size = static_cast<size_type>(e - first()); }
    RELO_ALWAYS_INLINE void seq_added_one() noexcept { ++storage_.size; }
    RELO_ALWAYS_INLINE void seq_removed_one() noexcept { --storage_.size; }
    RELO_ALWAYS_INLINE Allocator& seq_allocator() noexcept { return allocator(); }
    size_type seq_max_size() const noexcept {
        const size_type by_allocator = detail::max_elements<T>(allocator());
        return by_allocator;
    }
    static constexpr bool seq_fixed_capacity = false;
    static constexpr const char* seq_name = "relo::small_vector";
    static constexpr bool seq_annotated = sanitizer_annotations<Allocator>::value;
    // Growth is a call taking `this`: the object lives in memory anyway (begin may point into it), and
    // the loop then keeps its few values in registers (docs/measurements/small_vectors.md).
    static constexpr bool seq_grows_out_of_line = true;
    void seq_grow_for_push() {
        // The new capacity, stored again here: the optimizer then knows it without a load, and the
        // caller's loop keeps it in a register instead of reloading it every iteration.
        storage_.capacity = grow_for_one_more();
    }
    [[noreturn]] static void seq_too_large(const char* what) { detail::throw_length_error(what); }

    void seq_grow(size_type required) { grow_to(grown_capacity(required), required); }
    void seq_release() noexcept { release_all(); }
    void seq_reserve(size_type n) { grow_to(n, n); }
    template <class Build>
    void seq_grow_emplacing(size_type required, Build&& build) {
        const size_type want = grown_capacity(required);
        const size_type old_size = this->size();
        if (is_on_heap()) {
            const auto b = heap_block();
            adopt(blocks::reallocate_emplacing(allocator(), b.begin, b.end, b.capacity_end, want, required, build));
        } else {
            adopt(blocks::transfer_emplacing(allocator(), heap_block(), detail::allocate_at_least(allocator(), want), build));
        }
        this->build_if_grown_in_place(old_size, build);
    }
    void seq_grow_with_gap(size_type required, size_type at, size_type n) {
        const size_type want = grown_capacity(required);
        if (is_on_heap()) {
            adopt(blocks::reallocate_with_gap(allocator(), heap_block(), want, required, at, n));
        } else {
            adopt(blocks::transfer_with_gap(allocator(), heap_block(), detail::allocate_at_least(allocator(), want), at, n));
        }
    }

    /// The capacity growth aims at when `required` elements must fit.
    size_type grown_capacity(size_type required) const noexcept {
        return detail::next_capacity<Growth>(this->capacity(), required, this->max_size());
    }

    /// Growth from the inline slots moves the elements to a new heap block; on the heap it is
    /// relo::vector's (realloc / mremap / in place).
    void grow_to(size_type want, size_type need) {
        if (is_on_heap()) {
            adopt(blocks::reallocate(allocator(), heap_block(), want, need));
        } else {
            adopt(blocks::transfer(allocator(), heap_block(), detail::allocate_at_least(allocator(), want)));
        }
    }

    /// New storage (always a heap block: n exceeds the capacity) holding what build(dest) constructs.
    template <class Build>
    void seq_rebuild(size_type n, Build&& build) {
        this->rebuild_in_new_block(n, std::forward<Build>(build));
    }
};

/// A vector that keeps up to N elements inside the object (N at most 65535; by default as many as make
/// the object about 64 bytes, at least one) and moves them to the heap beyond: where it differs from
/// relo::vector is this header's opening comment (relo/small_vector.hpp). Every member but the
/// constructors and assignments is small_vector_base's, which does not depend on N.
template <class T, std::size_t N = detail::default_small_capacity<T>, class Allocator = default_allocator<T>,
          class Growth = growth_2>
class small_vector : public small_vector_base<T, Allocator, Growth> {
    using base = small_vector_base<T, Allocator, Growth>;
    using alloc_traits = std::allocator_traits<Allocator>;
    static_assert(N <= base::max_inline_capacity, "relo: small_vector holds at most 65535 elements inline");
    static_assert(alignof(Allocator) <= alignof(std::size_t), "relo: over-aligned allocators are not supported");

public:
    using typename base::size_type;
    /// N: how many elements the object holds without allocating.
    static constexpr size_type inline_capacity_v = N;

    // ---------------------------------------------------------------------------------------------------
    // Construction.

    /// An empty small vector, its storage the inline slots: allocates nothing, and throws nothing but what
    /// the allocator's default constructor throws.
    template <class A = Allocator, std::enable_if_t<std::is_default_constructible_v<A>, int> = 0>
    small_vector() noexcept(std::is_nothrow_default_constructible_v<A>) : small_vector(Allocator()) {}
    /// An empty small vector that will allocate with alloc: allocates nothing, never throws.
    explicit small_vector(const Allocator& alloc) noexcept : base(N, alloc) { check_layout(); }
    /// The contracts of relo::vector's constructors of the same arguments (n value-initialized elements, n
    /// copies of value, a range's elements), but nothing is allocated while the elements fit inline.
    ///@{
    explicit small_vector(size_type n, const Allocator& alloc = Allocator()) : small_vector(alloc) {
        guarded([&] { this->construct_value_initialized(n); });
    }
    small_vector(size_type n, const T& value, const Allocator& alloc = Allocator()) : small_vector(alloc) {
        guarded([&] { this->construct_filled(n, value); });
    }
    template <class InputIt, std::enable_if_t<detail::is_input_iterator_v<InputIt>, int> = 0>
    small_vector(InputIt first, InputIt last, const Allocator& alloc = Allocator()) : small_vector(alloc) {
        guarded([&] { this->construct_from_range(std::move(first), std::move(last)); });
    }
    small_vector(std::initializer_list<T> list, const Allocator& alloc = Allocator()) : small_vector(alloc) {
        guarded([&] { this->construct_from_range(list.begin(), list.end()); });
    }
#if RELO_HAS_FROM_RANGE
    template <class R>
    small_vector(std::from_range_t, R&& range, const Allocator& alloc = Allocator()) : small_vector(alloc) {
        guarded([&] { this->construct_from_range(std::ranges::begin(range), std::ranges::end(range)); });
    }
#endif
    ///@}

    /// A copy of other's elements, with select_on_container_copy_construction(other.get_allocator()):
    /// relo::vector's copy constructor's contract, but nothing is allocated while the elements fit inline.
    small_vector(const small_vector& other)
        : small_vector(alloc_traits::select_on_container_copy_construction(other.get_allocator())) {
        guarded([&] { this->construct_from_range(other.begin(), other.end()); });
    }
    /// The same from a small vector of any inline capacity.
    explicit small_vector(const base& other)
        : small_vector(alloc_traits::select_on_container_copy_construction(other.get_allocator())) {
        guarded([&] { this->construct_from_range(other.begin(), other.end()); });
    }
    /// The same with alloc.
    small_vector(const small_vector& other, const std::common_type_t<Allocator>& alloc) : small_vector(alloc) {
        guarded([&] { this->construct_from_range(other.begin(), other.end()); });
    }
    /// Takes other's heap block, O(1), or relocates its inline elements, O(n), so that iterators into
    /// other do not follow them (unlike std::vector's); other is left empty. Never throws when T relocates
    /// without throwing (it is then noexcept).
    small_vector(small_vector&& other) noexcept(detail::nothrow_relocate_v<Allocator, T>)
        : small_vector(other.allocator()) {
        this->take_elements(other);
    }
    /// The same from a small vector of any inline capacity, whose elements may need a heap block here
    /// (allocation may throw).
    explicit small_vector(base&& other) : small_vector(Allocator(other.allocator())) {
        guarded([&] { this->take_elements(other); });
    }
    /// With alloc: when alloc equals other's allocator, takes other's heap block, O(1), or relocates its
    /// inline elements; otherwise moves (std::move_if_noexcept) the elements one by one into storage of
    /// alloc, a heap block if they do not fit inline. other is left empty. Throws what allocating and
    /// moving T throw; nothing leaks.
    small_vector(small_vector&& other, const std::common_type_t<Allocator>& alloc) : small_vector(alloc) {
        guarded([&] { this->take_elements(other); });
    }

    /// Destroys the elements and frees the heap block, if any: O(n).
    ~small_vector() {
        const typename base::capacity_guard open(*this, base::whole_capacity, base::capacity_guard::on_close::leave_open);
        this->release_all();
    }

    /// Copy assignment, from a small vector of any inline capacity: small_vector_base's.
    ///@{
    small_vector& operator=(const small_vector& other) {
        base::operator=(other);
        return *this;
    }
    small_vector& operator=(const base& other) {
        base::operator=(other);
        return *this;
    }
    ///@}
    /// Move assignment: small_vector_base's, noexcept when T relocates without throwing and the allocator
    /// propagates on move assignment or is always equal.
    small_vector& operator=(small_vector&& other) noexcept(
        detail::nothrow_relocate_v<Allocator, T> && (alloc_traits::propagate_on_container_move_assignment::value ||
                                                     alloc_traits::is_always_equal::value)) {
        base::operator=(std::move(other));
        return *this;
    }
    /// Move assignment from a small vector of any inline capacity: small_vector_base's.
    small_vector& operator=(base&& other) {
        base::operator=(std::move(other));
        return *this;
    }
    /// assign(list).
    small_vector& operator=(std::initializer_list<T> list) {
        this->assign(list);
        return *this;
    }

private:
    detail::small_vector_slots<T, N> slots_;

    void check_layout() noexcept {
        RELO_EXPECTS(reinterpret_cast<unsigned char*>(std::addressof(slots_)) == this->slots_address());
    }

    /// Runs a constructor's body; if it throws, the elements built so far are destroyed and the heap
    /// block freed (the destructor does not run for an object whose constructor threw).
    template <class Body>
    void guarded(Body&& body) {
        try {
            body();
        } catch (...) {
            this->release_all();
            throw;
        }
    }
};

/// The element type deduced from an iterator range (and the allocator, when given), with the default
/// inline capacity.
template <class InputIt, class Alloc = default_allocator<typename std::iterator_traits<InputIt>::value_type>,
          std::enable_if_t<detail::is_input_iterator_v<InputIt> && detail::is_allocator_v<Alloc>, int> = 0>
small_vector(InputIt, InputIt, Alloc = Alloc())
    -> small_vector<typename std::iterator_traits<InputIt>::value_type,
                    detail::default_small_capacity<typename std::iterator_traits<InputIt>::value_type>, Alloc>;

namespace pmr {
/// relo::small_vector with a std::pmr::polymorphic_allocator (`<memory_resource>` needed where it is used,
/// as for relo::pmr::vector).
template <class T, std::size_t N = detail::default_small_capacity<T>, class Growth = growth_2>
using small_vector = relo::small_vector<T, N, std::pmr::polymorphic_allocator<T>, Growth>;
}  // namespace pmr

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_SMALL_VECTOR_HPP
