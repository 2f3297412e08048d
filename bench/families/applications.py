"""The applications family (applications_bench): whole programs, each with only its containers swapped
(std, relo, boost) and on the resource relo::recommend picks from a profile of one run, beside each of
relo's strategies. One configuration per process, rounds interleaved; the section adds each program's
peak resident memory, page faults and the strategy recommended."""
from __future__ import annotations

from statistics import median

import report as rr
from experiment import Experiment, Target

PROGRAMS = ["applications_bench"]
ORDER = 90
PROGRAM = "applications_bench"
STRATEGIES = ["relo-monotonic", "relo-multipool", "relo-multipool-monotonic"]
WHAT = {
    "json": "nlohmann/json: parse a generated document, walk it, dump it (basic_json's array type swapped)",
    "graph": "Boost.Graph: an adjacency_list built edge by edge, then Dijkstra and a breadth-first search "
             "(the edge lists swapped)",
    "sparse": "a sparse matrix built row by row as a vector of rows of (column, value) pairs, then 20 products",
    "index": "an inverted index, unordered_map<string, vector<int>> over a generated text, then 1,000 lookups",
}


def experiments(ctx):
    programs = list(ctx.types(PROGRAM, "run"))
    impls = ctx.impls(PROGRAM, "run")
    scale = ctx.pick({"smoke": 0, "quick": 1, "full": 4})
    reps = ctx.pick({"smoke": 1, "quick": 3, "full": 3})
    cells = [(p, ["run", "--program", p, "--scale", str(scale), "--reps", str(reps)]) for p in programs]
    targets = [
        Target("relo's containers ≤ 1.0× the standard's, type swapped only", "relo", "std", 1.0),
        Target("relo-recommended ≤ 1.1× the best of relo's strategies", "relo-recommended", STRATEGIES, 1.1),
    ]
    return [Experiment(
        "applications", "Whole programs: the standard containers swapped for relo's, and relo's resources",
        "Four programs, each one function over the containers one configuration uses "
        "(bench/applications*.cpp): " + "; ".join(f"{p}, {WHAT[p]}" for p in programs if p in WHAT) +
        f". Each case runs the program once untimed, then {reps} times timed (building, using and destroying "
        "its structures). std: the standard containers; relo: relo's with only the type swapped; boost: "
        "boost::container's; relo-recommended: relo's "
        "containers with every allocation from the resource relo::recommend picks from a profile of one run "
        "(relo::profiling_resource), through relo::resource_scope and relo::current_resource_allocator, a new "
        "resource for each run; relo-monotonic, relo-multipool, relo-multipool-monotonic: the same on each of "
        "relo's strategies. One configuration per process, rounds interleaved; ratios to std.",
        PROGRAM, impls, "std", cells, summary=("relo", ["std", "boost"]), section=section, pinned=True,
        targets=targets)]


def section(experiment, results, out):
    mine = [r for r in results if r.get("experiment") == experiment.name and "time_s" in r]
    if not mine:
        return []
    summary = rr.summarize(results, experiment.metric, experiment.baseline)
    programs = list(dict.fromkeys(r["cell"] for r in mine))
    impls = [i for i in experiment.impls if any(r["impl"] == i for r in mine)]
    per = {}
    for r in mine:
        per.setdefault((r["cell"], r["impl"]), []).append(r)
    lines = ["Per program and configuration: time ÷ std's (medians of the rounds' ratios), peak resident "
             "memory (MiB) and minor page faults of the process (medians):", "",
             "| program | " + " | ".join(impls) + " |", "|---|" + "---:|" * len(impls)]
    recommended_wins = 0
    strategies = []
    for program in programs:
        cells = []
        for impl in impls:
            runs = per.get((program, impl), [])
            if not runs:
                cells.append("–")
                continue
            ratio = summary.get((experiment.name, program), {}).get(impl, {}).get("median")
            rss = median(r.get("max_rss_kb", 0) for r in runs) / 1024
            faults = median(r.get("minor_faults", 0) for r in runs)
            text = f"{ratio:.2f}" if ratio is not None else "?"
            cells.append(f"{text} ({rss:.0f} MiB, {faults:,.0f})")
            if impl == "relo-recommended":
                chosen = sorted({r.get("strategy", "?") for r in runs})
                strategies.append(f"{program}: {', '.join(chosen)}")
                if ratio is not None and ratio <= 0.8:
                    recommended_wins += 1
        lines.append(f"| {program} | " + " | ".join(cells) + " |")
    lines += ["", f"relo::recommend chose: {'; '.join(strategies)}. With the recommended resource, "
              f"{recommended_wins} of {len(programs)} programs take at most 0.8× the standard configuration's "
              "time (the target: at least half of them).", ""]
    return lines
