#!/usr/bin/env bash
# The long reliability checks: every test under the thread sanitizer (model-based fuzzing and concurrency
# stress included), valgrind memcheck, the address sanitizer and line coverage of Sources/Multicast. Prints the
# figures; exits non-zero on any failure; each test run ends with "LABEL: N passed, N failed", read from the
# runner's xUnit output. `.ci/run` calls it; run it locally the same way: `bash Scripts/check-reliability.sh`.
#
# Sizes (defaults in brackets): MULTICAST_FUZZ_SEED [1,2,3,4,5], MULTICAST_FUZZ_OPS per seed [20000],
# MULTICAST_STRESS_THREADS [4], MULTICAST_STRESS_OPS per thread [50000], VALGRIND_STRESS_OPS [20000],
# MINIMUM_COVERAGE [95].
set -euo pipefail
cd "$(dirname "$0")/.."

export MULTICAST_FUZZ_SEED="${MULTICAST_FUZZ_SEED:-1,2,3,4,5}"
export MULTICAST_FUZZ_OPS="${MULTICAST_FUZZ_OPS:-20000}"
export MULTICAST_STRESS_THREADS="${MULTICAST_STRESS_THREADS:-4}"
export MULTICAST_STRESS_OPS="${MULTICAST_STRESS_OPS:-50000}"
VALGRIND_STRESS_OPS="${VALGRIND_STRESS_OPS:-20000}"
MINIMUM_COVERAGE="${MINIMUM_COVERAGE:-95}"
STRESS_ARGS=(--seeds "$MULTICAST_FUZZ_SEED" --fuzz-ops "$MULTICAST_FUZZ_OPS" --threads "$MULTICAST_STRESS_THREADS")

started=$SECONDS
step() { printf '\n=== %s (at %d s)\n' "$*" $((SECONDS - started)); }
summary=()
note() { summary+=("$*"); echo "$*"; }
log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT

step "every test under the thread sanitizer, fuzzing and stress included (${MULTICAST_STRESS_THREADS} threads x ${MULTICAST_STRESS_OPS} ops)"
tsan_status=0
TSAN_OPTIONS=halt_on_error=1 swift test --sanitize=thread --build-path .build/tsan \
    --xunit-output "$log_dir/tsan.xml" >"$log_dir/tsan.log" 2>&1 || tsan_status=$?
if grep -q 'ThreadSanitizer' "$log_dir/tsan.log"; then
    echo "thread sanitizer reports:"; grep -A20 'ThreadSanitizer' "$log_dir/tsan.log" | head -60
fi
python3 Scripts/test-summary.py tsan "$log_dir/tsan.xml" || tsan_status=1
if [ "$tsan_status" -ne 0 ]; then tail -40 "$log_dir/tsan.log"; exit 1; fi
note "tsan: every test, fuzz seeds $MULTICAST_FUZZ_SEED x $MULTICAST_FUZZ_OPS ops, stress $MULTICAST_STRESS_THREADS" \
    "threads x $MULTICAST_STRESS_OPS ops: 0 reports"

step "valgrind memcheck on MulticastStress (release)"
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind (.ci/run does)"; exit 1; }
swift build -c release --product MulticastStress --build-path .build/checks 2>&1 | tail -1
valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --error-exitcode=9 .build/checks/release/MulticastStress "${STRESS_ARGS[@]}" --stress-ops "$VALGRIND_STRESS_OPS" \
    >"$log_dir/valgrind.out" 2>"$log_dir/valgrind.log" || { cat "$log_dir/valgrind.out"; tail -60 "$log_dir/valgrind.log"; exit 1; }
cat "$log_dir/valgrind.out"
grep -q 'ERROR SUMMARY: 0 errors' "$log_dir/valgrind.log" || { tail -60 "$log_dir/valgrind.log"; exit 1; }
grep -qE 'definitely lost: 0 bytes|All heap blocks were freed' "$log_dir/valgrind.log" || { tail -60 "$log_dir/valgrind.log"; exit 1; }
note "valgrind: $(grep -oE 'definitely lost: .*' "$log_dir/valgrind.log" || echo 'All heap blocks were freed')"
note "valgrind: $(grep -oE 'ERROR SUMMARY: .*' "$log_dir/valgrind.log")"

step "address sanitizer on MulticastStress"
swift build --sanitize=address --product MulticastStress --build-path .build/asan 2>&1 | tail -1
.build/asan/debug/MulticastStress "${STRESS_ARGS[@]}" --stress-ops "$MULTICAST_STRESS_OPS" 2>&1 | tee "$log_dir/asan.log"
if grep -qE 'AddressSanitizer|LeakSanitizer' "$log_dir/asan.log"; then exit 1; fi
note "asan: MulticastStress, leak detection on: 0 reports"

step "tests with coverage"
coverage_status=0
swift test --enable-code-coverage --build-path .build/coverage --xunit-output "$log_dir/coverage.xml" \
    >"$log_dir/coverage.log" 2>&1 || coverage_status=$?
python3 Scripts/test-summary.py coverage "$log_dir/coverage.xml" || coverage_status=1
if [ "$coverage_status" -ne 0 ]; then tail -40 "$log_dir/coverage.log"; exit 1; fi
toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
llvm_cov="$toolchain/llvm-cov"; [ -x "$llvm_cov" ] || llvm_cov=llvm-cov
profile="$(swift test --enable-code-coverage --build-path .build/coverage --show-codecov-path | sed 's/[^/]*$//')default.profdata"
binary="$(ls -d .build/coverage/debug/*.xctest)"
"$llvm_cov" report "$binary" -instr-profile "$profile" "$PWD/Sources/Multicast"
"$llvm_cov" export -summary-only "$binary" -instr-profile "$profile" "$PWD/Sources/Multicast" >"$log_dir/coverage.json"
coverage="$(python3 -c 'import json, sys; print("%.2f" % json.load(open(sys.argv[1]))["data"][0]["totals"]["lines"]["percent"])' \
    "$log_dir/coverage.json")"
note "coverage: ${coverage}% of the lines of Sources/Multicast (minimum ${MINIMUM_COVERAGE}%)"
python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)' "$coverage" "$MINIMUM_COVERAGE" \
    || { echo "coverage below ${MINIMUM_COVERAGE}%"; exit 1; }

step "figures"
printf '%s\n' "${summary[@]}"
grep -hE '^(fuzz|stress):' "$log_dir/valgrind.out" | sed 's/^/valgrind run: /' || true
grep -hE '^(fuzz|stress):' "$log_dir/asan.log" | sed 's/^/asan run: /' || true
echo "reliability checks passed in $((SECONDS - started)) s"
