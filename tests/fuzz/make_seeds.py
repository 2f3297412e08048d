#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus (tests/fuzz/corpus/<target>/): for every choice a target makes from
its first bytes (element kind and allocator, resource settings), inputs that run every operation the
driver knows, in order and then shuffled, with operand bytes from a fixed random stream. The files are
committed; rerun this after adding an operation or a choice. (libFuzzer grows its own corpus from these.)

    python3 tests/fuzz/make_seeds.py
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

CONTAINER_OPS = 27   # container_fuzz.hpp: run_one's cases
RESOURCE_OPS = 8     # resource_fuzz.hpp: run()'s cases


def operations(rng, count, repeats, operand_bytes, high_bit):
    """Every operation `repeats` times: in order once, then shuffled, each followed by its operands."""
    order = list(range(count)) + [rng.randrange(count) for _ in range(count * (repeats - 1))]
    rng.shuffle(order[count:])
    out = bytearray()
    for op in order:
        out.append(op | (rng.choice((0, 0x80)) if high_bit else 0))
        out.extend(rng.randrange(256) for _ in range(operand_bytes))
    return bytes(out)


def write(target, name, data):
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    rng = random.Random(20261125)
    # Containers: the first byte picks the kind (% 3) and, with bit 2, the failing allocator.
    for target in ("vector", "small_vector", "inplace_vector", "pinned_vector"):
        for pick in (0, 1, 2, 4, 5, 6):
            for variant in range(2):
                body = operations(rng, CONTAINER_OPS, 6, 4, high_bit=True)
                write(target, f"kind{pick % 3}_alloc{pick >> 2}_{variant}", bytes([pick]) + body)
    # Resources: the first bytes pick the settings.
    for target, settings in (
        ("vm_arena", [[v] for v in (0, 3, 8, 10, 0x80, 0x85)]),
        ("monotonic", [[v] for v in (0, 1, 2, 3, 13, 30)]),
        ("multipool", [[a, b, c] for a, b, c in ((0, 0, 200), (31, 97, 200), (29, 255, 10), (2, 16, 200), (0x7f, 3, 0))]),
        ("multipool_monotonic", [[a, b, c] for a, b, c in ((0, 0, 0), (31, 97, 5), (29, 255, 11), (2, 16, 3))]),
        ("synchronized_multipool", [[a, b] for a, b in ((0, 0), (31, 97), (29, 255), (2, 16))]),
        ("test_resource", [[v] for v in (0, 1, 2, 3)]),
        ("profiling_resource", [[v] for v in (0, 1, 2, 3)]),
    ):
        for i, first in enumerate(settings):
            for variant in range(2):
                body = operations(rng, RESOURCE_OPS, 40, 5, high_bit=False)
                write(target, f"settings{i}_{variant}", bytes(first) + body)


if __name__ == "__main__":
    main()
