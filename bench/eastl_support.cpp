// bench/eastl_support.cpp — what every program using EASTL must define: the array-new overloads its
// default allocator calls (EASTL leaves memory policy to the application). Built only when the user
// points CMake at an installed EASTL (-DRELO_BENCH_EASTL=<prefix>).
#include <cstddef>
#include <new>

void* operator new[](std::size_t size, const char* /*name*/, int /*flags*/, unsigned /*debug_flags*/,
                     const char* /*file*/, int /*line*/) {
    return ::operator new[](size);
}

void* operator new[](std::size_t size, std::size_t alignment, std::size_t /*alignment_offset*/,
                     const char* /*name*/, int /*flags*/, unsigned /*debug_flags*/, const char* /*file*/,
                     int /*line*/) {
    return ::operator new[](size, std::align_val_t{alignment});
}
