// tests/vector_exceptions_test.cpp — exception safety of relo::vector at every throw point: element copies
// and moves that throw on the k-th call, allocators that fail the k-th allocation, and the kernel refusing
// memory under a lowered RLIMIT_AS.
#include "relo/vector.hpp"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#if !defined(_WIN32)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <gtest/gtest.h>

#include "element_kinds.hpp"
#include "exception_matrix.hpp"
#include "sanitizers.hpp"


namespace relo_test {
namespace {

TEST(VectorExceptions, ThrowingCopyAndMove) {
    // thrower's move may throw and it is copyable: growth copies (strong); middle insertion rotates (basic).
    run_modifier_matrix<relo::vector<thrower>>(guarantee::basic);
    run_modifier_matrix<relo::vector<thrower, std::allocator<thrower>>>(guarantee::basic);
}

TEST(VectorExceptions, ThrowingCopyNothrowMove) {
    // Elements relocate without throwing: even insertion in the middle is strong.
    run_modifier_matrix<relo::vector<copy_thrower>>(guarantee::strong);
}

TEST(VectorExceptions, AllocationFailureLeavesTheVectorUnchanged) {
    run_allocation_failures<relo::vector<counted, test_allocator<counted>>>();
}

// ---- The kernel refusing memory: RLIMIT_AS lowered in a child process. (Not on Windows, which has no
// RLIMIT_AS: a job object's memory limit would be its counterpart.)

#if !RELO_TEST_ASAN && !defined(_WIN32)
long address_space_in_use() {
    FILE* f = std::fopen("/proc/self/statm", "r");
    long pages = 0;
    if (f != nullptr) {
        if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
        std::fclose(f);
    }
    return pages * sysconf(_SC_PAGESIZE);
}

/// Runs body in a child whose address space is limited to what it uses now plus `headroom` bytes;
/// the child's exit code is body's result.
int in_limited_child(long headroom, const std::function<int()>& body) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        const rlim_t limit = static_cast<rlim_t>(address_space_in_use() + headroom);
        rlimit rl{limit, limit};
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(90);
        int code = 91;
        try {
            code = body();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "child: unexpected exception: %s\n", e.what());
            code = 92;
        } catch (...) {
            code = 93;
        }
        _exit(code);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

template <class T, class Allocator = relo::default_allocator<T>>
int grow_until_refused() {
    // Address space set aside, and given back once the vector has been refused, so that the checks
    // below (which may allocate) have room.
    void* headroom = std::malloc(32 << 20);
    relo::vector<T, Allocator> v;
    long pushed = 0;
    try {
        for (;; ++pushed) v.push_back(kind<T>::make(static_cast<int>(pushed % 1000000)));
    } catch (const std::bad_alloc&) {
    }
    std::free(headroom);
    if (v.size() != static_cast<std::size_t>(pushed) || pushed < 1000) return 1;
    for (std::size_t i = 0; i < v.size(); i += 4099)
        if (kind<T>::key(v[i]) != static_cast<int>(i % 1000000)) return 2;
    const std::size_t size = v.size();
    try {
        v.reserve(v.capacity() * 4);
        return 3;  // the limit should not allow it
    } catch (const std::bad_alloc&) {
    }
    if (v.size() != size || kind<T>::key(v.back()) != static_cast<int>((size - 1) % 1000000)) return 4;
    return 0;
}

TEST(VectorExceptions, KernelRefusalUnderRlimitIsBadAlloc) {
    EXPECT_EQ(in_limited_child(256L << 20, grow_until_refused<int>), 0);
    EXPECT_EQ(in_limited_child(256L << 20, grow_until_refused<int, relo::page_allocator<int, relo::large_block_policy>>), 0);
    EXPECT_EQ(in_limited_child(256L << 20, grow_until_refused<big_trivial>), 0);
    EXPECT_EQ(in_limited_child(256L << 20, grow_until_refused<std::string>), 0);
    EXPECT_EQ(in_limited_child(128L << 20, grow_until_refused<counted>), 0);
}
#endif

}  // namespace
}  // namespace relo_test
