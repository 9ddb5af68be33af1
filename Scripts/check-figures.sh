#!/usr/bin/env bash
# Holds the figures that users notice and README and Performance quote: counts, with callgrind, the instructions and
# heap allocations of each operation of `MulticastBenchmarks --figure` (a call per weak, strong and owned delegate;
# a call's fixed cost; a step of a `for in` loop; an add and a remove among 1,000; bulk registration in order and
# shuffled; a replacement; an event through `events(of:)`) in an optimized and an unoptimized build, and compares
# each with its threshold in Scripts/thresholds/{release,debug}.txt. It prints each figure beside its threshold, and
# fails if one has more instructions than its threshold allows (Scripts/figures.py states the tolerance, once) or
# any allocation more.
#
# How a figure is counted: the benchmark runs the operation COUNT times inside one function, `benchmark_measured`,
# around which callgrind writes its counts apart (`--dump-before`, `--dump-after`: what the figure sets up and tears
# down is not counted), on a copy stripped of its debug information (valgrind 3.19 cannot read DWARF 5); two runs
# with different COUNTs, whose difference is the operations alone, divided by what one is made of. Callgrind
# counts the same for the same binary and inputs, whatever else the machine does.
#
# A threshold changes only in a commit that says why: `--update` measures both builds and writes both files, with
# the toolchain they were measured with; against another toolchain the check fails until they are measured anew.
#
# Usage: Scripts/check-figures.sh              check both builds (what CI runs; about two minutes)
#        Scripts/check-figures.sh --update     measure both builds, and write the thresholds
#        Scripts/check-figures.sh --self-test  plants, one at a time in a scratch clone of HEAD, an extra weak load
#                                              per delegate, an allocation per call and a lock per delegate, and
#                                              fails unless the check fails on each (optimized build, call figures)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
started=$SECONDS
work="$root/.build/figures"
thresholds="$root/Scripts/thresholds"
mkdir -p "$work"

fail() { echo "error: $*" >&2; exit 1; }
command -v valgrind >/dev/null || fail "valgrind is missing: apt-get install valgrind (.ci/run installs it)"
toolchain="$(swift --version 2>/dev/null | head -n 1)"

# The repetitions of each figure's two runs: enough that the operations outweigh what a run sets up, few enough
# that callgrind runs each in about a second.
counts() {
    case "$1" in
    call.*.1000 | iterate.*) echo "10 20" ;;
    call.*) echo "10000 20000" ;;
    bulk.*) echo "2 4" ;;
    *) echo "2000 4000" ;;
    esac
}

# Builds the benchmark of the package in $1 in the build folder $2 with the configuration $3, as an app's build
# compiles Multicast (no internal checks); echoes the stripped program's path. SwiftPM does not rebuild a module when
# only the body of an inlinable function of a module it imports changed (see CONTRIBUTING.md): when the library's
# sources changed since the last build here, the importing targets' sources are touched first.
build() {
    local package="$1" build="$2" configuration="$3" stamp sum bin
    stamp="$build/figures-sources-$configuration.sum"
    sum=$(cat "$package"/Sources/_MulticastCore/*.swift "$package"/Sources/_MulticastCore/*/*.swift \
        "$package"/Sources/_MulticastShims/include/*.h "$package"/Sources/Multicast/*.swift \
        "$package"/Sources/Multicast/*/*.swift | sha256sum | cut -d' ' -f1)
    if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$sum" ]]; then
        touch "$package"/Sources/Multicast/*.swift "$package"/Sources/MulticastBenchmarks/*.swift
    fi
    if ! env -u MULTICAST_INTERNAL_CHECKS swift build --package-path "$package" --build-path "$build" \
        -c "$configuration" --product MulticastBenchmarks >"$work/build-$configuration.log" 2>&1; then
        cat "$work/build-$configuration.log" >&2
        fail "the benchmark of $package does not build ($configuration)"
    fi
    mkdir -p "$build"
    echo "$sum" >"$stamp"
    bin=$(swift build --package-path "$package" --build-path "$build" -c "$configuration" --show-bin-path)
    strip --strip-debug -o "$work/MulticastBenchmarks-$configuration" "$bin/MulticastBenchmarks"
    echo "$work/MulticastBenchmarks-$configuration"
}

# Counts the figures named $3... of the program $1 into the table $2: `NAME INSTRUCTIONS ALLOCATIONS UNIT` per
# operation, two callgrind runs at a time.
measure() {
    local program="$1" table="$2"
    shift 2
    local runs="$work/runs" figure ops unit low high
    rm -rf "$runs"
    mkdir -p "$runs"
    for figure in "$@"; do
        for count in $(counts "$figure"); do
            printf '%s %s\n' "$figure" "$count"
        done
    done | xargs -P 2 -n 2 sh -c 'valgrind --tool=callgrind --dump-before=benchmark_measured \
        --dump-after=benchmark_measured --callgrind-out-file="$0/$2.$3.out" "$1" --figure "$2" "$3" \
        >"$0/$2.$3.log" 2>&1 ||
        { cat "$0/$2.$3.log" >&2; exit 255; }' "$runs" "$program" || fail "a figure's run failed"
    : >"$table"
    for figure in "$@"; do
        read -r ops unit < <("$program" --figure --list | awk -v f="$figure" '$1 == f { print $2, $3 }')
        [[ -n "$ops" ]] || fail "the benchmark has no figure $figure"
        read -r low high < <(counts "$figure")
        python3 "$root/Scripts/figures.py" count "$runs/$figure.$low.out".* >"$runs/low"
        python3 "$root/Scripts/figures.py" count "$runs/$figure.$high.out".* >"$runs/high"
        paste "$runs/low" "$runs/high" | awk -v f="$figure" -v n=$((high - low)) -v ops="$ops" -v unit="$unit" \
            '{ printf "%s %.1f %.3f %s\n", f, ($3 - $1) / n / ops, ($4 - $2) / n / ops, unit }' >>"$table"
    done
}

# The figures of a program: every one its `--figure --list` names.
all_figures() {
    "$1" --figure --list | cut -d' ' -f1
}

check() {
    local status=0 configuration program
    for configuration in release debug; do
        program=$(build "$root" "$root/.build/benchmarks" "$configuration")
        [[ "$(sed -n 's/^# toolchain: //p' "$thresholds/$configuration.txt")" == "$toolchain" ]] ||
            fail "Scripts/thresholds/$configuration.txt was measured with another toolchain than $toolchain:" \
                "measure anew with $0 --update, and commit the thresholds with the reason"
        measure "$program" "$work/$configuration.txt" $(all_figures "$program")
        echo "--- $configuration build (thresholds: Scripts/thresholds/$configuration.txt)"
        python3 "$root/Scripts/figures.py" compare "$thresholds/$configuration.txt" "$work/$configuration.txt" ||
            status=1
    done
    [[ $status -eq 0 ]] || fail "a figure is over its threshold (figures in $work)"
    echo "figures: every one within its threshold, in both builds ($((SECONDS - started)) s)"
}

update() {
    local configuration program
    mkdir -p "$thresholds"
    for configuration in release debug; do
        program=$(build "$root" "$root/.build/benchmarks" "$configuration")
        measure "$program" "$work/$configuration.txt" $(all_figures "$program")
        {
            echo "# Thresholds of Scripts/check-figures.sh, $configuration build: NAME INSTRUCTIONS ALLOCATIONS, per the"
            echo "# unit that \`MulticastBenchmarks --figure --list\` gives. Written by \`check-figures.sh --update\`;"
            echo "# changed only in a commit that says why."
            echo "# toolchain: $toolchain"
            awk '{ print $1, $2, $3 }' "$work/$configuration.txt"
        } >"$thresholds/$configuration.txt"
        cat "$thresholds/$configuration.txt"
    done
}

# Plants a break in a scratch clone of HEAD: $1 names it, $2 is the file, $3 a Perl substitution that must change
# it. Fails unless the optimized build's call figures then fail the check.
plant() {
    local name="$1" file="$2" substitution="$3" scratch="$work/scratch" program
    git -C "$scratch" checkout -q -f "$file"
    perl -0pi -e "$substitution" "$scratch/$file"
    git -C "$scratch" diff --quiet && fail "the planted break ($name) no longer applies to $file: change it in $0"
    program=$(build "$scratch" "$work/scratch-build" release)
    git -C "$scratch" checkout -q -f "$file"
    measure "$program" "$work/planted.txt" $(all_figures "$program" | grep -E '^(call|iterate)\.')
    if python3 "$root/Scripts/figures.py" compare <(grep -E '^(call|iterate)\.|^#' "$thresholds/release.txt") \
        "$work/planted.txt" >"$work/planted.log" 2>&1; then
        cat "$work/planted.log"
        fail "the check did not fail with the planted break ($name)"
    fi
    echo "planted break ($name): the check fails:"
    grep '^error:' "$work/planted.log" | sed 's/^/    /'
}

self_test() {
    local scratch="$work/scratch"
    if [[ ! -d "$scratch/.git" ]]; then
        rm -rf "$scratch"
        git clone -q --shared --no-checkout "$root" "$scratch"
    fi
    git -C "$scratch" fetch -q "$root" HEAD
    git -C "$scratch" checkout -q -f --detach FETCH_HEAD
    git -C "$scratch" clean -q -fdx
    plant "a second weak load per weak delegate" Sources/_MulticastCore/Slot.swift \
        's/(if key\.holdsWeakReference \{\n)/$1            _fixLifetime(unsafe state.pointee.reference.object)\n/'
    plant "an allocation per call" Sources/_MulticastCore/Pass.swift \
        's/(package init\(_ core: _Core\) \{\n)/$1        unsafe UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8).deallocate()\n/'
    plant "the lock taken per delegate" Sources/_MulticastCore/Pass.swift \
        's/(            position \+= 1\n)/$1            unsafe core.lock.lock()\n            unsafe core.lock.unlock()\n/'
    echo "self-test: the check fails on each planted break ($((SECONDS - started)) s)"
}

case "${1:-}" in
"") check ;;
--update) update ;;
--self-test) self_test ;;
*) sed -n 's/^# Usage: //p; s/^#        //p' "$0" >&2; exit 2 ;;
esac
