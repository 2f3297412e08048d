#!/usr/bin/env python3
"""Writes include/relo/detail/gdb_printers.hpp from debugging/relo_gdb.py: the printers as an inline
script in the .debug_gdb_scripts section of every program that includes relo, so GDB loads them with it.

    python3 debugging/embed_gdb_printers.py [SOURCE_DIR]           rewrite the header
    python3 debugging/embed_gdb_printers.py --check [SOURCE_DIR]   fail if the header is out of date
"""
import os
import sys

HEADER = "include/relo/detail/gdb_printers.hpp"
SCRIPT = "debugging/relo_gdb.py"

PROLOGUE = """\
// relo/detail/gdb_printers.hpp — GDB's pretty-printers for relo, carried by every program that includes relo.
//
// Generated from debugging/relo_gdb.py by debugging/embed_gdb_printers.py (the test gdb_printers_embedded
// fails when the two differ): edit the script, then run the generator.
//
// The script is an inline entry (kind 4: Python text) of the .debug_gdb_scripts section; GDB runs it when it
// loads a program whose folder is in its auto-load safe-path. The section's "MS" flags make the linker keep
// one copy however many translation units include relo. Define RELO_NO_GDB_PRINTERS to leave it out.
// Layer 0, configuration and errors (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_GDB_PRINTERS_HPP
#define RELO_DETAIL_GDB_PRINTERS_HPP

#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__)) && !defined(RELO_NO_GDB_PRINTERS)
#if defined(__arm__)
#define RELO_DETAIL_PROGBITS "%progbits"
#else
#define RELO_DETAIL_PROGBITS "@progbits"
#endif
// clang-format off
asm(".pushsection \\".debug_gdb_scripts\\", \\"MS\\"," RELO_DETAIL_PROGBITS ",1\\n"
    ".byte 4\\n"
"""

EPILOGUE = """\
    ".byte 0\\n"
    ".popsection\\n");
// clang-format on
#undef RELO_DETAIL_PROGBITS
#endif

#endif  // RELO_DETAIL_GDB_PRINTERS_HPP
"""


def c_literal(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '\\n"'


def header(script):
    lines = ["relo_gdb.py"] + script.rstrip("\n").split("\n")  # an inline script's first line is its name
    out = [PROLOGUE]
    for line in lines:
        asm_text = line.replace("\\", "\\\\").replace('"', '\\"') + "\\n"
        out.append("    " + c_literal('.ascii "' + asm_text + '"') + "\n")
    out.append(EPILOGUE)
    return "".join(out)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    with open(os.path.join(root, SCRIPT)) as f:
        wanted = header(f.read())
    path = os.path.join(root, HEADER)
    if check:
        with open(path) as f:
            if f.read() != wanted:
                sys.exit(f"{HEADER} is not {SCRIPT} embedded: run python3 debugging/embed_gdb_printers.py")
        print(f"{HEADER} embeds {SCRIPT}")
        return
    with open(path, "w") as f:
        f.write(wanted)


if __name__ == "__main__":
    main()
