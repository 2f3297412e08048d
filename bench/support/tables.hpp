// bench/support/tables.hpp — name → type tables: how a program maps the names on its command line to
// implementations and element types.
#ifndef RELO_BENCH_SUPPORT_TABLES_HPP
#define RELO_BENCH_SUPPORT_TABLES_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace relo_bench {

/// A string literal as a template argument: the names in the tables.
template <std::size_t N>
struct fixed_name {
    char text[N]{};
    constexpr fixed_name(const char (&s)[N]) {
        for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
    }
};

/// One row of a table: a name and the type it stands for. Optional rows are peers built in because the
/// user pointed CMake at them (listed as such, so the runner knows what this build has).
template <fixed_name Name, class Type, bool Optional = false>
struct named {
    static constexpr const char* name = Name.text;
    using type = Type;
    static constexpr bool optional = Optional;
};

template <class T>
struct tag {
    using type = T;
};

template <class... Rows>
struct table {
    /// Calls f(tag<Type>{}) for the row called `name`; false if there is none.
    template <class F>
    static bool with(std::string_view name, F&& f) {
        return ((name == Rows::name && (f(tag<typename Rows::type>{}), true)) || ...);
    }
    /// Calls f(tag<Type>{}, name) for every row, in order.
    template <class F>
    static void for_each(F&& f) {
        (f(tag<typename Rows::type>{}, Rows::name), ...);
    }
    static std::vector<std::string> names(bool optional_only = false) {
        std::vector<std::string> out;
        ((optional_only && !Rows::optional ? void() : out.push_back(Rows::name)), ...);
        return out;
    }
};

template <class... Tables>
struct join;
template <>
struct join<> {
    using type = table<>;
};
template <class... A>
struct join<table<A...>> {
    using type = table<A...>;
};
template <class... A, class... B, class... Rest>
struct join<table<A...>, table<B...>, Rest...> : join<table<A..., B...>, Rest...> {};
/// The rows of several tables, in order (e.g. the peers that are always there, then the optional ones).
template <class... Tables>
using join_t = typename join<Tables...>::type;

}  // namespace relo_bench

#endif  // RELO_BENCH_SUPPORT_TABLES_HPP
