"""What hardening costs (vector_hardened_bench): relo::vector built with RELO_HARDENED, every precondition
checked, against the same code unhardened, in the thesis's environment; std::vector with and without
libstdc++'s _GLIBCXX_ASSERTIONS beside it. Target: hardened relo within 1.05x of unhardened relo on
push-only.
"""
from __future__ import annotations

import math

import report as rr
from experiment import Experiment
from families import vectors

PROGRAMS = ["vector_bench", "vector_hardened_bench"]
ORDER = 11
HARDENED = "vector_hardened_bench"
TARGET = 1.05  # hardened relo over relo, push-only


def experiments(ctx):
    cells = [c for c in vectors.env_cells(ctx)
             if c[0].startswith("all/") or (c[0].startswith("push-only/") and c[0].rsplit("/", 1)[1] in ("1", "100"))]
    impls = ["relo", "relo-hardened", "std", "std-assertions"]
    return [Experiment(
        "hardening", "What hardening costs",
        "The thesis's environment (push-only with 1 and 100 vectors, and all) with relo built hardened "
        "(RELO_HARDENED: operator[], front, back, pop_back, unchecked pushes, iterators and ranges checked, a "
        "trap with a message when one fails) against the same code unhardened, in the same rounds; std is "
        "std::vector, std-assertions std::vector with libstdc++'s _GLIBCXX_ASSERTIONS (which also turns on "
        "relo's checks). The baseline is unhardened relo. Target: relo-hardened ≤ 1.05x relo on push-only.",
        "vector_bench", impls, "relo", cells,
        summary=("relo-hardened", ["relo"]), section=hardening_section,
        impl_programs={"relo-hardened": (HARDENED, "relo"), "std-assertions": (HARDENED, "std")})]


def hardening_section(experiment, results, out):
    """Per suite: the geometric mean over cells of each hardened build over its unhardened one."""
    summary = rr.summarize([r for r in results if r["experiment"] == experiment.name], experiment.metric,
                           experiment.baseline)
    lines = ["| suite | cells | relo hardened ÷ relo | std with assertions ÷ std | target | met |", "|---|---:|---:|---:|---:|---|"]
    for suite in ("push-only", "all"):
        relo, std = [], []
        for (_, cell), per_impl in summary.items():
            if not cell.startswith(suite + "/"):
                continue
            if "relo-hardened" in per_impl and "relo" in per_impl:
                relo.append(per_impl["relo-hardened"]["median"] / per_impl["relo"]["median"])
            if "std-assertions" in per_impl and "std" in per_impl:
                std.append(per_impl["std-assertions"]["median"] / per_impl["std"]["median"])
        if not relo:
            continue
        mean = geometric_mean(relo)
        target = f"≤ {TARGET:.2f}" if suite == "push-only" else "—"
        met = ("yes" if mean <= TARGET else "no") if suite == "push-only" else ""
        std_mean = f"{geometric_mean(std):.2f}" if std else "—"
        lines.append(f"| {suite} | {len(relo)} | {mean:.2f} (range {min(relo):.2f}–{max(relo):.2f}) | {std_mean} | "
                     f"{target} | {met} |")
    return lines + [""]


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))
