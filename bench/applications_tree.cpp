// bench/applications_tree.cpp — applications_bench's syntax tree: a generated program of nested
// expressions (S-expressions: numbers, and operations of 1–4 operands, a few of 5–8) parsed by recursive
// descent into a tree whose nodes sit in one table, each keeping its operands' indices in a small vector of
// 4 inline (as compilers keep operand lists: LLVM's SmallVector), then evaluated twice and destroyed. The
// kit swaps the operand lists (std::vector; relo::small_vector, boost::container::small_vector,
// absl::InlinedVector, llvm::SmallVector) and, for relo and boost, the node table too (the others keep
// std::vector's, as their users do).
#include <cstdint>
#include <string>
#include <vector>

#include <boost/container/vector.hpp>

#include "applications.hpp"
#include "small_peers.hpp"

namespace relo_bench::applications {
namespace {

constexpr std::size_t inline_operands = 4;

/// One expression: a number, or an operation (add, mul, max, min) over at least one operand, emitted
/// depth first; `budget` counts the nodes left to emit.
void emit(std::string& out, xorshift& rng, int depth, long& budget) {
    --budget;
    const std::uint64_t r = rng.next();
    if (depth >= 7 || budget <= 0 || r % 4 == 0) {
        out += std::to_string(r % 1000);
        return;
    }
    static const char* const operations[] = {"add", "mul", "max", "min"};
    int operands = 1 + static_cast<int>((r >> 8) % 4);
    if ((r >> 16) % 16 == 0) operands += 4;  // a call with 5–8 operands: beyond the inline ones
    out += '(';
    out += operations[(r >> 24) % 4];
    for (int i = 0; i < operands; ++i) {
        out += ' ';
        emit(out, rng, depth + 1, budget);
    }
    out += ')';
}

std::string generated_program(long nodes) {
    std::string text;
    xorshift rng;
    long budget = nodes;
    while (budget > 0) {
        emit(text, rng, 0, budget);
        text += '\n';
    }
    return text;
}

template <class Operands>
struct tree_node {
    std::uint32_t operation;  // 0: a number; 1–4: add, mul, max, min
    std::int64_t value;
    Operands operands;        // indices of the operands' nodes in the table
};

/// Recursive descent over the text; each node is appended after its operands. `new_operands()` makes an
/// empty operand list (on the kit's allocator).
template <class Table, class NewOperands>
struct parser {
    const char* p;
    Table& nodes;
    NewOperands& new_operands;

    void skip_spaces() {
        while (*p == ' ' || *p == '\n') ++p;
    }
    std::uint32_t parse() {
        skip_spaces();
        auto operands = new_operands();
        std::uint32_t operation = 0;
        std::int64_t value = 0;
        if (*p == '(') {
            operation = p[1] == 'a' ? 1 : p[1] == 'm' && p[2] == 'u' ? 2 : p[2] == 'a' ? 3 : 4;
            p += 4;
            for (skip_spaces(); *p != ')'; skip_spaces()) operands.push_back(parse());
            ++p;
        } else {
            for (; *p >= '0' && *p <= '9'; ++p) value = value * 10 + (*p - '0');
        }
        nodes.push_back(typename Table::value_type{operation, value, std::move(operands)});
        return static_cast<std::uint32_t>(nodes.size() - 1);
    }
};

template <class Table>
std::int64_t evaluate(const Table& nodes, std::uint32_t at) {
    const auto& node = nodes[at];
    if (node.operation == 0) return node.value;
    std::int64_t result = evaluate(nodes, node.operands[0]);
    for (std::size_t i = 1; i < node.operands.size(); ++i) {
        const std::int64_t operand = evaluate(nodes, node.operands[i]);
        switch (node.operation) {
            case 1: result = (result + operand) % 1000003; break;
            case 2: result = (result * operand) % 1000003; break;
            case 3: result = result < operand ? operand : result; break;
            default: result = operand < result ? operand : result; break;
        }
    }
    return result;
}

/// Parses the text into a table made by `new_table()`, evaluates every top-level expression twice.
template <class NewTable, class NewOperands>
std::uint64_t tree_once(const std::string& text, NewTable&& new_table, NewOperands&& new_operands) {
    auto nodes = new_table();
    parser<decltype(nodes), NewOperands> parse{text.c_str(), nodes, new_operands};
    std::vector<std::uint32_t> roots;
    for (parse.skip_spaces(); *parse.p != '\0'; parse.skip_spaces()) roots.push_back(parse.parse());
    std::uint64_t sum = nodes.size();
    for (int pass = 0; pass < 2; ++pass)
        for (std::uint32_t root : roots) sum += static_cast<std::uint64_t>(evaluate(nodes, root));
    return sum;
}

/// A kit of the plain configurations: the operand list Small::type<uint32_t, 4>, the node table Table.
template <class Small, template <class...> class Table>
std::uint64_t tree_with(const std::string& text) {
    using operands = typename Small::template type<std::uint32_t, inline_operands>;
    return tree_once(text, [] { return Table<tree_node<operands>>(); }, [] { return operands(); });
}

}  // namespace

std::vector<std::string> tree_configurations() {
    std::vector<std::string> out = configurations();
#if defined(RELO_BENCH_HAVE_ABSL)
    out.push_back("absl");
#endif
#if defined(RELO_BENCH_HAVE_LLVM)
    out.push_back("llvm");
#endif
    return out;
}

bool run_tree(const std::string& config, long scale, long reps, json_line& out, run_result& r) {
    const std::string text = generated_program(sized(1000000, scale));
    out.add("program_bytes", static_cast<long>(text.size()));
#if defined(RELO_BENCH_HAVE_ABSL)
    if (config == "absl") {
        r = run_plain(reps, [&] { return tree_with<absl_inlined_vector, std::vector>(text); });
        return true;
    }
#endif
#if defined(RELO_BENCH_HAVE_LLVM)
    if (config == "llvm") {
        r = run_plain(reps, [&] { return tree_with<llvm_small_vector, std::vector>(text); });
        return true;
    }
#endif
    return run_configuration(
        config, reps, out, r, [&] { return tree_with<std_vector_small, std::vector>(text); },
        [&] { return tree_with<relo_small_vector, relo::vector>(text); },
        [&] { return tree_with<boost_small_vector, boost::container::vector>(text); },
        [&](auto& resource) {
            using Resource = resource_of<decltype(resource)>;
            using operands = relo::small_vector<std::uint32_t, inline_operands, on<std::uint32_t, Resource>>;
            using node = tree_node<operands>;
            return tree_once(
                text, [&] { return relo::vector<node, on<node, Resource>>(&resource); },
                [&] { return operands(on<std::uint32_t, Resource>(&resource)); });
        });
}

}  // namespace relo_bench::applications
