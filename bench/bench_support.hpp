// bench/bench_support.hpp — what every benchmark program of relo shares, one header a concern, in
// bench/support/: the element types, clocks and process counters, the command line, the JSON output, the
// name → type tables, a long-lived process's heap history, the implementation protocol and the program
// (its modes and its `list`).
#ifndef RELO_BENCH_SUPPORT_HPP
#define RELO_BENCH_SUPPORT_HPP

#include "support/element_types.hpp"
#include "support/heap_history.hpp"
#include "support/implementations.hpp"
#include "support/json_line.hpp"
#include "support/measuring.hpp"
#include "support/options.hpp"
#include "support/program.hpp"
#include "support/tables.hpp"

#endif  // RELO_BENCH_SUPPORT_HPP
