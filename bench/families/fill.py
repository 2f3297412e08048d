"""The fill family (fill_bench): a vector of n ints that the program then writes itself. resize zeroes the
ints before the program overwrites them; resize_for_overwrite (LLVM's name; Boost's default_init) leaves
them, so growth costs the allocation, the page faults and the program's own writes. The baseline is the floor:
new int[n] (uninitialized) and the same writes."""
from __future__ import annotations

from experiment import Experiment, Target, size_label

PROGRAMS = ["fill_bench"]
ORDER = 13
PROGRAM = "fill_bench"


def experiments(ctx):
    sizes = ctx.pick({"smoke": [10 ** 4], "quick": [10 ** 6, 10 ** 8], "full": [10 ** 4, 10 ** 6, 10 ** 7, 10 ** 8]})
    total = ctx.pick({"smoke": 10 ** 5, "quick": 10 ** 8, "full": 10 ** 8})
    cells = [(f"int/{size_label(n)}", ["fill", "--n", str(n), "--reps", str(max(1, total // n))]) for n in sizes]
    impls = ctx.impls(PROGRAM, "fill")
    return [Experiment(
        "fill", "Room for n ints, then the program's own writes",
        "Room for n ints made each way, then v[i] = 3i + 1 for every i (repeated with a fresh vector to about 10^8 "
        "writes per cell). floor: new int[n], which writes nothing, then the writes: the allocation, the page "
        "faults and the fill only. relo-resize-for-overwrite: relo::vector's resize_for_overwrite; relo-resize and "
        "std-resize write zeros first; the reserve-push rows push_back each value; boost-default-init: "
        "boost::container::vector's resize(n, default_init). Target: relo-resize-for-overwrite within 1.1x of the "
        "floor.",
        PROGRAM, impls, "floor", cells,
        summary=("relo-resize-for-overwrite", ["floor", "relo-resize", "std-resize", "std-reserve-push"]),
        targets=[Target("resize_for_overwrite and the writes ≤ 1.1× the floor", "relo-resize-for-overwrite", "floor",
                        1.1)])]
