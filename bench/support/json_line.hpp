// bench/support/json_line.hpp — what a benchmark program prints: one JSON object a line.
#ifndef RELO_BENCH_SUPPORT_JSON_LINE_HPP
#define RELO_BENCH_SUPPORT_JSON_LINE_HPP

#include <cstdio>
#include <string>
#include <vector>

#include "measuring.hpp"

namespace relo_bench {

/// One flat JSON object, printed on one line.
class json_line {
public:
    json_line& add(const std::string& key, const std::string& value) {
        std::string escaped;
        for (char c : value) {
            if (c == '"' || c == '\\') escaped += '\\';
            escaped += c;
        }
        return raw(key, "\"" + escaped + "\"");
    }
    json_line& add(const std::string& key, double value) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.9g", value);
        return raw(key, buf);
    }
    json_line& add(const std::string& key, long value) { return raw(key, std::to_string(value)); }
    /// The page faults since `before` (minor_faults) and the peak resident memory (max_rss_kb).
    json_line& add_process_counters(const process_counters& before) {
        const process_counters after = process_counters::read();
        return add("minor_faults", after.minor_faults - before.minor_faults).add("max_rss_kb", after.max_rss_kb);
    }
    json_line& add_array(const std::string& key, const std::vector<double>& values) {
        std::string s = "[";
        char buf[64];
        for (std::size_t i = 0; i < values.size(); ++i) {
            std::snprintf(buf, sizeof buf, "%s%.6g", i ? "," : "", values[i]);
            s += buf;
        }
        return raw(key, s + "]");
    }
    void print() const { std::printf("{%s}\n", body_.c_str()); }

private:
    json_line& raw(const std::string& key, const std::string& value) {
        if (!body_.empty()) body_ += ", ";
        body_ += "\"" + key + "\": " + value;
        return *this;
    }
    std::string body_;
};

}  // namespace relo_bench

#endif  // RELO_BENCH_SUPPORT_JSON_LINE_HPP
