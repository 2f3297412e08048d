#!/usr/bin/env python3
"""Compiles one source file of this build again in another C++ standard, front end only.

    syntax_check.py COMPILE_COMMANDS SOURCE STANDARD [-DNAME=VALUE ...]

Takes SOURCE's command from the build's compile_commands.json (same compiler, include paths, definitions
and warnings, -Werror included), sets -std=c++STANDARD and replaces the object output with
-fsyntax-only: every diagnostic of the front end (-Wpedantic's among them) in that standard, without the
cost of generating code. Each -DNAME=VALUE replaces the command's definition of NAME. ./relo.sh test uses
it for the one compiler and standard pair whose tests it does not build and run in full (docs/testing.md).
"""
import json
import os
import shlex
import subprocess
import sys


def front_end_command(entry, standard, definitions=()):
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    replaced = {d[2:].split("=", 1)[0] for d in definitions}
    out = []
    skip_next = False
    for arg in args:
        if skip_next:
            skip_next = False
            continue
        if arg in ("-o", "-MF", "-MT", "-MQ"):
            skip_next = True
            continue
        if arg in ("-c", "-MD", "-MMD") or arg.startswith("-o"):
            continue
        if arg.startswith("-std="):
            arg = "-std=c++" + standard
        if arg.startswith("-D") and arg[2:].split("=", 1)[0] in replaced:
            continue
        out.append(arg)
    if not any(a.startswith("-std=") for a in out):
        out.insert(1, "-std=c++" + standard)
    return out + list(definitions) + ["-fsyntax-only"]


def main():
    if len(sys.argv) < 4 or not all(d.startswith("-D") for d in sys.argv[4:]):
        sys.exit(__doc__)
    database, source, standard = sys.argv[1:4]
    definitions = sys.argv[4:]
    with open(database) as f:
        entries = json.load(f)
    source = os.path.realpath(source)
    for entry in entries:
        path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        if path == source:
            command = front_end_command(entry, standard, definitions)
            print(" ".join(shlex.quote(a) for a in command), flush=True)
            sys.exit(subprocess.call(command, cwd=entry["directory"]))
    sys.exit(f"{source} is not in {database}")


if __name__ == "__main__":
    main()
