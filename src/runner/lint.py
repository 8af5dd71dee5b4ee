"""salgrade's rule checker: finds the containers an assignment forbids.

It runs in the same sandbox and under the same interpreter as the student's
code, but it never imports that code: it only parses it with `ast`.

Protocol (the driver's: JSON lines on two private fds):

    checker -> runner  {"type": "ready", "protocol": 2, "runtime": "Python 3.11.7", "functions": {}}
    runner -> checker  {"type": "lint", "file": NAME, "checked": [...], "exempt": [...]}
    checker -> runner  {"type": "linted", "findings": [FINDING, ...]}
                       {"type": "unreadable", "error": ERROR}

FINDING is {"function", "line", "column", "construct", "source", "path",
"graded"}: `function` is where the construct is (`helper`, `Walker.step`),
`graded` every checked function that reaches it, `path` one shortest chain
of calls from the first of those down to it. Columns count characters
from 1.

What counts as a use (docs/container-rule.md lists the same): list, tuple, set and dict
literals and comprehensions; tuple (or list, or starred) unpacking; calls
that build or return those containers (`list()`, `sorted()`, `zip()` ...);
methods that return them (`.split()`, `.items()` ...) or only lists have
(`.append()` ...), unless a class of the module defines a method of that
name; `*args`/`**kwargs` parameters and `*`/`**` unpacking in calls;
`__dict__`; module-level containers and `collections` types; the same
through a module-level alias (`Bag = set`, `from builtins import dict as
t`, `builtins.list`), a container subclass (`class Trail(list)`, its
methods as `Trail.append`); and dynamic code the checker cannot see
through (`eval`, `exec`, `compile`, `__import__`, `getattr` with a
computed name), reported as uses it cannot check. Deliberately
allowed: `range`, generator expressions, `except (A, B):`, annotations,
docstrings and everything in the exempt functions.
"""

import ast
import json
import os
import re
import sys

CALLS = {
    "list": "`list()` call",
    "tuple": "`tuple()` call",
    "set": "`set()` call",
    "frozenset": "`frozenset()` call",
    "dict": "`dict()` call",
    "sorted": "`sorted()` call (returns a list)",
    "zip": "`zip()` call (yields tuples)",
    "enumerate": "`enumerate()` call (yields tuples)",
    "divmod": "`divmod()` call (returns a tuple)",
    "dir": "`dir()` call (returns a list)",
    "vars": "`vars()` call (returns a dict)",
    "globals": "`globals()` call (returns a dict)",
    "locals": "`locals()` call (returns a dict)",
}
CONTAINER_TYPES = ("list", "tuple", "set", "frozenset", "dict")
METHODS = {
    "items": "`.items()` (a dict method)",
    "keys": "`.keys()` (a dict method)",
    "values": "`.values()` (a dict method)",
    "split": "`.split()` (returns a list)",
    "rsplit": "`.rsplit()` (returns a list)",
    "splitlines": "`.splitlines()` (returns a list)",
    "partition": "`.partition()` (returns a tuple)",
    "rpartition": "`.rpartition()` (returns a tuple)",
    "append": "`.append()` (a list method)",
    "extend": "`.extend()` (a list method)",
}
# Code the checker cannot see through: reported as uses it cannot check.
DYNAMIC = {
    "eval": "`eval()` (dynamic code: cannot be checked)",
    "exec": "`exec()` (dynamic code: cannot be checked)",
    "compile": "`compile()` (dynamic code: cannot be checked)",
    "__import__": "`__import__()` (dynamic import: cannot be checked)",
    "getattr": "`getattr()` with a computed name (cannot be checked)",
}


def _constant_name(call):
    """The attribute name of `getattr(obj, "name")`, when it is a constant."""
    if len(call.args) >= 2 and isinstance(call.args[1], ast.Constant):
        return call.args[1].value if isinstance(call.args[1].value, str) else None
    return None


LITERALS = {
    ast.List: "list literal",
    ast.Tuple: "tuple literal",
    ast.Set: "set literal",
    ast.Dict: "dict literal",
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
}
MAX_SOURCE = 160


class Module:
    """The module-level names the call graph is followed by."""

    def __init__(self, tree):
        self.units = {}  # name -> FunctionDef | ClassDef | Lambda
        self.methods = {}  # method name -> [class names]
        self.containers = {}  # module-level name -> construct
        self.collections = set()  # names bound to `collections` or its members
        # Module-level names for a container type or builtin (`Bag = set`,
        # `from builtins import dict as t`), for a container subclass
        # (`class Trail(list)`), or for a container method (`push =
        # Trail.append`): name -> what it stands for.
        self.aliases = {}
        self.builtins_modules = set()  # names bound to the `builtins` module
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "builtins":
                        self.builtins_modules.add(alias.asname or "builtins")
            elif isinstance(node, ast.ImportFrom) and node.module == "builtins":
                for alias in node.names:
                    if alias.name in CALLS and alias.asname not in (None, alias.name):
                        self.aliases[alias.asname] = alias.name
        for stmt in module_statements(tree.body):
            if isinstance(stmt, ast.ClassDef):
                for base in stmt.bases:
                    if self.container_type(base):
                        self.aliases[stmt.name] = "subclass of " + self.container_type(base)
            elif isinstance(stmt, ast.Assign):
                meant = self.stands_for(stmt.value)
                if meant and not (isinstance(stmt.value, ast.Name) and stmt.value.id == meant and
                                  any(isinstance(t, ast.Name) and t.id == meant
                                      for t in stmt.targets)):
                    for target in stmt.targets:
                        if isinstance(target, ast.Name):
                            self.aliases[target.id] = meant
        for stmt in module_statements(tree.body):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.units[stmt.name] = stmt
            elif isinstance(stmt, ast.ClassDef):
                self.units[stmt.name] = stmt
                for item in stmt.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.methods.setdefault(item.name, []).append(stmt.name)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
                if isinstance(stmt.value, ast.Lambda):
                    for name in names:
                        self.units[name] = stmt.value
                kind = container_kind(stmt.value)
                if kind:
                    for name in names:
                        self.containers[name] = kind
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "collections":
                        self.collections.add(alias.asname or "collections")
            elif isinstance(node, ast.ImportFrom) and node.module == "collections":
                for alias in node.names:
                    self.collections.add(alias.asname or alias.name)


def _container_type(module, node):
    """The container type `node` names (`list`, `builtins.dict`, an alias of
    either, a container subclass), or None."""
    if isinstance(node, ast.Name):
        if node.id in CONTAINER_TYPES and node.id not in module.units:
            return node.id
        meant = module.aliases.get(node.id, "")
        if meant in CONTAINER_TYPES:
            return meant
        if meant.startswith("subclass of "):
            return meant[len("subclass of "):]
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id in module.builtins_modules and node.attr in CONTAINER_TYPES:
            return node.attr
    return None


def _stands_for(module, value):
    """What a module-level assignment's value stands for, if it is a
    container type, a builtin that builds one, or a container method."""
    if isinstance(value, ast.Name):
        if value.id in CALLS and value.id not in module.units:
            return value.id
        return module.aliases.get(value.id)
    if isinstance(value, ast.Attribute):
        if isinstance(value.value, ast.Name) and value.value.id in module.builtins_modules:
            return value.attr if value.attr in CALLS else None
        if _container_type(module, value.value) and value.attr not in ("__name__", "__doc__"):
            return "method {}.{}".format(_container_type(module, value.value), value.attr)
    return None


Module.container_type = _container_type
Module.stands_for = _stands_for


def module_statements(body):
    """Module-level statements, including those under `if`, `try`, `with`."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody"):
                yield from module_statements(getattr(stmt, field, []))
            for handler in getattr(stmt, "handlers", []):
                yield from module_statements(handler.body)


def container_kind(value):
    """What a module-level value is, if it is a container."""
    for cls, text in LITERALS.items():
        if isinstance(value, cls):
            return text.split()[0]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        if value.func.id in CONTAINER_TYPES or value.func.id == "sorted":
            return "list" if value.func.id == "sorted" else value.func.id
    return None


class Checker(ast.NodeVisitor):
    """Walks one unit (a function, a class, a lambda) and records findings
    and the module-level names it refers to."""

    def __init__(self, module, lines, unit_name):
        self.module = module
        self.lines = lines
        self.scope = [unit_name]
        self.findings = []
        self.calls = []  # module-level units this one refers to
        self.inside_literal = 0
        self.local_names = set()  # names this unit binds itself (they shadow globals)

    def report(self, node, construct):
        line = getattr(node, "lineno", 0)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        offset = getattr(node, "col_offset", 0)
        column = len(text.encode("utf-8")[:offset].decode("utf-8", "replace")) + 1
        source = text.strip()
        if len(source) > MAX_SOURCE:
            source = source[: MAX_SOURCE - 3] + "..."
        self.findings.append({
            "function": ".".join(self.scope),
            "line": line,
            "column": column,
            "construct": construct,
            "source": source,
        })

    # Scopes: a method is reported as `Class.method`, a nested function as
    # `outer.inner`; deeper nesting keeps the first two names.
    def visit_FunctionDef(self, node):
        self.check_arguments(node.args)
        for decorator in node.decorator_list:
            self.visit(decorator)
        nested = len(self.scope) > 1 or self.scope[0] == node.name
        if not nested:
            self.scope.append(node.name)
        for stmt in node.body:
            self.visit(stmt)
        if not nested:
            self.scope.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        for base in node.bases:
            self.visit(base)
        for keyword in node.keywords:
            self.visit(keyword.value)
        for decorator in node.decorator_list:
            self.visit(decorator)
        for stmt in node.body:
            self.visit(stmt)

    def visit_Lambda(self, node):
        self.check_arguments(node.args)
        self.visit(node.body)

    def check_arguments(self, args):
        # Annotations are skipped on purpose; defaults are code.
        if args.vararg is not None:
            self.report(args.vararg, "`*{}` parameter (a tuple)".format(args.vararg.arg))
        if args.kwarg is not None:
            self.report(args.kwarg, "`**{}` parameter (a dict)".format(args.kwarg.arg))
        for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
            self.visit(default)

    def visit_AnnAssign(self, node):
        self.visit(node.target)
        if node.value is not None:
            self.visit(node.value)

    def visit_ExceptHandler(self, node):
        if isinstance(node.type, ast.Tuple):
            for element in node.type.elts:
                self.visit(element)
        elif node.type is not None:
            self.visit(node.type)
        for stmt in node.body:
            self.visit(stmt)

    def visit_container(self, node):
        if isinstance(node, (ast.Tuple, ast.List)) and isinstance(node.ctx, ast.Store):
            construct = "tuple unpacking" if isinstance(node, ast.Tuple) else "list unpacking"
            self.report(node, construct)
        elif isinstance(node, (ast.Tuple, ast.List)) and isinstance(node.ctx, ast.Del):
            self.report(node, "tuple in `del`" if isinstance(node, ast.Tuple) else "list in `del`")
        elif not self.inside_literal:
            self.report(node, LITERALS[type(node)])
        self.inside_literal += 1
        self.generic_visit(node)
        self.inside_literal -= 1

    visit_List = visit_Tuple = visit_Set = visit_Dict = visit_container
    visit_ListComp = visit_SetComp = visit_DictComp = visit_container

    def visit_Starred(self, node):
        if isinstance(node.ctx, ast.Store):
            self.report(node, "starred unpacking (makes a list)")
        else:
            self.report(node, "`*` unpacking")
        self.generic_visit(node)

    def visit_Call(self, node):
        func = node.func
        if isinstance(func, ast.Name) and func.id in DYNAMIC and func.id not in self.module.units:
            if func.id != "getattr" or not _constant_name(node):
                self.report(node, DYNAMIC[func.id])
            elif _constant_name(node) in METHODS and _constant_name(node) not in self.module.methods:
                self.report(node, METHODS[_constant_name(node)])
        if isinstance(func, ast.Name) and func.id in self.module.aliases and func.id not in self.local_names:
            meant = self.module.aliases[func.id]
            if meant in CALLS:
                self.report(node, "{} (through `{}`)".format(CALLS[meant], func.id))
            else:
                self.report(node, "`{}()` ({})".format(func.id, meant))
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and (
            func.value.id in self.module.builtins_modules
        ):
            if func.attr in CALLS:
                self.report(node, "{} (through `{}`)".format(CALLS[func.attr], func.value.id))
            elif func.attr in DYNAMIC:
                self.report(node, DYNAMIC[func.attr])
        if isinstance(func, ast.Name):
            if func.id in CALLS and func.id not in self.module.units:
                self.report(node, CALLS[func.id])
            elif func.id in self.module.collections and func.id not in self.module.units:
                self.report(node, "`{}` (a collections type)".format(func.id))
        elif isinstance(func, ast.Attribute):
            base = func.value
            if isinstance(base, ast.Name) and base.id in CONTAINER_TYPES:
                self.report(node, "`{}.{}()` call".format(base.id, func.attr))
            elif isinstance(base, ast.Name) and base.id in self.module.collections:
                self.report(node, "`{}.{}` (a collections type)".format(base.id, func.attr))
            elif func.attr in METHODS and func.attr not in self.module.methods:
                self.report(node, METHODS[func.attr])
            for owner in self.module.methods.get(func.attr, []):
                self.calls.append(owner)
        for keyword in node.keywords:
            if keyword.arg is None:
                self.report(keyword.value, "`**` unpacking")
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if node.attr == "__dict__":
            self.report(node, "`__dict__` (a dict)")
        elif isinstance(node.value, ast.Name) and node.value.id in self.module.aliases and (
            self.module.aliases[node.value.id].startswith("subclass of ")
        ) and node.attr in METHODS:
            # `Trail.append`, the method of a container subclass, used as a
            # function.
            self.report(node, "`{}.{}` ({})".format(
                node.value.id, node.attr, self.module.aliases[node.value.id]))
        self.generic_visit(node)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            if node.id in self.module.units:
                self.calls.append(node.id)
            elif node.id in self.module.containers and node.id not in self.local_names:
                self.report(node, "module-level {} `{}`".format(self.module.containers[node.id], node.id))


def local_names(unit):
    """Names a unit binds (assignments, parameters, loop targets, imports),
    less those it declares `global`: a local `moves` is not the module's."""
    bound, declared = set(), set()
    for node in ast.walk(unit):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Global):
            declared.update(node.names)
    return bound - declared


def lint(source, checked, exempt):
    tree = ast.parse(source)
    # Line numbers as `ast` counts them: str.splitlines would also split on
    # form feeds and other separators Python's tokenizer does not count.
    lines = re.split(r"\r\n|\r|\n", source)
    module = Module(tree)
    # Walk each unit once, then follow the call graph breadth first from each
    # checked function: `graded` says which checked functions reach a unit,
    # `path` is a shortest chain of calls from the first of them.
    walked = {}

    def walk(name):
        if name not in walked:
            checker = Checker(module, lines, name)
            checker.local_names = local_names(module.units[name])
            checker.visit(module.units[name])
            callees = [c for c in checker.calls if c in module.units and c not in exempt]
            walked[name] = (checker.findings, callees)
        return walked[name]

    paths = {}
    graded = {}
    for root in checked:
        if root not in module.units or root in exempt:
            continue
        seen = {root}
        queue = [[root]]
        while queue:
            path = queue.pop(0)
            unit = path[-1]
            paths.setdefault(unit, path)
            graded.setdefault(unit, [])
            if root not in graded[unit]:
                graded[unit].append(root)
            for callee in walk(unit)[1]:
                if callee not in seen:
                    seen.add(callee)
                    queue.append(path + [callee])
    unique = {}
    for unit, path in paths.items():
        for f in walk(unit)[0]:
            key = (f["line"], f["column"], f["construct"])
            if key not in unique:
                unique[key] = dict(f, path=path, graded=graded[unit])
    return sorted(unique.values(), key=lambda f: (f["line"], f["column"]))


def main():
    import fcntl
    in_fd, out_fd = int(sys.argv[1]), int(sys.argv[2])
    reader = os.fdopen(in_fd, "rb")
    fcntl.fcntl(out_fd, fcntl.F_SETFD, fcntl.FD_CLOEXEC)

    def send(message):
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        view = memoryview(data)
        while view:
            view = view[os.write(out_fd, view):]

    send({"type": "ready", "protocol": 2, "runtime": "Python " + sys.version.split()[0],
          "functions": {}})
    send(check(json.loads(reader.readline())))


def check(request):
    """The answer to one lint request: `linted` with the findings, or
    `unreadable`. The driver calls it too, before it imports the student's
    module, so nothing the student's code does can change what it finds."""
    try:
        with open(request["file"], "rb") as f:
            raw = f.read()
        # Exactly what import does with the bytes (importlib's
        # source_to_code): the coding cookie, else UTF-8, decides the
        # encoding, so a file import rejects is unreadable here too.
        compile(raw, os.path.basename(request["file"]), "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        import importlib.util
        source = importlib.util.decode_source(raw)
        findings = lint(source, request["checked"], set(request["exempt"]))
    except SyntaxError as exc:
        where = " (line {})".format(exc.lineno) if exc.lineno else ""
        return {"type": "unreadable", "error": "SyntaxError: {}{}".format(exc.msg, where)}
    except (RecursionError, MemoryError, ValueError) as exc:
        return {"type": "unreadable", "error": "{}: {}".format(type(exc).__name__, str(exc)[:200])}
    return {"type": "linted", "findings": findings}


if __name__ == "__main__":
    main()
