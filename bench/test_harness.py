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
