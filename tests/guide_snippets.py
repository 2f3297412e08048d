#!/usr/bin/env python3
"""The guide's programs compile and run (ctest guide_snippets): each ```cpp block of docs/guide.md that has
a main() is compiled with the test build's compiler (C++20, -Wall -Wextra -Werror, relo's include/) and
run; it must exit 0, as each one checks what it shows.

    guide_snippets.py ROOT CXX
"""
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"```cpp\n(.*?)```", re.DOTALL)


def main(root, cxx):
    with open(os.path.join(root, "docs", "guide.md"), encoding="utf-8") as f:
        blocks = [b for b in BLOCK.findall(f.read()) if re.search(r"\bint main\(", b)]
    if not blocks:
        print("guide_snippets: docs/guide.md has no program")
        return 1
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for k, block in enumerate(blocks, 1):
            source, program = os.path.join(work, f"snippet{k}.cpp"), os.path.join(work, f"snippet{k}")
            with open(source, "w") as f:
                f.write(block)
            build = subprocess.run([cxx, "-std=c++20", "-Wall", "-Wextra", "-Werror", "-I",
                                    os.path.join(root, "include"), source, "-o", program, "-pthread"],
                                   capture_output=True, text=True)
            if build.returncode != 0:
                print(f"program {k} of docs/guide.md does not compile:\n{build.stderr[:3000]}")
                failures += 1
                continue
            run = subprocess.run([program], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"program {k} of docs/guide.md exits {run.returncode}:\n{run.stdout[:2000]}{run.stderr[:2000]}")
                failures += 1
    print(f"guide_snippets: {len(blocks) - failures} of {len(blocks)} programs of docs/guide.md compile and run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
