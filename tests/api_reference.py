#!/usr/bin/env python3
"""The API reference's check (ctest api_reference): runs doxygen with docs/Doxyfile, as ./relo.sh docs does,
and fails on each public name without a contract, and on each error in a contract's markup.

    api_reference.py ROOT [DOXYGEN]

A public name is one declared in a public header (include/relo/*.hpp) outside relo::detail, one declared
in namespace relo by include/relo/detail/allocation.hpp (relo::allocation_result, which the public
allocate_at_least returns), or a public member of detail::sequence_ops (the operations the four vectors
share, which the reference shows on each vector's page). Doxygen's own warnings decide what has no contract: a `///` comment before a declaration,
or `///@{ ... ///@}` around a group of them, is one.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

WARNING = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+): (?:warning: )?(?P<text>.*)$")


def public_problem(root, path, text):
    """Whether a warning of doxygen's is about a public name (or its markup in a public header)."""
    rel = os.path.relpath(path, root)
    # Whose the name is, from the warning's own words: "Member X (kind) of class|namespace|struct SCOPE
    # is not documented", "Compound SCOPE is not documented" (a type such as detail::x<T> elsewhere in
    # the text does not make the name relo::detail's).
    scope = re.search(r" of (?:class|struct|union|namespace|file) (\S+)", text) or re.match(r"Compound (\S+)", text)
    if scope and "sequence_ops" in scope.group(1):
        return True
    if scope and ("relo::detail" in scope.group(1) or scope.group(1).startswith("detail::")):
        return False
    if rel == "include/relo/detail/allocation.hpp":
        return True
    if "/detail/" in rel:
        return False
    return rel.startswith("include/relo/")


def problems_of(root, doxygen):
    """The public problems doxygen reports for the tree at root, and its exit status."""
    with tempfile.TemporaryDirectory() as out:
        with open(os.path.join(root, "docs", "Doxyfile")) as f:
            config = f.read()
        # (HIDE_UNDOC_CLASSES also hides an undocumented public class from the warnings: off for the check.)
        config += (f"\nOUTPUT_DIRECTORY = {out}\nGENERATE_HTML = NO\nGENERATE_XML = NO\nWARN_LOGFILE =\n"
                   "HIDE_UNDOC_CLASSES = NO\n")
        run = subprocess.run([doxygen, "-"], input=config, text=True, cwd=root, capture_output=True)
    problems, seen = [], set()
    for line in run.stderr.splitlines():
        m = WARNING.match(line)
        where = (m["file"], m["line"]) if m else None
        if m and where not in seen and public_problem(root, m["file"], m["text"]):
            seen.add(where)  # (sequence_ops's members are reported once per vector that derives from it)
            problems.append(f"{os.path.relpath(m['file'], root)}:{m['line']}: {m['text']}")
    return problems, run.returncode


def probe_is_found(root, doxygen):
    """The check itself: a copy of the headers with an undocumented free function and an undocumented class
    in namespace relo must fail it, on both."""
    with tempfile.TemporaryDirectory() as copy:
        shutil.copytree(os.path.join(root, "include"), os.path.join(copy, "include"))
        os.makedirs(os.path.join(copy, "docs"))
        for f in ("Doxyfile", "reference.md", "doxygen_filter.py"):
            shutil.copy(os.path.join(root, "docs", f), os.path.join(copy, "docs", f))
        header = os.path.join(copy, "include", "relo", "warm_memory.hpp")
        with open(header) as f:
            text = f.read()
        end = text.rindex("#endif")
        with open(header, "w") as f:
            f.write(text[:end] + "namespace relo {\ninline void api_reference_probe() noexcept {}\n"
                    "struct api_reference_probe_class {\n    int member;\n};\n}\n" + text[end:])
        problems, _ = problems_of(copy, doxygen)
    return all(any(name in p for p in problems) for name in ("api_reference_probe(", "api_reference_probe_class"))


def main(root, doxygen="doxygen"):
    if shutil.which(doxygen) is None:
        print(f"api_reference: {doxygen} not found (Debian's doxygen; ./relo.sh test installs it)")
        return 1
    if not probe_is_found(root, doxygen):
        print("api_reference: an undocumented function or class added to a copy of the headers went unreported: "
              "the check is blind")
        return 1
    problems, status = problems_of(root, doxygen)
    for p in problems:
        print(p)
    print(f"api_reference: {len(problems)} public name(s) without a contract or with broken markup")
    return 1 if problems or status != 0 else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
