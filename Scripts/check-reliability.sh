#!/usr/bin/env bash
# The long reliability checks: every test under the thread sanitizer (model-based fuzzing and concurrency
# stress included), with line coverage of the library (Sources/Multicast, Sources/_MulticastCore) read from the
# same run; then the fuzzing and stress checks of `MulticastStress` under valgrind memcheck and the address
# sanitizer. Prints the figures; exits non-zero on any failure; each test run ends with "LABEL: N passed,
# N failed", read from the runner's xUnit output. `.ci/run` calls it; run it locally the same way:
# `bash Scripts/check-reliability.sh`.
#
# Sizes (defaults in brackets): MULTICAST_FUZZ_SEED [1,2,3,4,5], MULTICAST_FUZZ_OPS per seed [20000],
# MULTICAST_STRESS_THREADS [4], MULTICAST_STRESS_OPS per thread [20000] for the tests (the thread sanitizer
# slows them about fourfold), ASAN_STRESS_OPS [50000], VALGRIND_FUZZ_SEED [1,2], VALGRIND_STRESS_OPS [10000]
# (valgrind runs one thread at a time, about thirty times slower), MINIMUM_COVERAGE [95].
set -euo pipefail
cd "$(dirname "$0")/.."

export MULTICAST_FUZZ_SEED="${MULTICAST_FUZZ_SEED:-1,2,3,4,5}"
export MULTICAST_FUZZ_OPS="${MULTICAST_FUZZ_OPS:-20000}"
export MULTICAST_STRESS_THREADS="${MULTICAST_STRESS_THREADS:-4}"
export MULTICAST_STRESS_OPS="${MULTICAST_STRESS_OPS:-20000}"
ASAN_STRESS_OPS="${ASAN_STRESS_OPS:-50000}"
VALGRIND_FUZZ_SEED="${VALGRIND_FUZZ_SEED:-1,2}"
VALGRIND_STRESS_OPS="${VALGRIND_STRESS_OPS:-10000}"
MINIMUM_COVERAGE="${MINIMUM_COVERAGE:-95}"
STRESS_ARGS=(--fuzz-ops "$MULTICAST_FUZZ_OPS" --threads "$MULTICAST_STRESS_THREADS")

started=$SECONDS
step() { printf '\n=== %s (at %d s)\n' "$*" $((SECONDS - started)); }
summary=()
note() { summary+=("$*"); echo "$*"; }
log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT

step "every test under the thread sanitizer, fuzzing and stress included (${MULTICAST_STRESS_THREADS} threads x ${MULTICAST_STRESS_OPS} ops), with coverage"
tsan_status=0
TSAN_OPTIONS=halt_on_error=1 swift test --sanitize=thread --enable-code-coverage --build-path .build/tsan \
    --xunit-output "$log_dir/tsan.xml" >"$log_dir/tsan.log" 2>&1 || tsan_status=$?
if grep -q 'ThreadSanitizer' "$log_dir/tsan.log"; then
    echo "thread sanitizer reports:"; grep -A20 'ThreadSanitizer' "$log_dir/tsan.log" | head -60
fi
python3 Scripts/test-summary.py tsan "$log_dir/tsan.xml" || tsan_status=1
if [ "$tsan_status" -ne 0 ]; then tail -40 "$log_dir/tsan.log"; exit 1; fi
note "tsan: every test, fuzz seeds $MULTICAST_FUZZ_SEED x $MULTICAST_FUZZ_OPS ops, stress $MULTICAST_STRESS_THREADS" \
    "threads x $MULTICAST_STRESS_OPS ops: 0 reports"

step "coverage of the library (Multicast and _MulticastCore), from the same run"
toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
llvm_cov="$toolchain/llvm-cov"; [ -x "$llvm_cov" ] || llvm_cov=llvm-cov
profile="$(swift test --enable-code-coverage --sanitize=thread --build-path .build/tsan --show-codecov-path \
    | sed 's/[^/]*$//')default.profdata"
# Where SwiftPM put the test bundle, asked of SwiftPM with the build's flags: build systems put products in
# different folders (Swift Build, SwiftPM 6.4's default, in .build/tsan/out/Products/Debug-linux).
binary="$(ls -d "$(swift build --sanitize=thread --build-path .build/tsan --show-bin-path)"/*.xctest)"
# Two files are left out: the registry's internal checks, which CI compiles in and a user's build never has,
# and the refusals' messages. What in them stops the program runs only in an exit test's child process, which
# stops before it writes its coverage; the tests check each stop by its message.
ignored='(_MulticastCore/Registry\+Checks|MulticastDelegate\+Refusals)\.swift$'
"$llvm_cov" report "$binary" -instr-profile "$profile" -ignore-filename-regex "$ignored" "$PWD/Sources/Multicast" \
    "$PWD/Sources/_MulticastCore"
"$llvm_cov" export -summary-only "$binary" -instr-profile "$profile" -ignore-filename-regex "$ignored" \
    "$PWD/Sources/Multicast" "$PWD/Sources/_MulticastCore" >"$log_dir/coverage.json"
coverage="$(python3 -c 'import json, sys; print("%.2f" % json.load(open(sys.argv[1]))["data"][0]["totals"]["lines"]["percent"])' \
    "$log_dir/coverage.json")"
note "coverage: ${coverage}% of the lines of the library, Multicast and _MulticastCore (minimum ${MINIMUM_COVERAGE}%)"
python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)' "$coverage" "$MINIMUM_COVERAGE" \
    || { echo "coverage below ${MINIMUM_COVERAGE}%"; exit 1; }

step "valgrind memcheck on MulticastStress (release; fuzz seeds $VALGRIND_FUZZ_SEED, ${MULTICAST_STRESS_THREADS} threads x ${VALGRIND_STRESS_OPS} ops)"
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind (.ci/run does)"; exit 1; }
swift build -c release --product MulticastStress 2>&1 | tail -1  # with the internal checks, when .ci/run sets them
# A copy without debug information: valgrind 3.19 cannot read all of the DWARF 5 that Swift emits, and gives up on
# some binaries ("Possibly corrupted debuginfo file"). Its reports still name functions, from the symbol table.
strip -g -o "$log_dir/MulticastStress" "$(swift build -c release --show-bin-path)/MulticastStress"
valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --error-exitcode=9 "$log_dir/MulticastStress" "${STRESS_ARGS[@]}" --seeds "$VALGRIND_FUZZ_SEED" \
    --stress-ops "$VALGRIND_STRESS_OPS" >"$log_dir/valgrind.out" 2>"$log_dir/valgrind.log" \
    || { cat "$log_dir/valgrind.out"; tail -60 "$log_dir/valgrind.log"; exit 1; }
cat "$log_dir/valgrind.out"
grep -q 'ERROR SUMMARY: 0 errors' "$log_dir/valgrind.log" || { tail -60 "$log_dir/valgrind.log"; exit 1; }
grep -qE 'definitely lost: 0 bytes|All heap blocks were freed' "$log_dir/valgrind.log" || { tail -60 "$log_dir/valgrind.log"; exit 1; }
note "valgrind: $(grep -oE 'definitely lost: .*' "$log_dir/valgrind.log" || echo 'All heap blocks were freed')"
note "valgrind: $(grep -oE 'ERROR SUMMARY: .*' "$log_dir/valgrind.log")"

step "address sanitizer on MulticastStress (release; fuzz seeds $MULTICAST_FUZZ_SEED, ${MULTICAST_STRESS_THREADS} threads x ${ASAN_STRESS_OPS} ops)"
swift build -c release --sanitize=address --product MulticastStress --build-path .build/asan 2>&1 | tail -1
"$(swift build -c release --sanitize=address --build-path .build/asan --show-bin-path)/MulticastStress" "${STRESS_ARGS[@]}" --seeds "$MULTICAST_FUZZ_SEED" --stress-ops "$ASAN_STRESS_OPS" \
    2>&1 | tee "$log_dir/asan.log"
if grep -qE 'AddressSanitizer|LeakSanitizer' "$log_dir/asan.log"; then exit 1; fi
note "asan: MulticastStress, leak detection on: 0 reports"

step "figures"
printf '%s\n' "${summary[@]}"
grep -hE '^(fuzz|stress):' "$log_dir/valgrind.out" | sed 's/^/valgrind run: /' || true
grep -hE '^(fuzz|stress):' "$log_dir/asan.log" | sed 's/^/asan run: /' || true
echo "reliability checks passed in $((SECONDS - started)) s"
