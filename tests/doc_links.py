#!/usr/bin/env python3
"""Every link between the repository's own files resolves: markdown links to relative paths (in every
.md file) and the docs/, include/, bench/, tests/ and examples/ paths that prose, headers and scripts
name. A page moved or removed without its mentions fails here.

    python3 tests/doc_links.py [ROOT]
"""
import os
import re
import subprocess
import sys

MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
# A path the prose names: a top-level directory of the repository, then a file with an extension.
NAMED_PATH = re.compile(r"(?<![\w./-])((?:docs|include|bench|tests|examples|debugging|cmake)/[\w./-]*\.(?:md|hpp|cpp|py|cmake|txt|json))(?![\w-]|\.\w)")
SCANNED = (".md", ".hpp", ".cpp", ".py", ".sh", ".txt", ".cmake")


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout.strip():
        return out.stdout.split()
    files = []  # (a release archive: no git)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", "build", "report")]
        files += [os.path.relpath(os.path.join(dirpath, f), root) for f in filenames]
    return files


def problems(root):
    found = []
    for rel in tracked_files(root):
        if not rel.endswith(SCANNED) or rel.startswith("tests/fuzz/corpus") or rel == "tests/doc_links.py":
            continue
        path = os.path.join(root, rel)
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        here = os.path.dirname(rel)
        for number, line in enumerate(text.splitlines(), 1):
            targets = []
            if rel.endswith(".md"):
                for target in MARKDOWN_LINK.findall(line):
                    if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                        continue  # a URL or an anchor on the same page
                    targets.append(os.path.normpath(os.path.join(here, target.split("#")[0])))
            for named in NAMED_PATH.findall(line):
                # Named from the root (how the repository writes them), or relative to the file.
                if not os.path.exists(os.path.join(root, named)) and os.path.exists(os.path.join(root, here, named)):
                    named = os.path.join(here, named)
                targets.append(os.path.normpath(named))
            for target in targets:
                if "*" in target or "{" in target or "<" in target or "/my_" in target:
                    continue  # a pattern, or the placeholder of a how-to (bench/my_bench.cpp)
                if not os.path.exists(os.path.join(root, target)):
                    found.append(f"{rel}:{number}: {target} does not exist")
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    found = problems(root)
    for p in found:
        print(p)
    if found:
        print(f"{len(found)} links to files that do not exist")
        return 1
    print("every link to a file of the repository resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
