#!/usr/bin/env python3
"""relo's benchmark suite: runs the experiments against the peers, side by side, and writes the report.

    python3 bench/run.py --build-dir BUILD [--full] [--only PATTERN] [--rounds N] [--out DIR] [--smoke]

Every case runs in a fresh process; the implementations are interleaved (A B C A B C ...) and every
number reported is a median over the rounds of the ratio to the baseline measured in the same round,
with its min-max spread. Raw results go to DIR/results.json and DIR/results.csv, the report to
DIR/report.md with PNG plots beside it.
"""
from __future__ import annotations

import argparse
import datetime
import fnmatch
import json
import os
import platform
import re
import subprocess
import sys
import time
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relo_report as rr  # noqa: E402

KIB, MIB = 1 << 10, 1 << 20
ELEMENT_SIZE = {"int": 4, "array": 40, "test_type": 8, "string": 32, "T_test_type": 8}


class Experiment:
    """A named set of cells, each measured for every implementation, with a baseline."""

    def __init__(self, name, title, description, program, impls, baseline, cells, metric="time_s", rounds=None):
        self.name, self.title, self.description = name, title, description
        self.program, self.impls, self.baseline = program, impls, baseline
        self.cells = cells  # list of (label, argv list without --impl)
        self.metric = metric
        self.rounds = rounds


def push_only_iterations(type_name, vectors, scale):
    """Iterations of push-only giving about `scale` bytes of elements: each iteration pushes on average
    50·i elements into (vectors/3 + 2)/2 vectors."""
    elements = scale / ELEMENT_SIZE[type_name]
    repeats = (vectors // 3 + 2) / 2
    # The first `vectors` iterations only construct the vectors.
    return vectors + max(20, int((2 * elements / (50 * repeats)) ** 0.5))


def vector_experiments(mode, optional_peers, allocators=(), boost_pmr=False):
    scale = {"smoke": 256 * KIB, "quick": 48 * MIB, "full": 400 * MIB}[mode]
    mixed_iterations = {"smoke": 40, "quick": 500, "full": 2000}[mode]
    types = ["int", "array", "test_type", "string"]
    impls = ["std", "boost-gf2", "boost", "relo"] + optional_peers
    cells = []
    for t in types:
        for k in (1, 10, 50, 100):
            it = push_only_iterations(t, k, scale)
            cells.append((f"push-only/{t}/{k}", ["env", "--type", t, "--suite", "push-only", "--vectors", str(k),
                                                 "--iterations", str(it)]))
    for suite in ("push-cons-dest", "all"):
        for t in types:
            it = mixed_iterations if ELEMENT_SIZE[t] <= 8 else mixed_iterations * 3 // 5
            cells.append((f"{suite}/{t}", ["env", "--type", t, "--suite", suite, "--iterations", str(it)]))
    experiments = [
        Experiment(
            "vector-env", "The thesis's vector environment",
            "Seed 000, section 4.1: push-only with 1, 10, 50 and 100 vectors, push-cons-dest and all, for int, "
            "std::array<int,10>, an 8-byte non-trivial test type and empty std::string; the same random seeds "
            "for every implementation. boost-gf2 is boost::container::vector with growth factor 2, as the thesis "
            "configured it.", "vector_bench", impls, "std", cells),
    ]
    relocatable = [("push-only/T_test_type/1", ["env", "--type", "T_test_type", "--suite", "push-only",
                                                "--iterations", str(push_only_iterations("T_test_type", 1, scale))]),
                   ("push-only/T_test_type/10", ["env", "--type", "T_test_type", "--suite", "push-only", "--vectors",
                                                 "10", "--iterations", str(push_only_iterations("T_test_type", 10, scale))]),
                   ("push-cons-dest/T_test_type", ["env", "--type", "T_test_type", "--suite", "push-cons-dest",
                                                   "--iterations", str(mixed_iterations)])]
    experiments.append(Experiment(
        "vector-relocatable", "Overriding triviality",
        "Seed 000, section 6.6: test_type wrapped and declared trivially relocatable (RELO_TRIVIALLY_RELOCATABLE), "
        "so relo grows it by realloc/mremap.", "vector_bench", impls, "std", relocatable))
    sizes = {"smoke": [10 ** 5], "quick": [10 ** 6, 10 ** 7, 10 ** 8], "full": [10 ** 6, 10 ** 7, 10 ** 8]}[mode]
    push_impls = ["std-reserve", "std", "relo", "malloc-realloc"] + optional_peers
    experiments.append(Experiment(
        "foresight", "The foresight floor: push_back n ints",
        "push_back of n ints into one vector: std::vector with an exact reserve(n) is the floor (perfect "
        "foresight); the others grow as they go. relo's target: within 1.15x of the floor.",
        "vector_bench", push_impls, "std-reserve",
        [(f"n={n:.0e}".replace("+0", ""), ["push", "--n", str(n)]) for n in sizes]))
    latency_sizes = {"smoke": [10 ** 4], "quick": [10 ** 6, 10 ** 7], "full": [10 ** 6, 10 ** 7, 10 ** 8]}[mode]
    experiments.append(Experiment(
        "push-latency", "Latency of single push_backs",
        "push_back of n elements (int, or empty std::string) into one vector with every call timed by the CPU's "
        "time-stamp counter: the ratio table is the total time; the latency table gives medians over rounds of "
        "the quantiles (upper bounds of log buckets 12.5% wide) and the maximum, and how many calls took over "
        "10 µs (a page fault on this VM, or part of a copy). A growth that copies shows as a spike as long as the "
        "vector; relo's page-table moves and in-place growth do not.",
        "vector_bench", ["std", "boost-gf2", "relo"] + optional_peers, "std",
        [(f"{t}/n={n:.0e}".replace("+0", ""), ["latency", "--type", t, "--n", str(n)])
         for t in ("int", "string") for n in latency_sizes]))
    loop_sizes = {"smoke": [10, 1000], "quick": [10, 100, 1000, 10 ** 5, 10 ** 6],
                  "full": [10, 100, 1000, 10 ** 5, 10 ** 6]}[mode]
    total = {"smoke": 10 ** 5, "quick": 2 * 10 ** 7, "full": 10 ** 8}[mode]
    loop_cells = [(f"{t}/n={n}", ["loops", "--type", t, "--n", str(n), "--reps", str(max(1, total // n))])
                  for t in ("int", "thingie") for n in loop_sizes]
    experiments.append(Experiment(
        "pod-realloc", "Realloc for bitwise-movable types (the POD slides)",
        "Seed 003: a fresh vector and n push_backs, repeated to about the same number of push_backs per cell, "
        "for int and the slides' 'Thingie' (a class with its own copy constructor, declared trivially "
        "relocatable). relo-stdalloc is relo::vector on std::allocator (allocate-move-free, memcpy for "
        "relocatable types); relo-rnever never uses large blocks (pure realloc); relo is the default.",
        "vector_bench", ["std", "relo-stdalloc", "relo-rnever", "relo"], "std",
        loop_cells))
    sweep_r = ["relo-r256k", "relo-r512k", "relo-r1m", "relo-r2m", "relo-r4m", "relo-r8m", "relo-r32m", "relo-rnever"]
    sweep_o = ["relo-o256k", "relo-o512k", "relo-o1m", "relo-o2m", "relo-o4m", "relo-o8m", "relo-o32m", "relo-onever"]
    sweep_policy = ["relo-res1", "relo-res4", "relo-res16", "relo-res64"]
    sweep_huge = ["relo-h2m", "relo-h4m", "relo-h8m", "relo-h16m", "relo-h32m", "relo-nohuge"]
    page_policy_impls = ["std", "relo", "relo-4k", "relo-large", "relo-nohuge"] + [p for p in optional_peers
                                                                                  if p == "uwr"]
    def sweep(name, title, description, impls, cell_names):
        """Variants of relo against std::vector on a few cells of the environment."""
        chosen = [c for c in cells + loop_cells if c[0] in cell_names]
        return Experiment(name, title, description, "vector_bench", ["std"] + impls, "std", chosen)

    experiments += [
        sweep("threshold-relocatable", "Choosing the mapping threshold for trivially relocatable types",
              "relo::vector on large_block_policy with its relocatable_mapping_threshold at 256 KiB ... 32 MiB "
              "and never (below it: malloc/realloc; never is the default policy's choice).", sweep_r,
              {"push-only/int/1", "push-only/int/100", "push-only/array/10", "push-cons-dest/int", "all/int",
               "push-cons-dest/array"}),
        sweep("threshold-other", "Choosing the mapping threshold for other types",
              "relo::vector on large_block_policy with its other_mapping_threshold at 256 KiB ... 32 MiB and never.", sweep_o,
              {"push-only/string/1", "push-only/string/10", "push-only/test_type/1", "push-only/test_type/10",
               "push-cons-dest/string", "all/test_type"}),
        sweep("growth-factor", "Choosing the growth factor",
              "relo::vector with growth factors 1.5, 1.6 and 2 (the default).", ["relo-g15", "relo-g16", "relo-g2"],
              {"push-only/int/1", "push-only/int/10", "push-only/string/10", "push-only/test_type/50",
               "push-cons-dest/int", "push-cons-dest/string", "all/array", "all/test_type"}),
        sweep("pmr", "Vectors on polymorphic memory resources",
              "std::pmr::vector on new_delete_resource (the cost of the polymorphic allocator alone), on "
              "unsynchronized_pool_resource and on monotonic_buffer_resource (both over new/delete, one per "
              "process, as the default resource); boost::container::pmr::vector on Boost's pool and "
              "monotonic resources; relo::pmr::vector on the standard ones (which offer no expansion, so "
              "relo grows by allocate-move-free); relo::vector on its default allocator.",
              ["std-pmr", "std-pmr-pool", "std-pmr-monotonic"] +
              (["boost-pmr-pool", "boost-pmr-monotonic"] if boost_pmr else []) +
              ["relo-pmr-pool", "relo-pmr-monotonic", "relo"],
              {"push-only/int/1", "push-only/int/100", "push-only/string/10", "push-cons-dest/int",
               "push-cons-dest/string", "all/int", "all/test_type", "int/n=100", "int/n=100000"}),
        sweep("global-allocators", "std::vector and relo::vector over other malloc implementations",
              "The same cases with jemalloc, mimalloc and tcmalloc as the process's malloc (LD_PRELOAD of "
              "Debian's packages), against std::vector on glibc. relo's large blocks do not use malloc.",
              [f"std+{a}" for a in allocators] + ["relo"] + [f"relo+{a}" for a in allocators],
              {"push-only/int/1", "push-only/string/10", "push-only/test_type/100", "push-cons-dest/int",
               "push-cons-dest/string", "all/array", "all/test_type", "int/n=1000", "thingie/n=100000"}),
        sweep("small-growth", "Choosing between realloc and malloc-copy-free for small blocks",
              "relo::vector whose small blocks (below realloc_threshold) grow by malloc-copy-free: never "
              "(always realloc), below 1 KiB, 4 KiB, 64 KiB.", ["relo-copy0", "relo-copy1k", "relo-copy4k",
                                                                 "relo-copy64k"],
              {"push-only/int/100", "push-cons-dest/int", "all/int", "all/test_type", "int/n=100", "int/n=1000",
               "thingie/n=1000", "int/n=100000"}),
        sweep("large-blocks", "Choosing the reservation",
              "relo::vector on large_block_policy, with large blocks that reserve 1x (no headroom), 4x, 16x and 64x their size.",
              sweep_policy,
              {"push-only/int/1", "push-only/string/1", "push-only/test_type/10", "push-cons-dest/int",
               "push-cons-dest/string", "all/array"}),
        Experiment("page-policy", "Large blocks and huge pages for trivially relocatable types, or realloc",
                   "relo::vector as it is (trivially relocatable types on malloc/realloc at every size, others "
                   "on large blocks with huge pages from 2 MiB); relo-4k, the same without huge pages; "
                   "relo-large, every type on large blocks with huge pages from 2 MiB (large_block_policy, the "
                   "default until session 6); relo-nohuge, that with 4 KiB pages; uwr::vector (mremap from a "
                   "page up, 4 KiB pages) where it is built in. Where a huge page's first touch is cold "
                   "(docs/vector_performance.md, session 5) this decides the large cells.", "vector_bench",
                   page_policy_impls, "std",
                   [c for c in cells if c[0].startswith("push-only/") or c[0] in
                    {"push-cons-dest/int", "push-cons-dest/array", "push-cons-dest/string", "all/array",
                     "all/test_type"}]),
        Experiment("page-policy-foresight", "Large blocks or realloc: the foresight floor",
                   "The same variants pushing n ints into one vector, against std::vector with an exact reserve.",
                   "vector_bench", ["std-reserve"] + page_policy_impls, "std-reserve",
                   [(f"n={n:.0e}".replace("+0", ""), ["push", "--n", str(n)]) for n in sizes]),
        sweep("huge-pages-other", "Choosing where huge pages start, for types that are not trivially relocatable",
              "The huge-pages sweep on the cells where the default policy uses large blocks (strings and the "
              "test type; the variants differ from the default only in where huge pages start).", sweep_huge,
              {"push-only/string/1", "push-only/string/10", "push-only/string/50", "push-only/string/100",
               "push-only/test_type/1", "push-only/test_type/10", "push-only/test_type/50",
               "push-only/test_type/100", "push-cons-dest/string", "push-cons-dest/test_type", "all/string",
               "all/test_type"}),
        sweep("huge-pages", "Choosing where huge pages start",
              "relo::vector on large_block_policy, whose large blocks use transparent huge pages once they commit 2, 4, 8, 16 or "
              "32 MiB, and never.", sweep_huge,
              {"push-only/int/1", "push-only/int/50", "push-only/int/100", "push-only/array/10",
               "push-only/array/100", "push-only/string/1", "push-only/test_type/10", "push-cons-dest/int",
               "push-cons-dest/array", "all/array"}),
    ]
    return experiments


def container_experiments(mode, static_peers, small_peers):
    """The fixed-capacity and small-vector experiments (inplace_vector / small_vector issue)."""
    capacity = {"smoke": 1000, "quick": 100000, "full": 500000}[mode]
    mixed_iterations = {"smoke": 40, "quick": 500, "full": 2000}[mode]
    # Filling a fixed-capacity vector is bound by memory bandwidth (no allocation): 48 MB of elements take
    # 3-8 ms, where scheduling noise on these VMs is a millisecond, so push-only writes ten times the
    # vector suites' scale.
    scale = 10 * {"smoke": 256 * KIB, "quick": 48 * MIB, "full": 400 * MIB}[mode]
    cells = []
    for t in ["int", "array", "test_type", "string"]:
        for k in (1, 10):
            # Enough iterations to fill the k vectors, and enough fresh environments to push `scale` bytes.
            fill = k * capacity * ELEMENT_SIZE[t]
            it = push_only_iterations(t, k, fill)
            cells.append((f"push-only/{t}/{k}", ["env", "--type", t, "--suite", "push-only", "--vectors", str(k),
                                                 "--iterations", str(it), "--capacity", str(capacity),
                                                 "--repeat", str(max(1, scale // fill))]))
        for suite in ("push-cons-dest", "all"):
            it = mixed_iterations if ELEMENT_SIZE[t] <= 8 else mixed_iterations * 3 // 5
            cells.append((f"{suite}/{t}", ["env", "--type", t, "--suite", suite, "--iterations", str(it),
                                           "--capacity", str(capacity)]))
    uwr = ["uwr", "uwr-unchecked"] if "uwr" in static_peers else []
    others = [p for p in ("eastl", "folly") if p in static_peers]
    experiments = [Experiment(
        "static-env", "Fixed-capacity vectors in the thesis's environment",
        f"Seed 000, section 6.4: the vector environment with static vectors of capacity {capacity:,} (push_back and "
        "insert add what still fits; push-only runs fresh environments until the pushed elements reach the suite's "
        "scale, since filling a vector takes milliseconds). relo is relo::inplace_vector with push_back, relo-unchecked with "
        "unchecked (fast) push_back; uwr is the thesis's uwr::static_vector (checked; -unchecked: fast_push_back); "
        "eastl is eastl::fixed_vector<T, N, false> (no overflow), folly is folly::small_vector<T, N> with the "
        "policy_in_situ_only<true> policy. Baseline: boost::container::static_vector.",
        "static_bench", ["boost", "relo", "relo-unchecked"] + uwr + others, "boost", cells)]
    gbench_impls = ["std", "std-reserve", "boost", "relo"] + [p for p in ("absl", "llvm", "eastl", "folly")
                                                       if p in small_peers]
    experiments.append(Experiment(
        "small-vector", "Small vectors: push_back of chi-squared lengths",
        "Seed 004: 100 lengths from a chi-squared distribution (8 degrees of freedom, fixed seed), a fresh "
        "container for each, filled by push_back; columns by inline capacity N. std-reserve is std::vector with "
        "reserve(N) first. Time per batch of 100 containers (Google Benchmark, one benchmark per process).",
        "small_vector_gbench", gbench_impls, "std",
        [(f"N={n}", ["gbench", f"small/{n}"]) for n in (8, 12, 16, 32)]))
    return experiments


def machine_header(build_dir, command):
    def sh(cmd):
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=10).stdout.strip()
        except Exception:  # noqa: BLE001
            return ""

    cpu = sh("lscpu | sed -n 's/^Model name:[ \\t]*//p' | head -n1") or platform.processor()
    family = sh("lscpu | sed -n 's/^CPU family:[ \\t]*//p' | head -n1")
    model = sh("lscpu | sed -n 's/^Model:[ \\t]*//p' | head -n1")
    if family:
        cpu += f" (family {family}, model {model})"
    mem = sh("free -h | awk '/^Mem:/ {print $2}'")
    cache = {}
    cache_path = os.path.join(build_dir, "CMakeCache.txt")
    if os.path.exists(cache_path):
        for line in open(cache_path):
            m = re.match(r"(CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS|CMAKE_CXX_FLAGS_RELEASE|Boost_DIR):[A-Z]+=(.*)", line)
            if m:
                cache[m.group(1)] = m.group(2)
    compiler = sh(f"{cache.get('CMAKE_CXX_COMPILER', 'c++')} --version | head -n1")
    boost = sh("grep -m1 'define BOOST_LIB_VERSION' /usr/include/boost/version.hpp | cut -d'\"' -f2")
    return [
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {cpu}, {os.cpu_count()} cores, {mem} memory, Linux {platform.release()}",
        f"- memory: {memory_setup()}",
        f"- compiler: {compiler}; flags: {cache.get('CMAKE_CXX_FLAGS', '')} {cache.get('CMAKE_CXX_FLAGS_RELEASE', '')}",
        f"- libraries: Boost {boost.replace('_', '.')}, glibc {platform.libc_ver()[1]}",
        f"- command: `{command}`",
    ]


def memory_setup():
    """What decides the cost of a page fault here: the transparent huge page mode and, on a VM, whether
    free memory is handed back to the host (free page reporting), after which a first touch is a fault
    in the host too (docs/vector_performance.md, session 5)."""
    def read(path):
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError:
            return None
    thp = read("/sys/kernel/mm/transparent_hugepage/enabled") or "unknown"
    thp = re.search(r"\[(\w+)\]", thp).group(1) if "[" in thp else thp
    reporting = read("/sys/module/page_reporting/parameters/page_reporting_order")
    return (f"transparent huge pages '{thp}'; " +
            (f"free page reporting module loaded (order {reporting})" if reporting is not None
             else "no free page reporting"))


# Global allocators a case can run under (LD_PRELOAD of Debian's packages): "std+jemalloc" is std::vector
# with jemalloc as malloc. Found at run time; missing ones are left out of the report.
PRELOADS = {
    "jemalloc": "libjemalloc.so.2",
    "mimalloc": "libmimalloc.so.2",
    "tcmalloc": "libtcmalloc_minimal.so.4",
}
LIB_DIRS = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]


def find_preload(name):
    for d in LIB_DIRS:
        path = os.path.join(d, PRELOADS[name])
        if os.path.exists(path):
            return path
    return None


def available_allocators():
    return [name for name in PRELOADS if find_preload(name)]


def run_case(program, argv, impl):
    impl, _, allocator = impl.partition("+")
    env = dict(os.environ)
    if allocator:
        env["LD_PRELOAD"] = find_preload(allocator)
    gbench = bool(argv) and argv[0] == "gbench"
    if gbench:  # a Google Benchmark program: one benchmark, named <cell>/<impl>
        # Names are letters, digits, '/' and '-': no regex metacharacters to escape (and Google
        # Benchmark's regex rejects Python's escapes).
        cmd = [program, f"--benchmark_filter=^{argv[1]}/{impl}$", "--benchmark_format=json",
               f"--benchmark_min_time={GBENCH_MIN_TIME}"]
    else:
        cmd = [program] + argv + ["--impl", impl]
    pin = ["taskset", "-c", "1"] if os.path.exists("/usr/bin/taskset") and (os.cpu_count() or 1) > 1 else []
    out = subprocess.run(pin + cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.strip()}")
    if gbench:
        return rr.from_google_benchmark(json.loads(out.stdout))
    return json.loads(out.stdout.strip().splitlines()[-1])


GBENCH_MIN_TIME = 0.5  # seconds per Google Benchmark case (set lower by --smoke)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--out", default="report")
    ap.add_argument("--full", action="store_true", help="the documents' scale (hours)")
    ap.add_argument("--smoke", action="store_true", help="every experiment at a tiny size (seconds)")
    ap.add_argument("--only", default="*", help="comma-separated globs of experiments (vector-env) or cells (vector-env:push-only/int/*)")
    ap.add_argument("--rounds", type=int, default=None, help="repeats per case (default 5, smoke 1)")
    ap.add_argument("--redraw", action="store_true",
                    help="rewrite the report and plots in --out from its results.json and run.json, running nothing")
    args = ap.parse_args()
    if args.redraw:
        return redraw(args.out)

    mode = "smoke" if args.smoke else "full" if args.full else "quick"
    rounds = args.rounds or (1 if args.smoke else 7 if args.full else 5)
    bench_dir = os.path.join(args.build_dir, "bench")
    program = os.path.join(bench_dir, "vector_bench")
    optional = subprocess.run([program, "list"], capture_output=True, text=True).stdout.split()
    static_program = os.path.join(bench_dir, "static_bench")
    small_optional = subprocess.run([static_program, "list"], capture_output=True, text=True).stdout.split()
    # What the experiments are made of: kept in run.json, so that --redraw rebuilds the same ones.
    setup = {"mode": mode, "optional": optional, "small_optional": small_optional,
             "allocators": available_allocators(),
             "gbench": os.path.exists(os.path.join(bench_dir, "small_vector_gbench"))}
    experiments = all_experiments(setup)
    if not setup["gbench"]:
        print("note: small_vector_gbench was not built (Google Benchmark missing); skipping small-vector")
    global GBENCH_MIN_TIME
    if mode == "smoke":
        GBENCH_MIN_TIME = 0.01

    plan = []
    for e in experiments:
        patterns = args.only.split(",")
        cells = [c for c in e.cells
                 if any(fnmatch.fnmatch(e.name, p) or fnmatch.fnmatch(f"{e.name}:{c[0]}", p) for p in patterns)]
        if not cells:
            continue
        r = e.rounds or rounds
        for (rnd, (label, argv), impl) in rr.interleave(cells, e.impls, r):
            plan.append((e, rnd, label, argv, impl))
    if not plan:
        sys.exit(f"nothing matches --only {args.only}")

    results, started, failures = [], time.time(), []
    for i, (e, rnd, label, argv, impl) in enumerate(plan):
        elapsed = time.time() - started
        eta = elapsed / i * (len(plan) - i) if i else 0
        progress = f"[{i + 1}/{len(plan)}] {e.name}: {label} {impl} (round {rnd + 1}), about {eta:.0f}s left"
        if sys.stdout.isatty():
            print(f"\r{progress:<100}", end="", flush=True)
        elif i % max(1, len(plan) // 20) == 0:
            print(progress, flush=True)
        try:
            r = run_case(os.path.join(bench_dir, e.program), argv, impl)
        except RuntimeError as err:
            failures.append(str(err))
            continue
        r.update({"experiment": e.name, "cell": label, "impl": impl, "round": rnd})
        results.append(r)
    print(f"\rran {len(plan)} cases in {time.time() - started:.0f}s" + " " * 40)

    # Growth statistics (untimed runs) and time series for the thesis's figures, for the push-only cells run.
    extra = []
    if any(e.name in ("static-env", "small-vector") for e, *_ in plan):
        sizes = subprocess.run([static_program, "sizes"], capture_output=True, text=True, check=True).stdout
        for line in sizes.splitlines():
            r = json.loads(line)
            r.update({"experiment": "sizes", "cell": f"{r['type']}/{r['n']}", "impl": r["container"], "round": 0})
            extra.append(r)
    env_cells = {(label, tuple(argv)) for e, _, label, argv, _ in plan if e.name == "vector-env"}
    env = next(e for e in experiments if e.name == "vector-env")
    for label, argv in sorted(env_cells):
        if not label.startswith("push-only/"):
            continue
        series = ["--series", "1"] if label.endswith(("/1", "/10")) else []
        for impl in env.impls:
            r = run_case(program, list(argv) + ["--stats", "1"] + series, impl)
            r.update({"experiment": "growth-stats", "cell": label, "impl": impl, "round": 0})
            extra.append(r)

    out = args.out
    os.makedirs(out, exist_ok=True)
    rr.write_raw(results + extra, out)
    user_args = sys.argv[1:]
    if "--build-dir" in user_args:
        k = user_args.index("--build-dir")
        del user_args[k:k + 2]
    command = " ".join(["./relo.sh bench"] + user_args)
    header = machine_header(args.build_dir, command)
    header.append("- peers: std::vector, boost::container::vector (default and growth factor 2), static_vector and "
                  "small_vector, relo's containers; optional peers built in: " +
                  (", ".join(sorted(set(optional + small_optional) - {"boost-pmr-pool"})) or "none") +
                  " (Abseil and LLVM from Debian's libabsl-dev and llvm-dev when installed; point CMake at "
                  "uwr::vector with -DRELO_BENCH_UWR, rvector with -DRELO_BENCH_RVECTOR, EASTL with "
                  "-DRELO_BENCH_EASTL, folly with -DRELO_BENCH_FOLLY or its installed CMake package); "
                  "global allocators found: " + (", ".join(available_allocators()) or "none"))
    with open(os.path.join(out, "run.json"), "w") as f:
        json.dump({"setup": setup, "header": header, "failures": failures}, f, indent=1)
    write_report(out, experiments, results, extra, header, failures)
    print(f"report: {os.path.join(out, 'report.md')}")
    if failures:
        print("failures:\n  " + "\n  ".join(failures))
        sys.exit(1)


def all_experiments(setup):
    optional = [p for p in setup["optional"] if p != "boost-pmr-pool"]
    experiments = vector_experiments(setup["mode"], optional, setup["allocators"],
                                     "boost-pmr-pool" in setup["optional"])
    experiments += container_experiments(setup["mode"], setup["small_optional"], setup["small_optional"])
    if not setup["gbench"]:
        experiments = [e for e in experiments if e.program != "small_vector_gbench"]
    return experiments


# Results that are not timed cases of an experiment: the untimed growth statistics and the sizeof table.
EXTRA_RESULTS = ("growth-stats", "sizes")


def redraw(out):
    """The report of an earlier run, from the raw results it kept (e.g. after changing a plot)."""
    with open(os.path.join(out, "run.json")) as f:
        run_info = json.load(f)
    with open(os.path.join(out, "results.json")) as f:
        raw = json.load(f)
    results = [r for r in raw if r["experiment"] not in EXTRA_RESULTS]
    extra = [r for r in raw if r["experiment"] in EXTRA_RESULTS]
    write_report(out, all_experiments(run_info["setup"]), results, extra, run_info["header"], run_info["failures"])
    print(f"report: {os.path.join(out, 'report.md')}")


LATENCY_COLUMNS = [("p50_ns", "p50"), ("p99_ns", "p99"), ("p999_ns", "p99.9"), ("p9999_ns", "p99.99"),
                   ("max_ns", "max")]


def latency_section(results, experiment, out):
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


def write_report(out, experiments, results, extra, header, failures):
    lines = ["# relo benchmark report", "", *header, "",
             "Every number is the median over rounds of the ratio to the baseline measured in the same round "
             "(lower is faster), with the min–max over rounds in parentheses; the baseline column shows its "
             "median absolute time. Each case ran in a fresh process, implementations interleaved.", ""]
    if rr.pyplot() is None:
        lines += [f"**No plots:** {sys.executable} cannot import matplotlib (Debian: python3-matplotlib, "
                  "for /usr/bin/python3).", ""]
    for e in experiments:
        summary = rr.summarize([r for r in results if r["experiment"] == e.name], "time_s", e.baseline)
        if not summary:
            continue
        lines += [f"## {e.title}", "", e.description, ""]
        lines.append(rr.ratio_table(summary, e.name, e.impls, e.baseline))
        lines.append("")
        if e.name == "foresight":
            rss = {}
            for r in results:
                if r["experiment"] == e.name:
                    rss.setdefault((r["cell"], r["impl"]), []).append(r.get("max_rss_kb", 0))
            lines += ["Peak resident memory (MiB, median):", "",
                      "| case | " + " | ".join(e.impls) + " |", "|---|" + "---:|" * len(e.impls)]
            for label, _ in e.cells:
                lines.append(f"| {label} | " + " | ".join(
                    f"{rr.median(rss.get((label, i), [0])) / 1024:.0f}" for i in e.impls) + " |")
            lines.append("")
        if e.name == "push-latency":
            lines += latency_section([r for r in results if r["experiment"] == e.name], e, out)
        if e.name == "vector-env":
            for suite in ("push-only", "push-cons-dest", "all"):
                sub = rr.OrderedDict((k, v) for k, v in summary.items() if k[1].startswith(suite + "/"))
                png = rr.bar_chart(sub, e.name, e.impls, e.baseline, f"{suite}", os.path.join(out, f"{e.name}-{suite}.png"))
                if png:
                    lines += [f"![{suite}]({os.path.basename(png)})", ""]
        else:
            png = rr.bar_chart(summary, e.name, e.impls, e.baseline, e.title, os.path.join(out, f"{e.name}.png"))
            if png:
                lines += [f"![{e.name}]({os.path.basename(png)})", ""]
    sizes = [r for r in extra if r["experiment"] == "sizes"]
    extra = [r for r in extra if r["experiment"] != "sizes"]
    if sizes:
        lines += ["## sizeof of the small and fixed-capacity vectors", "",
                  "Bytes, for inline capacity N (std::vector and relo::vector have none: N = 0).", ""]
        containers = list(OrderedDict.fromkeys(r["container"] for r in sizes))
        columns = list(OrderedDict.fromkeys(r["cell"] for r in sizes))
        value = {(r["container"], r["cell"]): r["sizeof"] for r in sizes}
        lines += ["| container | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
        for c in containers:
            lines.append(f"| {c} | " + " | ".join(str(value.get((c, col), "")) for col in columns) + " |")
        lines.append("")
    if extra:
        lines += ["## Reallocations", "",
                  "From a separate, untimed run of each push-only case: how often growth reallocated, how many of "
                  "those kept the data in place, and the bytes of elements whose address changed (for relo's "
                  "mremap path these move as page-table entries, not copies).", "",
                  "| case | impl | reallocations | in place | bytes moved |", "|---|---|---:|---:|---:|"]
        for r in extra:
            n = r.get("reallocations", 0)
            frac = f"{r.get('in_place', 0)} ({100 * r.get('in_place', 0) / n:.0f}%)" if n else "0"
            lines.append(f"| {r['cell']} | {r['impl']} | {n} | {frac} | {r.get('bytes_moved', 0) / MIB:.1f} MiB |")
        lines.append("")
        for cell in sorted({r["cell"] for r in extra if "series_s" in r}):
            series = {r["impl"]: r["series_s"] for r in extra if r["cell"] == cell and "series_s" in r}
            name = "series-" + cell.replace("/", "-") + ".png"
            if rr.series_chart(series, f"{cell}: time per iteration", os.path.join(out, name)):
                lines += [f"![{cell}]({name})", ""]
    if failures:
        lines += ["## Failures", ""] + [f"- {f}" for f in failures]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
