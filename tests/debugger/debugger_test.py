"""The debugger printers against a live program: tests/debugger/debuggee.cpp, built with -g, writes what each
printer must show (from the containers' public interface); a real debugger prints every variable, and each
printed line must match.

    python3 debugger_test.py gdb PROGRAM WORK_DIR [--source SCRIPT]
    python3 debugger_test.py lldb PROGRAM WORK_DIR --source SCRIPT

GDB without --source must load the printers by itself, from the program's .debug_gdb_scripts section; with
it, SCRIPT is sourced by hand (the installed file's way). LLDB imports SCRIPT (debugging/relo_lldb.py), and
the test writes each value as GDB would: the summary, then " = {" and the elements.
"""
import glob
import os
import re
import subprocess
import sys

VARIABLES = ["ints", "strings", "empty_vector", "small_inline", "small_heap", "small_base", "small_empty",
             "fixed", "fixed_strings", "fixed_none", "pinned", "pinned_empty", "arena", "monotonic",
             "monotonic_empty", "multipool", "multipool_empty", "shared", "shared_const", "tested", "profiler"]

# Run inside LLDB: each variable as GDB prints it, between the markers the test reads.
LLDB_SHOW = """
import lldb

def show(frame, names):
    for name in names:
        v = frame.FindVariable(name)
        text = v.GetSummary() or ""
        children = [v.GetChildAtIndex(i) for i in range(v.GetNumChildren())]
        elements = [c.GetSummary() or c.GetValue() or "(no value)" for c in children]
        if elements and v.GetNumChildren() and not text.startswith("relo::vm") and "resource" not in text:
            text += " = {" + ", ".join(elements) + "}"
        print("@@%s@@" % name)
        print("$1 = " + text)
"""


def expected_lines(path):
    out = []
    with open(path) as f:
        for line in f:
            variable, text = line.rstrip("\n").split("|", 1)
            out.append((variable, text))
    return out


def pattern(text):
    """{T} stands for the debugger's spelling of an element type."""
    return "^" + ".+?".join(re.escape(part) for part in text.split("{T}")) + "$"


def run_gdb(gdb, program, expected_file, variables, source):
    # By hand: the default safe-path declines the program's own copy (and still loads libstdc++'s printers).
    loading = ["-ex", f"source {source}"] if source else ["-iex", "set auto-load safe-path /"]
    command = [gdb, "-batch", "-nx"] + loading + [
        "-ex", "set print elements 1000", "-ex", "break stop_here", "-ex", f"run {expected_file}", "-ex", "up",
        "-ex", "info auto-load python-scripts"]
    for v in variables:
        command += ["-ex", f"echo @@{v}@@\\n", "-ex", f"print {v}"]
    command.append(program)
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    return done.stdout + done.stderr


def lldb_python_path(lldb):
    """Where LLDB's Python module is. Debian 12's lldb-14 names a folder that does not exist (`lldb -P`) and
    then cannot start its interpreter; its module is under /usr/lib/llvm-14/lib/python3.*/dist-packages."""
    said = subprocess.run([lldb, "-P"], capture_output=True, text=True).stdout.strip().splitlines()
    candidates = said[:1] + sorted(glob.glob("/usr/lib/llvm-*/lib/python3*/dist-packages"))
    for d in candidates:
        if os.path.exists(os.path.join(d, "lldb", "embedded_interpreter.py")):
            return d
    return None


def run_lldb(lldb, program, expected_file, variables, source, work):
    with open(os.path.join(work, "relo_show.py"), "w") as f:
        f.write(LLDB_SHOW)
    env = dict(os.environ)
    # LLDB's embedded Python takes its prefix from the python3 on PATH: the system's, which its module is for
    # (not a python3 of pyenv's or a virtualenv's earlier on PATH).
    env["PATH"] = os.pathsep.join([os.path.dirname(os.path.realpath(lldb)), "/usr/bin", env.get("PATH", "")])
    python_path = lldb_python_path(lldb)
    if python_path:
        env["PYTHONPATH"] = python_path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    command = [lldb, "--batch", "--no-lldbinit", "-o", f"command script import {source}",
               "-o", f"command script import {os.path.join(work, 'relo_show.py')}",
               "-o", "breakpoint set --name stop_here", "-o", f"process launch -- {expected_file}",
               "-o", "frame select 1", "-o", f"script relo_show.show(lldb.frame, {variables!r})", program]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    return done.stdout + done.stderr


def main():
    debugger, program, work = sys.argv[1:4]
    source = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--source" else None
    os.makedirs(work, exist_ok=True)
    expected_file = os.path.join(work, "expected.txt")
    if os.path.exists(expected_file):
        os.remove(expected_file)
    # The program writes the expectations as it runs under GDB; they are read after.
    variables = VARIABLES
    lldb = "lldb" in os.path.basename(debugger)
    if lldb and not source:
        sys.exit("LLDB needs --source debugging/relo_lldb.py")
    output = (run_lldb(debugger, program, expected_file, variables, source, work) if lldb
              else run_gdb(debugger, program, expected_file, variables, source))
    if not os.path.exists(expected_file):
        sys.exit("the program did not run under the debugger:\n" + output)
    expected = dict(expected_lines(expected_file))
    if sorted(expected) != sorted(variables):
        sys.exit(f"the program and the test name different variables: {sorted(expected)} vs {sorted(variables)}")
    if not lldb and not source and not re.search(r"^Yes\s+relo_gdb\.py", output, re.M):
        sys.exit("GDB did not load relo_gdb.py from the program's .debug_gdb_scripts section:\n" + output)
    printed = {}
    for v, block in re.findall(r"^@@(\w+)@@\n(.*?)(?=^@@|\Z)", output, re.M | re.S):
        m = re.search(r"^\$\d+ = (.*)$", block, re.M)
        printed[v] = m.group(1) if m else block.strip()
    failures = []
    for v in variables:
        got = printed.get(v, "(nothing printed)")
        if not re.match(pattern(expected[v]), got):
            failures.append(f"{v}:\n  expected {expected[v]}\n  printed  {got}")
    if failures:
        sys.exit("printers disagree with the program:\n" + "\n".join(failures) + "\n\nthe debugger's output:\n" + output)
    how = "imported" if lldb else "sourced" if source else "auto-loaded"
    print(f"{os.path.basename(debugger)}: {len(variables)} values printed as the program says ({how})")


if __name__ == "__main__":
    main()
