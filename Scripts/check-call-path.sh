#!/usr/bin/env bash
# Checks that the call path stays cheap in an unoptimized build, as "Writing the call path" in CONTRIBUTING.md asks:
# that no generic standard-library function runs there, no witness table is looked up and no metadata is made.
#
# What it reads: the machine code that an app's debug build runs. It builds `Multicast` as SwiftPM builds it for an
# app's debug build (debug, without the internal checks, in a build folder of its own), compiles the client
# Tests/CallPath/main.swift with `swiftc -Onone` against it, links the two, and disassembles the program. The roots:
# the client's functions that call `call` (inlined there, with the pass's `next(keeping:)`, `lend` and the rest),
# and `add` (weak, strong and owned: `add(_:ownedBy:)`), `remove` and `contains`, inlined there as far as reading
# the delegate's bits, and `remove(ownedBy:)` and `delegate(ownedBy:)`, which the client calls; the functions of
# Multicast that these call (`_add`, `_remove`, `_contains`, `remove(ownedBy:)`, `delegate(ownedBy:)`, each with the
# core inlined into it) are followed. For each, it lists every call the machine code makes (direct, through the
# PLT, or indirect), and every closure of the library that the code passes on, and classifies each
# (Scripts/call-path.py):
#
# - ok: reference counting and weak loads, the lock, the shims' atomics, memcpy and memset, the closure given to
#   `call`, a specialization that the standard library ships, the error path of a throwing body, the library's
#   out-of-line functions that run rarely (growing, compacting, reclaiming, diagnostics), listed with the reason in
#   call-path.py's OUT_OF_LINE, and, in `delegate(ownedBy:)`, which returns a copy of a delegate of a type it knows
#   by its metadata, that copy's value witnesses and its `Optional`'s metadata (call-path.py's RETURNS_A_COPY);
# - followed: another function of the library (not inlined, or a closure it passes on), whose calls are listed and
#   classified the same way;
# - FAIL: a standard-library function (generic, or not on the short allow-list of non-generic ones), a witness
#   table looked up (`swift_getWitnessTable`, a lazy witness table accessor, a protocol witness thunk), metadata
#   made or looked up (`swift_getGenericMetadata`, a metadata accessor, `__swift_instantiateConcreteTypeFromMangled
#   Name`), an indirect call (a value witness), an `==` (a call, where a `switch` makes none), and any runtime or
#   other function on no allow-list. Exclusivity checks (`swift_beginAccess`) fail too: the core keeps its registry
#   behind a pointer held in a constant so that no access is checked at run time, and a new `var` of a class on the
#   path would bring one per access.
#
# A call from which the function cannot return (a precondition's message and `_assertionFailure`, `_lockFailed`, a
# refusal) is on a failure path: it is counted, not checked.
#
# What it does not cover: which branch runs (a generic call on a branch that is rarely taken fails like any other:
# move the branch out of line, and list it in OUT_OF_LINE); the optimized build (the benchmark measures it); the
# cost of what is allowed (how many retains: the benchmark's callgrind counts); other platforms' code (the Darwin
# and Windows branches of the lock; the Objective-C runtime's `#if` branches); the delegate's closure itself, which
# is user code. Nor can it name the source line of a call: code inlined from another module carries no line in a
# debug build's line table, so it names the function and what it calls.
#
# The build of the library is incremental, and SwiftPM does not rebuild Multicast when only the body of an
# inlinable function of the core changed: a hash of the library's sources, kept beside the build, tells when they
# changed since it was made, and then Multicast's sources are touched first (see analyse()). About 5 s with the
# library's build in .build/call-path warm, 10 s after a change of the core, 20 s cold; `--self-test` about 100 s
# cold, 60 s with its build in .build/call-path-check warm (a build of a scratch clone, then one per planted break,
# each incremental in the folder of the one before: the self-test fails if a planted break of the core is not
# built).
#
# Usage: Scripts/check-call-path.sh               check the working tree (what CI runs)
#        Scripts/check-call-path.sh --self-test   plants breaks of the rules, each in a scratch clone of HEAD, and
#                                                 fails unless the check names each one
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS
work="$root/.build/call-path-check"
toolchain="$(dirname "$(readlink -f "$(command -v swiftc)")")"
client="$root/Tests/CallPath/main.swift"

# The roots, as `label=function`, each function by its simplified demangling.
roots=(
    "call, inlined into the client (body throws nothing)=callEach(_:)"
    "call, inlined into the client (body throws Stop)=callEachThrowing(_:)"
    "call, inlined into the client (a class's multicast)=callEachScreen(_:)"
    "add, weak, inlined into the client=addWeak(_:_:)"
    "add, strong, inlined into the client=addStrong(_:_:)"
    "add, inlined into the client (a class's multicast)=addScreen(_:_:)"
    "add, owned, inlined into the client=addOwned(_:_:_:)"
    "remove, inlined into the client=removeOne(_:_:)"
    "remove(ownedBy:), called from the client=removeOwned(_:_:)"
    "delegate(ownedBy:), called from the client=delegateOwned(_:_:)"
    "contains, inlined into the client=containsOne(_:_:)"
)

# Builds the library of the package in $1 in the build folder $2, and the client against it, in the folder $3;
# then analyses them, writing the table to $3/table.txt and the forbidden calls to $3/failures.txt. Fails if any.
analyse() {
    local package="$1" build="$2" out="$3" bin stamp sum
    mkdir -p "$out" "$build"
    # SwiftPM does not rebuild a module when only the body of an inlinable function of a module it imports changed
    # (see CONTRIBUTING.md), and Multicast's objects and interface hold the core's inlined bodies: when the
    # library's sources changed since the last build in $build, Multicast's sources are touched first.
    stamp="$build/call-path-sources.sum"
    sum=$(cd "$package" && find Sources/_MulticastShims Sources/_MulticastCore Sources/Multicast -type f \
        \( -name '*.swift' -o -name '*.h' -o -name '*.c' \) | LC_ALL=C sort | xargs sha256sum | sha256sum)
    if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$sum" ]]; then
        find "$package/Sources/Multicast" -name '*.swift' -exec touch {} +
    fi
    # As SwiftPM builds the library for an app's debug build: no internal checks, which add calls.
    if ! env -u MULTICAST_INTERNAL_CHECKS swift build --package-path "$package" --build-path "$build" \
        --target Multicast >"$out/build.log" 2>&1; then
        cat "$out/build.log" >&2
        echo "error: the library of $package does not build" >&2
        return 2
    fi
    echo "$sum" >"$stamp"
    bin=$(swift build --package-path "$package" --build-path "$build" --show-bin-path)
    # As SwiftPM compiles an app's code in a debug build: -Onone, DEBUG.
    swiftc -Onone -g -D DEBUG -swift-version 6 -module-name Client -I "$bin/Modules" \
        -Xcc "-fmodule-map-file=$bin/_MulticastShims.build/module.modulemap" -module-cache-path "$out/module-cache" \
        "$client" "$bin/_MulticastShims.build/"*.o "$bin/_MulticastCore.build/"*.o "$bin/Multicast.build/"*.o \
        -o "$out/client"
    # The symbol table (-t) too: call-path.py reads each function's size from it, so that code after a function
    # that has no symbol of its own (a private function's) is not taken for the function's.
    "$toolchain/llvm-objdump" -t -d --no-show-raw-insn "$out/client" >"$out/client.s"
    grep -o '<[^<>]*>' "$out/client.s" | sed 's/^<//; s/>$//; s/+0x[0-9a-f]*$//; s/@plt$//' | sort -u \
        >"$out/symbols.txt"
    swift demangle --simplified <"$out/symbols.txt" | paste "$out/symbols.txt" - >"$out/demangled.txt"
    python3 "$root/Scripts/call-path.py" "$out/client.s" "$out/demangled.txt" "$out/failures.txt" "${roots[@]}" \
        >"$out/table.txt"
}

check() {
    local status=0
    analyse "$root" "$root/.build/call-path" "$work/current" || status=$?
    cat "$work/current/table.txt"
    [[ $status -eq 0 ]] || exit 1
    echo "call path: no generic call, witness table or metadata in an unoptimized build ($((SECONDS - started)) s)"
}

# A clone of HEAD in $work/scratch, reused between runs so that its build is incremental.
scratch_clone() {
    local scratch="$work/scratch"
    if [[ ! -d "$scratch/.git" ]]; then
        rm -rf "$scratch"
        git clone -q --shared --no-checkout "$root" "$scratch"
    fi
    git -C "$scratch" fetch -q "$root" HEAD
    git -C "$scratch" checkout -q -f --detach FETCH_HEAD
    git -C "$scratch" clean -q -fdx
    echo "$scratch"
}

# Analyses the scratch clone as it is into $work/$1, in the build folder of the analyses before it: a planted break
# of the core is found only if analyse() rebuilds what inlines it.
analyse_scratch() {
    rm -rf "${work:?}/$1"
    analyse "$work/scratch" "$work/scratch-build" "$work/$1" >/dev/null 2>&1 || true
    [[ -f "$work/$1/failures.txt" ]] || { cat "$work/$1/build.log" >&2; echo "error: no analysis of $1" >&2; exit 1; }
}

# Plants a break in the scratch clone: $1 names it, $2 is the file, $3 a Perl substitution that must change it,
# $4 the root that must fail and $5 what it must be found calling, a pattern of the failures' lines. Fails unless
# the check fails with a forbidden call there that it does not find without the break.
plant() {
    local name="$1" file="$2" substitution="$3" function="$4" expected="$5" scratch="$work/scratch"
    git -C "$scratch" checkout -q -f "$file"
    perl -0pi -e "$substitution" "$scratch/$file"
    if git -C "$scratch" diff --quiet; then
        echo "error: the planted break ($name) no longer applies to $file: change it in $0" >&2
        exit 1
    fi
    analyse_scratch planted
    git -C "$scratch" checkout -q -f "$file"
    local new
    new=$(grep -Fxv -f "$work/baseline/failures.txt" "$work/planted/failures.txt" | grep -F -- "$function |" |
        grep -E -- "$expected" || true)
    if [[ -z "$new" ]]; then
        cat "$work/planted/table.txt"
        echo "error: the check did not find the planted break ($name) in $function: no new call matching" \
            "'$expected'" >&2
        exit 1
    fi
    echo "planted break ($name): the check fails, with forbidden calls it did not find without it:"
    awk -F' [|] ' '{ print "    " $2 " calls " $3 }' <<<"$new"
}

self_test() {
    scratch_clone >/dev/null
    analyse_scratch baseline
    echo "HEAD, without a planted break: $(wc -l <"$work/baseline/failures.txt") forbidden calls"
    plant '`for _ in [0] {}` in the registry'"'"'s remove' Sources/_MulticastCore/Registry.swift \
        's/(mutating func remove\(_ object: [^\n]*\{\n)/$1        for _ in [0] {}\n/' \
        "removeOne(_:_:)" 'IndexingIterator|makeIterator'
    plant '`isEmpty` for a nil check in the deferred release'"'"'s collect' Sources/_MulticastCore/DeferredRelease.swift \
        's/if retired != nil \{\n(\s*)freeUnreadRetired/if retired?.isEmpty == false {\n$1freeUnreadRetired/' \
        "removeOne(_:_:)" 'isEmpty'
    plant '`==` for a `switch` in the deferred release'"'"'s collect' Sources/_MulticastCore/DeferredRelease.swift \
        's/switch (current\.collectNowOrByLastReader\(\)) \{\n[^}]*\}/guard $1 == .now else {return}/' \
        "removeOne(_:_:)" '=='
    plant 'an array made and asked `isEmpty` per delegate in the pass'"'"'s `next`' Sources/_MulticastCore/Pass.swift \
        's/(\n            position \+= 1\n)/$1            _ = [position].isEmpty\n/' \
        "callEach(_:)" 'isEmpty|allocateUninitializedArray'
    echo "self-test: the check names each planted break ($((SECONDS - started)) s)"
}

case "${1:-}" in
"") check ;;
--self-test) self_test ;;
*) sed -n 's/^# Usage: //p; s/^#        //p' "$0" >&2; exit 2 ;;
esac
