// tests/relocated_bytes.hpp — relocating a live object as bytes, and using it afterwards: the check of
// every entry of relo::is_trivially_relocatable (relocation_types_test.cpp, relocation_libcxx_test.cpp).
#ifndef RELO_TESTS_RELOCATED_BYTES_HPP
#define RELO_TESTS_RELOCATED_BYTES_HPP

#include <cstring>
#include <new>

namespace relo_test {

/// memcpy and memset that AddressSanitizer does not check: the bytes of an object are copied whole, and an
/// object may hold bytes it annotated as unused (small_vector's inline slots, detail/sanitizers.hpp).
#if defined(__GNUC__) || defined(__clang__)
__attribute__((no_sanitize_address))
#endif
inline void copy_object_bytes(unsigned char* to, const unsigned char* from, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) static_cast<volatile unsigned char*>(to)[i] = from[i];
}
#if defined(__GNUC__) || defined(__clang__)
__attribute__((no_sanitize_address))
#endif
inline void scribble_object_bytes(unsigned char* to, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) static_cast<volatile unsigned char*>(to)[i] = 0xA5;
}

/// Builds make() in a heap buffer, copies its bytes to another, scribbles over the first and (when
/// `free_source`) frees it, then returns check(the copy). When `destroy`, the copy is destroyed after.
template <class T, class Make, class Check>
bool relocated_bytes_work(Make make, Check check, bool free_source = true, bool destroy = true) {
    auto* source = static_cast<unsigned char*>(::operator new(sizeof(T), std::align_val_t{alignof(T)}));
    auto* target = static_cast<unsigned char*>(::operator new(sizeof(T), std::align_val_t{alignof(T)}));
    ::new (static_cast<void*>(source)) T(make());
    copy_object_bytes(target, source, sizeof(T));  // what relo does for a trivially relocatable T
    scribble_object_bytes(source, sizeof(T));      // the source's life is over: nothing may read it
    if (free_source) ::operator delete(source, std::align_val_t{alignof(T)});
    T& moved = *std::launder(reinterpret_cast<T*>(target));
    const bool ok = check(moved);
    if (destroy) moved.~T();
    if (!free_source) ::operator delete(source, std::align_val_t{alignof(T)});
    ::operator delete(target, std::align_val_t{alignof(T)});
    return ok;
}

}  // namespace relo_test

#endif  // RELO_TESTS_RELOCATED_BYTES_HPP
