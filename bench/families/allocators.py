"""The allocator family (allocator_bench): relo's local memory resources against the standard's, Boost's
and the global allocators (P0089R0), with the peak resident memory beside every time.
"""
from __future__ import annotations

import report as rr
from experiment import Experiment, Target

PROGRAMS = ["allocator_bench"]
ORDER = 50
PROGRAM = "allocator_bench"
RELO = ["relo-multipool", "relo-multipool-pmr", "relo-monotonic", "relo-monotonic-pmr", "relo-multipool-mono"]
THREAD_IMPLS = ["std-sync-pool", "malloc", "relo-sync-multipool", "relo-sync-multipool-pmr", "relo-multipool-each"]
SWEEP = ["relo-multipool", "relo-multipool-k2", "relo-multipool-k4", "relo-multipool-max1k", "relo-multipool-max16k",
         "relo-multipool-first2", "relo-multipool-first32", "relo-multipool-chunk16k", "relo-multipool-chunk256k"]
MONOTONIC_SWEEP = ["relo-monotonic", "relo-monotonic-first1k", "relo-monotonic-first64k", "relo-monotonic-first1m"]


def impls(ctx):
    available = ctx.impls(PROGRAM, "random")
    boost = [i for i in ("boost-pool", "boost-monotonic") if i in available]
    return ["malloc"] + [f"malloc+{a}" for a in ctx.allocators] + ["std-pool", "std-monotonic"] + boost + RELO


def cells(ctx):
    ops = ctx.pick({"smoke": 20000, "quick": 4000000, "full": 40000000})
    reps = ctx.pick({"smoke": 2, "quick": 200, "full": 2000})
    return [("random/8-512B", ["random", "--ops", str(ops), "--live", "10000"]),
            ("unordered_set/1e4", ["nodes", "--n", "10000", "--reps", str(reps)]),
            ("unordered_set/1e4 one resource", ["nodes", "--n", "10000", "--reps", str(reps), "--fresh", "0"])]


def checking_cells(ctx):
    ops = ctx.pick({"smoke": 20000, "quick": 2000000, "full": 20000000})
    reps = ctx.pick({"smoke": 2, "quick": 100, "full": 1000})
    return [("random/8-512B", ["random", "--ops", str(ops), "--live", "10000"]),
            ("unordered_set/1e4", ["nodes", "--n", "10000", "--reps", str(reps)])]


def thread_cells(ctx):
    ops = ctx.pick({"smoke": 2000, "quick": 1000000, "full": 10000000})
    return [(f"threads={w}", ["threads", "--threads", str(w), "--ops", str(ops)]) for w in (1, 2, 8)]


def experiments(ctx):
    every = impls(ctx)
    peers = [i for i in every if not i.startswith("relo")]
    return [
        Experiment(
            "allocators", "Local memory resources (P0089's allocators)",
            "random: 8 to 512-byte blocks allocated and freed at random, at most 10^4 live; unordered_set: an "
            "std::unordered_set<int> of 10^4 elements built and destroyed on a fresh allocator, repeated (one "
            "resource: every set on the same allocator, which outlives them and reuses what they free). "
            "malloc is std::allocator (glibc, or the allocator after + preloaded); std-* and boost-* are the "
            "standard's and Boost's unsynchronized pool and monotonic resources through their polymorphic "
            "allocators; relo-* are bound at compile time (relo::resource_allocator), relo-*-pmr at run time "
            "(std::pmr::polymorphic_allocator); relo-multipool-mono is the multipool over a monotonic resource. "
            "The table below the ratios gives each case's peak resident memory.",
            PROGRAM, every, "malloc", cells(ctx), summary=("relo-multipool", peers), section=memory_section),
        Experiment(
            "checking-resources", "Resources that check and profile: the cost of relo::test_resource and "
            "relo::profiling_resource",
            "The same work as \"allocators\" (random 8 to 512-byte blocks; std::unordered_set<int> of 10^4 built "
            "and destroyed) on relo::test_resource and relo::profiling_resource over the global heap, bound at "
            "compile time. test_resource takes a lock and a hash-table operation beside the heap's for every "
            "allocation and deallocation; profiling_resource a 16-byte header per block, its thread's record "
            "(plain stores) and one shared atomic add. new-delete is their upstream alone "
            "(std::pmr::new_delete_resource(), a virtual call), malloc std::allocator.",
            PROGRAM, ["new-delete", "malloc", "relo-test", "relo-profiling"], "new-delete", checking_cells(ctx),
            targets=[Target("profiling_resource ≤ 2.0× its upstream's time", "relo-profiling", "new-delete", 2.0)]),
        Experiment(
            "allocators-threads", "Several threads on one resource",
            "W threads each make random allocations and frees of 64 to 256 bytes (at most 1000 live per "
            "thread) on one shared resource: the global allocator, std::pmr::synchronized_pool_resource, relo's "
            "synchronized multipool bound at compile time and at run time; relo-multipool-each gives every "
            "thread an unsynchronized multipool of its own (the floor). This machine has 2 cores: 8 threads "
            "share them. These cases are not pinned to one core.", PROGRAM, THREAD_IMPLS, "std-sync-pool",
            thread_cells(ctx), summary=("relo-sync-multipool", ["malloc", "std-sync-pool"]), pinned=False),
        Experiment(
            "multipool-tuning", "Tuning: relo::multipool_resource's options",
            "The default (4 KiB largest class, powers of two, 8 blocks in a first chunk, chunks up to 64 KiB) "
            "against 2 and 4 classes per doubling (k2, k4), other largest classes (max1k, max16k), other first "
            "chunks (first2, first32) and other chunk caps (chunk16k, chunk256k).",
            PROGRAM, SWEEP, "relo-multipool", cells(ctx), tuning=True, section=memory_section),
        Experiment(
            "monotonic-tuning", "Tuning: relo::monotonic_resource's first chunk",
            "The default first chunk (4 KiB; each next chunk twice the last, up to 64 MiB) against 1 KiB, "
            "64 KiB and 1 MiB.", PROGRAM, MONOTONIC_SWEEP, "relo-monotonic", cells(ctx), tuning=True,
            section=memory_section),
    ]


def memory_section(experiment, results, out):
    return rr.metric_table(experiment, results, "max_rss_kb", lambda kb: f"{kb / 1024:.1f}",
                           "Peak resident memory of the process, MiB (median):")
