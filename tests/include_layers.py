#!/usr/bin/env python3
"""Checks relo's layers against the real include graph.

    include_layers.py ROOT

Every header under include/relo declares its layer in a line `// Layer N, name (docs/design.md, "Layers")`.
The check fails when
- a header declares no layer, or a layer docs/design.md's table gives otherwise (or not at all);
- a header includes a relo header of a higher layer (an arrow that climbs) or the includes form a cycle;
- a header tests a RELO_HAS_ macro before including what defines it (the test would read it as 0).
"""
import os
import re
import sys

LAYER_LINE = re.compile(r'^// Layer (\d+), ([^(]+) \(docs/design\.md, "Layers"\)')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
MACRO_TEST = re.compile(r'^\s*#\s*(?:el)?if\b.*?\b(RELO_HAS_\w+)')
MACRO_DEFINE = re.compile(r'^\s*#\s*define\s+(RELO_HAS_\w+)')
TABLE_ROW = re.compile(r'^\|\s*(\d+)\s+[^|]*\|\s*([^|]+)\|')


def headers(root):
    base = os.path.join(root, "include")
    for folder in ("relo", os.path.join("relo", "detail")):
        for name in sorted(os.listdir(os.path.join(base, folder))):
            if name.endswith(".hpp"):
                yield os.path.join(folder, name).replace(os.sep, "/")


def resolve(header, target):
    """An include as written ("relo/x.hpp", or "x.hpp" beside the header) as a path under include/."""
    if target.startswith("relo/"):
        return target
    return os.path.normpath(os.path.join(os.path.dirname(header), target)).replace(os.sep, "/")


def parse(root):
    info = {}
    for h in headers(root):
        with open(os.path.join(root, "include", h)) as f:
            lines = f.read().split("\n")
        layer = None
        includes, tests, defines = [], [], set()
        for number, line in enumerate(lines, 1):
            m = LAYER_LINE.match(line)
            if m and layer is None:
                layer = int(m.group(1))
            m = INCLUDE.match(line)
            if m:
                includes.append((number, resolve(h, m.group(1))))
            m = MACRO_TEST.match(line)
            if m:
                tests.append((number, m.group(1)))
            m = MACRO_DEFINE.match(line)
            if m:
                defines.add(m.group(1))
        info[h] = {"layer": layer, "includes": includes, "tests": tests, "defines": defines}
    return info


def design_table(root):
    """header -> layer, from the rows of docs/design.md's "Layers" table."""
    table = {}
    with open(os.path.join(root, "docs", "design.md")) as f:
        for line in f:
            m = TABLE_ROW.match(line)
            if m:
                for path in re.findall(r"`include/(relo/[\w/]+\.hpp)`", m.group(2)):
                    table[path] = int(m.group(1))
    return table


def check(root):
    info = parse(root)
    table = design_table(root)
    errors = []
    for h, i in info.items():
        if i["layer"] is None:
            errors.append(f"{h}: no `// Layer N, name (docs/design.md, \"Layers\")` line")
            continue
        if table.get(h) != i["layer"]:
            errors.append(f"{h}: layer {i['layer']} in the header, {table.get(h)} in docs/design.md's table")
        for number, target in i["includes"]:
            if target not in info:
                errors.append(f"{h}:{number}: includes {target}, which is not a relo header")
            elif info[target]["layer"] is not None and info[target]["layer"] > i["layer"]:
                errors.append(f"{h}:{number}: layer {i['layer']} includes {target} of layer {info[target]['layer']}")
    for path in table:
        if path not in info:
            errors.append(f"docs/design.md names {path}, which does not exist")

    # Cycles (possible inside a layer), and what each header defines with everything it includes.
    state, defined = {}, {}

    def visit(h, stack):
        if state.get(h) == "open":
            errors.append("include cycle: " + " -> ".join(stack[stack.index(h):] + [h]))
            return set()
        if h in defined:
            return defined[h]
        state[h] = "open"
        out = set(info[h]["defines"])
        for _, target in info[h]["includes"]:
            if target in info:
                out |= visit(target, stack + [h])
        state[h] = "done"
        defined[h] = out
        return out

    for h in info:
        visit(h, [])
    for h, i in info.items():
        for number, macro in i["tests"]:
            if macro in i["defines"]:
                continue
            before = set()
            for include_line, target in i["includes"]:
                if include_line < number and target in defined:
                    before |= defined[target]
            if macro not in before:
                errors.append(f"{h}:{number}: tests {macro} before including the header that defines it")
    return errors


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    errors = check(sys.argv[1])
    for e in errors:
        print(e)
    if errors:
        sys.exit(1)
    print("every include goes down or across a layer; the layers match docs/design.md")


if __name__ == "__main__":
    main()
