"""The README's quick-start snippet is the marked part of examples/quick_start.cpp, which the tests build
and run: so the snippet cannot rot. Run: python3 tests/readme_snippet.py SOURCE_DIR"""
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
example = open(f"{root}/examples/quick_start.cpp").read()
marked = example.split("// [quick-start]\n", 1)[1].split("// [quick-start end]", 1)[0].rstrip("\n")
readme = open(f"{root}/README.md").read()
if f"```cpp\n{marked}\n```" not in readme:
    sys.exit("README.md does not show the marked part of examples/quick_start.cpp as a ```cpp block "
             "(copy it again after changing either)")
print("README.md shows examples/quick_start.cpp's quick start")
