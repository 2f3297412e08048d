// bench/support/implementations.hpp — the implementation protocol: what a benchmark asks of the type
// that names one implementation (its container, its set-up, whether it reserves, how it is made).
#ifndef RELO_BENCH_SUPPORT_IMPLEMENTATIONS_HPP
#define RELO_BENCH_SUPPORT_IMPLEMENTATIONS_HPP

#include <cstddef>
#include <memory_resource>
#include <type_traits>
#include <utility>

namespace relo_bench {

//
// An implementation is a type Impl with
//     template <class T> using type = ...;      the container of T (small and fixed-capacity vectors:
//                                               template <class T, std::size_t N>)
// and, optionally,
//     static void set_up();                     process-wide setup, run once before anything is measured
//                                               (e.g. installing a default memory resource)
//     static constexpr bool reserves = true;    the benchmark reserves what it knows it will need first
//     template <class T> static type<T> make(const make_args&);   how one data structure is built
// A benchmark builds its data structures with make<Impl, T>(args): Impl::make when Impl has one,
// otherwise the container on args.resource (when given, through its allocator) with args.reservation
// reserved (when Impl reserves).

/// What one data structure is built with.
struct make_args {
    std::size_t reservation = 0;                    // elements known to be needed (or a reservation's size)
    std::pmr::memory_resource* resource = nullptr;  // this data structure's own memory resource
};

template <class Impl, class = void>
struct reserves_first : std::false_type {};
template <class Impl>
struct reserves_first<Impl, std::enable_if_t<Impl::reserves>> : std::true_type {};
template <class Impl>
inline constexpr bool reserves_v = reserves_first<Impl>::value;

/// Impl with reserves = true: the benchmark reserves first (std-reserve, the foresight floor).
template <class Impl>
struct reserving : Impl {
    static constexpr bool reserves = true;
};

template <class Impl, class = void>
struct has_set_up : std::false_type {};
template <class Impl>
struct has_set_up<Impl, std::void_t<decltype(Impl::set_up())>> : std::true_type {};

template <class Impl>
void set_up() {
    if constexpr (has_set_up<Impl>::value) Impl::set_up();
}

template <class Impl, class T, class = void>
struct has_make : std::false_type {};
template <class Impl, class T>
struct has_make<Impl, T, std::void_t<decltype(Impl::template make<T>(make_args{}))>> : std::true_type {};

template <class C, class = void>
struct takes_resource : std::false_type {};
template <class C>
struct takes_resource<C, std::enable_if_t<std::is_constructible_v<typename C::allocator_type, std::pmr::memory_resource*>>>
    : std::true_type {};

template <class Impl, class T>
typename Impl::template type<T> make(const make_args& args) {
    using C = typename Impl::template type<T>;
    if constexpr (has_make<Impl, T>::value) {
        return Impl::template make<T>(args);
    } else {
        C c = [&] {
            if constexpr (takes_resource<C>::value) {
                if (args.resource != nullptr) return C(typename C::allocator_type(args.resource));
            }
            return C();
        }();
        if constexpr (reserves_v<Impl>) c.reserve(args.reservation);
        return c;
    }
}

}  // namespace relo_bench

#endif  // RELO_BENCH_SUPPORT_IMPLEMENTATIONS_HPP
