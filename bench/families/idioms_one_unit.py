"""The idioms family's push idioms with the program built as one translation unit (bench/idioms_one_unit.cpp):
every element type in one unit, as real programs are, where a result that holds only in a unit of its own
would show. One experiment per build: the suite's compiler at its optimization (-O3) and at -O2, and Clang
at both where it was found beside GCC (bench/CMakeLists.txt). Targets as the idioms family's."""
from __future__ import annotations

from experiment import Experiment
from families import idioms

PROGRAM = "idioms_one_unit_bench"
PROGRAMS = [PROGRAM]
# Built where they can be: their experiments run when they were.
OPTIONAL_PROGRAMS = ["idioms_one_unit_o2_bench", "idioms_one_unit_clang_bench", "idioms_one_unit_clang_o2_bench"]
ORDER = 15
BUILDS = [(PROGRAM, "", "the suite's compiler and flags (-O3)"),
          ("idioms_one_unit_o2_bench", "-o2", "the suite's compiler at -O2"),
          ("idioms_one_unit_clang_bench", "-clang", "Clang with the suite's flags (-O3)"),
          ("idioms_one_unit_clang_o2_bench", "-clang-o2", "Clang at -O2")]
# The ways code appends one element: the cells where the inlining budget of a unit decides.
PUSH_IDIOMS = ["braced", "make", "lvalue", "emplace", "insert-end"]


def experiments(ctx):
    out = []
    for program, suffix, build in BUILDS:
        if not ctx.has(program):
            continue
        types = list(ctx.types(program, "fill"))
        impls = ctx.impls(program, "fill")
        if ctx.mode == "smoke":
            types = types[:2]
        n = ctx.pick({"smoke": 256, "quick": 1024, "full": 4096})
        cells = idioms.fill_cells(types, PUSH_IDIOMS, n, ctx.pick({"smoke": 2, "quick": 96, "full": 96}),
                                  ctx.pick({"smoke": 1, "quick": 3, "full": 5}))
        targets = idioms.targets_against_std(impls, "reserved")
        out.append(Experiment(
            f"idioms-one-unit{suffix}", f"Push idioms in one unit with every type: {build}",
            f"The idioms experiment's push idioms ({', '.join(PUSH_IDIOMS)}), each reserved and growing, for "
            f"{len(types)} element types, n = {n}, with the program compiled as one translation unit "
            f"(bench/idioms_one_unit.cpp) by {build}: every type's instantiations share one unit's inlining, as "
            "in a real program. Every implementation in one process, in rotating order; ratios to std::vector. "
            "docs/measurements/small_vectors.md, \"Per push, against std::vector, in one unit with every type\", "
            "says why small_vector's long reserved loops stay slower.",
            program, impls, "std", cells, one_process=True, bar_charts=False, targets=targets))
    return out
