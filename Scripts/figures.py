#!/usr/bin/env python3
"""The figures that Scripts/check-figures.sh holds: reads callgrind's counts, and compares them with thresholds.

    figures.py count OUT_FILE...
        prints the instructions and heap allocations that callgrind counted in the measured regions of one run:
        `INSTRUCTIONS ALLOCATIONS`. The run dumps a part before and after each region (`--dump-before` and
        `--dump-after`); a region is a part that a `--dump-after` ended, the others are left out. Allocations are
        the calls into the C heap's allocating functions from outside them (malloc, calloc, realloc,
        posix_memalign, aligned_alloc, memalign).

    figures.py compare THRESHOLDS MEASURED
        compares each figure of MEASURED (lines `NAME INSTRUCTIONS ALLOCATIONS UNIT`, as check-figures.sh writes
        them) with its threshold in THRESHOLDS (lines `NAME INSTRUCTIONS ALLOCATIONS`, `#` comments), prints each
        beside it, and exits 1 if any exceeds it: by more than TOLERANCE of its instructions, or by any allocation.
        A figure without a threshold, or a threshold without a figure, fails too.
"""

import re
import sys

# How far a figure's instructions may exceed its threshold before the check fails: callgrind counts the same
# instructions for the same binary and inputs, but a change elsewhere moves where the heap puts objects, which moves
# the probes of a lookup by address (a few percent of an add or remove among many). An extra weak load, lock or
# atomic operation per delegate is many times that.
TOLERANCE = 0.03

ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}


def count(paths):
    """The instructions and allocations of the measured regions among callgrind's parts `paths`."""
    totals = [0, 0]
    regions = 0
    for path in paths:
        with open(path) as lines:
            if not any(line.startswith("desc: Trigger: --dump-after") for line in lines):
                continue
        regions += 1
        for total, counted in enumerate(count_part(path)):
            totals[total] += counted
    if regions == 0:
        sys.exit(f"figures.py: no measured region among {' '.join(paths)}")
    return totals


def count_part(path):
    """The instructions and allocations in one part, a callgrind output file."""
    names = {"ob": {}, "fn": {}}  # callgrind's name compression: "(id) name" defines an id, "(id)" refers to it

    def name(kind, text):
        match = re.match(r"\((\d+)\)(?: (.*))?", text.strip())
        if not match:
            return text.strip()
        if match.group(2) is not None:
            names[kind][match.group(1)] = match.group(2)
        return names[kind].get(match.group(1), "")

    instructions = None
    allocations = 0
    caller_object = callee = None
    with open(path) as lines:
        for line in lines:
            key, _, value = line.partition("=")
            if key == "ob":
                caller_object = name("ob", value)
            elif key == "cob":
                name("ob", value)
            elif key in ("fn", "cfn"):
                function = name("fn", value)
                if key == "cfn":
                    callee = function
            elif key == "calls":
                # The C library's calls to itself (aligned_alloc calling malloc) are part of one allocation.
                if callee in ALLOCATORS and "/libc.so" not in caller_object:
                    allocations += int(value.split()[0])
            elif line.startswith("totals:"):
                instructions = int(line.split()[1])
    if instructions is None:
        sys.exit(f"figures.py: no totals in {path}")
    return instructions, allocations


def read_table(path, columns):
    table = {}
    with open(path) as lines:
        for line in lines:
            line = line.split("#", 1)[0].strip()
            if line:
                fields = line.split()
                table[fields[0]] = fields[1:columns]
    return table


def compare(thresholds_path, measured_path):
    thresholds = read_table(thresholds_path, 3)
    measured = read_table(measured_path, 4)
    failures = []
    print(f"{'figure':<28} {'instructions':>12} {'threshold':>10} {'allocations':>11} {'threshold':>9}  per")
    for figure, (instructions, allocations, unit) in measured.items():
        if figure not in thresholds:
            print(f"{figure:<28} {float(instructions):>12.1f} {'none':>10} {float(allocations):>11.3f} {'none':>9}  {unit}")
            failures.append(f"{figure}: no threshold in {thresholds_path}")
            continue
        limit_instructions, limit_allocations = (float(value) for value in thresholds[figure])
        instructions, allocations = float(instructions), float(allocations)
        verdict = ""
        if instructions > limit_instructions * (1 + TOLERANCE):
            verdict = "  OVER"
            failures.append(
                f"{figure}: {instructions:.1f} instructions per {unit}, over {limit_instructions:g}"
                f" by {100 * (instructions / limit_instructions - 1):.1f}%")
        if allocations > limit_allocations + 1e-9:
            verdict = "  OVER"
            failures.append(f"{figure}: {allocations:.3f} allocations per {unit}, over {limit_allocations:g}")
        if not verdict and instructions < limit_instructions * (1 - TOLERANCE):
            verdict = "  under: lower the threshold"
        print(f"{figure:<28} {instructions:>12.1f} {limit_instructions:>10g} {allocations:>11.3f}"
              f" {limit_allocations:>9g}  {unit}{verdict}")
    for figure in thresholds:
        if figure not in measured:
            failures.append(f"{figure}: in {thresholds_path}, not measured")
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    return 1 if failures else 0


def main(arguments):
    if len(arguments) >= 2 and arguments[0] == "count":
        print(*count(arguments[1:]))
        return 0
    if len(arguments) == 3 and arguments[0] == "compare":
        return compare(arguments[1], arguments[2])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
