"""Mutation operators over Python's `ast`: every way of making one small
change to a solution that the operators below name, each a mutant.

A mutant is one change at one place. The operators are salgrade's own,
chosen for the bugs students write in these assignments (the classic
operator families of mutmut and cosmic-ray are here too: comparisons,
constants, arithmetic, boolean operators, `break`/`continue`, statement
deletion):

- `cmp`: a comparison's boundary moved (`<` to `<=`) or negated (`<` to
  `>=`, `==` to `!=`, `is` to `is not`, `in` to `not in`);
- `const`: an integer constant one more or one less (`-1` to `0` and `-2`),
  `True` and `False` swapped;
- `arith`: `+` and `-` swapped, `*` to `+`, `//` to `*` and `%`, `%` to
  `//`, also in augmented assignments;
- `operand`: `a - b` to `a` or to `b` (a forgotten `- 1`, a forgotten
  `n - 1 - col`);
- `bound`: one more or one less on a `range` bound, a `min`/`max` argument
  or an index that is not a constant (off-by-ones in ranges and labels);
- `call`: `min(a, b)` and `max(a, b)` to one argument;
- `logic`: `not` dropped, `and` and `or` swapped, a conditional
  expression's branches swapped or one kept, an `if`'s test made always
  true or always false, `break` and `continue` swapped;
- `name`: a variable read replaced by another variable of the same type in
  the same function (`value(nxt)` to `value(curr)`: which square a jump is
  read from); `self.a` by `self.b` likewise. Types come from tracing the
  original on a few cases (`types` below), so a swap is between two ints,
  two nodes or two bools;
- `delete`, `duplicate`, `swap`: a statement dropped, done twice, or
  swapped with the next one;
- `hoist`: a statement moved out of the `if`, `for` or `while` it is in, to
  just before or just after it (when and where `visited` is marked);
- `mark`: a statement that marks a square (an item assignment
  `seen[x] = ...`, or `.append(x)`/`.add(x)`) also done for another square
  (`seen[nxt]` beside `seen[stand]`: a square landed on marked as well as
  the jump's destination);
- `reapply`: the statement (or the two) that settle a square done again on
  their own result (`stand` settled twice: a move follows two jumps);
- `while`: an `if` whose body changes what it tests made a `while` (a move
  follows every jump of a chain).

Each mutant is described as `line N: old -> new` over the original's own
text, and the mutants of one file are unique by source.
"""

import ast
import copy

# A comparison's alternatives: the boundary moved, then the test negated.
CMP = {
    ast.Lt: (ast.LtE, ast.GtE),
    ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
}
ARITH = {
    ast.Add: (ast.Sub,),
    ast.Sub: (ast.Add,),
    ast.Mult: (ast.Add,),
    ast.FloorDiv: (ast.Mult, ast.Mod),
    ast.Mod: (ast.FloorDiv,),
    ast.Div: (ast.Mult,),
}
# Statements that mark a square: `x[i] = ...`, `x.append(i)`, `x.add(i)`.
MARKING_METHODS = ("append", "add", "appendleft")
# The types a `name` swap stays within (by the traced class name).
SWAPPABLE_TYPES = ("int", "bool", "SALBnode")


class Mutant:
    def __init__(self, operator, line, description, source, function=None):
        self.operator = operator
        self.line = line
        self.description = description
        self.source = source
        # The module-level function the change is in (None for a method or
        # module-level code), so that only the calls that reach it need
        # asking.
        self.function = function


def _index(tree):
    """Every node in a fixed order, each with its parent."""
    nodes = list(ast.walk(tree))
    parents = {}
    for node in nodes:
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    return nodes, parents


def _enclosing_function(node, parents):
    while node is not None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return node
        node = parents.get(id(node))
    return None


def _text(node):
    return ast.unparse(node)


def _names_read(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _assigned_name(stmt):
    """The one name a statement assigns (also in both branches of an `if`)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and isinstance(stmt.target, ast.Name):
        return stmt.target.id
    if isinstance(stmt, ast.If) and stmt.body and stmt.orelse:
        names = {_assigned_name(s) for s in stmt.body + stmt.orelse}
        if len(names) == 1:
            return names.pop()
    if isinstance(stmt, ast.If) and len(stmt.body) == 1 and not stmt.orelse:
        return _assigned_name(stmt.body[0])
    return None


class _Rename(ast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        if node.id == self.old and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Name(id=self.new, ctx=ast.Load()), node)
        return node


def _renamed(stmt, old, new):
    return ast.fix_missing_locations(_Rename(old, new).visit(copy.deepcopy(stmt)))


def _is_docstring(stmt, parent, field):
    return (
        field == "body"
        and isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
        and getattr(parent, "body", [None])[0] is stmt
    )


def _int_constant(node):
    """The value of an integer literal (`-1` included), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) is int
    ):
        return -node.operand.value
    return None


def _literal(value):
    if value < 0:
        return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(-value))
    return ast.Constant(value)


class _Generator:
    def __init__(self, source, types):
        self.source = source
        self.lines = source.splitlines()
        self.tree = ast.parse(source)
        self.original = ast.unparse(self.tree)
        self.nodes, self.parents = _index(self.tree)
        # Type annotations are not code that runs: never mutated.
        self.annotations = set()
        for node in self.nodes:
            for field in ("annotation", "returns"):
                value = getattr(node, field, None)
                if isinstance(value, ast.AST):
                    self.annotations.update(id(n) for n in ast.walk(value))
        self.position = {id(n): i for i, n in enumerate(self.nodes)}
        # {function name: {variable: type}}, and {"self": {attribute: type}};
        # {"function:line": [the locals bound when the line runs]}.
        facts = types or {}
        self.types = facts.get("types", {})
        self.live = facts.get("live", {})
        self.seen = {self.original}
        self.mutants = []

    # -- bookkeeping -----------------------------------------------------

    def _emit(self, operator, node, old, new, edit):
        """Applies `edit(copy_of_node, parents_of_copy)` to a copy of the
        tree; keeps the mutant when it is new."""
        # A fresh parse of the source is the tree again, node for node in
        # the same order, at a fraction of a deep copy's cost.
        tree = ast.parse(self.source)
        nodes, parents = _index(tree)
        target = nodes[self.position[id(node)]]
        if edit(target, parents) is False:
            return
        ast.fix_missing_locations(tree)
        try:
            source = ast.unparse(tree)
            compile(source, "<mutant>", "exec")
        except (SyntaxError, ValueError):
            return
        if source in self.seen:
            return
        self.seen.add(source)
        line = getattr(node, "lineno", 0)
        column = getattr(node, "col_offset", -1) + 1
        description = "line {}:{}: {} -> {}".format(line, column, _short(old), _short(new))
        self.mutants.append(Mutant(operator, line, description, source, self._top_function(node)))

    def _top_function(self, node):
        outermost = None
        while node is not None:
            if isinstance(node, ast.FunctionDef):
                outermost = node
            node = self.parents.get(id(node))
        if outermost is not None and outermost in self.tree.body:
            return outermost.name
        return None

    def _replace(self, operator, node, new_node):
        def edit(target, parents):
            parent = parents[id(target)]
            for field, value in ast.iter_fields(parent):
                if value is target:
                    setattr(parent, field, new_node)
                    return True
                if isinstance(value, list):
                    for i, item in enumerate(value):
                        if item is target:
                            value[i] = new_node
                            return True
            return False

        self._emit(operator, node, _text(node), _text(new_node), edit)

    def _body_of(self, stmt):
        """The list a statement is in, its field and its parent."""
        parent = self.parents.get(id(stmt))
        for field in ("body", "orelse", "finalbody"):
            items = getattr(parent, field, None)
            if isinstance(items, list) and any(s is stmt for s in items):
                return parent, field, items
        return None, None, None

    def _edit_body(self, operator, stmt, old, new, change):
        """`change(items, i)` rewrites the statement list holding `stmt`
        (at index i) in a copy of the tree."""
        parent, field, _ = self._body_of(stmt)
        if parent is None:
            return

        def edit(target, parents):
            copy_parent = parents[id(target)]
            items = getattr(copy_parent, field)
            i = next(k for k, s in enumerate(items) if s is target)
            if change(items, i) is False:
                return False
            if not items:
                items.append(ast.Pass())
            return True

        self._emit(operator, stmt, old, new, edit)

    def _type(self, function, name):
        if function is None or isinstance(function, ast.Lambda):
            return None
        return self.types.get(function.name, {}).get(name)

    def _same_type_names(self, function, name, line=None):
        kind = self._type(function, name)
        if kind not in SWAPPABLE_TYPES:
            return []
        table = self.types.get(function.name, {})
        bound = self.live.get("{}:{}".format(function.name, line))
        return sorted(
            other for other, t in table.items()
            if t == kind and other != name and (bound is None or other in bound)
        )

    # -- expression operators -------------------------------------------

    def expressions(self):
        for node in self.nodes:
            if id(node) in self.annotations:
                continue
            if isinstance(node, ast.Compare):
                for j, op in enumerate(node.ops):
                    for alternative in CMP.get(type(op), ()):
                        new = copy.deepcopy(node)
                        new.ops[j] = alternative()
                        self._replace("cmp", node, new)
            elif isinstance(node, ast.UnaryOp) and _int_constant(node) is not None:
                value = _int_constant(node)
                for v in (value + 1, value - 1):
                    self._replace("const", node, _literal(v))
            elif isinstance(node, ast.Constant) and type(node.value) is int:
                parent = self.parents.get(id(node))
                if _int_constant(parent) is not None:
                    continue
                for v in (node.value + 1, node.value - 1):
                    self._replace("const", node, _literal(v))
            elif isinstance(node, ast.Constant) and type(node.value) is bool:
                self._replace("const", node, ast.Constant(not node.value))
            elif isinstance(node, ast.BinOp) and not _stringy(node):
                for alternative in ARITH.get(type(node.op), ()):
                    self._replace("arith", node, ast.BinOp(node.left, alternative(), node.right))
                if type(node.op) in ARITH:
                    self._replace("operand", node, node.left)
                    self._replace("operand", node, node.right)
            elif isinstance(node, ast.AugAssign):
                for alternative in ARITH.get(type(node.op), ()):
                    new = copy.deepcopy(node)
                    new.op = alternative()
                    self._replace("arith", node, new)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                self._call(node)
            elif isinstance(node, ast.Subscript):
                index = node.slice
                if not isinstance(index, (ast.Slice, ast.Tuple)) and _int_constant(index) is None:
                    self._off_by_one(index)
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                self._replace("logic", node, node.operand)
            elif isinstance(node, ast.BoolOp):
                other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
                self._replace("logic", node, ast.BoolOp(other, node.values))
            elif isinstance(node, ast.IfExp):
                self._replace("logic", node, ast.IfExp(node.test, node.orelse, node.body))
                self._replace("logic", node, node.body)
                self._replace("logic", node, node.orelse)
            elif isinstance(node, ast.If):
                for value in (True, False):
                    test = ast.Constant(value)
                    self._replace("logic", node.test, test)
            elif isinstance(node, ast.Break):
                self._replace("logic", node, ast.Continue())
            elif isinstance(node, ast.Continue):
                self._replace("logic", node, ast.Break())

    def _call(self, node):
        name = node.func.id
        if name == "range":
            for arg in node.args:
                self._off_by_one(arg)
        elif name in ("min", "max") and len(node.args) == 2 and not node.keywords:
            for arg in node.args:
                self._replace("call", node, arg)
                self._off_by_one(arg)
        elif name == "abs" and len(node.args) == 1:
            self._replace("call", node, node.args[0])

    def _off_by_one(self, node):
        """`e + 1` and `e - 1`, unless `e` already ends in a constant
        (which `const` moves)."""
        if _int_constant(node) is not None:
            return
        if isinstance(node, ast.BinOp) and _int_constant(node.right) is not None:
            return
        for op in (ast.Add(), ast.Sub()):
            self._replace("bound", node, ast.BinOp(copy.deepcopy(node), op, ast.Constant(1)))

    def names(self):
        for node in self.nodes:
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                function = _enclosing_function(node, self.parents)
                for other in self._same_type_names(function, node.id, node.lineno):
                    self._replace("name", node, ast.Name(id=other, ctx=ast.Load()))
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            ):
                table = self.types.get("self", {})
                kind = table.get(node.attr)
                if kind in SWAPPABLE_TYPES:
                    for other in sorted(a for a, t in table.items() if t == kind and a != node.attr):
                        new = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=other, ctx=ast.Load())
                        self._replace("name", node, new)

    # -- statement operators --------------------------------------------

    def statements(self):
        for stmt in self.nodes:
            if not isinstance(stmt, ast.stmt):
                continue
            parent, field, items = self._body_of(stmt)
            if parent is None or isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)):
                continue
            if _is_docstring(stmt, parent, field):
                continue
            first = _first_line(stmt)
            self._edit_body("delete", stmt, first, "(deleted)", _delete)
            if not isinstance(stmt, (ast.Return, ast.Raise, ast.Break, ast.Continue, ast.Pass)) and not _idempotent(
                stmt
            ):
                self._edit_body("duplicate", stmt, first, "(twice)", _duplicate)
            k = next(j for j, s in enumerate(items) if s is stmt)
            if (
                k + 1 < len(items)
                and not isinstance(items[k + 1], (ast.FunctionDef, ast.ClassDef))
                and not _independent(stmt, items[k + 1])
            ):
                following = _first_line(items[k + 1])

                def swap(items, i):
                    items[i], items[i + 1] = items[i + 1], items[i]

                self._edit_body("swap", stmt, first, "(after) " + following, swap)
            if isinstance(parent, (ast.If, ast.For, ast.While)):
                self._hoist(stmt, parent, first)
            if isinstance(stmt, ast.If) and not stmt.orelse:
                self._while(stmt, first)
            self._mark(stmt, first)
            self._reapply(stmt, items, k, first)

    def _hoist(self, stmt, compound, first):
        outer, field, _ = self._body_of(compound)
        if outer is None:
            return
        for after in (False, True):
            where = "after" if after else "before"

            def edit(target, parents, after=after):
                inner = parents[id(target)]
                for f in ("body", "orelse"):
                    items = getattr(inner, f, None)
                    if isinstance(items, list) and any(s is target for s in items):
                        items.remove(target)
                        if not items and f == "body":
                            items.append(ast.Pass())
                        break
                holder = parents[id(inner)]
                items = getattr(holder, field)
                i = next(k for k, s in enumerate(items) if s is inner)
                items.insert(i + 1 if after else i, target)
                return True

            self._emit(
                "hoist", stmt, first,
                "(moved {} `{}`)".format(where, _first_line(compound)), edit,
            )

    def _while(self, stmt, first):
        assigned = {_assigned_name(s) for s in stmt.body} - {None}
        if not assigned & _names_read(stmt.test) and not _attributes_changed(stmt):
            return

        def edit(target, parents):
            parent = parents[id(target)]
            for f in ("body", "orelse"):
                items = getattr(parent, f, None)
                if isinstance(items, list):
                    for i, s in enumerate(items):
                        if s is target:
                            items[i] = ast.While(test=target.test, body=target.body, orelse=[])
                            return True
            return False

        self._emit("while", stmt, first, "while " + _text(stmt.test) + ":", edit)

    def _mark(self, stmt, first):
        """Also mark another square than the one marked."""
        index = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript):
            index = stmt.targets[0].slice
        elif (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and stmt.value.func.attr in MARKING_METHODS
            and len(stmt.value.args) == 1
        ):
            index = stmt.value.args[0]
        if not isinstance(index, ast.Name):
            return
        function = _enclosing_function(stmt, self.parents)
        for other in self._same_type_names(function, index.id, stmt.lineno):
            if self._type(function, index.id) != "int":
                continue
            extra = _renamed(stmt, index.id, other)
            self._edit_body(
                "mark", stmt, first, first + "; " + _first_line(extra),
                lambda items, i, extra=extra: items.insert(i + 1, extra),
            )

    def _reapply(self, stmt, items, k, first):
        """Settle the settled square again: the statement that assigns S
        from L, done once more with L read as S (and the statement before
        it too when S is computed from what that one assigned)."""
        settled = _assigned_name(stmt)
        if settled is None:
            return
        function = _enclosing_function(stmt, self.parents)
        if self._type(function, settled) != "int":
            return
        group = [stmt]
        if k > 0:
            helper = _assigned_name(items[k - 1])
            if helper is not None and helper in _names_read(stmt) and helper != settled:
                group = [items[k - 1], stmt]
        read = set().union(*(_names_read(s) for s in group)) - {settled}
        for landed in sorted(read):
            if self._type(function, landed) != "int":
                continue
            again = [_renamed(s, landed, settled) for s in group]

            def insert(items, i, again=again):
                items[i + 1:i + 1] = again

            self._edit_body(
                "reapply", stmt, first,
                first + "; then again: " + "; ".join(_first_line(s) for s in again),
                insert,
            )

    def run(self):
        self.expressions()
        self.names()
        self.statements()
        return self.mutants


def _pure_assignment(stmt):
    """(what it writes, what it reads) for an assignment of an expression
    without calls; None for any other statement."""
    if not isinstance(stmt, ast.Assign):
        return None
    if any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)) for n in ast.walk(stmt)):
        return None
    written, read = set(), set()
    for target in stmt.targets:
        if not isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
            return None
        written.add(_text(target))
        if not isinstance(target, ast.Name):
            read |= _paths(target.value)
            if isinstance(target, ast.Subscript):
                read |= _paths(target.slice)
    read |= _paths(stmt.value)
    return written, read


def _paths(node):
    """Every name and attribute path an expression reads (`a`, `a.b`)."""
    return {_text(n) for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute, ast.Subscript))}


def _idempotent(stmt):
    """Whether running the statement twice provably does what running it
    once does: an assignment without calls that reads nothing it writes.
    Its duplicate would be an equivalent mutant, so it is not made."""
    facts = _pure_assignment(stmt)
    return facts is not None and not (facts[0] & facts[1])


def _independent(a, b):
    """Whether two assignments without calls can run in either order (each
    reads and writes nothing the other writes). Their swap would be an
    equivalent mutant, so it is not made."""
    fa, fb = _pure_assignment(a), _pure_assignment(b)
    if fa is None or fb is None:
        return False
    return not (fa[0] & (fb[0] | fb[1])) and not (fb[0] & fa[1])


def _delete(items, i):
    del items[i]


def _duplicate(items, i):
    items.insert(i + 1, copy.deepcopy(items[i]))


def _attributes_changed(stmt):
    """Whether an `if`'s body assigns an attribute path its test reads
    (`at = at.snadder` under `if at.snadder is not None`)."""
    assigned = {_text(t) for s in stmt.body if isinstance(s, ast.Assign) for t in s.targets}
    return any(_text(n) in assigned for n in ast.walk(stmt.test) if isinstance(n, (ast.Name, ast.Attribute)))


def _stringy(node):
    """Whether a binary operation builds a string or repeats a list, where
    arithmetic operators mean something else."""
    sequences = (ast.JoinedStr, ast.List, ast.ListComp, ast.Tuple)
    return any(
        (isinstance(n, ast.Constant) and isinstance(n.value, str)) or isinstance(n, sequences)
        for n in (node.left, node.right)
    )


def _first_line(node):
    return _text(node).splitlines()[0]


def _short(text, limit=90):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def callers(source):
    """{module-level function: the module-level functions that call it,
    itself included, directly or not}."""
    tree = ast.parse(source)
    defs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    calls = {name: {n.id for n in ast.walk(f) if isinstance(n, ast.Name)} & set(defs) for name, f in defs.items()}
    reach = {}
    for name in defs:
        seen, todo = {name}, [name]
        while todo:
            for callee in calls[todo.pop()]:
                if callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
        reach[name] = seen
    return {f: {g for g in defs if f in reach[g]} for f in defs}


def mutants(source, types=None):
    """Every mutant of a Python source, in a fixed order."""
    return _Generator(source, types).run()
