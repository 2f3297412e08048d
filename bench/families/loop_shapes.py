"""The loop-shape family (loop_shapes_bench): push_back of ints in the loop shapes users write — a local
vector, vectors reached through memory with the target chosen inside the loop (by a random generator, or
from an index array), a loop body with other work competing for registers, and push_back in a function
taking the vector by reference. How fast push_back is there depends on the container's inlining choices
as much as on its growth."""
from __future__ import annotations

from experiment import Experiment, Target, relo_against_peers

PROGRAMS = ["loop_shapes_bench"]
ORDER = 15
PROGRAM = "loop_shapes_bench"
SHAPES = ["local", "held", "indexed", "busy", "by-ref"]
SMALL = {"boost-small", "relo-small", "absl", "llvm"}


def experiments(ctx):
    total = ctx.pick({"smoke": 10 ** 5, "quick": 2 * 10 ** 7, "full": 10 ** 8})
    sizes = ctx.pick({"smoke": [100], "quick": [100, 1000, 10 ** 5], "full": [100, 1000, 10 ** 5]})
    cells = [(f"{shape}/n={n}", ["shape", "--shape", shape, "--n", str(n), "--reps", str(max(1, total // n))])
             for shape in SHAPES for n in sizes]
    impls = ctx.impls(PROGRAM, "shape")
    vectors = [i for i in impls if i not in SMALL]
    small = ["std"] + [i for i in impls if i in SMALL]
    description = ("push_back of ints, about the same number per cell, in five loop shapes (bench/loop_shapes_bench.cpp): "
                   "local (a local vector), held (16 vectors in a std::vector, the target drawn by a random "
                   "generator inside the loop), indexed (the same targets from a precomputed array), busy (other "
                   "work keeps six values live in the loop), by-ref (a non-inlined function fills the vector it "
                   "takes by reference); n pushes per round, every round from empty vectors.")
    return [
        Experiment("loop-shapes", "push_back in the loop shapes users write: vectors", description, PROGRAM, vectors,
                   "std", cells, summary=relo_against_peers(vectors),
                   targets=[Target("relo ≤ 1.1× the fastest vector in every shape", "relo",
                                   [i for i in vectors if i != "relo"], 1.1)]),
        Experiment("loop-shapes-long", "push_back in the loop shapes users write: vectors in a long-lived process",
                   description + " Every implementation of a cell in one process, in turn, after a heap history "
                   "(bench/support/heap_history.hpp: glibc's mmap threshold raised, other containers alive).",
                   PROGRAM, vectors, "std", cells, summary=relo_against_peers(vectors), one_process=True,
                   targets=[Target("relo ≤ 1.0× uwr::vector in every shape (when built in)", "relo", "uwr", 1.0),
                            Target("relo ≤ 1.1× the fastest vector in every shape", "relo",
                                   [i for i in vectors if i != "relo"], 1.1)]),
        Experiment("loop-shapes-small", "push_back in the loop shapes users write: small vectors (N = 8)",
                   description + " Small vectors with 8 ints inline, against std::vector.", PROGRAM, small, "std",
                   cells, summary=("relo-small", [i for i in small if i != "relo-small"])),
    ]
