#!/usr/bin/env bash
# Compiles the library (`Multicast`) for 32-bit targets, so that code that assumes a 64-bit `Int` or pointer
# where the compiler can tell fails CI: a literal that does not fit 32 bits, a conversion or a C type that
# type-checks only at 64 bits. watchOS (arm64_32) and WebAssembly (wasm32) are where users would meet such a
# bug; Scripts/check-apple-platforms.sh and Scripts/check-other-platforms.sh cannot see it, since the Linux
# interface they rebuild spells `Int` with 64 bits. What no compiler reports, and nothing here runs at 32 bits: a shift by 32 or more (Swift's `<<` gives
# 0 there, without a diagnostic) and an assumption about a size or layout checked at run time.
#
# How: the toolchain ships Embedded Swift's standard library for bare-metal 32-bit targets, with a 32-bit
# `Int`. The library's sources go through SIL diagnostics there (where a literal that overflows `Int` or
# `UInt` is reported; -typecheck does not report it), with Tests/PlatformChecks/Embedded/Client.swift
# compiled in: Embedded Swift compiles a generic function only where a caller specializes it, and the client
# uses each public operation of the core once. The lock's Linux branch compiles against
# Tests/PlatformChecks/Glibc, a stand-in that declares what it uses as glibc declares it for 32-bit Linux.
#
# What Embedded Swift refuses, and how the check sets it aside, without any change to the library's code:
#   - files that use Swift concurrency (_Concurrency has no Embedded build for these targets) or reflection
#     (`Mirror`, `String(describing:)`) are left out, by the rule in `left_out_pattern` below, which reads the
#     code and not its comments (a doc comment may speak of `await`); the list is printed on each run, and the
#     check fails if a file it leaves out has word-size-dependent code;
#   - `weak` references, which Embedded Swift does not have, are compiled as `unowned(unsafe)`: the same
#     optional class reference in one word, which nothing here runs;
#   - the restrictions Embedded Swift reports as such (untyped `throws`, interpolating an existential, boxing
#     a generic value `as AnyObject`) are counted and printed, and do not fail the check; any other error or
#     warning does.
# Swift 5 language mode: Swift 6.3's region-based isolation pass crashes on Embedded Swift's specializations
# of the multicast's generic code; the Linux build checks concurrency in Swift 6 mode.
#
# Usage: Scripts/check-32-bit.sh [target ...]   (no arguments: the targets below)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS

# 32-bit ARM; 32-bit x86; 32-bit RISC-V; 32-bit WebAssembly, as WASI's. The C shims have no branch per target:
# each target's compiler builtins give its form of the same atomics (a doubleword atomic for a 64-bit key on
# 32-bit ARM).
targets=(armv7-none-none-eabi i686-unknown-none-elf riscv32-none-none-eabi wasm32-unknown-none-wasm)
if [[ $# -gt 0 ]]; then targets=("$@"); fi

# Left out: a file that uses Swift concurrency or reflection, which Embedded Swift does not have.
concurrency='async|await|AsyncStream|AsyncSequence|AsyncIteratorProtocol|Task|TaskGroup|withTaskGroup'
concurrency+='|withThrowingTaskGroup|Actor|MainActor'
left_out_pattern="\\<($concurrency|Mirror|CustomReflectable)\\>|String\\((describing|reflecting):"
# Word-size-dependent code, which must not be left out.
word_size_pattern='_pointerBitWidth|bitWidth|MemoryLayout|(U)?Int(32|64)\>|0x[0-9A-Fa-f_]{10,}'
# What Embedded Swift reports as its own restriction rather than as a fault of the code.
restriction_pattern='\[#EmbeddedRestrictions\]|cannot find definition of .(_ObjectiveCBridgeable). protocol'
# The control's error (Tests/PlatformChecks/Embedded/Control.swift), which every target must report.
control_pattern='Control\.swift:[0-9]+:[0-9]+: error: integer literal .4294967296. overflows'

work=".build/32-bit"
rm -rf "$work"
mkdir -p "$work/sources"
compiled=()
left_out=()
while IFS= read -r source; do
    code="$(grep -Ev '^[[:space:]]*//' "$source" || true)"  # the code, without its comment lines
    if grep -Eq "$left_out_pattern" <<<"$code"; then
        left_out+=("$source")
        if grep -Eq "$word_size_pattern" <<<"$code"; then
            echo "error: $source has word-size-dependent code, but uses what Embedded Swift does not have," \
                "so this check would leave it out: move the word-size-dependent code to a file of its own" \
                "(or change left_out_pattern in $0)" >&2
            exit 1
        fi
        continue
    fi
    mkdir -p "$work/sources/$(dirname "$source")"
    # One module here: the core's import goes, and its `package` declarations are the module's own.
    # The lock's multithreaded branch is compiled, as on 32-bit Linux: the runtime of these bare-metal targets
    # has one thread, which would take the branch that has no lock.
    sed -E -e 's/\<weak (var|let)\>/unowned(unsafe) \1/g' -e '/^import _MulticastCore$/d' \
        -e 's/!_runtime\(_multithreaded\)/false/g' "$source" \
        >"$work/sources/$source"
    compiled+=("$work/sources/$source")
done < <(find Sources/_MulticastCore Sources/Multicast -name '*.swift' | sort)
printf 'compiled: %d files of Sources/_MulticastCore and Sources/Multicast, and Tests/PlatformChecks/Embedded\n' \
    ${#compiled[@]}
printf 'left out (concurrency or reflection): %s\n' "${left_out[*]:-none}"
printf 'module _MulticastShims {\n    header "%s"\n    export *\n}\n' \
    "$root/Sources/_MulticastShims/include/_MulticastShims.h" >"$work/shims.modulemap"

failures=0
for target in "${targets[@]}"; do
    target_started=$SECONDS
    output="$(swiftc -target "$target" -enable-experimental-feature Embedded -wmo -parse-as-library \
        -swift-version 5 -enable-upcoming-feature ExistentialAny -D MULTICAST_INTERNAL_CHECKS -D DEBUG \
        -module-name Multicast -package-name multicast -I Tests/PlatformChecks/Glibc -Xcc -fmodule-map-file="$work/shims.modulemap" \
        -Xcc -ffreestanding -diagnostic-style llvm -emit-sil -o "$work/$target.sil" \
        "${compiled[@]}" Tests/PlatformChecks/Embedded/*.swift 2>&1 | sed "s|$work/sources/||g; s|$root/||g" ||
        true)"
    printf '%s\n' "$output" >"$work/$target.log"
    diagnostics="$(grep -E ': (error|warning): ' <<<"$output" || true)"
    restrictions="$(grep -Ec "$restriction_pattern" <<<"$diagnostics" || true)"
    faults="$(grep -Ev "$restriction_pattern|$control_pattern" <<<"$diagnostics" || true)"
    elapsed=$((SECONDS - target_started))
    if ! grep -Eq "$control_pattern" <<<"$diagnostics"; then
        printf 'FAIL %s: the control was not rejected, so the target is not 32-bit or the compile stopped early:\n' \
            "$target"
        printf '%s\n' "$diagnostics" | sed 's/^/    /'
        failures=$((failures + 1))
    elif [[ -n "$faults" ]] || grep -q 'Stack dump' <<<"$output"; then
        printf 'FAIL %s (%d s), the compiler'"'"'s whole output in %s:\n' "$target" "$elapsed" "$work/$target.log"
        printf '%s\n' "${faults:-$output}" | sed 's/^/    /'
        failures=$((failures + 1))
    else
        printf 'ok   %s: no error or warning (%d set aside as Embedded restrictions); control rejected (%d s)\n' \
            "$target" "$restrictions" "$elapsed"
    fi
done

printf '%d of %d 32-bit targets compiled in %d s\n' $((${#targets[@]} - failures)) ${#targets[@]} \
    $((SECONDS - started))
[[ $failures -eq 0 ]]
