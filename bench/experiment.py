"""What the runner (run.py) and the report writer (report.py) know of a family: experiments and a context.

A *family* is a module in bench/families/ (found there; nothing else names it). It declares:

    PROGRAMS = ["my_bench"]          the programs it runs (built by bench/CMakeLists.txt); a family whose
                                     program was not built is left out, with a note
    ORDER = 50                       where its sections stand in the report (lower first)
    def experiments(ctx): ...        its experiments (a list of Experiment), for ctx.mode and ctx.tuning

and may declare

    def extra_runs(ctx, ran, runner): ...     untimed runs after the timed ones (e.g. statistics), given
                                              [(experiment, labels of its cells that ran)] and the runner
                                              (runner.case(program, argv, impl), runner.output(program,
                                              argv)); returns results marked "extra": True
    def extra_section(ctx, extra, out): ...   report lines for those results (its own plots go to out)

Everything the family knows of its programs (implementations, element types and their sizes, optional
peers, parameters) comes from the programs' `list`, through ctx.
"""
from __future__ import annotations

import importlib
import os
import pkgutil


class Experiment:
    """A named set of cells, each measured for every implementation, as ratios to a baseline.

    cells: [(label, argv without --impl)]; metric: the result field compared; tuning: a sweep that chose
    a default (run with --tuning and --full only); summary: (subject, peers) for the report's opening
    summary, or None; chart_by: cell label -> chart name, for one bar chart per group (default: one);
    section: (experiment, results, out) -> report lines after the ratio table; sample_memory: seconds
    between samples of the process's resident memory (None: no sampling); pinned: each case on one core
    (False: on all of them, for experiments that run several threads); bar_charts: False when the section
    draws its own figures; expected_seconds: cell label -> the expected seconds of one case, for the
    estimate a long run prints before it starts (None: unknown); impl_programs: implementation ->
    (program, its name there) for implementations that another program runs (a build with other flags),
    with the same arguments; targets: [Target], each a line of the report's table of targets; one_process:
    a long-lived experiment, whose case per round and cell runs every implementation in one process, in
    turn, after a heap history (the program's --impls), instead of each in a fresh process."""

    def __init__(self, name, title, description, program, impls, baseline, cells, metric="time_s", tuning=False,
                 summary=None, chart_by=None, section=None, sample_memory=None, pinned=True, bar_charts=True,
                 expected_seconds=None, impl_programs=None, targets=(), one_process=False):
        self.name, self.title, self.description = name, title, description
        self.program, self.impls, self.baseline = program, impls, baseline
        self.cells = cells
        self.metric = metric
        self.tuning = tuning
        self.summary = summary
        self.chart_by = chart_by
        self.section = section
        self.sample_memory = sample_memory
        self.pinned = pinned
        self.bar_charts = bar_charts
        self.expected_seconds = expected_seconds
        self.impl_programs = impl_programs or {}
        self.targets = list(targets)
        self.one_process = one_process

    def program_of(self, impl):
        """(program, implementation name in it) that runs impl."""
        return self.impl_programs.get(impl, (self.program, impl))


class Target:
    """A performance target: in every cell (or those `cells` accepts: label -> bool), the subject's time
    (the fastest of the subjects, when a list) divided by the fastest of `against` (medians of ratios
    measured in the same rounds) is at most `bound`; `metric` another result field than the experiment's
    (e.g. "minor_faults"); with `allowance` (in the metric's unit, with a metric) the bound is
    subject ≤ bound × against + allowance, and the ratio reported is subject ÷ (against + allowance ÷ bound).
    The report lists each with the worst cell and whether it is met."""

    def __init__(self, text, subject, against, bound, cells=None, metric=None, allowance=0):
        self.text, self.bound, self.metric, self.allowance = text, bound, metric, allowance
        self.subjects = [subject] if isinstance(subject, str) else list(subject)
        self.against = [against] if isinstance(against, str) else list(against)
        self.cells = cells


def size_label(n):
    """A cell's size as its label writes it: 1000 -> "n=1e3"."""
    return f"n={n:.0e}".replace("+0", "")


def memory_limit():
    """Half of the machine's memory (bytes): a case that would need more is skipped (the program is told
    with --memory-limit and reports the footprint it would have needed), not run into the OOM killer."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024 // 2
    except OSError:
        pass
    return 8 << 30


def skipped_lines(results):
    """The report's list of the cases a program skipped, with why and the memory they would have needed."""
    skipped = sorted({(r["cell"], r["impl"], r["skipped"], r.get("footprint_bytes", 0)) for r in results
                      if "skipped" in r})
    if not skipped:
        return []
    return ["", "Not run:", ""] + [f"- {cell}, {impl}: {why} (it would need about {footprint / (1 << 30):.1f} GiB)"
                                   for cell, impl, why, footprint in skipped]


def relo_against_peers(impls, exclude=()):
    """The usual summary: relo against every implementation that is not relo's own variant."""
    return ("relo", [i for i in impls if not i.startswith("relo") and i not in exclude])


class Context:
    """The run's settings and what the built programs said of themselves (their `list`)."""

    def __init__(self, mode, tuning, listings, allocators, first_touch_ns=None):
        self.mode, self.tuning = mode, tuning
        self.listings = listings  # program -> its `list` answer
        self.allocators = allocators  # global allocators found for LD_PRELOAD
        self.first_touch_ns = first_touch_ns  # the machine's cost of a page's first touch (None: not measured)

    def as_json(self):
        return {"mode": self.mode, "tuning": self.tuning, "listings": self.listings, "allocators": self.allocators,
                "first_touch_ns": self.first_touch_ns}

    @staticmethod
    def from_json(setup):
        return Context(setup["mode"], setup["tuning"], setup["listings"], setup["allocators"],
                       setup.get("first_touch_ns"))

    def has(self, program):
        return program in self.listings

    def _mode(self, program, mode):
        return self.listings[program]["modes"][mode]

    def impls(self, program, mode):
        return list(self._mode(program, mode)["impls"])

    def types(self, program, mode):
        """{element type: sizeof}"""
        return dict(self._mode(program, mode)["types"])

    def params(self, program, mode):
        return list(self._mode(program, mode)["params"])

    def optional(self, program):
        """The optional peers the program was built with."""
        return list(self.listings[program]["optional"])

    def pick(self, scales):
        """scales[self.mode]: {"smoke": ..., "quick": ..., "full": ...}"""
        return scales[self.mode]


def families():
    """The family modules in bench/families/, in report order."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "families")
    modules = [importlib.import_module(f"families.{m.name}") for m in pkgutil.iter_modules([here])]
    return sorted(modules, key=lambda m: (m.ORDER, m.__name__))


def experiments_of(ctx, with_families=False):
    """Every experiment of every family whose programs were built (tuning ones only with ctx.tuning)."""
    out = []
    for family in families():
        if not all(ctx.has(p) for p in family.PROGRAMS):
            continue
        for e in family.experiments(ctx):
            if e.tuning and not ctx.tuning:
                continue
            out.append((family, e) if with_families else e)
    return out
