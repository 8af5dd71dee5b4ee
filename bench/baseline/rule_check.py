"""An approximation of the handout's container rule, as an instructor might
write it for a pytest suite (salgrade's own checker is src/runner/lint.py,
described in docs/container-rule.md).

willfinish, whowins and dualboard, and every module-level function, class
or method they reach by name, must not build lists, tuples, sets or dicts.
This version follows calls by name (`helper(...)`, `Walker(...)`, and
`x.step()` when a class of the module defines `step`) and reports literals,
comprehensions, unpacking, `*args`, calls that make containers, methods only
containers have, and module-level containers used. It is not salgrade's
checker: the benchmark reports its findings beside salgrade's but never
fails on a difference.
"""

import ast

GRADED = ("willfinish", "whowins", "dualboard")
MAKERS = {
    "list", "tuple", "set", "frozenset", "dict", "sorted", "zip", "enumerate", "divmod",
    "dir", "vars", "globals", "locals", "deque", "Counter", "OrderedDict", "defaultdict",
    "namedtuple", "ChainMap",
}
CONTAINER_METHODS = {
    "items", "keys", "values", "split", "rsplit", "splitlines", "partition", "rpartition",
    "append", "extend", "fromkeys",
}
LITERALS = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp)


def offending_functions(source):
    """{graded function: [finding, ...]} for each graded function that reaches a container."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}  # salgrade does not check a file it cannot parse either
    functions = {}   # name -> FunctionDef or Lambda (module level)
    classes = {}     # class name -> {method name: FunctionDef}
    containers = set()  # module-level names bound to a container
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[node.name] = node
        elif isinstance(node, ast.ClassDef):
            classes[node.name] = {
                item.name: item for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    if isinstance(node.value, ast.Lambda):
                        functions[target.id] = node.value
                    elif isinstance(node.value, LITERALS) or _is_maker_call(node.value):
                        containers.add(target.id)
    methods = {}
    for class_name, members in classes.items():
        for method_name, method in members.items():
            methods.setdefault(method_name, []).append((class_name, method))

    findings = {}  # a unit (function or class.method) -> its own findings
    edges = {}     # a unit -> the units it reaches

    def unit_key(kind, name):
        return f"{kind}:{name}"

    def examine(key, fn):
        found, reached = [], set()
        local_names = _local_names(fn)
        declared_global = _globals_declared(fn)
        for node in _walk_code(fn):
            line = getattr(node, "lineno", "?")
            if isinstance(node, LITERALS):
                found.append(f"line {line}: {type(node).__name__.lower()}")
            elif isinstance(node, ast.Starred):
                found.append(f"line {line}: * unpacking")
            elif isinstance(node, ast.keyword) and node.arg is None:
                found.append(f"line {line}: ** unpacking")
            elif isinstance(node, ast.arguments) and (node.vararg or node.kwarg):
                found.append(f"line {line}: *args or **kwargs")
            elif isinstance(node, ast.Attribute):
                if node.attr == "__dict__":
                    found.append(f"line {line}: __dict__")
            elif isinstance(node, ast.Call):
                callee = node.func
                if isinstance(callee, ast.Name):
                    if callee.id in MAKERS and callee.id not in functions and callee.id not in classes:
                        found.append(f"line {line}: {callee.id}() call")
                elif isinstance(callee, ast.Attribute):
                    if callee.attr in methods:
                        for class_name, _ in methods[callee.attr]:
                            reached.add(unit_key("method", f"{class_name}.{callee.attr}"))
                    elif callee.attr in CONTAINER_METHODS or callee.attr in MAKERS:
                        found.append(f"line {line}: .{callee.attr}() call")
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                name = node.id
                if name in functions:
                    reached.add(unit_key("function", name))
                elif name in classes:
                    for method_name in classes[name]:
                        if method_name in ("__init__", "__new__", "__call__"):
                            reached.add(unit_key("method", f"{name}.{method_name}"))
                elif name in containers and (name not in local_names or name in declared_global):
                    found.append(f"line {line}: module-level container `{name}`")
        findings[key] = found
        edges[key] = reached

    for name, fn in functions.items():
        examine(unit_key("function", name), fn)
    for class_name, members in classes.items():
        for method_name, method in members.items():
            examine(unit_key("method", f"{class_name}.{method_name}"), method)

    result = {}
    for graded in GRADED:
        start = unit_key("function", graded)
        if start not in findings:
            continue
        seen, stack, found = {start}, [start], []
        while stack:
            key = stack.pop()
            found.extend(f"{key.split(':', 1)[1]} {f}" for f in findings.get(key, []))
            for nxt in edges.get(key, ()):
                if nxt not in seen and nxt in findings:
                    seen.add(nxt)
                    stack.append(nxt)
        if found:
            result[graded] = found
    return result


def _is_maker_call(node):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MAKERS


def _walk_code(fn):
    """The nodes of a function that run, leaving out annotations, decorators,
    docstrings and the tuple of an `except (A, B):` clause."""
    skip = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.arg) and node.annotation is not None:
            skip.add(id(node.annotation))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.returns is not None:
                skip.add(id(node.returns))
            for decorator in node.decorator_list:
                skip.add(id(decorator))
        elif isinstance(node, ast.AnnAssign):
            skip.add(id(node.annotation))
        elif isinstance(node, ast.ExceptHandler) and isinstance(node.type, ast.Tuple):
            skip.add(id(node.type))
    stack = [fn]
    while stack:
        node = stack.pop()
        if id(node) in skip:
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _local_names(fn):
    names = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _globals_declared(fn):
    names = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Global):
            names.update(node.names)
    return names
