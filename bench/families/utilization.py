"""P0089's benchmark III (utilization_bench): blocks churned through a fixed live set until a total is reached,
on the global allocator, relo's monotonic and multipool resources and std::pmr's, with the paper's
percentages (bench/data/p0089_benchmark3.json) beside this machine's.
"""
from __future__ import annotations

import json
import os

import report as rr
from experiment import Experiment, memory_limit, skipped_lines

PROGRAMS = ["utilization_bench"]
ORDER = 57
PROGRAM = "utilization_bench"
STRATEGIES = ["AS1", "AS2", "AS3", "AS5", "AS7", "AS9", "AS11", "AS13"]
PAPER_ROWS = [(15, 10), (16, 10), (17, 10), (18, 10), (19, 10), (20, 10), (20, 11), (20, 12), (20, 13), (20, 14),
              (20, 15)]


def paper():
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "p0089_benchmark3.json")
    with open(path) as f:
        data = json.load(f)
    return {tuple(r["key"]): r for r in data["rows"]}, data["percent_of_AS1"]


def scale(ctx):
    """(totals log2, (active log2, size log2) rows)."""
    if ctx.mode == "smoke":
        return [16], [(12, 10)]
    if ctx.mode == "full":
        return list(range(30, 36)), PAPER_ROWS
    return [28], [(15, 10), (20, 10), (20, 12), (20, 13), (20, 15)]


def impls(ctx):
    available = ctx.impls(PROGRAM, "run")
    return STRATEGIES + [i for i in ("std-pool", "std-monotonic") if i in available] + \
        [f"AS1+{a}" for a in ctx.allocators]


def label(t, a, s):
    return f"T=2^{t} A=2^{a} S=2^{s}"


def experiments(ctx):
    totals, rows = scale(ctx)
    cells = [(label(t, a, s), ["run", "--total-log", str(t), "--active-log", str(a), "--size-log", str(s),
                               "--memory-limit", str(memory_limit())])
             for t in totals for a, s in rows]
    every = impls(ctx)

    def expected(cell):
        parts = dict(p.split("=") for p in cell.split())
        t, s = (int(parts[k].split("^")[1]) for k in ("T", "S"))
        return 2 ** (t - s) * 60e-9 + 2 ** t * 0.1e-9 + 0.02

    return [Experiment(
        "utilization", "P0089 benchmark III: variation in utilization",
        "Blocks of S bytes are allocated until A bytes are live, then the oldest is freed and a new one "
        "allocated until T bytes have been allocated in all, each block's first byte written once. AS1 the "
        "global allocator, AS2 the same through std::pmr::memory_resource; relo's monotonic (AS3, AS5), "
        "multipool (AS7, AS9) and multipool over monotonic (AS11, AS13), bound at compile time and at run "
        "time; std-pool and std-monotonic std::pmr's resources; AS1+X another global allocator. A case that "
        "would need more than half of the machine's memory (a monotonic resource keeps all T bytes) is not run. "
        "The paper's rows are the same (T from 2^30 to 2^35 under --full).",
        PROGRAM, every, "AS1", cells, summary=("AS7", [i for i in every if i in ("AS1", "AS2") or
                                                      i.startswith("AS1+") or i.startswith("std-")]),
        section=section, expected_seconds=expected)]


def section(experiment, results, out):
    rows, columns = paper()
    summary = rr.summarize(results, experiment.metric, experiment.baseline)
    ran = []
    for (_, cell), per_impl in summary.items():
        parts = dict(p.split("=") for p in cell.split())
        ran.append((cell, tuple(int(parts[k].split("^")[1]) for k in ("T", "A", "S"))))
    lines = ["The paper's percentages of AS1 (fail: memory exhausted), for the same A and S at its smallest total "
             "(2^30) and at the total run here where it has one:", "",
             "| case | paper's T | AS1 (s) | " + " | ".join(columns) + " |", "|---|---:|---:|" + "---:|" * len(columns)]
    for cell, (t, a, s) in ran:
        key = (t, a, s) if (t, a, s) in rows else (30, a, s)
        row = rows.get(key)
        if row is None:
            continue
        pct = ["fail" if p is None else f"{p:.0f}" for p in row["percent"]]
        lines.append(f"| {cell} | 2^{key[0]} | {row['AS1_s']:.3f} | " + " | ".join(pct) + " |")
    lines += [""]
    lines += rr.metric_table(experiment, results, "max_rss_kb", lambda kb: f"{kb / 1024:.0f}",
                             "Peak resident memory of the process, MiB (median):")
    return lines + skipped_lines(results) + [""]
