// relo/vector.hpp — relo::vector, a drop-in std::vector that grows without copying where it can.
//
// relo::vector<T, Allocator = relo::default_allocator<T>, Growth = relo::growth_2> has the complete
// interface of C++20's std::vector (plus the C++23 range members, and the extras fast_push_back /
// unchecked_push_back, try_push_back and safe_pop_back). What differs is how it reallocates:
//
//   * T trivially relocatable (int, std::array, pointers, any type marked RELO_TRIVIALLY_RELOCATABLE):
//     the allocator's reallocate() moves the bytes — realloc for small blocks, mremap(MREMAP_MAYMOVE) for
//     large ones, where the kernel moves page-table entries and no element is ever copied;
//   * other T: the allocator's try_expand() grows the block in place (mremap without MREMAP_MAYMOVE, or a
//     malloc chunk's slack); when the full growth does not fit, the largest in-place growth that still
//     fits the request is found by binary search; only then are the elements moved to a new block (or
//     where the allocator prefers it: page_allocator, for a growth that would fault fresh pages while its
//     thread's cache holds a warm block that fits, for a T whose move cannot throw: prefers_new_block);
//   * an allocator without those members (std::allocator, std::pmr::polymorphic_allocator, yours) gets
//     the classic allocate-move-deallocate, with memcpy for trivially relocatable T.
//
// Differences from std::vector:
//   * insertion in the middle gives the strong guarantee whenever elements relocate without throwing;
//   * insert(pos, first, last) accepts a range of the vector's own elements;
//   * after an exception from a growing push_back the contents are unchanged but the capacity may be larger;
//   * with an allocator whose pointer is a fancy pointer, the vector stores that type but iterators hold,
//     and data() returns, raw pointers (docs/conformance.md).
// Invalidation is std::vector's: growth invalidates everything, insert/erase invalidate from the position on.
//
// Every member's contract (complexity, what it throws, what it invalidates, its exception guarantee) is
// in the class below, with its declaration. The operations every relo vector shares (access, push_back,
// insert, erase, resize, assign, comparison) are implemented once, in detail::sequence_ops; their
// contracts are stated on their members, in detail/sequence.hpp, and small_vector, inplace_vector and
// pinned_vector say only where theirs differ.
// Layer 5, containers (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_VECTOR_HPP
#define RELO_VECTOR_HPP

#define RELO_DETAIL_NEEDS_MEMORY_RESOURCE
#include "relo/detail/requirements.hpp"

#include <cstddef>
#include <initializer_list>
#include <limits>
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

/// A drop-in std::vector that grows without copying where it can: how, and where it differs from
/// std::vector, is this header's opening comment (relo/vector.hpp). The operations it shares with the
/// other relo vectors, and the words their contracts use (grows, strong, basic, pre), are documented on
/// detail::sequence_ops.
template <class T, class Allocator = default_allocator<T>, class Growth = growth_2>
class vector : public detail::sequence_ops<vector<T, Allocator, Growth>, T, Allocator> {
    using base = detail::sequence_ops<vector<T, Allocator, Growth>, T, Allocator>;
    friend base;
    using alloc_traits = std::allocator_traits<Allocator>;

public:
    // The member types (value_type, size_type, iterator, ...) are those of detail::sequence_ops.
    using typename base::allocator_type;
    using typename base::difference_type;
    using typename base::size_type;
    /// The growth policy (relo/growth.hpp): by how much the capacity grows when the vector is full.
    using growth_policy = Growth;

    // ---------------------------------------------------------------------------------------------------
    // Construction.

    // (A template, so that it drops out for an allocator without a default constructor, and its noexcept
    // asks a trait instead of failing to compile.)
    /// An empty vector: allocates nothing, and throws nothing but what the allocator's default constructor
    /// throws.
    template <class A = Allocator, std::enable_if_t<std::is_default_constructible_v<A>, int> = 0>
    RELO_CONSTEXPR20 vector() noexcept(std::is_nothrow_default_constructible_v<A>) : vector(Allocator()) {}
    /// An empty vector that will allocate with alloc: allocates nothing, never throws.
    RELO_CONSTEXPR20 explicit vector(const Allocator& alloc) noexcept : storage_(alloc) {}

    /// A vector of n value-initialized elements (vector(n)), of n copies of value, or of the elements of a
    /// range (an iterator pair, an initializer list, a C++23 range), allocating with alloc. O(n) (k for a
    /// range). Throws what allocating and constructing T throw, and std::length_error beyond max_size();
    /// nothing leaks.
    ///@{
    RELO_CONSTEXPR20 explicit vector(size_type n, const Allocator& alloc = Allocator()) : vector(alloc) {
        this->construct_value_initialized(n);
    }
    RELO_CONSTEXPR20 vector(size_type n, const T& value, const Allocator& alloc = Allocator()) : vector(alloc) {
        this->construct_filled(n, value);
    }
    template <class InputIt, std::enable_if_t<detail::is_input_iterator_v<InputIt>, int> = 0>
    RELO_CONSTEXPR20 vector(InputIt first, InputIt last, const Allocator& alloc = Allocator()) : vector(alloc) {
        this->construct_from_range(std::move(first), std::move(last));
    }
    RELO_CONSTEXPR20 vector(std::initializer_list<T> list, const Allocator& alloc = Allocator()) : vector(alloc) {
        this->construct_from_range(list.begin(), list.end());
    }
#if RELO_HAS_FROM_RANGE
    template <class R>
    RELO_CONSTEXPR20 vector(std::from_range_t, R&& range, const Allocator& alloc = Allocator()) : vector(alloc) {
        this->construct_from_range(std::ranges::begin(range), std::ranges::end(range));
    }
#endif
    ///@}

    /// A copy of other's elements, allocating with alloc when it is given, else with
    /// select_on_container_copy_construction(other.get_allocator()). O(n); throws what allocating and
    /// copying T throw; nothing leaks.
    ///@{
    RELO_CONSTEXPR20 vector(const vector& other)
        : vector(alloc_traits::select_on_container_copy_construction(other.get_allocator())) {
        this->construct_from_range(other.begin(), other.end());
    }
    RELO_CONSTEXPR20 vector(const vector& other, const std::common_type_t<Allocator>& alloc) : vector(alloc) {
        this->construct_from_range(other.begin(), other.end());
    }
    ///@}
    /// Takes other's storage and allocator: O(1), never throws; other is left empty.
    RELO_CONSTEXPR20 vector(vector&& other) noexcept : storage_(std::move(other.storage_.allocator())) {
        steal(other);
    }
    /// With alloc: takes other's storage, O(1), when alloc equals other's allocator (or the allocator is
    /// always equal), leaving other empty; otherwise moves the elements one by one, O(n), and may throw
    /// what allocating and moving T throw.
    RELO_CONSTEXPR20 vector(vector&& other, const std::common_type_t<Allocator>& alloc) : vector(alloc) {
        if (alloc_traits::is_always_equal::value || allocator() == other.allocator()) {
            steal(other);
        } else {
            this->construct_from_range(std::make_move_iterator(other.seq_begin()), std::make_move_iterator(other.seq_end()));
        }
    }

    /// Destroys the elements and frees the storage: O(n).
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE ~vector() {  // (release_storage() says why always)
        const typename base::capacity_guard open(*this, base::whole_capacity, base::capacity_guard::on_close::leave_open);
        release_storage();
    }

    // ---------------------------------------------------------------------------------------------------
    // Assignment.

    /// Replaces the contents with copies of other's elements: assign(first, last)'s contract. When
    /// propagate_on_container_copy_assignment says so, other's allocator is copied first (and the storage
    /// is freed first when the two allocators differ).
    RELO_CONSTEXPR20 vector& operator=(const vector& other) {
        this->copy_assign(other);
        return *this;
    }

    /// Takes other's storage, O(1), leaving other empty, when the allocator propagates on move assignment
    /// (it is then moved too), is always equal, or equals other's; noexcept in the first two cases.
    /// Otherwise moves the elements one by one, O(n), as assign() does.
    RELO_CONSTEXPR20 vector& operator=(vector&& other) noexcept(
        alloc_traits::propagate_on_container_move_assignment::value || alloc_traits::is_always_equal::value) {
        if (this == std::addressof(other)) return *this;
        const typename base::capacity_guard open_this(*this, base::whole_capacity), open_other(other, base::whole_capacity);
        constexpr bool steals = alloc_traits::propagate_on_container_move_assignment::value ||
                                alloc_traits::is_always_equal::value;
        if (steals || allocator() == other.allocator()) {
            release_storage();
            if constexpr (alloc_traits::propagate_on_container_move_assignment::value)
                allocator() = std::move(other.allocator());
            steal(other);
        } else {
            this->assign(std::make_move_iterator(other.seq_begin()), std::make_move_iterator(other.seq_end()));
        }
        return *this;
    }

    /// assign(list).
    RELO_CONSTEXPR20 vector& operator=(std::initializer_list<T> list) {
        this->assign(list);
        return *this;
    }

    /// A copy of the allocator. Never throws.
    RELO_CONSTEXPR20 allocator_type get_allocator() const noexcept { return allocator(); }

    /// Reduces capacity() to size() where the allocator can (non-binding, as std::vector's), O(n) at most.
    /// The bytes move by reallocate() for trivially relocatable T, a mapping shrinks in place, otherwise
    /// elements are moved to a smaller block. An allocation failure leaves the vector as it was and is not
    /// reported; a throwing copy leaves it unchanged. Invalidates everything if the storage moves.
    RELO_CONSTEXPR20 void shrink_to_fit() {
        if (this->size() == this->capacity()) return;
        const typename base::capacity_guard open(*this, base::whole_capacity);
        if (this->empty()) {
            release_storage();
            return;
        }
        adopt(blocks::shrink(allocator(), current_block()));
    }

    /// Exchanges contents in O(1), never throwing; iterators follow the elements. The allocators are
    /// swapped when propagate_on_container_swap says so; otherwise they must compare equal (pre).
    RELO_CONSTEXPR20 void swap(vector& other) noexcept {
        this->swap_allocators(other);
        using std::swap;
        swap(storage_.begin, other.storage_.begin);
        swap(storage_.end, other.storage_.end);
        swap(storage_.capacity_end, other.storage_.capacity_end);
    }

    // ===================================================================================================
    // The operations the four vectors share are documented on their members in detail/sequence.hpp.
    using base::at;
    using base::back;
    using base::data;
    using base::front;
    using base::operator[];

    using base::begin;
    using base::cbegin;
    using base::cend;
    using base::crbegin;
    using base::crend;
    using base::end;
    using base::rbegin;
    using base::rend;

    using base::capacity;
    using base::empty;
    using base::max_size;
    using base::reserve;
    using base::size;

    using base::emplace_back;
    using base::fast_emplace_back;
    using base::fast_push_back;
    using base::pop_back;
    using base::push_back;
    using base::safe_pop_back;
    using base::try_emplace_back;
    using base::try_push_back;
    using base::unchecked_emplace_back;
    using base::unchecked_push_back;

    using base::emplace;
    using base::insert;
#if RELO_HAS_RANGES
    using base::append_range;
    using base::insert_range;
#endif

    using base::clear;
    using base::erase;
    using base::resize;
    using base::resize_for_overwrite;

    using base::assign;
#if RELO_HAS_RANGES
    using base::assign_range;
#endif

private:
    // The allocator's pointer type (T* for the default allocator; an allocator's fancy pointer, such as an
    // offset_ptr in shared memory, otherwise): the container may live where raw pointers mean nothing.
    using stored_pointer = typename detail::allocator_pointers<Allocator, T>::pointer;
    struct storage : detail::allocator_holder<Allocator> {
        using detail::allocator_holder<Allocator>::allocator_holder;
        stored_pointer begin = nullptr;
        stored_pointer end = nullptr;
        stored_pointer capacity_end = nullptr;
    };
    storage storage_;

    /// The first allocation holds at least this many elements (24 bytes' worth: the smallest block glibc
    /// gives holds that much), which saves the first reallocations of tiny vectors. (64 bytes, as the thesis
    /// and folly, made programs of many vectors of one to three elements slower than std::vector:
    /// docs/measurements/thresholds.md, "The first allocation".)
    static constexpr std::size_t first_allocation_bytes = 24;
    static constexpr size_type min_first_capacity = sizeof(T) >= first_allocation_bytes ? 1 : first_allocation_bytes / sizeof(T);

    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 Allocator& allocator() noexcept { return storage_.allocator(); }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 const Allocator& allocator() const noexcept { return storage_.allocator(); }

    // The storage interface of detail::sequence_ops.
    // (With raw pointers the fields themselves: each layer left in a debug build is stack traffic.)
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* seq_begin() const noexcept {
        if constexpr (std::is_same_v<stored_pointer, T*>) {
            return storage_.begin;
        } else {
            return detail::to_raw(storage_.begin);
        }
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* seq_end() const noexcept {
        if constexpr (std::is_same_v<stored_pointer, T*>) {
            return storage_.end;
        } else {
            return raw(storage_.end);
        }
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* seq_capacity_end() const noexcept {
        if constexpr (std::is_same_v<stored_pointer, T*>) {
            return storage_.capacity_end;
        } else {
            return raw(storage_.capacity_end);
        }
    }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 bool seq_full() const noexcept { return storage_.end == storage_.capacity_end; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void seq_set_end(T* e) noexcept { storage_.end = stored(e); }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void seq_added_one() noexcept { ++storage_.end; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 void seq_removed_one() noexcept { --storage_.end; }
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 Allocator& seq_allocator() noexcept { return allocator(); }
    RELO_CONSTEXPR20 size_type seq_max_size() const noexcept { return detail::max_elements<T>(allocator()); }
    static constexpr bool seq_fixed_capacity = false;
    static constexpr bool seq_grows_out_of_line = false;
    static constexpr const char* seq_name = "relo::vector";
    static constexpr bool seq_annotated = sanitizer_annotations<Allocator>::value;
    [[noreturn]] static void seq_too_large(const char* what) { detail::throw_length_error(what); }

    // What a push inlines is this call and the block it returns: the growth policy's arithmetic is in the
    // called function. (Inline, it made back_insert_iterator's operator= too large for Clang 14 to inline
    // into a std::transform loop, which then called it for every element: docs/measurements/vector.md,
    // "Types and idioms".)
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void seq_grow(size_type required) {
        adopt(grow_block(growth_allocator(), seq_begin(), seq_end(), seq_capacity_end(), required));
    }
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void seq_grow_for_push() {
        adopt(grow_block_for_push(growth_allocator(), seq_begin(), seq_end(), seq_capacity_end()));
    }

    template <class Build>
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void seq_grow_emplacing(size_type required, Build&& build) {
        if constexpr (!(detail::relocate_as_bytes_v<Allocator, T> && detail::has_reallocate<Allocator>::value)) {
            // build runs here, inline, never in an out-of-line call (block_ops::grow_for_emplace).
            const block b = current_block();
            const auto g = blocks::grow_for_emplace(growth_allocator(), b.begin, b.end, b.capacity_end,
                                                    grown_capacity(required), required);
            if (g.fresh.ptr == nullptr) {
                adopt(g.grown);
                build(seq_end());
                seq_added_one();
                return;
            }
            try {
                build(g.fresh.ptr + b.size());
            } catch (...) {
                blocks::discard_fresh(growth_allocator(), g.fresh);
                throw;
            }
            adopt(blocks::move_behind(growth_allocator(), b.begin, b.end, b.capacity_end, g.fresh));
            return;
        }
        const size_type old_size = this->size();
        adopt(blocks::reallocate_emplacing(growth_allocator(), seq_begin(), seq_end(), seq_capacity_end(),
                                           grown_capacity(required), required, build));
        this->build_if_grown_in_place(old_size, build);
    }

    RELO_CONSTEXPR20 void seq_reserve(size_type n) { adopt(blocks::reallocate(growth_allocator(), current_block(), n, n)); }

    RELO_CONSTEXPR20 void seq_release() noexcept { release_storage(); }

    RELO_CONSTEXPR20 void seq_grow_with_gap(size_type required, size_type gap_at, size_type n) {
        adopt(blocks::reallocate_with_gap(growth_allocator(), current_block(), grown_capacity(required), required, gap_at, n));
    }

    template <class Build>
    RELO_CONSTEXPR20 void seq_rebuild(size_type n, Build&& build) {
        this->rebuild_in_new_block(n, std::forward<Build>(build));
    }

    // Growth is out of line, on a block passed by value (see detail/heap_block.hpp).
    using blocks = detail::block_ops<Allocator, T>;
    using block = detail::heap_block<T>;

    RELO_CONSTEXPR20 typename blocks::allocator_arg growth_allocator() noexcept { return allocator(); }
    RELO_CONSTEXPR20 block current_block() const noexcept { return {seq_begin(), seq_end(), seq_capacity_end()}; }

    /// seq_grow's call: the block grown for `required` elements by the growth policy. (The block's three
    /// pointers are passed one by one, in registers: a block passed by value went on the stack, and GCC
    /// then kept a frame pointer, which cost a push loop a register.)
    RELO_NOINLINE static RELO_CONSTEXPR20 block grow_block(typename blocks::allocator_arg a, T* begin, T* end,
                                                           T* capacity_end, size_type required) {
        const block b{begin, end, capacity_end};
        return blocks::reallocate(a, b, grown_capacity(b, required, detail::max_elements<T>(a)), required);
    }
    /// The same for one more element in a full block.
    RELO_NOINLINE static RELO_CONSTEXPR20 block grow_block_for_push(typename blocks::allocator_arg a, T* begin, T* end,
                                                                    T* capacity_end) {
        const block b{begin, end, capacity_end};
        const size_type max = detail::max_elements<T>(a);
        if (b.size() >= max) seq_too_large("relo: size would exceed max_size()");
        return blocks::reallocate_in_caller(a, b, grown_capacity(b, b.size() + 1, max), b.size() + 1);
    }

    /// The capacity growth aims at when `required` elements must fit in place of b.
    static RELO_CONSTEXPR20 size_type grown_capacity(block b, size_type required, size_type max) noexcept {
        const size_type want = detail::next_capacity<Growth>(b.capacity(), required, max);
        if (b.begin == nullptr && want < min_first_capacity) return min_first_capacity < max ? min_first_capacity : max;
        return want;
    }
    RELO_CONSTEXPR20 size_type grown_capacity(size_type required) const noexcept {
        return grown_capacity(current_block(), required, this->max_size());
    }
    RELO_CONSTEXPR20 void adopt(const block& b) noexcept {
        storage_.begin = detail::from_raw<stored_pointer>(b.begin);
        storage_.end = detail::from_raw_at(storage_.begin, b.begin, b.end);
        storage_.capacity_end = detail::from_raw_at(storage_.begin, b.begin, b.capacity_end);
    }

    /// The raw address of a stored pointer (end or capacity end may be one past the last object: they
    /// are measured from begin).
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 T* raw(const stored_pointer& p) const noexcept {
        if constexpr (std::is_same_v<stored_pointer, T*>) {
            return p;
        } else {
            return detail::to_raw(storage_.begin) + (p - storage_.begin);
        }
    }
    /// The stored pointer for a raw address inside (or one past) the block.
    RELO_ALWAYS_INLINE RELO_CONSTEXPR20 stored_pointer stored(T* p) const noexcept {
        return detail::from_raw_at(storage_.begin, detail::to_raw(storage_.begin), p);
    }

    // (Always inline, as the destructor: called out of line from the cleanup of a push_back loop that may
    // throw, either takes the vector's address, and the loop then stores its end to memory on every push.)
    RELO_CONSTEXPR20 RELO_ALWAYS_INLINE void release_storage() noexcept {
        blocks::release(allocator(), current_block());
        storage_.begin = nullptr;
        storage_.end = nullptr;
        storage_.capacity_end = nullptr;
    }

    RELO_CONSTEXPR20 void steal(vector& other) noexcept {
        storage_.begin = std::exchange(other.storage_.begin, nullptr);
        storage_.end = std::exchange(other.storage_.end, nullptr);
        storage_.capacity_end = std::exchange(other.storage_.capacity_end, nullptr);
    }
};

/// The element type deduced from an iterator range (and the allocator, when given), as std::vector's guide.
template <class InputIt, class Alloc = default_allocator<typename std::iterator_traits<InputIt>::value_type>,
          std::enable_if_t<detail::is_input_iterator_v<InputIt> && detail::is_allocator_v<Alloc>, int> = 0>
vector(InputIt, InputIt, Alloc = Alloc()) -> vector<typename std::iterator_traits<InputIt>::value_type, Alloc>;

/// A vector is three pointers to its heap block and its allocator: trivially relocatable when the allocator
/// is and the pointers are raw (an offset pointer, for memory shared between processes, points relative to
/// where it lives).
template <class T, class A, class G>
struct is_trivially_relocatable<vector<T, A, G>>
    : std::bool_constant<is_trivially_relocatable_v<A> && std::is_pointer_v<typename std::allocator_traits<A>::pointer>> {
};
namespace detail {
template <class T, class A, class G>
struct relocation_diagnosis<vector<T, A, G>> {
    static constexpr bool explain() {
        static_assert(std::is_pointer_v<typename std::allocator_traits<A>::pointer>,
                      "relo: a relo::vector whose allocator stores fancy pointers (an offset_ptr points relative to "
                      "where it lives) is not trivially relocatable");
        return explain_all<A>::explain();
    }
};
}  // namespace detail

namespace pmr {
/// relo::vector with a std::pmr::polymorphic_allocator. As std::pmr::vector, which <vector> declares, it
/// needs `<memory_resource>` where it is used (this header does not include it for every unit's sake).
template <class T, class Growth = growth_2>
using vector = relo::vector<T, std::pmr::polymorphic_allocator<T>, Growth>;
}  // namespace pmr

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_VECTOR_HPP
