"""Minimum dice throws' adapter for salgrade's driver.

Input: {"move": [...]}; the student's function is called as
`get_min_dice_throws(move, n)` with a fresh list and n = len(move). The
seed's own name `getMinDiceThrows` is accepted too. The answer is the
returned value, described with its type (an int is expected).
"""

from _salgrade_values import plain

FUNCTIONS = ("get_min_dice_throws",)
ALSO_ACCEPTED = {"get_min_dice_throws": ("getMinDiceThrows",)}


def find(module, function):
    for name in (function,) + ALSO_ACCEPTED.get(function, ()):
        fn = getattr(module, name, None)
        if callable(fn):
            return fn
    return None


def prepare(function, input):
    move = list(input["move"])
    return [move, len(move)], None


def changed(function, input, state):
    return None


def describe(function, input, result, state):
    return plain(result)
