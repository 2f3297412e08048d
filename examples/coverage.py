#!/usr/bin/env python3
"""Every public name a user would call is used by an example (ctest example_coverage).

    coverage.py [ROOT] [--list]

A public name is one tests/api_reference.py calls public: declared in a public header (include/relo/*.hpp)
outside relo::detail, or a public member of detail::sequence_ops (the operations the four vectors share).
This check reads them from the headers themselves:
- in namespace relo (and relo::pmr): classes, class templates, aliases, enumerations, functions and
  variables, and the macros the public headers define (but their include guards and RELO_DETAIL_ ones);
- the public members of those classes, and of detail::sequence_ops: member functions (static or not),
  data members, and enumerators.
Left out as a kind: constructors, destructors and operators (a class's name, or a symbol, is what uses
them), template specializations (the trait's entries for the standard's types), member types (typedefs
and nested classes a user names in declarations, not calls: value_type, iterator, marker...; their own
members are still counted), using-declarations (vector's `using base::push_back;`: the member is counted
where it is declared), and the names in EXCLUDED below, each with its reason.

An example uses a name when the name appears in it as an identifier (its comments and strings left out):
a check that each name is shown somewhere, not which class's member a call reaches (`size` is any
container's). The check fails, listing them, when a public name is used by no example, and when an
exclusion names nothing the headers declare (an exclusion outlives what it excused).
"""
import os
import re
import sys

# Public names no example needs to use, each with why a user does not call it.
EXCLUDED = {
    "container_category": "Boost.Graph asks it of relo::vector by argument-dependent lookup (relo/boost_graph.hpp)",
    "iterator_stability": "Boost.Graph asks it of relo::vector by argument-dependent lookup (relo/boost_graph.hpp)",
    "max_capacity_t": "the type of the tag relo::max_capacity, which is what users pass",
    "select_on_container_copy_construction": "containers call it (std::allocator_traits) when they are copied",
    "trim_idle_warm_memory": "deprecated (relo/warm_memory.hpp): a thread gives its own caches back, with "
    "trim_warm_memory(), which examples/warm_memory.cpp shows",
    "idle_warm_memory_can_be_trimmed": "deprecated (relo/warm_memory.hpp): always false",
}

COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
MACRO = re.compile(r"#\s*define\s+(RELO_\w+)")
ACCESS = re.compile(r"(public|private|protected)\s*:(?!:)\s*")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# Words before a function's name that are not its name: attributes and relo's specifier macros.
NOT_A_NAME = {"decltype", "noexcept", "alignas", "requires", "sizeof", "alignof", "static_assert"}


def without_comments(text):
    """The text with comments blanked and string and character literals emptied."""
    return COMMENT_OR_STRING.sub(lambda m: '""' if m.group(0).startswith('"') else " ", text)


def strip_template_head(h):
    """The declaration without its leading `template <...>` clauses."""
    h = h.strip()
    while h.startswith("template"):
        start = h.find("<")
        if start < 0:
            return h
        depth, k = 0, start
        while k < len(h):
            if h[k] in "<(":
                depth += 1
            elif h[k] in ">)":
                depth -= 1
            if depth == 0:
                break
            k += 1
        h = h[k + 1:].strip()
    return h


def function_name(h):
    """The name before the declaration's parameter list (outside template arguments), or None."""
    depth = 0
    for k, c in enumerate(h):
        if c == "<":
            depth += 1
        elif c == ">":
            depth = max(0, depth - 1)
        elif c == "(" and depth == 0:
            before = h[:k].rstrip()
            m = re.search(r"(operator\s*\S+|~?\w+)$", before)
            if not m:
                return None
            name = m.group(1)
            if name.startswith("RELO_"):  # a specifier macro (RELO_CONSTEXPR20, RELO_NOINLINE...): read on
                depth = 0
                continue
            if name in NOT_A_NAME or ("=" in before and "operator" not in before):
                return None
            return name
    return None


class Parser:
    """Walks a header's declarations, statement by statement, with a stack of the scopes it is in."""

    def __init__(self, path, names, members):
        self.path, self.names, self.members = path, names, members

    def run(self):
        text = open(self.path, encoding="utf-8").read()
        text = without_comments(text).replace("\\\n", " ")
        text = re.sub(r"\[\[[^\]]*\]\]", " ", text)  # (attributes: [[deprecated("...")]] is no function)
        lines = []
        for line in text.split("\n"):
            if line.lstrip().startswith("#"):
                m = MACRO.search(line)
                if m and not m.group(1).endswith("_HPP") and not m.group(1).startswith("RELO_DETAIL_"):
                    self.names.setdefault(m.group(1), ("macro", self.path))
                lines.append("")
            else:
                lines.append(line)
        text = re.sub(r"\bRELO_ABI_NAMESPACE_(BEGIN|END)\b", " ", "\n".join(lines))
        # Each scope: [kind, name, access]; kinds ns, class, enum, init (a braced initializer, part of the
        # statement around it), other (a function body: not read).
        self.stack = [["ns", "", None]]
        head = ""
        for token in re.finditer(r"[{};]|[^{};]+", text):
            t = token.group(0)
            top = self.stack[-1]
            if t not in "{};":
                head += t
                continue
            if top[0] == "other":
                if t == "{":
                    self.stack.append(["other", "", None])
                elif t == "}":
                    self.stack.pop()
                head = ""
                continue
            if top[0] == "enum":
                if t == "}":
                    for enumerator in head.split(","):
                        m = IDENTIFIER.match(enumerator.strip())
                        if m and self.public_scope(self.stack[:-1]) and top[1]:
                            owner = [s[1] for s in self.stack[:-1] if s[0] == "class"] + [top[1]]
                            self.member("::".join(owner), m.group(0), "enumerator")
                    self.stack.pop()
                head = ""
                continue
            if t == "}" and top[0] == "init":
                self.stack.pop()
                head = top[1] + " {} " + head
                continue
            if top[0] == "class":
                while True:
                    m = ACCESS.match(head.strip())
                    if not m:
                        break
                    top[2] = m.group(1)
                    head = head.strip()[m.end():]
            h = " ".join(head.split())
            if t == "}":
                self.stack.pop()
                head = ""
                continue
            kind, name = self.classify(h)
            if t == "{":
                if kind == "ns":
                    self.stack.append(["ns", name, None])
                elif kind == "class":
                    self.record(h, kind, name)
                    self.stack.append(["class", name, "public" if re.search(r"\b(struct|union)\b", h) else "private"])
                elif kind == "enum":
                    self.record(h, kind, name)
                    self.stack.append(["enum", name, None])
                elif kind == "decl" and (h.count("(") > h.count(")") or "(" not in strip_template_head(h)):
                    self.stack.append(["init", h, None])  # a braced initializer: the statement goes on
                else:
                    self.record(h, kind, name)
                    self.stack.append(["other", "", None])
                head = ""
                continue
            self.record(h, kind, name)
            head = ""

    @staticmethod
    def classify(h):
        m = re.match(r"^(?:inline\s+)?namespace\s*(\w*)", h)
        if m:
            return "ns", m.group(1)
        body = strip_template_head(h)
        if re.match(r"^extern\b", body):
            return "ns", ""
        m = re.match(r"^(?:\[\[[^\]]*\]\]\s*)?(class|struct|union)\s+(?:alignas\([^)]*\)\s*)?(\w+)\s*(<)?", body)
        if m and "(" not in body[: m.start(2)]:
            return ("spec" if m.group(3) else "class"), m.group(2)
        m = re.match(r"^enum\s+(?:class\s+|struct\s+)?(\w*)", body)
        if m:
            return "enum", m.group(1)
        return "decl", ""

    def public_scope(self, stack):
        """Whether declarations in this scope are public names (or public members of a public class)."""
        namespaces = [s[1] for s in stack if s[0] == "ns" and s[1]]
        if any(s[0] not in ("ns", "class") for s in stack) or namespaces[:1] != ["relo"]:
            return False
        classes = [s for s in stack if s[0] == "class"]
        if "detail" in namespaces:
            return bool(classes) and classes[0][1] == "sequence_ops" and all(c[2] == "public" for c in classes)
        return all(c[2] == "public" for c in classes)

    def member(self, owner, name, kind):
        self.members.setdefault((owner, name), (kind, self.path))

    def record(self, h, kind, name):
        body = strip_template_head(h)
        if not body or kind == "spec" or not self.public_scope(self.stack):
            return
        classes = [s[1] for s in self.stack if s[0] == "class"]
        if not classes:  # a namespace-scope name
            if kind in ("class", "enum"):
                if name:
                    self.names.setdefault(name, (kind, self.path))
                return
            m = re.match(r"^using\s+(\w+)\s*=", body)
            if m:
                self.names.setdefault(m.group(1), ("alias", self.path))
                return
            if re.match(r"^(using|static_assert|friend)\b", body):
                return
            fn = function_name(body)
            if fn:
                if not fn.startswith("operator"):
                    self.names.setdefault(fn, ("function", self.path))
                return
            m = re.match(r"^.*?\b(\w+)\s*(?:=.*|\{\}.*)?$", body)
            if m and re.search(r"\b(inline|constexpr)\b", body):
                self.names.setdefault(m.group(1), ("variable", self.path))
            return
        owner = "::".join(classes)
        if kind in ("class", "enum") or re.match(r"^(static_assert|using)\b", body):
            # a member type, or a using-declaration (vector's `using base::push_back;`: the base's
            # member, counted where it is declared)
            return
        fn = function_name(body)
        if fn:
            if not (fn.startswith("operator") or fn.lstrip("~") == classes[-1]):
                self.member(owner, fn, "function")
            return
        m = re.match(r"^.*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?(?:=.*|\{\}.*)?$", body)
        if m and not re.match(r"^friend\b", body):
            self.member(owner, m.group(1), "data")


def public_names(root):
    """{name: (kind, header)} and {(class, member): (kind, header)} of the public headers."""
    names, members = {}, {}
    include = os.path.join(root, "include", "relo")
    paths = [os.path.join(include, f) for f in sorted(os.listdir(include)) if f.endswith(".hpp")]
    # (detail/allocation.hpp declares relo::allocation_result, which the public allocate_at_least returns.)
    for path in paths + [os.path.join(include, "detail", "sequence.hpp"), os.path.join(include, "detail", "allocation.hpp")]:
        Parser(path, names, members).run()
    names = {n: (k, os.path.relpath(h, root).replace(os.sep, "/")) for n, (k, h) in names.items()}
    members = {m: (k, os.path.relpath(h, root).replace(os.sep, "/")) for m, (k, h) in members.items()}
    return names, members


def used_identifiers(root):
    """Every identifier of examples/*.cpp, outside comments and strings."""
    folder = os.path.join(root, "examples")
    words = set()
    for f in sorted(os.listdir(folder)):
        if f.endswith(".cpp"):
            with open(os.path.join(folder, f), encoding="utf-8") as source:
                words.update(IDENTIFIER.findall(without_comments(source.read())))
    return words


def main(root, listing=False):
    names, members = public_names(root)
    if listing:  # (--list: every public name found, to review what the parser reads)
        for name, (kind, header) in sorted(names.items(), key=lambda x: (x[1][1], x[0])):
            print(f"{header}: {name} ({kind})")
        for (owner, name), (kind, header) in sorted(members.items(), key=lambda x: (x[1][1], x[0])):
            print(f"{header}: {owner}::{name} ({kind})")
        return 0
    used = used_identifiers(root)
    declared = set(names) | {m for (_, m) in members} | {f"{c}::{m}" for (c, m) in members}
    stale = sorted(e for e in EXCLUDED if e not in declared)
    missing = []
    for name, (kind, header) in names.items():
        if name not in used and name not in EXCLUDED:
            missing.append((header, name, kind))
    for (owner, name), (kind, header) in members.items():
        if name not in used and name not in EXCLUDED and f"{owner}::{name}" not in EXCLUDED:
            missing.append((header, f"{owner}::{name}", kind))
    for header, name, kind in sorted(missing):
        print(f"{header}: {name} ({kind}) is used by no example")
    for e in stale:
        print(f"examples/coverage.py: the exclusion {e} names nothing the public headers declare")
    excluded = sum(1 for n in names if n in EXCLUDED) + sum(
        1 for (o, m) in members if m in EXCLUDED or f"{o}::{m}" in EXCLUDED)
    total = len(names) + len(members) - excluded
    print(f"example_coverage: {total - len(missing)} of {total} public names used by the examples, "
          f"{len(missing)} missing ({excluded} excluded: coverage.py says why)")
    return 1 if missing or stale else 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--list"]
    sys.exit(main(args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "--list" in sys.argv))
