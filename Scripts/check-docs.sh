#!/usr/bin/env bash
# Builds the documentation with the toolchain's own tools and fails on any problem:
#   0. first, in a second: every ``symbol`` link of the doc comments of Sources/Multicast and Sources/_MulticastCore
#      names a declaration of the sources (Scripts/doc-links.py), internal, package and core symbols' included,
#      which DocC does not read;
#   1. `swift package dump-symbol-graph` writes the symbol graph of the module Multicast;
#   2. `docc convert` builds Sources/Multicast/Multicast.docc with it, and fails on any warning (an unresolved
#      symbol or article link, a topic that does not exist, ...);
#   3. every public symbol that Multicast declares has a doc comment of its own, or the check lists those
#      that do not.
# The code samples of the articles are checked by Scripts/check-compile-diagnostics.sh.
#
# Usage: Scripts/check-docs.sh              the links, then the documentation (what CI runs)
#        Scripts/check-docs.sh --links      the doc comments' links alone (a second)
#        Scripts/check-docs.sh --self-test  plants, one at a time in a scratch copy of the sources, a link to a
#                                           renamed method, one with a wrong label, one to a member of the wrong
#                                           type and one of the wrong kind, and fails unless the links' check
#                                           names each (seconds)
# Environment: BUILD_PATH (default .build, so the build `swift test` made is reused); DOCS_OUTPUT (default: a
# temporary directory, removed at the end), where the documentation archive goes.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "error: $*" >&2; exit 1; }

source Scripts/plant-in-copy.sh

self_test() {
    local check=Scripts/doc-links.py
    copy_for_planting "$check" Sources/Multicast Sources/_MulticastCore
    plant "$check" "a renamed method" Sources/_MulticastCore/Gate.swift \
        's{``_Registry/closeGate\(\)``}{``_Registry/closeTheGate()``}' '``_Registry/closeTheGate()``'
    plant "$check" "a wrong argument label" Sources/_MulticastCore/Slot.swift \
        's{``_Readers/isUnread\(_:\)``}{``_Readers/isUnread(of:)``}' '``_Readers/isUnread(of:)``'
    plant "$check" "a member of another type" Sources/_MulticastCore/Registry.swift \
        's{``_Slot/markEnded\(\)``}{``_Pass/markEnded()``}' '``_Pass/markEnded()``'
    plant "$check" "a property linked as a method" Sources/_MulticastCore/Registry.swift \
        's{``_OwnerPin/isAvailable``}{``_OwnerPin/isAvailable-swift.method``}' '``_OwnerPin/isAvailable-swift.method``'
    echo "self-test: the links' check names each planted link"
}

case "${1:-}" in
"") ;;
--links) python3 Scripts/doc-links.py; exit ;;
--self-test) self_test; exit ;;
*) sed -n 's/^# Usage: //p; s/^#        //p' "$0" >&2; exit 2 ;;
esac

echo "=== links of the doc comments"
python3 Scripts/doc-links.py

build_path="${BUILD_PATH:-.build}"
catalog=Sources/Multicast/Multicast.docc
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
output="${DOCS_OUTPUT:-$work/Multicast.doccarchive}"

echo "=== symbol graph"
# SwiftPM writes the graphs of every module to <build path>/<triple>/symbolgraph, and says so ("Files written
# to <dir>"). It exits non-zero when it cannot load the test runner modules (MulticastPackageTests, ...), which
# only a test build makes; those do not matter here, so the check is on Multicast's graph alone.
rm -rf "$build_path"/*/symbolgraph
swift package --build-path "$build_path" dump-symbol-graph >"$work/dump.log" 2>&1 || true
graphs="$(sed -n 's/^Files written to //p' "$work/dump.log" | tail -1)"
if [[ ! -f "$graphs/Multicast.symbols.json" ]] || grep -q "Failed to emit symbol graph for 'Multicast'" "$work/dump.log"; then
    cat "$work/dump.log"
    echo "error: no symbol graph for Multicast" >&2
    exit 1
fi
# Only Multicast's graphs: the module itself and its extensions of other modules (Multicast@Swift...).
mkdir "$work/graphs"
cp "$graphs"/Multicast.symbols.json "$work/graphs/"
cp "$graphs"/Multicast@*.symbols.json "$work/graphs/" 2>/dev/null || true
echo "$(ls "$work/graphs" | tr '\n' ' ')from $graphs"

echo "=== docc convert"
docc convert "$catalog" --additional-symbol-graph-dir "$work/graphs" --output-dir "$output" \
    --fallback-display-name Multicast --fallback-bundle-identifier org.multicast-swift.Multicast \
    --analyze --warnings-as-errors >"$work/docc.log" 2>&1 || {
    cat "$work/docc.log"
    echo "docc convert failed"
    exit 1
}
# --warnings-as-errors fails on warnings; --analyze adds notes, which fail this check too.
if grep -Eq '^(warning|error|note):' "$work/docc.log"; then
    cat "$work/docc.log"
    echo "docc convert reported problems"
    exit 1
fi
echo "no warnings; $(find "$output/data/documentation" -name '*.json' | wc -l | tr -d ' ') pages"

echo "=== doc comments of public symbols"
# Which symbols must have docs: every public or open symbol that Multicast declares in its own source.
# Left out are the members a conformance brings in from another module (Sequence's `map`, `filter`, ...,
# Equatable's `!=`): SwiftPM lists them as "synthesized" (their identifier has `::SYNTHESIZED::` and no
# `location`), and their docs, if any, are the standard library's. A declared symbol whose only doc comment
# is inherited from a protocol requirement (its `docComment.module` is another module) counts as undocumented.
python3 - "$work/graphs" <<'PYTHON'
import glob, json, sys

undocumented, checked = [], 0
for path in sorted(glob.glob(sys.argv[1] + "/*.symbols.json")):
    graph = json.load(open(path))
    for symbol in graph["symbols"]:
        if symbol["accessLevel"] not in ("public", "open"):
            continue
        if "::SYNTHESIZED::" in symbol["identifier"]["precise"] or "location" not in symbol:
            continue
        checked += 1
        doc = symbol.get("docComment")
        own = doc is not None and doc.get("module", "Multicast") == "Multicast"
        if not own or not any(line["text"].strip() for line in doc["lines"]):
            where = symbol["location"]["uri"].split("/Sources/")[-1]
            line = symbol["location"]["position"]["line"] + 1
            title = ".".join(symbol["pathComponents"])
            undocumented.append(f"  {title} ({symbol['kind']['displayName']}) at Sources/{where}:{line}")

if undocumented:
    print(f"{len(undocumented)} of {checked} public symbols have no doc comment of their own:")
    print("\n".join(undocumented))
    sys.exit(1)
if checked == 0:
    print("error: no public symbol found in the symbol graph")
    sys.exit(1)
print(f"all {checked} public symbols declared in Multicast have doc comments")
PYTHON
