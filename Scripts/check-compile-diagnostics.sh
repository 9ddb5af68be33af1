#!/usr/bin/env bash
# Proves at compile time what Multicast promises about Swift concurrency (which uses are refused), and that
# every code sample of the documentation compiles, in the two isolation modes an app target may use: Swift 6
# mode as it comes (declarations are nonisolated unless marked), and `-default-isolation MainActor`, the
# default of Xcode 26's app targets and SwiftPM's `.defaultIsolation(MainActor.self)`, where they are
# main-actor-isolated unless marked:
#   - every snippet in Tests/CompileChecks/valid compiles without a warning in both modes;
#   - every snippet in Tests/CompileChecks/invalid fails to compile in Swift 6 mode, with the error its first
#     lines name:
#       // expected-error: <extended regular expression>
#     (one line per expected error). A snippet that fails for another reason fails the check. What the same
#     snippet does under `-default-isolation MainActor` differs (a plain global is main-actor-isolated there,
#     so some refusals no longer apply), and each snippet says which, with one of
#       // default-isolation MainActor: compiles
#       // default-isolation MainActor: expected-error: <extended regular expression>
#     checked the same way; a snippet that says neither fails the check;
#   - every snippet in Tests/CompileChecks/manifests is a package manifest that `swift package dump-package`
#     loads;
#   - every ```swift block of README.md and of the articles in Sources/Multicast/Multicast.docc is, word for
#     word, the visible part of one of the snippets.
# A snippet's lines between `// snippet.hide` and `// snippet.show` are compiled but not shown (the context a
# sample needs, such as the origin library it migrates from). A snippet whose first line is `// snippet.script`
# is compiled as top-level code, as in a main.swift; the others as a library. A library snippet with a line
# `// snippet.with: Other.swift` is compiled together with Other.swift of its folder, whose declarations it
# uses without repeating them. Marker lines (`snippet.*`, `default-isolation MainActor:`) are never shown;
# `expected-error:` lines are.
# The snippets go through SIL diagnostics (-emit-sil), not only -typecheck: region-based isolation errors
# ("sending ... risks causing data races") come from there.
#
# Usage: Scripts/check-compile-diagnostics.sh [snippet.swift ...]   (no arguments: all snippets and samples)
# Environment: BUILD_PATH (default .build), where `swift build` puts the library.
set -euo pipefail
cd "$(dirname "$0")/.."

build_path="${BUILD_PATH:-.build}"
swift build --target Multicast --build-path "$build_path" >/dev/null
bin="$(swift build --show-bin-path --build-path "$build_path")"
modules="$bin/Modules"
[[ -d "$modules" ]] || modules="$bin"  # older toolchains put .swiftmodule files next to the products
shims_map="$bin/_MulticastShims.build/module.modulemap"
for needed in "$modules/Multicast.swiftmodule" "$shims_map"; do
    [[ -e "$needed" ]] || { echo "error: $needed not found after building Multicast" >&2; exit 1; }
done

# The isolation modes, by the name the output gives them, and the flags that select them.
swift6=()
main_actor=(-default-isolation MainActor)

compile() {  # compile SNIPPET [FLAG ...]: prints the diagnostics; fails if the snippet does not compile
    local snippet="$1" mode=(-parse-as-library) files=("$1") other
    shift
    [[ "$(head -1 "$snippet")" == "// snippet.script" ]] && mode=()
    while IFS= read -r other; do
        files+=("$(dirname "$snippet")/$other")
    done < <(sed -n 's|^// snippet\.with: ||p' "$snippet")
    [[ ${#files[@]} -gt 1 ]] && mode+=(-wmo)  # one SIL output for the files together
    swiftc -swift-version 6 "${mode[@]}" "$@" -module-name Snippet -warnings-as-errors \
        -diagnostic-style llvm -emit-sil -o /dev/null \
        -I "$modules" -Xcc -fmodule-map-file="$shims_map" "${files[@]}" 2>&1
}

load_manifest() {  # load_manifest SNIPPET: loads it as the Package.swift of an empty package
    local package
    package="$(mktemp -d)"
    cp "$1" "$package/Package.swift"
    (cd "$package" && swift package dump-package 2>&1 >/dev/null) || { rm -rf "$package"; return 1; }
    rm -rf "$package"
}

visible() {  # visible SNIPPET: the snippet as the documentation shows it
    awk '
        /^[[:space:]]*\/\/ snippet\.hide$/ { hidden = 1; next }
        /^[[:space:]]*\/\/ snippet\.show$/ { hidden = 0; next }
        /^[[:space:]]*\/\/ snippet\.script$/ { next }
        /^\/\/ default-isolation MainActor: / { next }
        /^\/\/ snippet\.with: / { next }
        !hidden { print }
    ' "$1"
}

if [[ $# -gt 0 ]]; then
    snippets=("$@")
else
    snippets=(Tests/CompileChecks/valid/*.swift Tests/CompileChecks/invalid/*.swift
        Tests/CompileChecks/manifests/*.swift)
fi

failures=0
fail() {
    printf 'FAIL %s: %s\n' "$1" "$2"
    failures=$((failures + 1))
}

# check SNIPPET MODE FLAGS PATTERNS: compiles SNIPPET in MODE (a name for the output) with the flags in the
# array named FLAGS; with no patterns in the array named PATTERNS it must compile without a warning, else it
# must fail with an error matching each pattern. Prints one line, and counts a failure.
check() {
    local snippet="$1" mode="$2" output errors pattern
    local -n flags="$3" patterns="$4"
    if output="$(compile "$snippet" "${flags[@]}")"; then
        if [[ ${#patterns[@]} -eq 0 ]]; then
            printf 'ok   %s compiles without warnings (%s)\n' "$snippet" "$mode"
        else
            fail "$snippet" "compiled ($mode), but it must fail with: ${patterns[*]}"
        fi
        return
    fi
    errors="$(grep -E ': error: ' <<<"$output" || true)"
    if [[ ${#patterns[@]} -eq 0 ]]; then
        fail "$snippet" "must compile without warnings ($mode), but:"
        printf '%s\n' "$output" | sed 's/^/    /'
        return
    fi
    local missing=()
    for pattern in "${patterns[@]}"; do
        grep -Eq -- "$pattern" <<<"$errors" || missing+=("$pattern")
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        printf 'ok   %s is rejected (%s): %s\n' "$snippet" "$mode" "${patterns[*]}"
    else
        fail "$snippet" "is rejected ($mode), but not for the expected reason (${missing[*]}); the errors were:"
        printf '%s\n' "${errors:-$output}" | sed 's/^/    /'
    fi
}

none=()
for snippet in "${snippets[@]}"; do
    if [[ "$snippet" == */manifests/* ]]; then
        if output="$(load_manifest "$snippet")"; then
            printf 'ok   %s is a manifest that loads\n' "$snippet"
        else
            fail "$snippet" "must load as a Package.swift, but:"
            printf '%s\n' "$output" | sed 's/^/    /'
        fi
        continue
    fi
    expected=()
    while IFS= read -r line; do
        expected+=("$line")
    done < <(sed -n 's|^// expected-error: ||p' "$snippet")
    if [[ ${#expected[@]} -eq 0 ]]; then  # a sample: it compiles in both modes
        check "$snippet" "Swift 6" swift6 none
        check "$snippet" "-default-isolation MainActor" main_actor none
        continue
    fi

    check "$snippet" "Swift 6" swift6 expected
    expected_under_main_actor=()
    while IFS= read -r line; do
        expected_under_main_actor+=("$line")
    done < <(sed -n 's|^// default-isolation MainActor: expected-error: ||p' "$snippet")
    if [[ ${#expected_under_main_actor[@]} -gt 0 ]]; then
        check "$snippet" "-default-isolation MainActor" main_actor expected_under_main_actor
    elif grep -qx '// default-isolation MainActor: compiles' "$snippet"; then
        check "$snippet" "-default-isolation MainActor" main_actor none
    else
        fail "$snippet" "says nothing of -default-isolation MainActor: add '// default-isolation MainActor: compiles' \
or '// default-isolation MainActor: expected-error: <pattern>'"
    fi
done

# Every code sample of the documentation must be the visible part of one of the snippets above, word for word.
if [[ $# -eq 0 ]]; then
    samples="$(mktemp -d)"
    trap 'rm -rf "$samples"' EXIT
    for snippet in "${snippets[@]}"; do
        visible "$snippet" >"$samples/$(basename "$(dirname "$snippet")")-$(basename "$snippet").shown"
    done
    documents=(README.md Sources/Multicast/Multicast.docc/*.md)
    sample_count=0
    unmatched=0
    for document in "${documents[@]}"; do
        rm -f "$samples"/*.sample
        awk -v dir="$samples" '
            /^```swift$/ { n++; file = sprintf("%s/%03d.sample", dir, n); next }
            /^```$/ { file = ""; next }
            file != "" { print > file }
        ' "$document"
        for sample in "$samples"/*.sample; do
            [[ -e "$sample" ]] || break
            sample_count=$((sample_count + 1))
            found=false
            for shown in "$samples"/*.shown; do
                if cmp -s "$sample" "$shown"; then found=true; break; fi
            done
            if ! $found; then
                unmatched=$((unmatched + 1))
                fail "$document" "code sample $((10#$(basename "$sample" .sample))), which begins \"$(head -1 "$sample")\", \
is not the visible part of a snippet in Tests/CompileChecks"
            fi
        done
    done
    printf 'ok   %s of %s code samples in %s documents are snippets\n' "$((sample_count - unmatched))" "$sample_count" \
        "${#documents[@]}"
fi

if [[ $failures -gt 0 ]]; then
    echo "$failures compile check(s) failed"
    exit 1
fi
echo "all ${#snippets[@]} compile checks passed"
