"""P0089's benchmark II (locality_bench): subsystems of std::pmr::list<int> shuffled over time, accessed on the
global allocator, on a multipool per subsystem and on multipools over one shared arena, with the paper's tables
(bench/data/p0089_benchmark2.json) beside this machine's.
"""
from __future__ import annotations

import json
import math
import os

import report as rr
from experiment import Experiment

PROGRAMS = ["locality_bench"]
ORDER = 56
PROGRAM = "locality_bench"
IMPLS = ["global", "multipool", "multipool-arena"]
PAPER_SHUFFLE = 5


def paper():
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "p0089_benchmark2.json")
    with open(path) as f:
        return json.load(f)["tables"]


def scale(ctx):
    """(system sizes log2, subsystem sizes log2 per system, af x rf, columns j: af = product / 2^j, the
    shuffle factor). The default scale shuffles once: measured at 2^21 links, one shuffle already gives the
    whole effect (global ÷ multipool after shuffling 57 at 2^17-link subsystems, 45 at 2^12, 3.9 at 2^4),
    and five take seconds per case. It keeps one column (af = 2, rf = 1): with af × rf = 2 the paper's
    second column (af = 1, rf = 2) measured within 13% of it in every row (docs/measurements/p0089_benchmarks.md), at
    half the locality run's time."""
    if ctx.mode == "smoke":
        return [12], {12: [2, 8]}, 2, [0, 1], 1
    if ctx.mode == "full":  # (the paper's sizes, every fourth subsystem size and three of its nine columns)
        return [21, 25], {g: list(range(1, g + 1, 4)) for g in (21, 25)}, 256, [0, 4, 8], PAPER_SHUFFLE
    return [21], {21: [5, 9, 13, 17]}, 2, [0], 1


def label(g, s, af, rf, sf):
    return f"G=2^{g} S=2^{s} af={af} rf={rf} sf={sf}"


def experiments(ctx):
    systems, subsystems, product, columns, shuffle = scale(ctx)
    cells = []
    for g in systems:
        for s in subsystems[g]:
            for j in columns:
                af, rf = max(1, product >> j), 1 << j
                for sf in (0, shuffle):
                    cells.append((label(g, s, af, rf, sf), ["run", "--system-log", str(g), "--subsystem-log", str(s),
                                                            "--af", str(af), "--rf", str(rf), "--sf", str(sf)]))

    def expected(cell):
        g = int(cell.split()[0].split("^")[1])
        # (a link visit: about 5 ns in order, 300 ns scattered, so 80 ns over the four cases of a cell)
        return (2 ** g) * (product * 80e-9 + shuffle * 500e-9) + 0.2

    return [Experiment(
        "locality", "P0089 benchmark II: variation in locality",
        f"A system of 2^G links in 2^(G - S) subsystems, each a std::pmr::list<int> of 2^S links; then sf · 2^G "
        "times the next subsystem in turn loses its first link and a random one gains a link at its back (the "
        "shuffle); then, timed, rf passes over the subsystems, each traversed af times. global: every list on "
        "the global allocator; multipool: every subsystem on a relo::multipool_resource of its own (AS9); "
        "multipool-arena: the same with each multipool's first chunk sized to its subsystem and every multipool's "
        "chunks from one shared relo::monotonic_resource (so that, before shuffling, consecutive subsystems are "
        "consecutive in memory as on the global allocator). The ratio table is each ÷ global per cell. The paper "
        f"shuffled {PAPER_SHUFFLE} times with af × rf = 2560; here sf = {shuffle} and af × rf = {product}.",
        PROGRAM, IMPLS, "global", cells, summary=("multipool", ["global"]), section=section, bar_charts=False,
        expected_seconds=expected)]


def _parse(cell):
    parts = dict(p.split("=") for p in cell.split())
    return (int(parts["G"].split("^")[1]), int(parts["S"].split("^")[1]), int(parts["af"]), int(parts["rf"]),
            int(parts["sf"]))


def section(experiment, results, out):
    summary = rr.summarize(results, experiment.metric, experiment.baseline)
    medians = {}  # (g, s, af, rf, sf, impl) -> median seconds
    for (_, cell), per_impl in summary.items():
        for impl, stats in per_impl.items():
            medians[_parse(cell) + (impl,)] = stats["abs_median"]
    systems = sorted({k[0] for k in medians})
    lines = []
    for g in systems:
        keys = sorted({(k[1], k[2], k[3]) for k in medians if k[0] == g})
        subsystems = sorted({s for s, _, _ in keys}, reverse=True)
        columns = sorted({(af, rf) for _, af, rf in keys}, key=lambda c: c[1])

        def value(s, af, rf, sf, impl):
            return medians.get((g, s, af, rf, sf, impl))

        def grid(title, f):
            rows = [title, "", "| log2 S | " + " | ".join(f"af={af} rf={rf}" for af, rf in columns) + " |",
                    "|---|" + "---:|" * len(columns)]
            for s in subsystems:
                cells = []
                for af, rf in columns:
                    v = f(s, af, rf)
                    cells.append("–" if v is None else f"{v:.2f}")
                rows.append(f"| {s} | " + " | ".join(cells) + " |")
            return rows + [""]

        def ratio(a, b):
            return None if a is None or b is None or b == 0 else a / b

        sf = max(k[4] for k in medians if k[0] == g)
        lines += grid(f"G = 2^{g}, sf = {sf}, without local allocators: global after shuffling ÷ global without shuffling "
                      "(the paper's Tables 16/17):",
                      lambda s, af, rf: ratio(value(s, af, rf, sf, "global"), value(s, af, rf, 0, "global")))
        lines += grid(f"G = 2^{g}, with a multipool per subsystem: after shuffling ÷ without (Tables 18/19):",
                      lambda s, af, rf: ratio(value(s, af, rf, sf, "multipool"), value(s, af, rf, 0, "multipool")))
        benefit = lambda s, af, rf: ratio(value(s, af, rf, sf, "global"), value(s, af, rf, sf, "multipool"))
        lines += grid(f"G = 2^{g}, after shuffling: global ÷ multipool, the benefit of the local allocator (the "
                      "paper's Tables 20/21):", benefit)
        lines += paper_lines(g, subsystems)
        name = f"{experiment.name}-{g}.png"
        if heat_map(g, subsystems, columns, benefit, os.path.join(out, name)):
            lines += [f"![benefit at G = 2^{g}]({name})", ""]
    return lines


def paper_lines(g, subsystems):
    tables = paper().get(str(g))
    if tables is None:
        return []
    lines = [f"The paper at G = 2^{g} (its columns 2^-0 and 2^-8: af × rf = 2560 with rf = 1 and rf = 256), "
             "global after shuffling ÷ without, the same with a multipool, and their quotient (the benefit):", "",
             "| log2 S | without, 2^-0 | without, 2^-8 | with, 2^-0 | with, 2^-8 | benefit, 2^-0 | benefit, 2^-8 |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for s in subsystems:
        without, with_ = tables["without"].get(str(s)), tables["with"].get(str(s))
        if without is None or with_ is None:
            continue
        lines.append(f"| {s} | {without[0]:.2f} | {without[8]:.2f} | {with_[0]:.2f} | {with_[8]:.2f} | "
                     f"{without[0] / with_[0]:.2f} | {without[8] / with_[8]:.2f} |")
    return lines + [""]


def heat_map(g, subsystems, columns, benefit, path):
    plt = rr.pyplot()
    if plt is None:
        return False
    values = [[benefit(s, af, rf) for af, rf in columns] for s in subsystems]
    logs = [[math.log2(v) if v else math.nan for v in row] for row in values]
    fig, ax = plt.subplots(figsize=(2.5 + 1.2 * len(columns), 1.2 + 0.35 * len(subsystems)))
    ax.imshow(logs, cmap="RdYlGn", vmin=-4, vmax=4, aspect="auto")
    ax.set_xticks(range(len(columns)))
    ax.set_xticklabels([f"af={af}\nrf={rf}" for af, rf in columns], fontsize=7)
    ax.set_yticks(range(len(subsystems)))
    ax.set_yticklabels([f"S=2^{s}" for s in subsystems], fontsize=7)
    for y, row in enumerate(values):
        for x, v in enumerate(row):
            if v:
                ax.text(x, y, f"{v:.2f}", ha="center", va="center", fontsize=7)
    ax.set_title(f"G = 2^{g}, after shuffling: global ÷ multipool", fontsize=9)
    rr.save_figure(plt, fig, path)
    return True
