#!/usr/bin/env python3
"""The mutation run of Scripts/check-mutations.sh: it changes one operator of the library at a time and checks
that the library's tests notice.

Every one-operator mutant of the Swift files of Sources/_MulticastCore and Sources/Multicast is listed in a fixed
order; a seeded sample of them is run, each in a scratch copy of the package (.build/mutations/package, never the
working tree) whose build folder is kept, so that each mutant is an incremental build. A mutant is
- killed when the tests fail, crash or outlast the timeout;
- survived when they pass: a behaviour the tests do not check;
- not viable when it does not compile; it is not counted;
- equivalent when KNOWN_EQUIVALENTS lists it as changing no behaviour: it is neither built nor counted.
The sample depends on the seed and on the sources: an edit of the library changes the list it is drawn from.

usage: check-mutations.sh [--seed N] [--sample N] [--timeout SECONDS] [--report-only] [--list] [--all]
                          [--only FILE:LINE ...]
"""
import argparse
import fcntl
import os
import random
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(ROOT, ".build", "mutations", "package")
MUTATED_FOLDERS = ["Sources/_MulticastCore", "Sources/Multicast"]
# What the scratch package holds: the library, the test tools and the library's tests.
COPIED_FOLDERS = ["Sources/_MulticastShims", "Sources/_MulticastCore", "Sources/Multicast", "Sources/MulticastChecks",
                  "Tests/MulticastTests"]
TARGETS = ["_MulticastShims", "_MulticastCore", "Multicast", "MulticastChecks", "MulticastTests"]
# The tests each mutant runs: the library's tests but the stress tests, which take seconds and add little the
# others (the model-based fuzz among them) do not check.
TEST_ARGUMENTS = ["--skip", "StressTests"]
# SwiftPM does not rebuild a module when only an `@inlinable` body of a module it imports changes, and the
# `@inline(always)` call paths of Multicast are inlined into the tests: after a mutation of a folder, the folders
# that inline its code are touched so that they are compiled again.
CONSUMERS = {
    "Sources/_MulticastCore": ["Sources/Multicast", "Sources/MulticastChecks", "Tests/MulticastTests"],
    "Sources/Multicast": ["Sources/MulticastChecks", "Tests/MulticastTests"],
}

# Mutants that change no behaviour, matched by file, the function they are in, the mutated line (stripped) and
# what it becomes, so that a line moved by an edit is still matched. Each says why no test can tell it from the
# library.
KNOWN_EQUIVALENTS = [
    # (file, function, before, after, reason)
    ("Sources/_MulticastCore/Registry.swift", "makeRoom", "return true", "return false",
     "makeRoom's answer after its rebuild only makes add scan for dead delegates before it retries; the rebuild made"
     " room either way, so every add and call is the same (the scan costs time, which the benchmark measures)"),
    *[("Sources/_MulticastCore/Registry.swift", function, "pending.removeAll(keepingCapacity: true)",
       "pending.removeAll(keepingCapacity: false)",
       "keeping the list's capacity saves an allocation, not a behaviour: the benchmark's --require-zero-allocations"
       " guard checks it") for function in ("collect", "resetVacancies")],
]

# The conditions of `#if` that hold on the platform the run builds for (Linux, 64-bit, debug, internal checks);
# code under a condition that does not hold is never compiled, so it has no mutants here.
PLATFORM_FACTS = {
    "canImport(WinSDK)": False, "canImport(Darwin)": False, "canImport(Glibc)": True, "canImport(Musl)": False,
    "canImport(Android)": False, "_runtime(_ObjC)": False, "_pointerBitWidth(_64)": True,
    "_pointerBitWidth(_32)": False, "DEBUG": True, "MULTICAST_INTERNAL_CHECKS": True, "os(Linux)": True,
    "os(Windows)": False, "os(macOS)": False, "canImport(ObjectiveC)": False,
}

KEYWORDS = {"return", "let", "var", "guard", "if", "else", "while", "for", "switch", "case", "defer", "throw",
            "try", "func", "init", "deinit", "import", "public", "package", "private", "fileprivate", "internal",
            "static", "final", "class", "struct", "enum", "extension", "protocol", "typealias", "do", "catch",
            "repeat", "break", "continue", "default", "where", "in", "unsafe", "await", "precondition",
            "preconditionFailure", "fatalError", "assert", "assertionFailure"}

# Operator mutants: (name, pattern, replacement). A pattern matches in code only, never in strings or comments.
OPERATORS = [
    ("==", r"(?<=\s)==(?=\s)", "!="),
    ("!=", r"(?<=\s)!=(?=\s)", "=="),
    ("<", r"(?<=\s)<(?=\s)", "<="),
    ("<=", r"(?<=\s)<=(?=\s)", "<"),
    (">", r"(?<=\s)>(?=\s)", ">="),
    (">=", r"(?<=\s)>=(?=\s)", ">"),
    ("&&", r"(?<=\s)&&(?=\s)", "||"),
    ("||", r"(?<=\s)\|\|(?=\s)", "&&"),
    ("true", r"\btrue\b", "false"),
    ("false", r"\bfalse\b", "true"),
    ("+ 1", r"(?<=\s)(&?)\+(=?) 1\b", r"\1-\2 1"),
    ("- 1", r"(?<=\s)(&?)-(=?) 1\b", r"\1+\2 1"),
    ("!", r"(?<![\w)\]!?.])!(?=[\w(.$])", ""),
    (".strong", r"\.strong\b", ".weak"),
    (".weak", r"\.weak\b", ".strong"),
]


class Mutant:
    def __init__(self, path, function, line, column, operator, before, after):
        self.path, self.function, self.line, self.column, self.operator = path, function, line, column, operator
        self.before, self.after = before, after

    @property
    def name(self):
        return f"{self.path}:{self.line}"

    def equivalence(self):
        for path, function, before, after, reason in KNOWN_EQUIVALENTS:
            if (path, function, before, after) == (self.path, self.function, self.before.strip(), self.after.strip()):
                return reason
        return None


def code_spans(text):
    """For each line, the code outside comments and string literals, as a list of (start, end) columns."""
    spans = []
    in_block_string = False
    in_block_comment = False
    for line in text.split("\n"):
        line_spans = []
        i, start, n = 0, 0, len(line)
        in_string = False
        while i < n:
            if in_block_comment:
                end = line.find("*/", i)
                if end < 0:
                    i = n
                    start = n
                    break
                in_block_comment = False
                i = start = end + 2
                continue
            if in_block_string:
                end = line.find('"""', i)
                if end < 0:
                    i = start = n
                    break
                in_block_string = False
                i = start = end + 3
                continue
            if in_string:
                if line[i] == "\\":
                    i += 2
                    continue
                if line[i] == '"':
                    in_string = False
                    start = i + 1
                i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                line_spans.append((start, i))
                in_block_comment = True
                i += 2
                continue
            if line.startswith('"""', i):
                line_spans.append((start, i))
                in_block_string = True
                i += 3
                continue
            if line[i] == '"':
                line_spans.append((start, i))
                in_string = True
            i += 1
        if not in_string and not in_block_string and not in_block_comment:
            line_spans.append((start, i))
        spans.append([(a, b) for a, b in line_spans if b > a])
    return spans


def condition_holds(condition):
    expression = condition
    for fact, value in PLATFORM_FACTS.items():
        expression = expression.replace(fact, str(value))
    expression = expression.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    try:
        return bool(eval(expression, {"__builtins__": {}}, {}))
    except Exception:
        return True  # unknown: compiled, as far as the run can tell


def compiled_lines(lines):
    """Whether each line is library code compiled on this platform: not an `#if` directive, and not under
    `#if MULTICAST_INTERNAL_CHECKS`, which is the tests' oracle, never in a user's build."""
    stack = []  # per #if: [this branch is compiled, a branch of it was taken, it is the internal checks']
    result = []
    for line in lines:
        stripped = line.strip()
        active = all(entry[0] and not entry[2] for entry in stack)
        if stripped.startswith("#if "):
            holds = condition_holds(stripped[4:])
            stack.append([holds, holds, stripped[4:].strip() == "MULTICAST_INTERNAL_CHECKS"])
            result.append(False)
        elif stripped.startswith("#elseif "):
            holds = not stack[-1][1] and condition_holds(stripped[8:])
            stack[-1] = [holds, stack[-1][1] or holds, False]
            result.append(False)
        elif stripped == "#else" or stripped.startswith("#else "):
            stack[-1] = [not stack[-1][1], True, False]
            result.append(False)
        elif stripped.startswith("#endif"):
            stack.pop()
            result.append(False)
        else:
            result.append(active)
    return result


def is_call_statement(code):
    """A line that is one call and nothing else (`storeKey(...)`, `lock.unlock()`): dropping it is a mutant."""
    code = code.strip()
    match = re.fullmatch(r"([A-Za-z_][\w]*(?:\??\.[A-Za-z_]\w*)*)\((.*)\)", code)
    callee = match.group(1) if match else ""
    if not match or callee.split(".")[0] in KEYWORDS | {"self", "super", "Swift"}:
        return False
    if "." not in callee and callee.lstrip("_")[:1].isupper():
        return False  # a value made and not used: the body's result, or nothing
    depth = 0
    for character in code[len(match.group(1)):]:
        depth += {"(": 1, ")": -1}.get(character, 0)
        if depth < 0:
            return False
    return depth == 0 and not code.endswith("{")


def is_single_expression_body(lines, index):
    """Whether the line is the whole body of a function or property that returns it."""
    before = next((l.strip() for l in reversed(lines[:index]) if l.strip() and not l.strip().startswith("//")), "")
    after = next((l.strip() for l in lines[index + 1:] if l.strip() and not l.strip().startswith("//")), "")
    returns = re.search(r"->\s*[^{]+\{$", before) or re.search(r"\bvar\b.*:.*\{$", before)
    return bool(returns) and after == "}"


def mutants_of(path):
    text = open(os.path.join(ROOT, path)).read()
    lines = text.split("\n")
    spans = code_spans(text)
    compiled = compiled_lines(lines)
    found = []
    returns_bool = False
    function = ""
    for index, line in enumerate(lines):
        if not compiled[index]:
            continue
        masked = [" "] * len(line)
        for a, b in spans[index]:
            masked[a:b] = line[a:b]
        code = "".join(masked)
        if not code.strip() or re.match(r"\s*(assert|assertionFailure)\(", code):
            continue  # debug-only checks, like the internal checks, are the oracle
        if re.search(r"\b(func|var|init|subscript)\b", code):
            returns_bool = bool(re.search(r"(->|:)\s*Bool\s*\{", code))
        declared = re.search(r"\bfunc\s+([^\s(<]+)|\b(init|deinit)\b|\bvar\s+(\w+)[^=]*\{\s*$", code)
        if declared:
            function = next(g for g in declared.groups() if g)
        for operator, pattern, replacement in OPERATORS:
            for match in re.finditer(pattern, code):
                if operator == "!" and code[match.start():].startswith("!="):
                    continue
                after = line[:match.start()] + match.expand(replacement) + line[match.end():]
                found.append(Mutant(path, function, index + 1, match.start() + 1, operator, line, after))
        returned = re.match(r"^(\s*)return (.+?)\s*$", code)
        if returned and returns_bool and returned.group(2) not in ("true", "false"):
            expression = line[returned.start(2):returned.end(2)]
            after = f"{returned.group(1)}return !({expression})"
            found.append(Mutant(path, function, index + 1, returned.start(2) + 1, "return !", line, after))
        if is_call_statement(code) and not is_single_expression_body(lines, index):
            indent = line[:len(line) - len(line.lstrip())]
            found.append(Mutant(path, function, index + 1, len(indent) + 1, "drop call", line, indent))
    return found


def all_mutants():
    found = []
    for folder in MUTATED_FOLDERS:
        for directory, subdirectories, files in sorted(os.walk(os.path.join(ROOT, folder))):
            subdirectories[:] = sorted(d for d in subdirectories if not d.endswith(".docc"))
            for file in sorted(files):
                if file.endswith(".swift"):
                    found += mutants_of(os.path.relpath(os.path.join(directory, file), ROOT))
    return found


def write_if_changed(path, content):
    if os.path.exists(path) and open(path, "rb").read() == content:
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(content)


def sync_scratch():
    """Makes the scratch package a copy of the working tree's library and tests, writing only what differs, so
    that the build folder it keeps rebuilds only that."""
    manifest = open(os.path.join(ROOT, "Package.swift"), "rb").read()
    manifest += ("\n// A mutation run builds the library and its tests alone.\npackage.targets = package.targets."
                 "filter { %s.contains($0.name) }\n" % ("[" + ", ".join(f'"{t}"' for t in TARGETS) + "]")).encode()
    write_if_changed(os.path.join(SCRATCH, "Package.swift"), manifest)
    for folder in COPIED_FOLDERS:
        source, copy = os.path.join(ROOT, folder), os.path.join(SCRATCH, folder)
        wanted = set()
        for directory, _, files in os.walk(source):
            for file in files:
                relative = os.path.relpath(os.path.join(directory, file), source)
                wanted.add(relative)
                write_if_changed(os.path.join(copy, relative), open(os.path.join(directory, file), "rb").read())
        for directory, _, files in os.walk(copy):
            for file in files:
                if os.path.relpath(os.path.join(directory, file), copy) not in wanted:
                    os.remove(os.path.join(directory, file))


def touch(folders):
    now = time.time()
    for folder in folders:
        for directory, _, files in os.walk(os.path.join(SCRATCH, folder)):
            for file in files:
                if file.endswith(".swift"):
                    os.utime(os.path.join(directory, file), (now, now))


def environment():
    env = dict(os.environ)
    env["MULTICAST_INTERNAL_CHECKS"] = "1"
    # A mutant that only adds a warning (an unused result, a variable never mutated) still changes behaviour.
    env.pop("MULTICAST_WARNINGS_AS_ERRORS", None)
    return env


def run(command, timeout):
    """Runs command in the scratch package in a process group of its own; returns (status, output, seconds),
    status None on timeout, when the whole group is stopped."""
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=SCRATCH, env=environment(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
        return process.returncode, output.decode(errors="replace"), time.monotonic() - started
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, output.decode(errors="replace"), time.monotonic() - started


def build(timeout):
    return run(["swift", "build", "--build-tests"], timeout)


def test(timeout):
    return run(["swift", "test", "--skip-build"] + TEST_ARGUMENTS, timeout)


def first_error(output):
    lines = output.splitlines()
    for line in [l for l in lines if re.search(r"\.swift:\d+:\d+: error:", l)] + [l for l in lines if "error:" in l]:
        return re.sub(r"^.*?/Sources/", "Sources/", line.strip())[:160]
    return "(no error line)"


def short(line):
    line = line.strip()
    return line if len(line) <= 90 else line[:87] + "..."


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=33, help="the sample's seed [33]")
    parser.add_argument("--sample", type=int, default=24, help="how many mutants to run [24]")
    parser.add_argument("--all", action="store_true", help="run every mutant, not a sample")
    parser.add_argument("--only", nargs="+", metavar="FILE:LINE", help="run the mutants of these lines alone")
    parser.add_argument("--timeout", type=float, default=0,
                        help="seconds a test run may take before its mutant counts as killed [5x the unmutated run,"
                             " at least 120: other builds may share the cores]")
    parser.add_argument("--list", action="store_true", help="print the sample and stop")
    parser.add_argument("--report-only", action="store_true", help="exit 0 even if a mutant survives")
    arguments = parser.parse_args()

    every = all_mutants()
    if arguments.only:
        sample = [m for m in every if m.name in arguments.only or f"{m.name}:{m.column}" in arguments.only]
    elif arguments.all or arguments.sample >= len(every):
        sample = every
    else:
        sample = random.Random(arguments.seed).sample(every, arguments.sample)
        sample.sort(key=lambda m: (m.path, m.line, m.column, m.operator))
    print(f"{len(every)} mutants in {', '.join(MUTATED_FOLDERS)}; seed {arguments.seed}, running {len(sample)}")
    if arguments.list:
        for mutant in sample:
            print(f"  {mutant.name}:{mutant.column}  {short(mutant.before)}  →  {short(mutant.after)}")
        return 0

    os.makedirs(SCRATCH, exist_ok=True)
    lock = open(os.path.join(os.path.dirname(SCRATCH), "lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("another mutation run uses .build/mutations: wait for it to end")
        return 2
    sync_scratch()
    # A mutant's folder is restored when the mutant is done; the code of it that its consumers inlined is
    # compiled again here.
    touch(CONSUMERS["Sources/_MulticastCore"])
    status, output, seconds = build(3600)
    if status != 0:
        print(output[-4000:])
        print("the unmutated package does not build in the scratch copy")
        return 2
    print(f"unmutated build: {seconds:.0f} s")
    status, output, seconds = test(1800)
    if status != 0:
        print(output[-4000:])
        print("the tests fail without a mutant: fix them first")
        return 2
    timeout = arguments.timeout or max(120.0, 5 * seconds)
    print(f"unmutated tests: {seconds:.1f} s; a test run that takes over {timeout:.0f} s kills its mutant")

    counts = {"killed": 0, "survived": 0, "not viable": 0, "equivalent": 0}
    survivors = []
    started = time.monotonic()
    for number, mutant in enumerate(sample, 1):
        heading = f"[{number}/{len(sample)}] {mutant.name}  {short(mutant.before)}  →  {short(mutant.after)}"
        reason = mutant.equivalence()
        if reason:
            counts["equivalent"] += 1
            print(f"{heading}\n    equivalent: {reason}", flush=True)
            continue
        path = os.path.join(SCRATCH, mutant.path)
        original = open(path).read()
        lines = original.split("\n")
        assert lines[mutant.line - 1] == mutant.before, f"{mutant.name} changed since the listing"
        lines[mutant.line - 1] = mutant.after
        try:
            open(path, "w").write("\n".join(lines))
            folder = next(f for f in MUTATED_FOLDERS if mutant.path.startswith(f + "/"))
            touch(CONSUMERS[folder])
            status, output, build_seconds = build(1800)
            if status != 0:
                counts["not viable"] += 1
                print(f"{heading}\n    not viable ({build_seconds:.0f} s): {first_error(output)}", flush=True)
                continue
            status, output, test_seconds = test(timeout)
            if status is None:
                verdict = "killed (timed out)"
            elif status != 0:
                failed = re.findall(r"Test (\w+\(.*?\)) .*failed|Test (\w+\(\)) recorded an issue", output)
                names = sorted({a or b for a, b in failed})
                verdict = "killed" + (f" by {', '.join(names[:3])}" + (" ..." if len(names) > 3 else "")
                                      if names else " (the test run crashed)")
            else:
                verdict = "SURVIVED"
            counts["survived" if verdict == "SURVIVED" else "killed"] += 1
            if verdict == "SURVIVED":
                survivors.append(mutant)
            print(f"{heading}\n    {verdict} (build {build_seconds:.0f} s, tests {test_seconds:.1f} s)", flush=True)
        finally:
            open(path, "w").write(original)
    elapsed = time.monotonic() - started
    run_count = len(sample) - counts["equivalent"]
    print(f"\n{counts['killed']} killed, {counts['survived']} survived, {counts['not viable']} not viable, "
          f"{counts['equivalent']} known equivalent; {elapsed:.0f} s, {elapsed / max(run_count, 1):.0f} s per mutant")
    for mutant in survivors:
        print(f"  survived: {mutant.name}  {short(mutant.before)}  →  {short(mutant.after)}")
    # The scratch copy holds the working tree's sources again; its next build recompiles the touched consumers.
    return 1 if survivors and not arguments.report_only else 0


if __name__ == "__main__":
    sys.exit(main())
