"""The fixed-capacity family (static_bench): relo::inplace_vector against boost::container::static_vector
and the other fixed-capacity vectors, in the thesis's environment (the 2021 thesis, section 6.4), and the sizeof
table of every small and fixed-capacity vector."""
from __future__ import annotations

import json
from collections import OrderedDict

from experiment import Experiment, relo_against_peers
from families.vectors import KIB, MIB, push_only_iterations

PROGRAMS = ["static_bench"]
ORDER = 20
PROGRAM = "static_bench"


def experiments(ctx):
    capacity = ctx.pick({"smoke": 1000, "quick": 100000, "full": 500000})
    if capacity not in ctx.params(PROGRAM, "env"):
        raise RuntimeError(f"{PROGRAM} is not compiled for capacity {capacity}")
    sizes = ctx.types(PROGRAM, "env")
    mixed_iterations = ctx.pick({"smoke": 40, "quick": 500, "full": 2000})
    # Filling a fixed-capacity vector is bound by memory bandwidth (no allocation): 48 MB of elements take
    # 3-8 ms, where scheduling noise on these VMs is a millisecond, so push-only writes ten times the
    # vector suites' scale.
    scale = 10 * ctx.pick({"smoke": 256 * KIB, "quick": 48 * MIB, "full": 400 * MIB})
    cells = []
    for t in ["int", "array", "test_type", "string"]:
        for k in (1, 10):
            # Enough iterations to fill the k vectors, and enough fresh environments to push `scale` bytes.
            fill = k * capacity * sizes[t]
            it = push_only_iterations(sizes[t], k, fill)
            cells.append((f"push-only/{t}/{k}", ["env", "--type", t, "--suite", "push-only", "--vectors", str(k),
                                                 "--iterations", str(it), "--capacity", str(capacity),
                                                 "--repeat", str(max(1, scale // fill))]))
        for suite in ("push-cons-dest", "all"):
            it = mixed_iterations if sizes[t] <= 8 else mixed_iterations * 3 // 5
            cells.append((f"{suite}/{t}", ["env", "--type", t, "--suite", suite, "--iterations", str(it),
                                           "--capacity", str(capacity)]))
    optional = ctx.optional(PROGRAM)
    impls = ["boost", "relo", "relo-unchecked"] + [p for p in ctx.impls(PROGRAM, "env") if p in optional]
    return [Experiment(
        "static-env", "Fixed-capacity vectors in the thesis's environment",
        f"The 2021 thesis, section 6.4: the vector environment with static vectors of capacity {capacity:,} (push_back and "
        "insert add what still fits; push-only runs fresh environments until the pushed elements reach the suite's "
        "scale, since filling a vector takes milliseconds). relo is relo::inplace_vector with push_back, relo-unchecked with "
        "unchecked (fast) push_back; uwr is the thesis's uwr::static_vector (checked; -unchecked: fast_push_back); "
        "eastl is eastl::fixed_vector<T, N, false> (no overflow), folly is folly::small_vector<T, N> with the "
        "policy_in_situ_only<true> policy. Baseline: boost::container::static_vector.",
        PROGRAM, impls, "boost", cells,
        summary=("relo", [i for i in impls if not i.startswith("relo") and not i.endswith("-unchecked")]))]


def extra_runs(ctx, ran, runner):
    """The sizeof table, once per run."""
    out = []
    for line in runner.output(PROGRAM, ["sizes"]).splitlines():
        r = json.loads(line)
        r.update({"experiment": "sizes", "cell": f"{r['type']}/{r['n']}", "impl": r["container"], "round": 0,
                  "extra": True})
        out.append(r)
    return out


def extra_section(ctx, extra, out):
    sizes = [r for r in extra if r["experiment"] == "sizes"]
    if not sizes:
        return []
    lines = ["## sizeof of the small and fixed-capacity vectors", "",
             "Bytes, for inline capacity N (std::vector and relo::vector have none: N = 0).", ""]
    containers = list(OrderedDict.fromkeys(r["container"] for r in sizes))
    columns = list(OrderedDict.fromkeys(r["cell"] for r in sizes))
    value = {(r["container"], r["cell"]): r["sizeof"] for r in sizes}
    lines += ["| container | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for c in containers:
        lines.append(f"| {c} | " + " | ".join(str(value.get((c, col), "")) for col in columns) + " |")
    return lines + [""]
