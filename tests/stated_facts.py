#!/usr/bin/env python3
"""Checks the facts the pages state about what C++ cannot reach (ctest stated_facts).

    stated_facts.py ROOT

tests/stated_numbers_test.cpp checks the numbers the pages state about the library's code; this script
checks those whose source of truth is a script or a build file: relo.sh's test configurations and fuzzing
time, the CMake minimums and defaults, the version, the debuggers' scripts, and the tests' own counts.
Each fact reads its value from its source, then finds it where each page states it; it fails when a page
states another value, or no longer states the fact in the words looked for (then update the pattern here
with the page).
"""
import os
import re
import sys

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12}


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def number(text):
    """'6', 'six', '20,000', '65,536', '3.14' as a number."""
    text = text.strip()
    if text.lower() in WORDS:
        return WORDS[text.lower()]
    text = text.replace(",", "").replace("'", "")
    return float(text) if "." in text else int(text)


def first(pattern, text, what):
    m = re.search(pattern, text, re.DOTALL)
    if m is None:
        raise LookupError(f"cannot find {what}")
    return m.group(1)


def relo_sh_configurations(script):
    """relo.sh's test configurations: name -> (compiler, standard, flags, cmake arguments)."""
    sanitize = first(r'local sanitize="([^"]*)"', script, "relo.sh's sanitizer flags")
    block = first(r"local configs=\(\n(.*?)\n\s*\)", script, "relo.sh's configurations")
    configs = {}
    for line in block.split("\n"):
        line = line.strip()
        if not line.startswith('"'):
            continue
        name, cxx, std, flags, extra = line.strip('"').split("|")
        configs[name] = (cxx, std, flags.replace("$sanitize", sanitize), extra)
    return configs


def cmake_minimum(text, what):
    return first(r"cmake_minimum_required\(VERSION (\d+\.\d+)", text, what)


def facts(root):
    """(what, value from its source, [(page, pattern whose group 1 states it), ...])."""
    script = read(root, "relo.sh")
    configs = relo_sh_configurations(script)
    fuzz_seconds = {re.search(r"-DRELO_FUZZ_SECONDS=(\d+)", extra).group(1)
                    for _, _, _, extra in configs.values() if "RELO_FUZZ_SECONDS" in extra}
    if len(fuzz_seconds) != 1:
        raise LookupError(f"relo.sh: one fuzzing time expected, found {sorted(fuzz_seconds)}")
    fuzz_seconds = int(fuzz_seconds.pop())
    fuzz_default = int(first(r"set\(RELO_FUZZ_SECONDS (\d+) CACHE", read(root, "tests/fuzz/CMakeLists.txt"),
                             "tests/fuzz/CMakeLists.txt's RELO_FUZZ_SECONDS"))
    version = first(r"project\(relo VERSION (\d+\.\d+\.\d+)", read(root, "CMakeLists.txt"), "the project's version")
    major_minor = ".".join(version.split(".")[:2])
    gdb_script = read(root, "debugging/relo_gdb.py")
    gdb_section_kib = (len("relo_gdb.py\n") + len(gdb_script.encode("utf-8")) + 2) / 1024  # kind, name, text, end
    pinned_test = read(root, "tests/pinned_vector_test.cpp")
    conformance = read(root, "tests/conformance/sequence_reqmts_test.cpp")
    standard_library = read(root, "include/relo/detail/standard_library.hpp")
    yield ("relo.sh's test configurations", len(configs), [
        ("relo.sh", r"build and run every test in (\w+) configurations"),
        ("README.md", r"with `-Werror` in (\w+) configurations"),
        ("docs/testing.md", r"builds and runs every test in (\w+) configurations"),
    ])
    yield ("relo.sh's fuzzing time per target, in seconds", fuzz_seconds, [
        ("relo.sh", r"ASan \+ UBSan\), each for (\d+) s"),
        ("docs/testing.md", r"then (\d+) s of fuzzing per target"),
        ("docs/testing.md", r"per target \(`-DRELO_FUZZ_SECONDS=(\d+)`"),
        ("docs/hardening.md", r"then every target for (\d+) s"),
        ("docs/hardening.md", r"every target for \d+ s \(`-DRELO_FUZZ_SECONDS=(\d+)`"),
        ("tests/fuzz/README.md", r"then (\d+) s of fuzzing from the seeds"),
        ("tests/fuzz/README.md", r"it passes `-DRELO_FUZZ_SECONDS=(\d+)`"),
    ])
    yield ("the fuzzing time a build sets by default (tests/fuzz/CMakeLists.txt)", fuzz_default, [
        ("docs/testing.md", r"the CMake default, for a build of one's own, is (\d+) s"),
        ("docs/hardening.md", r"a build that does not set it fuzzes (\d+) s a target"),
        ("tests/fuzz/README.md", r"each target for the default, (\d+) s"),
    ])
    yield ("the library's CMake minimum (CMakeLists.txt)", number(cmake_minimum(read(root, "CMakeLists.txt"), "CMakeLists.txt")), [
        ("docs/installing.md", r"As a package \(CMake (\d+\.\d+) or later"),
        ("docs/installing.md", r"CMake ≥ (\d+\.\d+) for the CMake package"),
        ("docs/decisions.md", r"## The package: CMake (\d+\.\d+)"),
        ("docs/decisions.md", r"- \*\*CMake (\d+\.\d+)\*\*, not"),
    ])
    yield ("the tests' CMake minimum (tests/CMakeLists.txt)", number(cmake_minimum(read(root, "tests/CMakeLists.txt"), "tests/CMakeLists.txt")), [
        ("docs/installing.md", r"\(the tests ask for (\d+\.\d+)\)"),
        ("docs/guide.md", r"They need CMake (\d+\.\d+) or later"),
        ("docs/decisions.md", r"`tests/CMakeLists.txt` asks for (\d+\.\d+)"),
    ])
    yield ("the package test's CMake minimum (tests/package/CMakeLists.txt)",
           number(cmake_minimum(read(root, "tests/package/CMakeLists.txt"), "tests/package/CMakeLists.txt")), [
        ("docs/decisions.md", r"`tests/package/` is a consumer that asks for (\d+\.\d+)"),
    ])
    yield ("the version's major.minor (CMakeLists.txt)", major_minor, [
        ("README.md", r"`find_package\(relo (\d+\.\d+) CONFIG REQUIRED\)`"),
        ("docs/guide.md", r"`find_package\(relo (\d+\.\d+) CONFIG REQUIRED\)`"),
        ("docs/installing.md", r"`find_package\(relo (\d+\.\d+) CONFIG REQUIRED\)`"),
    ])
    yield ("the version (CMakeLists.txt)", version, [
        ("docs/installing.md", r"librelo-dev_(\d+\.\d+\.\d+)_all\.deb"),
    ])
    yield ("the version's major (CMakeLists.txt)", version.split(".")[0], [
        ("docs/stability.md", r"relo is at (\d+)\.x"),
    ])
    yield ("the benchmarks' function and loop alignment (bench/CMakeLists.txt)",
           int(first(r"set\(RELO_BENCH_LOOP_ALIGNMENT (\d+) CACHE", read(root, "bench/CMakeLists.txt"),
                     "bench/CMakeLists.txt's RELO_BENCH_LOOP_ALIGNMENT")), [
        ("docs/decisions.md", r"## The benchmark programs align every function and loop to (\d+) bytes"),
        ("docs/decisions.md", r"compiled with `-falign-functions=(\d+)`"),
        ("relo.sh", r"functions and loops aligned to (\d+) bytes"),
    ])
    yield ("GDB's section, in KiB (debugging/relo_gdb.py embedded)", round(gdb_section_kib), [
        ("docs/debugging.md", r"\(about (\d+) KiB per program"),
        ("docs/decisions.md", r"It costs about (\d+) KiB of a non-loaded section"),
    ])
    yield ("the children LLDB shows at most (debugging/relo_lldb.py)",
           1 << int(first(r"_MAX_CHILDREN = 1 << (\d+)", read(root, "debugging/relo_lldb.py"), "relo_lldb.py's _MAX_CHILDREN")), [
        ("docs/debugging.md", r"\(the first ([\d,]+) of a container\)"),
    ])
    yield ("libstdc++'s component headers relo/detail/standard_library.hpp includes",
           len(re.findall(r"^#include <bits/", standard_library, re.MULTILINE)), [
        ("docs/design.md", r"with libstdc\+\+ `<vector>`, (\w+) of its internal headers"),
        ("include/relo/detail/standard_library.hpp", r"includes <vector> and (\w+) of\s*// libstdc\+\+'s internal"),
    ])
    yield ("the default pinned_vectors tests/pinned_vector_test.cpp makes",
           int(first(r"std::vector<pinned_vector<int>> many\((\d+)\)", pinned_test, "the pinned_vector test's count")), [
        ("docs/decisions.md", r"tests/pinned_vector_test\.cpp makes ([\d,]+) default vectors"),
        ("tests/pinned_vector_test.cpp", r"// ([\d,]+) default pinned_vectors live at once"),
    ])
    yield ("the vectors it grows past 1 MiB, one in every",
           int(first(r"i < many\.size\(\); i \+= (\d+)\)", pinned_test, "the pinned_vector test's step")), [
        ("docs/decisions.md", r"and grows every (\d+)th past 1 MiB"),
    ])
    edge_alignments = [int(a) for a in first(r"const std::size_t alignments\[\] = \{([\d, ]+)\}", read(root, "tests/edge_sizes_test.cpp"),
                                                 "tests/edge_sizes_test.cpp's alignments").split(",")]
    yield ("the smallest alignment tests/edge_sizes_test.cpp asks for", min(edge_alignments), [
        ("docs/hardening.md", r"`max_size\(\)` and one past it, at alignments (\d+) to \d+"),
    ])
    yield ("the largest alignment tests/edge_sizes_test.cpp asks for", max(edge_alignments), [
        ("docs/hardening.md", r"`max_size\(\)` and one past it, at alignments \d+ to (\d+)"),
    ])
    yield ("the conformance suite's combinations of special members",
           int(first(r"make_integer_sequence<unsigned, (\d+)>", conformance, "the conformance suite's combinations")), [
        ("docs/conformance.md", r"user-provided special members \((\d+) types\)"),
        ("tests/CMakeLists.txt", r"not all (\d+) \(conformance/sequence_reqmts_test\.cpp\)"),
    ])
    yield ("the combinations that hold every pair",
           len(first(r"std::integer_sequence<unsigned, ([\d, ]+)>", conformance, "the pairwise combinations").split(",")), [
        ("docs/testing.md", r"and (\d+) combinations of special\s+members where the variants are off"),
        ("tests/CMakeLists.txt", r"conformance suite over (\d+) combinations"),
    ])


def testing_table(root, problems):
    """docs/testing.md's table of steps: a row per relo.sh configuration, with its compiler, standard and flags."""
    script = read(root, "relo.sh")
    configs = relo_sh_configurations(script)
    page = read(root, "docs/testing.md")
    rows = {m.group(1): m for m in re.finditer(r"^\| `([\w-]+)` \| ([^|]*) \| `([^`]*)`", page, re.MULTILINE)}
    families = {"clang++": "Clang", "g++": "GCC", "x86_64-w64-mingw32-g++-posix": "mingw-w64 GCC"}
    checked = 0
    for name, (cxx, std, flags, _) in configs.items():
        row = rows.get(name)
        if row is None:
            problems.append(f"docs/testing.md: no row for relo.sh's configuration {name}")
            continue
        compiler, listed_flags = row.group(2), row.group(3)
        if not compiler.startswith(families.get(cxx, cxx)) or not compiler.endswith(f"C++{std}"):
            problems.append(f"docs/testing.md: {name} is {compiler!r}, relo.sh builds it with {cxx} in C++{std}")
        if not flags.startswith(listed_flags):
            problems.append(f"docs/testing.md: {name}'s flags are {listed_flags!r}, relo.sh gives {flags!r}")
        checked += 1
    extra = sorted(set(rows) - set(configs) - {"bench-from-clone"})
    if extra:
        problems.append(f"docs/testing.md: rows for configurations relo.sh does not have: {', '.join(extra)}")
    bench = rows.get("bench-from-clone")
    smoke = first(r'BENCH_SMOKE_BUILD=\("-DCMAKE_CXX_FLAGS_RELEASE=([^"]*)"', script, "relo.sh's smoke build flags")
    bench_std = first(r"-DCMAKE_CXX_STANDARD=(\d+) -DRELO_BUILD_TESTS=OFF", script, "relo.sh bench's standard")
    bench_march = first(r'cmd_bench\(\).*?-DCMAKE_CXX_FLAGS="([^"]*)"', script, "relo.sh bench's flags")
    if bench is None:
        problems.append("docs/testing.md: no row for bench-from-clone")
    else:
        if not bench.group(2).endswith(f"C++{bench_std}"):
            problems.append(f"docs/testing.md: bench-from-clone is {bench.group(2)!r}, relo.sh bench builds C++{bench_std}")
        if bench.group(3).split() != [smoke.split()[0]] + bench_march.split():
            problems.append(f"docs/testing.md: bench-from-clone's flags are {bench.group(3)!r}, relo.sh gives "
                            f"{smoke.split()[0]} {bench_march}")
        checked += 1
    return checked


def main(root):
    problems = []
    count = 0
    try:
        stated = list(facts(root))
    except LookupError as e:
        print(f"stated_facts: {e}")
        return 1
    for what, value, places in stated:
        for page, pattern in places:
            text = re.sub(r"\s+", " ", read(root, page)) if "\\s" not in pattern else read(root, page)
            found = [m.group(1) for m in re.finditer(pattern, text)]
            if not found:
                problems.append(f"{page}: no longer states {what} as tests/stated_facts.py looks for it ({pattern!r})")
            for f in found:
                count += 1
                if (f != value) if isinstance(value, str) else (number(f) != value):
                    problems.append(f"{page}: states {what} as {f}, but it is {value}")
    count += testing_table(root, problems)
    for p in problems:
        print(p)
    print(f"stated_facts: {len(problems)} problem(s) in {count} statements checked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
