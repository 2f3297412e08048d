"""The sweeps that chose relo::vector's defaults (vector_bench): thresholds, growth factor, reservation,
huge pages. For maintainers: they run with --tuning (and in --full), not in the quick run.

docs/measurements/thresholds.md records what each sweep chose and why.
"""
from __future__ import annotations

from experiment import Experiment
from families import vectors

PROGRAMS = ["vector_bench"]
ORDER = 90
PROGRAM = vectors.PROGRAM


def experiments(ctx):
    cells = vectors.env_cells(ctx) + vectors.loop_cells(ctx)
    optional = vectors.peers(ctx)

    def sweep(name, title, description, impls, cell_names):
        """Variants of relo against std::vector on a few cells of the environment."""
        chosen = [c for c in cells if c[0] in cell_names]
        return Experiment(name, title, description, PROGRAM, ["std"] + impls, "std", chosen, tuning=True)

    sweep_huge = ["relo-h2m", "relo-h4m", "relo-h8m", "relo-h16m", "relo-h32m", "relo-nohuge"]
    page_policy_impls = ["std", "relo", "relo-4k", "relo-large", "relo-nohuge"] + [p for p in optional if p == "uwr"]
    return [
        sweep("threshold-relocatable", "Choosing the mapping threshold for trivially relocatable types",
              "relo::vector with its relocatable_mapping_threshold at 64 KiB ... 32 MiB and never, on 4 KiB pages "
              "(below it: malloc/realloc; 256 KiB is the default). In fresh processes; the long-lived side is "
              "measured by vector_bench env --impls (docs/measurements/thresholds.md).",
              ["relo-r64k", "relo-r128k", "relo-r256k", "relo-r512k", "relo-r1m", "relo-r2m", "relo-r4m", "relo-r8m", "relo-r32m", "relo-rnever"],
              {"push-only/int/1", "push-only/int/100", "push-only/array/10", "push-cons-dest/int", "all/int",
               "push-cons-dest/array"}),
        sweep("threshold-other", "Choosing the mapping threshold for other types",
              "relo::vector with its other_mapping_threshold at 64 KiB ... 32 MiB and never, on 4 KiB pages (128 KiB "
              "is the default). In fresh processes; the long-lived side is measured by vector_bench env --impls "
              "(docs/measurements/thresholds.md).",
              ["relo-o64k", "relo-o128k", "relo-o256k", "relo-o512k", "relo-o1m", "relo-o2m", "relo-o4m", "relo-o8m", "relo-o32m", "relo-onever"],
              {"push-only/string/1", "push-only/string/10", "push-only/test_type/1", "push-only/test_type/50",
               "push-cons-dest/string", "all/test_type"}),
        sweep("growth-factor", "Choosing the growth factor",
              "relo::vector with growth factors 1.5, 1.6 and 2 (the default).", ["relo-g15", "relo-g16", "relo-g2"],
              {"push-only/int/1", "push-only/int/10", "push-only/string/10", "push-only/test_type/50",
               "push-cons-dest/int", "push-cons-dest/string", "all/array", "all/test_type"}),
        sweep("small-growth", "Choosing between realloc and malloc-copy-free for small blocks",
              "relo::vector whose small blocks (below realloc_threshold) grow by malloc-copy-free: never "
              "(always realloc), below 1 KiB, 4 KiB, 64 KiB.", ["relo-copy0", "relo-copy1k", "relo-copy4k",
                                                                 "relo-copy64k"],
              {"push-only/int/100", "push-cons-dest/int", "all/int", "all/test_type", "int/n=100", "int/n=1000",
               "thingie/n=1000", "int/n=100000"}),
        sweep("large-blocks", "Choosing the reservation",
              "relo::vector on large_block_policy, with large blocks that reserve 1x (no headroom), 4x, 16x and 64x "
              "their size.", ["relo-res1", "relo-res4", "relo-res16", "relo-res64"],
              {"push-only/int/1", "push-only/string/1", "push-only/test_type/10", "push-cons-dest/int",
               "push-cons-dest/string", "all/array"}),
        Experiment("page-policy", "Large blocks and huge pages for trivially relocatable types, or realloc",
                   "relo::vector as it is (trivially relocatable types on malloc/realloc at every size, others "
                   "on large blocks with 4 KiB pages); relo-4k, the same (the default's settings spelled out); "
                   "relo-large, every type on large blocks with huge pages from 2 MiB (large_block_policy, the "
                   "former default); relo-nohuge, that with 4 KiB pages; uwr::vector (mremap from a page up, "
                   "4 KiB pages) where it is built in. Where a huge page's first touch is cold "
                   "(docs/vector_performance.md) this decides the large cells.", PROGRAM,
                   page_policy_impls, "std",
                   [c for c in cells if c[0].startswith("push-only/") or c[0] in
                    {"push-cons-dest/int", "push-cons-dest/array", "push-cons-dest/string", "all/array",
                     "all/test_type"}], tuning=True),
        Experiment("page-policy-foresight", "Large blocks or realloc: the foresight floor",
                   "The same variants pushing n ints into one vector, against std::vector with an exact reserve.",
                   PROGRAM, ["std-reserve"] + page_policy_impls, "std-reserve", vectors.foresight_cells(ctx),
                   tuning=True),
        sweep("huge-pages-other", "Choosing where huge pages start, for types that are not trivially relocatable",
              "The huge-pages sweep on the cells where the default policy uses large blocks (strings and the "
              "test type; the variants differ from the default only in where huge pages start).", sweep_huge,
              {"push-only/string/1", "push-only/string/10", "push-only/string/50", "push-only/string/100",
               "push-only/test_type/1", "push-only/test_type/10", "push-only/test_type/50",
               "push-only/test_type/100", "push-cons-dest/string", "push-cons-dest/test_type", "all/string",
               "all/test_type"}),
        sweep("huge-pages", "Choosing where huge pages start",
              "relo::vector on large_block_policy, whose large blocks use transparent huge pages once they commit "
              "2, 4, 8, 16 or 32 MiB, and never.", sweep_huge,
              {"push-only/int/1", "push-only/int/50", "push-only/int/100", "push-only/array/10",
               "push-only/array/100", "push-only/string/1", "push-only/test_type/10", "push-cons-dest/int",
               "push-cons-dest/array", "all/array"}),
    ]
