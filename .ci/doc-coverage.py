#!/usr/bin/env python3
"""Documentation coverage of a Swift symbol graph.

Usage: doc-coverage.py SYMBOL_GRAPH_DIR [REPO_ROOT]

Reads every *.symbols.json in SYMBOL_GRAPH_DIR (as written by
swift-symbolgraph-extract) and fails, listing each offender with its source
file and line, for every public symbol that has no doc comment of its own.

Not counted, because their documentation comes from elsewhere:
- compiler-synthesized members (no source location: `init(rawValue:)`,
  Codable's `init(from:)`/`encode(to:)`, Hashable's `hash(into:)`, ...) and
  members a type gets from a protocol extension (identifiers marked
  `::SYNTHESIZED::`: `!=`, Sequence's methods, a protocol's default
  implementations);
- members whose doc comment is inherited: the graph gives them the doc
  comment of the requirement they implement (its `uri` is not the member's
  file);
- default implementations and overrides (`defaultImplementationOf`,
  `overrides` relationships), and members that implement a requirement of a
  protocol their type conforms to (same name and kind as a `requirementOf`
  member of that protocol or of a protocol it refines). If the requirement
  itself is undocumented, it is reported.
"""
import glob
import json
import os
import sys
from collections import defaultdict


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 64
    graph_dir = sys.argv[1]
    root = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.getcwd())

    symbols, relationships = {}, []
    files = sorted(glob.glob(os.path.join(graph_dir, "*.symbols.json")))
    if not files:
        print(f"documentation: no symbol graph in {graph_dir}", file=sys.stderr)
        return 1
    for path in files:
        with open(path, encoding="utf-8") as handle:
            graph = json.load(handle)
        for symbol in graph["symbols"]:
            symbols[symbol["identifier"]["precise"]] = symbol
        relationships += graph["relationships"]

    member_of = {}                       # member -> its type
    conforms = defaultdict(set)          # type or protocol -> protocols
    requirements = defaultdict(set)      # protocol -> {(name, kind)}
    implements = set()                   # defaultImplementationOf / overrides sources
    for rel in relationships:
        kind, source, target = rel["kind"], rel["source"], rel["target"]
        if kind == "memberOf":
            member_of[source] = target
        elif kind in ("conformsTo", "inheritsFrom"):
            conforms[source].add(target)
        elif kind in ("requirementOf", "optionalRequirementOf") and source in symbols:
            sym = symbols[source]
            requirements[target].add((sym["pathComponents"][-1], sym["kind"]["identifier"]))
        elif kind in ("defaultImplementationOf", "overrides"):
            implements.add(source)

    def protocols_of(type_id):
        seen, stack = set(), [type_id]
        while stack:
            for proto in conforms.get(stack.pop(), ()):
                if proto not in seen:
                    seen.add(proto)
                    stack.append(proto)
        return seen

    def implements_requirement(precise, symbol):
        owner = member_of.get(precise)
        if owner is None:
            return False
        key = (symbol["pathComponents"][-1], symbol["kind"]["identifier"])
        return any(key in requirements.get(proto, ()) for proto in protocols_of(owner))

    def has_own_docs(symbol):
        doc = symbol.get("docComment")
        return bool(doc) and any(line.get("text", "").strip() for line in doc.get("lines", []))

    counted, offenders = 0, []
    for precise, symbol in symbols.items():
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        location = symbol.get("location")
        if location is None or "::SYNTHESIZED::" in precise:
            continue
        counted += 1
        if has_own_docs(symbol):
            continue
        if precise in implements or implements_requirement(precise, symbol):
            continue
        uri = location["uri"]
        path = uri[len("file://"):] if uri.startswith("file://") else uri
        path = os.path.relpath(path, root) if path.startswith(root + os.sep) else path
        line = location["position"]["line"] + 1
        offenders.append((path, line, symbol["kind"]["displayName"], ".".join(symbol["pathComponents"])))

    if offenders:
        print(f"documentation: {counted} public symbols, {len(offenders)} undocumented:")
        for path, line, kind, name in sorted(offenders):
            print(f"  {path}:{line}: {kind} {name} has no doc comment")
        return 1
    print(f"documentation: {counted} public symbols, all documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
