// tests/relocation_libcxx_test.cpp — relo::is_trivially_relocatable's libc++ entries (docs/relocation.md),
// checked as relocation_types_test.cpp checks libstdc++'s: a live object relocated as bytes, its source
// scribbled over and freed, then used and destroyed. Built with Clang and -stdlib=libc++, without
// GoogleTest (Debian's is built for libstdc++): prints "N passed, M failed" and exits non-zero on a failure.
// Only the trait: relo's containers use <memory_resource>, which libc++ has from LLVM 16 (Debian 12's is 14).
#include <array>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "relo/relocation.hpp"
#include "relocated_bytes.hpp"

#if !defined(_LIBCPP_VERSION)
#error "relocation_libcxx_test is for libc++ (-stdlib=libc++)"
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RELO_TEST_ASAN 1
#endif
#endif

namespace {

template <class T>
constexpr bool tr = relo::is_trivially_relocatable_v<T>;

static_assert(tr<std::unique_ptr<int>> && tr<std::shared_ptr<int>> && tr<std::weak_ptr<int>>);
static_assert(tr<std::vector<int>> && tr<std::vector<std::vector<int>>>);
static_assert(tr<std::optional<std::unique_ptr<int>>> && tr<std::pair<std::unique_ptr<int>, int>>);
static_assert(tr<std::tuple<int, std::shared_ptr<int>>> && tr<std::array<std::unique_ptr<int>, 2>>);
static_assert(tr<std::variant<int, std::unique_ptr<int>>>);
static_assert(!tr<std::function<void()>>, "libc++'s std::function points at its own small buffer");
#if defined(RELO_TEST_ASAN)
static_assert(!tr<std::string>, "under AddressSanitizer libc++'s string annotations follow its address");
#else
static_assert(tr<std::string> && tr<std::pair<std::string, std::string>>, "libc++'s string holds no pointer to itself");
#endif

int passed = 0, failed = 0;

void expect(bool ok, const char* what) {
    if (ok) {
        ++passed;
    } else {
        ++failed;
        std::printf("FAILED: %s\n", what);
    }
}

}  // namespace

int main() {
    using relo_test::relocated_bytes_work;
    expect(relocated_bytes_work<std::unique_ptr<int>>([] { return std::make_unique<int>(42); },
                                                       [](std::unique_ptr<int>& p) { return *p == 42; }),
           "unique_ptr");
    auto shared = std::make_shared<int>(7);
    expect(relocated_bytes_work<std::shared_ptr<int>>([&] { return shared; },
                                                       [&](std::shared_ptr<int>& p) { return *p == 7 && shared.use_count() == 2; }) &&
               shared.use_count() == 1,
           "shared_ptr");
    expect(relocated_bytes_work<std::weak_ptr<int>>([&] { return std::weak_ptr<int>(shared); },
                                                     [&](std::weak_ptr<int>& w) { return !w.expired(); }),
           "weak_ptr");
    expect(relocated_bytes_work<std::vector<int>>([] { return std::vector<int>{1, 2, 3}; },
                                                   [](std::vector<int>& v) {
                                                       v.push_back(4);
                                                       return v.size() == 4 && v[0] == 1;
                                                   }),
           "vector");
    using either = std::variant<int, std::unique_ptr<int>>;
    expect(relocated_bytes_work<either>([] { return either(std::make_unique<int>(3)); },
                                        [](either& v) { return *std::get<1>(v) == 3; }),
           "variant");
    using maybe = std::optional<std::vector<int>>;
    expect(relocated_bytes_work<maybe>([] { return maybe(std::vector<int>(5, 5)); },
                                       [](maybe& o) { return o && (*o)[4] == 5; }),
           "optional");
#if !defined(RELO_TEST_ASAN)
    expect(relocated_bytes_work<std::string>([] { return std::string("short"); },
                                              [](std::string& s) {
                                                  s += " and now long enough to leave the inline buffer";
                                                  return s.compare(0, 5, "short") == 0;
                                              }),
           "short string");
    expect(relocated_bytes_work<std::string>([] { return std::string(100, 'x'); },
                                              [](std::string& s) { return s.size() == 100 && s[99] == 'x'; }),
           "long string");
#endif
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
