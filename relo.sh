#!/usr/bin/env bash
# relo.sh — the project's commands (see README.md).
#
#   ./relo.sh test            build and run every test in six configurations (docs/testing.md), all
#                             -Wall -Wextra -Wpedantic -Werror: Clang C++20 + AddressSanitizer + UBSan, GCC
#                             C++17 (which also compiles every test in C++23, front end only), Clang C++23
#                             hardened on the portable POSIX path (which also compiles every test in C++17,
#                             front end only; with the public standard headers instead of libstdc++'s
#                             components); the tests of what threads share under ThreadSanitizer; the
#                             Windows build (mingw-w64) under Wine; the fuzz targets (libFuzzer, Clang,
#                             ASan + UBSan), each for 5 s; and the main command itself, from a clone of
#                             the committed tree: ./relo.sh bench --smoke
#   ./relo.sh bench [ARGS]    build the benchmarks in Release and run them (quick by default), writing report/
#                             (--full, --tuning, --smoke, --only PATTERN, --rounds N, --out DIR, --redraw:
#                             bench/README.md)
#   ./relo.sh docs            the API reference, generated from the public headers' contracts by doxygen
#                             (docs/Doxyfile): build/docs/html/index.html
#
# Both install what they need with apt-get when it is missing (as root, on Debian 12).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT=$(pwd)
JOBS=$(nproc 2>/dev/null || echo 2)

# Debian's interpreter, where python3-matplotlib is installed (a python3 earlier on PATH may lack it):
# the report's plots and the smoke run that draws them need it. Called after the packages are installed.
pick_python() {
  PYTHON=$(command -v python3)
  [ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3
  PYTHON_ARG=("-DPython3_EXECUTABLE=$PYTHON")
}

log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# Installs the Debian packages that are not installed yet.
ensure_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# configure_and_build NAME CXX STD "FLAGS" [cmake args...] — FLAGS are all the compiler gets (no build
# type adds its own).
configure_and_build() {
  local name=$1 cxx=$2 std=$3 flags=$4
  shift 4
  local dir="$ROOT/build/$name"
  mkdir -p "$ROOT/build"
  log "[$name] configure and build ($cxx, C++$std, $flags)"
  cmake -S "$ROOT" -B "$dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_STANDARD="$std" \
    -DCMAKE_CXX_STANDARD_REQUIRED=ON -DCMAKE_CXX_EXTENSIONS=OFF -DCMAKE_BUILD_TYPE= \
    -DCMAKE_CXX_FLAGS="$flags" "${PYTHON_ARG[@]}" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
  if ! cmake --build "$dir" -j "$JOBS" >"$dir.build.log" 2>&1; then
    grep -E "error|Error" "$dir.build.log" | head -n 40
    echo "build failed: see $dir.build.log"
    return 1
  fi
}

cmd_test() {
  # (The benchmark peers are installed by the main command, which the last step runs.)
  # gdb and LLDB for the debugger printers' tests; pkg-config and dpkg-deb for the package's; Qt and libc++
  # for the relocation trait's; Clang's runtime (libFuzzer) for the fuzz targets; mingw-w64, Wine and
  # GoogleTest's sources for the Windows build; nlohmann/json and Boost.Graph as real clients; doxygen for
  # the API reference's check.
  ensure_packages cmake make g++ clang libgtest-dev libgmock-dev libboost-dev python3 python3-matplotlib \
    git gdb lldb-14 python3-lldb-14 pkg-config qtbase5-dev libc++-14-dev libc++abi-14-dev libclang-rt-14-dev \
    googletest g++-mingw-w64-x86-64-posix wine wine64 nlohmann-json3-dev libboost-graph-dev doxygen
  pick_python
  mkdir -p "$ROOT/build"
  # Every compiler and standard pair compiles every test with -Werror; each standard runs in full with at
  # least one compiler: Clang C++20 under ASan + UBSan and C++23 (hardened, on the portable POSIX path that
  # macOS and the BSDs take), compiling the tests in C++17 front end only; GCC C++17 (on Linux) and C++20
  # (the Windows build, under Wine), compiling them in C++23 front end only. The sequence suite's capacity
  # and allocator variants run with each compiler once (RELO_TEST_VARIANTS). GCC's C++17 configuration
  # tests the package too (install, find_package, FetchContent, pkg-config, .deb).
  # -g1 (line tables: file and line in sanitizer reports) builds faster than -g; the sanitizers at -O0
  # build much faster than at -O1 (docs/testing.md, "Why these flags"; the times: docs/measurements/build.md).
  local sanitize="-fno-omit-frame-pointer -fno-sanitize-recover=all"
  local configs=(
    "clang-asan-ubsan|clang++|20|-O0 -g1 -fsanitize=address,undefined $sanitize|-DRELO_WERROR=ON -DRELO_TEST_PACKAGE=OFF"
    "gcc-cxx17|g++|17|-O0 -DNDEBUG|-DRELO_WERROR=ON -DRELO_SYNTAX_CHECK_STANDARDS=23 -DCMAKE_EXPORT_COMPILE_COMMANDS=ON"
    "clang-cxx23|clang++|23|-O0 -DNDEBUG -DRELO_HARDENED -DRELO_BOUNDED_ITERATORS -DRELO_PORTABLE_POSIX -DRELO_STANDARD_HEADERS|-DRELO_WERROR=ON -DRELO_TEST_PACKAGE=OFF -DRELO_TEST_VARIANTS=OFF -DRELO_SYNTAX_CHECK_STANDARDS=17 -DCMAKE_EXPORT_COMPILE_COMMANDS=ON"
    "gcc-tsan|g++|20|-O1 -g1 -fsanitize=thread|-DRELO_WERROR=ON -DRELO_BUILD_EXAMPLES=OFF -DRELO_THREAD_TESTS_ONLY=ON"
    "mingw-wine|x86_64-w64-mingw32-g++-posix|20|-O1|-DRELO_WERROR=ON -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER=x86_64-w64-mingw32-gcc-posix -DCMAKE_EXE_LINKER_FLAGS=-static -DCMAKE_CROSSCOMPILING_EMULATOR=wine -DRELO_GTEST_SOURCE_DIR=/usr/src/googletest -DRELO_TEST_PACKAGE=OFF -DRELO_BUILD_TESTS=ON -DRELO_TEST_VARIANTS=OFF"
    "clang-fuzz|clang++|20|-O1 -g1 -fsanitize=address,undefined $sanitize|-DRELO_WERROR=ON -DRELO_BUILD_EXAMPLES=OFF -DRELO_TEST_PACKAGE=OFF -DRELO_FUZZ_ONLY=ON -DRELO_FUZZ_SECONDS=5"
  )
  local passed=0 failed=0 cases=0 failed_configs=()
  for c in "${configs[@]}"; do
    IFS='|' read -r name cxx std flags extra <<<"$c"
    local t0=$SECONDS
    if ! configure_and_build "$name" "$cxx" "$std" "$flags" $extra; then
      failed=$((failed + 1)); failed_configs+=("$name (build)"); continue
    fi
    local t1=$SECONDS
    log "[$name] run tests"
    # Wine makes its prefix on first use: once, before tests run side by side (without .NET and a browser).
    # Its server then stays up while the tests run (-p): a program started as the server quits after an
    # idle moment failed at once, without a line of output.
    if [ "$name" = mingw-wine ]; then
      WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" wineboot --init >/dev/null 2>&1 || true
      wineserver -p >/dev/null 2>&1 || true
    fi
    local out="$ROOT/build/$name.ctest.log"
    if (cd "$ROOT/build/$name" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 WINEDEBUG=-all \
        ctest --output-on-failure -j "$JOBS" >"$out" 2>&1); then :; else failed_configs+=("$name"); fi
    if [ "$name" = mingw-wine ]; then wineserver -k >/dev/null 2>&1 || true; fi
    # ctest counts programs (and their shards), not cases: GoogleTest's own count is in each program's
    # output, which ctest keeps whole in LastTest.log.
    local config_cases
    config_cases=$({ grep -h '^\[==========\] [0-9]* tests\? from .* ran' "$ROOT/build/$name/Testing/Temporary/LastTest.log" 2>/dev/null || true; } |
      awk '{s += $2} END {print s + 0}')
    cases=$((cases + config_cases))
    grep -E "tests passed|tests failed|\*\*\*Failed|Timeout|Not Run" "$out" | tail -n 20 || true
    log "[$name] built in $((t1 - t0)) s, tests ran in $((SECONDS - t1)) s ($config_cases GoogleTest cases)"
    local line
    line=$(grep -E "tests passed, [0-9]+ tests failed out of" "$out" | tail -n1 || true)
    if [[ $line =~ ([0-9]+)\ tests\ failed\ out\ of\ ([0-9]+) ]]; then
      failed=$((failed + BASH_REMATCH[1])); passed=$((passed + BASH_REMATCH[2] - BASH_REMATCH[1]))
    else
      failed=$((failed + 1))
    fi
    [[ " ${failed_configs[*]} " == *" $name "* ]] && sed -n '/The following tests FAILED/,$p' "$out"
  done
  # The main command, as a new user runs it: from a clone of the committed tree (no build/ yet), every
  # experiment at a tiny size; its report must have its tables and plots.
  local t0=$SECONDS
  if bench_from_clone; then passed=$((passed + 1)); else failed=$((failed + 1)); failed_configs+=("bench-from-clone"); fi
  log "[bench-from-clone] took $((SECONDS - t0)) s"
  echo
  if [ ${#failed_configs[@]} -ne 0 ]; then echo "failing configurations: ${failed_configs[*]}"; fi
  echo "$passed passed, $failed failed (ctest tests: each test program whole, each script; $cases GoogleTest cases ran in them)"
  [ "$failed" -eq 0 ] && [ ${#failed_configs[@]} -eq 0 ]
}

# The smoke run checks that every benchmark builds, runs and reports, not how fast: its programs are built
# at -O1 (-O3's build takes much longer: docs/measurements/build.md), and the one-unit idioms source not
# again at -O2; everything else is the main command's own.
BENCH_SMOKE_BUILD=("-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DRELO_BENCH_O2_BUILDS=OFF")
bench_from_clone() {
  local dir="$ROOT/build/bench-clone" log_file="$ROOT/build/bench-clone.log"
  log "[bench-from-clone] git clone of the committed tree, then ./relo.sh bench --smoke there"
  rm -rf "$dir"
  local copy=(git clone -q "$ROOT" "$dir")
  # Outside a git work tree (a release archive): the tree without its build output.
  git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
    copy=(bash -c 'mkdir -p "$2" && tar -C "$1" --exclude=./build --exclude=./report -cf - . | tar -C "$2" -xf -' _ "$ROOT" "$dir")
  if ! "${copy[@]}" >"$log_file" 2>&1 ||
     ! (cd "$dir" && ./relo.sh bench --smoke --out "$dir/report" "${BENCH_SMOKE_BUILD[@]}") >>"$log_file" 2>&1; then
    tail -n 40 "$log_file"
    echo "bench-from-clone: the main command failed (see $log_file)"
    return 1
  fi
  local report="$dir/report/report.md"
  if [ ! -s "$report" ] || ! grep -q '^| ' "$report" || ! ls "$dir"/report/*.png >/dev/null 2>&1; then
    echo "bench-from-clone: $report lacks its tables or plots (see $log_file)"
    return 1
  fi
  echo "bench-from-clone: $(grep -c '^| ' "$report") table rows and $(ls "$dir"/report/*.png | wc -l) plots in $report"
}

cmd_bench() {
  ensure_packages cmake make g++ libboost-dev python3 python3-matplotlib util-linux \
    libjemalloc2 libmimalloc2.0 libtcmalloc-minimal4 libbenchmark-dev libabsl-dev llvm-14-dev libboost-container-dev \
    nlohmann-json3-dev libboost-graph-dev linux-perf valgrind
  pick_python
  local dir="$ROOT/build/bench-release"
  mkdir -p "$ROOT/build"
  # -DNAME=VALUE arguments go to CMake (optional peers such as -DRELO_BENCH_UWR=<include dir>);
  # the cache remembers them for later runs. Everything else goes to bench/run.py.
  local cmake_args=() run_args=()
  for a in "$@"; do
    case "$a" in -D*) cmake_args+=("$a") ;; *) run_args+=("$a") ;; esac
  done
  log "configure and build the benchmarks (Release: -O3 -DNDEBUG, -march=native, functions and loops aligned to 64 bytes)"
  cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-march=native" \
    -DCMAKE_CXX_STANDARD=20 -DRELO_BUILD_TESTS=OFF -DRELO_BUILD_EXAMPLES=OFF -DRELO_BUILD_BENCHMARKS=ON \
    "${cmake_args[@]}" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
  if ! cmake --build "$dir" -j "$JOBS" >"$dir.build.log" 2>&1; then
    grep -E "error|Error" "$dir.build.log" | head -n 40
    echo "build failed: see $dir.build.log"
    return 1
  fi
  # (The applications family's instruction counts, beyond the smoke scale: the programs built for valgrind,
  # never an older build's. run.py takes any prefix of --smoke.)
  rm -f "$dir/bench/applications_counted_bench" "$dir/bench/applications_tree_counted_bench"
  case " ${run_args[*]} " in
    *" --s"*) ;;
    *) cmake --build "$dir" -j "$JOBS" --target relo_bench_counted >>"$dir.build.log" 2>&1 ||
         log "no programs for valgrind (see $dir.build.log): the applications family counts no instructions" ;;
  esac
  "$PYTHON" "$ROOT/bench/run.py" --build-dir "$dir" "${run_args[@]}"
}

cmd_docs() {
  ensure_packages doxygen python3
  log "the API reference (doxygen, docs/Doxyfile)"
  rm -rf "$ROOT/build/docs"
  mkdir -p "$ROOT/build"
  doxygen "$ROOT/docs/Doxyfile" 2>"$ROOT/build/docs.log" || { cat "$ROOT/build/docs.log"; return 1; }
  # (What has no contract: tests/api_reference.py, which the test command runs.)
  python3 "$ROOT/tests/api_reference.py" "$ROOT" | tail -n 1
  echo "the reference: build/docs/html/index.html"
}

case "${1:-}" in
  test) shift; cmd_test "$@" ;;
  bench) shift; cmd_bench "$@" ;;
  docs) shift; cmd_docs "$@" ;;
  *) echo "usage: $0 test | docs | bench [--full] [--tuning] [--smoke] [--only PATTERN] [--rounds N] [--out DIR] [--redraw] [-DRELO_BENCH_<PEER>=PATH ...]" >&2; exit 2 ;;
esac
