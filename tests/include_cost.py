#!/usr/bin/env python3
"""Fails when a container header starts costing its users' units what it does not use.

    include_cost.py ROOT CXX [STANDARD]

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
"""
import os
import re
import subprocess
import sys
import tempfile

# What a container's unit must not pay for (the time each costs: docs/measurements/build_cost.md).
HEAVY = {
    "memory", "memory_resource", "iterator", "algorithm", "functional", "ranges", "string", "stdexcept",
    "ostream", "istream", "sstream", "ios", "streambuf", "shared_mutex", "mutex", "thread", "atomic", "chrono",
    "numeric", "map", "set", "unordered_map", "list", "deque", "bits/unique_ptr.h", "bits/shared_ptr.h",
    "bits/atomic_base.h", "bits/std_mutex.h", "bits/chrono.h",
}

# header -> the most lines of code its unit may have, as a multiple of <vector>'s unit
# (GCC 12 and Clang 14 with libstdc++ 12: 1.9-2.45 in C++17 and C++20; a tenth of room for another libstdc++)
HEADERS = {
    "relo/vector.hpp": 2.7,
    "relo/small_vector.hpp": 2.7,
    "relo/inplace_vector.hpp": 2.4,
    "relo/pinned_vector.hpp": 2.7,
    "relo/relocation.hpp": 2.2,
    "relo/growth.hpp": 1.0,
    "relo/optional_ref.hpp": 2.0,
    "relo/commit_policy.hpp": 1.0,
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


def main():
    root, cxx = sys.argv[1], sys.argv[2]
    standard = standard_flag(cxx, sys.argv[3] if len(sys.argv) > 3 else "20")
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
    if failures:
        print("\n".join(["include_cost: FAILED"] + failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
