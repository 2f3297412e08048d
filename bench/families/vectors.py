"""The vector family (vector_bench): relo::vector against std::vector and the other growable vectors.

The 2021 thesis's environment, the foresight floor, the latency of single push_backs, the POD
slides' loops, polymorphic memory resources and other global allocators.
"""
from __future__ import annotations

import os

import report as rr
from experiment import Experiment, Target, relo_against_peers, size_label

PROGRAMS = ["vector_bench"]
ORDER = 10
PROGRAM = "vector_bench"
KIB, MIB = 1 << 10, 1 << 20


def push_only_iterations(element_size, vectors, scale):
    """Iterations of push-only giving about `scale` bytes of elements: each iteration pushes on average
    50·i elements into (vectors/3 + 2)/2 vectors."""
    elements = scale / element_size
    repeats = (vectors // 3 + 2) / 2
    # The first `vectors` iterations only construct the vectors.
    return vectors + max(20, int((2 * elements / (50 * repeats)) ** 0.5))


def env_cells(ctx):
    """The environment's cells: push-only with 1, 10, 50 and 100 vectors, push-cons-dest and all."""
    sizes = ctx.types(PROGRAM, "env")
    scale = ctx.pick({"smoke": 256 * KIB, "quick": 48 * MIB, "full": 400 * MIB})
    mixed_iterations = ctx.pick({"smoke": 40, "quick": 500, "full": 2000})
    types = ["int", "array", "test_type", "string"]
    cells = []
    for t in types:
        for k in (1, 10, 50, 100):
            it = push_only_iterations(sizes[t], k, scale)
            cells.append((f"push-only/{t}/{k}", ["env", "--type", t, "--suite", "push-only", "--vectors", str(k),
                                                 "--iterations", str(it)]))
    for suite in ("push-cons-dest", "all"):
        for t in types:
            it = mixed_iterations if sizes[t] <= 8 else mixed_iterations * 3 // 5
            cells.append((f"{suite}/{t}", ["env", "--type", t, "--suite", suite, "--iterations", str(it)]))
    return cells


def warm_heap_cells(ctx, cells):
    """The push-only cells with the heap's top pinned: 10 and 100 vectors in the quick suite, all in --full."""
    counts = ctx.pick({"smoke": ("10",), "quick": ("10", "100"), "full": ("1", "10", "50", "100")})
    return [(label, args + ["--pin-top", "1"]) for label, args in cells
            if label.startswith("push-only/") and label.split("/")[2] in counts]


def loop_cells(ctx):
    """The POD slides' loops: a fresh vector and n push_backs, repeated to about the same total."""
    sizes = ctx.pick({"smoke": [10, 1000], "quick": [10, 100, 1000, 10 ** 5, 10 ** 6],
                      "full": [10, 100, 1000, 10 ** 5, 10 ** 6]})
    total = ctx.pick({"smoke": 10 ** 5, "quick": 2 * 10 ** 7, "full": 10 ** 8})
    return [(f"{t}/n={n}", ["loops", "--type", t, "--n", str(n), "--reps", str(max(1, total // n))])
            for t in ctx.types(PROGRAM, "loops") for n in sizes]


def foresight_cells(ctx):
    sizes = ctx.pick({"smoke": [10 ** 5], "quick": [10 ** 6, 10 ** 7, 10 ** 8], "full": [10 ** 6, 10 ** 7, 10 ** 8]})
    return [(f"n={n:.0e}".replace("+0", ""), ["push", "--n", str(n)]) for n in sizes]


def peers(ctx):
    """The optional vector peers this build has."""
    return [p for p in ctx.optional(PROGRAM) if p in ctx.impls(PROGRAM, "env")]


def _push_only(types, vectors):
    def covers(cell):
        parts = cell.split("/")  # push-only/<type>/<vectors>; the other suites have no count
        return len(parts) == 3 and parts[0] == "push-only" and parts[1] in types and parts[2] in vectors
    return covers


# relo::vector's targets (docs/vector_performance.md): with 50 and 100 vectors the int and array cells sit
# at the measured floor of the kernel zeroing fresh pages, which the project accepts.
ENV_TARGETS = [
    Target("push-only, int and array, 1 and 10 vectors: relo ≤ 0.40× std::vector", "relo", "std", 0.40,
           _push_only(("int", "array"), ("1", "10"))),
    Target("push-only, string and test type, 1 and 10 vectors: relo ≤ 0.75× std::vector", "relo", "std", 0.75,
           _push_only(("string", "test_type"), ("1", "10"))),
    Target("every other cell: relo ≤ 1.0× std::vector", "relo", "std", 1.0,
           lambda c: not _push_only(("int", "array", "string", "test_type"), ("1", "10"))(c)
           and not _push_only(("int", "array"), ("50", "100"))(c)),
]


# The fault rule every vector experiment in one process or many holds relo to: no more minor page faults
# than std::vector in the same program state (a tenth and 100 pages of slack for the runs' own noise).
FAULTS_TARGET = Target("minor page faults ≤ 1.1× std::vector's + 100 in every cell", "relo", "std", 1.1,
                       metric="minor_faults", allowance=100)


def churn_scale(ctx):
    """At least this many builds per cell, and about this many elements in all: a cell of 10^3 elements
    built 4 times took 6-25 µs, which the clock and the VM's noise decided (ratios of 0.7-1.8 across rounds)."""
    return (ctx.pick({"smoke": 2, "quick": 4, "full": 8}),
            ctx.pick({"smoke": 10 ** 4, "quick": 4 * 10 ** 6, "full": 8 * 10 ** 6}))


def churn_cells(ctx):
    """Build a vector of n elements by push_back and destroy it, again and again (after two untimed rounds)."""
    sizes = ctx.pick({"smoke": [10 ** 3, 10 ** 4], "quick": [10 ** 3, 10 ** 5, 10 ** 6],
                      "full": [10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6]})
    rounds, elements = churn_scale(ctx)
    return [(f"{t}/{size_label(n)}", ["churn", "--type", t, "--n", str(n), "--rounds", str(max(rounds, elements // n))])
            for t in ctx.types(PROGRAM, "churn") for n in sizes]


def against_fastest(optional):
    """The target every cell of relo::vector's experiments meets: at most the fastest of std::vector and
    the optional vector peers built in (the thesis's uwr::vector, rvector, ...)."""
    return Target("every cell: relo ≤ 1.0× the fastest of std::vector and the optional vector peers built in ("
                  + (", ".join(optional) or "none") + ")", "relo", ["std"] + optional, 1.0)


def experiments(ctx):
    optional = peers(ctx)
    impls = ["std", "boost-gf2", "boost", "relo"] + optional
    cells = env_cells(ctx)
    churn_impls = ctx.impls(PROGRAM, "churn")
    scale = ctx.pick({"smoke": 256 * KIB, "quick": 48 * MIB, "full": 400 * MIB})
    mixed_iterations = ctx.pick({"smoke": 40, "quick": 500, "full": 2000})
    relocatable_size = ctx.types(PROGRAM, "env")["T_test_type"]
    relocatable = [(f"push-only/T_test_type/{k}", ["env", "--type", "T_test_type", "--suite", "push-only", "--vectors",
                                                    str(k), "--iterations",
                                                    str(push_only_iterations(relocatable_size, k, scale))])
                   for k in (1, 10)]
    relocatable.append(("push-cons-dest/T_test_type", ["env", "--type", "T_test_type", "--suite", "push-cons-dest",
                                                       "--iterations", str(mixed_iterations)]))
    latency_sizes = ctx.pick({"smoke": [10 ** 4], "quick": [10 ** 6, 10 ** 7], "full": [10 ** 6, 10 ** 7, 10 ** 8]})
    push_impls = ["std-reserve", "std", "relo", "malloc-realloc"] + optional
    latency_impls = ["std", "boost-gf2", "relo"] + optional
    boost_pmr = [p for p in ("boost-pmr-pool", "boost-pmr-monotonic") if p in ctx.impls(PROGRAM, "env")]
    pmr_impls = ["std", "std-pmr", "std-pmr-pool", "std-pmr-monotonic"] + boost_pmr + \
        ["relo-pmr-pool", "relo-pmr-monotonic", "relo"]
    allocators = ctx.allocators
    global_impls = ["std"] + [f"std+{a}" for a in allocators] + ["relo"] + [f"relo+{a}" for a in allocators]
    loops = loop_cells(ctx)

    def chosen(names):
        return [c for c in cells + loops if c[0] in names]

    return [
        Experiment(
            "vector-env", "The thesis's vector environment",
            "The 2021 thesis, section 4.1: push-only with 1, 10, 50 and 100 vectors, push-cons-dest and all, for int, "
            "std::array<int,10>, an 8-byte non-trivial test type and empty std::string; the same random seeds "
            "for every implementation. boost-gf2 is boost::container::vector with growth factor 2, as the thesis "
            "configured it.", PROGRAM, impls, "std", cells,
            summary=relo_against_peers(impls), chart_by=lambda cell: cell.split("/")[0],
            section=faults_section(ctx), targets=ENV_TARGETS + [against_fastest(optional), FAULTS_TARGET]),
        Experiment(
            "vector-env-long", "The thesis's vector environment in a long-lived process",
            "The same cells, every implementation in one process (bench/support/heap_history.hpp): first a "
            "heap with a history (a 24 MiB block freed, which raises glibc's mmap threshold to 24 MiB for the "
            "rest of the process; 20,000 strings and 2,000 small vectors alive), then the implementations in "
            "turn, twice, other allocations between any two runs; the second turn is measured. What a "
            "program that has run for a while sees: its memory is warm, and glibc keeps blocks up to 24 MiB "
            "in its heap.", PROGRAM, impls, "std", cells, summary=relo_against_peers(impls),
            chart_by=lambda cell: cell.split("/")[0], one_process=True, section=faults_section(ctx),
            targets=[against_fastest(optional), FAULTS_TARGET]),
        Experiment(
            "vector-env-warm-heap", "The thesis's vector environment in a long-lived process whose heap keeps "
            "what it frees",
            "As vector-env-long, push-only, with one difference: right after each run's pushes a page of the "
            "system break is taken and kept (bench/support/heap_history.hpp, pin_heap_top), so glibc cannot "
            "trim its heap when the vectors die and std::vector's next blocks come back warm, as in a program "
            "whose later allocations sit above its vectors. The state where relo's own mappings once faulted "
            "thousands of pages a run against std::vector's few (docs/measurements/thresholds.md, \"Warm "
            "memory first\").", PROGRAM, impls, "std", warm_heap_cells(ctx, cells), summary=relo_against_peers(impls),
            chart_by=lambda cell: cell.split("/")[0], one_process=True, section=faults_section(ctx),
            targets=[against_fastest(optional), FAULTS_TARGET]),
        Experiment(
            "vector-churn", "Build and destroy: memory given back, used again",
            "A vector of n elements built by push_back (no reserve) and destroyed, again and again after 2 "
            f"untimed rounds ({churn_scale(ctx)[1]:,} elements in all, at least {churn_scale(ctx)[0]} builds), "
            "in one process: time, and the minor "
            "page faults of the timed rounds (the table below). std::vector's blocks come back from glibc's "
            "heap warm once its mmap threshold has risen (blocks up to 32 MiB); relo's large blocks from its "
            "thread's warm-block cache (64 MiB and 256 blocks by default).",
            PROGRAM, churn_impls, "std", churn_cells(ctx), summary=relo_against_peers(churn_impls),
            section=faults_section(ctx),
            targets=[Target("minor page faults ≤ std::vector's in every cell", "relo", "std", 1.0,
                            metric="minor_faults"), against_fastest([i for i in optional if i in churn_impls])]),
        Experiment(
            "vector-relocatable", "Overriding triviality",
            "The 2021 thesis, section 6.6: test_type wrapped and declared trivially relocatable (RELO_TRIVIALLY_RELOCATABLE), "
            "so relo grows it by realloc/mremap.", PROGRAM, impls, "std", relocatable,
            summary=relo_against_peers(impls)),
        Experiment(
            "foresight", "The foresight floor: push_back n ints",
            "push_back of n ints into one vector: std::vector with an exact reserve(n) is the floor (perfect "
            "foresight); the others grow as they go. relo's target: within 1.15x of the floor.",
            PROGRAM, push_impls, "std-reserve", foresight_cells(ctx),
            summary=relo_against_peers(push_impls, exclude=("std-reserve", "malloc-realloc")),
            section=peak_memory_section,
            targets=[Target("relo ≤ 1.15× std::vector with an exact reserve", "relo", "std-reserve", 1.15)]),
        Experiment(
            "push-latency", "Latency of single push_backs",
            "push_back of n elements (int, or empty std::string) into one vector with every call timed by the CPU's "
            "time-stamp counter: the ratio table is the total time; the latency table gives medians over rounds of "
            "the quantiles (upper bounds of log buckets 12.5% wide) and the maximum, and how many calls took over "
            "10 µs (a page fault on this VM, or part of a copy). A growth that copies shows as a spike as long as the "
            "vector; relo's page-table moves and in-place growth do not.",
            PROGRAM, latency_impls, "std",
            [(f"{t}/n={n:.0e}".replace("+0", ""), ["latency", "--type", t, "--n", str(n)])
             for t in ctx.types(PROGRAM, "latency") for n in latency_sizes],
            summary=relo_against_peers(latency_impls), section=latency_section),
        Experiment(
            "pod-realloc", "Realloc for bitwise-movable types (the POD slides)",
            "The 2005 POD-allocator slides: a fresh vector and n push_backs, repeated to about the same number of push_backs per cell, "
            "for int and the slides' 'Thingie' (a class with its own copy constructor, declared trivially "
            "relocatable). relo-stdalloc is relo::vector on std::allocator (allocate-move-free, memcpy for "
            "relocatable types); relo-rnever never uses large blocks (pure realloc); relo is the default.",
            PROGRAM, ["std", "relo-stdalloc", "relo-rnever", "relo"], "std", loops,
            summary=relo_against_peers(["std"])),
        Experiment(
            "pmr", "Vectors on polymorphic memory resources",
            "std::pmr::vector on new_delete_resource (the cost of the polymorphic allocator alone), on "
            "unsynchronized_pool_resource and on monotonic_buffer_resource (both over new/delete, one per "
            "process, as the default resource); boost::container::pmr::vector on Boost's pool and "
            "monotonic resources; relo::pmr::vector on the standard ones (which offer no expansion, so "
            "relo grows by allocate-move-free); relo::vector on its default allocator.",
            PROGRAM, pmr_impls, "std",
            chosen({"push-only/int/1", "push-only/int/100", "push-only/string/10", "push-cons-dest/int",
                    "push-cons-dest/string", "all/int", "all/test_type", "int/n=100", "int/n=100000"})),
        Experiment(
            "global-allocators", "std::vector and relo::vector over other malloc implementations",
            "The same cases with jemalloc, mimalloc and tcmalloc as the process's malloc (LD_PRELOAD of "
            "Debian's packages), against std::vector on glibc. relo's large blocks use malloc only past what relo "
            "can keep warm (its warm budget) and below 32 MiB.",
            PROGRAM, global_impls, "std",
            chosen({"push-only/int/1", "push-only/string/10", "push-only/test_type/100", "push-cons-dest/int",
                    "push-cons-dest/string", "all/array", "all/test_type", "int/n=1000", "thingie/n=100000"})),
    ]


def faults_section(ctx):
    """Minor page faults per cell and implementation (median over rounds), and relo against std::vector
    where a fault would cost 0.2 to 20 µs (the machine's own cost from ctx)."""
    def section(experiment, results, out):
        return (rr.metric_table(experiment, results, "minor_faults", lambda v: f"{v:,.0f}",
                                "Minor page faults of the timed rounds (median over rounds):") +
                rr.fault_cost_table(experiment, results, "relo", "std", ctx.first_touch_ns))
    return section


def peak_memory_section(experiment, results, out):
    """Peak resident memory per cell and implementation (median over rounds)."""
    rss = {}
    for r in results:
        rss.setdefault((r["cell"], r["impl"]), []).append(r.get("max_rss_kb", 0))
    lines = ["Peak resident memory (MiB, median):", "",
             "| case | " + " | ".join(experiment.impls) + " |", "|---|" + "---:|" * len(experiment.impls)]
    for label, _ in experiment.cells:
        lines.append(f"| {label} | " + " | ".join(
            f"{rr.median(rss.get((label, i), [0])) / 1024:.0f}" for i in experiment.impls) + " |")
    return lines + [""]


LATENCY_COLUMNS = [("p50_ns", "p50"), ("p99_ns", "p99"), ("p999_ns", "p99.9"), ("p9999_ns", "p99.99"),
                   ("max_ns", "max")]


def latency_section(experiment, results, out):
    """The latency table (medians over rounds) and one histogram chart per cell (first round)."""
    lines = ["Latency of one push_back (median over rounds):", "",
             "| case | impl | " + " | ".join(label for _, label in LATENCY_COLUMNS) + " | calls over 10 µs |",
             "|---|---|" + "---:|" * (len(LATENCY_COLUMNS) + 1)]
    for label, _ in experiment.cells:
        for impl in experiment.impls:
            runs = [r for r in results if r["cell"] == label and r["impl"] == impl]
            if not runs:
                continue
            values = [rr.format_latency(rr.median([r[key] for r in runs])) for key, _ in LATENCY_COLUMNS]
            over = rr.median([r["over_10us"] for r in runs])
            lines.append(f"| {label} | {impl} | " + " | ".join(values) + f" | {over:.0f} |")
    lines.append("")
    for label, _ in experiment.cells:
        first = {}
        for r in sorted(results, key=lambda r: r["round"]):
            if r["cell"] == label and "histogram_ns" in r:
                first.setdefault(r["impl"], (r["histogram_ns"], r["histogram_count"]))
        name = "latency-" + label.replace("/", "-").replace("=", "") + ".png"
        if first and rr.histogram_chart(first, f"push_back latency, {label}", os.path.join(out, name)):
            lines += [f"![{label}]({name})", ""]
    return lines


def extra_runs(ctx, ran, runner):
    """Growth statistics (untimed runs) and time series for the thesis's figures, for the push-only cells
    of the environment that ran."""
    extra = []
    for e, labels in ran:
        if e.name != "vector-env":
            continue
        for label, argv in e.cells:
            if label not in labels or not label.startswith("push-only/"):
                continue
            series = ["--series", "1"] if label.endswith(("/1", "/10")) else []
            for impl in e.impls:
                r = runner.case(e.program, list(argv) + ["--stats", "1"] + series, impl)
                r.update({"experiment": "growth-stats", "cell": label, "impl": impl, "round": 0, "extra": True})
                extra.append(r)
    return extra


def extra_section(ctx, extra, out):
    stats = [r for r in extra if r["experiment"] == "growth-stats"]
    if not stats:
        return []
    lines = ["## Reallocations", "",
             "From a separate, untimed run of each push-only case: how often growth reallocated, how many of "
             "those kept the data in place, and the bytes of elements whose address changed (for relo's "
             "mremap path these move as page-table entries, not copies).", "",
             "| case | impl | reallocations | in place | bytes moved |", "|---|---|---:|---:|---:|"]
    for r in stats:
        n = r.get("reallocations", 0)
        frac = f"{r.get('in_place', 0)} ({100 * r.get('in_place', 0) / n:.0f}%)" if n else "0"
        lines.append(f"| {r['cell']} | {r['impl']} | {n} | {frac} | {r.get('bytes_moved', 0) / MIB:.1f} MiB |")
    lines.append("")
    for cell in sorted({r["cell"] for r in stats if "series_s" in r}):
        series = {r["impl"]: r["series_s"] for r in stats if r["cell"] == cell and "series_s" in r}
        name = "series-" + cell.replace("/", "-") + ".png"
        if rr.series_chart(series, f"{cell}: time per iteration", os.path.join(out, name)):
            lines += [f"![{cell}]({name})", ""]
    return lines
