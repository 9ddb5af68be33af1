#!/usr/bin/env bash
# Checks the model of Multicast's concurrency protocol, Verification/Multicast.pml, with Spin:
#   0. first, in a second: that the tables of Verification/CheckingThreadSafety.md that map the model's steps to the
#      library's functions name only what the model and Sources declare (Scripts/model-table.py);
#   1. generates the verifier (spin -a) and compiles it (gcc), once: the bug variants are chosen at run time;
#   2. searches every state of the model as the library has it, and fails on any error, on a search that did
#      not complete (depth or memory limit reached), or on a path of the protocol that the bounds did not reach;
#   3. runs each bug variant with only the property it breaks switched on, and fails if one is accepted or
#      rejected for another reason; it shows the last steps of each counterexample.
# Prints the states, depth, memory and time of each search. `.ci/run` calls it; run it locally the same way:
# `bash Scripts/check-model.sh`. Needs spin (Debian package `spin`) and gcc, but for the table's check.
#
# Usage: Scripts/check-model.sh              the table, then the search and the bug variants (what CI runs; 8 to 10
#                                            minutes)
#        Scripts/check-model.sh --table      the table alone (a second)
#        Scripts/check-model.sh --self-test  plants, one at a time in a scratch copy of the working tree, a renamed
#                                            method, a changed label, a renamed property and a renamed inline of
#                                            the model, and fails unless the table's check names each (seconds)
#
# Environment: MODEL_MEMORY_MB [8192], the memory limit of a search; MODEL_TRAILS, a directory that keeps each
# counterexample in full, one line per step of a thread in a function of the model (by default they are
# deleted with the temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."

MODEL_MEMORY_MB="${MODEL_MEMORY_MB:-8192}"
model=Verification/Multicast.pml
# A depth limit far above the model's (about 360 steps), so that reaching it means the model changed; pan
# reports it, and the check fails. 2^24 hash slots for the model's eighty million states.
PAN_FLAGS=(-m20000 -w24)

# The variants: the bug planted (a BUG_... of the model) and the property that must reject it; `deadlock` is
# pan's invalid end state, a thread blocked for good. Each property of the model is the target of one at least.
variants=(
    "REMOVE_SKIPS_CURRENT_MARK new_pass_calls_removed"
    "REMOVE_SKIPS_OLDER_MARKS removed_before_turn_called"
    "PASS_READS_COUNT_EACH_TURN added_during_pass_called"
    "ADD_REUSES_VACANCY called_out_of_order"
    "RECLAIM_BY_POSITION live_delegate_dropped"
    "PASS_SKIPS_VALIDATION storage_freed_while_read"
    "FREE_IGNORES_READERS storage_freed_while_read"
    "COMPACT_IN_PLACE_WHILE_READ storage_rewritten_while_read"
    "COLLECT_IGNORES_READERS reference_released_while_read"
    "MOVE_KEEPS_SOURCE_OWNING reference_released_twice"
    "NO_COLLECT_ON_LEAVE never_released"
    "NO_REINDEX registry_and_index_disagree"
    "GARBAGE_RELEASED_UNDER_LOCK deadlock"
    "COMPACT_KEEPS_COLLECT_BIT collect_bit_left_set"
    "LEAVE_RELAXED happens_before"
    "READERS_LOAD_RELAXED happens_before"
    "READERS_FETCH_OR_RELAXED happens_before"
    "ENTRY_RELAXED happens_before"
    "COUNT_STORED_RELAXED happens_before"
    "DROP_WHILE_READ storage_rewritten_while_read"
    "DROP_IGNORES_OWNERSHIP live_delegate_dropped"
    "DROP_UNRELEASED registry_and_index_disagree"
    "PASS_CALLS_OWNED_AS_STRONG called_after_owner_died"
    "RECLAIM_RELEASES_OWNED reference_released_while_read"
    "OWNED_PENDS_AS_WEAK never_released"
    "NO_RECLAIM_AT_PASS_END ended_registration_kept"
    "RECLAIM_AFTER_LEAVE storage_freed_while_read"
    "CLOSE_AFTER_CHECK storage_rewritten_while_read"
    "RETIRE_BEFORE_SWAP storage_freed_while_read"
    "PUBLISH_BEFORE_FILL registered_delegate_missed"
    "COUNT_LOAD_RELAXED happens_before"
    "GATE_OPENED_RELAXED happens_before"
)

started=$SECONDS
step() { printf '\n=== %s (at %d s)\n' "$*" $((SECONDS - started)); }
fail() { echo "error: $*" >&2; exit 1; }

source Scripts/plant-in-copy.sh

self_test() {
    local check=Scripts/model-table.py
    copy_for_planting "$check" Verification Sources/_MulticastCore Sources/Multicast Sources/_MulticastShims
    plant "$check" "a renamed method of the core" Sources/_MulticastCore/Core.swift \
        's/(\n    func )enterPass\(\)/$1enterPassAtTheGate()/' '`_Core.enterPass()`'
    plant "$check" "a changed argument label" Sources/_MulticastCore/Readers.swift \
        's/(static func isUnread\()_ word/$1in word/' '`_Readers.isUnread(_:)`'
    plant "$check" "a renamed property" Sources/_MulticastCore/Slot.swift \
        's/(\n    var )liveness(: _Liveness)/$1state$2/' '`_Slot.liveness`'
    plant "$check" "a renamed inline of the model" Verification/Multicast.pml \
        's/\ninline Registry_find\(/\ninline Registry_lookUp(/' '`Registry_find`'
    echo "self-test: the table's check names each planted break ($((SECONDS - started)) s)"
}

case "${1:-}" in
"") ;;
--table) python3 Scripts/model-table.py; exit ;;
--self-test) self_test; exit ;;
*) sed -n 's/^# Usage: //p; s/^#        //p' "$0" >&2; exit 2 ;;
esac

step "the tables that map the model's steps to the library name only what exists"
python3 Scripts/model-table.py || fail "update the tables of Verification/CheckingThreadSafety.md"

for tool in spin gcc; do
    command -v "$tool" >/dev/null || fail "$tool is missing: apt-get install $tool (.ci/run installs spin)"
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
trails="${MODEL_TRAILS:-$work/trails}"
mkdir -p "$trails"
trails="$(cd "$trails" && pwd)"   # the script moves into $work below

step "the model's bug variants and properties agree with this script"
# Bugs: `#define BUG_NAME number /* what */`; properties: the hidden bytes declared before the bug variants.
bugs="$(sed -n 's/^#define BUG_\([A-Z_]*\) .*/\1/p' "$model")"
properties="$(sed -n '/---- Properties/,/---- Bug variants/s/^hidden byte \([a-z_]*\);.*/\1/p' "$model" |
    grep -vx model_bound_exceeded)"
listed_bugs="$(printf '%s\n' "${variants[@]}" | cut -d' ' -f1)"
targets="$(printf '%s\n' "${variants[@]}" | cut -d' ' -f2)"
[[ "$(sort <<<"$bugs")" == "$(sort <<<"$listed_bugs")" ]] ||
    fail "the variants listed here are not the model's BUG_ defines: $(echo $bugs)"
for property in $properties deadlock; do
    grep -qx "$property" <<<"$targets" || fail "no bug variant targets the property $property"
done
echo "$(wc -w <<<"$properties") properties and deadlock; $(wc -w <<<"$bugs") bug variants;" \
    "each property is the target of one at least"

step "generate and compile the verifier"
cp "$model" "$work/"
cd "$work"
spin -V
spin -a Multicast.pml >spin.log 2>&1 || { cat spin.log; fail "spin -a failed"; }
# -O2: the generated verifier compiles in about a minute, for a search that takes about half the time it takes
# unoptimized. -DCOLLAPSE stores each state compressed, losing nothing: about a seventh of the memory.
gcc -O2 -DSAFETY -DCOLLAPSE -DMEMLIM="$MODEL_MEMORY_MB" -o pan pan.c 2>gcc.log || { cat gcc.log; fail "gcc failed"; }
echo "pan compiled: safety search (assertions and invalid end states), states compressed without loss," \
    "memory limit ${MODEL_MEMORY_MB} MB"

# figures LOG: states stored, depth, memory and time of the search in LOG.
figures() {
    local states depth memory seconds
    states="$(sed -n 's/^ *\([0-9][0-9e+.]*\) states, stored.*/\1/p' "$1")"
    depth="$(sed -n 's/.*depth reached \([0-9]*\),.*/\1/p' "$1")"
    memory="$(sed -n 's/^ *\([0-9.]*\)[[:space:]]*total actual memory usage.*/\1/p' "$1")"
    seconds="$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$1")"
    echo "$states states stored, depth $depth, ${memory} MB, ${seconds} s"
}

step "exhaustive search of the model"
./pan "${PAN_FLAGS[@]}" >search.log 2>&1 || true
problems=()
grep -q 'Full statespace search for:' search.log || problems+=("not a full state-space search")
grep -q 'errors: 0$' search.log || problems+=("errors found")
grep -q 'max search depth too small' search.log && problems+=("depth limit reached: the search did not complete")
grep -qE 'MEMLIM|out of memory|Search not completed' search.log &&
    problems+=("memory limit reached: the search did not complete")
grep -q '^path .*: NOT reached' search.log && problems+=("paths of the protocol that the bounds did not reach")
if ((${#problems[@]} > 0)); then
    grep -vE '^[[:space:]]+Multicast.pml:' search.log | head -80
    fail "$(IFS=';'; echo "${problems[*]}")"
fi
grep -E '^(Full statespace|State-vector|[[:space:]]+(assertion violations|invalid end states))' search.log
echo "paths reached: $(grep -c '^path .*: reached' search.log) of $(grep -c '^path ' search.log):" \
    "$(sed -n 's/^path \(.*\): reached/\1/p' search.log | paste -sd ' ')"
model_figures="$(figures search.log)"
echo "model: no error; $model_figures"

# The function of the model (an inline named after the library's function, or a thread) for each line.
awk '/^(inline|proctype) [A-Za-z_]+/ { name = $2; sub(/\(.*/, "", name) }
     /^init/ { name = "init" }
     { print NR, name }' Multicast.pml >lines.map

# counterexample BUG PROPERTY: the trail replayed, one line per step that changes thread or model function,
# then the error, which the step after the last one listed makes.
counterexample() {
    MODEL_BUG="$1" MODEL_PROPERTY="$2" ./pan -r -v >replay.log 2>&1 || true
    sed -nE 's/^ *([0-9]+): +proc +([0-9]+) \(([^)]*)\) +[^:]*:([0-9]+) .*/\1 \3(\2) \4/p' replay.log |
        awk 'NR == FNR { name[$1] = $2; next }
             { step = $2 " " ($3 == 0 ? "returns" : name[$3]); if (step != previous) print "  step " $1 ": " step
               previous = step }' lines.map -
    sed -n 's/^pan:1: \(.*\) (at depth \([0-9]*\))$/  step \2: \1/p' replay.log
}

step "bug variants: each must be rejected for its property, with a counterexample"
rejected=0
for variant in "${variants[@]}"; do
    read -r bug property <<<"$variant"
    number="$(sed -n "s/^#define BUG_$bug  *\([0-9]*\).*/\1/p" Multicast.pml)"
    what="$(sed -n "s/^#define BUG_$bug  *[0-9]* *\/\* \(.*\) \*\//\1/p" Multicast.pml)"
    only="$property"
    [[ "$property" == deadlock ]] && only=none   # every assertion off: only an invalid end state remains
    rm -f Multicast.pml.trail
    MODEL_BUG="$number" MODEL_PROPERTY="$only" ./pan "${PAN_FLAGS[@]}" -c1 >"variant.log" 2>&1 || true
    first="$(grep -m1 '^pan:1: ' variant.log || true)"
    if [[ "$property" == deadlock ]]; then
        expected='invalid end state'
    else
        expected="||$property) "
    fi
    if [[ -z "$first" || "$first" != *"$expected"* || ! -f Multicast.pml.trail ]]; then
        grep -vE '^[[:space:]]+Multicast.pml:' variant.log | head -40
        fail "the variant $bug ($what) was not rejected for $property: ${first:-no error found}"
    fi
    counterexample "$number" "$only" >"$trails/$bug.txt"
    printf 'rejected  %-29s %s\n' "$bug" "$what"
    printf '          %s: %s\n' "$property" "${first#pan:1: }"
    printf '          %s; counterexample of %s steps, ending:\n' "$(figures variant.log)" \
        "$(sed -n 's/.*(at depth \([0-9]*\))$/\1/p' <<<"$first")"
    tail -5 "$trails/$bug.txt"
    rejected=$((rejected + 1))
done

if [[ -n "${MODEL_TRAILS:-}" ]]; then
    echo "each counterexample, in full: $trails/BUG.txt"
else
    echo "MODEL_TRAILS=DIR keeps each counterexample, in full, in DIR/BUG.txt"
fi

step "figures"
echo "model: $model_figures; no error, every path reached"
echo "bug variants: $rejected of ${#variants[@]} rejected, each for its property"
echo "model checks passed in $((SECONDS - started)) s"
