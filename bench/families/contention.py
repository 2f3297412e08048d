"""P0089's benchmark IV (contention_bench): threads allocating and freeing blocks on the global allocator, on a
local resource each, or on one synchronized resource, with the paper's percentages
(bench/data/p0089_benchmark4.json) beside this machine's.
"""
from __future__ import annotations

import json
import os

import report as rr
from experiment import Experiment, Target

PROGRAMS = ["contention_bench"]
ORDER = 58
PROGRAM = "contention_bench"
STRATEGIES = ["AS1", "AS2", "AS3", "AS5", "AS7", "AS9", "AS11", "AS13", "relo-sync", "std-sync-pool"]
RELO = ["AS3", "AS5", "AS7", "AS9", "AS11", "AS13", "relo-sync"]  # relo's strategies
PAPER_TABLES = [(15, 6), (15, 7), (15, 8), (16, 8), (17, 8), (18, 8), (19, 8)]


def paper():
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "p0089_benchmark4.json")
    with open(path) as f:
        data = json.load(f)
    return {tuple(r["key"]): r for r in data["rows"]}, data["percent_of_AS1"]


def cores():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def scale(ctx):
    """((iterations log2, size log2) tables, thread counts)."""
    if ctx.mode == "smoke":
        return [(10, 6)], [1, 2]
    if ctx.mode == "full":
        return PAPER_TABLES, list(range(1, max(8, 2 * cores()) + 1))
    return [(19, 6), (19, 8)], list(range(1, 2 * cores() + 1))


def label(n, s, w):
    return f"N=2^{n} S=2^{s} W={w}"


def experiments(ctx):
    tables, threads = scale(ctx)
    cells = [(label(n, s, w), ["run", "--iterations-log", str(n), "--size-log", str(s), "--threads", str(w)])
             for n, s in tables for w in threads]
    every = STRATEGIES + [f"AS1+{a}" for a in ctx.allocators]

    def expected(cell):
        parts = dict(p.split("=") for p in cell.split())
        n, w = int(parts["N"].split("^")[1]), int(parts["W"])
        return 2 ** n * w * 30e-9 / min(w, cores()) + 0.01

    return [Experiment(
        "contention", "P0089 benchmark IV: variation in contention",
        f"W threads each allocate a block of S bytes and free it at once, N times. AS1/AS2: all on the global "
        "allocator (directly, or through std::pmr::memory_resource); AS3..AS13: each thread on a local "
        "unsynchronized resource of its own, as in the paper (relo's monotonic, multipool and multipool over "
        "monotonic, compile-time and run-time binding); relo-sync and std-sync-pool: all threads on one "
        "relo::synchronized_multipool_resource or std::pmr::synchronized_pool_resource; AS1+X another global "
        f"allocator. This machine has {cores()} cores: W runs to twice that, so the higher counts share cores "
        "(the paper's machine had 12 for its 8 threads). Not pinned.",
        PROGRAM, every, "AS1", cells, summary=("AS7", ["AS1", "std-sync-pool"] +
                                               [i for i in every if i.startswith("AS1+")]),
        section=section, pinned=False, expected_seconds=expected,
        targets=[Target("1 and 2 threads: relo-sync ≤ 1.0× glibc malloc", "relo-sync", "AS1", 1.0, one_or_two_threads),
                 Target("1 and 2 threads: relo-sync ≤ 1.2× a multipool per thread", "relo-sync", "AS7", 1.2,
                        one_or_two_threads),
                 Target("relo's best ≤ 1.0× the best global allocator (glibc and each one preloaded)", RELO,
                        ["AS1"] + [i for i in every if i.startswith("AS1+")], 1.0)])] + \
        pattern_experiments(ctx) + idle_pool_experiments(ctx)


def idle_pool_experiments(ctx):
    """What a pool of threads keeps resident once its threads are idle, then once another thread has been
    active for longer than relo's idle delay: relo's warm memory against glibc."""
    threads = ctx.pick({"smoke": [2], "quick": [8], "full": [8, 64]})
    work = ("W threads each build and destroy a 48 MiB vector of ints and a vector of 20,000 vectors of 100 ints "
            "on a monotonic resource of its own, then sleep. std: std::vector and "
            "std::pmr::monotonic_buffer_resource on glibc; relo: relo::vector and relo::monotonic_resource, whose "
            "freed memory relo keeps warm for the threads' next containers, within one budget for the process "
            "(relo::warm_memory_limit).")
    return [
        Experiment(
            "idle-pool", "A pool of idle threads: the memory kept",
            work + " The process's resident memory once all are idle. Ratios of resident memory to std's.",
            PROGRAM, ["std", "relo"], "std",
            [(f"W={w}", ["idle-pool", "--threads", str(w)]) for w in threads], metric="resident_kb",
            summary=("relo", ["std"]), pinned=False,
            targets=[Target("resident memory of the idle pool ≤ 1.0× std's", "relo", "std", 1.0)]),
        Experiment(
            "idle-pool-later", "A pool of idle threads: the memory kept 1.5 s later",
            work + " The process's resident memory after the main thread has then worked for 1.5 s (a vector of "
            "1,000 ints on a pool resource of its own every 100 µs) while the pool sleeps: an idle thread gives "
            "back only itself, so what the pool keeps warm stays within relo::warm_memory_limit(). Ratios to std's.",
            PROGRAM, ["std", "relo"], "std",
            [(f"W={w}", ["idle-pool", "--threads", str(w), "--active-ms", "1500"]) for w in threads],
            metric="resident_later_kb", summary=("relo", ["std"]), pinned=False,
            targets=[Target("resident memory of the pool idle for longer than the delay ≤ 1.0× std's", "relo", "std",
                            1.0)]),
    ]


def one_or_two_threads(cell):
    return cell.endswith(" W=1") or cell.endswith(" W=2")


def pattern_experiments(ctx):
    """Blocks handed from thread to thread, and blocks replaced at random: the patterns of long-lived
    programs, with the peak resident memory beside the time."""
    log = ctx.pick({"smoke": 12, "quick": 20, "full": 22})
    # (std::pmr::synchronized_pool_resource takes 15-20x glibc's time handing blocks over: 2^20 of them took
    # it 8 s a case, so the quick scale hands 2^18)
    pipeline_log = ctx.pick({"smoke": 12, "quick": 18, "full": 22})
    pairs = ctx.pick({"smoke": [1], "quick": [1, 2], "full": [1, 2, 4]})
    threads = ctx.pick({"smoke": [1, 2], "quick": [1, 2, 4], "full": [1, 2, 4, 8]})
    others = [f"AS1+{a}" for a in ctx.allocators]
    crossing = ["AS1", "relo-sync", "std-sync-pool"] + others
    churning = ["AS1", "AS7", "relo-sync", "std-sync-pool"] + others
    batching = churning + ["relo-sync-pmr"]
    batch_blocks = ctx.pick({"smoke": [100], "quick": [100, 1000, 4000], "full": [10, 100, 1000, 4000]})
    memory = Target("peak resident memory ≤ 2× the global allocator's + 8 MiB", "relo-sync", "AS1", 2.0,
                    metric="max_rss_kb", allowance=8 * 1024)
    return [
        Experiment(
            "contention-pipeline", "Blocks freed by another thread: producers and consumers",
            f"P producer/consumer pairs: each producer allocates 2^{pipeline_log} blocks of 8–512 bytes and hands each "
            "through a queue of at most 1,024 to its consumer, which frees it (a work queue, a pipeline). "
            "AS1: the global allocator (AS1+X: another one); relo-sync and std-sync-pool: every thread on one "
            "relo::synchronized_multipool_resource or std::pmr::synchronized_pool_resource. Time, and the peak "
            "resident memory of the process (the table below). Not pinned.",
            PROGRAM, crossing, "AS1",
            [(f"pairs={p}", ["pipeline", "--pairs", str(p), "--blocks-log", str(pipeline_log)]) for p in pairs],
            summary=("relo-sync", [i for i in crossing if i != "relo-sync"]), section=peak_memory_section,
            pinned=False, targets=[memory, Target("time ≤ 1.0× glibc malloc", "relo-sync", "AS1", 1.0),
                                   Target("time ≤ 1.0× the best global allocator", "relo-sync", ["AS1"] + others, 1.0)]),
        Experiment(
            "contention-churn", "Blocks replaced at random by every thread",
            f"W threads each keep 1,000 live blocks of 8–512 bytes and replace one at random, 2^{log} times. "
            "AS7: a relo::multipool_resource of each thread's own (no synchronization); the others as in "
            "the producers and consumers above. Not pinned.",
            PROGRAM, churning, "AS1",
            [(f"W={w}", ["churn", "--threads", str(w), "--replacements-log", str(log)]) for w in threads],
            summary=("relo-sync", [i for i in churning if i not in ("relo-sync", "AS7")]), section=peak_memory_section,
            pinned=False, targets=[memory, Target("time ≤ 1.0× glibc malloc", "relo-sync", "AS1", 1.0),
                                   Target("time ≤ 1.0× the best global allocator", "relo-sync", ["AS1"] + others, 1.0),
                                   Target("time ≤ 1.2× a multipool per thread", "relo-sync", "AS7", 1.2)]),
        Experiment(
            "contention-batch", "Blocks freed by the thread that allocated them, a batch at a time",
            f"W threads each allocate B blocks of 8–512 bytes and then free them in the order allocated, until "
            f"2^{log} blocks were allocated and freed (a request's or a frame's objects). relo-sync-pmr: the "
            "synchronized multipool through std::pmr::memory_resource*, as a std::pmr container reaches it; the "
            "others as in the churn above. Not pinned.",
            PROGRAM, batching, "AS1",
            [(f"B={b} W={w}", ["batch", "--threads", str(w), "--blocks", str(b), "--pairs-log", str(log)])
             for b in batch_blocks for w in threads[:2]],
            summary=("relo-sync", [i for i in batching if i not in ("relo-sync", "relo-sync-pmr", "AS7")]),
            section=peak_memory_section, pinned=False,
            targets=[memory, Target("time ≤ 1.0× glibc malloc, through memory_resource* too", "relo-sync-pmr", "AS1", 1.0),
                     Target("time ≤ 1.0× the best global allocator", "relo-sync", ["AS1"] + others, 1.0),
                     Target("through memory_resource*: time ≤ 1.2× the best global allocator", "relo-sync-pmr",
                            ["AS1"] + others, 1.2)]),
    ]


def peak_memory_section(experiment, results, out):
    """Peak resident memory of the process per cell and strategy (median over rounds)."""
    return rr.metric_table(experiment, results, "max_rss_kb", lambda v: f"{v / 1024:.1f}",
                           "Peak resident memory of the process (MiB, median over rounds):")


def section(experiment, results, out):
    rows, columns = paper()
    summary = rr.summarize(results, experiment.metric, experiment.baseline)
    lines = ["The paper's percentages of AS1 at its smallest iteration count for the same size and thread count "
             "(2^15 per thread; 12 cores):", "",
             "| case | paper's N | AS1 (s) | " + " | ".join(columns) + " |", "|---|---:|---:|" + "---:|" * len(columns)]
    for (_, cell) in summary:
        parts = dict(p.split("=") for p in cell.split())
        n, s, w = int(parts["N"].split("^")[1]), int(parts["S"].split("^")[1]), int(parts["W"])
        key = next(((pn, s, w) for pn in (n, 15, 16, 17, 18, 19) if (pn, s, w) in rows), None)
        if key is None:
            continue
        row = rows[key]
        lines.append(f"| {cell} | 2^{key[0]} | {row['AS1_s']:.3f} | " +
                     " | ".join(f"{p:.0f}" for p in row["percent"]) + " |")
    return lines + [""]
