// Compiled by the tests hardening_switch_* (tests/CMakeLists.txt) with the flags of one way of turning the
// hardened checks on or off, and RELO_EXPECTED_CHECKS: whether they must be on (detail/contracts.hpp).
#include "relo/vector.hpp"

static_assert(RELO_PRECONDITIONS_CHECKED == RELO_EXPECTED_CHECKS, "the hardening switch decided otherwise");

int main() { return 0; }
