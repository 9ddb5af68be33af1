#!/usr/bin/env python3
"""Checks that the tables that map the model's steps to the library's functions name only what exists.

Usage: model-table.py [ROOT]

Reads the tables of the section "Which step is which function" of Verification/CheckingThreadSafety.md under ROOT
(the package's root by default), whose first column names steps of the model and whose second names what the library
does for them, and checks each name in backticks:

- in the model's column, each identifier is a name that Verification/Multicast.pml declares: an inline, a
  proctype, a macro, a variable, a typedef or a label (`..._setBit` is the end of one);
- in the library's column, a Swift name is a declaration of Sources/_MulticastCore or Sources/Multicast:
  `_Type.member(label:_:)` a member of that type with those argument labels, `_Type.member` one of any labels,
  `member(label:)` such a member of any type, `.name` an enum case, `_Type` a type (Scripts/declarations.py reads
  them); a C name is a function of the shims (Sources/_MulticastShims) or one that the Swift sources call (the
  platforms' locks); a name in capitals is the model's constant, named beside its Swift counterpart.

A renamed function, a changed label or a type that moved fails the check, with the row's line. Prints what it
checked, or each name that names nothing, and exits 1 if there is one.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the working tree
import declarations  # noqa: E402 (Scripts/declarations.py, beside this script)

DOCUMENT = "Verification/CheckingThreadSafety.md"
MODEL = "Verification/Multicast.pml"
SECTION = "## Which step is which function"
MODULES = ("_MulticastCore", "Multicast")
# The C11 operations, which the tables name as operations, not as functions of either side.
OPERATIONS = {"fetch_add", "fetch_sub", "fetch_or", "fetch_and"}

SWIFT = re.compile(r"^(?:(?P<type>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.)?(?P<name>[A-Za-z_]\w*)"
                   r"(?:\((?P<labels>(?:[A-Za-z_]\w*:)*)\))?$")
CASE = re.compile(r"^\.(?P<name>[A-Za-z_]\w*)(?:\((?P<labels>(?:[A-Za-z_]\w*:)*)\))?$")


def tables(root):
    """Each body row of the section's tables: (line number, cells)."""
    rows, inside, header = [], False, True
    for number, line in enumerate(open(os.path.join(root, DOCUMENT), encoding="utf-8"), 1):
        if line.startswith("## "):
            inside = line.strip() == SECTION
            continue
        if not inside:
            continue
        if not line.startswith("|"):
            header = True
            continue
        if re.match(r"^\|\s*:?-", line):
            continue
        if header:                  # a table's first row names its columns
            header = False
            continue
        # Cells split at the bars outside code spans.
        cells, current, code = [], "", False
        for character in line.strip()[1:]:
            if character == "`":
                code = not code
            if character == "|" and not code:
                cells.append(current.strip())
                current = ""
            else:
                current += character
        rows.append((number, cells))
    return rows


def model_names(root):
    """The names that the model declares."""
    text = open(os.path.join(root, MODEL), encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    names = set(re.findall(r"\b(?:inline|proctype)\s+(\w+)", text))
    names.update(re.findall(r"^\s*#define\s+(\w+)", text, flags=re.M))
    typedefs = set(re.findall(r"\btypedef\s+(\w+)", text))
    names.update(typedefs)
    types = "|".join(["bit", "bool", "byte", "short", "int", "unsigned", "chan", "mtype", "pid"] + sorted(typedefs))
    for declared in re.findall(r"\b(?:%s)\s+([^;{}()]+?)\s*;" % types, text):
        # `byte a, b[N], c = 1`: a name begins each part.
        names.update(re.findall(r"(?:^|,)\s*([A-Za-z_]\w*)", re.sub(r"\[[^\]]*\]|=[^,]*", "", declared)))
    names.update(re.findall(r"^\s*([A-Za-z_]\w*)\s*:(?!:)", text, flags=re.M))
    return names


def shim_functions(root):
    """The functions that the C shims define or declare."""
    names = set()
    folder = os.path.join(root, "Sources", "_MulticastShims")
    for directory, _, files in os.walk(folder):
        for file in files:
            if file.endswith((".h", ".c")):
                for line in open(os.path.join(directory, file), encoding="utf-8"):
                    line = re.sub(r"__attribute__\s*\(\(.*?\)\)", "", line).strip()
                    match = re.match(r"^(?!return\b)[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\(", line)
                    if match and not line.startswith("#"):
                        names.add(match.group(1))
    return names


def check_model_span(span, names):
    """The identifiers of a span of the model's column that the model does not declare."""
    missing = []
    for dots, name in re.findall(r"(\.\.\.)?\b([A-Za-z_]\w*)", span):
        if name in OPERATIONS:
            continue
        if dots:
            if not any(declared.endswith(name) for declared in names):
                missing.append("..." + name)
        elif name not in names:
            missing.append(name)
    return missing


def resolves(span, index, shims, used, model):
    """Whether a span of the library's column names something that exists."""
    if span in OPERATIONS:
        return True
    match = CASE.match(span)
    if match:
        labels = match.group("labels")
        labels = None if labels is None else tuple(labels.split(":")[:-1])
        return bool(index.anywhere(match.group("name"), labels, kinds={"case"}))
    match = SWIFT.match(span)
    if not match:
        return False
    name, labels = match.group("name"), match.group("labels")
    labels = None if labels is None else tuple(labels.split(":")[:-1])
    if match.group("type"):
        return any(index.find(path, name, labels) for path in index.type_paths(match.group("type")))
    if index.anywhere(name, labels):
        return True
    if labels is not None:
        return False
    return name in shims or (name.isupper() and name in model) or (name in used and name not in index.names)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    rows = tables(root)
    if not rows:
        print(f"error: no table under \"{SECTION}\" in {DOCUMENT}: the check reads nothing")
        return 1
    index = declarations.read_modules(root, MODULES)
    model = model_names(root)
    shims = shim_functions(root)
    used = declarations.identifiers_used(root, MODULES)
    problems, model_spans, library_spans = [], 0, 0
    for number, cells in rows:
        if len(cells) != 2:
            problems.append(f"{DOCUMENT}:{number}: a row of {len(cells)} cells, not 2 (the model's, the library's)")
            continue
        for span in re.findall(r"`([^`]+)`", cells[0]):
            model_spans += 1
            for name in check_model_span(span, model):
                problems.append(f"{DOCUMENT}:{number}: `{span}` (the model's column): {name} is not declared "
                                f"in {MODEL}")
        for span in re.findall(r"`([^`]+)`", cells[1]):
            library_spans += 1
            if not resolves(span, index, shims, used, model):
                problems.append(f"{DOCUMENT}:{number}: `{span}` (the library's column) names no declaration of "
                                f"{' or '.join('Sources/' + m for m in MODULES)}, nor a function of the shims")
    if problems:
        print("\n".join(problems))
        print(f"error: {len(problems)} names in the tables of \"{SECTION[3:]}\" name nothing: the model or the "
              "library changed, and the table did not")
        return 1
    print(f"model table: {len(rows)} rows; the {model_spans} names of the model's column are declared in {MODEL}, "
          f"the {library_spans} of the library's column in Sources")
    return 0


if __name__ == "__main__":
    sys.exit(main())
