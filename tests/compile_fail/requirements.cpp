// tests/compile_fail/requirements.cpp — an unsupported setup (C++14, or a standard library without
// <memory_resource>) fails with relo's one message (detail/requirements.hpp), not hundreds of errors.
#include <relo/vector.hpp>

int main() { return 0; }
