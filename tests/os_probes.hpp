// tests/os_probes.hpp — what the tests read back from the system about the process's memory.
#ifndef RELO_TESTS_OS_PROBES_HPP
#define RELO_TESTS_OS_PROBES_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "relo/detail/os_memory.hpp"

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace relo_test {

inline std::size_t page() { return relo::detail::os::page_size(); }

#if !defined(_WIN32)
/// The process's minor page faults so far (a page touched for the first time, or written after a fork).
inline long minor_page_faults() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}
#endif

/// How many pages of [p, p + bytes) hold memory — resident (mincore), or on Windows committed
/// (VirtualQuery: a decommitted page holds none) —, or SIZE_MAX if the range is not mapped.
inline std::size_t resident_pages(const void* p, std::size_t bytes) {
    const auto start = reinterpret_cast<std::uintptr_t>(p) / page() * page();
    const std::size_t length = reinterpret_cast<std::uintptr_t>(p) + bytes - start;
#if defined(_WIN32)
    std::size_t pages = 0;
    for (std::uintptr_t at = start; at < start + length;) {
        MEMORY_BASIC_INFORMATION info;
        if (::VirtualQuery(reinterpret_cast<const void*>(at), &info, sizeof info) == 0 || info.State == MEM_FREE)
            return static_cast<std::size_t>(-1);
        const std::uintptr_t region_end = reinterpret_cast<std::uintptr_t>(info.BaseAddress) + info.RegionSize;
        const std::uintptr_t end = std::min<std::uintptr_t>(region_end, start + length);
        if (info.State == MEM_COMMIT) pages += (end - at) / page();
        at = end;
    }
    return pages;
#else
    std::vector<unsigned char> pages((length + page() - 1) / page());
    if (::mincore(reinterpret_cast<void*>(start), length, pages.data()) != 0) return static_cast<std::size_t>(-1);
    return static_cast<std::size_t>(std::count_if(pages.begin(), pages.end(), [](unsigned char c) { return c & 1; }));
#endif
}

/// A size of /proc/self/status ("VmSize:", "VmData:"), in bytes (0 if absent, as everywhere but Linux).
inline std::size_t status_bytes(const char* field) {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind(field, 0) == 0) return std::stoull(line.substr(std::strlen(field))) * 1024;
    }
    return 0;
}

}  // namespace relo_test

#endif  // RELO_TESTS_OS_PROBES_HPP
