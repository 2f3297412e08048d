// relo/detail/capacity_guard.hpp — AddressSanitizer's view of a container's capacity, kept by every
// operation of detail::sequence_ops.
//
// Between operations the capacity past the elements is poisoned (when the storage annotates it:
// seq_annotated). An operation opens a window first: the `room` slots past the elements it may construct
// in or move through (all of them when it may grow the storage or give it away), and on closing (an
// exception included) poisons what lies past the elements up to the window's end — or, when the storage
// changed meanwhile (fresh storage is clean), up to the new capacity. So push_back costs O(1), not
// O(capacity). An operation inside another on the same container (emplace_back inside insert) widens the
// open window instead: the open containers form a stack per thread. A destructor opens everything and
// leaves it so (the memory goes back as it came); element storage is unpoisoned before it is deallocated
// (detail::deallocate). Without AddressSanitizer the guard is an empty object.
// Layer 3, the container engine (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_CAPACITY_GUARD_HPP
#define RELO_DETAIL_CAPACITY_GUARD_HPP

#include <cstddef>

#include "relo/detail/config.hpp"
#include "relo/detail/standard_library.hpp"
#include "relo/detail/sanitizers.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

struct capacity_guard_room {
    /// A window over the whole capacity (an operation that may grow the storage or give it away).
    static constexpr std::size_t whole_capacity = static_cast<std::size_t>(-1);
};

/// The window an operation of Container (a detail::sequence_ops, whose data(), size(), capacity() and
/// annotated() it reads) opens on the container's capacity for its duration.
template <class Container>
class capacity_guard;

#if RELO_ASAN
/// An open container: its storage when last looked at, and the end of its usable window in it.
struct open_container {
    const void* container;
    open_container* outer;
    const void* first;
    const void* capacity_end;
    const void* window_end;

    /// Brings the record up to date with storage [first, capacity_end) — fresh storage is clean; storage
    /// grown in place is clean past the old capacity; a shrunk one keeps its state.
    void follow(const void* now_first, const void* now_capacity_end) noexcept {
        if (now_first != first) {
            window_end = now_capacity_end;
        } else if (std::less<const void*>{}(capacity_end, now_capacity_end)) {
            if (window_end == capacity_end) window_end = now_capacity_end;
        } else if (std::less<const void*>{}(now_capacity_end, window_end)) {
            window_end = now_capacity_end;
        }
        first = now_first;
        capacity_end = now_capacity_end;
    }
};
inline open_container*& open_containers() noexcept {
    static thread_local open_container* innermost = nullptr;
    return innermost;
}

template <class Container>
class capacity_guard {
    using T = typename Container::value_type;

public:
    enum class on_close { poison, leave_open };
    RELO_CONSTEXPR20 explicit capacity_guard(Container& c, std::size_t room, on_close how = on_close::poison) noexcept
        : c_(c), how_(how) {
        if constexpr (Container::annotated()) {
            if (is_constant_evaluated()) return;
            const T* const first = c.data();
            const T* const end = first + c.size();
            const T* const capacity_end = first + c.capacity();
            const void* const key = std::addressof(c);
            open_container* record = nullptr;
            for (open_container* o = open_containers(); o != nullptr && record == nullptr; o = o->outer)
                if (o->container == key) record = o;
            if (record == nullptr) {  // (not open yet: this guard opens it)
                node_ = open_container{key, open_containers(), first, capacity_end, end};
                open_containers() = &node_;
                record = &node_;
                opened_ = true;
            } else {
                record->follow(first, capacity_end);
            }
            const std::size_t left = static_cast<std::size_t>(capacity_end - end);
            const T* const wanted = end + (room < left ? room : left);
            if (static_cast<const T*>(record->window_end) < wanted) {
                annotate_contiguous(first, capacity_end, record->window_end, wanted);
                record->window_end = wanted;
            }
        }
    }
    RELO_CONSTEXPR20 ~capacity_guard() {
        if (!opened_) return;
        open_containers() = node_.outer;
        if (how_ == on_close::leave_open) return;
        const T* const first = c_.data();
        const T* const end = first + c_.size();
        const T* const capacity_end = first + c_.capacity();
        node_.follow(first, capacity_end);
        if (end < static_cast<const T*>(node_.window_end)) annotate_contiguous(first, capacity_end, node_.window_end, end);
    }
    capacity_guard(const capacity_guard&) = delete;
    capacity_guard& operator=(const capacity_guard&) = delete;

private:
    Container& c_;
    on_close how_;
    bool opened_ = false;
    open_container node_{};
};
#else
template <class Container>
class capacity_guard {
public:
    enum class on_close { poison, leave_open };
    RELO_ALWAYS_INLINE constexpr capacity_guard(Container&, std::size_t, on_close = on_close::poison) noexcept {}
};
#endif

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_CAPACITY_GUARD_HPP
