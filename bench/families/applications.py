"""The applications family (applications_bench, applications_tree_bench): whole programs, each with only its containers swapped
(std, relo, boost) and on the resource relo::recommend picks from a profile of one run, beside each of
relo's strategies. One configuration per process, rounds interleaved; the section adds each program's
peak resident memory, page faults and the strategy recommended, and (extra runs under `perf record -e
cpu-clock`, where perf is installed and allowed) the share of each configuration's time in allocation and
container code: what switching could gain at most."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from statistics import median

import report as rr
from experiment import Experiment, Target

PROGRAMS = ["applications_bench", "applications_tree_bench"]
ORDER = 90
PROGRAM = "applications_bench"
TREE_PROGRAM = "applications_tree_bench"  # (its own program: llvm::SmallVector loads libLLVM)
STRATEGIES = ["relo-monotonic", "relo-multipool", "relo-multipool-monotonic"]
WHAT = {
    "json": "nlohmann/json: parse a generated document, walk it, dump it (basic_json's array type swapped)",
    "graph": "Boost.Graph: an adjacency_list built edge by edge, then Dijkstra and a breadth-first search "
             "(the edge lists swapped)",
    "sparse": "a sparse matrix built row by row as a vector of rows of (column, value) pairs, then 20 products",
    "index": "an inverted index, unordered_map<string, vector<int>> over a generated text, then 1,000 lookups",
    "tree": "a syntax tree: a generated program of nested expressions parsed into a table of nodes, each "
            "with its operands' indices in a small vector of 4 inline, then evaluated twice (the operand lists "
            "swapped, and the node table for relo and boost)",
}


SMALL_VECTOR_PEERS = ["absl", "llvm"]  # the syntax tree's only


def experiments(ctx):
    programs = list(ctx.types(PROGRAM, "run"))
    impls = ctx.impls(PROGRAM, "run")
    tree_impls = ctx.impls(TREE_PROGRAM, "run")
    scale = ctx.pick({"smoke": 0, "quick": 1, "full": 4})
    reps = ctx.pick({"smoke": 1, "quick": 5, "full": 3})

    def cells(names):
        return [(p, ["run", "--program", p, "--scale", str(scale), "--reps", str(reps)]) for p in names]

    targets = [
        Target("relo's containers ≤ 1.0× the standard's, type swapped only", "relo", "std", 1.0),
        Target("relo-recommended ≤ 1.1× the best of relo's strategies", "relo-recommended", STRATEGIES, 1.1),
    ]
    configurations = ("std: the standard containers; relo: relo's with only the type swapped; boost: "
                      "boost::container's; relo-recommended: relo's containers with every allocation from the "
                      "resource relo::recommend picks from a profile of one run (relo::profiling_resource), a new "
                      "resource for each run: given to the program's own containers as "
                      "relo::resource_allocator<T, R> (sparse, index, tree), and to the libraries that build their "
                      "own allocators (json, graph) through relo::resource_scope and "
                      "relo::current_resource_allocator; relo-monotonic, relo-multipool, relo-multipool-monotonic: "
                      "the same on each of relo's strategies. One configuration per process, rounds interleaved; "
                      "ratios to std.")
    runs = (f"Each case runs the program once untimed, then {reps} times timed (building, using and destroying "
            "its structures). ")
    out = [Experiment(
        "applications", "Whole programs: the standard containers swapped for relo's, and relo's resources",
        "Programs each one function over the containers one configuration uses (bench/applications*.cpp): " +
        "; ".join(f"{p}, {WHAT[p]}" for p in programs if p in WHAT) + ". " + runs + configurations,
        PROGRAM, impls, "std", cells(programs),
        summary=("relo", ["std", "boost"]), section=section, pinned=True, targets=targets)]
    if "tree" in ctx.types(TREE_PROGRAM, "run"):
        out.append(Experiment(
            "applications-tree", "Whole programs: a syntax tree of small vectors",
            f"tree, {WHAT['tree']}. " + runs + configurations + " absl (absl::InlinedVector) and llvm "
            "(llvm::SmallVector), where installed: their small vectors as the operand lists, std::vector as "
            "the node table.",
            TREE_PROGRAM, tree_impls, "std", cells(["tree"]),
            summary=("relo", ["std", "boost"] + [i for i in SMALL_VECTOR_PEERS if i in tree_impls]),
            section=section, pinned=True,
            targets=targets + [Target("relo's containers ≤ 1.0× every other small vector's", "relo",
                                      ["boost"] + [i for i in SMALL_VECTOR_PEERS if i in tree_impls], 1.0)]))
    return out


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
              f"{recommended_wins} of these {len(programs)} programs take at most 0.8× the standard "
              "configuration's time (the target: at least half of the family's programs).", ""]
    return lines + interval_lines(experiment, results, programs)


def interval_lines(experiment, results, programs):
    """How precise the medians are: each program's ratio to std's with a confidence interval of the
    median, from the rounds' ratios (report.median_interval)."""
    ratios = rr.paired_ratios(results, experiment.metric, experiment.baseline)
    parts, coverages = [], []
    for program in programs:
        for impl in ("relo", "relo-recommended"):
            values = ratios.get((experiment.name, program), {}).get(impl)
            if not values:
                continue
            low, high, coverage = rr.median_interval(values)
            coverages.append(coverage)
            parts.append(f"{program} {impl} {median(values):.3f} [{low:.3f}, {high:.3f}]")
    if not parts:
        return []
    return [f"The medians' precision: time ÷ std's and an interval that holds the true median with at least "
            f"{min(coverages):.0%} confidence (order statistics of the rounds' ratios: below 9 rounds, the "
            "rounds' whole range; more rounds narrow it): " + "; ".join(parts) + ".", ""]


# ---- where the time goes: one run of each program under perf, its samples sorted by kind of code

SAMPLED = ["std", "relo", "relo-recommended"]
KINDS = ["allocation", "page faults", "container", "program"]
# Kinds of code by function name (its template arguments and parameters left out: a program's function
# instantiated for relo::vector is the program's). Allocation: the C library's allocator, operator
# new/delete, relo's allocators and resources.
ALLOCATION = re.compile(r"malloc|^free$|cfree|_int_|unlink_chunk|consolidate|tcache|sysmalloc|realloc|"
                        r"operator new|operator delete|relo::page_allocator::|relo::monotonic_resource::|"
                        r"relo::multipool_resource::|relo::synchronized_multipool_resource::|"
                        r"relo::current_resource_allocator::|relo::profiling_resource::|relo::resource_allocator::|"
                        r"relo::detail::(chunk|take_chunk|give_back|large_block|pool|multipool|profil)|"
                        r"memory_resource::do_")
# Container code left out of line: growth, relocation, the vectors' own functions, memmove and memcpy.
CONTAINER = re.compile(r"std::vector::|relo::vector::|boost::container::vector::|relo::detail::block_ops::|"
                       r"relo::detail::(relocat|transfer|uninit|sequence)|_M_realloc_insert|_M_default_append|"
                       r"memmove|memcpy")


def function_name(symbol):
    """A demangled symbol without its template arguments and parameters."""
    name = symbol.replace("(anonymous namespace)", "{anonymous}").replace("operator()", "operator{call}")
    previous = None
    while previous != name:
        previous, name = name, re.sub(r"<[^<>]*>", "", name)
    return re.sub(r"\(.*", "", name).replace("operator{call}", "operator()").strip()


def sample_shares(path, argv, impl):
    """The shares of one run's cpu-clock samples (percent by kind), or None when perf cannot sample."""
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        record = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-o", data, path] + argv + ["--impl", impl],
                                capture_output=True, text=True)
        if record.returncode != 0 or not os.path.exists(data):
            return None
        report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", "dso,sym"],
                                capture_output=True, text=True).stdout
    return shares_of_report(report)


def shares_of_report(report):
    """The shares (percent by kind) in the text of `perf report --stdio --no-children --sort dso,sym`, or
    None when it holds no sample."""
    shares = dict.fromkeys(KINDS, 0.0)
    for line in report.splitlines():
        m = re.match(r"\s+([\d.]+)%\s+(\S+)\s+\[([.k])\]\s+(.*)", line)
        if not m:
            continue
        percent, kernel, symbol = float(m.group(1)), m.group(3) == "k", function_name(m.group(4))
        if kernel:  # these programs enter the kernel for their memory: faults, brk, mmap, munmap
            shares["page faults"] += percent
        elif CONTAINER.search(symbol):  # (first: block_ops::reallocate is the container's)
            shares["container"] += percent
        elif ALLOCATION.search(symbol):
            shares["allocation"] += percent
        else:
            shares["program"] += percent
    return shares if sum(shares.values()) > 0 else None


def extra_runs(ctx, ran, runner):
    """Each program that ran, once under perf record for the configurations of SAMPLED, and its
    instructions per timed run under cachegrind (instruction_counts)."""
    return sample_runs(ran, runner) + instruction_counts(ctx, ran, runner)


def sample_runs(ran, runner):
    """Each program that ran, once under perf record for the configurations of SAMPLED."""
    if shutil.which("perf") is None:
        return [{"experiment": "applications-shares", "cell": "-", "impl": "-", "round": 0, "extra": True,
                 "unavailable": "perf is not installed"}]
    out = []
    for e, label, argv, impl in cases_that_ran(ran, SAMPLED):
        out.append(extra_row("applications-shares", label, impl, "shares",
                             sample_shares(runner.path(e.program), argv, impl),
                             "perf record failed (perf_event_paranoid, or no perf for this kernel)"))
    return out


def extra_row(experiment, label, impl, field, value, why):
    """An extra run's result: `field` holds the value, or `unavailable` says why there is none."""
    r = {"experiment": experiment, "cell": label, "impl": impl, "round": 0, "extra": True}
    if value is None:
        r["unavailable"] = why
    else:
        r[field] = value
    return r


def cases_that_ran(ran, impls):
    """(experiment, cell label, argv, configuration) of each of the family's cells that ran, for each of
    `impls` the experiment has."""
    for e, labels in ran:
        if not e.name.startswith("applications"):
            continue
        for label, argv in e.cells:
            if label in labels:
                for impl in [i for i in impls if i in e.impls]:
                    yield e, label, list(argv), impl


# ---- instructions: what a timed run executes, counted (deterministic where the time is not)

COUNTED = ["std", "relo", "boost", "relo-recommended", "absl", "llvm"]


def instructions_of(output):
    """The instructions valgrind --tool=cachegrind counted ("I refs"), from its report, or None."""
    m = re.search(r"I\s+refs:\s+([\d,]+)", output)
    return int(m.group(1).replace(",", "")) if m else None


def with_reps(argv, reps):
    """A case's argv with its timed runs set to `reps`."""
    out = list(argv)
    if "--reps" in out:
        out[out.index("--reps") + 1] = str(reps)
    else:
        out += ["--reps", str(reps)]
    return out


def counted_instructions(path, argv, impl):
    """The instructions of one timed run of a case: the whole process with two timed runs less the whole
    process with one (the input's generation, the untimed run and the process's start cancel out)."""
    counts = []
    for reps in (1, 2):
        try:
            run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                                  path] + with_reps(argv, reps) + ["--impl", impl], capture_output=True, text=True,
                                 timeout=900)
        except subprocess.TimeoutExpired:
            return None
        counts.append(instructions_of(run.stderr) if run.returncode == 0 else None)
    if None in counts or counts[1] <= counts[0]:
        return None
    return counts[1] - counts[0]


# The programs built for valgrind (bench/CMakeLists.txt: x86-64-v3, no AVX-512), by the timed one's name.
COUNTED_PROGRAMS = {PROGRAM: "applications_counted_bench", TREE_PROGRAM: "applications_tree_counted_bench"}


def instruction_counts(ctx, ran, runner):
    """Each program's instructions per timed run under cachegrind, for the configurations of COUNTED, in its
    build for valgrind; not at the smoke scale (valgrind runs each program about 30 times slower)."""
    if ctx.mode == "smoke":
        return []
    why = None
    if shutil.which("valgrind") is None:
        why = "valgrind is not installed"
    elif not all(os.path.exists(runner.path(p)) for p in COUNTED_PROGRAMS.values()):
        why = "the programs for valgrind were not built (`cmake --build <dir> --target relo_bench_counted`)"
    elif any(os.path.getmtime(runner.path(c)) < os.path.getmtime(runner.path(t))
             for t, c in COUNTED_PROGRAMS.items() if os.path.exists(runner.path(t))):
        why = "the programs for valgrind are older than the timed ones (`cmake --build <dir> --target relo_bench_counted`)"
    if why:
        return [{"experiment": "applications-instructions", "cell": "-", "impl": "-", "round": 0, "extra": True,
                 "unavailable": why}]
    out = []
    for e, label, argv, impl in cases_that_ran(ran, COUNTED):
        out.append(extra_row("applications-instructions", label, impl, "instructions",
                             counted_instructions(runner.path(COUNTED_PROGRAMS[e.program]), argv, impl),
                             "valgrind failed, timed out or counted no more for two timed runs than for one"))
    return out


def instructions_section(extra):
    """The instructions per timed run, beside std's: a ratio that does not vary from run to run."""
    rows = [r for r in extra if r.get("experiment") == "applications-instructions"]
    if not rows:
        return []
    lines = ["## Whole programs: instructions", ""]
    counted = {(r["cell"], r["impl"]): r["instructions"] for r in rows if "instructions" in r}
    if not counted:
        return lines + [f"Not counted: {rows[0].get('unavailable', 'valgrind failed')}.", ""]
    impls = [i for i in COUNTED if any(k[1] == i for k in counted)]
    lines += ["Instructions of one timed run of each program (`valgrind --tool=cachegrind`: the process with two "
              "timed runs less the process with one; the programs built alike but for x86-64-v3, as valgrind "
              "decodes no AVX-512, so the code counted is close to the code timed, not the same), ÷ std's, with "
              "std's count: counted the same in every run. A time ratio far from its instruction ratio points at "
              "memory and branches (page faults, cache misses) rather than at the instructions executed.", "",
              "| program | std | " + " | ".join(i for i in impls if i != "std") + " |",
              "|---|---:|" + "---:|" * (len(impls) - 1)]
    for program in dict.fromkeys(k[0] for k in counted):
        base = counted.get((program, "std"))
        cells = [f"{base:,}" if base else "–"]
        for impl in impls:
            if impl == "std":
                continue
            n = counted.get((program, impl))
            cells.append(f"{n / base:.3f}" if n is not None and base else "–")
        lines.append(f"| {program} | " + " | ".join(cells) + " |")
    return lines + [""]


def extra_section(ctx, extra, out):
    return shares_section(extra) + instructions_section(extra)


def shares_section(extra):
    rows = [r for r in extra if r.get("experiment") == "applications-shares"]
    if not rows:
        return []
    lines = ["## Whole programs: where the time goes", ""]
    sampled = [r for r in rows if "shares" in r]
    if not sampled:
        return lines + [f"Not sampled: {rows[0].get('unavailable', 'perf failed')}.", ""]
    lines += ["One run of each program under `perf record -e cpu-clock` (the case's own argv, the untimed input "
              "generation included), its samples sorted by the symbol they fall in: allocation (the C "
              "library's allocator, operator new/delete, relo's allocators and resources), page faults (the "
              "kernel: faults and mappings), container (vector functions left out of line, relocation, "
              "memmove), program (everything else, with what the compiler inlined into it: pushes, and a "
              "resource's allocation where it is inline). Percent of the "
              "run's samples. A program spending a few percent in allocation cannot gain more than that "
              "from a resource.", "",
              "| program | configuration | " + " | ".join(KINDS) + " |", "|---|---|" + "---:|" * len(KINDS)]
    for r in sampled:
        lines.append(f"| {r['cell']} | {r['impl']} | " + " | ".join(f"{r['shares'][k]:.0f}%" for k in KINDS) + " |")
    return lines + [""]
