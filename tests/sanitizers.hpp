// tests/sanitizers.hpp — what the tests need to know about the sanitizers they run under.
#ifndef RELO_TESTS_SANITIZERS_HPP
#define RELO_TESTS_SANITIZERS_HPP

// RELO_TEST_ASAN: 1 under AddressSanitizer (GCC's and Clang's spellings), else 0. Tests that lower the
// process's memory limits or count its allocations skip what the sanitizer's own allocations would break.
#if defined(__SANITIZE_ADDRESS__)
#define RELO_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RELO_TEST_ASAN 1
#endif
#endif
#ifndef RELO_TEST_ASAN
#define RELO_TEST_ASAN 0
#endif

#endif  // RELO_TESTS_SANITIZERS_HPP
