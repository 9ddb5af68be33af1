#!/usr/bin/env bash
# The API-break gate: compares what the package promises with the baseline committed in API/, the API and ABI of
# the last release, and fails on any break.
#
# - API: the public API of `Multicast`, the one product, as `swift-api-digester` dumps it (API/Multicast.json).
#   A removed or renamed declaration, a changed label or type, a lost conformance is a break: a client's source
#   stops compiling. Breaking it takes a major version.
# - ABI: what clients' binaries use, public and `@usableFromInline` declarations and frozen layouts, of
#   `Multicast` and of `_MulticastCore`, whose inlinable code clients inline (API/*.abi.json). A break there
#   compiles, but a client built against a binary framework of the old version cannot run against the new one.
#   It is dumped from the library-evolution build, as a binary framework is built.
#
# Both are dumped from the debug build that Scripts/check-library-evolution.sh makes (the same flags and build
# folder, so a run after that script reuses it: 3 s; 20 s cold); the self-test takes 30 to 45 s. `swift package
# diagnose-api-breaking-changes` needs the baseline's git revision to exist, even with its JSON in
# `--baseline-dir`, and a tag may not travel with a clone; a committed baseline needs neither.
#
# Usage: Scripts/check-api.sh               compare with the baseline in API/ (what CI runs)
#        Scripts/check-api.sh --update [REF]
#                                           regenerate API/ from the working tree, or from the commit REF (the
#                                           release's tag or commit), after an intended change: commit API/ with
#                                           the reason (see CONTRIBUTING.md)
#        Scripts/check-api.sh --self-test   plants breaks, each in a commit on top of HEAD in a scratch clone,
#                                           and fails unless the check fails on each (CI runs it too)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS
baseline="$root/API"
work="$root/.build/api-check"
digester="$(dirname "$(readlink -f "$(command -v swiftc)")")/swift-api-digester"
[[ -x "$digester" ]] || { echo "error: no swift-api-digester beside swiftc ($digester)" >&2; exit 1; }

# Builds the library of the package in $1 with library evolution, in the build folder $2, and dumps its API and
# ABI into the folder $3.
dump() {
    local package="$1" build="$2" out="$3"
    mkdir -p "$out/shims"
    cp "$package/Sources/_MulticastShims/include/_MulticastShims.h" "$out/shims/"
    printf 'module _MulticastShims {\n    header "_MulticastShims.h"\n    export *\n}\n' >"$out/shims/module.modulemap"
    # The flags and environment of Scripts/check-library-evolution.sh's debug build, whose build it shares.
    if ! env -u MULTICAST_INTERNAL_CHECKS swift build --package-path "$package" --build-path "$build" \
        --target Multicast -Xswiftc -enable-library-evolution -Xswiftc -emit-module-interface \
        -Xswiftc -no-verify-emitted-module-interface >"$out/build.log" 2>&1; then
        cat "$out/build.log" >&2
        echo "error: the library of $package does not build" >&2
        return 1
    fi
    local modules
    modules="$(swift build --package-path "$package" --build-path "$build" --show-bin-path)/Modules"
    local common=(-I "$modules" -I "$out/shims" -module-cache-path "$work/module-cache" -swift-only
        -avoid-location -avoid-tool-args -abort-on-module-fail)
    "$digester" -dump-sdk -module Multicast "${common[@]}" -o "$out/Multicast.json"
    "$digester" -dump-sdk -abi -module Multicast "${common[@]}" -o "$out/Multicast.abi.json"
    "$digester" -dump-sdk -abi -module _MulticastCore "${common[@]}" -o "$out/_MulticastCore.abi.json"
    rm -rf "$out/shims" "$out/build.log"
}

# Compares the dumps in the folder $1 with the baseline; prints each break, and fails if there is one.
compare() {
    local current="$1" breaks=0 file abi
    for file in Multicast.json Multicast.abi.json _MulticastCore.abi.json; do
        [[ -f "$baseline/$file" ]] ||
            { echo "error: no baseline $baseline/$file: run Scripts/check-api.sh --update" >&2; return 1; }
        abi=()
        [[ "$file" == *.abi.json ]] && abi=(-abi)
        "$digester" -diagnose-sdk "${abi[@]}" -input-paths "$baseline/$file" -input-paths "$current/$file" \
            -o "$current/${file%.json}.report" 2>"$current/${file%.json}.stderr" ||
            { cat "$current/${file%.json}.stderr" >&2; return 1; }
        # The report is a list of section headers (`/* Removed Decls */`); any other line is a break, but for
        # the ABI checker's rule for an OS's frameworks that an addition state its OS versions with
        # `@available`, which a package that its clients build into their apps does not follow.
        if grep -Ev '^(/\*.*\*/)?$' "$current/${file%.json}.report" |
            grep -v "is a new API without '@available'" >"$current/${file%.json}.breaks"; then
            echo "${file%.json} (${abi[*]:-API}) differs from the baseline in API/$file:"
            sed 's/^/    /' "$current/${file%.json}.breaks"
            breaks=$((breaks + $(wc -l <"$current/${file%.json}.breaks")))
        fi
    done
    # The digester does not report a public declaration made internal or package (it keeps it, marked
    # internal, where it is inlinable): compare what is public in each dump.
    if ! python3 - "$baseline/Multicast.json" "$current/Multicast.json" >"$current/access.breaks" <<'PYTHON'
import json, sys

def public(path):
    found = {}
    def walk(node, names):
        names = names + [node["printedName"]] if node.get("declKind") else names
        if node.get("declKind") and "usr" in node and not node.get("isInternal"):
            found[node["usr"]] = ".".join(names[1:])
        for child in node.get("children", []):
            if child["kind"] == "TypeDecl" or not child["kind"].startswith("Type"):
                walk(child, names)
    walk(json.load(open(path))["ABIRoot"], [""])
    return found

baseline, current = public(sys.argv[1]), public(sys.argv[2])
lost = sorted(name for usr, name in baseline.items() if usr not in current)
for name in lost:
    print(f"{name}: public in the baseline, and missing or not public now")
sys.exit(1 if lost else 0)
PYTHON
    then
        echo "Multicast (API) has fewer public declarations than the baseline in API/Multicast.json:"
        sed 's/^/    /' "$current/access.breaks"
        breaks=$((breaks + $(wc -l <"$current/access.breaks")))
    fi
    if [[ $breaks -gt 0 ]]; then
        echo "error: $breaks breaking changes. If they are intended, see \"Accepting an API break\" in" \
            "CONTRIBUTING.md (Scripts/check-api.sh --update, a new major version for an API break)" >&2
        return 1
    fi
}

check() {
    rm -rf "$work/current"
    dump "$root" "$root/.build/library-evolution" "$work/current"
    compare "$work/current"
    echo "API and ABI: no breaking change from the baseline in API/ ($((SECONDS - started)) s)"
}

# A clone of HEAD in $work/scratch, reused between runs so that its build is incremental.
scratch_clone() {
    local head scratch="$work/scratch"
    head=$(git -C "$root" rev-parse HEAD)
    if [[ ! -d "$scratch/.git" ]]; then
        rm -rf "$scratch"
        git clone -q --shared --no-checkout "$root" "$scratch"
    fi
    git -C "$scratch" fetch -q "$root" "${1:-HEAD}"
    git -C "$scratch" checkout -q -f --detach FETCH_HEAD
    git -C "$scratch" clean -q -fdx
    echo "$scratch"
}

update() {
    local from="$root"
    if [[ $# -gt 0 ]]; then
        from=$(scratch_clone "$1")
        echo "dumping the API and ABI of $1 ($(git -C "$from" rev-parse --short HEAD))"
    fi
    rm -rf "$work/update"
    if [[ "$from" == "$root" ]]; then
        dump "$root" "$root/.build/library-evolution" "$work/update"
    else
        dump "$from" "$work/scratch-build" "$work/update"
    fi
    mkdir -p "$baseline"
    cp "$work/update/"*.json "$baseline/"
    git -C "$root" status --short -- API
    echo "API/ regenerated; commit it with the reason for the change ($((SECONDS - started)) s)"
}

# Plants one change in the scratch clone, as a commit on top of HEAD, and dumps it into $work/planted: $1 names
# it, $2 is the file, $3 a Perl substitution that must change it.
commit_planted() {
    local name="$1" file="$2" substitution="$3" scratch="$work/scratch"
    git -C "$scratch" checkout -q -f --detach "$head"
    perl -0pi -e "$substitution" "$scratch/$file"
    if git -C "$scratch" diff --quiet; then
        echo "error: the planted change ($name) no longer applies to $file: change it in $0" >&2
        return 1
    fi
    git -C "$scratch" -c user.name=check-api -c user.email=check-api@localhost commit -q -am "Planted: $name"
    rm -rf "$work/planted"
    dump "$scratch" "$work/scratch-build" "$work/planted"
}

# Plants a change that breaks nothing ($1 to $3 as for commit_planted): fails unless the check passes.
plant_addition() {
    commit_planted "$@"
    if ! compare "$work/planted" >"$work/planted.out" 2>&1; then
        cat "$work/planted.out"
        echo "error: the check failed on a planted change that breaks nothing ($1)" >&2
        return 1
    fi
    echo "planted change that breaks nothing ($1): the check passes"
}

# Plants a break ($1 to $3 as for commit_planted); $4 is what the check's report must name. Fails unless the
# check fails so.
plant() {
    local name="$1" expected="$4"
    commit_planted "$1" "$2" "$3"
    if compare "$work/planted" >"$work/planted.out" 2>&1; then
        cat "$work/planted.out"
        echo "error: the check passed with a planted break ($name)" >&2
        return 1
    fi
    if ! grep -q -- "$expected" "$work/planted.out"; then
        cat "$work/planted.out"
        echo "error: the check failed on the planted break ($name), but did not name $expected" >&2
        return 1
    fi
    echo "planted break ($name): the check fails, and says:"
    grep -v '^error: ' "$work/planted.out" | sed 's/^/    /'
}

self_test() {
    local scratch
    scratch=$(scratch_clone)
    head=$(git -C "$scratch" rev-parse HEAD)
    plant "a public method renamed" Sources/Multicast/MulticastDelegate.swift \
        's/public func removeAll\(\)/public func removeEveryDelegate()/' 'removeAll()'
    plant "a label changed" Sources/Multicast/MulticastDelegate+Registration.swift \
        's/(\n            _ delegate: Delegate, )retention: Retention, file:/$1holding retention: Retention, file:/' \
        'add(_:retention:file:line:)'
    plant "an @usableFromInline function of the core renamed" Sources/_MulticastCore/Core.swift \
        's/\bappendMore\(/appendMoreObjects(/g' 'appendMore(_:)'
    plant "a public property made package" Sources/Multicast/MulticastDelegate.swift \
        's/public var isEmpty: Bool/package var isEmpty: Bool/' 'isEmpty'
    plant_addition "a public method added" Sources/Multicast/MulticastDelegate.swift \
        's/(\n    public func removeAll\(\))/\n    public func plantedAddition() {}\n$1/'
    git -C "$scratch" checkout -q -f --detach "$head"
    echo "self-test: the check fails on each planted break, and passes on an addition ($((SECONDS - started)) s)"
}

case "${1:-}" in
"") check ;;
--update) shift; update "$@" ;;
--self-test) self_test ;;
*) sed -n 's/^# Usage: //p; s/^#        //p' "$0" >&2; exit 2 ;;
esac
