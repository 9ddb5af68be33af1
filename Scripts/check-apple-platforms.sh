#!/usr/bin/env bash
# Type-checks the library (`_MulticastCore`, `Multicast`) and the test tools (`MulticastChecks`) for Apple's
# platforms, on a machine that has no Apple SDK, and fails on any error or warning.
#
# How: the toolchain ships its standard library for Linux as textual interfaces, whose declarations keep
# Apple's `@available(macOS ..., iOS ...)` annotations. Rebuilt for an Apple triple, they give a standard
# library against which the compiler applies Apple's availability rules at each platform's deployment target.
# The Darwin branches (`canImport(Darwin)`) compile against Tests/PlatformChecks/Darwin, a stand-in module that
# declares, in Apple's headers' types, nullability and availability, what those branches use; the
# Objective-C branches (`_runtime(_ObjC)`) are compiled by checking a copy of the sources in which that
# condition is true, as it is on every Apple platform. The `os` branches (`canImport(os)`: the signposts) compile
# against Tests/PlatformChecks/os, a stand-in Swift module built first for each triple, which declares, as the
# `os` overlay does, the `OSSignposter` API they use. The sources go through SIL diagnostics (-emit-sil),
# with the settings Package.swift gives every target and the internal checks compiled in.
#
# A control shows that availability is checked: Tests/PlatformChecks/AvailabilityControl.swift uses an API
# newer than every deployment target and must be rejected on each triple, or the check fails.
#
# What it does not cover: nothing is built against Apple's SDK, linked or run; Darwin and os are stand-ins, so
# the signposts are type-checked and never run; `Int` is 64-bit even on the 32-bit watchOS triple, because the
# Linux interface spells it so (Scripts/check-32-bit.sh compiles the word-size-dependent code for 32-bit
# targets); the test targets are not compiled (Swift Testing is not rebuilt here, and the Linux interface of
# Swift Testing has no Apple availability): the script checks instead that every exit test is inside the
# platform guard.
#
# The rebuilt standard libraries are cached in .build/stdlib-for-triples, keyed by the compiler's version and by
# how Scripts/stdlib-for-triple.sh builds them, so a second run only type-checks.
#
# Usage: Scripts/check-apple-platforms.sh [triple ...]   (no arguments: every triple below)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS

# One triple per platform and architecture that Package.swift's `platforms` names, at its deployment target.
# watchOS is checked on arm64_32, whose pointers are 32-bit on a 64-bit processor; armv7k (Series 3), the other
# 32-bit architecture, has no watchOS 9.
all_triples=(
    arm64-apple-macos12
    x86_64-apple-macos12
    arm64-apple-ios15
    arm64-apple-tvos15
    arm64_32-apple-watchos9
    arm64-apple-xros1
)
# Package.swift's minimums, as the triples above spell them; the check stops if the two disagree.
for minimum in 'macOS(.v12)' 'iOS(.v15)' 'tvOS(.v15)' 'watchOS(.v9)' 'visionOS(.v1)'; do
    grep -qF ".$minimum" Package.swift ||
        { echo "error: Package.swift no longer names .$minimum: update the triples of $0" >&2; exit 1; }
done
if [[ $# -gt 0 ]]; then triples=("$@"); else triples=("${all_triples[@]}"); fi

# Exit tests (`#expect(processExitsWith:)`) are unavailable in Swift Testing on iOS, tvOS, watchOS and
# visionOS, and the test targets are not compiled here: so each exit test must sit inside the guard that
# Platforms.md names, or the tests would not compile for those platforms.
exit_test_guard='os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)'
unguarded="$(find Tests -name '*.swift' -not -path 'Tests/CompileChecks/*' -not -path 'Tests/PlatformChecks/*' \
    -print0 | xargs -0 awk -v guard="$exit_test_guard" '
        FNR == 1 { depth = 0 }
        /^[[:space:]]*#if / { depth++; guarded[depth] = index($0, guard) > 0; next }
        /^[[:space:]]*#(elseif|else)/ { guarded[depth] = 0; next }
        /^[[:space:]]*#endif/ { depth--; next }
        /processExitsWith/ {
            ok = 0
            for (level = 1; level <= depth; level++) if (guarded[level]) ok = 1
            if (!ok) print FILENAME ":" FNR ": an exit test outside #if " guard
        }')"
if [[ -n "$unguarded" ]]; then
    printf '%s\n' "$unguarded" >&2
    exit 1
fi
echo "ok   every exit test in Tests is inside #if $exit_test_guard"

# The package's sources, found by folder so that new and renamed files are checked without a change here.
mapfile -t core_sources < <(find Sources/_MulticastCore -name '*.swift' | sort)
mapfile -t library_sources < <(find Sources/Multicast -name '*.swift' | sort)
mapfile -t checks_sources < <(find Sources/MulticastChecks -name '*.swift' | sort)
# What Package.swift gives every Swift target, and the internal checks that CI's builds compile in.
swift_settings=(-swift-version 6 -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature MemberImportVisibility -D MULTICAST_INTERNAL_CHECKS -D DEBUG -Onone)

# The standard libraries, rebuilt for each triple and cached (Scripts/stdlib-for-triple.sh).
source Scripts/stdlib-for-triple.sh
work=".build/apple-platforms"
mkdir -p "$work"

# A copy of the sources in which the Objective-C branches are taken, as on every Apple platform. Diagnostics
# name the copy; the output names the original files.
copy="$work/sources"
rm -rf "$copy"
mkdir -p "$copy"
for source in "${core_sources[@]}" "${library_sources[@]}" "${checks_sources[@]}"; do
    mkdir -p "$copy/$(dirname "$source")"
    sed 's/_runtime(_ObjC)/true/g' "$source" >"$copy/$source"
done
copied() { printf "$copy/%s\n" "$@"; }
mapfile -t core_copies < <(copied "${core_sources[@]}")
mapfile -t library_copies < <(copied "${library_sources[@]}")
mapfile -t checks_copies < <(copied "${checks_sources[@]}")
printf 'module _MulticastShims {\n    header "%s"\n    export *\n}\n' \
    "$root/Sources/_MulticastShims/include/_MulticastShims.h" >"$work/shims.modulemap"

# The standard libraries not in the cache, two at a time ($STDLIB_JOBS): each build is one single-threaded
# compiler, about 40 s on a free core.
build_stdlibs "${triples[@]}"

failures=0
for triple in "${triples[@]}"; do
    triple_started=$SECONDS
    if [[ ! -f "$stdlib_cache/$triple/done" ]]; then
        printf 'FAIL %s: the standard library did not build:\n' "$triple"
        tail -20 "$stdlib_cache/$triple.log" | sed 's/^/    /'
        failures=$((failures + 1))
        continue
    fi
    out="$work/$triple"
    rm -rf "$out"
    mkdir -p "$out"
    mapfile -t sdk < <(sdk_flags "$triple")
    common=(-target "$triple" "${sdk[@]}" -I "$stdlib_cache/$triple" -resource-dir "$stdlib_resources" -Xcc -ffreestanding
        -Xfrontend -disable-objc-interop -Xfrontend -disable-implicit-string-processing-module-import
        -I Tests/PlatformChecks/Darwin -Xcc -fmodule-map-file="$work/shims.modulemap"
        -package-name multicast -parse-as-library -wmo -diagnostic-style llvm)
    # compile NAME SOURCE...: SIL diagnostics for module NAME; its .swiftmodule goes to $out for the next.
    # The SIL goes to a file, never to /dev/null: a compile that fails deletes its outputs, and with
    # -emit-module it deletes the -o path too, which for a root user would be the device itself.
    compile() {
        local name="$1"
        shift
        swiftc "${common[@]}" "${swift_settings[@]}" -I "$out" -module-name "$name" \
            -emit-module -emit-module-path "$out/$name.swiftmodule" -emit-sil -o "$out/$name.sil" "$@" 2>&1 |
            sed "s|$copy/||g; s|$root/||g"
        return "${PIPESTATUS[0]}"
    }
    status=ok
    output="$(compile os Tests/PlatformChecks/os/os.swift && compile _MulticastCore "${core_copies[@]}" &&
        compile Multicast "${library_copies[@]}" && compile MulticastChecks "${checks_copies[@]}")" ||
        status=failed
    if [[ "$status" == ok ]] && grep -q 'warning:' <<<"$output"; then status="failed (warnings)"; fi
    # The control: code that needs a newer system than the deployment target must be rejected here.
    control="$(swiftc "${common[@]}" "${swift_settings[@]}" -module-name Control -typecheck \
        Tests/PlatformChecks/AvailabilityControl.swift 2>&1 || true)"
    control_error="$(grep -Eo "is only available in [A-Za-z]+ [0-9.]+ or newer" <<<"$control" | head -1 || true)"
    elapsed=$((SECONDS - triple_started))
    if [[ "$status" != ok ]]; then
        printf 'FAIL %s: _MulticastCore, Multicast and MulticastChecks %s (%d s)\n' "$triple" "$status" "$elapsed"
        printf '%s\n' "$output" | sed 's/^/    /'
        failures=$((failures + 1))
    elif [[ -z "$control_error" ]]; then
        printf 'FAIL %s: the availability control was not rejected, so availability was not checked:\n' \
            "$triple"
        printf '%s\n' "${control:-    (it compiled)}" | sed 's/^/    /'
        failures=$((failures + 1))
    else
        printf 'ok   %s: _MulticastCore, Multicast and MulticastChecks, no error or warning; control rejected: "%s" (%d s)\n' \
            "$triple" "$control_error" "$elapsed"
    fi
done

printf '%d of %d triples type-checked in %d s\n' $((${#triples[@]} - failures)) ${#triples[@]} \
    $((SECONDS - started))
[[ $failures -eq 0 ]]
