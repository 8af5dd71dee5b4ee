"""Mutation operators over a C++ token stream: the same families as
`mutate_python.py` (its docstring names them), applied to the tokens of a
solution's function bodies.

A full C++ parser is not needed for one-token changes: the tokens tell a
comparison from a template's angle brackets (a `<` right after a template
name opens one), a unary minus from a binary one (what precedes it), and
the statements of a body from its braces, parentheses and semicolons. A
change that does not compile is left to the compiler: the harness builds
every mutant and counts those that fail as unviable.
"""

import re

TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<pre>\#[^\n]*)
  | (?P<string>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
  | (?P<number>\d[\w.']*)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op>->\*|<<=|>>=|\.\.\.|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|\|=|\^=|[-+*/%<>=!&|^~?:;,.(){}\[\]])
""",
    re.X | re.S,
)
TEMPLATES = {
    "vector", "queue", "deque", "pair", "map", "set", "unordered_map", "unordered_set",
    "priority_queue", "array", "function", "greater", "less", "tuple", "optional", "stack",
    "static_cast", "dynamic_cast", "reinterpret_cast", "const_cast", "numeric_limits", "list",
}
CMP = {"<": ("<=", ">="), "<=": ("<", ">"), ">": (">=", "<="), ">=": (">", "<"), "==": ("!=",), "!=": ("==",)}
ARITH = {"+": ("-",), "-": ("+",), "*": ("+",), "/": ("*", "%"), "%": ("/",)}
ASSIGN_ARITH = {"+=": ("-=",), "-=": ("+=",)}
INT_TYPES = {"int", "long", "size_t", "unsigned", "short"}
KEYWORDS = {
    "if", "else", "for", "while", "do", "return", "break", "continue", "int", "long", "bool", "auto",
    "const", "class", "struct", "public", "private", "true", "false", "new", "delete", "this",
    "std", "size_t", "void", "static", "using", "namespace", "unsigned", "throw", "template",
    "typename", "nullptr", "sizeof", "short", "char", "double", "float", "operator",
}
# A `-` after one of these is a sign, not a subtraction.
OPERAND_END = {")", "]"}
MARKING_METHODS = ("push_back", "push", "insert", "emplace_back", "emplace")


class Token:
    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line
        self.template = False  # an angle bracket of a template

    def __repr__(self):
        return self.text


def tokenize(source):
    tokens, line, pos = [], 1, 0
    while pos < len(source):
        m = TOKEN.match(source, pos)
        if not m:
            raise ValueError("cannot read C++ at line {}: {!r}".format(line, source[pos:pos + 20]))
        kind = m.lastgroup
        text = m.group()
        if kind not in ("space", "comment"):
            tokens.append(Token(kind, text, line))
        line += text.count("\n")
        pos = m.end()
    _mark_templates(tokens)
    return tokens


def _mark_templates(tokens):
    for i, t in enumerate(tokens):
        if t.text == "<" and i > 0 and tokens[i - 1].text in TEMPLATES:
            depth, j = 0, i
            while j < len(tokens):
                if tokens[j].text == "<":
                    depth += 1
                    tokens[j].template = True
                elif tokens[j].text == ">":
                    depth -= 1
                    tokens[j].template = True
                elif tokens[j].text == ">>":
                    depth -= 2
                    tokens[j].template = True
                elif tokens[j].text in (";", "{", ")") and depth > 0 and tokens[j].text != ")":
                    break
                if depth <= 0:
                    break
                j += 1


def render(tokens):
    """Tokens back to source: preprocessor lines on lines of their own."""
    out, previous = [], None
    for t in tokens:
        if t.kind == "pre":
            out.append("\n" + t.text + "\n")
        else:
            if previous is not None and _needs_space(previous, t):
                out.append(" ")
            out.append(t.text)
            if t.text in (";", "{", "}"):
                out.append("\n")
        previous = t
    return "".join(out)


def _needs_space(a, b):
    word = re.compile(r"\w")
    if word.search(a.text[-1:]) and word.search(b.text[:1]):
        return True
    # Keep `a - -1`, `> >` and `+ +` apart.
    return a.kind == "op" and b.kind == "op"


# -- structure ----------------------------------------------------------------


class Statement:
    def __init__(self, start, end, kind, children=None):
        self.start, self.end, self.kind = start, end, kind  # tokens[start:end]
        self.children = children or []  # nested statement lists (blocks)


def _match(tokens, i):
    """The index just past the bracket matching tokens[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    opening, closing = tokens[i].text, pairs[tokens[i].text]
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].text == opening:
            depth += 1
        elif tokens[j].text == closing:
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError("unbalanced " + opening)


def parse_block(tokens, i):
    """The statements of the block opening at tokens[i] (`{`); returns
    (statements, index past the closing brace)."""
    assert tokens[i].text == "{"
    statements, j = [], i + 1
    while tokens[j].text != "}":
        statement, j = parse_statement(tokens, j)
        statements.append(statement)
    return statements, j + 1


def parse_statement(tokens, i):
    t = tokens[i].text
    if t == "{":
        body, end = parse_block(tokens, i)
        return Statement(i, end, "block", [body]), end
    if t in ("if", "for", "while") and tokens[i + 1].text == "(":
        header_end = _match(tokens, i + 1)
        inner, end = parse_statement(tokens, header_end)
        children = [_as_list(inner)]
        if t == "if" and end < len(tokens) and tokens[end].text == "else":
            other, end = parse_statement(tokens, end + 1)
            children.append(_as_list(other))
        return Statement(i, end, t, children), end
    # A simple statement: up to the `;` outside brackets; a lambda's body
    # inside it is a block of its own.
    j, nested = i, []
    while tokens[j].text != ";":
        if tokens[j].text in ("(", "["):
            j = _match(tokens, j)
            continue
        if tokens[j].text == "{":
            body, j = parse_block(tokens, j)
            nested.append(body)
            continue
        j += 1
    kind = "return" if t == "return" else "break" if t in ("break", "continue") else "simple"
    return Statement(i, j + 1, kind, nested), j + 1


def _as_list(statement):
    return statement.children[0] if statement.kind == "block" else [statement]


def function_bodies(tokens):
    """Every function body at namespace or class level: a `{` after the
    `)` of a parameter list (and a constructor's initialiser list)."""
    bodies, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t.text == "{":
            j = i - 1
            while j >= 0 and tokens[j].text in ("const", "override", "noexcept"):
                j -= 1
            if j >= 0 and tokens[j].text == ")" and not _is_control(tokens, j):
                body, end = parse_block(tokens, i)
                bodies.append((i, end, body))
                i = end
                continue
        i += 1
    return bodies


def _is_control(tokens, close):
    depth = 0
    for j in range(close, -1, -1):
        if tokens[j].text == ")":
            depth += 1
        elif tokens[j].text == "(":
            depth -= 1
            if depth == 0:
                return j > 0 and tokens[j - 1].text in ("if", "for", "while", "switch")
    return False


def _walk(statements, parent=None):
    """(statement, the list holding it, the statement whose child list it is)."""
    for s in statements:
        yield s, statements, parent
        for child in s.children:
            yield from _walk(child, s)


# -- declarations -------------------------------------------------------------


def _block_end(tokens, i):
    """The index just past the block (or parameter list's body) that holds
    tokens[i]: a declaration's scope."""
    depth, statement = 0, False
    for j in range(i, len(tokens)):
        if tokens[j].text == "{":
            depth += 1
        elif tokens[j].text == "}":
            depth -= 1
            if depth < 0:
                return j
        elif tokens[j].text == ";":
            statement = True
        elif tokens[j].text == ")" and depth == 0 and not statement and _opens_body(tokens, j):
            # A parameter: its scope is the body after the `)`.
            body = j + 1
            while tokens[body].text != "{":
                body += 1
            return _match(tokens, body)
    return len(tokens)


def _opens_body(tokens, close):
    """Whether the `)` at close ends a parameter list followed by a body
    (a function's or a lambda's), rather than a call's arguments."""
    j = close + 1
    while j < len(tokens) and tokens[j].text in ("const", "override", "noexcept", "->", "int", "bool", "void", "mutable"):
        j += 1
    return j < len(tokens) and tokens[j].text == "{" and not _is_control(tokens, close)


def int_names(tokens, start, end):
    """Names declared `int` (or `size_t`, `long`, a structured binding of
    ints) in tokens[start:end]: {name: [(from, to), ...]}, the token
    ranges where each is in scope."""
    names = {}
    for i in range(start, end):
        t = tokens[i]
        declared = []
        if t.text in INT_TYPES and i + 1 < end and tokens[i + 1].kind == "name":
            if tokens[i + 1].text not in KEYWORDS and (i + 2 >= end or tokens[i + 2].text != "("):
                declared.append(i + 1)
        if t.text == "auto" and i + 1 < end and tokens[i + 1].text == "[":
            j = i + 2
            while tokens[j].text != "]":
                if tokens[j].kind == "name":
                    declared.append(j)
                j += 1
        for d in declared:
            names.setdefault(tokens[d].text, []).append((d + 1, _block_end(tokens, d)))
    return names


def in_scope(names, i):
    return {name for name, ranges in names.items() if any(a <= i < b for a, b in ranges)}


# -- the mutants --------------------------------------------------------------


class Mutant:
    def __init__(self, operator, line, description, source):
        self.operator = operator
        self.line = line
        self.description = description
        self.source = source


def _text(tokens):
    return " ".join(t.text for t in tokens)


class _Generator:
    def __init__(self, source):
        self.tokens = tokenize(source)
        self.original = render(self.tokens)
        self.seen = {self.original}
        self.mutants = []
        self.bodies = function_bodies(self.tokens)
        # Class members are in scope everywhere in the class.
        self.members = {
            name for name, ranges in int_names(self.tokens, 0, len(self.tokens)).items()
            if name.endswith("_")
        }

    def emit(self, operator, at, old, new, replacement):
        """Replaces tokens[a:b] by `replacement` (tokens) for each (a, b)."""
        tokens = list(self.tokens)
        for (a, b), new_tokens in sorted(replacement, key=lambda r: -r[0][0]):
            tokens[a:b] = new_tokens
        source = render(tokens)
        if source in self.seen:
            return
        self.seen.add(source)
        line = self.tokens[at].line
        self.mutants.append(Mutant(operator, line, "line {}: {} -> {}".format(line, old, new), source))

    def _names_in(self, start, end):
        """Int names in scope at each token of a body: parameters (declared
        just before it) and locals, and the class's members."""
        header = start
        while header > 0 and self.tokens[header].text != "(":
            header -= 1
        while header > 0 and self.tokens[header - 1].text not in (";", "{", "}", ":"):
            header -= 1
        table = int_names(self.tokens, header, end)
        return _Scopes(table, self.members)

    def token(self, text, like):
        t = Token("op" if not re.match(r"\w", text) else "name", text, like.line)
        return t

    def run(self):
        for start, end, body in self.bodies:
            names = self._names_in(start, end)
            self.expressions(start, end, names)
            self.statements(body, names)
        return self.mutants

    # -- expressions --

    def expressions(self, start, end, names):
        tokens = self.tokens
        for i in range(start, end):
            t = tokens[i]
            before = tokens[i - 1] if i > 0 else None
            if t.kind == "op" and t.text in CMP and not t.template:
                for new in CMP[t.text]:
                    self.emit("cmp", i, self._around(i), self._around(i, new), [((i, i + 1), [self.token(new, t)])])
            elif t.kind == "number" and re.fullmatch(r"\d+", t.text):
                value = int(t.text)
                negative = before is not None and before.text == "-" and self._is_sign(i - 1)
                if negative:
                    for v in (-value + 1, -value - 1):
                        new = [self.token(str(v), t)] if v >= 0 else [self.token("-", t), self.token(str(-v), t)]
                        self.emit("const", i, "-" + t.text, str(v), [((i - 1, i + 1), new)])
                else:
                    for v in (value + 1, value - 1):
                        new = [self.token(str(v), t)] if v >= 0 else [self.token("(", t), self.token("-", t), self.token(str(-v), t), self.token(")", t)]
                        self.emit("const", i, t.text, str(v), [((i, i + 1), new)])
            elif t.text in ("true", "false"):
                new = "false" if t.text == "true" else "true"
                self.emit("const", i, t.text, new, [((i, i + 1), [self.token(new, t)])])
            elif t.kind == "op" and t.text in ARITH and not self._is_sign(i) and t.text != "*" or (
                t.text == "*" and self._is_binary_star(i)
            ):
                for new in ARITH[t.text]:
                    self.emit("arith", i, self._around(i), self._around(i, new), [((i, i + 1), [self.token(new, t)])])
                self._operand(i)
            elif t.text in ASSIGN_ARITH:
                for new in ASSIGN_ARITH[t.text]:
                    self.emit("arith", i, self._around(i), self._around(i, new), [((i, i + 1), [self.token(new, t)])])
            elif t.text in ("++", "--"):
                new = "--" if t.text == "++" else "++"
                self.emit("arith", i, self._around(i), self._around(i, new), [((i, i + 1), [self.token(new, t)])])
            elif t.text in ("&&", "||"):
                new = "||" if t.text == "&&" else "&&"
                self.emit("logic", i, self._around(i), self._around(i, new), [((i, i + 1), [self.token(new, t)])])
            elif t.text == "!" :
                self.emit("logic", i, self._around(i), self._around(i, ""), [((i, i + 1), [])])
            elif t.text == "?":
                self._ternary(i)
            elif t.text in ("break", "continue"):
                new = "continue" if t.text == "break" else "break"
                self.emit("logic", i, t.text, new, [((i, i + 1), [self.token(new, t)])])
            elif t.text == "[" and before is not None and (before.kind == "name" or before.text in ("]", ")")):
                self._index(i)
            elif t.kind == "name" and t.text in ("min", "max") and i + 1 < end and tokens[i + 1].text == "(":
                self._min_max(i)
            elif t.kind == "name" and t.text in names.at(i) and self._is_use(i):
                for other in sorted(names.at(i) - {t.text}):
                    self.emit("name", i, self._around(i), self._around(i, other), [((i, i + 1), [self.token(other, t)])])
        for i in range(start, end):
            if self.tokens[i].text == "if" and self.tokens[i + 1].text == "(":
                close = _match(self.tokens, i + 1)
                for value in ("true", "false"):
                    self.emit(
                        "logic", i, "if (" + _text(self.tokens[i + 2:close - 1]) + ")", "if (" + value + ")",
                        [((i + 2, close - 1), [self.token(value, self.tokens[i])])],
                    )

    def _is_sign(self, i):
        before = self.tokens[i - 1] if i > 0 else None
        if before is None:
            return True
        if before.kind in ("name", "number") and before.text not in ("return", "case"):
            return False
        if before.text in OPERAND_END or (before.template and before.text in (">", ">>")):
            return False
        return True

    def _is_binary_star(self, i):
        before = self.tokens[i - 1]
        return (before.kind in ("number",) or before.text in OPERAND_END or (
            before.kind == "name" and before.text not in KEYWORDS)) and not self._declaration_star(i)

    def _declaration_star(self, i):
        # `int* move`, `Game* g`: a type before the star, a name after.
        before = self.tokens[i - 1]
        return before.text in INT_TYPES or before.text in ("void", "char", "Game", "auto")

    def _is_use(self, i):
        tokens = self.tokens
        before, after = tokens[i - 1], tokens[i + 1]
        if before.text in (".", "->", "::") or before.text in INT_TYPES or before.text in ("auto", "&", ","):
            # `int x`, `auto& x`, or a declaration list; a `,` in a call is
            # handled below.
            if before.text == ",":
                return not self._in_declaration(i)
            if before.text == "&":
                return tokens[i - 2].kind != "name" or tokens[i - 2].text not in INT_TYPES | {"auto"}
            return False
        if after.text in ("(", "=", "+=", "-=", "++", "--") or before.text in ("++", "--"):
            return False
        if before.text == "[" and tokens[i - 2].text == "auto":
            return False
        return not (after.text == "=" and before.text in INT_TYPES)

    def _in_declaration(self, i):
        j = i - 1
        while j >= 0 and self.tokens[j].text not in (";", "{", "}", "("):
            if self.tokens[j].text in INT_TYPES or self.tokens[j].text == "auto":
                return True
            if self.tokens[j].text == "[":
                return self.tokens[j - 1].text == "auto"
            j -= 1
        return False

    def _around(self, i, replace=None):
        a, b = max(0, i - 3), min(len(self.tokens), i + 4)
        parts = [t.text for t in self.tokens[a:b]]
        if replace is not None:
            parts[i - a] = replace
        return " ".join(p for p in parts if p)

    def _operand_span(self, i, direction):
        """The operand beside the operator at i: a name or number with its
        postfix calls, indexes and members, or a bracketed expression."""
        tokens = self.tokens
        if direction > 0:
            j = i + 1
            if tokens[j].text == "(":
                return j, _match(tokens, j)
            if tokens[j].kind not in ("name", "number"):
                return None
            j += 1
            while j < len(tokens):
                if tokens[j].text in ("(", "["):
                    j = _match(tokens, j)
                elif tokens[j].text in (".", "->") and tokens[j + 1].kind == "name":
                    j += 2
                else:
                    break
            return i + 1, j
        j = i - 1
        while j >= 0:
            if tokens[j].text in (")", "]"):
                depth = 0
                while j >= 0:
                    if tokens[j].text in (")", "]"):
                        depth += 1
                    elif tokens[j].text in ("(", "["):
                        depth -= 1
                        if depth == 0:
                            break
                    j -= 1
                j -= 1
                continue
            if tokens[j].kind in ("name", "number"):
                if j > 0 and tokens[j - 1].text in (".", "->"):
                    j -= 2
                    continue
                return j, i
            break
        return None

    def _operand(self, i):
        """`a - b` to `a` and to `b`."""
        left = self._operand_span(i, -1)
        right = self._operand_span(i, +1)
        if left is None or right is None:
            return
        old = _text(self.tokens[left[0]:right[1]])
        self.emit("operand", i, old, _text(self.tokens[left[0]:left[1]]), [((i, right[1]), [])])
        self.emit("operand", i, old, _text(self.tokens[right[0]:right[1]]), [((left[0], i + 1), [])])

    def _index(self, i):
        close = _match(self.tokens, i)
        inner = self.tokens[i + 1:close - 1]
        if len(inner) == 1 and inner[0].kind == "number":
            return
        if len(inner) >= 2 and inner[-1].kind == "number" and inner[-2].text in ("+", "-"):
            return
        t = self.tokens[i]
        for op in ("+", "-"):
            new = [self.token("(", t)] + inner + [self.token(")", t), self.token(op, t), self.token("1", t)]
            self.emit("bound", i, "[" + _text(inner) + "]", "[(" + _text(inner) + ") " + op + " 1]", [((i + 1, close - 1), new)])

    def _min_max(self, i):
        start = i - 2 if i >= 2 and self.tokens[i - 1].text == "::" else i
        close = _match(self.tokens, i + 1)
        args, depth, current = [], 0, []
        for t in self.tokens[i + 2:close - 1]:
            if t.text in ("(", "[", "{"):
                depth += 1
            elif t.text in (")", "]", "}"):
                depth -= 1
            if t.text == "," and depth == 0:
                args.append(current)
                current = []
            else:
                current.append(t)
        args.append(current)
        if len(args) != 2:
            return
        old = _text(self.tokens[start:close])
        for arg in args:
            t = self.tokens[i]
            self.emit("call", i, old, _text(arg), [((start, close), [self.token("(", t)] + arg + [self.token(")", t)])])

    def _ternary(self, q):
        """`c ? a : b` to `c ? b : a`, to `a`, to `b` (the branches end at
        the statement's `;`, `,` or closing bracket)."""
        tokens = self.tokens
        depth, colon, end = 0, None, None
        for j in range(q + 1, len(tokens)):
            text = tokens[j].text
            if text in ("(", "[", "{"):
                depth += 1
            elif text in (")", "]", "}"):
                if depth == 0:
                    end = j
                    break
                depth -= 1
            elif depth == 0 and text == ":" and colon is None:
                colon = j
            elif depth == 0 and text in (";", ","):
                end = j
                break
        if colon is None or end is None:
            return
        # The condition starts after `=`, `(`, `return` or `,`.
        start = q - 1
        depth = 0
        while start >= 0:
            text = tokens[start].text
            if text in (")", "]"):
                depth += 1
            elif text in ("(", "["):
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and text in ("=", "return", ",", ";", "{"):
                break
            start -= 1
        start += 1
        a, b = tokens[q + 1:colon], tokens[colon + 1:end]
        cond = tokens[start:q]
        old = _text(tokens[start:end])
        t = tokens[q]
        paren = lambda x: [self.token("(", t)] + x + [self.token(")", t)]  # noqa: E731
        self.emit("logic", q, old, "swapped", [((q + 1, colon), b), ((colon + 1, end), a)])
        self.emit("logic", q, old, _text(a), [((start, end), paren(a))])
        self.emit("logic", q, old, _text(b), [((start, end), paren(b))])
        del cond

    # -- statements --

    def statements(self, body, names):
        tokens = self.tokens
        for s, holder, parent in _walk(body):
            text = _text(tokens[s.start:s.end])
            first = text if len(text) < 80 else text[:77] + "..."
            # A deleted statement in a branch without braces becomes `;`.
            self.emit("delete", s.start, first, "(deleted)", [((s.start, s.end), [self.token(";", tokens[s.start])])])
            declaration = self._declares(s)
            if s.kind not in ("return", "break") and not declaration and not self._idempotent(s):
                copy = tokens[s.start:s.end]
                self.emit(
                    "duplicate", s.start, first, "(twice)",
                    [((s.start, s.end), [self.token("{", tokens[s.start])] + copy + copy + [self.token("}", tokens[s.start])])],
                )
            k = next(j for j, x in enumerate(holder) if x is s)
            if k + 1 < len(holder) and not self._independent(s, holder[k + 1]):
                nxt = holder[k + 1]
                self.emit(
                    "swap", s.start, first, "(after) " + _text(tokens[nxt.start:nxt.end])[:60],
                    [((s.start, nxt.end), tokens[nxt.start:nxt.end] + tokens[s.start:s.end])],
                )
            if parent is not None and parent.kind in ("if", "for", "while") and not declaration:
                self._hoist(s, parent, first)
            if s.kind == "if" and len(s.children) == 1:
                self._while(s, first)
            self._mark(s, first, names)
            self._reapply(s, holder, k, first, names)

    def _pure_assignment(self, s):
        """(the variable it writes, the names it reads) for `x = e;` or
        `x[i] = e;` without calls or increments; None otherwise."""
        part = self.tokens[s.start:s.end]
        if s.kind != "simple" or self._declares(s):
            return None
        texts = [t.text for t in part]
        if "(" in texts or "++" in texts or "--" in texts or texts.count("=") != 1:
            return None
        at = texts.index("=")
        target, value = part[:at], part[at + 1:]
        if not target or target[0].kind != "name" or any(t.text in (".", "->") for t in target):
            return None
        read = {t.text for t in value + target[1:] if t.kind == "name"}
        return target[0].text, read

    def _idempotent(self, s):
        """Whether running it twice provably does what running it once
        does: its duplicate would be an equivalent mutant, so it is not
        made."""
        facts = self._pure_assignment(s)
        return facts is not None and facts[0] not in facts[1]

    def _independent(self, a, b):
        """Whether two such assignments can run in either order: their
        swap would be an equivalent mutant, so it is not made."""
        fa, fb = self._pure_assignment(a), self._pure_assignment(b)
        if fa is None or fb is None:
            return False
        return fa[0] != fb[0] and fa[0] not in fb[1] and fb[0] not in fa[1]

    def _declares(self, s):
        t = self.tokens[s.start]
        return s.kind == "simple" and (t.text in INT_TYPES or t.text in ("auto", "bool", "vector", "std", "queue", "const"))

    def _hoist(self, s, parent, first):
        tokens = self.tokens
        body = tokens[s.start:s.end]
        semicolon = [self.token(";", tokens[s.start])]
        header = _text(tokens[parent.start:parent.start + 3])
        self.emit(
            "hoist", s.start, first, "(moved before `{} ...`)".format(header),
            [((parent.start, parent.start), body), ((s.start, s.end), semicolon)],
        )
        self.emit(
            "hoist", s.start, first, "(moved after `{} ...`)".format(header),
            [((s.start, s.end), semicolon), ((parent.end, parent.end), body)],
        )

    def _while(self, s, first):
        tokens = self.tokens
        close = _match(tokens, s.start + 1)
        tested = {t.text for t in tokens[s.start + 2:close - 1] if t.kind == "name"}
        assigned = set()
        for j in range(close, s.end - 1):
            if tokens[j + 1].text in ("=", "+=", "-=") and tokens[j].kind == "name":
                assigned.add(tokens[j].text)
        if not tested & assigned:
            return
        self.emit("while", s.start, first, "while (...)", [((s.start, s.start + 1), [self.token("while", tokens[s.start])])])

    def _mark(self, s, first, names):
        """`seen[to] = ...;` also for another square; `v.push_back(to);`."""
        tokens = self.tokens
        if s.kind != "simple":
            return
        part = tokens[s.start:s.end]
        target = None
        if len(part) >= 5 and part[0].kind == "name" and part[1].text == "[" and part[2].kind == "name" and part[3].text == "]" and part[4].text == "=":
            target = 2
        elif len(part) >= 6 and part[1].text in (".",) and part[2].text in MARKING_METHODS and part[3].text == "(" and part[4].kind == "name" and part[5].text == ")":
            target = 4
        here = names.at(s.start)
        if target is None or part[target].text not in here:
            return
        for other in sorted(here - {part[target].text}):
            extra = list(part)
            extra[target] = self.token(other, part[target])
            self.emit("mark", s.start, first, first + " " + _text(extra), [((s.end, s.end), extra)])

    def _reapply(self, s, holder, k, first, names):
        """The statement that settles a square, once more on its result."""
        tokens = self.tokens
        if s.kind != "simple" and s.kind != "if":
            return
        settled = self._assigned(s)
        here = names.at(s.end)
        if settled is None or settled not in here:
            return
        group = [s]
        if k > 0:
            helper = self._assigned(holder[k - 1])
            if helper is not None and helper != settled and any(t.text == helper for t in tokens[s.start:s.end]):
                group = [holder[k - 1], s]
        read = set()
        for g in group:
            read |= {t.text for t in tokens[g.start:g.end] if t.kind == "name" and t.text in here}
        read -= {settled} | {self._assigned(g) for g in group}
        for landed in sorted(read):
            again = []
            for g in group:
                part = list(tokens[g.start:g.end])
                if part[0].text in INT_TYPES or part[0].text == "auto":
                    part = part[1:]
                again += [
                    self.token(settled, t) if t.text == landed and t.kind == "name" and part[j + 1].text != "=" else t
                    for j, t in enumerate(part)
                ]
            self.emit("reapply", s.start, first, first + " then again " + _text(again), [((s.end, s.end), again)])

    def _assigned(self, s):
        tokens = self.tokens
        part = tokens[s.start:s.end]
        if s.kind == "simple":
            i = 1 if part[0].text in INT_TYPES or part[0].text == "auto" else 0
            if len(part) > i + 1 and part[i].kind == "name" and part[i + 1].text == "=":
                return part[i].text
        if s.kind == "if" and len(s.children) == 1 and len(s.children[0]) == 1:
            return self._assigned(s.children[0][0])
        return None


class _Scopes:
    def __init__(self, table, members):
        self.table, self.members = table, members

    def at(self, i):
        return in_scope(self.table, i) | self.members


def mutants(source):
    """Every mutant of a C++ source, in a fixed order."""
    return _Generator(source).run()
