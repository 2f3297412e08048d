#!/usr/bin/env python3
"""Checks that every public container and resource took the steps of docs/extending.md that a script can see.

    extending_check.py SOURCE_DIR

A public container is a class of include/relo/*.hpp built on detail::sequence_ops (small_vector on its base);
a public resource one built on detail::resource_base. Each must be included by relo/relo.hpp, named in
docs/headers.md's table, printed by the GDB printers (debugging/relo_gdb.py), fuzzed (a target in
tests/fuzz/CMakeLists.txt, its source and its seed corpus), shown by an example (examples/CMakeLists.txt);
a container must also be summarised by the LLDB formatters (debugging/relo_lldb.py) and run through the
conformance suites (tests/conformance/conformance.hpp). Prints what is missing, and fails if anything is.
"""
import os
import re
import sys


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def public_types(root):
    """(name, header, kind) for every public container and resource."""
    found = []
    pattern = re.compile(r"^class (\w+)(?: final)? : public (detail::sequence_ops|detail::resource_base|small_vector_base)<",
                         re.M)
    include = os.path.join(root, "include", "relo")
    for header in sorted(os.listdir(include)):
        if not header.endswith(".hpp"):
            continue
        for name, base in pattern.findall(read(root, os.path.join("include", "relo", header))):
            if name.endswith("_base"):
                continue  # (small_vector_base: checked through small_vector)
            found.append((name, header, "resource" if base == "detail::resource_base" else "container"))
    return found


def cmake_list(text, variable):
    m = re.search(r"set\(" + variable + r"\s+([^)]*)\)", text)
    return m.group(1).split() if m else []


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    umbrella = read(root, "include/relo/relo.hpp")
    headers = read(root, "docs/headers.md")
    gdb = read(root, "debugging/relo_gdb.py")
    lldb = read(root, "debugging/relo_lldb.py")
    fuzz_targets = cmake_list(read(root, "tests/fuzz/CMakeLists.txt"), "relo_fuzz_targets")
    examples = cmake_list(read(root, "examples/CMakeLists.txt"), "relo_examples")
    conformance = read(root, "tests/conformance/conformance.hpp")
    types = public_types(root)
    if len(types) < 8:
        sys.exit(f"extending_check: found {len(types)} public containers and resources, expected at least 8")
    missing = []
    for name, header, kind in types:
        fuzz = name[: -len("_resource")] if name.endswith("_resource") else name
        if fuzz not in fuzz_targets and name in fuzz_targets:
            fuzz = name  # (test_resource: "test" alone would say nothing)
        steps = {
            "relo/relo.hpp includes it": f'#include "relo/{header}"' in umbrella,
            "docs/headers.md's table names it": f"`relo/{header}`" in headers,
            "a GDB printer (debugging/relo_gdb.py)": re.search(r"add_printer\([^)]*\^relo::(?:\(\?:\[a-z_\]\+::\)\?)?" + name, gdb) is not None,
            "a fuzz target (tests/fuzz/CMakeLists.txt)": fuzz in fuzz_targets or name in fuzz_targets,
            f"tests/fuzz/{fuzz}_fuzz.cpp": os.path.isfile(os.path.join(root, "tests", "fuzz", f"{fuzz}_fuzz.cpp")),
            f"a seed corpus (tests/fuzz/corpus/{fuzz})": os.path.isdir(os.path.join(root, "tests", "fuzz", "corpus", fuzz)),
            "an example (examples/CMakeLists.txt)": name in examples,
        }
        if kind == "container":
            steps["an LLDB summary (debugging/relo_lldb.py)"] = (f"^relo::{name}" in lldb or
                                                                   f"^relo::([a-z_]+::)?{name}" in lldb)
            steps["the conformance suites (tests/conformance/conformance.hpp)"] = f"relo::{name}<" in conformance
        for step, done in steps.items():
            if not done:
                missing.append(f"relo::{name} ({kind}, relo/{header}): {step}")
    for line in missing:
        print("missing:", line)
    if missing:
        sys.exit(f"extending_check: {len(missing)} steps of docs/extending.md missing")
    print(f"every public container and resource ({len(types)}) took the steps of docs/extending.md")


if __name__ == "__main__":
    main()
