"""Unit tests of the benchmark harness: interleaving, statistics and the report writer, on synthetic results.

Run: python3 -m unittest discover -s bench -p 'test_*.py'
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relo_report as rr  # noqa: E402
import run  # noqa: E402


def synthetic(experiment, cell, rounds, times):
    """Results of one cell: times[impl] is a list with one time per round."""
    out = []
    for r in range(rounds):
        for impl, ts in times.items():
            out.append({"experiment": experiment, "cell": cell, "impl": impl, "round": r, "time_s": ts[r]})
    return out


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


class ReportTest(unittest.TestCase):
    def test_table_formats_ratios_and_the_baseline_time(self):
        results = synthetic("e", "push/int", 3, {"std": [0.2, 0.2, 0.2], "relo": [0.1, 0.05, 0.1]})
        summary = rr.summarize(results, "time_s", "std")
        table = rr.ratio_table(summary, "e", ["std", "relo"], "std")
        lines = table.splitlines()
        self.assertEqual(lines[0], "| case | std (time) | relo |")
        self.assertEqual(lines[2], "| push/int | 200.0 ms | 0.50 (0.25–0.50) |")

    def test_write_report_and_raw_results(self):
        results = (synthetic("vector-env", "push-only/int/1", 2, {"std": [0.2, 0.4], "relo": [0.1, 0.1]})
                   + synthetic("foresight", "n=1e6", 2, {"std-reserve": [0.01, 0.01], "relo": [0.02, 0.01]}))
        for r in results:
            r["max_rss_kb"] = 2048
        experiments = run.vector_experiments("smoke", [])
        with tempfile.TemporaryDirectory() as out:
            rr.write_raw(results, out)
            run.write_report(out, experiments, results, [], ["- machine: test"], [])
            report = open(os.path.join(out, "report.md")).read()
            self.assertIn("## The thesis's vector environment", report)
            self.assertIn("| push-only/int/1 | 300.0 ms |", report)
            self.assertIn("0.38 (0.25–0.50)", report)
            self.assertIn("## The foresight floor", report)
            self.assertIn("Peak resident memory", report)
            with open(os.path.join(out, "results.json")) as f:
                self.assertEqual(len(json.load(f)), len(results))
            with open(os.path.join(out, "results.csv")) as f:
                self.assertEqual(len(f.read().splitlines()), len(results) + 1)


class RedrawTest(unittest.TestCase):
    def test_redraw_rebuilds_the_report_from_the_kept_results(self):
        results = synthetic("vector-env", "push-only/int/1", 2, {"std": [0.2, 0.4], "relo": [0.1, 0.1]})
        stats = {"experiment": "growth-stats", "cell": "push-only/int/1", "impl": "relo", "round": 0,
                 "time_s": 0.1, "reallocations": 4, "in_place": 3, "bytes_moved": 1 << 20}
        setup = {"mode": "smoke", "optional": [], "small_optional": [], "allocators": [], "gbench": False}
        with tempfile.TemporaryDirectory() as out:
            rr.write_raw(results + [stats], out)
            with open(os.path.join(out, "run.json"), "w") as f:
                json.dump({"setup": setup, "header": ["- machine: kept"], "failures": []}, f)
            run.redraw(out)
            report = open(os.path.join(out, "report.md")).read()
        self.assertIn("- machine: kept", report)
        self.assertIn("| push-only/int/1 | 300.0 ms |", report)
        self.assertIn("| push-only/int/1 | relo | 4 | 3 (75%) | 1.0 MiB |", report)
        self.assertNotIn("## Small vectors", report, "no Google Benchmark in the kept setup: no such section")


class LatencyTest(unittest.TestCase):
    def test_latency_table_takes_medians_over_rounds(self):
        experiment = next(e for e in run.vector_experiments("smoke", []) if e.name == "push-latency")
        cell = experiment.cells[0][0]
        results = []
        for rnd, (p99, peak) in enumerate([(20.0, 2e6), (40.0, 4e6), (30.0, 9e6)]):
            results.append({"experiment": "push-latency", "cell": cell, "impl": "relo", "round": rnd,
                            "time_s": 0.1, "p50_ns": 10.0, "p99_ns": p99, "p999_ns": 900.0, "p9999_ns": 12e3,
                            "max_ns": peak, "over_10us": rnd, "histogram_ns": [8.0, 16.0], "histogram_count": [5, 1]})
        with tempfile.TemporaryDirectory() as out:
            lines = run.latency_section(results, experiment, out)
        row = next(line for line in lines if line.startswith(f"| {cell} | relo |"))
        self.assertEqual(row, f"| {cell} | relo | 10 ns | 30 ns | 900 ns | 12.0 µs | 4.0 ms | 1 |")
        self.assertNotIn("| std |", "\n".join(lines), "implementations without results get no row")

    def test_latency_formatting(self):
        self.assertEqual(rr.format_latency(999), "999 ns")
        self.assertEqual(rr.format_latency(1500), "1.5 µs")
        self.assertEqual(rr.format_latency(2.5e7), "25.0 ms")


class PlanTest(unittest.TestCase):
    def test_iterations_grow_with_scale_and_cover_construction(self):
        small = run.push_only_iterations("int", 100, 1 << 20)
        large = run.push_only_iterations("int", 100, 1 << 28)
        self.assertGreater(small, 100, "the first iterations only construct the vectors")
        self.assertGreater(large, small)

    def test_every_experiment_has_its_baseline_among_its_implementations(self):
        for mode in ("smoke", "quick", "full"):
            for e in run.vector_experiments(mode, []) + run.container_experiments(mode, ["uwr"], ["absl"]):
                self.assertIn(e.baseline, e.impls, e.name)
                self.assertTrue(e.cells, e.name)

    def test_boost_pmr_peers_only_when_built(self):
        def pmr(boost):
            return next(e for e in run.vector_experiments("quick", [], (), boost) if e.name == "pmr")
        self.assertNotIn("boost-pmr-pool", pmr(False).impls)
        self.assertIn("boost-pmr-pool", pmr(True).impls)
        self.assertIn("std-pmr-pool", pmr(False).impls)
        self.assertEqual(len(pmr(True).cells), 9, "every named cell exists in the environment or the loops")

    def test_static_vectors_fill_to_their_capacity_and_peers_are_optional(self):
        static, small = run.container_experiments("quick", [], ["llvm"])
        self.assertEqual(static.impls, ["boost", "relo", "relo-unchecked"])
        self.assertEqual(small.impls, ["std", "std-reserve", "boost", "relo", "llvm"])
        for _, argv in static.cells:
            self.assertEqual(argv[argv.index("--capacity") + 1], "100000")


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


if __name__ == "__main__":
    unittest.main()
