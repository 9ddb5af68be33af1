#!/usr/bin/env python3
"""Checks that every ``symbol`` link of the library's doc comments names a declaration of its sources.

Usage: doc-links.py [ROOT]

Reads the `///` and `/** */` comments of Sources/Multicast and Sources/_MulticastCore under ROOT (the package's
root by default) and resolves each double-backtick link as DocC does, relative to the declaration the comment
documents: its first component in the declaration's own scope (its members, if it is a type or an extension), then
in each type around it, out to the module; the next components in the type found. A component is a name with its
argument labels, `add(_:ownedBy:file:line:)`, or without, for what takes none (a property, an enum case, a type);
DocC's suffixes are read: a kind (`-swift.property`, `-swift.init`, ...) must be the declaration's, a hash (`-rlcb`)
or a type signature (`-(Int)`, `->Bool`) is not checked. A leading module name is skipped. Links of the core resolve
within the core; those of Multicast within either module, as Multicast imports the core.

DocC checks the public symbols of Multicast only, when it builds the catalog (Scripts/check-docs.sh); this reads
every comment, internal and package symbols' and the core's included. Prints each link that names no declaration,
with the declarations of the same name if there are any, and exits 1 if there is one.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the working tree
import declarations  # noqa: E402 (Scripts/declarations.py, beside this script)

MODULES = ("_MulticastCore", "Multicast")
# The modules whose declarations each module's links may name.
VISIBLE = {"_MulticastCore": {"_MulticastCore"}, "Multicast": {"_MulticastCore", "Multicast"}}

LINK = re.compile(r"(?<!`)``([^`\s][^`]*?)``(?!`)")
COMPONENT = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*|[-+*/=<>!&|^~%?.]+?)(?:\((?P<labels>[^()]*)\))?"
                       r"(?:-(?P<suffix>.+))?$")
# DocC's kind suffixes, and the kinds of declaration each names.
KINDS = {
    "property": {"var", "let"}, "type.property": {"var", "let"}, "var": {"var", "let"},
    "method": {"func"}, "type.method": {"func"}, "func": {"func"}, "func.op": {"func"},
    "init": {"init"}, "deinit": {"deinit"}, "subscript": {"subscript"}, "type.subscript": {"subscript"},
    "enum.case": {"case"}, "struct": {"type"}, "class": {"type"}, "enum": {"type"}, "protocol": {"type"},
    "actor": {"type"}, "typealias": {"typealias"}, "associatedtype": {"associatedtype"},
}
# What takes no argument list, and is linked without one.
UNLABELED = {"var", "let", "type", "typealias", "associatedtype", "deinit", "case"}


def parse_component(text):
    """(name, labels or None, kinds or None), or None if the component cannot be a symbol's."""
    match = COMPONENT.match(text)
    if not match:
        return None
    labels = match.group("labels")
    if labels is not None:
        if labels and not labels.endswith(":"):
            return None
        labels = tuple(labels.split(":")[:-1])
    kinds = None
    suffix = match.group("suffix")
    if suffix and suffix.startswith("swift."):
        kinds = KINDS.get(suffix.removeprefix("swift."))
        if kinds is None:
            return None
    return match.group("name"), labels, kinds


def matches(declaration, name, labels, kinds):
    if declaration.name != name or (kinds is not None and declaration.kind not in kinds):
        return False
    if labels is None:
        return declaration.kind in UNLABELED and (declaration.kind != "case" or declaration.labels is None)
    return declaration.labels == labels


def resolve(index, visible, components, context):
    """Whether the components name a declaration, resolved from the scope `context`."""
    def members(scope, component):
        return [d for d in index.members.get(scope, []) if d.module in visible and matches(d, *component)]

    scopes = [context[:length] for length in range(len(context), -1, -1)]
    for scope in scopes:
        found = members(scope, components[0])
        for component in components[1:]:
            found = [match for d in found if d.kind == "type"
                     for match in members(d.scope + (d.name,), component)]
        if found:
            return True
    return False


def near(index, visible, component):
    """The declarations named as the component is, whatever their labels and scope: a hint at what it meant."""
    name = component[0]
    return sorted({"/".join(d.scope + (d.spelled,)) for d in index.declarations
                   if d.module in visible and d.name == name})


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    index = declarations.read_modules(root, MODULES)
    problems, links = [], 0
    for comment in index.comments:
        module = comment.path.split(os.sep)[1]
        visible = VISIBLE[module]
        fenced = False
        for line, text in comment.lines:
            if text.strip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            for match in LINK.finditer(text):
                links += 1
                link = match.group(1)
                parts = link.split("/")
                if parts[0] in MODULES and len(parts) > 1 and (parts[0],) not in index.types:
                    parts = parts[1:]
                components = [parse_component(part) for part in parts]
                if None not in components and resolve(index, visible, components, comment.context):
                    continue
                where = "/".join(comment.context) or "the module"
                hint = near(index, visible, components[-1]) if components[-1] else []
                problems.append(f"{comment.path}:{line}: ``{link}`` names no declaration (resolved from {where})"
                                + (f"; declared: {', '.join('``' + h + '``' for h in hint)}" if hint else ""))
    if links == 0:
        print("error: no ``symbol`` link found in the doc comments: the reader of the sources is broken")
        return 1
    if problems:
        print("\n".join(problems))
        print(f"error: {len(problems)} of {links} ``symbol`` links in the doc comments of {' and '.join(MODULES)} "
              "name no declaration")
        return 1
    print(f"doc links: all {links} ``symbol`` links of the {len(index.comments)} doc comments of "
          f"{' and '.join(MODULES)} name a declaration")
    return 0


if __name__ == "__main__":
    sys.exit(main())
