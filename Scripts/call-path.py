#!/usr/bin/env python3
"""What the call path calls in an unoptimized build: Scripts/check-call-path.sh's analysis.

Usage: call-path.py DISASSEMBLY DEMANGLED FAILURES ROOT...

DISASSEMBLY is `llvm-objdump -t -d --no-show-raw-insn` of the client, linked with the library's debug-built objects
(the symbol table gives each function's size: the code after it, which has no symbol of its own, is not its own);
DEMANGLED maps each symbol to its simplified demangling (`mangled<TAB>demangled` lines). Each ROOT is `label=name`,
where name is a function's simplified demangling. Prints what each root calls, and each function of the library it
reaches; writes the forbidden calls to FAILURES, a line each (`root | function | callee | why`), and exits 1 if
there is one (see the script's header for the rules).
"""

import collections
import re
import sys

# Functions of the library that run rarely, out of line: a call to one is allowed and not followed. The reason
# says when it runs.
OUT_OF_LINE = {
    "_Core.reclaimEndedRegistrations()": "an add to a full storage, before it grows",
    "_Core.passEnded(findingEndedIn:stride:from:to:readers:)": "a pass that found registrations ended with their owners",
    "_Core.lastReaderLeft()": "a pass that leaves last with work waiting",
    "_Core.enterPassUnderTheLock()": "a pass that finds the gate closed, or changed, as it enters",
    "_Registry.takeBackTickets(of:)": "a change that frees storages",
    "MulticastDelegate._startTrace()": "diagnostics are on somewhere (behind `_Diagnostics.areOnAnywhere`)",
    "MulticastDelegate._addRecordingSite(bitsOf:object:owner:holding:to:file:line:)": "diagnostics are on somewhere",
    "MulticastDelegate._callTraced<A>(_:_:)": "diagnostics are on somewhere",
    "_Registry.makeRoom(searched:_:)": "an add to a full storage",
    "_Registry.rebuild(capacity:_:)": "a compaction, once many slots are vacant (amortized)",
    "_Registry.reindex(capacity:)": "an add to a full index",
    "_DeferredRelease.freeUnreadRetired(_:)": "older storages wait for their readers",
    "static _Registry.capacityOfRebuilt(holding:)": "before a rebuild",
    "static _DeferredRelease.markRemoved(registration:in:)": "a removal while older storages wait for their readers",
    "MulticastDelegate._objectByCast(_:kind:)": "a remove or contains of a delegate type whose values are not known to be "
        "an object and at most one witness table (a dynamic cast)",
    "MulticastDelegate._addByCast(_:retention:ownedBy:core:file:line:)": "an add of a delegate type whose values are "
        "not known to be an object and at most one witness table",
    "_Garbage.appendMore(_:)": "a change that leaves more than one object to release",
    "static _Garbage.release(_:)": "a change that frees storages",
    "_Registry.unregisterEndedOwnedRegistrations(address:)": "a removal by an owner from its deinit, where owners "
        "are held weakly (the Objective-C runtime's platforms)",
}

# Functions of the library that return a copy of a delegate, of a type that generic code knows by its metadata
# alone: there, and in what they call, the copy and the destroy of the delegate go through its value witness table
# (indirect calls at the value witnesses' offsets) and the result's `Optional` needs its metadata: once per call.
RETURNS_A_COPY = {
    "MulticastDelegate.delegate(ownedBy:)": "the owned registration's delegate, copied out",
}
# The offsets in a value witness table of the witnesses that copy, move, destroy and tell an optional's case.
VALUE_WITNESSES = {0x8: "destroy", 0x10: "initializeWithCopy", 0x18: "assignWithCopy", 0x20: "initializeWithTake",
                   0x28: "assignWithTake", 0x30: "getEnumTagSinglePayload", 0x38: "storeEnumTagSinglePayload"}

# Runtime and C functions that the call path may call, each with why.
ALLOWED = {
    "swift_retain": "reference counting",
    "swift_release": "reference counting",
    "swift_unknownObjectRetain": "reference counting",
    "swift_unknownObjectRelease": "reference counting",
    "swift_bridgeObjectRetain": "reference counting (an array's buffer)",
    "swift_bridgeObjectRelease": "reference counting (an array's buffer)",
    "swift_weakLoadStrong": "a weak delegate's weak load",
    "swift_weakInit": "a weak reference made (an add)",
    "swift_weakAssign": "a weak reference made (an add)",
    "swift_weakDestroy": "a weak reference destroyed",
    "swift_weakCopyInit": "a weak reference copied",
    "swift_weakTakeInit": "a weak reference moved",
    "swift_weakCopyAssign": "a weak reference copied",
    "swift_weakTakeAssign": "a weak reference moved",
    "swift_tryRetain": "an owned delegate's pinned owner kept through its turn: a pinned owner's weak load",
    "swift_isDeallocating": "whether a pinned owner, or a strong delegate being added, is in its deinit: one load",
    "swift_unownedRetain": "an owned registration's pin on its owner (an add)",
    "swift_unownedRelease": "an owned registration's pin on its owner given back",
    "swift_once": "the one-time check that owners can be pinned (`_OwnerPin.isAvailable`): a load once it ran",
    "swift_willThrowTyped": "the body threw: the error path",
    "swift_willThrowTypedImpl": "the body threw: the error path",
    "pthread_mutex_lock": "the lock",
    "pthread_mutex_unlock": "the lock",
    "memcpy": "a copy of bytes",
    "memmove": "a copy of bytes",
    "memset": "stack zeroed by an unoptimized build",
}

# Standard-library functions that are not generic, and that the call path may call.
STDLIB_ALLOWED = {
    "UnsafeMutableRawPointer.copyMemory(from:byteCount:)": "not generic: a memmove",
}

# Runtime functions that look up witness tables or make metadata.
WITNESS = ("swift_getWitnessTable", "swift_getAssociatedTypeWitness", "swift_getAssociatedConformanceWitness",
           "swift_conformsToProtocol")
METADATA = ("swift_getGenericMetadata", "swift_getTypeByMangledName", "swift_getTupleTypeMetadata",
            "swift_getFunctionTypeMetadata", "swift_getExistentialTypeMetadata", "swift_checkMetadataState",
            "swift_getSingletonMetadata", "swift_allocateGenericClassMetadata", "swift_allocateGenericValueMetadata")

# The standard library's generic types, whose members a simplified demangling shows without their parameter.
GENERIC_STDLIB_TYPES = ("Array", "ContiguousArray", "ArraySlice", "Optional", "Dictionary", "Set", "Range",
                        "ClosedRange", "UnsafePointer", "UnsafeMutablePointer", "UnsafeBufferPointer",
                        "UnsafeMutableBufferPointer", "Unmanaged", "IndexingIterator", "Collection", "Sequence",
                        "MutableCollection", "RandomAccessCollection", "BidirectionalCollection", "Equatable",
                        "Hashable", "Comparable", "_ContiguousArrayBuffer", "_ArrayBuffer")

FAILURE = {"__stack_chk_fail", "abort", "swift_unexpectedError"}

INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
FUNCTION = re.compile(r"^([0-9a-f]+) <(.+)>:$")
TARGET = re.compile(r"^(?:0x)?([0-9a-f]+) <([^>+]+)(\+0x[0-9a-f]+)?>")
REFERENCE = re.compile(r"# 0x([0-9a-f]+) <([^>+]+)>$")
# A function's line of the symbol table: address, flags, section, size, visibility, name.
SYMBOL = re.compile(r"^([0-9a-f]{8,16}) .*\bF \S+\s+([0-9a-f]{8,16})\s+(?:\.(?:hidden|protected|internal) )?(\S+)$")


def parse(path):
    """The instructions of each function, by its symbol: those within the size that the symbol table gives it."""
    functions, current, sizes, end = {}, None, {}, None
    for line in open(path):
        line = line.rstrip("\n")
        match = SYMBOL.match(line)
        if match:
            sizes[match.group(3)] = int(match.group(2), 16)
            continue
        match = FUNCTION.match(line)
        if match:
            current = functions.setdefault(match.group(2), [])
            size = sizes.get(match.group(2))
            end = int(match.group(1), 16) + size if size else None
            continue
        match = INSTRUCTION.match(line)
        if match and current is not None:
            address, mnemonic, operands = match.groups()
            if end is not None and int(address, 16) >= end:
                continue
            current.append((int(address, 16), mnemonic, operands.split("#")[0].strip(), operands))
    if not sizes:
        sys.exit(f"error: no symbol table in {path}: disassemble with llvm-objdump -t -d")
    return functions


def failure_target(mangled):
    plain = mangled.removesuffix("@plt")
    return plain in FAILURE or "s5NeverO" in plain


def live_calls(name, body):
    """The calls, and the library closures referenced, at instructions from which a return is reachable: those on
    a failure path (which ends in a call of a function that never returns, or a trap) are left out."""
    index = {address: i for i, (address, _, _, _) in enumerate(body)}
    successors = []
    exits = set()
    for i, (address, mnemonic, operands, _) in enumerate(body):
        following = [i + 1] if i + 1 < len(body) else []
        target = TARGET.match(operands)
        if mnemonic.startswith("ret"):
            exits.add(i)
            following = []
        elif mnemonic == "ud2" or (mnemonic.startswith("call") and target and failure_target(target.group(2))):
            following = []
        elif mnemonic.startswith("jmp"):
            if target and int(target.group(1), 16) in index:
                following = [index[int(target.group(1), 16)]]
            else:
                exits.add(i)  # a tail call, or a jump through a table: counted as a way out
                following = []
        elif mnemonic.startswith("j") and target and int(target.group(1), 16) in index:
            following.append(index[int(target.group(1), 16)])
        successors.append(following)
    predecessors = collections.defaultdict(list)
    for i, following in enumerate(successors):
        for j in following:
            predecessors[j].append(i)
    live, work = set(exits), list(exits)
    while work:
        for i in predecessors[work.pop()]:
            if i not in live:
                live.add(i)
                work.append(i)
    calls, referenced, failing = [], [], []
    for i, (address, mnemonic, operands, raw) in enumerate(body):
        if mnemonic.startswith("call"):
            target = TARGET.match(operands)
            callee = target.group(2) if target else "indirect: " + operands
            (calls if i in live else failing).append(callee)
        elif i in live and mnemonic.startswith(("lea", "mov")):
            reference = REFERENCE.search(raw)
            if reference:
                referenced.append(reference.group(2))
    return calls, referenced, failing


def main():
    disassembly, demangled_path, failures_path = sys.argv[1:4]
    roots = [argument.split("=", 1) for argument in sys.argv[4:]]
    functions = parse(disassembly)
    demangled = {}
    for line in open(demangled_path):
        mangled, _, readable = line.rstrip("\n").partition("\t")
        demangled[mangled] = readable
    by_name = collections.defaultdict(list)
    for mangled in functions:
        by_name[demangled.get(mangled, mangled)].append(mangled)

    def readable(symbol):
        plain = symbol.removesuffix("@plt")
        return demangled.get(plain, plain)

    def is_stdlib(mangled):
        return re.match(r"^\$s(s|S[a-zA-Z])", mangled) is not None

    def is_library(mangled):
        """A function of the library's modules, or one the compiler made for them (an outlined copy or destroy),
        defined in the client's binary."""
        return mangled in functions and not is_stdlib(mangled) and not mangled.startswith("$s6Client")

    def classify(callee, copying):
        """(verdict, reason): verdict is ok, follow or FAIL. `copying` is true below a function of RETURNS_A_COPY."""
        plain = callee.removesuffix("@plt")
        name = readable(callee)
        witness = re.match(r"^indirect: \*0x([0-9a-f]+)\(%r\w+\)$", callee)
        if copying and witness and int(witness.group(1), 16) in VALUE_WITNESSES:
            return "ok", "the delegate copied out, through its value witness " + \
                VALUE_WITNESSES[int(witness.group(1), 16)]
        if copying and plain == "$sSqMa":
            return "ok", "the metadata of the copy's Optional: generic code makes it"
        if callee.startswith("indirect: "):
            return "FAIL", "an indirect call: through a value witness table, a witness table or a closure value"
        if plain.startswith("_multicast_"):
            return "ok", "the shims: an atomic operation"
        if plain in ALLOWED:
            return "ok", ALLOWED[plain]
        if plain.startswith(("swift_beginAccess", "swift_endAccess")):
            return "FAIL", "a dynamic exclusivity check: the path reaches the registry through a pointer held in a " \
                "constant so that no access is checked at run time"
        if plain.startswith("$s6Client") and plain.endswith("s5ErrorAAWl"):
            return "ok", "the Error conformance of the body's own error type: a throwing body's error and " \
                "diagnostics paths pass it on (a cached load in the client)"
        if plain.startswith(WITNESS) or plain.endswith(("WL", "Wl", "TW")):
            return "FAIL", "a witness table looked up, or a call through a protocol witness"
        if plain.startswith(METADATA) or plain == "__swift_instantiateConcreteTypeFromMangledName" or \
                plain.endswith("Ma"):
            return "FAIL", "type metadata made or looked up: only generic code needs it"
        if "== infix" in name or "__derived_enum_equals" in name or "__derived_struct_equals" in name:
            return "FAIL", "an `==` called where a `switch` costs no call"
        if re.search(r"WO[a-z]$", plain) and plain in functions:
            return "follow", "an outlined copy or destroy, made by the compiler: followed"
        if plain.startswith("$s6Client") and "closure #" in name:
            return "ok", "the closure given to call: user code"
        if is_stdlib(plain) or plain.startswith("$ss"):
            if name in STDLIB_ALLOWED:
                return "ok", STDLIB_ALLOWED[name]
            if name.startswith("specialized "):
                return "ok", "a specialization that the standard library ships: no metadata"
            generic = "<" in name or re.match(r"^(\(extension in Swift\):)?(%s)[.<]" % "|".join(
                GENERIC_STDLIB_TYPES), name.removeprefix("default argument 0 of ").removeprefix("static "))
            if generic:
                return "FAIL", "a generic standard-library function, run unspecialized: it takes metadata and " \
                    "witness tables and works through them"
            return "FAIL", "a standard-library function that is not on the allow-list (STDLIB_ALLOWED)"
        if plain.startswith("swift_"):
            return "FAIL", "a runtime function that is not on the allow-list (ALLOWED)"
        stripped = re.sub(r"^(static )?", "", name)
        for key, reason in OUT_OF_LINE.items():
            if stripped == key.removeprefix("static ") or name == key:
                return "ok", "out of line, rarely run: " + reason
        if is_library(plain):
            return "follow", "the library's, not inlined: followed"
        return "FAIL", "not known to be cheap: not on any allow-list"

    # An entry of OUT_OF_LINE or RETURNS_A_COPY that names no function of the program no longer allows anything: it
    # was renamed, or its function is gone. Either way the list no longer says what it is for.
    names = {name.removeprefix("static ") for name in by_name}
    stale = [("OUT_OF_LINE", key) for key in OUT_OF_LINE if key.removeprefix("static ") not in names]
    stale += [("RETURNS_A_COPY", key) for key in RETURNS_A_COPY if key not in names]
    if stale:
        for table, key in stale:
            print(f"error: {table} in Scripts/call-path.py lists {key!r}, which names no function of the "
                  "program: rename or remove it", file=sys.stderr)
        return 2

    failures = []
    seen = set()
    queue = []
    for label, name in roots:
        found = by_name.get(name, [])
        if len(found) != 1:
            print(f"error: {len(found)} functions named {name!r} in the client's binary: update the roots in "
                  "Scripts/check-call-path.sh", file=sys.stderr)
            return 2
        queue.append((label, found[0], None, name, False))
        seen.add(found[0])
    while queue:
        label, mangled, via, root, copying = queue.pop(0)
        copying = copying or readable(mangled) in RETURNS_A_COPY
        calls, referenced, failing = live_calls(mangled, functions[mangled])
        heading = f"{label}" + (f"  (reached from {via})" if via else "")
        print(f"\n{heading}\n    {readable(mangled)}")
        rows = collections.Counter()
        for callee in calls:
            rows[(callee, "call")] += 1
        for callee in referenced:
            if is_library(callee) and ("closure #" in readable(callee) or "partial apply" in readable(callee)):
                rows[(callee, "closure")] += 1
        for (callee, how), count in sorted(rows.items(), key=lambda item: readable(item[0][0])):
            verdict, reason = classify(callee, copying)
            if how == "closure":
                reason = "a closure of the library, passed on the path: followed"
            print(f"    {verdict:6} {count:3}  {readable(callee)[:78]:78}  {reason}")
            if verdict == "FAIL":
                failures.append((root, readable(mangled), readable(callee), reason))
            if verdict == "follow" and callee.removesuffix("@plt") not in seen:
                seen.add(callee.removesuffix("@plt"))
                queue.append((readable(callee), callee.removesuffix("@plt"), label, root, copying))
        if failing:
            print(f"    (and {len(failing)} calls on failure paths, which stop the program: not checked)")
    print()
    with open(failures_path, "w") as out:
        for failure in failures:
            print(" | ".join(failure), file=out)
    if failures:
        print(f"error: {len(failures)} forbidden calls (a callee counted once per function) on the call path in an "
              "unoptimized build\n(see \"Writing the call path\" in CONTRIBUTING.md); by function, what each calls:")
        by_function = collections.defaultdict(list)
        for root, function, callee, reason in failures:
            by_function[(root, function)].append((callee, reason))
        for (root, function), callees in by_function.items():
            print(f"  {function}" + ("" if function == root else f"  (reached from {root})"))
            for callee, reason in callees:
                print(f"      {callee[:78]:78}  {reason}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
