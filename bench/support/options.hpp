// bench/support/options.hpp — a benchmark program's command line: --key value pairs.
#ifndef RELO_BENCH_SUPPORT_OPTIONS_HPP
#define RELO_BENCH_SUPPORT_OPTIONS_HPP

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace relo_bench {

class options {
public:
    options(int argc, char** argv) {
        for (int i = 1; i < argc; ++i) {
            std::string key = argv[i];
            if (key.rfind("--", 0) != 0) usage_error("unexpected argument " + key);
            key = key.substr(2);
            const auto eq = key.find('=');
            if (eq != std::string::npos) {
                values_[key.substr(0, eq)] = key.substr(eq + 1);
            } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
                values_[key] = argv[++i];
            } else {
                values_[key] = "1";
            }
        }
    }
    std::string get(const std::string& key, const std::string& fallback = "") const {
        auto it = values_.find(key);
        return it == values_.end() ? fallback : it->second;
    }
    long number(const std::string& key, long fallback) const {
        auto it = values_.find(key);
        return it == values_.end() ? fallback : std::atol(it->second.c_str());
    }
    std::string required(const std::string& key) const {
        auto it = values_.find(key);
        if (it == values_.end()) usage_error("missing --" + key);
        return it->second;
    }
    [[noreturn]] static void usage_error(const std::string& what) {
        std::fprintf(stderr, "error: %s\n", what.c_str());
        std::exit(2);
    }

private:
    std::map<std::string, std::string> values_;
};

}  // namespace relo_bench

#endif  // RELO_BENCH_SUPPORT_OPTIONS_HPP
