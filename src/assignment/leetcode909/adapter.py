"""LeetCode 909's adapter for salgrade's driver.

Input: {"board": [[...], ...]} (LeetCode's rows, top row first). Each call gets
a fresh copy of the board, so a solution that reverses or edits it in place
is fine, as on LeetCode. The answer is the returned value, described with its
type (an int is expected).

LeetCode's Python runtime provides many names without an import; so does
this harness, the same objects in the same shadowing order, so a solution
accepted there is accepted here.
"""

from _salgrade_values import plain

FUNCTIONS = ("snakesAndLadders",)


# LeetCode's Python 3 runtime runs a solution in a module that has
# star-imported these, in this order, so a later module's name shadows an
# earlier one's (`sub` is operator's, not re's; `pow` and `compile` are the
# builtins; `Counter` is typing's alias). The order is read off the public
# dump of that runtime's globals (docs/leetcode909.md: "LeetCode's names").
_STAR_IMPORTS = (
    "string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math",
    "random", "statistics", "itertools", "functools", "operator", "io", "sys",
    "json", "builtins",
)
# Then these are imported as modules (`copy`, `random`, `datetime` and
# `bisect` are so the modules, not the functions or the class), LeetCode's
# own node classes are defined, `typing` is star-imported last, and `os`.
_MODULE_IMPORTS = (
    "datetime", "bisect", "copy", "random", "string", "re", "collections", "heapq",
    "math", "statistics", "itertools", "functools", "operator", "io", "sys", "json",
)


def _star(module):
    """What `from module import *` binds."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    return {n: getattr(module, n) for n in names if hasattr(module, n)}


def _precompiled():
    """LeetCode's module of node classes, with the classes its problems use."""
    import types

    class ListNode:
        def __init__(self, val=0, next=None):
            self.val = val
            self.next = next

    class TreeNode:
        def __init__(self, val=0, left=None, right=None):
            self.val = val
            self.left = left
            self.right = right

    class NestedInteger:
        def __init__(self, value=None):
            self.value = value

        def isInteger(self):
            return isinstance(self.value, int)

        def getInteger(self):
            return self.value if isinstance(self.value, int) else None

        def getList(self):
            return None if isinstance(self.value, int) else self.value

    class DeserializeError(Exception):
        """LeetCode's error for an input its driver cannot read."""

    module = types.ModuleType("precompiled", "LeetCode's node classes.")
    for cls in (ListNode, TreeNode, NestedInteger, DeserializeError):
        cls.__module__ = "precompiled"
        setattr(module, cls.__name__, cls)
    return module


def leetcode_globals():
    """The names LeetCode's runtime gives a solution, and their objects."""
    import importlib
    import site
    import sys

    # salgrade runs Python without `site` (-S); LeetCode's has it, and so
    # `exit`, `quit`, `help`, `copyright`, `credits` and `license`.
    site.setquit()
    site.setcopyright()
    site.sethelper()
    names = {}
    for name in _STAR_IMPORTS:
        names.update(_star(importlib.import_module(name)))
    for name in _MODULE_IMPORTS:
        names[name] = importlib.import_module(name)
    precompiled = _precompiled()
    sys.modules["precompiled"] = precompiled
    names["precompiled"] = precompiled
    names.update(vars(precompiled))
    names.pop("__name__", None)
    names.pop("__doc__", None)
    names.pop("__loader__", None)
    names.pop("__package__", None)
    names.pop("__spec__", None)
    names.update(_star(importlib.import_module("typing")))
    names["os"] = importlib.import_module("os")
    return names


def before_import():
    # Added to `builtins`, where a name the solution defines or imports
    # itself shadows them, as LeetCode's module globals are shadowed. A name
    # builtins already has is LeetCode's own object: `builtins` is
    # star-imported after every other module but `typing`, whose names are
    # none of the builtins'.
    import builtins
    for name, value in leetcode_globals().items():
        if not hasattr(builtins, name):
            setattr(builtins, name, value)


def find(module, function):
    cls = getattr(module, "Solution", None)
    if not isinstance(cls, type) or not callable(getattr(cls, function, None)):
        return None

    def run(board):
        return getattr(cls(), function)(board)
    return run


def prepare(function, input):
    return [[list(row) for row in input["board"]]], None


def changed(function, input, state):
    return None


def describe(function, input, result, state):
    return plain(result)
