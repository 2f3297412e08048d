// bench/support/heap_history.hpp — the long-lived process: a heap with a history before anything is
// measured, and the implementations of a cell run one after another in that one process.
//
// A fresh process per case isolates a measurement, but no user's program is in that state. In a long-lived
// one glibc has raised its mmap threshold (after any free of a block of 128 KiB - 32 MiB it keeps blocks up
// to that size in its heap, for the rest of the process), other containers are alive and growing, and
// memory freed earlier is warm. heap_history builds that state once; between two measurements it
// allocates a little more, as other code would.
#ifndef RELO_BENCH_SUPPORT_HEAP_HISTORY_HPP
#define RELO_BENCH_SUPPORT_HEAP_HISTORY_HPP

#include <cstddef>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#if defined(__linux__)
#include <unistd.h>
#endif

#include "json_line.hpp"
#include "measuring.hpp"
#include "options.hpp"

namespace relo_bench {

class heap_history {
public:
    heap_history() {
        {
            std::vector<char> large(std::size_t{24} << 20, 1);  // freed: glibc's mmap threshold becomes 24 MiB
            keep(large.data());
        }
        for (int i = 0; i < 20000; ++i) strings_.emplace_back(40 + i % 64, 'x');
        for (int i = 0; i < 2000; ++i) tables_[i].resize(static_cast<std::size_t>(i % 512));
    }
    /// Other code's allocations between two measurements: a few strings and tables more, some freed.
    void between() {
        for (int i = 0; i < 1000; ++i) strings_.emplace_back(24 + i % 96, 'y');
        const int first = next_table_;
        for (int i = 0; i < 200; ++i) tables_[next_table_++].resize(static_cast<std::size_t>(i * 37 % 4096));
        tables_.erase(tables_.begin(), tables_.lower_bound(first - 1000));
    }

private:
    std::vector<std::string> strings_;
    std::map<int, std::vector<int>> tables_;
    int next_table_ = 2000;
};

/// Keeps the heap's top where it is: a page of the system break, taken right after a measurement's pushes
/// and never given back, sits above the heap's blocks, so glibc cannot trim what the vectors free when they
/// die, and the next measurement finds them warm (as a program whose later allocations sit above its
/// vectors does; small blocks allocated then come from free chunks lower down and pin nothing). Nothing
/// where the system has no break.
inline void pin_heap_top() {
#if defined(__linux__)
    (void)::sbrk(4096);
#endif
}

/// "a,b,c" -> {"a", "b", "c"}: the implementations a long-lived case runs, in that order.
inline std::vector<std::string> split_names(const std::string& list) {
    std::vector<std::string> names;
    std::stringstream in(list);
    for (std::string name; std::getline(in, name, ',');)
        if (!name.empty()) names.push_back(name);
    return names;
}

/// A mode's case, fresh or long-lived. With --impl I: measure(I, line) once, in this fresh process. With
/// --impls I1,I2,... instead: after a heap history, every implementation in turn, --passes times (default
/// 2), other allocations between any two; the last pass prints a line per implementation, marked
/// "long_lived". measure(name, line, long_lived) runs one implementation and adds its fields to the line;
/// it returns false for a name it does not know.
template <class Measure>
int run_case(const options& opt, Measure&& measure) {
    const std::string list = opt.get("impls");
    const bool long_lived = !list.empty();
    const std::vector<std::string> impls = long_lived ? split_names(list) : std::vector<std::string>{opt.required("impl")};
    std::vector<json_line> lines(impls.size());
    {
        std::optional<heap_history> history;
        if (long_lived) history.emplace();
        const long passes = long_lived ? opt.number("passes", 2) : 1;
        for (long pass = 0; pass < passes; ++pass) {
            for (std::size_t i = 0; i < impls.size(); ++i) {
                if (history) history->between();
                json_line out;
                out.add("impl", impls[i]);
                if (!measure(impls[i], out, long_lived)) options::usage_error("unknown implementation " + impls[i]);
                if (long_lived) out.add("long_lived", 1L);
                lines[i] = out;
            }
        }
    }
    for (const json_line& line : lines) line.print();
    return 0;
}

}  // namespace relo_bench

#endif  // RELO_BENCH_SUPPORT_HEAP_HISTORY_HPP
