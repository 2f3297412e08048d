"""The relocation family (relocation_bench): vectors of the element types people store — unique_ptr,
shared_ptr, a std::vector and a relo::vector of 3 ints, std::function, std::string — which relo relocates
as bytes where their layout allows (docs/relocation.md: libstdc++'s std::string does not)."""
from __future__ import annotations

from experiment import Experiment, relo_against_peers, size_label

PROGRAMS = ["relocation_bench"]
ORDER = 12
PROGRAM = "relocation_bench"


def experiments(ctx):
    types = list(ctx.types(PROGRAM, "grow"))
    sizes = ctx.pick({"smoke": [1000, 10 ** 4], "quick": [10 ** 3, 10 ** 5, 10 ** 6, 10 ** 7],
                      "full": [10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6, 10 ** 7]})
    # Small n is repeated (a fresh vector each time) to about the same number of pushes per cell.
    total = ctx.pick({"smoke": 10 ** 4, "quick": 10 ** 6, "full": 10 ** 7})
    grow_cells = [(f"{t}/{size_label(n)}", ["grow", "--type", t, "--n", str(n), "--reps", str(max(1, total // n))])
                  for t in types for n in sizes]
    n_middle = ctx.pick({"smoke": 1000, "quick": 10 ** 4, "full": 10 ** 5})
    ops = ctx.pick({"smoke": 50, "quick": 2000, "full": 2000})
    middle_cells = [(f"{t}/{size_label(n_middle)}", ["middle", "--type", t, "--n", str(n_middle), "--ops", str(ops)])
                    for t in types]
    grow_impls = ctx.impls(PROGRAM, "grow")
    middle_impls = ctx.impls(PROGRAM, "middle")
    return [
        Experiment(
            "relocation-grow", "Growing vectors of the types people store",
            "n push_backs without reserve into one vector, of values made before the clock starts and moved in: "
            "unique_ptr<int>, shared_ptr<int>, std::vector<int> and relo::vector<int> of 3 ints, "
            "std::function<int()> holding a small lambda, a short std::string. The baseline std-reserve is "
            "std::vector given an exact reserve(n) first: the foresight floor. relo relocates all but libstdc++'s "
            "std::string as bytes (realloc, mremap for large blocks); std::vector and boost::container::vector "
            "move them one by one. Targets: relo within 1.3x of the floor at n = 1e5 to 1e7, never slower than "
            "std::vector.",
            PROGRAM, grow_impls, "std-reserve", grow_cells,
            summary=relo_against_peers(grow_impls, exclude=("std-reserve",)), chart_by=lambda c: c.split("/")[0]),
        Experiment(
            "relocation-middle", "Insert and erase in the middle",
            f"A vector of {n_middle} elements of each type, then {ops} times an insert at the middle and an erase at a "
            "third: each shifts about half the elements, by one memmove where relo relocates the type as bytes, by a "
            "chain of move assignments otherwise. Target: relo at most 0.7x std::vector.",
            PROGRAM, middle_impls, "std", middle_cells, summary=relo_against_peers(middle_impls)),
    ]
