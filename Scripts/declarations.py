"""The declarations of Swift source files, and the doc comments before them: what Scripts/model-table.py and
Scripts/doc-links.py resolve names against. Imported by them, not run.

A reader of the text, not a compiler: it skips comments and string literals, follows braces, and records each
declaration made directly in a type's body or at a file's top level (a type, an extension's members, `func`,
`init`, `deinit`, `subscript`, `var`, `let`, an enum `case`, `typealias`, `associatedtype`) with its name, its
argument labels and the types it is nested in. Declarations inside a function's or a property's body are left out,
and every branch of `#if` is read. It does not know what a conformance brings in from the standard library.
"""

import bisect
import dataclasses
import os
import re

TYPE_KEYWORDS = {"struct", "class", "enum", "actor", "protocol"}
# Words after which `class` is a modifier (`class func`), not a type's declaration.
NOT_A_NAME = {"func", "var", "let", "subscript", "init", "deinit", "override", "final", "public", "private",
              "fileprivate", "internal", "package", "open", "static", "typealias", "convenience", "required",
              "nonisolated", "isolated"}
OPERATOR_CHARACTERS = set("/=-+!*%<>&|^~?.")


@dataclasses.dataclass(frozen=True)
class Declaration:
    kind: str          # func, init, deinit, subscript, var, let, case, type, typealias, associatedtype
    name: str          # the base name; `init`, `deinit`, `subscript`, or an operator's symbol
    labels: tuple      # the argument labels (`_` for none), or None for what takes no arguments
    scope: tuple       # the names of the types it is declared in, outermost first; () at the top level
    module: str
    path: str
    line: int

    @property
    def spelled(self):
        """The declaration as DocC names it: `name(label:_:)`, or `name`."""
        if self.labels is None:
            return self.name
        return self.name + "(" + "".join(label + ":" for label in self.labels) + ")"


@dataclasses.dataclass
class DocComment:
    path: str
    lines: list        # (line number, text after `///`)
    context: tuple = ()  # the scope the comment's links resolve from: its declaration's, and the declaration
    #                      itself where that is a type or an extension


@dataclasses.dataclass
class Token:
    text: str
    line: int
    offset: int


class Lexer:
    """Splits Swift source into tokens, leaving out comments and string literals, and collects the `///` and
    `/** */` comments with the offset of the token that follows each run of them."""

    def __init__(self, source):
        self.source = source
        self.starts = [0] + [i + 1 for i, c in enumerate(source) if c == "\n"]
        self.tokens = []
        self.docs = []      # [lines, offset of the next token]: lines are (line number, text)
        self.pending = None

    def line(self, offset):
        return bisect.bisect_right(self.starts, offset)

    def doc(self, offset, text):
        if self.pending is None:
            self.pending = []
            self.docs.append([self.pending, None])
        self.pending.append((self.line(offset), text))

    def emit(self, text, offset):
        if self.pending is not None:
            self.docs[-1][1] = offset
            self.pending = None
        self.tokens.append(Token(text, self.line(offset), offset))

    def skip_string(self, i):
        """The offset after the string literal that starts at i (at its `#`s or its quote)."""
        s = self.source
        hashes = 0
        while s[i] == "#":
            hashes += 1
            i += 1
        multiline = s.startswith('"""', i)
        close = ('"""' if multiline else '"') + "#" * hashes
        i += 3 if multiline else 1
        escape = "\\" + "#" * hashes
        while i < len(s):
            if s.startswith(escape, i):
                i += len(escape)
                if i < len(s) and s[i] == "(":
                    i = self.skip_interpolation(i + 1)
                else:
                    i += 1
            elif s.startswith(close, i):
                return i + len(close)
            elif s[i] == "\n" and not multiline:
                return i
            else:
                i += 1
        return i

    def skip_interpolation(self, i):
        s, depth = self.source, 1
        while i < len(s) and depth:
            if s[i] == '"' or (s[i] == "#" and re.match(r'#+"', s[i:i + 8])):
                i = self.skip_string(i)
                continue
            depth += {"(": 1, ")": -1}.get(s[i], 0)
            i += 1
        return i

    def run(self):
        s, i, n = self.source, 0, len(self.source)
        while i < n:
            c = s[i]
            if c in " \t\r\n":
                i += 1
            elif s.startswith("//", i):
                end = s.find("\n", i)
                end = n if end < 0 else end
                if s.startswith("///", i) and not s.startswith("////", i):
                    self.doc(i, s[i + 3:end])
                i = end
            elif s.startswith("/*", i):
                start, depth, j = i, 1, i + 2
                while j < n and depth:
                    if s.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif s.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                if s.startswith("/**", start) and not s.startswith("/**/", start):
                    for k, text in enumerate(s[start + 3:j - 2].split("\n")):
                        self.doc(self.starts[self.line(start) - 1 + k] if k else start,
                                 re.sub(r"^\s*\*?", "", text) if k else text)
                i = j
            elif c == '"' or (c == "#" and re.match(r'#+"', s[i:i + 8])):
                i = self.skip_string(i)
                self.emit('""', i)
            elif c == "#" and re.match(r"#(if|elseif|else|endif)\b", s[i:i + 8]):
                end = s.find("\n", i)   # a condition of compilation: every branch is read
                i = n if end < 0 else end
            elif c.isalpha() or c in "_#$" or ord(c) > 127:
                j = i + 1
                while j < n and (s[j].isalnum() or s[j] in "_$" or ord(s[j]) > 127):
                    j += 1
                self.emit(s[i:j], i)
                i = j
            elif c == "`":
                j = s.find("`", i + 1)
                self.emit(s[i + 1:j], i)
                i = j + 1
            elif c.isdigit():
                j = i + 1
                while j < n and (s[j].isalnum() or s[j] == "_" or (s[j] == "." and s[j + 1:j + 2].isdigit())):
                    j += 1
                self.emit("0", i)
                i = j
            elif c == "?" or (c == "!" and not s.startswith("!=", i)):
                self.emit(c, i)     # alone, so that `init?<T>` and `x!.y` split as the compiler reads them
                i += 1
            elif c in OPERATOR_CHARACTERS:
                j = i + 1
                # Only an operator that starts with `.` has dots in it (`..<`): `>.` is two tokens.
                while j < n and s[j] in OPERATOR_CHARACTERS and s[j] != "?" and (c == "." or s[j] != "."):
                    j += 1
                run = s[i:j]
                if set(run) <= {"<", ">"} or run == ".":
                    for k, character in enumerate(run):
                        self.emit(character, i + k)
                else:
                    self.emit(run, i)
                i = j
            else:
                self.emit(c, i)
                i += 1
        return self


def is_identifier(text):
    return re.match(r"^[A-Za-z_$][A-Za-z0-9_$]*$", text) is not None


class Parser:
    """Finds the declarations in one file's tokens."""

    def __init__(self, tokens, docs, module, path):
        self.t = tokens
        self.module, self.path = module, path
        self.declarations = []
        self.doc_at = {offset: lines for lines, offset in docs if offset is not None}
        self.comments = []

    def balanced(self, i, opening, closing):
        """The index after the bracket that closes the one at i."""
        depth = 0
        while i < len(self.t):
            text = self.t[i].text
            if text == opening:
                depth += 1
            elif text == closing:
                depth -= 1
                if depth == 0:
                    return i + 1
            elif opening == "<" and text in ("{", ";"):   # not a generic clause after all
                return i
            i += 1
        return i

    def labels(self, i, kind):
        """The argument labels of the parameter clause whose `(` is at i, and the index after it."""
        end = self.balanced(i, "(", ")")
        parameters, current, depth = [], [], 0
        for token in self.t[i + 1:end - 1]:
            text = token.text
            if text in ("(", "[", "{", "<"):
                depth += 1
            elif text in (")", "]", "}", ">"):
                depth -= 1
            if text == "," and depth == 0:
                parameters.append(current)
                current = []
            else:
                current.append((text, depth))
        if current:
            parameters.append(current)
        labels = []
        for parameter in parameters:
            names = []
            for text, depth in parameter:
                if text == ":" and depth == 0:
                    break
                names.append(text)
            else:
                names = None            # an associated value without a label: `case some(Int)`
            if kind == "case":
                labels.append(names[0] if names else "_")
            elif kind in ("subscript", "operator"):
                labels.append(names[0] if names and len(names) > 1 else "_")
            else:
                labels.append(names[0] if names else "_")
        return tuple(labels), end

    def record(self, kind, name, labels, scope, token, doc_context=None):
        self.declarations.append(Declaration(kind, name, labels, scope, self.module, self.path, token.line))
        self.attach(doc_context if doc_context is not None else scope)

    def attach(self, context):
        """Gives the doc comment before the declaration just read the scope its links resolve from."""
        if self.comment is not None:
            self.comment.context = context
            self.comment = None

    def run(self):
        t = self.t
        stack = []              # each scope: the type path it declares members of, or None (a body)
        pending_type = None     # the path of a type or extension whose `{` comes next
        self.comment = None     # the doc comment that waits for its declaration
        i = 0
        while i < len(t):
            text = t[i].text
            in_declarations = not stack or stack[-1] is not None
            scope = stack[-1] if stack and stack[-1] is not None else ()
            if t[i].offset in self.doc_at:
                # Until its declaration is read, a comment resolves from the innermost type around it.
                around = next((path for path in reversed(stack) if path is not None), ())
                self.comment = DocComment(self.path, self.doc_at[t[i].offset], around)
                self.comments.append(self.comment)
            previous = t[i - 1].text if i else ""
            if text in ("{", "}"):
                if text == "{":
                    stack.append(pending_type)
                    pending_type = None
                elif stack:
                    stack.pop()
                self.comment = None
                i += 1
                continue
            if not in_declarations or previous == ".":
                i += 1
                continue
            following = t[i + 1].text if i + 1 < len(t) else ""
            if text == "@":             # an attribute, with its arguments
                i += 2
                if i < len(t) and t[i].text == "(" and t[i].line == t[i - 1].line:
                    i = self.balanced(i, "(", ")")
                continue
            if text in TYPE_KEYWORDS and is_identifier(following) and following not in NOT_A_NAME:
                name = following
                self.record("type", name, None, scope, t[i], scope + (name,))
                pending_type = scope + (name,)
                i += 2
                continue
            if text == "extension":
                j, parts = i + 1, []
                while j < len(t) and is_identifier(t[j].text):
                    parts.append(t[j].text)
                    if j + 1 < len(t) and t[j + 1].text == ".":
                        j += 2
                    else:
                        j += 1
                        break
                self.attach(tuple(parts))
                pending_type = tuple(parts)
                i = j
                continue
            if text == "func":
                name, j = following, i + 2
                # An operator's name is split where it is made of `<` and `>`.
                while j < len(t) and t[j].text in ("<", ">") and t[j].offset == t[j - 1].offset + 1 and \
                        not is_identifier(name):
                    name += t[j].text
                    j += 1
                if j < len(t) and t[j].text == "<":
                    j = self.balanced(j, "<", ">")
                labels, j = self.labels(j, "func" if is_identifier(name) else "operator")
                self.record("func", name, labels, scope, t[i])
                i = j
                continue
            if text in ("init", "subscript"):
                j = i + 1
                if j < len(t) and t[j].text in ("?", "!"):
                    j += 1
                if j < len(t) and t[j].text == "<":
                    j = self.balanced(j, "<", ">")
                if j < len(t) and t[j].text == "(":
                    labels, j = self.labels(j, text)
                    self.record(text, text, labels, scope, t[i])
                    i = j
                    continue
            if text == "deinit":
                self.record("deinit", "deinit", None, scope, t[i])
            if text in ("var", "let") and previous not in ("case", "(", ","):
                if is_identifier(following):
                    self.record(text, following, None, scope, t[i])
                    i += 2
                    continue
                if following == "(":        # a tuple pattern
                    end = self.balanced(i + 1, "(", ")")
                    for token in t[i + 2:end - 1]:
                        if is_identifier(token.text):
                            self.record(text, token.text, None, scope, t[i])
                    i = end
                    continue
            if text == "case" and scope and is_identifier(following):
                j = i + 1
                while j < len(t) and is_identifier(t[j].text):
                    name, j = t[j].text, j + 1
                    labels = None
                    if j < len(t) and t[j].text == "(" and t[j].line == t[j - 1].line:
                        labels, j = self.labels(j, "case")
                    self.record("case", name, labels, scope, t[i])
                    if j < len(t) and t[j].text == "=":
                        j += 2
                    if j < len(t) and t[j].text == ",":
                        j += 1
                    else:
                        break
                i = j
                continue
            if text in ("typealias", "associatedtype") and is_identifier(following):
                self.record(text, following, None, scope, t[i])
                i += 2
                continue
            i += 1
        return self


class Index:
    """The declarations of a set of modules, by the type path they are declared in."""

    def __init__(self, declarations, comments=()):
        self.declarations = declarations
        self.comments = list(comments)
        self.members = {}
        for declaration in declarations:
            self.members.setdefault(declaration.scope, []).append(declaration)
        self.types = {d.scope + (d.name,) for d in declarations if d.kind == "type"}
        self.names = {d.name for d in declarations}

    def type_paths(self, dotted):
        """The paths of the declared types whose path ends with `dotted`'s components (`A.B`)."""
        parts = tuple(dotted.split("."))
        return sorted(path for path in self.types if path[-len(parts):] == parts)

    def find(self, scope, name, labels=None, kinds=None):
        """The declarations in `scope` named `name`, with these labels if not None, of these kinds if given."""
        return [d for d in self.members.get(scope, [])
                if d.name == name and (labels is None or d.labels == labels) and (kinds is None or d.kind in kinds)]

    def anywhere(self, name, labels=None, kinds=None):
        return [d for d in self.declarations
                if d.name == name and (labels is None or d.labels == labels) and (kinds is None or d.kind in kinds)]


def swift_files(folder):
    for directory, _, files in sorted(os.walk(folder)):
        for file in sorted(files):
            if file.endswith(".swift"):
                yield os.path.join(directory, file)


def read_modules(root, modules):
    """The Index of the Swift files under Sources/<module> for each module, with their doc comments."""
    declarations, comments = [], []
    for module in modules:
        for path in swift_files(os.path.join(root, "Sources", module)):
            lexer = Lexer(open(path, encoding="utf-8").read()).run()
            parser = Parser(lexer.tokens, lexer.docs, module, os.path.relpath(path, root)).run()
            declarations += parser.declarations
            comments += parser.comments
    return Index(declarations, comments)


def identifiers_used(root, modules):
    """Every identifier that the Swift files of the modules use, declared there or not."""
    names = set()
    for module in modules:
        for path in swift_files(os.path.join(root, "Sources", module)):
            names.update(token.text for token in Lexer(open(path, encoding="utf-8").read()).run().tokens)
    return names
