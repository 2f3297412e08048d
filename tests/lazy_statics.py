#!/usr/bin/env python3
"""Checks that a program using relo has no lazily initialized relo static shared between threads.

    lazy_statics.py PROGRAM [NM]

A function-local static with a run-time initializer is made by the first thread that reaches it, behind a
guard that only this thread clears: a child of fork(), forked while another thread was inside such an
initialization, waits for it for good at its own first use (docs/life_in_a_process.md, "fork"). The
compiler emits a guard variable for each such static (Itanium C++ ABI: `_ZGVZ` and the function's name);
this check lists the program's symbols (`nm`, an ELF program) and fails on the guard of any static local
to a relo function that is not thread-local (a thread-local guard is the calling thread's own), and when
the program has no relo symbol at all (stripped: nothing would be checked). Namespace-scope variables are
made before main and are left alone.
"""
import re
import shutil
import subprocess
import sys

# A guard variable (_ZGV) of a static local to a function (Z), whose nested name (N), after any cv- or
# ref-qualifiers of a member function, starts in namespace relo.
LOCAL_GUARD = re.compile(r"^_ZGVZN[rVKRO]*4relo")
RELO_SYMBOL = re.compile(r"4relo")
THREAD_LOCAL_SECTIONS = (".tbss", ".tdata")


def symbols(program, nm):
    out = subprocess.run([nm, "--format=sysv", program], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        fields = [f.strip() for f in line.split("|")]
        if len(fields) >= 7:
            yield fields[0], fields[3], fields[6]  # name, type, section


def demangled(name):
    filt = shutil.which("c++filt")
    if filt is None:
        return name
    return subprocess.run([filt, name], capture_output=True, text=True).stdout.strip() or name


def lazy_statics(program, nm="nm"):
    """(the lazily initialized shared relo statics, whether the program has relo symbols at all)"""
    found, any_relo = [], False
    for name, kind, section in symbols(program, nm):
        any_relo = any_relo or bool(RELO_SYMBOL.search(name))
        if LOCAL_GUARD.match(name) and kind != "TLS" and section not in THREAD_LOCAL_SECTIONS:
            found.append(demangled(name))
    return sorted(set(found)), any_relo


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__)
        return 2
    found, any_relo = lazy_statics(argv[1], argv[2] if len(argv) == 3 else "nm")
    if not any_relo:
        print(f"{argv[1]}: no relo symbol (a stripped program?): nothing checked")
        return 1
    for name in found:
        print(f"{argv[1]}: a lazily initialized static, shared between threads: {name}")
    if not found:
        print("no lazily initialized relo static")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
