// bench/support/program.hpp — a benchmark program: its modes, their tables, the `list` every program
// answers, and the one main() (bench/bench_main.cpp) that runs what this_program() describes.
#ifndef RELO_BENCH_SUPPORT_PROGRAM_HPP
#define RELO_BENCH_SUPPORT_PROGRAM_HPP

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "options.hpp"
#include "tables.hpp"

namespace relo_bench {

/// One mode of a program (`vector_bench env ...`): the function that runs it and what it accepts.
struct mode {
    std::string name;
    int (*run)(const options&);
    std::vector<std::string> impls;
    std::vector<std::string> optional_impls;
    std::vector<std::pair<std::string, std::size_t>> types;  // name, sizeof
    std::vector<long> params;                                 // e.g. the capacities a mode is compiled for

    template <class Impls, class Types>
    static mode of(std::string name, int (*run)(const options&), std::vector<long> params = {}) {
        mode m{std::move(name), run, Impls::names(), Impls::names(true), {}, std::move(params)};
        Types::for_each([&](auto t, const char* type_name) {
            m.types.emplace_back(type_name, sizeof(typename decltype(t)::type));
        });
        return m;
    }
};

/// The numbers of an index_sequence, as a mode's params.
template <std::size_t... N>
std::vector<long> params_of(std::index_sequence<N...>) {
    return {static_cast<long>(N)...};
}

class program {
public:
    program(std::string name, std::vector<mode> modes) : name_(std::move(name)), modes_(std::move(modes)) {}

    /// `NAME MODE --key value ...` runs a mode; `NAME list` prints what the program has, as one JSON object:
    /// {"program": ..., "optional": [optional peers built in], "modes": {mode: {"impls": [...], "types":
    /// {name: sizeof}, "params": [...]}}}.
    int main(int argc, char** argv) const {
        const std::string m = argc > 1 ? argv[1] : "";
        if (m == "list") return list(), 0;
        for (const mode& candidate : modes_)
            if (candidate.name == m) return candidate.run(options(argc - 1, argv + 1));
        std::string known = "list";
        for (const mode& candidate : modes_) known += "|" + candidate.name;
        options::usage_error("usage: " + name_ + " " + known + " --key value ...");
    }

private:
    std::string name_;
    std::vector<mode> modes_;

    static std::string quoted(const std::string& s) { return "\"" + s + "\""; }
    static std::string array(const std::vector<std::string>& items) {
        std::string out = "[";
        for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + quoted(items[i]);
        return out + "]";
    }

    void list() const {
        std::vector<std::string> optional;
        std::string modes;
        for (const mode& m : modes_) {
            for (const auto& peer : m.optional_impls)
                if (std::find(optional.begin(), optional.end(), peer) == optional.end()) optional.push_back(peer);
            std::string types, params;
            for (const auto& [type, size] : m.types)
                types += (types.empty() ? "" : ", ") + quoted(type) + ": " + std::to_string(size);
            for (long p : m.params) params += (params.empty() ? "" : ", ") + std::to_string(p);
            modes += (modes.empty() ? "" : ", ") + quoted(m.name) + ": {\"impls\": " + array(m.impls) +
                     ", \"types\": {" + types + "}, \"params\": [" + params + "]}";
        }
        std::printf("{\"program\": %s, \"optional\": %s, \"modes\": {%s}}\n", quoted(name_).c_str(),
                    array(optional).c_str(), modes.c_str());
    }
};

/// What the program is: its name and modes. Each benchmark program defines it; bench/bench_main.cpp's main()
/// runs the mode its command line names.
program this_program();

}  // namespace relo_bench

#endif  // RELO_BENCH_SUPPORT_PROGRAM_HPP
