// relo/optional_ref.hpp — what the containers' try_push_back / try_emplace_back return.
//
// C++26's inplace_vector returns std::optional<T&> from try_push_back and try_emplace_back (P0843R14).
// relo::optional_ref<T> is that type where the standard library has it (P2988, __cpp_lib_optional >=
// 202506), and elsewhere a small class with the same interface: has_value() / explicit operator bool, *,
// ->, value() (throws std::bad_optional_access), value_or(), and comparison with std::nullopt. Code
// written against it compiles unchanged once the library has std::optional<T&>.
// Layer 1, vocabulary (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_OPTIONAL_REF_HPP
#define RELO_OPTIONAL_REF_HPP

#include "relo/detail/requirements.hpp"

#include <optional>
#include <type_traits>
#include <utility>

#include "relo/detail/errors.hpp"
#include "relo/detail/standard_library.hpp"

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN

#if defined(__cpp_lib_optional) && __cpp_lib_optional >= 202506L

template <class T>
using optional_ref = std::optional<T&>;

#else

/// An optional reference: empty, or referring to one T (never owning it).
template <class T>
class optional_ref {
public:
    /// The type referred to.
    using value_type = T;

    /// An empty optional_ref.
    ///@{
    constexpr optional_ref() noexcept = default;
    constexpr optional_ref(std::nullopt_t) noexcept {}
    ///@}
    /// Refers to `target` (an lvalue: a temporary cannot be referred to).
    template <class U, std::enable_if_t<std::is_lvalue_reference_v<U&&> &&
                                            std::is_convertible_v<std::remove_reference_t<U>*, T*>,
                                        int> = 0>
    constexpr optional_ref(U&& target) noexcept : target_(std::addressof(target)) {}

    /// Whether it refers to an object. Never throws.
    ///@{
    constexpr bool has_value() const noexcept { return target_ != nullptr; }
    constexpr explicit operator bool() const noexcept { return has_value(); }
    ///@}

    /// The object referred to (precondition: has_value()). Never throws.
    ///@{
    constexpr T& operator*() const noexcept { return *target_; }
    constexpr T* operator->() const noexcept { return target_; }
    ///@}
    /// The object referred to; throws std::bad_optional_access when empty.
    constexpr T& value() const {
        if (target_ == nullptr) detail::throw_bad_optional_access();
        return *target_;
    }
    /// A copy of the object referred to, or fallback converted to T when empty.
    template <class U>
    constexpr std::remove_cv_t<T> value_or(U&& fallback) const {
        return target_ != nullptr ? *target_ : static_cast<std::remove_cv_t<T>>(std::forward<U>(fallback));
    }

    /// Makes it empty (the object referred to is untouched). Never throws.
    constexpr void reset() noexcept { target_ = nullptr; }

    /// Comparison with std::nullopt: equal when empty (before C++20, also the reversed and != forms).
    friend constexpr bool operator==(const optional_ref& o, std::nullopt_t) noexcept { return !o.has_value(); }
#if !(defined(__cpp_impl_three_way_comparison) && __cplusplus >= 202002L)
    friend constexpr bool operator==(std::nullopt_t, const optional_ref& o) noexcept { return !o.has_value(); }
    friend constexpr bool operator!=(const optional_ref& o, std::nullopt_t) noexcept { return o.has_value(); }
    friend constexpr bool operator!=(std::nullopt_t, const optional_ref& o) noexcept { return o.has_value(); }
#endif

private:
    T* target_ = nullptr;
};

#endif

RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_OPTIONAL_REF_HPP
