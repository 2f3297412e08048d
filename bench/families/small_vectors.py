"""The small-vector family (small_vector_gbench, Google Benchmark): relo::small_vector against Boost's,
Abseil's, LLVM's and the other small vectors on the small-vectors article's workload."""
from __future__ import annotations

from experiment import Experiment

PROGRAMS = ["small_vector_gbench"]
ORDER = 30
PROGRAM = "small_vector_gbench"


def experiments(ctx):
    impls = ctx.impls(PROGRAM, "small")
    return [Experiment(
        "small-vector", "Small vectors: push_back of chi-squared lengths",
        "The small-vectors article's workload: 100 lengths from a chi-squared distribution (8 degrees of freedom, fixed seed), a fresh "
        "container for each, filled by push_back; columns by inline capacity N. std-reserve is std::vector with "
        "reserve(N) first. Time per batch of 100 containers (Google Benchmark, one benchmark per process).",
        PROGRAM, impls, "std", [(f"N={n}", ["gbench", f"small/{n}"]) for n in ctx.params(PROGRAM, "small")],
        summary=("relo", [i for i in impls if i not in ("relo", "std-reserve")]))]
