"""P0089's benchmark I (structures_bench): creating and destroying isolated data structures DS1..DS12 under
the paper's allocation strategies AS1..AS14, beside the standard's and Boost's resources and other global
allocators, with the paper's own results (bench/data/p0089_benchmark1.json) beside this machine's.
"""
from __future__ import annotations

import json
import math
import os

import report as rr
from experiment import Experiment, Target

PROGRAMS = ["structures_bench"]
ORDER = 55
PROGRAM = "structures_bench"
STRATEGIES = [f"AS{i}" for i in range(1, 15)]
NAMES = ["vector<int>", "vector<string>", "unordered_set<int>", "unordered_set<string>",
         "vector<vector<int>>", "vector<vector<string>>", "vector<unordered_set<int>>",
         "vector<unordered_set<string>>", "unordered_set<vector<int>>", "unordered_set<vector<string>>",
         "unordered_set<unordered_set<int>>", "unordered_set<unordered_set<string>>"]
PAPER_LEAVES_LOG = 27
# AS1's nanoseconds per leaf at 2^10 elements (structures_bench, 2026-11-23, AMD EPYC family 25 model 1,
# THP madvise): the estimate of a long run.
NS_PER_LEAF = [2.0, 84, 86, 307, 6.9, 185, 96, 762, 12, 294, 167, 879]
STRATEGY_NAMES = ("AS1 global allocator, AS2 the same through std::pmr::memory_resource; relo's monotonic "
                  "(AS3-AS6), multipool (AS7-AS10) and multipool over monotonic (AS11-AS14), each bound at "
                  "compile time (odd pairs: AS3/AS4, AS7/AS8, AS11/AS12) and at run time, each destroyed or "
                  "winked out (even numbers)")


# The other allocators of benchmark I's summary and targets: the global allocators (directly, through
# std::pmr, or preloaded) and the standard's and Boost's resources.
OTHERS = ["AS1", "AS2", "std-pool", "std-monotonic", "boost-pool", "boost-monotonic",
          "AS1+jemalloc", "AS1+mimalloc", "AS1+tcmalloc"]

# Benchmark I's targets (docs/measurements/p0089_benchmarks.md): a resource made for one structure must cost less than
# the mallocs it replaces; binding at compile time must never be slower than through the abstract base;
# the abstract base within 1.1x of binding at compile time.
TARGETS = [
    Target("relo's best strategy ≤ 1.1× floor-cold (allocation at no cost, pages faulted in once)", STRATEGIES[2:],
           "floor-cold", 1.1),
    # (Against the warm floor only where every strategy starts warm too: structures-warm.)
    Target("relo's best strategy ≤ 1.0× the best other allocator", STRATEGIES[2:], OTHERS, 1.0),
    Target("AS7 (multipool, compile time) ≤ 1.0× AS1 (malloc)", "AS7", "AS1", 1.0),
    Target("AS3 (monotonic, compile time) ≤ 1.0× AS5 (the same at run time)", "AS3", "AS5", 1.0),
    Target("AS9 (multipool through std::pmr::memory_resource*) ≤ 1.1× AS7", "AS9", "AS7", 1.1),
    # relo::recommend, from a profile of one build (relo::profiling_resource), against what was measured.
    Target("the recommended strategy ≤ 1.1× relo's best strategy", "recommended", STRATEGIES[2:], 1.1),
    Target("the recommended strategy ≤ 1.1× the global allocator (AS1)", "recommended", "AS1", 1.1),
]


def paper():
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "p0089_benchmark1.json")
    with open(path) as f:
        return json.load(f)["tables"]


def leaves_log(ctx, ds):
    """The paper's 2^27 leaves per case under --full; by default as many as AS1 builds in about 25 ms (so
    that no case is too short to time), from 2^14 leaves (DS12) to 2^24 (DS1)."""
    quick = min(24, max(14, round(math.log2(0.025 / (NS_PER_LEAF[ds - 1] * 1e-9)))))
    return ctx.pick({"smoke": 10, "quick": quick, "full": PAPER_LEAVES_LOG})


def sizes(ctx, ds):
    if ctx.mode == "smoke":
        return [6]
    if ctx.mode == "full":
        return list(range(6, 17))
    return [6, 10, 16] if ds <= 4 else [6, 10]


def impls(ctx):
    available = ctx.impls(PROGRAM, "run")
    peers = [i for i in ("floor", "floor-cold", "std-pool", "std-monotonic", "boost-pool", "boost-monotonic") if i in available]
    return STRATEGIES + ["recommended"] + peers + [f"AS1+{a}" for a in ctx.allocators]


def label(size_log):
    return f"2^{size_log}"


def experiments(ctx):
    every = impls(ctx)
    peers = [i for i in every if i in ("AS1", "AS2") or i.startswith("AS1+")
             or not i.startswith("AS") and not i.startswith("floor") and i != "recommended"]
    out = []
    for ds in range(1, 13):
        cells = [(label(n), ["run", "--ds", str(ds), "--size-log", str(n), "--leaves-log", str(leaves_log(ctx, ds))])
                 for n in sizes(ctx, ds)]
        leaves = 2 ** leaves_log(ctx, ds)

        def expected(_label, ds=ds, leaves=leaves):
            return NS_PER_LEAF[ds - 1] * 1e-9 * leaves + 0.01

        out.append(Experiment(
            f"structures-DS{ds}", f"P0089 benchmark I, DS{ds}: {NAMES[ds - 1]}",
            f"Built and destroyed 2^(L - n) times at 2^n elements (DS5-DS12: 2^7 leaves per element, so "
            f"2^(L - 7 - n) times, at least once), L = {leaves_log(ctx, ds)} here and {PAPER_LEAVES_LOG} in the paper "
            f"(--full). Strategies: {STRATEGY_NAMES}. std-pool and std-monotonic are std::pmr's unsynchronized "
            "pool and monotonic buffer resources, boost-* Boost.Container's, in the AS9/AS5 roles; AS1+X is AS1 "
            "under another global allocator; floor is allocation at no cost (a bump pointer over memory an "
            "untimed first build faulted in, never freeing), floor-cold the same with its pages faulted in by "
            "the first timed build, the limit of any strategy in a fresh process.",
            PROGRAM, every, "AS1", cells, summary=(STRATEGIES[2:], peers), section=section, bar_charts=False,
            expected_seconds=expected, targets=TARGETS))
    warm_cells = [(f"DS{ds}/{label(n)}", ["run", "--ds", str(ds), "--size-log", str(n), "--leaves-log",
                                          str(leaves_log(ctx, ds)), "--warm", "1"]) for ds, n in WARM_CELLS]
    warm_peers = [i for i in peers if i != "AS2"]
    out.append(Experiment(
        "structures-warm", "P0089 benchmark I after a first build: warm memory",
        "The cells of benchmark I where the warm floor and the cold one differ most (structures of 2 to 20 MiB "
        "built once or a few times), with one untimed build and destruction first for every strategy, as a "
        "long-lived program has made before: what each strategy keeps warm for the next structure. floor: "
        "allocation at no cost over warm memory.",
        PROGRAM, ["floor", "AS1", "AS3", "AS4", "AS7", "AS8"] + warm_peers[1:], "AS1", warm_cells,
        summary=(["AS3", "AS4", "AS7", "AS8"], warm_peers),
        targets=[Target("relo's best strategy ≤ 1.25× floor (allocation at no cost over warm memory)",
                        ["AS3", "AS4", "AS7", "AS8"], "floor", 1.25),
                 Target("relo's best strategy ≤ 1.0× the best other allocator", ["AS3", "AS4", "AS7", "AS8"],
                        OTHERS, 1.0)]))
    out.append(Experiment(
        "chunk-cache-tuning", "Tuning: relo::chunk_cache_limit()",
        "The chunks each thread keeps for its next local resources: 8 MiB (the default) against none (cache0), "
        "1 MiB and 64 MiB, for the monotonic (AS3) and multipool (AS7) strategies, on the structures whose "
        "resources hold from a few KiB to tens of MiB.",
        PROGRAM, ["AS7", "AS7-cache0", "AS7-cache1m", "AS7-cache64m", "AS3", "AS3-cache0", "AS3-cache1m",
                  "AS3-cache64m"], "AS7",
        [(f"DS{ds}/{label(n)}", ["run", "--ds", str(ds), "--size-log", str(n), "--leaves-log",
                                 str(leaves_log(ctx, ds))]) for ds, n in TUNING_CELLS],
        tuning=True, section=memory_section))
    return out


TUNING_CELLS = [(2, 6), (2, 12), (2, 16), (3, 10), (3, 16), (6, 6), (6, 10), (8, 8), (12, 6)]
# Where the floors differ most (the run of 2026-11-25 in docs/measurements/p0089_benchmarks.md: warm floor
# 2.8-15x below the cold one).
WARM_CELLS = [(2, 16), (3, 16), (6, 10), (7, 10), (11, 10), (12, 10)]


def memory_section(experiment, results, out):
    return rr.metric_table(experiment, results, "max_rss_kb", lambda kb: f"{kb / 1024:.1f}",
                           "Peak resident memory of the process, MiB (median):")


def _ds_of(experiment):
    return int(experiment.name.rsplit("DS", 1)[1])


def section(experiment, results, out):
    ds = _ds_of(experiment)
    summary = rr.summarize(results, experiment.metric, experiment.baseline)
    rows = [label(n) for n in range(6, 17) if (experiment.name, label(n)) in summary]
    if not rows:
        return []
    table = paper()[f"DS{ds}"]
    lines = []
    # The paper's ratios to AS1, beside this run's, for the rows both have.
    lines += ["The paper's ratios to AS1 (its Table " + str(ds + 2) + ", seconds divided by AS1's), for the same "
              "sizes:", "",
              "| size | " + " | ".join(STRATEGIES[1:]) + " |", "|---|" + "---:|" * (len(STRATEGIES) - 1)]
    for row in rows:
        seconds = table[row.split("^")[1]]
        lines.append(f"| {row} | " + " | ".join(f"{s / seconds[0]:.2f}" for s in seconds[1:]) + " |")
    lines.append("")
    # This run in the paper's unit: seconds for 2^27 leaves.
    per_leaf = {}
    for r in results:
        if r.get("leaves"):
            per_leaf.setdefault((r["cell"], r["impl"]), []).append(r["time_s"] / r["leaves"])
    present = [i for i in experiment.impls if any((row, i) in per_leaf for row in rows)]
    lines += ["This run in the paper's unit (seconds for 2^27 leaves: the median time per leaf × 2^27):", "",
              "| size | " + " | ".join(present) + " |", "|---|" + "---:|" * len(present)]
    for row in rows:
        cells = [f"{rr.median(per_leaf[(row, i)]) * 2 ** PAPER_LEAVES_LOG:.2f}" if (row, i) in per_leaf else "–"
                 for i in present]
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    lines.append("")
    chosen = {}
    for r in results:
        if r.get("recommended_as"):
            chosen.setdefault(r["cell"], r["recommended_as"])
    if chosen:
        lines += ["What relo::recommend chose from a profile of one build (relo::profiling_resource), by size: " +
                  ", ".join(f"{row} {chosen[row]}" for row in rows if row in chosen) + ".", ""]
    name = f"{experiment.name}.png"
    if heat_map(experiment, summary, rows, table, os.path.join(out, name)):
        lines += [f"![{experiment.name}]({name})", ""]
    return lines


def heat_map(experiment, summary, rows, table, path):
    """Two panels: this run's ratios to AS1 (every implementation) and the paper's (AS1..AS14), one colour
    scale (log2 of the ratio: green faster than AS1, red slower)."""
    plt = rr.pyplot()
    if plt is None:
        return False
    impls = [i for i in experiment.impls if any(i in summary[(experiment.name, r)] for r in rows)]
    ours = [[summary[(experiment.name, r)][i]["median"] if i in summary[(experiment.name, r)] else math.nan
             for i in impls] for r in rows]
    theirs = [[s / table[r.split("^")[1]][0] for s in table[r.split("^")[1]]] for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(4 + 0.55 * (len(impls) + 14), 1.6 + 0.42 * len(rows)),
                             gridspec_kw={"width_ratios": [len(impls), 14]})
    for ax, values, columns, title in ((axes[0], ours, impls, "this machine"),
                                       (axes[1], theirs, STRATEGIES, "P0089 (2015)")):
        logs = [[math.log2(v) if v == v and v > 0 else math.nan for v in row] for row in values]
        ax.imshow(logs, cmap="RdYlGn_r", vmin=-3, vmax=3, aspect="auto")
        ax.set_xticks(range(len(columns)))
        ax.set_xticklabels(columns, rotation=60, ha="right", fontsize=7)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels(rows, fontsize=8)
        ax.set_title(f"{title}: time ÷ AS1", fontsize=9)
        for y, row in enumerate(values):
            for x, v in enumerate(row):
                if v == v:
                    ax.text(x, y, f"{v:.2f}", ha="center", va="center", fontsize=6)
    fig.suptitle(experiment.title, fontsize=10)
    rr.save_figure(plt, fig, path)
    return True
