#!/usr/bin/env bash
# Proves at compile time what Multicast promises about Swift concurrency (which uses are refused), and that
# every code sample of the documentation compiles:
#   - every snippet in Tests/CompileChecks/valid compiles in Swift 6 mode without a warning;
#   - every snippet in Tests/CompileChecks/invalid fails to compile, with the error its first lines name:
#       // expected-error: <extended regular expression>
#     (one line per expected error). A snippet that fails for another reason fails the check.
#   - every snippet in Tests/CompileChecks/manifests is a package manifest that `swift package dump-package`
#     loads;
#   - every ```swift block of README.md and of the articles in Sources/Multicast/Multicast.docc is, word for
#     word, the visible part of one of the snippets.
# A snippet's lines between `// snippet.hide` and `// snippet.show` are compiled but not shown (the context a
# sample needs, such as the origin library it migrates from). A snippet whose first line is `// snippet.script`
# is compiled as top-level code, as in a main.swift; the others as a library. Marker lines are never shown.
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

compile() {  # compile SNIPPET: prints the diagnostics; fails if the snippet does not compile
    local mode=(-parse-as-library)
    [[ "$(head -1 "$1")" == "// snippet.script" ]] && mode=()
    swiftc -swift-version 6 "${mode[@]}" -module-name Snippet -warnings-as-errors \
        -diagnostic-style llvm -emit-sil -o /dev/null \
        -I "$modules" -Xcc -fmodule-map-file="$shims_map" "$1" 2>&1
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

    if output="$(compile "$snippet")"; then
        if [[ ${#expected[@]} -eq 0 ]]; then
            printf 'ok   %s compiles without warnings\n' "$snippet"
        else
            fail "$snippet" "compiled, but it must fail with: ${expected[*]}"
        fi
        continue
    fi

    errors="$(grep -E ': error: ' <<<"$output" || true)"
    if [[ ${#expected[@]} -eq 0 ]]; then
        fail "$snippet" "must compile without warnings, but:"
        printf '%s\n' "$output" | sed 's/^/    /'
        continue
    fi
    missing=()
    for pattern in "${expected[@]}"; do
        grep -Eq -- "$pattern" <<<"$errors" || missing+=("$pattern")
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        printf 'ok   %s is rejected: %s\n' "$snippet" "${expected[*]}"
    else
        fail "$snippet" "is rejected, but not for the expected reason (${missing[*]}); the errors were:"
        printf '%s\n' "${errors:-$output}" | sed 's/^/    /'
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
