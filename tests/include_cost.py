#!/usr/bin/env python3
"""Fails when a container header starts costing its users' units what it does not use.

    include_cost.py ROOT CXX [STANDARD] [--code-size]

Each header below is preprocessed alone (CXX -std=c++STANDARD -H -E) and checked for
- the heavy standard headers it must not reach (with libstdc++: relo takes the component headers its
  <vector> is made of, detail/standard_library.hpp; the atomics and the lock are the compiler's and the
  system's, detail/sync.hpp), and
- its size: the preprocessed unit's lines of code, against <vector>'s, within the bound below.
Both are deterministic for one compiler and library; the times they stand for are measured in
docs/measurements/build_cost.md. With another standard library than libstdc++ only the size is checked.
The unit gets no flags but the standard: it is the default configuration a user's unit sees that is checked
(-DRELO_STANDARD_HEADERS, which one test configuration sets, takes the public headers on purpose).
GCC and Clang only (-H); tests/CMakeLists.txt adds it for them, not for Windows (<windows.h>).

With --code-size (GCC, ELF objects), also the code a unit with many element types gets: the build-cost
family's unit (bench/build_cost_unit.cpp: 40 element types, each pushed, emplaced, inserted and erased in the
middle, resized, copied, sorted and compared) compiled at -O2 in C++20 with std::vector and with each relo
container of CODE_SIZE, its executable sections' bytes against std::vector's within the bound. The code is
deterministic for one compiler and library; the compile times, which vary, are the benchmark family's.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

# What a container's unit must not pay for (the time each costs: docs/measurements/build_cost.md).
HEAVY = {
    "memory", "memory_resource", "iterator", "algorithm", "functional", "ranges", "string", "stdexcept",
    "ostream", "istream", "sstream", "ios", "streambuf", "shared_mutex", "mutex", "thread", "atomic", "chrono",
    "numeric", "map", "set", "unordered_map", "list", "deque", "bits/unique_ptr.h", "bits/shared_ptr.h",
    "bits/atomic_base.h", "bits/std_mutex.h", "bits/chrono.h",
    # all of <algorithm>'s algorithms, and what the relocation trait only names (declared instead; <optional>
    # stays: optional_ref is std::optional<T&>'s stand-in, with its nullopt and bad_optional_access)
    "bits/stl_algo.h", "bits/std_function.h", "array", "tuple", "variant",
}

# header -> the most lines of code its unit may have, as a multiple of <vector>'s unit
# (GCC 12 and Clang 14 with libstdc++ 12, C++17 and C++20: the containers 1.46-1.77, relocation.hpp
# 1.15-1.21, optional_ref.hpp 1.25-1.30; a tenth of room for another libstdc++)
HEADERS = {
    "relo/vector.hpp": 1.95,
    "relo/small_vector.hpp": 1.95,
    "relo/inplace_vector.hpp": 1.6,
    "relo/pinned_vector.hpp": 1.95,
    "relo/relocation.hpp": 1.35,
    "relo/growth.hpp": 1.0,
    "relo/optional_ref.hpp": 1.45,
    "relo/commit_policy.hpp": 1.0,
}

# container -> the most code its 40-type unit may have, as a multiple of std::vector's (GCC 12.2, libstdc++ 12,
# C++20, -O2: relo::vector 1.83, small_vector 1.93, docs/measurements/build_cost.md; about a twentieth of room)
CODE_SIZE = {
    ("<relo/vector.hpp>", "relo::vector<T>"): 1.92,
    ("<relo/small_vector.hpp>", "relo::small_vector<T, 8>"): 2.02,
}


def preprocess(cxx, standard, include, text):
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
        f.write(text)
        name = f.name
    try:
        run = subprocess.run([cxx, f"-std=c++{standard}", "-I", include, "-H", "-E", "-P", name],
                             capture_output=True, text=True)
    finally:
        os.unlink(name)
    if run.returncode != 0:
        sys.exit(f"include_cost: {cxx} failed on {text.strip()}:\n{run.stderr[-2000:]}")
    lines = sum(1 for line in run.stdout.splitlines() if line.strip())
    reached = set()
    for line in run.stderr.splitlines():
        m = re.match(r"^\.+ (.+)$", line)
        if not m:
            continue
        path = m.group(1).replace("\\", "/")
        # a standard header: .../c++/<version>/<name> (libstdc++), .../c++/v1/<name> (libc++), or
        # .../include/c++/<name> (mingw-w64's libstdc++, no version directory)
        s = re.search(r"/c\+\+/(?:v1/|\d[^/]*/)?(.+)$", path)
        if s:
            reached.add(s.group(1))
    return lines, reached


def standard_flag(cxx, standard):
    """The standard's number as this compiler spells it (Clang 14 knows C++23 only as c++2b)."""
    drafts = {"23": "2b", "26": "2c"}
    for spelling in [standard] + ([drafts[standard]] if standard in drafts else []):
        probe = subprocess.run([cxx, f"-std=c++{spelling}", "-x", "c++", "-E", os.devnull], capture_output=True)
        if probe.returncode == 0:
            return spelling
    return standard


def text_bytes(path):
    """The bytes of an ELF64 object's executable sections (SHF_EXECINSTR)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit(f"include_cost: {path} is not an ELF64 object")
    sections, = struct.unpack_from("<Q", data, 0x28)
    entry, count = struct.unpack_from("<HH", data, 0x3A)
    total = 0
    for i in range(count):
        flags, size = struct.unpack_from("<Q16xQ", data, sections + i * entry + 0x08)
        if flags & 0x4:
            total += size
    return total


def unit_code(cxx, root, header, vector_of_t, out):
    command = [cxx, "-std=c++20", "-O2", f"-DBUILD_COST_HEADER={header}", f"-DBUILD_COST_VECTOR(T)={vector_of_t}",
               "-I", os.path.join(root, "include"), "-c", os.path.join(root, "bench", "build_cost_unit.cpp"),
               "-o", out]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"include_cost: {' '.join(command)} failed:\n{run.stderr[-2000:]}")
    return text_bytes(out)


def code_size_failures(root, cxx):
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        base = unit_code(cxx, root, "<vector>", "std::vector<T>", os.path.join(tmp, "std.o"))
        for (header, vector_of_t), bound in CODE_SIZE.items():
            ratio = unit_code(cxx, root, header, vector_of_t, os.path.join(tmp, "relo.o")) / base
            print(f"{vector_of_t} with 40 element types: {ratio:.2f}x std::vector's code (bound {bound})")
            if ratio > bound:
                failures.append(f"{vector_of_t}: {ratio:.2f}x std::vector's code in the 40-type unit, above {bound}")
    return failures


def main():
    args = [a for a in sys.argv[1:] if a != "--code-size"]
    root, cxx = args[0], args[1]
    standard = standard_flag(cxx, args[2] if len(args) > 2 else "20")
    include = os.path.join(root, "include")
    base_lines, base_reached = preprocess(cxx, standard, include, "#include <vector>\n")
    libstdcxx = any(h.startswith("bits/") for h in base_reached)
    failures = []
    for header, bound in HEADERS.items():
        lines, reached = preprocess(cxx, standard, include, f"#include <{header}>\n")
        ratio = lines / base_lines
        heavy = sorted(h for h in reached if h in HEAVY) if libstdcxx else []
        print(f"{header}: {lines} lines of code, {ratio:.2f}x <vector>'s (bound {bound})"
              + (f"; heavy: {', '.join(heavy)}" if heavy else ""))
        if heavy:
            failures.append(f"{header} reaches {', '.join(heavy)}: include the component it needs "
                            "(relo/detail/standard_library.hpp, relo/detail/sync.hpp) or move the use out")
        if ratio > bound:
            failures.append(f"{header}: {lines} lines of code, {ratio:.2f}x <vector>'s, above its bound {bound}")
    if "--code-size" in sys.argv:
        failures += code_size_failures(root, cxx)
    if failures:
        print("\n".join(["include_cost: FAILED"] + failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
