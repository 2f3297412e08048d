"""The pinned family (pinned_bench): relo::pinned_vector against what keeps addresses stable today.

"Reserve and commit": appends to one container per process, with its peak resident memory, the
time of one pass reading every element, and the latency of every append in the notes' decade buckets.
"""
from __future__ import annotations

import os

import report as rr
from experiment import Experiment, Target, memory_limit, skipped_lines

PROGRAMS = ["pinned_bench"]
ORDER = 40
PROGRAM = "pinned_bench"
MIB = 1 << 20

APPEND_IMPLS = ["std", "std-reserve", "relo", "pinned", "pinned-huge", "pinned-page", "deque", "stable-vector"]
LATENCY_IMPLS = ["std", "std-reserve", "relo", "pinned", "pinned-huge", "pinned-page", "deque"]
TUNING_IMPLS = ["pinned", "pinned-step2m", "pinned-step8m", "pinned-step512m", "pinned-demand"]
ARENA_IMPLS = ["monotonic", "vm-arena", "vm-arena-pmr"]
TASK_ARENA_IMPLS = ["monotonic", "vm-arena", "vm-arena-pmr", "vm-arena-uncached"]
SHORT_LIVED_IMPLS = ["std", "std-reserve", "relo", "pinned", "pinned-uncached", "deque"]
DECADES = ["< 1 µs", "< 10 µs", "< 100 µs", "< 1 ms", "< 10 ms", "< 100 ms", "≥ 100 ms"]



def label(n):
    return f"n=1e{len(str(n)) - 1}"


def append_cells(ctx, element):
    sizes = ctx.pick({"smoke": [10 ** 3, 10 ** 5],
                      "quick": [10 ** 3, 10 ** 6, 10 ** 8] if element == "int" else [10 ** 3, 10 ** 5, 10 ** 7],
                      "full": [10 ** k for k in range(3, 10 if element == "int" else 9)]})
    # boost::container::stable_vector allocates a node per element: 26 s for 10^8 ints here. Quick runs
    # leave it out above 10^7 (--full runs it).
    slow = ctx.pick({"smoke": 10 ** 5, "quick": 10 ** 7, "full": 10 ** 10})
    limits = ["--memory-limit", str(memory_limit()), "--slow-limit", str(slow)]
    return [(f"{element}/{label(n)}", ["append", "--type", element, "--n", str(n)] + limits) for n in sizes]


def arena_cells(ctx):
    n, cycles = ctx.pick({"smoke": (10 ** 4, 2), "quick": (10 ** 5, 100), "full": (10 ** 6, 100)})
    big = ctx.pick({"smoke": 10 ** 5, "quick": 10 ** 7, "full": 10 ** 7})
    cells = [(f"{name}/n={n:.0e}x{cycles}".replace("+0", ""),
              ["arena", "--n", str(n), "--size", str(size), "--cycles", str(cycles)])
             for name, size in (("16B", 16), ("64B", 64), ("mixed", 0))]
    cells.append((f"100B/n={big:.0e}".replace("+0", ""), ["arena", "--n", str(big), "--size", "100"]))
    return cells


def task_arena_cells(ctx):
    """A resource per task: n allocations from a new resource, which is then destroyed; about 10^7
    allocations per cell."""
    sizes = ctx.pick({"smoke": [10 ** 3], "quick": [10 ** 3, 10 ** 4, 10 ** 5], "full": [10 ** 2, 10 ** 3, 10 ** 4, 10 ** 5]})
    allocations = ctx.pick({"smoke": 10 ** 5, "quick": 10 ** 7, "full": 10 ** 7})
    return [(f"{name}/{label(n)}", ["arena", "--per-cycle", "1", "--reserve", str(64 << 20), "--n", str(n),
                                    "--size", str(size), "--cycles", str(max(1, allocations // n))])
            for n in sizes for name, size in (("64B", 64), ("mixed", 0))]


def short_lived_cells(ctx):
    """Containers of n ints made and destroyed one after another, about 10^7 appends per cell."""
    sizes = ctx.pick({"smoke": [10 ** 3], "quick": [10 ** 3, 10 ** 4, 10 ** 5], "full": [10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6]})
    appends = ctx.pick({"smoke": 10 ** 5, "quick": 10 ** 7, "full": 10 ** 8})
    return [(label(n), ["short-lived", "--n", str(n), "--reps", str(max(1, appends // n))]) for n in sizes]


def arena_section(experiment, results, out):
    """The time of the last reset (release() for the monotonic resource), per cell."""
    return rr.metric_table(experiment, results, "reset_s", lambda s: rr.format_latency(s * 1e9),
                           "Time of one reset after the last cycle (median):")


def experiments(ctx):
    latency_n = ctx.pick({"smoke": 10 ** 5, "quick": 10 ** 8, "full": 10 ** 8})
    summary = ("pinned", ["std", "deque", "stable-vector"])
    return [
        Experiment(
            "pinned-append", "Stable addresses: appending ints",
            "As in \"Reserve and commit\": n push_backs of int into one container in a fresh process. pinned is relo::pinned_vector "
            "(geometric commits, 4 KiB pages), pinned-huge the same with transparent huge pages from 2 MiB, "
            "pinned-page one page per commit (the reserve-and-commit notes' DynArray); each reserves room for n elements (or its "
            "4 GiB default, when larger). std-reserve is std::vector with an exact reserve(n) (the foresight "
            "floor); deque and stable-vector keep addresses stable without contiguity. The tables below give "
            "the peak resident memory, one pass reading every element, and the commits.",
            PROGRAM, APPEND_IMPLS, "std", append_cells(ctx, "int"), summary=summary,
            section=append_section, sample_memory=0.01,
            targets=[Target("pinned_vector ≤ 1.0× std::deque at every n", "pinned", "deque", 1.0)]),
        Experiment(
            "pinned-append-uptr", "Stable addresses: appending std::unique_ptr<int>",
            "The same with std::unique_ptr<int> elements, whose own allocations dominate.",
            PROGRAM, APPEND_IMPLS, "std", append_cells(ctx, "unique_ptr"), summary=summary,
            section=append_section),
        Experiment(
            "pinned-latency", "Latency of every append",
            f"{latency_n:.0e} push_backs of int, each timed by the CPU's time-stamp counter, counted in the notes' "
            "decade buckets (the table below, medians over rounds); the ratio table is the total time.",
            PROGRAM, LATENCY_IMPLS, "std", [(label(latency_n), ["latency", "--n", str(latency_n)])],
            summary=summary, section=latency_section),
        Experiment(
            "pinned-short-lived", "Stable addresses: short-lived containers",
            "Containers of n ints made, filled, read and destroyed one after another in one process (about "
            "10^7 appends per cell). pinned takes the reservation the last one left in its thread's "
            "reservation cache, with its first pages committed; pinned-uncached is the same with the cache off "
            "(a reservation, its commits and munmap per container); the others as above.",
            PROGRAM, SHORT_LIVED_IMPLS, "std", short_lived_cells(ctx), summary=summary,
            targets=[Target("short-lived pinned_vector ≤ 1.0× std::deque at every n", "pinned", "deque", 1.0)]),
        Experiment(
            "vm-arena", "relo::vm_arena against std::pmr::monotonic_buffer_resource",
            "n allocations (8-byte aligned, each written once) and a reset, repeated: vm-arena calls the arena's "
            "inline allocate, vm-arena-pmr goes through std::pmr::memory_resource* as monotonic (the standard's "
            "monotonic_buffer_resource over new/delete) does. Between cycles the arena keeps its pages "
            "(reset()) and the monotonic resource gives its chunks back (release()). mixed: sizes 8 to 256. "
            "The last cell is one cycle of 10^7 objects in 1 GiB, for the time of reset().",
            PROGRAM, ARENA_IMPLS, "monotonic", arena_cells(ctx),
            summary=("vm-arena", ["monotonic"]), section=arena_section),
        Experiment(
            "vm-arena-per-task", "An arena per task: relo::vm_arena made and destroyed again and again",
            "A resource per task, as P0089's benchmark I makes one per data structure: a new resource, n "
            "allocations (8-byte aligned, each written once), the resource destroyed, repeated (about 10^7 "
            "allocations per cell) in one process. vm-arena reserves 64 MiB and takes the reservation the last "
            "arena left in its thread's reservation cache, with its first pages committed "
            "(relo/warm_memory.hpp); vm-arena-uncached is the same with the cache off (a reservation, its "
            "commits, their page faults and munmap per arena); monotonic is std::pmr::monotonic_buffer_resource "
            "over new/delete (glibc's heap keeps its chunks warm). mixed: sizes 8 to 256.",
            PROGRAM, TASK_ARENA_IMPLS, "monotonic", task_arena_cells(ctx),
            summary=("vm-arena", ["monotonic"]),
            targets=[Target("an arena per task ≤ 1.0× std::pmr::monotonic_buffer_resource", "vm-arena",
                            "monotonic", 1.0)]),
        Experiment(
            "pinned-commit-tuning", "Tuning: the largest commit step, and committing on demand",
            "pinned_vector's geometric policy doubles the committed size up to a largest step (64 MiB by "
            "default): the same appends with other largest steps, and with the whole reservation committed by "
            "the first growth (pinned-demand: one mprotect, the kernel faults pages in as they are written).",
            PROGRAM, TUNING_IMPLS, "pinned", append_cells(ctx, "int"), tuning=True, section=append_section),
    ]


def _median_of(results, label, impl, key):
    values = [r[key] for r in results if r["cell"] == label and r["impl"] == impl and key in r]
    return rr.median(values) if values else None


def append_section(experiment, results, out):
    """Peak resident memory (and its ratio to the payload), the read pass, and what was skipped."""
    lines = ["Peak resident memory the case added to the process's, KiB (median; the payload is n × "
             "sizeof(element), plus 32 bytes of malloc chunk per std::unique_ptr<int>):", "",
             "| case | payload | " + " | ".join(experiment.impls) + " |",
             "|---|---:|" + "---:|" * len(experiment.impls)]
    for label, argv in experiment.cells:
        n = int(argv[argv.index("--n") + 1])
        size = 4 if label.startswith("int") else 8 + 32
        row = []
        for impl in experiment.impls:
            kb = _median_of(results, label, impl, "added_rss_kb")
            row.append("—" if kb is None else f"{kb:.0f}")
        lines.append(f"| {label} | {n * size / 1024:.0f} | " + " | ".join(row) + " |")
    lines += [""] + rr.metric_table(experiment, results, "read_s", lambda s: f"{s * 1e3:.3g}",
                                    "One pass reading every element after the appends, ms (median):")
    return lines + skipped_lines(results) + [""]


def latency_section(experiment, results, out):
    """The notes' latency buckets, min, p99.9 and max per implementation, and a histogram chart."""
    lines = ["Appends per latency bucket, min, p99.9 and max (medians over rounds):", "",
             "| impl | " + " | ".join(DECADES) + " | min | p99.9 | max |", "|---|" + "---:|" * (len(DECADES) + 3)]
    for label, _ in experiment.cells:
        for impl in experiment.impls:
            runs = [r for r in results if r["cell"] == label and r["impl"] == impl and "decades" in r]
            if not runs:
                continue
            buckets = [f"{rr.median([r['decades'][i] for r in runs]):.0f}" for i in range(len(DECADES))]
            stats = [rr.format_latency(rr.median([r[k] for r in runs])) for k in ("min_ns", "p999_ns", "max_ns")]
            lines.append(f"| {impl} | " + " | ".join(buckets + stats) + " |")
        first = {}
        for r in sorted(results, key=lambda r: r["round"]):
            if r["cell"] == label and "histogram_ns" in r:
                first.setdefault(r["impl"], (r["histogram_ns"], r["histogram_count"]))
        name = f"pinned-latency-{label.replace('=', '')}.png"
        if first and rr.histogram_chart(first, f"append latency, {label}", os.path.join(out, name)):
            lines += ["", f"![append latency]({name})"]
    return lines + [""]


def extra_runs(ctx, ran, runner):
    """The commits (capacity changes) of every int append case that ran, from one untimed run each."""
    extra = []
    for e, labels in ran:
        if e.name != "pinned-append":
            continue
        for label, argv in e.cells:
            if label not in labels:
                continue
            for impl in e.impls:
                r = runner.case(e.program, list(argv) + ["--commits", "1"], impl)
                r.update({"experiment": "pinned-commits", "cell": label, "impl": impl, "round": 0, "extra": True})
                extra.append(r)
    return extra


def extra_section(ctx, extra, out):
    rows = [r for r in extra if r["experiment"] == "pinned-commits" and r.get("commits", -1) >= 0]
    if not rows:
        return []
    # (stable_vector's capacity is its index's: it changes on every append, and is no commit.)
    impls = [i for i in APPEND_IMPLS if i != "stable-vector" and any(r["impl"] == i for r in rows)]
    cells = sorted({r["cell"] for r in rows}, key=lambda c: float(c.split("=")[1]))
    lines = ["## Commits while appending ints", "",
             "How many times the capacity changed during the appends (one untimed run): for pinned_vector each "
             "change is one mprotect (the notes counted these calls); for the vectors each is a reallocation.", "",
             "| case | " + " | ".join(impls) + " |", "|---|" + "---:|" * len(impls)]
    for cell in cells:
        by_impl = {r["impl"]: r["commits"] for r in rows if r["cell"] == cell}
        lines.append(f"| {cell} | " + " | ".join(str(by_impl.get(i, "—")) for i in impls) + " |")
    return lines + [""]
