"""The idioms family (idioms_bench): the element types real code stores, filled the ways real code fills a
vector, in every relo container against std::vector (the baseline) and Boost's small_vector and
static_vector. Each cell is one type, one idiom, reserved first or growing from empty; its case runs every
implementation in one process, in rounds that rotate their order (A B C, B C A, ...), and reports each
one's median round. The section draws one heat map per relo container (rows: types; columns: idioms) and
names the worst cells."""
from __future__ import annotations

import math
import os

import report as rr
from experiment import Experiment, Target

PROGRAMS = ["idioms_bench"]
ORDER = 14
PROGRAM = "idioms_bench"

IDIOMS = ["braced", "make", "lvalue", "emplace", "emplace-assign", "copy-back-inserter", "transform-back-inserter",
          "insert-end", "resize-index", "range-input", "clear-refill"]
ONCE = {"range-input": "growing", "clear-refill": "reused"}  # idioms with one way only
MOVE_ONLY = {"unique_ptr<int>"}
COPYING = {"lvalue", "copy-back-inserter", "insert-end"}
CONTAINERS = [("relo", "relo::vector"), ("relo-small", "relo::small_vector<T, 8>"),
              ("relo-pinned", "relo::pinned_vector"), ("relo-inplace", "relo::inplace_vector<T, 4096>")]
# A refilled buffer as large as a frame's: where a container that gave pages back at clear() would fault them.
LARGE_REFILL_TYPES = ["int", "pair<int,double>", "string"]
LARGE_REFILL_N = 1 << 18


def columns():
    """The heat maps' columns: idiom/growth."""
    out = []
    for idiom in IDIOMS:
        out += [f"{idiom}/{ONCE[idiom]}"] if idiom in ONCE else [f"{idiom}/reserved", f"{idiom}/growing"]
    return out + [f"clear-refill/reused n=2^18"]


def fill_cells(types, idioms, n, reps, inner):
    """The fill mode's cells (label, argv) for each type and idiom, in each way the idiom has (reserved and
    growing, or its only one); a move-only type skips the idioms that copy."""
    cells = []
    for t in types:
        for idiom in idioms:
            if t in MOVE_ONLY and idiom in COPYING:
                continue
            for growth in ([ONCE[idiom]] if idiom in ONCE else ["reserved", "growing"]):
                cells.append((f"{t}/{idiom}/{growth}", ["fill", "--type", t, "--idiom", idiom, "--growth", growth,
                                                        "--n", str(n), "--reps", str(reps), "--rounds", str(inner)]))
    return cells


def targets_against_std(impls, reserved_words):
    """Each relo container in impls at most std::vector's time in the reserved (and reused) cells and, but
    for the fixed-capacity one, in the growing cells."""
    reserved = lambda cell: cell.endswith("/reserved") or "/reused" in cell  # noqa: E731
    growing = lambda cell: cell.endswith("/growing")  # noqa: E731
    targets = []
    for impl, name in CONTAINERS:
        if impl not in impls:
            continue
        targets.append(Target(f"{name} ≤ 1.0× std::vector, {reserved_words}", impl, "std", 1.0, cells=reserved))
        if impl != "relo-inplace":
            targets.append(Target(f"{name} ≤ 1.0× std::vector, growing", impl, "std", 1.0, cells=growing))
    return targets


def experiments(ctx):
    types = list(ctx.types(PROGRAM, "fill"))
    impls = ctx.impls(PROGRAM, "fill")
    n = ctx.pick({"smoke": 256, "quick": 4096, "full": 4096})
    reps = ctx.pick({"smoke": 2, "quick": 48, "full": 96})
    inner = ctx.pick({"smoke": 1, "quick": 3, "full": 5})
    if ctx.mode == "smoke":
        types = types[:2] + ["string"]
    cells = []
    for t in types:
        cells += fill_cells([t], IDIOMS, n, reps, inner)
        if t in LARGE_REFILL_TYPES and ctx.mode != "smoke":
            argv = ["fill", "--type", t, "--idiom", "clear-refill", "--growth", "reused", "--n", str(LARGE_REFILL_N),
                    "--reps", str(max(1, reps * n // LARGE_REFILL_N)), "--rounds", str(inner)]
            cells.append((f"{t}/clear-refill/reused n=2^18", argv))
    targets = targets_against_std(impls, "reserved or reused")
    return [Experiment(
        "idioms", "Every type and idiom real code uses, against std::vector",
        f"{len(types)} element types real code stores (int, double, a pointer, pairs, a tuple, optional, "
        "string_view, complex, a 16- and a 64-byte struct with a user-written copy constructor, unique_ptr, "
        f"shared_ptr, string, array<int, 10>), each filled with n = {n} elements the ways real code writes "
        "it: push_back({...}), push_back(make_pair(...)) (a function's prvalue), push_back(lvalue), "
        "emplace_back(args...), emplace_back() then the fields assigned, std::copy and std::transform into a "
        "std::back_inserter, insert(end(), x), resize(n) then writes by index, construction from an input "
        "range, and clear() then refill of a reused buffer (also with 2^18 elements, for "
        f"{', '.join(LARGE_REFILL_TYPES)}). reserved: reserve(n) first, only the filling timed; growing: from an empty container, "
        "construction and destruction timed. Every implementation runs in the same process, in rotating "
        "order, the median of its rounds per case (bench/idioms_mode.hpp); the ratios are to std::vector. "
        "relo-inplace and boost-static have a capacity of 4096 and skip the larger refill. "
        "tests/hot_loops_test.cpp keeps the push loops within a bound of std::vector's in the test command. Heat maps below: "
        "green faster than std::vector, red slower.",
        PROGRAM, impls, "std", cells, summary=("relo", ["std"]), section=section, bar_charts=False,
        one_process=True, targets=targets)]


def section(experiment, results, out):
    summary = rr.summarize(results, experiment.metric, experiment.baseline)
    by_cell = {cell: per_impl for (exp, cell), per_impl in summary.items() if exp == experiment.name}
    if not by_cell:
        return []
    types = list(dict.fromkeys(cell.split("/")[0] for cell in by_cell))
    cols = [c for c in columns() if any(f"{t}/{c}" in by_cell for t in types)]
    lines = []
    for impl, name in CONTAINERS:
        cells = [(cell, per_impl[impl]["median"]) for cell, per_impl in by_cell.items() if impl in per_impl]
        if not cells:
            continue
        worst = sorted(cells, key=lambda c: -c[1])[:5]
        over = sum(1 for _, r in cells if r > 1.0)
        lines += [f"{name}: {over} of {len(cells)} cells slower than std::vector; the worst: " +
                  ", ".join(f"{cell} {r:.2f}" for cell, r in worst) + ".", ""]
        path = os.path.join(out, f"idioms-{impl}.png")
        if heat_map(by_cell, impl, f"{name} ÷ std::vector", types, cols, path):
            lines += [f"![{name}](idioms-{impl}.png)", ""]
    return lines


def heat_map(by_cell, impl, title, rows, cols, path):
    """One colour per cell: log2 of the ratio to std::vector (green faster, red slower), the ratio written in."""
    plt = rr.pyplot()
    if plt is None:
        return False
    values = [[by_cell.get(f"{r}/{c}", {}).get(impl, {}).get("median", math.nan) for c in cols] for r in rows]
    logs = [[math.log2(v) if v == v and v > 0 else math.nan for v in row] for row in values]
    fig, ax = plt.subplots(figsize=(3 + 0.62 * len(cols), 1.4 + 0.36 * len(rows)))
    ax.imshow(logs, cmap="RdYlGn_r", vmin=-2, vmax=2, aspect="auto")
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize=8)
    for y, row in enumerate(values):
        for x, v in enumerate(row):
            if v == v:
                ax.text(x, y, f"{v:.2f}", ha="center", va="center", fontsize=5.5)
    ax.set_title(title, fontsize=10)
    rr.save_figure(plt, fig, path)
    return True
