// bench/applications_documents.cpp — applications_bench's programs over documents and text:
//   json    nlohmann/json: parse a generated document (about 180 bytes a record), walk it (sum its numbers,
//           measure its strings), dump it, destroy it; the kit swaps basic_json's array type (and, on a
//           resource, its allocator)
//   sparse  a sparse matrix built row by row as a vector of rows of (column, value) pairs, as users write
//           one, then 20 products with a dense vector
//   index   an inverted index: every word of a generated text (a vocabulary of 50,000 words, Zipf-like) to
//           the positions where it occurs, unordered_map<string, vector<int>>; then the positions of 1,000
//           words of the vocabulary summed
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <boost/container/vector.hpp>
#include <nlohmann/json.hpp>

#include "applications.hpp"

namespace relo_bench::applications {
namespace {

/// The allocator `To` drawing from where `from` does (a default one when `To` is stateless and has no
/// conversion: boost::container's allocator from std::allocator).
template <class To, class From>
To allocator_for(const From& from) {
    if constexpr (std::is_constructible_v<To, const From&>) {
        return To(from);
    } else {
        return To();
    }
}

// ---- json

std::string generated_document(long records) {
    std::string text = "{\"generator\": \"relo applications_bench\", \"records\": [";
    xorshift rng;
    for (long i = 0; i < records; ++i) {
        if (i != 0) text += ",";
        const std::uint64_t r = rng.next();
        text += "{\"id\":" + std::to_string(i) + ",\"name\":\"record " + std::to_string(r % 100000) +
                "\",\"score\":" + std::to_string(static_cast<double>(r % 10000) / 16.0) + ",\"tags\":[\"t" +
                std::to_string(r % 13) + "\",\"u" + std::to_string(r % 7) + "\"],\"point\":[" +
                std::to_string(r % 1000) + "," + std::to_string((r >> 10) % 1000) + "," + std::to_string((r >> 20) % 1000) +
                "],\"meta\":{\"ok\":" + ((r & 1) ? "true" : "false") + ",\"parent\":" +
                (i > 0 ? std::to_string(static_cast<long>(r % static_cast<std::uint64_t>(i))) : std::string("null")) + "}}";
    }
    return text + "]}";
}

template <class Json>
void walk(const Json& j, double& numbers, std::uint64_t& string_bytes) {
    if (j.is_number()) {
        numbers += j.template get<double>();
    } else if (j.is_string()) {
        string_bytes += j.template get_ref<const typename Json::string_t&>().size();
    } else if (j.is_structured()) {
        for (const auto& element : j) walk(element, numbers, string_bytes);
    }
}

template <class Json>
std::uint64_t json_once(const std::string& text) {
    Json document = Json::parse(text);
    double numbers = 0;
    std::uint64_t string_bytes = 0;
    walk(document, numbers, string_bytes);
    const std::string dumped = document.dump();
    return dumped.size() + string_bytes + static_cast<std::uint64_t>(numbers);
}

template <template <class...> class Array, template <class> class Allocator = std::allocator>
using json_with = nlohmann::basic_json<std::map, Array, std::string, bool, std::int64_t, std::uint64_t, double, Allocator>;

template <class T, class A = relo::default_allocator<T>>
using relo_array = relo::vector<T, A>;
template <class T, class A = std::allocator<T>>
using boost_array = boost::container::vector<T, A>;

// ---- sparse

template <class Rows>
std::uint64_t sparse_once(long rows_count, const typename Rows::allocator_type& allocator) {
    using Row = typename Rows::value_type;
    using Entry = typename Row::value_type;
    Rows rows(allocator);
    xorshift rng;
    const int columns = static_cast<int>(rows_count);
    for (long r = 0; r < rows_count; ++r) {
        Row row{typename Row::allocator_type(allocator)};
        const int entries = 4 + static_cast<int>(rng.next() % 29);
        for (int e = 0; e < entries; ++e)
            row.push_back(Entry{static_cast<int>(rng.next() % static_cast<std::uint64_t>(columns)),
                                static_cast<double>(rng.next() % 1000) / 1000.0});
        rows.push_back(std::move(row));
    }
    std::vector<double> x(static_cast<std::size_t>(columns), 1.0), y(static_cast<std::size_t>(rows_count));
    for (int product = 0; product < 20; ++product) {
        for (std::size_t r = 0; r < rows.size(); ++r) {
            double sum = 0;
            for (const Entry& e : rows[r]) sum += e.second * x[static_cast<std::size_t>(e.first)];
            y[r] = sum;
        }
        for (std::size_t c = 0; c < x.size(); ++c) x[c] = 0.5 * x[c] + 0.5 * (c < y.size() ? y[c] : 0.0);
    }
    double total = 0;
    for (double v : x) total += v;
    return static_cast<std::uint64_t>(std::fabs(total) * 1000.0) + rows.size();
}

// ---- index

/// The text: word numbers drawn Zipf-like from the vocabulary (a few words very often, most rarely).
std::vector<std::string> vocabulary() {
    std::vector<std::string> words;
    for (int w = 0; w < 50000; ++w) words.push_back("w" + std::to_string(w * 7919 % 100003));
    return words;
}
std::vector<std::uint32_t> generated_text(long words) {
    std::vector<std::uint32_t> text(static_cast<std::size_t>(words));
    xorshift rng;
    for (auto& w : text) {
        const double u = static_cast<double>(rng.next() % 1000000 + 1) / 1000001.0;
        w = static_cast<std::uint32_t>(std::pow(50000.0, u)) - 1;  // log-uniform: Zipf-like
    }
    return text;
}

template <class Index>
std::uint64_t index_once(const std::vector<std::string>& words, const std::vector<std::uint32_t>& text,
                         const typename Index::allocator_type& allocator) {
    Index index(allocator);
    const auto positions_allocator = allocator_for<typename Index::mapped_type::allocator_type>(allocator);
    for (std::size_t i = 0; i < text.size(); ++i)
        index.try_emplace(words[text[i]], positions_allocator).first->second.push_back(static_cast<int>(i));
    std::uint64_t sum = index.size();
    for (std::size_t q = 0; q < 1000; ++q) {
        const auto found = index.find(words[q * 37 % words.size()]);
        if (found == index.end()) continue;
        for (int position : found->second) sum += static_cast<std::uint64_t>(position);
    }
    return sum;
}

template <class Vector, class Allocator = std::allocator<std::pair<const std::string, Vector>>>
using index_of = std::unordered_map<std::string, Vector, std::hash<std::string>, std::equal_to<std::string>, Allocator>;
template <class Resource>
using index_on = index_of<relo::vector<int, on<int, Resource>>,
                          on<std::pair<const std::string, relo::vector<int, on<int, Resource>>>, Resource>>;

}  // namespace

bool run_json(const std::string& config, long scale, long reps, json_line& out, run_result& r) {
    const std::string text = generated_document(sized(20000, scale));
    out.add("document_bytes", static_cast<long>(text.size()));
    return run_configuration(
        config, reps, out, r, [&] { return json_once<nlohmann::json>(text); },
        [&] { return json_once<json_with<relo_array>>(text); }, [&] { return json_once<json_with<boost_array>>(text); },
        in_scope([&] { return json_once<json_with<relo_array, relo::current_resource_allocator>>(text); }));
}

bool run_sparse(const std::string& config, long scale, long reps, json_line& out, run_result& r) {
    using entry = std::pair<int, double>;
    const long rows = sized(20000, scale);
    out.add("rows", rows);
    return run_configuration(
        config, reps, out, r, [&] { return sparse_once<std::vector<std::vector<entry>>>(rows, {}); },
        [&] { return sparse_once<relo::vector<relo::vector<entry>>>(rows, {}); },
        [&] { return sparse_once<boost::container::vector<boost::container::vector<entry>>>(rows, {}); },
        [&](auto& resource) {
            using Resource = resource_of<decltype(resource)>;
            using row = relo::vector<entry, on<entry, Resource>>;
            return sparse_once<relo::vector<row, on<row, Resource>>>(rows, &resource);
        });
}

bool run_index(const std::string& config, long scale, long reps, json_line& out, run_result& r) {
    const std::vector<std::string> words = vocabulary();
    const std::vector<std::uint32_t> text = generated_text(sized(1000000, scale));
    out.add("words", static_cast<long>(text.size()));
    return run_configuration(
        config, reps, out, r, [&] { return index_once<index_of<std::vector<int>>>(words, text, {}); },
        [&] { return index_once<index_of<relo::vector<int>>>(words, text, {}); },
        [&] { return index_once<index_of<boost::container::vector<int>>>(words, text, {}); },
        [&](auto& resource) { return index_once<index_on<resource_of<decltype(resource)>>>(words, text, &resource); });
}

}  // namespace relo_bench::applications
