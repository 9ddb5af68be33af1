#!/usr/bin/env python3
"""Reads the xUnit files that `swift test --xunit-output PATH` writes (PATH and PATH-swift-testing.xml) and
prints "LABEL: N passed, N failed, N skipped". Exits 1 if a test failed or if no test ran at all, so that a
filter or a runner change that selects nothing cannot pass silently.

usage: test-summary.py LABEL PATH
"""
import os
import sys
import xml.etree.ElementTree as ElementTree

label, path = sys.argv[1], sys.argv[2]
base = path[:-4] if path.endswith(".xml") else path
tests = failures = skipped = 0
failed_names = []
for candidate in (path, base + "-swift-testing.xml"):
    if not os.path.exists(candidate):
        continue
    for case in ElementTree.parse(candidate).getroot().iter("testcase"):
        tests += 1
        if case.find("failure") is not None or case.find("error") is not None:
            failures += 1
            failed_names.append(f'{case.get("classname")}.{case.get("name")}')
        elif case.find("skipped") is not None:
            skipped += 1
passed = tests - failures - skipped
print(f"{label}: {passed} passed, {failures} failed, {skipped} skipped")
for name in failed_names:
    print(f"  failed: {name}")
if tests == 0:
    print(f"{label}: no test ran (no results in {path})")
sys.exit(1 if failures or tests == 0 else 0)
