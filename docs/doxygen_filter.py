#!/usr/bin/env python3
"""doxygen's input filter for relo's headers (docs/Doxyfile, INPUT_FILTER): a header's opening comment, the
`//` lines before its first other line, becomes the header's own documentation (`\\file`, verbatim: the
comment's tables and examples are aligned by spaces), so that the reference's page of each header has what
the contracts call "this header's opening comment". No line is added or removed: the reference's line
numbers stay the headers'.

    doxygen_filter.py HEADER
"""
import sys


def main(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    end = 0
    while end < len(lines) and lines[end].startswith("//") and not lines[end].startswith("///"):
        end += 1
    if end > 0:
        # (\code{.unparsed} keeps the comment's alignment and, unlike \verbatim, drops the /// of each line.)
        for k in range(end):
            lines[k] = ("/// \\code{.unparsed}" if k == 0 else "///") + lines[k][2:]
        lines[end - 1] += " \\endcode \\file"
    sys.stdout.buffer.write("\n".join(lines).encode("utf-8"))


if __name__ == "__main__":
    main(sys.argv[1])
