#!/usr/bin/env python3
"""Checks that a program using relo has no lazily initialized relo static shared between threads.

    lazy_statics.py PROGRAM

A function-local static with a run-time initializer is made by the first thread that reaches it, behind a
guard that only this thread clears: a child of fork(), forked while another thread was inside such an
initialization, waits for it for good at its own first use (docs/life_in_a_process.md, "fork"). The
compiler emits a guard variable for each such static; this check lists the program's guard variables
(`nm`) and fails on any of a relo function's static that is not thread-local (a thread-local guard is the
calling thread's own, in .tbss). Namespace-scope variables are made before main and are left alone.
"""
import re
import subprocess
import sys

GUARD = re.compile(r"^guard variable for (relo::.*\)(?: const)?::.*)$")


def lazy_statics(program):
    out = subprocess.run(["nm", "-C", "--format=sysv", program], check=True, capture_output=True,
                         text=True).stdout
    found = []
    for line in out.splitlines():
        fields = [f.strip() for f in line.split("|")]
        if len(fields) < 7:
            continue
        match = GUARD.match(fields[0])
        if match and fields[6] != ".tbss":
            found.append(match.group(1))
    return sorted(set(found))


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    found = lazy_statics(argv[1])
    for name in found:
        print(f"{argv[1]}: a lazily initialized static, shared between threads: {name}")
    if not found:
        print("no lazily initialized relo static")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
