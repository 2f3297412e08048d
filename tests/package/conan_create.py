#!/usr/bin/env python3
"""relo's Conan recipe (conanfile.py), created and tested as a user would: `conan create` with the consumer
in tests/package/conan, in a Conan home of its own (ctest package_conan). Skipped (exit 77) where conan is
not installed: Debian packages no conan, and the test command installs from Debian's packages only.

    conan_create.py SOURCE_DIR WORK_DIR
"""
import os
import shutil
import subprocess
import sys


def main(source, work):
    conan = shutil.which("conan")
    if conan is None:
        print("package_conan: conan is not installed (pip install conan): skipped")
        return 77
    home = os.path.join(work, "conan-home")
    shutil.rmtree(work, ignore_errors=True)
    # The consumer copied out of the source tree: conan builds a test package inside its folder.
    consumer = os.path.join(work, "consumer", "conan")
    shutil.copytree(os.path.join(source, "tests", "package", "conan"), consumer)
    shutil.copy(os.path.join(source, "tests", "package", "main.cpp"), os.path.join(work, "consumer", "main.cpp"))
    env = dict(os.environ, CONAN_HOME=home)
    for command in ([conan, "profile", "detect", "--force"],
                    [conan, "create", source, "--build=missing", "-s", "compiler.cppstd=17", "-tf", consumer]):
        print("$", " ".join(command), flush=True)
        if subprocess.run(command, env=env).returncode != 0:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
