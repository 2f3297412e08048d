"""What a user's build pays (build_cost_bench): the compile time of a unit that only includes a container's
header, of a unit that uses it with many element types (and that unit's code), and a debug (-O0) build's
loops, each against the same with std::vector. Peers: boost::container::vector, and Abseil's InlinedVector and
LLVM's SmallVector where installed. docs/measurements/build_cost.md has the records and what the misses
cost."""
from __future__ import annotations

from experiment import Experiment, Target
from families import idioms

PROGRAM = "build_cost_bench"
IDIOMS_DEBUG = "idioms_debug_bench"
PROGRAMS = [PROGRAM, IDIOMS_DEBUG]
ORDER = 95
# (the loop, what it does) — the six loops of a debug build
LOOPS = [
    ("push-index", "push_back of n ints, then a sum by index"),
    ("emplace-reserved", "emplace_back of n pair<int, double> into a reserved vector, then range-for"),
    ("iterate", "a sum over n ints with iterators, then with range-for"),
    ("sort", "a copy of n ints, std::sort"),
    ("strings-remove-if", "n/8 strings pushed, then erase(remove_if)"),
    ("middle-erase-insert", "2,000 erase and insert pairs in the middle of 4,096 ints"),
]
RELO = ["relo", "relo-small", "relo-pinned"]


def experiments(ctx):
    compiled = ctx.impls(PROGRAM, "compile")
    debug = ctx.impls(PROGRAM, "debug")
    types = ctx.pick({"smoke": 2, "quick": 10, "full": 40})
    n = ctx.pick({"smoke": 1 << 12, "quick": 1 << 18, "full": 1 << 18})
    reps = ctx.pick({"smoke": 1, "quick": 3, "full": 5})
    include_cells = [(f"include/-O{o}", ["compile", "--what", "include", "--opt", str(o)]) for o in (0, 2)]
    unit_cells = [(f"{types}-types/-O{o}", ["compile", "--what", "unit", "--opt", str(o), "--types", str(types)])
                  for o in (0, 2)]
    loop_cells = [(loop, ["debug", "--loop", loop, "--n", str(n), "--reps", str(reps)]) for loop, _ in LOOPS]
    o2 = lambda label: label.endswith("-O2")  # noqa: E731
    out = [
        Experiment(
            "build-cost-include", "Including a container's header",
            "The compiler's user CPU time on a unit that includes one container's header and nothing else "
            "(GCC or the compiler the suite was built with, -std=c++20, -O0 and -O2); relo is relo::vector, "
            "relo-small small_vector<T, 8>, relo-pinned pinned_vector, relo-inplace inplace_vector; boost "
            "boost::container::vector, absl InlinedVector, llvm llvm::SmallVector. The baseline is <vector>. "
            "Targets: each relo container header ≤ 2× <vector>'s and ≤ Boost's.",
            PROGRAM, compiled, "std", include_cells,
            targets=[Target(f"{r}: its header ≤ 2× <vector>'s", r, "std", 2.0)
                     for r in RELO + ["relo-inplace"]]
            + [Target("relo: its header ≤ Boost's vector header", "relo", "boost", 1.0)]),
        Experiment(
            "build-cost-unit", f"A unit using the container with {types} element types",
            f"The compiler's user CPU time on a unit that uses the container with {types} element types "
            "(arithmetic types, trivially copyable structs, structs holding a std::string, std::string, pairs, a "
            "pointer; 40 in the full run): push_back, emplace_back, insert and erase in the middle, resize, a "
            "copy, std::sort and ==, as code using a vector does (bench/build_cost_unit.cpp). text_bytes is the "
            "object's code (its executable sections). The baseline is std::vector. Targets: ≤ 1.2× std's compile "
            "time at -O0 and -O2, and ≤ 1.2× its code at -O2.",
            PROGRAM, compiled, "std", unit_cells,
            targets=[Target(f"{r}: the unit compiles in ≤ 1.2× std's time", r, "std", 1.2)
                     for r in ("relo", "relo-small")]
            + [Target(f"{r}: the unit's code (-O2) ≤ 1.2× std's", r, "std", 1.2, cells=o2, metric="text_bytes")
               for r in ("relo", "relo-small")]),
        Experiment(
            "build-cost-debug", "A debug build's loops (-O0)",
            "Six loops in a program built as a debug build is (-O0, no NDEBUG: relo's precondition checks on, "
            "std::vector's off as libstdc++ has them without _GLIBCXX_ASSERTIONS), over n = "
            f"{n} elements, {reps} times: "
            + "; ".join(f"{loop}: {what}" for loop, what in LOOPS)
            + ". The baseline is std::vector. Target: every relo container within 1.2× of std::vector in each loop.",
            PROGRAM, debug, "std", loop_cells,
            targets=[Target(f"{r}: each -O0 loop within 1.2× of std::vector", r, "std", 1.2) for r in RELO]),
    ]
    return out + [idioms_debug(ctx)]


def idioms_debug(ctx):
    """The idioms matrix (bench/families/idioms.py) in a debug build: every idiom for the types below."""
    types = ctx.pick({"smoke": ["int"], "quick": ["int", "pair<int,double>", "string"],
                      "full": list(ctx.types(IDIOMS_DEBUG, "fill"))})
    n = ctx.pick({"smoke": 64, "quick": 1024, "full": 4096})
    reps = ctx.pick({"smoke": 1, "quick": 8, "full": 24})
    inner = ctx.pick({"smoke": 1, "quick": 3, "full": 5})
    impls = [i for i in ["std"] + RELO + ["relo-inplace"] if i in ctx.impls(IDIOMS_DEBUG, "fill")]
    cells = idioms.fill_cells(types, idioms.IDIOMS, n, reps, inner)
    return Experiment(
        "build-cost-idioms-debug", "The idioms matrix in a debug build (-O0)",
        f"The idioms experiment's fills (push_back braced, of a make_pair, of an lvalue, emplace_back, "
        "emplace_back then assignments, copy and transform into a back_inserter, insert at the end, resize then "
        "writes by index, construction from an input range, clear and refill) with n = "
        f"{n} elements of {', '.join(types)}, in idioms_bench built as a debug build is (-O0, no NDEBUG: relo's "
        "checks on). Every implementation in one process, in rotating order. Target: every relo container "
        "within 1.2× of std::vector in each cell.",
        IDIOMS_DEBUG, impls, "std", cells, one_process=True, bar_charts=False,
        targets=[Target(f"{r}: each -O0 idiom within 1.2× of std::vector", r, "std", 1.2)
                 for r in RELO + ["relo-inplace"] if r in impls])
