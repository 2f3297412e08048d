// bench/idioms_one_unit.cpp — idioms_bench as one translation unit: every element type's fills in one
// unit, as a real program's unit holds many types, where the compiler's inlining budget is shared by all of
// them (the idioms family's one-unit experiments, bench/families/idioms_one_unit.py). Built by the suite's
// compiler at -O3 and -O2 and, where CMake finds another (Clang beside GCC), by that one too.
#include "idioms_bench.cpp"
#include "idioms_compounds.cpp"
#include "idioms_owners.cpp"
#include "idioms_values.cpp"
