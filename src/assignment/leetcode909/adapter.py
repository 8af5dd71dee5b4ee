"""LeetCode 909's adapter for salgrade's driver.

Input: {"board": [[...], ...]} (LeetCode's rows, top row first). Each call gets
a fresh copy of the board, so a solution that reverses or edits it in place
is fine, as on LeetCode. The answer is the returned value, described with its
type (an int is expected).

LeetCode's Python runtime provides many names without an import; so does
this harness (the README lists them), so a solution accepted there is
accepted here.
"""

from _salgrade_values import plain

FUNCTIONS = ("snakesAndLadders",)


def before_import():
    import bisect
    import builtins
    import collections
    import functools
    import heapq
    import itertools
    import math
    import string
    import typing
    provided = {
        "List": typing.List, "Optional": typing.Optional, "Dict": typing.Dict,
        "Tuple": typing.Tuple, "Set": typing.Set, "Deque": typing.Deque,
        "deque": collections.deque, "defaultdict": collections.defaultdict,
        "Counter": collections.Counter, "OrderedDict": collections.OrderedDict,
        "heapq": heapq, "heappush": heapq.heappush, "heappop": heapq.heappop,
        "math": math, "inf": math.inf, "collections": collections,
        "itertools": itertools, "functools": functools, "bisect": bisect, "string": string,
        "cache": functools.cache, "lru_cache": functools.lru_cache, "reduce": functools.reduce,
        "accumulate": itertools.accumulate, "product": itertools.product,
    }
    for name, value in provided.items():
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
