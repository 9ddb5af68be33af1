#!/usr/bin/env bash
# Type-checks the library (`_MulticastCore`, `Multicast`) for WebAssembly (WASI, with and without threads),
# Android and Windows, on a machine that has none of their SDKs, and fails on any error or warning; compiles the
# C shims (`_MulticastShims`) for each with clang.
#
# How: as Scripts/check-apple-platforms.sh does, against a standard library rebuilt for each triple from the
# toolchain's Linux interfaces (Scripts/stdlib-for-triple.sh), so that each platform's conditions (`os(...)`,
# `canImport(...)`, `_runtime(_multithreaded)`) choose the code that its build would compile. The platform
# branches compile against stand-ins in Tests/PlatformChecks that declare, with the types and nullability of the
# headers they name, what those branches use: WinSDK (SRWLOCK), Android (bionic's pthread mutex), wasi_pthread
# (wasi-libc's pthread mutex, WebAssembly with threads). The shims' C file compiles against the same stand-ins'
# <time.h> or <windows.h> (WASILibc for both WASI triples). The sources go through SIL diagnostics (-emit-sil),
# with the settings Package.swift gives every target and the internal checks compiled in.
#
# Two checks show that the check is real:
#   - a control, Tests/PlatformChecks/OtherPlatforms/Control.swift, must fail on each triple with the one error
#     of the branch that the triple's conditions choose, and no other (a missing stand-in would add one);
#   - `--self-test` plants a break in the lock's branch of each platform (a call the stand-in does not declare, or
#     a wrong type) in a copy of the sources, and fails unless the check fails on each triple that compiles that
#     branch (the check without a break passing on every triple is the other half).
#
# What it does not cover: nothing is linked or run; the stand-ins are not the SDKs; `Int` is 64-bit even on
# wasm32, as the Linux interface spells it (Scripts/check-32-bit.sh compiles the library for wasm32 with a 32-bit
# `Int`); the test tools and tests are not compiled.
#
# Usage: Scripts/check-other-platforms.sh [triple ...]   (no arguments: every triple below)
#        Scripts/check-other-platforms.sh --self-test
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS

# Each triple, with the stand-in folders its Swift code compiles against and the folder of its C headers.
# Android: API level 28, the default of Swift's SDK for Android. WASI: wasip1 without threads, which Swift's SDK
# spells wasm32-unknown-wasi, and with them.
all_triples=(
    wasm32-unknown-wasi
    wasm32-unknown-wasip1-threads
    aarch64-unknown-linux-android28
    x86_64-unknown-windows-msvc
)
stand_ins() {
    case "$1" in
    wasm32-unknown-wasi) ;;
    wasm32-unknown-wasip1-threads) echo wasi_pthread ;;
    *-android*) echo Android ;;
    *-windows-*) echo WinSDK ;;
    esac
}
c_headers() {
    case "$1" in
    wasm32-*) echo WASILibc ;;
    *-android*) echo Android ;;
    *-windows-*) echo WinSDK ;;
    esac
}
# The control's one error on each triple: the branch that the triple's conditions choose.
control_error() {
    case "$1" in
    wasm32-unknown-wasi) echo 'control: one thread, no lock' ;;
    wasm32-unknown-wasip1-threads) echo 'control: wasi_pthread' ;;
    *-android*) echo 'control: Android' ;;
    *-windows-*) echo 'control: WinSDK' ;;
    esac
}

self_test=false
if [[ "${1:-}" == --self-test ]]; then
    self_test=true
    shift
fi
if [[ $# -gt 0 ]]; then triples=("$@"); else triples=("${all_triples[@]}"); fi

# What Package.swift gives every Swift target, and the internal checks that CI's builds compile in.
swift_settings=(-swift-version 6 -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature MemberImportVisibility -D MULTICAST_INTERNAL_CHECKS -D DEBUG -Onone)

source Scripts/stdlib-for-triple.sh
work=".build/other-platforms"
rm -rf "$work"
mkdir -p "$work"
printf 'module _MulticastShims {\n    header "%s"\n    export *\n}\n' \
    "$root/Sources/_MulticastShims/include/_MulticastShims.h" >"$work/shims.modulemap"
build_stdlibs "${triples[@]}"

# check TRIPLE SOURCES: the library in folder SOURCES (a copy of the package's Sources) for TRIPLE: prints what
# failed, and fails, on any error or warning, in the Swift modules or the C shims.
check() {
    local triple="$1" sources="$2" out="$work/$1" stand_in output status=0
    rm -rf "$out"
    mkdir -p "$out"
    local common=(-target "$triple" -I "$stdlib_cache/$triple" -resource-dir "$stdlib_resources" -Xcc -ffreestanding
        -Xfrontend -disable-implicit-string-processing-module-import
        -Xcc -fmodule-map-file="$work/shims.modulemap" -package-name multicast -parse-as-library -wmo
        -diagnostic-style llvm)
    for stand_in in $(stand_ins "$triple"); do common+=(-I "Tests/PlatformChecks/$stand_in"); done
    # compile NAME: SIL diagnostics for module NAME; its .swiftmodule goes to $out for the next. The SIL goes to
    # a file, never to /dev/null (see Scripts/check-apple-platforms.sh).
    compile() {
        local files
        mapfile -t files < <(find "$sources/$1" -name '*.swift' | sort)
        swiftc "${common[@]}" "${swift_settings[@]}" -I "$out" -module-name "$1" \
            -emit-module -emit-module-path "$out/$1.swiftmodule" -emit-sil -o "$out/$1.sil" "${files[@]}" 2>&1
    }
    # The one warning that is not the code's: the compiler finds no C library for the triple, as no SDK is here.
    output="$(compile _MulticastCore && compile Multicast)" || status=1
    output="$(grep -v "warning: libc not found for '$triple'" <<<"$output" || true)"
    # The shims' C file, as SwiftPM compiles it, with every warning an error.
    output+="$(clang -target "$triple" -ffreestanding -nostdlibinc -isystem "Tests/PlatformChecks/$(c_headers "$triple")" \
        -I "$sources/_MulticastShims/include" -Wall -Wextra -Werror -c "$sources/_MulticastShims/shims.c" \
        -o "$out/shims.o" 2>&1)" || status=1
    if [[ $status -eq 0 ]] && grep -q 'warning:' <<<"$output"; then status=1; fi
    [[ $status -eq 0 ]] || printf '%s\n' "$output" | sed "s|$root/||g; s|^|    |"
    return $status
}

# control TRIPLE: prints the control's errors on TRIPLE; fails unless there is exactly the one expected.
control() {
    local triple="$1" output errors stand_in
    local flags=(-target "$triple" -I "$stdlib_cache/$triple" -resource-dir "$stdlib_resources" -Xcc -ffreestanding
        -Xfrontend -disable-implicit-string-processing-module-import -parse-as-library -diagnostic-style llvm)
    for stand_in in $(stand_ins "$triple"); do flags+=(-I "Tests/PlatformChecks/$stand_in"); done
    output="$(swiftc "${flags[@]}" "${swift_settings[@]}" -module-name Control -typecheck \
        Tests/PlatformChecks/OtherPlatforms/Control.swift 2>&1 || true)"
    errors="$(grep -E ': error: ' <<<"$output" || true)"
    printf '%s\n' "$errors"
    [[ $(grep -c . <<<"$errors") -eq 1 ]] && grep -qF "error: $(control_error "$triple")" <<<"$errors"
}

if ! $self_test; then
    failures=0
    for triple in "${triples[@]}"; do
        triple_started=$SECONDS
        if [[ ! -f "$stdlib_cache/$triple/done" ]]; then
            printf 'FAIL %s: the standard library did not build:\n' "$triple"
            tail -20 "$stdlib_cache/$triple.log" | sed 's/^/    /'
            failures=$((failures + 1))
            continue
        fi
        if ! report="$(check "$triple" Sources)"; then
            printf 'FAIL %s: _MulticastCore, Multicast and the C shims (%d s):\n%s\n' "$triple" \
                $((SECONDS - triple_started)) "$report"
            failures=$((failures + 1))
        elif ! control_errors="$(control "$triple")"; then
            printf 'FAIL %s: the control did not fail with "%s" alone, so the check did not compile what %s does:\n' \
                "$triple" "$(control_error "$triple")" "$triple"
            printf '%s\n' "${control_errors:-(it compiled)}" | sed 's/^/    /'
            failures=$((failures + 1))
        else
            printf 'ok   %s: _MulticastCore, Multicast and the C shims, no error or warning; control rejected: "%s" (%d s)\n' \
                "$triple" "$(control_error "$triple")" $((SECONDS - triple_started))
        fi
    done
    printf '%d of %d triples type-checked in %d s\n' $((${#triples[@]} - failures)) ${#triples[@]} \
        $((SECONDS - started))
    [[ $failures -eq 0 ]]
    exit
fi

# The self-test: for each platform, a break in its lock branch, planted with a Perl substitution in a copy of
# the sources; the check must fail on each triple named.
lock=_MulticastCore/Lock.swift
breaks=(
    # WASI without threads: the lock that does nothing takes a mutex.
    'wasm32-unknown-wasi' 's/(#elseif !_runtime\(_multithreaded\)\n        \/\/ One thread: nothing to exclude\.)/$1\n        pthread_mutex_lock(primitive)/'
    # WASI with threads and Android: the pthread branch takes the lock with a wrong type.
    'wasm32-unknown-wasip1-threads aarch64-unknown-linux-android28' 's/let error = unsafe pthread_mutex_lock\(primitive\)/let error = unsafe pthread_mutex_lock(primitive.pointee)/'
    # Windows: the shared acquire, which the SDK has but the lock must not use, and the stand-in does not declare.
    'x86_64-unknown-windows-msvc' 's/AcquireSRWLockExclusive\(primitive\)/AcquireSRWLockShared(primitive)/'
)
failures=0
for ((index = 0; index < ${#breaks[@]}; index += 2)); do
    read -r -a broken <<<"${breaks[index]}"
    copy="$work/planted"
    rm -rf "$copy"
    cp -R Sources "$copy"
    perl -0pi -e "${breaks[index + 1]}" "$copy/$lock"
    if cmp -s "Sources/$lock" "$copy/$lock"; then
        echo "FAIL the planted break for ${broken[*]} no longer applies to Sources/$lock: change it in $0"
        failures=$((failures + 1))
        continue
    fi
    for triple in "${broken[@]}"; do
        [[ " ${triples[*]} " == *" $triple "* ]] || continue
        if check "$triple" "$copy" >"$work/planted.out" 2>&1; then
            printf 'FAIL a break planted in the lock branch of %s: the check passed\n' "$triple"
            failures=$((failures + 1))
        else
            printf 'ok   a break planted in the lock branch of %s: the check fails, with:\n' "$triple"
            grep -m1 'error:' "$work/planted.out" | sed 's/^ *//; s/^/    /'
        fi
    done
done
printf 'self-test: %d planted breaks passed the check, in %d s\n' $failures $((SECONDS - started))
[[ $failures -eq 0 ]]
