#!/usr/bin/env bash
# Proves at compile time what Multicast promises about Swift concurrency (issue 3, rule 4):
#   - every snippet in Tests/CompileChecks/valid compiles in Swift 6 mode without a warning;
#   - every snippet in Tests/CompileChecks/invalid fails to compile, with the error its first lines name:
#       // expected-error: <extended regular expression>
#     (one line per expected error). A snippet that fails for another reason fails the check.
# The snippets go through SIL diagnostics (-emit-sil), not only -typecheck: region-based isolation errors
# ("sending ... risks causing data races") come from there.
#
# Usage: Scripts/check-compile-diagnostics.sh [snippet.swift ...]   (no arguments: all snippets)
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
    swiftc -swift-version 6 -parse-as-library -module-name Snippet -warnings-as-errors \
        -diagnostic-style llvm -emit-sil -o /dev/null \
        -I "$modules" -Xcc -fmodule-map-file="$shims_map" "$1" 2>&1
}

if [[ $# -gt 0 ]]; then
    snippets=("$@")
else
    snippets=(Tests/CompileChecks/valid/*.swift Tests/CompileChecks/invalid/*.swift)
fi

failures=0
fail() {
    printf 'FAIL %s: %s\n' "$1" "$2"
    failures=$((failures + 1))
}

for snippet in "${snippets[@]}"; do
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

# Every code sample of the article must be one of the snippets above, word for word.
article=Sources/Multicast/Multicast.docc/SwiftConcurrency.md
if [[ $# -eq 0 && -f "$article" ]]; then
    samples="$(mktemp -d)"
    trap 'rm -rf "$samples"' EXIT
    awk -v dir="$samples" '
        /^```swift$/ { n++; file = sprintf("%s/%03d.swift", dir, n); next }
        /^```$/ { file = ""; next }
        file != "" { print > file }
    ' "$article"
    for sample in "$samples"/*.swift; do
        [[ -e "$sample" ]] || break
        found=false
        for snippet in "${snippets[@]}"; do
            if cmp -s "$sample" "$snippet"; then found=true; break; fi
        done
        $found || fail "$article" "code sample $(basename "$sample" .swift) is not a snippet in Tests/CompileChecks"
    done
fi

if [[ $failures -gt 0 ]]; then
    echo "$failures compile check(s) failed"
    exit 1
fi
echo "all ${#snippets[@]} compile checks passed"
