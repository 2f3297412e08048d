#!/usr/bin/env python3
"""relo's benchmark suite: runs the families' experiments against the peers, side by side, and writes the report.

    python3 bench/run.py --build-dir BUILD [--full] [--tuning] [--only PATTERN] [--rounds N] [--out DIR] [--smoke]

Every case runs in a fresh process (a long-lived experiment's case: every implementation in one process,
after a heap history); the implementations are interleaved (A B C A B C ...) and every
number reported is a median over the rounds of the ratio to the baseline measured in the same round,
with its min-max spread. Raw results go to DIR/results.json and DIR/results.csv, the report to
DIR/report.md with PNG plots beside it.

The runner knows no experiment by name: the families in bench/families/ declare them (bench/README.md
says how to add one), and each program's `list` says which implementations and element types it has.
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
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report as rr  # noqa: E402
from experiment import Context, experiments_of, families  # noqa: E402

GBENCH_MIN_TIME = 0.1  # seconds per Google Benchmark case (--full: 0.5, --smoke: 0.01)


class MemorySampler(threading.Thread):
    """Samples a process's resident memory (/proc/PID/statm) every `interval` seconds until it exits:
    [[seconds since start, KiB], ...]. Runs in the runner, not in the measured process, so it takes no
    time from it (the measured process is pinned to another core)."""

    def __init__(self, pid, interval):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.samples = []
        self.page_kib = os.sysconf("SC_PAGE_SIZE") // 1024
        self._done = threading.Event()

    def run(self):
        start = time.monotonic()
        while not self._done.is_set():
            try:
                with open(f"/proc/{self.pid}/statm") as f:
                    resident = int(f.read().split()[1])
            except (OSError, IndexError, ValueError):
                break  # the process has exited
            self.samples.append([round(time.monotonic() - start, 6), resident * self.page_kib])
            self._done.wait(self.interval)

    def stop(self):
        self._done.set()
        self.join()
        return self.samples


def pin_to_one_core(pinned):
    """The command prefix that pins a case to core 1 (nothing when not pinned or where it cannot be)."""
    return ["taskset", "-c", "1"] if pinned and os.path.exists("/usr/bin/taskset") and (os.cpu_count() or 1) > 1 else []


class Runner:
    """Runs one case of a program in a fresh process, pinned to one core, and parses what it prints."""

    def __init__(self, bench_dir):
        self.bench_dir = bench_dir

    def path(self, program):
        return os.path.join(self.bench_dir, program)

    def output(self, program, argv):
        return subprocess.run([self.path(program)] + argv, capture_output=True, text=True, check=True).stdout

    def case(self, program, argv, impl, sample_memory=None, pinned=True):
        impl, _, allocator = impl.partition("+")
        env = dict(os.environ)
        if allocator:
            env["LD_PRELOAD"] = find_preload(allocator)
        gbench = bool(argv) and argv[0] == "gbench"
        if gbench:  # a Google Benchmark program: one benchmark, named <cell>/<impl>
            # Names are letters, digits, '/' and '-': no regex metacharacters to escape (and Google
            # Benchmark's regex rejects Python's escapes).
            cmd = [self.path(program), f"--benchmark_filter=^{argv[1]}/{impl}$", "--benchmark_format=json",
                   f"--benchmark_min_time={GBENCH_MIN_TIME}"]
        else:
            cmd = [self.path(program)] + argv + ["--impl", impl]
        process = subprocess.Popen(pin_to_one_core(pinned) + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        sampler = MemorySampler(process.pid, sample_memory) if sample_memory else None
        if sampler:
            sampler.start()
        stdout, stderr = process.communicate()
        samples = sampler.stop() if sampler else None
        if process.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({process.returncode}): {stderr.strip()}")
        result = rr.from_google_benchmark(json.loads(stdout)) if gbench else json.loads(stdout.strip().splitlines()[-1])
        if samples is not None:
            result["rss_series"] = samples
        return result

    def case_in_one_process(self, program, argv, impls, pinned=True):
        """A long-lived case: every implementation of `impls` in one process, in that order (the program's
        --impls), pinned to one core; a result per implementation, each naming it."""
        cmd = [self.path(program)] + argv + ["--impls", ",".join(impls)]
        done = subprocess.run(pin_to_one_core(pinned) + cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
        results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        if sorted(r["impl"] for r in results) != sorted(impls):
            raise RuntimeError(f"{' '.join(cmd)} printed results for {[r['impl'] for r in results]}")
        return results

    def listings(self, programs):
        """The `list` of every program that was built."""
        out = {}
        for program in programs:
            if os.path.exists(self.path(program)):
                out[program] = json.loads(self.output(program, ["list"]))
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--out", default="report")
    ap.add_argument("--full", action="store_true", help="the documents' scale, and the tuning sweeps (hours)")
    ap.add_argument("--tuning", action="store_true", help="also the sweeps that chose relo's defaults")
    ap.add_argument("--smoke", action="store_true",
                    help="every experiment at a tiny size, and the first cell of each tuning sweep (seconds)")
    ap.add_argument("--only", default="*", help="comma-separated globs of experiments (vector-env), families (applications: all its "
                    "experiments) or cells (vector-env:push-only/int/*)")
    ap.add_argument("--rounds", type=int, default=None, help="repeats per case (default 5, full 7, smoke 1)")
    ap.add_argument("--redraw", action="store_true",
                    help="rewrite the report and plots in --out from its results.json and run.json, running nothing")
    args = ap.parse_args()
    if args.redraw:
        return redraw(args.out)

    mode = "smoke" if args.smoke else "full" if args.full else "quick"
    rounds = args.rounds or (1 if args.smoke else 7 if args.full else 5)
    runner = Runner(os.path.join(args.build_dir, "bench"))
    programs = sorted({p for f in families() for p in f.PROGRAMS + getattr(f, "OPTIONAL_PROGRAMS", [])})
    # (The calibration before the runs, on a quiet machine; the fault sections model other fault costs with it.)
    ctx = Context(mode, args.tuning or args.full or args.smoke, runner.listings(programs), available_allocators(),
                  first_touch_ns())
    for program in programs:
        if not ctx.has(program):
            print(f"note: {program} was not built; the experiments that run it are left out")
    chosen = experiments_of(ctx, with_families=True)
    global GBENCH_MIN_TIME
    GBENCH_MIN_TIME = {"smoke": 0.01, "full": 0.5}.get(mode, GBENCH_MIN_TIME)

    patterns = args.only.split(",")
    plan, ran = [], []
    for family, e in chosen:
        family_name = family.__name__.split(".")[-1]
        cells = [c for c in e.cells
                 if any(fnmatch.fnmatch(e.name, p) or fnmatch.fnmatch(family_name, p) or
                        fnmatch.fnmatch(f"{e.name}:{c[0]}", p) for p in patterns)]
        if mode == "smoke" and e.tuning:
            cells = cells[:1]  # a sweep's program mode still runs; its other cells differ only in a number
        if not cells:
            continue
        ran.append((e, {label for label, _ in cells}))
        if e.one_process:  # a case per round and cell; the implementations rotate inside it
            for rnd in range(rounds):
                k = rnd % len(e.impls)
                plan += [(e, rnd, label, argv, e.impls[k:] + e.impls[:k]) for label, argv in cells]
        else:
            for (rnd, (label, argv), impl) in rr.interleave(cells, e.impls, rounds):
                plan.append((e, rnd, label, argv, impl))
    if not plan:
        sys.exit(f"nothing matches --only {args.only}")

    expected = sum(e.expected_seconds(label) for e, _, label, _, _ in plan if e.expected_seconds)
    if expected > 1800:
        print(f"this run is expected to take at least {expected / 3600:.1f} hours (the experiments' estimates for "
              f"this machine kind)", flush=True)
    results, started, failures = [], time.time(), []
    for i, (e, rnd, label, argv, impl) in enumerate(plan):
        elapsed = time.time() - started
        eta = elapsed / i * (len(plan) - i) if i else 0
        who = "every implementation in one process" if isinstance(impl, list) else impl
        progress = f"[{i + 1}/{len(plan)}] {e.name}: {label} {who} (round {rnd + 1}), about {eta:.0f}s left"
        if sys.stdout.isatty():
            print(f"\r{progress:<100}", end="", flush=True)
        elif i % max(1, len(plan) // 20) == 0:
            print(progress, flush=True)
        case_started = time.time()
        try:
            if isinstance(impl, list):
                measured = runner.case_in_one_process(e.program, argv, impl, e.pinned)
            else:
                program, name = e.program_of(impl)
                measured = [runner.case(program, argv, name, e.sample_memory, e.pinned)]
                measured[0]["impl"] = impl
        except RuntimeError as err:
            failures.append(str(err))
            continue
        for r in measured:  # (a long-lived case's time is shared by its implementations)
            r.update({"experiment": e.name, "cell": label, "round": rnd,
                      "wall_s": (time.time() - case_started) / len(measured)})
            results.append(r)
    print(f"\rran {len(plan)} cases in {time.time() - started:.0f}s" + " " * 40)

    used = [f for f in families() if any(e.program in f.PROGRAMS + getattr(f, "OPTIONAL_PROGRAMS", []) for e, _ in ran)]
    extra, extra_seconds = [], {}
    for family in used:
        if hasattr(family, "extra_runs"):
            family_started = time.time()
            extra += family.extra_runs(ctx, [(e, labels) for e, labels in ran if e.program in family.PROGRAMS],
                                       runner)
            extra_seconds[family.__name__.split(".")[-1]] = time.time() - family_started
    time_taken = rr.wall_time_line(results, extra_seconds)
    print(time_taken)

    out = args.out
    os.makedirs(out, exist_ok=True)
    rr.write_raw(results + extra, out)
    user_args = sys.argv[1:]
    if "--build-dir" in user_args:
        k = user_args.index("--build-dir")
        del user_args[k:k + 2]
    header = machine_header(args.build_dir, " ".join(["./relo.sh bench"] + user_args), ctx.first_touch_ns)
    header.append(f"- {time_taken}")
    optional = sorted({p for listing in ctx.listings.values() for p in listing["optional"]})
    header.append("- peers: std::vector, boost::container's vector, static_vector and small_vector, std::pmr's "
                  "resources, relo's containers; optional peers built in: " + (", ".join(optional) or "none") +
                  " (Abseil and LLVM from Debian's libabsl-dev and llvm-dev when installed; point CMake at "
                  "uwr::vector with -DRELO_BENCH_UWR, rvector with -DRELO_BENCH_RVECTOR, EASTL with "
                  "-DRELO_BENCH_EASTL, folly with -DRELO_BENCH_FOLLY or its installed CMake package); "
                  "global allocators found: " + (", ".join(ctx.allocators) or "none"))
    with open(os.path.join(out, "run.json"), "w") as f:
        json.dump({"setup": ctx.as_json(), "header": header, "failures": failures}, f, indent=1)
    write(out, ctx, results, extra, header, failures)
    print(f"report: {os.path.join(out, 'report.md')}")
    if failures:
        print("failures:\n  " + "\n  ".join(failures))
        sys.exit(1)


def write(out, ctx, results, extra, header, failures):
    chosen = experiments_of(ctx, with_families=True)
    rr.write_report(out, [e for _, e in chosen], families(), ctx, results, extra, header, failures)


def redraw(out):
    """The report of an earlier run, from the raw results it kept (e.g. after changing a plot)."""
    with open(os.path.join(out, "run.json")) as f:
        run_info = json.load(f)
    with open(os.path.join(out, "results.json")) as f:
        raw = json.load(f)
    results = [r for r in raw if not r.get("extra")]
    extra = [r for r in raw if r.get("extra")]
    write(out, Context.from_json(run_info["setup"]), results, extra, run_info["header"], run_info["failures"])
    print(f"report: {os.path.join(out, 'report.md')}")


def machine_header(build_dir, command, touch):
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
            m = re.match(r"(CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS|CMAKE_CXX_FLAGS_RELEASE|Boost_DIR|"
                         r"RELO_BENCH_LOOP_ALIGNMENT|RELO_BENCH_HAS_CODE_ALIGNMENT):[A-Z]+=(.*)", line)
            if m:
                cache[m.group(1)] = m.group(2)
    compiler = sh(f"{cache.get('CMAKE_CXX_COMPILER', 'c++')} --version | head -n1")
    flags = f"{cache.get('CMAKE_CXX_FLAGS', '')} {cache.get('CMAKE_CXX_FLAGS_RELEASE', '')}".strip()
    alignment = cache.get("RELO_BENCH_LOOP_ALIGNMENT", "0")
    if alignment not in ("", "0") and cache.get("RELO_BENCH_HAS_CODE_ALIGNMENT") == "1":
        flags += f" -falign-functions={alignment} -falign-loops={alignment}"
    boost = sh("grep -m1 'define BOOST_LIB_VERSION' /usr/include/boost/version.hpp | cut -d'\"' -f2")
    return [
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {cpu}, {os.cpu_count()} cores, {mem} memory, Linux {platform.release()}",
        f"- memory: {memory_setup(touch)}",
        f"- compiler: {compiler}; flags: {flags}",
        f"- libraries: Boost {boost.replace('_', '.')}, glibc {platform.libc_ver()[1]}",
        f"- command: `{command}`",
    ]


def memory_setup(touch):
    """What decides the cost of a page fault here: the transparent huge page mode and, on a VM, whether
    free memory is handed back to the host (free page reporting), after which a first touch is a fault
    in the host too (docs/vector_performance.md)."""
    def read(path):
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError:
            return None
    thp = read("/sys/kernel/mm/transparent_hugepage/enabled") or "unknown"
    thp = re.search(r"\[(\w+)\]", thp).group(1) if "[" in thp else thp
    reporting = read("/sys/module/page_reporting/parameters/page_reporting_order")
    moved = moved_touch_ns()
    return (f"transparent huge pages '{thp}'; " +
            (f"free page reporting module loaded (order {reporting})" if reporting is not None
             else "no free page reporting") +
            (f"; a first touch of a 4 KiB page costs {touch:,.0f} ns (the minor fault and the zeroed page: a "
             "cell's faults times this is the part of its time spent in them)" if touch else "") +
            (f"; a touch of a 4 KiB page that mremap moved costs {moved:,.0f} ns more than a warm one (no fault "
             "counts it; where a hypervisor shadows the guest's page tables it is about a fault's cost)"
             if moved is not None else ""))


def first_touch_ns(pages=16384, runs=5):
    """The cost of a first touch of a page, in ns: the median over `runs` of a fresh anonymous mapping written
    once a page, less the same loop over the pages already there (the interpreter's own time)."""
    import mmap
    import statistics
    import time

    def touch(m):
        start = time.perf_counter_ns()
        for offset in range(0, pages * 4096, 4096):
            m[offset] = 1
        return time.perf_counter_ns() - start

    costs = []
    try:
        for _ in range(runs + 1):
            m = mmap.mmap(-1, pages * 4096, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # (as the heap's pages)
            first = touch(m)
            costs.append((first - touch(m)) / pages)
            m.close()
    except (OSError, ValueError):
        return None
    return statistics.median(costs[1:])


def moved_touch_ns(pages=4096, runs=5):
    """The cost of touching a page again after mremap moved it to another address, in ns: the median over
    `runs` of the first touch after the move less a second one. None where there is no mremap."""
    import ctypes
    import mmap
    import statistics
    import time

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        libc.mremap.restype = ctypes.c_void_p
        libc.mremap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p]
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    except (OSError, AttributeError):
        return None
    length = pages * 4096
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
    failed = ctypes.c_void_p(-1).value

    def touch(address):
        pages_of = (ctypes.c_char * length).from_address(address)
        start = time.perf_counter_ns()
        for offset in range(0, length, 4096):
            pages_of[offset] = b"\x01"
        return time.perf_counter_ns() - start

    costs = []
    for _ in range(runs + 1):
        source = libc.mmap(None, length, mmap.PROT_READ | mmap.PROT_WRITE, flags, -1, 0)
        target = libc.mmap(None, length, 0, flags, -1, 0)  # (PROT_NONE: a reservation, as relo's)
        if failed in (source, target):
            for mapped in (source, target):
                if mapped != failed:
                    libc.munmap(mapped, length)
            return None
        libc.madvise(source, length, 15)  # (MADV_NOHUGEPAGE: 4 KiB pages, as relo's blocks have by default)
        touch(source)
        if libc.mremap(source, length, length, 3, target) != target:  # (MREMAP_MAYMOVE | MREMAP_FIXED)
            libc.munmap(source, length)
            libc.munmap(target, length)
            return None
        first = touch(target)
        costs.append((first - touch(target)) / pages)
        libc.munmap(target, length)
    return statistics.median(costs[1:])


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


if __name__ == "__main__":
    main()
