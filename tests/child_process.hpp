// tests/child_process.hpp — running a part of a test in a child process with a deadline (fork): a hang
// there fails the test instead of stopping the run. POSIX only.
#ifndef RELO_TESTS_CHILD_PROCESS_HPP
#define RELO_TESTS_CHILD_PROCESS_HPP

#if !defined(_WIN32)
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "relo/detail/sanitizers.hpp"
#include "sanitizers.hpp"

namespace relo_test {

using std::chrono::milliseconds;

inline constexpr int child_hung = -1;

/// Waits for pid until `limit`: its exit code (128 + the signal if one ended it), or child_hung once the
/// deadline has passed (then it is killed).
inline int wait_within(pid_t pid, milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (r < 0 && errno != EINTR) return 127;
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return child_hung;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

/// Runs f in a child process (which ends with _exit(f()), or 99 if f throws), and in_parent() in the parent
/// once the child is forked; f's code, or child_hung.
inline int in_child(milliseconds limit, const std::function<int()>& f, const std::function<void()>& in_parent = {}) {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) return 126;
    if (pid == 0) {
        int code = 99;
        try {
            code = f();
        } catch (...) {
        }
        ::_exit(code);
    }
    if (in_parent) in_parent();
    return wait_within(pid, limit);
}

/// Why a fork with other threads running cannot be tested in this build (null: it can). Under
/// ThreadSanitizer it is not supported; AddressSanitizer's runtime locks its own allocator around a fork
/// only from LLVM 18 on (GCC's libasan from 14): before, a child whose parent had another thread inside
/// malloc hangs in the sanitizer's malloc, whatever relo does. The single-threaded case runs in both.
inline const char* fork_with_threads_untestable() {
#if RELO_TSAN
    return "ThreadSanitizer does not support fork with other threads running";
#elif RELO_TEST_ASAN && ((defined(__clang__) && __clang_major__ < 18) || (!defined(__clang__) && __GNUC__ < 14))
    return "this AddressSanitizer runtime does not lock its allocator around fork (a child may hang in its malloc)";
#else
    return nullptr;
#endif
}

}  // namespace relo_test

#endif  // !_WIN32
#endif  // RELO_TESTS_CHILD_PROCESS_HPP
