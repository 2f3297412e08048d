"""The report writer of relo's benchmark suite: statistics, tables, plots, and report.md.

Kept apart from the runner (bench/run.py) so that it can be tested on synthetic results and used to
redraw a report from the raw results (results.json) without rerunning anything. It knows no experiment
by name: every experiment gets the same section (ratio table, bar charts, resident-memory charts when
sampled) plus what its family adds (Experiment.section, the family's extra_section).

A *result* is one measurement: a dict with at least "experiment", "cell" (what was measured, as a
string), "impl" and "round", plus the metrics the program printed ("time_s", ...).
"""
from __future__ import annotations

import json
import math
import os
import statistics
import sys
from collections import OrderedDict, defaultdict


def interleave(cells, impls, rounds):
    """The order to run cases in: for every round and cell, every implementation once (A B C A B C ...).

    The implementations rotate from round to round so that none always runs first (cold caches) or
    right after the same neighbour."""
    order = []
    for r in range(rounds):
        for cell in cells:
            k = r % len(impls) if impls else 0
            for impl in impls[k:] + impls[:k]:
                order.append((r, cell, impl))
    return order


def from_google_benchmark(report):
    """One result from a Google Benchmark JSON report holding one benchmark: its real time per iteration
    in seconds (time_s), and the iteration count."""
    runs = [b for b in report.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
    if not runs:
        raise RuntimeError("the Google Benchmark report has no benchmark")
    b = runs[0]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
    return {"name": b["name"], "time_s": b["real_time"] * scale, "iterations": b.get("iterations", 0)}


def median(values):
    return statistics.median(values) if values else float("nan")


def paired_ratios(results, metric, baseline):
    """For every (experiment, cell, impl): the per-round ratios metric(impl) / metric(baseline), measured
    in the same round. Returns {(experiment, cell): {impl: [ratios]}}."""
    by_round = defaultdict(dict)
    for r in results:
        if metric in r:
            by_round[(r["experiment"], r["cell"], r["round"])][r["impl"]] = r[metric]
    ratios = defaultdict(lambda: defaultdict(list))
    for (experiment, cell, _), values in by_round.items():
        base = values.get(baseline)
        if not base:
            continue
        for impl, v in values.items():
            ratios[(experiment, cell)][impl].append(v / base)
    return ratios


def summarize(results, metric, baseline):
    """{(experiment, cell): {impl: {"median", "min", "max", "n", "abs_median"}}}: the median of the paired
    ratios with their spread, and the median absolute value of the metric."""
    ratios = paired_ratios(results, metric, baseline)
    absolute = defaultdict(list)
    for r in results:
        if metric in r:
            absolute[(r["experiment"], r["cell"], r["impl"])].append(r[metric])
    summary = OrderedDict()
    for key in sorted(ratios, key=lambda k: _cell_order(results, k)):
        summary[key] = OrderedDict()
        for impl, values in ratios[key].items():
            summary[key][impl] = {
                "median": median(values),
                "min": min(values),
                "max": max(values),
                "n": len(values),
                "abs_median": median(absolute[(key[0], key[1], impl)]),
            }
    return summary


def median_interval(values, confidence=0.95):
    """A confidence interval of the median of `values` from their order statistics (no assumption on their
    distribution): (low, high, coverage), the widest pair of ranks k and n - k + 1 whose coverage, from the
    binomial distribution of a sample's values below the median, is at least `confidence`; the whole range
    (and its smaller coverage) when the rounds are too few for it."""
    x = sorted(values)
    n = len(x)
    if n == 0:
        raise ValueError("median_interval of no values")
    below = 0.0  # P(fewer than k of n values below the median), k = 1, 2, ...
    k = 0
    for j in range(n + 1):
        p = math.comb(n, j) / 2 ** n
        if below + p > (1 - confidence) / 2:
            break
        below += p
        k = j + 1
    if k == 0:
        return x[0], x[-1], 1 - 2 / 2 ** n
    return x[k - 1], x[n - k], 1 - 2 * below


def _cell_order(results, key):
    for i, r in enumerate(results):
        if (r["experiment"], r["cell"]) == key:
            return i
    return len(results)


def format_ratio(s):
    if s["n"] == 1:
        return f"{s['median']:.2f}"
    return f"{s['median']:.2f} ({s['min']:.2f}–{s['max']:.2f})"


def format_seconds(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def metric_format(metric):
    """(what the metric is called, how one of its values is written): time, or memory for fields in kB."""
    if metric.endswith("_kb"):
        return "memory", lambda kb: f"{kb / 1024:.1f} MiB"
    return "time", format_seconds


def ratio_table(summary, experiment, impls, baseline, metric="time_s"):
    """A markdown table: one row per cell, the baseline's absolute median and every implementation's
    median ratio to it (lower is faster, or smaller) with the min–max over rounds."""
    metric_label, format_value = metric_format(metric)
    lines = [
        f"| case | {baseline} ({metric_label}) | " + " | ".join(i for i in impls if i != baseline) + " |",
        "|---|---:|" + "---:|" * len([i for i in impls if i != baseline]),
    ]
    for (exp, cell), per_impl in summary.items():
        if exp != experiment or baseline not in per_impl:
            continue
        row = [cell, format_value(per_impl[baseline]["abs_median"])]
        for impl in impls:
            if impl == baseline:
                continue
            row.append(format_ratio(per_impl[impl]) if impl in per_impl else "–")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def wall_time_line(results, extra_seconds=None):
    """How long the run took per experiment (cases in fresh processes, start-up included) and per family's
    extra runs, longest first."""
    seconds = {}
    for r in results:
        seconds[r["experiment"]] = seconds.get(r["experiment"], 0.0) + r.get("wall_s", 0.0)
    for family, s in (extra_seconds or {}).items():
        seconds[f"{family} (extra)"] = s
    total = sum(seconds.values())
    parts = [f"{name} {s:.0f} s" for name, s in sorted(seconds.items(), key=lambda kv: -kv[1])]
    return f"time taken: {total:.0f} s — " + ", ".join(parts)


def write_raw(results, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=0)
    keys = sorted({k for r in results for k, v in r.items() if not isinstance(v, list)})
    with open(os.path.join(out_dir, "results.csv"), "w") as f:
        f.write(",".join(keys) + "\n")
        for r in results:
            f.write(",".join(_csv(r.get(k, "")) for k in keys) + "\n")


def _csv(v):
    s = str(v)
    return '"' + s.replace('"', '""') + '"' if ("," in s or '"' in s) else s


def pyplot():
    """matplotlib.pyplot on the non-interactive backend, or None when this interpreter lacks matplotlib
    (the report then says so instead of showing plots)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def save_figure(plt, fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


LOG_SCALE_SPREAD = 8


def wants_log_scale(medians):
    """A log scale when the bars span more than LOG_SCALE_SPREAD× (one slow peer, such as std::pmr's
    synchronized pool at 25× glibc, would flatten every other bar to the floor on a linear one)."""
    positive = [m for m in medians if m > 0]
    return len(positive) > 1 and max(positive) / min(positive) > LOG_SCALE_SPREAD


def bar_chart(summary, experiment, impls, baseline, title, path, group_of=None, metric="time_s"):
    """Bars of the median ratio per cell and implementation, with min–max error bars (the thesis's
    figures, as ratios). Returns the path, or None without matplotlib."""
    plt = pyplot()
    if plt is None:
        return None
    cells = [cell for (exp, cell) in summary if exp == experiment]
    if not cells:
        return None
    shown = [i for i in impls if any(i in summary[(experiment, c)] for c in cells)]
    # Wide enough for the bars, but no wider than a page: a wider figure shrinks to illegibility.
    fig, ax = plt.subplots(figsize=(min(16, max(6, 1.2 * len(cells) * max(1, len(shown)) / 3)), 4.5))
    width = 0.8 / max(1, len(shown))
    log_scale = wants_log_scale([summary[(experiment, c)][i]["median"] for c in cells for i in shown
                                 if i in summary[(experiment, c)]])
    for k, impl in enumerate(shown):
        xs, ys, lo, hi = [], [], [], []
        for j, cell in enumerate(cells):
            s = summary[(experiment, cell)].get(impl)
            if s is None:
                continue
            xs.append(j + k * width)
            ys.append(s["median"])
            lo.append(s["median"] - s["min"])
            hi.append(s["max"] - s["median"])
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=2, label=impl)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([j + width * (len(shown) - 1) / 2 for j in range(len(cells))])
    ax.set_xticklabels(cells, rotation=20, ha="right", fontsize=8)
    if log_scale:
        ax.set_yscale("log")
    what = metric_format(metric)[0]
    ax.set_ylabel(f"{what} / {baseline}'s (lower is better{', log scale' if log_scale else ''})")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return save_figure(plt, fig, path)


def format_latency(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.1f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def histogram_chart(histograms, title, path):
    """Latency histograms, one line per implementation: calls per log bucket against the bucket's lower
    bound, both axes logarithmic (the tail is where growth strategies differ). `histograms` maps an
    implementation to (bounds_ns, counts)."""
    plt = pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=(8, 4))
    for impl, (bounds, counts) in histograms.items():
        ax.step(bounds, counts, where="post", label=impl, linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("latency of one call (ns, log buckets)")
    ax.set_ylabel("calls")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return save_figure(plt, fig, path)


def series_chart(series_by_impl, title, path):
    """Cumulative time over the iterations of one run per implementation (growth spikes show as steps)."""
    plt = pyplot()
    if plt is None:
        return None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for impl, series in series_by_impl.items():
        total, cumulative = 0.0, []
        for t in series:
            total += t
            cumulative.append(total * 1e3)
        ax1.plot(cumulative, label=impl, linewidth=1)
        ax2.plot([t * 1e3 for t in series], label=impl, linewidth=0.6)
    ax1.set_xlabel("iteration")
    ax1.set_ylabel("cumulative time (ms)")
    ax2.set_xlabel("iteration")
    ax2.set_ylabel("iteration time (ms)")
    ax2.set_yscale("log")
    ax1.legend(fontsize=8)
    fig.suptitle(title)
    return save_figure(plt, fig, path)


def rss_chart(series_by_impl, title, path):
    """Resident memory over time, one line per implementation (from the runner's memory sampler:
    [[seconds, kib], ...])."""
    plt = pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=(8, 4))
    for impl, series in series_by_impl.items():
        ax.plot([t for t, _ in series], [kb / 1024 for _, kb in series], label=impl, linewidth=1)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("resident memory (MiB)")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return save_figure(plt, fig, path)


def metric_table(experiment, results, key, format_value, heading):
    """A table of one result field per cell (rows) and implementation (columns): the median over rounds,
    formatted by format_value; "—" where nothing was measured."""
    lines = [heading, "", "| case | " + " | ".join(experiment.impls) + " |", "|---|" + "---:|" * len(experiment.impls)]
    for label, _ in experiment.cells:
        row = []
        for impl in experiment.impls:
            values = [r[key] for r in results if r["cell"] == label and r["impl"] == impl and key in r]
            row.append("—" if not values else format_value(median(values)))
        lines.append(f"| {label} | " + " | ".join(row) + " |")
    return lines + [""]


def fault_cost_table(experiment, results, subject, baseline, here_ns, costs_ns=(200, 20000)):
    """subject ÷ baseline where a page fault would cost each of costs_ns instead of here_ns (this machine's
    first touch): per round, each implementation's time + its faults × (c − here), the median of the ratios
    over rounds. The ratio is monotonic in c between two costs, so its worst over the range is at one end.
    "—" where a time would be 0 or less (the cell's faults cost less here than the calibration says)."""
    if not here_ns:
        return []
    runs = defaultdict(dict)
    for r in results:
        if r["impl"] in (subject, baseline) and "minor_faults" in r:
            runs[(r["cell"], r["round"])][r["impl"]] = (r["time_s"], r["minor_faults"])
    lines = [f"{subject} ÷ {baseline} where a page fault cost c instead of this machine's {here_ns / 1000:.1f} µs "
             f"(each time + its faults × (c − {here_ns / 1000:.1f} µs), median over rounds; the worst over c "
             f"from {costs_ns[0] / 1000:g} to {costs_ns[-1] / 1000:g} µs is at one end):", "",
             f"| case | faults {subject} ÷ {baseline} | " +
             " | ".join(f"c = {c / 1000:g} µs" for c in costs_ns) + " | worst |",
             "|---|---:|" + "---:|" * (len(costs_ns) + 1)]
    for label, _ in experiment.cells:
        pairs = [m for (cell, _), m in sorted(runs.items()) if cell == label and subject in m and baseline in m]
        if not pairs:
            continue
        columns = []
        for c in costs_ns:
            modelled = [[t + f * (c - here_ns) * 1e-9 for t, f in (m[subject], m[baseline])] for m in pairs]
            ratios = [mine / theirs for mine, theirs in modelled if mine > 0 and theirs > 0]
            columns.append(median(ratios) if len(ratios) == len(pairs) else None)
        faults = [m[subject][1] / m[baseline][1] for m in pairs if m[baseline][1]]
        worst = max(columns) if None not in columns else None
        lines.append(f"| {label} | {median(faults):.2f} | " if faults else f"| {label} | — | ")
        lines[-1] += " | ".join("—" if v is None else f"{v:.2f}" for v in columns + [worst]) + " |"
    return lines + [""]


def _file_name(text):
    return text.replace("/", "-").replace("=", "")


def experiment_section(e, results, out):
    """An experiment's section: its ratio table, bar charts (one per chart_by group), what the family adds,
    and resident memory over time when it was sampled. Empty when nothing of it ran."""
    results = [r for r in results if r["experiment"] == e.name]
    summary = summarize(results, e.metric, e.baseline)
    if not summary:
        return []
    lines = [f"## {e.title}", "", e.description, "", ratio_table(summary, e.name, e.impls, e.baseline, e.metric), ""]
    if e.section is not None:
        lines += e.section(e, results, out)
    groups = OrderedDict()
    for key in summary:
        groups.setdefault(e.chart_by(key[1]) if e.chart_by else None, OrderedDict())[key] = summary[key]
    for group, sub in groups.items() if e.bar_charts else []:
        title, alt = (group, group) if group is not None else (e.title, e.name)
        name = f"{e.name}-{group}.png" if group is not None else f"{e.name}.png"
        if bar_chart(sub, e.name, e.impls, e.baseline, title, os.path.join(out, name), metric=e.metric):
            lines += [f"![{alt}]({name})", ""]
    for label, _ in e.cells if e.sample_memory else []:
        first = {}
        for r in sorted(results, key=lambda r: r["round"]):
            if r["cell"] == label and r.get("rss_series"):
                first.setdefault(r["impl"], r["rss_series"])
        name = f"rss-{e.name}-{_file_name(label)}.png"
        if first and rss_chart(first, f"{e.title}: resident memory, {label}", os.path.join(out, name)):
            lines += [f"![resident memory, {label}]({name})", ""]
    return lines


def summary_subjects(e):
    """relo's implementations in e's summary: one, or several (a strategy per cell, the fastest)."""
    subject = e.summary[0]
    return [subject] if isinstance(subject, str) else list(subject)


def relo_against_best_peer(e, results):
    """Per cell of e that ran: (cell, relo's ratio to the fastest peer in the same rounds' medians, that
    peer, relo's implementation measured: the fastest of the summary's subjects). None where every subject
    or every peer is missing."""
    subjects, peers = summary_subjects(e), e.summary[1]
    rows = []
    for (_, cell), per_impl in summarize([r for r in results if r["experiment"] == e.name], e.metric,
                                         e.baseline).items():
        present = [(per_impl[p]["median"], p) for p in peers if p in per_impl]
        mine = [(per_impl[s]["median"], s) for s in subjects if s in per_impl]
        if not mine or not present:
            continue
        (best, peer), (fastest, subject) = min(present), min(mine)
        rows.append((cell, fastest / best, peer, subject))
    return rows


def summary_section(experiments, results):
    """The report's first screen: per experiment, relo's time over the fastest peer's in each cell."""
    lines = ["## Summary: relo against the fastest peer", "",
             "Per experiment: relo's time divided by the fastest other implementation's, per cell (medians of "
             "ratios measured in the same rounds; below 1 relo is faster): the geometric mean over cells, the "
             "range, and in how many cells relo is the fastest. Sections below have every number.", "",
             "| experiment | cells | relo ÷ fastest peer | range | relo fastest | fastest peer most often | relo as |",
             "|---|---:|---:|---|---:|---|---|"]
    rows = 0
    for e in experiments:
        if e.summary is None or e.tuning:
            continue
        cells = relo_against_best_peer(e, results)
        if not cells:
            continue
        ratios = [r for _, r, _, _ in cells]
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        low = min(cells, key=lambda c: c[1])
        high = max(cells, key=lambda c: c[1])
        wins = sum(1 for r in ratios if r < 1.0)
        peers = [p for _, _, p, _ in cells]
        common = max(e.summary[1], key=peers.count)  # ties: the first in the experiment's order
        used = [s for _, _, _, s in cells]
        strategies = ", ".join(f"{s} ({used.count(s)})" for s in summary_subjects(e) if s in used) \
            if len(summary_subjects(e)) > 1 else summary_subjects(e)[0]
        lines.append(f"| {e.title} | {len(cells)} | {mean:.2f} | {low[1]:.2f} ({low[0]}) – {high[1]:.2f} "
                     f"({high[0]}) | {wins} of {len(cells)} | {common} | {strategies} |")
        rows += 1
    return lines + [""] if rows else []


def target_rows(e, target, results):
    """Per cell of e that the target covers and that ran: (cell, subject ÷ the fastest of target.against)."""
    if target.metric is not None:
        return counted_target_rows(e, target, results)
    rows = []
    for (_, cell), per_impl in summarize([r for r in results if r["experiment"] == e.name], e.metric,
                                         e.baseline).items():
        if target.cells is not None and not target.cells(cell):
            continue
        present = [per_impl[a]["median"] for a in target.against if a in per_impl]
        subjects = [per_impl[s]["median"] for s in target.subjects if s in per_impl]
        if not subjects or not present:
            continue
        rows.append((cell, min(subjects) / min(present)))
    return rows


def counted_target_rows(e, target, results):
    """target_rows for a count such as minor page faults, which may be 0: the ratio of the medians over
    rounds (0 ÷ 0 is 1: as good as the peer)."""
    values = defaultdict(list)
    for r in results:
        if r["experiment"] == e.name and target.metric in r:
            values[(r["cell"], r["impl"])].append(r[target.metric])
    rows = []
    for cell in dict.fromkeys(c for c, _ in values):
        if target.cells is not None and not target.cells(cell):
            continue
        subjects = [median(values[(cell, s)]) for s in target.subjects if values.get((cell, s))]
        present = [median(values[(cell, a)]) for a in target.against if values.get((cell, a))]
        if not subjects or not present:
            continue
        subject, against = min(subjects), min(present) + target.allowance / target.bound
        rows.append((cell, subject / against if against else (1.0 if subject == 0 else math.inf)))
    return rows


def targets_section(experiments, results):
    """The targets the families declare, each with its worst cell: what is met and what is not, at a glance."""
    lines = ["## Targets", "",
             "Each target bounds a ratio of medians measured in the same rounds, in every cell it covers; the "
             "worst cell decides whether it is met. docs/ says why a missed one is missed.", "",
             "| experiment | target | cells | worst cell | bound | met |", "|---|---|---:|---|---:|---|"]
    rows = 0
    for e in experiments:
        if e.tuning:
            continue
        for t in e.targets:
            cells = target_rows(e, t, results)
            if not cells:
                continue
            cell, worst = max(cells, key=lambda c: c[1])
            met = sum(1 for _, r in cells if r <= t.bound)
            verdict = "yes" if met == len(cells) else f"no ({met} of {len(cells)} cells)"
            lines.append(f"| {e.title} | {t.text} | {len(cells)} | {worst:.2f} ({cell}) | {t.bound:.2f} | {verdict} |")
            rows += 1
    return lines + [""] if rows else []


def write_report(out, experiments, families, ctx, results, extra, header, failures):
    """report.md in out: the header, the summary, every experiment's section, the families' extra
    sections, and the failures."""
    lines = ["# relo benchmark report", "", *header, "",
             "Every number is the median over rounds of the ratio to the baseline measured in the same round "
             "(lower is faster), with the min–max over rounds in parentheses; the baseline column shows its "
             "median absolute time. Each case ran in a fresh process, implementations interleaved; in the "
             "long-lived experiments (\"in a long-lived process\") every implementation of a case ran in one "
             "process, in turn, after a heap history (bench/support/heap_history.hpp).", ""]
    if pyplot() is None:
        lines += [f"**No plots:** {sys.executable} cannot import matplotlib (Debian: python3-matplotlib, "
                  "for /usr/bin/python3).", ""]
    lines += summary_section(experiments, results)
    lines += targets_section(experiments, results)
    for e in experiments:
        lines += experiment_section(e, results, out)
    for family in families:
        if hasattr(family, "extra_section"):
            lines += family.extra_section(ctx, extra, out)
    if failures:
        lines += ["## Failures", ""] + [f"- {f}" for f in failures]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
