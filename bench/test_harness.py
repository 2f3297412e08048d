"""Unit tests of the benchmark harness: interleaving, statistics, the families, the report writer and the
memory sampler, on synthetic results and listings.

Run: python3 -m unittest discover -s bench -p 'test_*.py'
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report as rr  # noqa: E402
import run  # noqa: E402
from experiment import Context, experiments_of, families  # noqa: E402
from families import fixed_capacity, small_vectors, vectors  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ENV_TYPES = {"int": 4, "array": 40, "test_type": 8, "string": 32, "T_test_type": 8}


def listing(program, modes, optional=()):
    """What a program's `list` answers: modes as {name: (impls, types, params)}."""
    return {"program": program, "optional": list(optional),
            "modes": {m: {"impls": list(i), "types": dict(t), "params": list(p)} for m, (i, t, p) in modes.items()}}


def fake_context(mode="quick", tuning=False, vector_optional=(), static_optional=(), small_optional=(),
                 boost_pmr=True, allocators=(), gbench=True):
    vector_impls = ["std", "boost", "boost-gf2", "relo", "relo-stdalloc", "relo-rnever", "std-pmr", "std-pmr-pool",
                    "std-pmr-monotonic", "relo-pmr-pool", "relo-pmr-monotonic"]
    vector_impls += ["boost-pmr-pool", "boost-pmr-monotonic"] if boost_pmr else []
    vector_impls += list(vector_optional)
    listings = {
        "vector_bench": listing("vector_bench", {
            "env": (vector_impls, ENV_TYPES, []),
            "push": (vector_impls + ["std-reserve", "relo-reserve", "malloc-realloc"], {"int": 4}, []),
            "loops": (vector_impls, {"int": 4, "thingie": 8}, []),
            "latency": (vector_impls, {"int": 4, "string": 32}, []),
            "churn": (["std", "boost", "relo"] + list(vector_optional), {"int": 4, "array": 40, "string": 32,
                                                                         "test_type": 8}, [])}, vector_optional),
        "static_bench": listing("static_bench", {
            "env": (["boost", "relo", "relo-unchecked"] + list(static_optional), ENV_TYPES, [1000, 100000, 500000]),
            "sizes": ([], {"char": 1, "int": 4, "string": 32}, [])}, static_optional),
    }
    listings["loop_shapes_bench"] = listing("loop_shapes_bench", {
        "shape": (["std", "boost", "relo", "boost-small", "relo-small"] + list(vector_optional) + list(small_optional),
                  {"int": 4}, [])}, list(vector_optional) + list(small_optional))
    if gbench:
        listings["small_vector_gbench"] = listing("small_vector_gbench", {
            "small": (["std", "std-reserve", "boost", "relo"] + list(small_optional), {"int": 4}, [8, 12, 16, 32])},
            small_optional)
    return Context(mode, tuning, listings, list(allocators))


def experiment(ctx, name):
    return next(e for e in experiments_of(ctx) if e.name == name)


def synthetic(experiment_name, cell, rounds, times):
    """Results of one cell: times[impl] is a list with one time per round."""
    out = []
    for r in range(rounds):
        for impl, ts in times.items():
            out.append({"experiment": experiment_name, "cell": cell, "impl": impl, "round": r, "time_s": ts[r]})
    return out


def write_report(out, ctx, results, extra=(), header=("- machine: test",)):
    run.write(out, ctx, results, list(extra), list(header), [])
    with open(os.path.join(out, "report.md")) as f:
        return f.read()


class InterleaveTest(unittest.TestCase):
    def test_every_case_once_per_round_with_rotation(self):
        order = rr.interleave(["c1", "c2"], ["A", "B", "C"], 3)
        self.assertEqual(len(order), 2 * 3 * 3)
        for r in range(3):
            for cell in ("c1", "c2"):
                impls = [i for (rnd, c, i) in order if rnd == r and c == cell]
                self.assertEqual(sorted(impls), ["A", "B", "C"])
        firsts = [order[k][2] for k in range(0, len(order), 3)]
        self.assertEqual(firsts[:6], ["A", "A", "B", "B", "C", "C"], "the first implementation rotates per round")
        self.assertEqual([o[0] for o in order], sorted(o[0] for o in order), "rounds run one after another")


class StatisticsTest(unittest.TestCase):
    def test_paired_ratios_use_the_same_round(self):
        # B is always half of A in the same round, although A varies 3x between rounds.
        results = synthetic("e", "c", 3, {"A": [1.0, 3.0, 2.0], "B": [0.5, 1.5, 1.0]})
        ratios = rr.paired_ratios(results, "time_s", "A")
        self.assertEqual(ratios[("e", "c")]["B"], [0.5, 0.5, 0.5])
        s = rr.summarize(results, "time_s", "A")[("e", "c")]
        self.assertAlmostEqual(s["B"]["median"], 0.5)
        self.assertAlmostEqual(s["A"]["median"], 1.0)
        self.assertAlmostEqual(s["A"]["abs_median"], 2.0)
        self.assertAlmostEqual(s["B"]["abs_median"], 1.0)

    def test_median_and_spread(self):
        results = synthetic("e", "c", 5, {"A": [1, 1, 1, 1, 1], "B": [0.9, 0.3, 0.5, 0.7, 1.1]})
        s = rr.summarize(results, "time_s", "A")[("e", "c")]["B"]
        self.assertAlmostEqual(s["median"], 0.7)
        self.assertAlmostEqual(s["min"], 0.3)
        self.assertAlmostEqual(s["max"], 1.1)
        self.assertEqual(s["n"], 5)

    def test_a_round_without_the_baseline_is_skipped(self):
        results = synthetic("e", "c", 2, {"A": [1.0, 2.0], "B": [2.0, 2.0]})
        results = [r for r in results if not (r["impl"] == "A" and r["round"] == 1)]
        s = rr.summarize(results, "time_s", "A")[("e", "c")]["B"]
        self.assertEqual(s["n"], 1)
        self.assertAlmostEqual(s["median"], 2.0)


class FamiliesTest(unittest.TestCase):
    def test_the_runner_and_the_writer_name_no_experiment(self):
        names = {e.name for e in experiments_of(fake_context("full", tuning=True))}
        self.assertGreater(len(names), 10)
        for module in ("run.py", "report.py", "experiment.py"):
            with open(os.path.join(HERE, module)) as f:
                source = f.read()
            for name in names:
                self.assertNotIn(f'"{name}"', source, f"{module} names the experiment {name}")

    def test_every_experiment_has_its_baseline_and_cells(self):
        for mode in ("smoke", "quick", "full"):
            ctx = fake_context(mode, tuning=True, vector_optional=["uwr"], static_optional=["uwr", "uwr-unchecked"],
                               small_optional=["absl"])
            for e in experiments_of(ctx):
                self.assertIn(e.baseline, e.impls, e.name)
                self.assertTrue(e.cells, e.name)
                if e.summary:
                    for subject in rr.summary_subjects(e):
                        self.assertIn(subject, e.impls, e.name)
                        self.assertNotIn(subject, e.summary[1], e.name)

    def test_tuning_sweeps_only_with_tuning(self):
        quick = {e.name for e in experiments_of(fake_context("quick"))}
        tuning = {e.name for e in experiments_of(fake_context("quick", tuning=True))}
        self.assertIn("vector-env", quick)
        self.assertNotIn("growth-factor", quick)
        self.assertIn("growth-factor", tuning)
        self.assertTrue(quick < tuning)

    def test_a_family_whose_program_was_not_built_is_left_out(self):
        names = {e.name for e in experiments_of(fake_context(gbench=False))}
        self.assertNotIn("small-vector", names)
        self.assertIn("static-env", names)

    def test_element_sizes_come_from_the_program(self):
        small = vectors.push_only_iterations(4, 100, 1 << 20)
        large = vectors.push_only_iterations(4, 100, 1 << 28)
        self.assertGreater(small, 100, "the first iterations only construct the vectors")
        self.assertGreater(large, small)
        ctx = fake_context()
        wide = fake_context()
        wide.listings["vector_bench"]["modes"]["env"]["types"]["int"] = 400
        cell = dict(vectors.env_cells(ctx))["push-only/int/1"]
        wide_cell = dict(vectors.env_cells(wide))["push-only/int/1"]
        self.assertGreater(int(cell[cell.index("--iterations") + 1]), int(wide_cell[wide_cell.index("--iterations") + 1]))

    def test_boost_pmr_peers_only_when_built(self):
        self.assertNotIn("boost-pmr-pool", experiment(fake_context(boost_pmr=False), "pmr").impls)
        pmr = experiment(fake_context(boost_pmr=True), "pmr")
        self.assertIn("boost-pmr-pool", pmr.impls)
        self.assertIn("std-pmr-pool", pmr.impls)
        self.assertEqual(len(pmr.cells), 9, "every named cell exists in the environment or the loops")

    def test_static_vectors_fill_to_their_capacity_and_peers_are_optional(self):
        static = experiment(fake_context(), "static-env")
        small = experiment(fake_context(small_optional=["llvm"]), "small-vector")
        self.assertEqual(static.impls, ["boost", "relo", "relo-unchecked"])
        self.assertEqual(small.impls, ["std", "std-reserve", "boost", "relo", "llvm"])
        for _, argv in static.cells:
            self.assertEqual(argv[argv.index("--capacity") + 1], "100000")
        with_uwr = experiment(fake_context(static_optional=["uwr", "uwr-unchecked"]), "static-env")
        self.assertEqual(with_uwr.impls[-2:], ["uwr", "uwr-unchecked"])
        self.assertEqual(with_uwr.summary[1], ["boost", "uwr"], "unchecked pushes are not the peers of push_back")

    def test_loop_shapes_split_vectors_from_small_vectors(self):
        ctx = fake_context(vector_optional=["uwr"], small_optional=["absl"])
        vectors = experiment(ctx, "loop-shapes")
        small = experiment(ctx, "loop-shapes-small")
        self.assertEqual(vectors.impls, ["std", "boost", "relo", "uwr"])
        self.assertEqual(small.impls, ["std", "boost-small", "relo-small", "absl"])
        self.assertEqual(small.summary, ("relo-small", ["std", "boost-small", "absl"]))
        self.assertEqual({label.split("/")[0] for label, _ in vectors.cells},
                         {"local", "held", "indexed", "busy", "by-ref"})

    def test_global_allocators_add_columns(self):
        e = experiment(fake_context(allocators=["jemalloc"]), "global-allocators")
        self.assertEqual(e.impls, ["std", "std+jemalloc", "relo", "relo+jemalloc"])

    def test_families_are_found_in_report_order(self):
        found = families()
        self.assertEqual([f.ORDER for f in found], sorted(f.ORDER for f in found))
        for module in (vectors, fixed_capacity, small_vectors):
            self.assertIn(module, found)


class ReportTest(unittest.TestCase):
    def test_table_formats_ratios_and_the_baseline_time(self):
        results = synthetic("e", "push/int", 3, {"std": [0.2, 0.2, 0.2], "relo": [0.1, 0.05, 0.1]})
        summary = rr.summarize(results, "time_s", "std")
        table = rr.ratio_table(summary, "e", ["std", "relo"], "std")
        lines = table.splitlines()
        self.assertEqual(lines[0], "| case | std (time) | relo |")
        self.assertEqual(lines[2], "| push/int | 200.0 ms |" + " 0.50 (0.25–0.50) |")

    def test_time_taken_per_experiment_longest_first(self):
        results = [{"experiment": "a", "wall_s": 1.0}, {"experiment": "b", "wall_s": 2.5},
                   {"experiment": "a", "wall_s": 0.5}, {"experiment": "c"}]
        line = rr.wall_time_line(results, {"vectors": 4.0})
        self.assertEqual(line, "time taken: 8 s — vectors (extra) 4 s, b 2 s, a 2 s, c 0 s")

    def test_write_report_and_raw_results(self):
        results = (synthetic("vector-env", "push-only/int/1", 2, {"std": [0.2, 0.4], "relo": [0.1, 0.1]})
                   + synthetic("foresight", "n=1e6", 2, {"std-reserve": [0.01, 0.01], "relo": [0.02, 0.01]}))
        for r in results:
            r["max_rss_kb"] = 2048
        with tempfile.TemporaryDirectory() as out:
            rr.write_raw(results, out)
            report = write_report(out, fake_context("smoke"), results)
            self.assertIn("## The thesis's vector environment", report)
            self.assertIn("| push-only/int/1 | 300.0 ms |", report)
            self.assertIn("0.38 (0.25–0.50)", report)
            self.assertIn("## The foresight floor", report)
            self.assertIn("Peak resident memory", report)
            with open(os.path.join(out, "results.json")) as f:
                self.assertEqual(len(json.load(f)), len(results))
            with open(os.path.join(out, "results.csv")) as f:
                self.assertEqual(len(f.read().splitlines()), len(results) + 1)

    def test_summary_compares_relo_with_the_fastest_peer_per_cell(self):
        results = (synthetic("vector-env", "push-only/int/1", 3,
                             {"std": [1.0, 1.0, 1.0], "boost": [0.5, 0.5, 0.5], "relo": [0.25, 0.25, 0.25]})
                   + synthetic("vector-env", "all/int", 3,
                               {"std": [1.0, 1.0, 1.0], "boost": [2.0, 2.0, 2.0], "relo": [2.0, 2.0, 2.0]})
                   + synthetic("vector-env", "all/string", 3,
                               {"std": [1.0, 1.0, 1.0], "boost": [0.5, 0.5, 0.5], "relo": [0.5, 0.5, 0.5]}))
        with tempfile.TemporaryDirectory() as out:
            report = write_report(out, fake_context(), results)
        summary = report[report.index("## Summary"):report.index("## The thesis's vector environment")]
        row = next(line for line in summary.splitlines() if line.startswith("| The thesis's vector environment"))
        # push-only: 0.25 / 0.5 (boost) = 0.5; all/int: 2.0 / 1.0 (std) = 2.0; all/string: a tie with boost
        # (not a win); geometric mean 1.0.
        self.assertEqual(row, "| The thesis's vector environment | 3 | 1.00 | 0.50 (push-only/int/1) – 2.00 "
                              "(all/int) | 1 of 3 | boost | relo |")
        self.assertNotIn("Choosing", summary, "tuning sweeps are not summarized")

    def test_targets_name_their_worst_cell_and_whether_they_are_met(self):
        # relo ÷ std: push-only/int/1 0.30 (meets ≤ 0.40), push-only/int/10 0.50 (misses); all/int 0.90 and
        # all/string 1.20 fall under "every other cell" (≤ 1.0: one of two); push-only/int/50 is the floor,
        # which no target covers.
        times = {"push-only/int/1": 0.3, "push-only/int/10": 0.5, "all/int": 0.9, "all/string": 1.2,
                 "push-only/int/50": 0.9}
        results = []
        for cell, relo in times.items():
            results += synthetic("vector-env", cell, 3, {"std": [1.0, 1.0, 1.0], "relo": [relo] * 3})
        with tempfile.TemporaryDirectory() as out:
            report = write_report(out, fake_context(), results)
        targets = report[report.index("## Targets"):report.index("## The thesis's vector environment")]
        rows = [line for line in targets.splitlines() if line.startswith("| The thesis's vector environment")]
        self.assertEqual(len(rows), 3, "the string/test type target has no cell that ran")
        self.assertIn("| 2 | 0.50 (push-only/int/10) | 0.40 | no (1 of 2 cells) |", rows[0])
        self.assertIn("every other cell", rows[1])
        self.assertIn("| 2 | 1.20 (all/string) | 1.00 | no (1 of 2 cells) |", rows[1])
        self.assertIn("the fastest of std::vector and the optional vector peers", rows[2])
        self.assertIn("| 5 | 1.20 (all/string) | 1.00 | no (4 of 5 cells) |", rows[2])

    def test_a_counted_target_compares_medians_and_zero_is_as_good_as_zero(self):
        # Page faults: std 0 and relo 0 meet "≤ std::vector's" (0 ÷ 0 is 1); relo 40 against 8,904 meets it;
        # relo 1,940 against 1,684 misses it (1.15).
        faults = {"int/n=1e3": (0, 0), "array/n=1e5": (8904, 40), "test_type/n=1e5": (1684, 1940)}
        results = []
        for cell, (std, relo) in faults.items():
            results += synthetic("vector-churn", cell, 3, {"std": [1.0] * 3, "relo": [0.5] * 3})
            for r in results[-6:]:
                r["minor_faults"] = std if r["impl"] == "std" else relo
        with tempfile.TemporaryDirectory() as out:
            report = write_report(out, fake_context(), results)
        targets = report[report.index("## Targets"):]
        row = next(line for line in targets.splitlines() if "minor page faults" in line)
        self.assertIn("| 3 | 1.15 (test_type/n=1e5) | 1.00 | no (2 of 3 cells) |", row)

    def test_faults_are_modelled_at_other_fault_costs(self):
        # Here a fault costs 10 µs. relo: 1.0 s with 1,000 faults; std: 1.5 s with 50,000. Where a fault cost
        # 0.2 µs: 0.9902 s against 1.01 s (0.98); at 20 µs: 1.01 s against 2.0 s (0.505). A second cell whose
        # std time is all faults here gives no ratio at 0.2 µs.
        results = synthetic("vector-env", "push-only/int/1", 3, {"std": [1.5] * 3, "relo": [1.0] * 3})
        results += synthetic("vector-env", "push-only/int/10", 3, {"std": [0.4] * 3, "relo": [0.1] * 3})
        for r in results:
            r["minor_faults"] = {"std": 50000, "relo": 1000}[r["impl"]]
        ctx = fake_context()
        ctx.first_touch_ns = 10000
        lines = rr.fault_cost_table(experiment(ctx, "vector-env"), results, "relo", "std", ctx.first_touch_ns)
        self.assertIn("| push-only/int/1 | 0.02 | 0.98 | 0.51 | 0.98 |", lines)
        self.assertIn("| push-only/int/10 | 0.02 | — | 0.12 | — |", lines)
        self.assertEqual([], rr.fault_cost_table(experiment(ctx, "vector-env"), results, "relo", "std", None))

    def test_sampled_memory_is_plotted_per_cell(self):
        ctx = fake_context()
        e = experiment(ctx, "vector-env")
        e.sample_memory = 0.01
        results = synthetic("vector-env", "push-only/int/1", 1, {"std": [0.2], "relo": [0.1]})
        for r in results:
            r["rss_series"] = [[0.0, 1024], [0.1, 4096]]
        with tempfile.TemporaryDirectory() as out:
            lines = rr.experiment_section(e, results, out)
            if rr.pyplot() is not None:
                self.assertIn("![resident memory, push-only/int/1](rss-vector-env-push-only-int-1.png)", lines)
                self.assertTrue(os.path.exists(os.path.join(out, "rss-vector-env-push-only-int-1.png")))


class RedrawTest(unittest.TestCase):
    def test_redraw_rebuilds_the_report_from_the_kept_results(self):
        results = synthetic("vector-env", "push-only/int/1", 2, {"std": [0.2, 0.4], "relo": [0.1, 0.1]})
        stats = {"experiment": "growth-stats", "cell": "push-only/int/1", "impl": "relo", "round": 0,
                 "time_s": 0.1, "reallocations": 4, "in_place": 3, "bytes_moved": 1 << 20, "extra": True}
        with tempfile.TemporaryDirectory() as out:
            rr.write_raw(results + [stats], out)
            with open(os.path.join(out, "run.json"), "w") as f:
                json.dump({"setup": fake_context("smoke", gbench=False).as_json(), "header": ["- machine: kept"],
                           "failures": []}, f)
            run.redraw(out)
            with open(os.path.join(out, "report.md")) as f:
                report = f.read()
        self.assertIn("- machine: kept", report)
        self.assertIn("| push-only/int/1 | 300.0 ms |", report)
        self.assertIn("| push-only/int/1 | relo | 4 | 3 (75%) | 1.0 MiB |", report)
        self.assertNotIn("## Small vectors", report, "no Google Benchmark in the kept setup: no such section")


class LatencyTest(unittest.TestCase):
    def test_latency_table_takes_medians_over_rounds(self):
        e = experiment(fake_context("smoke"), "push-latency")
        cell = e.cells[0][0]
        results = []
        for rnd, (p99, peak) in enumerate([(20.0, 2e6), (40.0, 4e6), (30.0, 9e6)]):
            results.append({"experiment": "push-latency", "cell": cell, "impl": "relo", "round": rnd,
                            "time_s": 0.1, "p50_ns": 10.0, "p99_ns": p99, "p999_ns": 900.0, "p9999_ns": 12e3,
                            "max_ns": peak, "over_10us": rnd, "histogram_ns": [8.0, 16.0], "histogram_count": [5, 1]})
        with tempfile.TemporaryDirectory() as out:
            lines = vectors.latency_section(e, results, out)
        row = next(line for line in lines if line.startswith(f"| {cell} | relo |"))
        self.assertEqual(row, f"| {cell} | relo | 10 ns | 30 ns | 900 ns | 12.0 µs | 4.0 ms | 1 |")
        self.assertNotIn("| std |", "\n".join(lines), "implementations without results get no row")

    def test_latency_formatting(self):
        self.assertEqual(rr.format_latency(999), "999 ns")
        self.assertEqual(rr.format_latency(1500), "1.5 µs")
        self.assertEqual(rr.format_latency(2.5e7), "25.0 ms")


class MemorySamplerTest(unittest.TestCase):
    def test_it_sees_a_process_grow(self):
        # A child that touches 64 MiB, holds it briefly, and exits.
        child = subprocess.Popen([sys.executable, "-c",
                                  "import time; b = bytearray(64 << 20); time.sleep(0.3)"])
        sampler = run.MemorySampler(child.pid, 0.01)
        sampler.start()
        child.wait()
        samples = sampler.stop()
        self.assertGreater(len(samples), 3)
        self.assertEqual([t for t, _ in samples], sorted(t for t, _ in samples))
        self.assertGreater(max(kb for _, kb in samples), 64 << 10, "the 64 MiB buffer is resident")


class GoogleBenchmarkTest(unittest.TestCase):
    def test_real_time_per_iteration_in_seconds(self):
        report = {"context": {}, "benchmarks": [
            {"name": "small/8/relo", "run_type": "iteration", "iterations": 1000, "real_time": 250.0,
             "cpu_time": 249.0, "time_unit": "us"}]}
        r = rr.from_google_benchmark(report)
        self.assertAlmostEqual(r["time_s"], 250e-6)
        self.assertEqual(r["iterations"], 1000)

    def test_an_empty_report_is_an_error(self):
        with self.assertRaises(RuntimeError):
            rr.from_google_benchmark({"benchmarks": []})



class P0089FamiliesTest(unittest.TestCase):
    """The four benchmarks of P0089: their experiments at every scale, and sections that put the paper's
    tables beside synthetic results."""

    def context(self, mode="quick", tuning=False):
        ctx = fake_context(mode, tuning, allocators=["mimalloc"])
        strategies = [f"AS{i}" for i in range(1, 15)] + ["std-pool", "std-monotonic", "AS7-cache0", "AS3-cache0",
                                                         "AS7-cache1m", "AS7-cache64m", "AS3-cache1m", "AS3-cache64m"]
        ctx.listings["structures_bench"] = listing("structures_bench", {"run": (strategies, {"leaf": 4}, [])})
        ctx.listings["locality_bench"] = listing("locality_bench", {"run": (["global", "multipool", "multipool-arena"],
                                                                             {"int": 4}, [])})
        ctx.listings["utilization_bench"] = listing("utilization_bench", {
            "run": (["AS1", "AS2", "AS3", "AS5", "AS7", "AS9", "AS11", "AS13", "std-pool"], {"bytes": 1}, [])})
        ctx.listings["contention_bench"] = listing("contention_bench", {
            "run": (["AS1", "AS2", "AS3", "AS5", "AS7", "AS9", "AS11", "AS13", "relo-sync", "std-sync-pool"],
                    {"bytes": 1}, [])})
        return ctx

    def test_summary_takes_relos_best_strategy_per_cell_and_names_it(self):
        # Benchmark I: relo's fastest strategy in each cell against the fastest other allocator.
        results = (synthetic("structures-DS1", "2^6", 3,
                             {"AS1": [1.0] * 3, "AS3": [0.5] * 3, "AS7": [0.8] * 3, "std-pool": [0.6] * 3})
                   + synthetic("structures-DS1", "2^10", 3,
                               {"AS1": [1.0] * 3, "AS3": [0.9] * 3, "AS7": [0.4] * 3, "std-pool": [0.5] * 3}))
        with tempfile.TemporaryDirectory() as out:
            report = write_report(out, self.context(), results)
        summary = report[report.index("## Summary"):report.index("## Targets")]
        row = next(line for line in summary.splitlines() if line.startswith("| P0089 benchmark I, DS1"))
        # 2^6: AS3 0.5 / std-pool 0.6 = 0.83; 2^10: AS7 0.4 / 0.5 = 0.80; geometric mean 0.82.
        self.assertEqual(row, "| P0089 benchmark I, DS1: vector<int> | 2 | 0.82 | 0.80 (2^10) – 0.83 (2^6) | 2 of 2 | "
                              "std-pool | AS3 (1), AS7 (1) |")

    def test_every_scale_has_cells_and_full_gives_an_estimate(self):
        for mode in ("smoke", "quick", "full"):
            names = {e.name: e for e in experiments_of(self.context(mode, tuning=True))}
            for name in ["structures-DS1", "structures-DS12", "locality", "utilization", "contention"]:
                self.assertIn(name, names)
                self.assertTrue(names[name].cells)
            self.assertIn("AS1+mimalloc", names["structures-DS3"].impls)
        def seconds(mode, rounds):  # as the runner adds them up: every case of every round
            return sum(e.expected_seconds(label) * len(e.impls) * rounds for e in experiments_of(self.context(mode))
                       if e.expected_seconds for label, _ in e.cells)

        self.assertGreater(seconds("full", 7) / 3600, 24)  # the paper's scale takes days: the runner says so
        self.assertLess(seconds("quick", 5), 600)

    def test_sections_show_the_papers_tables_beside_the_results(self):
        ctx = self.context("smoke")
        exps = {e.name: e for e in experiments_of(ctx)}
        results = []
        for name in ("structures-DS3", "locality", "utilization", "contention"):
            e = exps[name]
            for label, _ in e.cells:
                rows = synthetic(name, label, 2, {impl: [0.01 * (1 + k % 3), 0.012 * (1 + k % 3)]
                                                  for k, impl in enumerate(e.impls)})
                for r in rows:
                    r["leaves"] = 1024
                    r["max_rss_kb"] = 4096
                results += rows
        results.append({"experiment": "utilization", "cell": exps["utilization"].cells[0][0], "impl": "AS3",
                        "round": 0, "skipped": "more than half of the machine's memory", "footprint_bytes": 2 ** 35})
        with tempfile.TemporaryDirectory() as out:
            text = write_report(out, ctx, results)
        self.assertIn("The paper's ratios to AS1 (its Table 5", text)
        self.assertIn("seconds for 2^27 leaves", text)
        self.assertIn("the benefit of the local allocator", text)
        self.assertIn("The paper's percentages of AS1", text)
        self.assertIn("Not run:", text)
        self.assertIn("about 32.0 GiB", text)


class ApplicationsSharesTest(unittest.TestCase):
    """The applications family's sort of perf's samples by kind of code."""
    REPORT = """
# Overhead  Shared Object      Symbol
    40.00%  applications_bench  [.] unsigned long relo_bench::applications::(anonymous namespace)::sparse_once<relo::vector<relo::vector<std::pair<int, double>, relo::page_allocator<std::pair<int, double>, relo::page_allocator_policy> > > >(long, relo::page_allocator<relo::vector<x> > const&)
    20.00%  libc.so.6           [.] _int_malloc
    10.00%  applications_bench  [.] relo::detail::block_ops<relo::page_allocator<int, relo::page_allocator_policy>, int>::reallocate(relo::page_allocator<int, relo::page_allocator_policy>, relo::detail::heap_block<int>, unsigned long, unsigned long)
    10.00%  applications_bench  [.] relo::monotonic_resource::do_allocate(unsigned long, unsigned long)
     5.00%  libc.so.6           [.] __memmove_avx_unaligned_erms
    15.00%  [kernel.kallsyms]   [k] clear_page_erms
"""

    def test_kinds_by_function_name_not_template_arguments(self):
        from families import applications
        shares = applications.shares_of_report(self.REPORT)
        self.assertEqual(shares, {"allocation": 30.0, "page faults": 15.0, "container": 15.0, "program": 40.0})

    def test_no_samples_is_none(self):
        from families import applications
        self.assertIsNone(applications.shares_of_report("# nothing sampled\n"))


class ApplicationsInstructionsTest(unittest.TestCase):
    """The applications family's instruction counts: cachegrind's report read, the timed runs set, the table."""

    def test_reads_cachegrinds_count(self):
        from families import applications
        report = "==26775== \n==26775== I   refs:      1,429,936,826\n"
        self.assertEqual(applications.instructions_of(report), 1429936826)
        self.assertIsNone(applications.instructions_of("==1== ERROR SUMMARY: 0 errors\n"))

    def test_sets_the_timed_runs(self):
        from families import applications
        argv = ["run", "--program", "json", "--scale", "1", "--reps", "5"]
        self.assertEqual(applications.with_reps(argv, 2), ["run", "--program", "json", "--scale", "1", "--reps", "2"])
        self.assertEqual(argv[-1], "5")  # (a copy)
        self.assertEqual(applications.with_reps(["run"], 1), ["run", "--reps", "1"])

    def test_table_divides_by_std(self):
        from families import applications
        extra = [{"experiment": "applications-instructions", "cell": "json", "impl": "std", "instructions": 1000},
                 {"experiment": "applications-instructions", "cell": "json", "impl": "relo", "instructions": 1015},
                 {"experiment": "applications-instructions", "cell": "graph", "impl": "std", "instructions": 400},
                 {"experiment": "applications-instructions", "cell": "graph", "impl": "relo", "unavailable": "x"}]
        lines = applications.instructions_section(extra)
        self.assertIn("| json | 1,000 | 1.015 |", lines)
        self.assertIn("| graph | 400 | – |", lines)

    def test_unavailable_says_why(self):
        from families import applications
        lines = applications.instructions_section([{"experiment": "applications-instructions", "cell": "-",
                                                    "impl": "-", "unavailable": "valgrind is not installed"}])
        self.assertIn("Not counted: valgrind is not installed.", lines)


class MedianIntervalTest(unittest.TestCase):
    """The confidence interval of a median from order statistics."""

    def test_nine_rounds_take_the_second_and_eighth(self):
        low, high, coverage = rr.median_interval([9, 1, 8, 2, 7, 3, 6, 4, 5])
        self.assertEqual((low, high), (2, 8))
        self.assertAlmostEqual(coverage, 1 - 2 * 10 / 512)

    def test_twenty_rounds_take_the_sixth_and_fifteenth(self):
        low, high, coverage = rr.median_interval(list(range(1, 21)))
        self.assertEqual((low, high), (6, 15))
        self.assertGreaterEqual(coverage, 0.95)

    def test_no_values_is_an_error(self):
        with self.assertRaises(ValueError):
            rr.median_interval([])

    def test_too_few_rounds_give_the_range(self):
        low, high, coverage = rr.median_interval([3.0, 1.0, 2.0])
        self.assertEqual((low, high), (1.0, 3.0))
        self.assertAlmostEqual(coverage, 0.75)


class ChartScaleTest(unittest.TestCase):
    def test_a_peer_25_times_slower_puts_the_bars_on_a_log_scale(self):
        self.assertTrue(rr.wants_log_scale([1.0, 0.7, 1.2, 25.0]))

    def test_bars_within_a_few_times_stay_linear(self):
        self.assertFalse(rr.wants_log_scale([1.0, 0.3, 2.0]))
        self.assertFalse(rr.wants_log_scale([1.0]))
        self.assertFalse(rr.wants_log_scale([0.0, 1.0]))


if __name__ == "__main__":
    unittest.main()
