#!/usr/bin/env python3
"""Builds the similarity benchmark: many independent solutions per problem,
and copies of some of them disguised at three levels.

    python3 bench/similarity/generate.py OUT [--originals 60] [--copies 6] [--seed 1] [--sets a48-py,...]

Five sets: min-throws and LeetCode 909, each in Python and C++, and a48 in
Python (the a48 assignment takes Python only; its solutions are written
from a grammar of their own: the ring built from a list by index, by
appending or by chaining nodes; the snadders read by `items()` or by key;
the size counted from 1 or in a `while True`, or counted with the last
square in one helper; the finish time's loop `while` or `for`, its walk a
`for` over `step % n` or `step`, a countdown, or a helper; "never" as 0, -1
or `None`; `willfinish` and `whowins` each in two or three forms; and
`dualboard` by a twin attribute, by twins interleaved in the ring (the
model's), or by position). Every
solution is written from one grammar of choices made the way students make
them (BFS with a deque, a list popped at the front, a head index, a level
by level frontier, or repeated relaxation; a distance array, a visited set
or (cell, throws) pairs; `for k in 1..6` or a range of cells; the jump by a
ternary, an if/else or an override; the goal tested on dequeue or on
enqueue; LeetCode's board read by a helper, by arithmetic in place, or
flattened first; functions or a class; names, comments and layout of each
writer's own). Independent solutions of one small problem share much, which
is the point: a checker must tell a copy from that.

Copies (of originals drawn at random, each original copied once):

- light: other names, comments and layout;
- medium: light, and statements that commute reordered, if/else swapped
  with the test negated, comparisons flipped (`a < b` as `b > a`), `for`
  as `while`, and in C++ `std::` added or removed and a typedef or `using`
  alias;
- heavy: medium, and dead code (an unused variable, an unused function,
  unreachable statements, an `if False` block), the search split into
  helper functions, and the whole wrapped in a class.

Every copy computes what its original does: `check.py` runs each file on
boards and compares the answers with the model's.

It writes OUT/<set>/<name>.<ext> (flat, one file per student) and
OUT/truth.json: for each set, the copies as {copy: [original, level]}.
All code here is written for this benchmark; nothing is third-party.
"""

import argparse
import json
import os
import random

# ----------------------------------------------------------------- names

POOLS = {
    "q": ["q", "queue", "frontier", "todo", "pending", "que", "dq", "work", "bfs", "line", "waiting", "openq"],
    "dist": ["dist", "throws", "moves", "steps", "cost", "level", "depth", "d", "rolls", "best", "seen_at", "turns"],
    "seen": ["seen", "visited", "done", "vis", "marked", "used", "explored", "closed"],
    "cell": ["cell", "cur", "pos", "u", "node", "curr", "square", "at", "here", "x", "s", "v"],
    "nxt": ["nxt", "nb", "to", "dest", "y", "target", "w", "new_pos", "step_to", "landed", "t", "next_cell"],
    "k": ["k", "die", "roll", "face", "i", "j", "dice", "r_", "off", "delta"],
    "goal": ["goal", "last", "end", "target_cell", "finish", "dest_cell", "final", "top"],
    "head": ["head", "front", "idx", "ptr", "qi", "first", "start_i", "h"],
    "level": ["level", "layer", "wave", "ring", "batch", "current", "cur_level", "gen"],
    "nlevel": ["nxt_level", "next_layer", "new_wave", "following", "nb_level", "upcoming", "fresh", "coming"],
    "changed": ["changed", "updated", "again", "improved", "dirty", "moved", "progress", "flag"],
    "n": ["n", "size", "sz", "side", "dim", "width", "m", "length"],
    "cells": ["cells", "flat", "line", "squares", "arr", "linear", "strip", "track"],
    "coord": ["coord", "to_rc", "position", "locate", "rc", "where", "cell_pos", "square_at"],
    "r": ["r", "row", "rr", "ri", "y_", "line_no"],
    "c": ["c", "col", "cc", "ci", "x_", "column"],
    "helper": ["expand", "relax", "visit_all", "spread", "push_next", "explore", "step_from", "grow"],
    "init": ["make_dist", "fresh_table", "start_table", "init_dist", "blank", "new_table"],
    "wrapcls": ["Solver", "Walker", "BoardSearch", "Runner", "Engine", "Game", "Finder", "Planner"],
    "wrapm": ["solve", "run", "search", "compute", "go", "answer", "find", "walk"],
    "dead": ["unused", "tmp", "debug", "counter", "total", "spare", "extra", "dummy"],
    "deadf": ["log", "show", "trace", "dump_state", "pretty", "report_it", "noop", "helper2"],
    "board": ["board", "grid", "b", "mat", "g", "bd"],
    "move": ["move", "moves_to", "jumps", "links", "mv", "jump"],
    "lab": ["label", "num", "sq", "idx1", "number", "p"],
    "ans": ["ans", "res", "result", "out", "answer", "best_res"],
}


def pick_names(rng, avoid=None, pools=None):
    names = {}
    used = set()
    for role, pool in (pools or POOLS).items():
        options = [p for p in pool if p not in used and (avoid is None or p != avoid.get(role))]
        names[role] = rng.choice(options)
        used.add(names[role])
    return names


COMMENTS_PY = [
    "# breadth first search over the squares",
    "# each throw moves 1 to 6 squares",
    "# follow a snake or ladder if there is one",
    "# nothing found: the end cannot be reached",
    "# mark the start",
    "# try every face of the die",
    "# shortest path in an unweighted graph",
    "# TODO: clean this up",
]


def comment_for(lang, rng):
    text = rng.choice(COMMENTS_PY)[2:]
    return ("# " if lang == "py" else "// ") + text


# --------------------------------------------------------------- the look


class Look:
    """How one writer presents code; the choices a copy changes."""

    def __init__(self, rng, names, lang):
        self.lang = lang
        self.names = names
        self.indent = rng.choice([4, 4, 4, 2]) if lang == "py" else rng.choice([4, 4, 2, 8])
        self.comments = rng.random() < 0.5
        self.blank = rng.random() < 0.5
        self.spaces = rng.random() < 0.8
        self.allman = rng.random() < 0.3
        self.rng = rng
        self.comment_seed = rng.randrange(1 << 30)
        # Orientation choices: independent writers make them too.
        self.flip = rng.random() < 0.2
        self.swap = rng.random() < 0.2
        self.order = rng.randrange(1 << 30)
        self.loop_while = rng.random() < 0.15
        self.std = rng.random() < 0.4
        self.alias = rng.random() < 0.15
        self.dead = False
        self.split = False
        self.wrap = False


# -------------------------------------------------------------- emitting


class Out:
    def __init__(self, look):
        self.look = look
        self.lines = []
        self.rng = random.Random(look.comment_seed)

    def line(self, depth, text):
        self.lines.append((depth, text))

    def comment(self, depth):
        if self.look.comments and self.rng.random() < 0.5:
            self.lines.append((depth, comment_for(self.look.lang, self.rng)))

    def blank(self):
        if self.look.blank:
            self.lines.append((0, ""))

    def render(self):
        unit = " " * self.look.indent
        text = "\n".join((unit * d + t) if t else "" for d, t in self.lines) + "\n"
        if not self.look.spaces:
            for op in [" = ", " + ", " - ", " < ", " == ", " != ", " <= ", " >= "]:
                text = text.replace(op, op.strip())
        return text


def cmp(look, a, op, b):
    """`a op b`, or flipped (`b op' a`) in this look."""
    flips = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
    if look.flip:
        return f"{b} {flips[op]} {a}"
    return f"{a} {op} {b}"


NEG = {"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!=", "!=": "=="}


def if_else(o, depth, look, test, then, other):
    """An if/else, or the swapped form with the negated test."""
    a, op, b = test
    py = look.lang == "py"
    if look.swap:
        test, then, other = (a, NEG[op], b), other, then
    cond = cmp(look, *test)
    if py:
        o.line(depth, f"if {cond}:")
        then(depth + 1)
        o.line(depth, "else:")
        other(depth + 1)
    else:
        open_brace(o, depth, f"if ({cond})")
        then(depth + 1)
        if look.allman:
            o.line(depth, "}")
            o.line(depth, "else")
            o.line(depth, "{")
        else:
            o.line(depth, "} else {")
        other(depth + 1)
        o.line(depth, "}")


def open_brace(o, depth, head):
    if o.look.allman:
        o.line(depth, head)
        o.line(depth, "{")
    else:
        o.line(depth, head + " {")


def close_brace(o, depth, tail=""):
    o.line(depth, "}" + tail)


# ------------------------------------------------------------ the grammar


def structure(rng, problem):
    s = {
        "algo": rng.choice(["deque", "deque", "pop0", "head", "levels", "relax", "pairs"]),
        "inner": rng.choice(["faces", "faces", "range"]),
        "jump": rng.choice(["ternary", "ifelse", "override"]),
        "goal": rng.choice(["dequeue", "dequeue", "enqueue"]),
        "guard": rng.random() < 0.3,
        "read": rng.choice(["helper", "inline", "flat", "flat"]) if problem == "lc" else "move",
        "flat_loop": rng.choice(["alt", "reverse_rows", "index"]),
        "style": rng.choice(["func", "func", "cls"]) if problem == "mt" else "cls",
    }
    # Micro-choices each writer makes on their own: equivalent code that
    # no normalisation makes equal, so that two independent solutions are
    # alike but seldom the same.
    s.update({
        "empty": rng.choice(["truthy", "len", "len_ne"]),
        "bound": rng.choice(["break", "continue", "nest"]),
        "faces_form": rng.choice(["range16", "range6", "tuple"]),
        "unset": rng.choice(["-1", "-1", "None"]),
        "jump_test": rng.choice(["ne", "ge0", "gt"]),
        "cur_var": rng.random() < 0.4,
        "qinit": rng.choice(["literal", "append"]),
        "final": rng.choice(["minus1", "dist_goal"]),
        "cppq": rng.choice(["queue", "queue", "deque"]),
        "flat_parity": rng.choice(["mod", "and", "flag"]),
        "relax_skip": rng.choice(["continue", "nest", "none"]),
    })
    if s["algo"] == "relax":
        s["goal"] = "dequeue"
        s["unset"] = "-1"
    if s["unset"] == "None":
        s["final"] = "minus1"
    return s


class Problem:
    """What differs between min-throws and LeetCode 909 in the search."""

    def __init__(self, kind, s, look):
        self.kind = kind
        self.s = s
        self.look = look
        nm = look.names
        if kind == "mt":
            self.start = "0"
            self.count = nm["n"]
            self.goal_expr = f"{nm['n']} - 1"
        else:
            self.start = "1"
            self.count = f"{nm['n']} * {nm['n']} + 1"
            self.goal_expr = f"{nm['n']} * {nm['n']}"


def has_jump(p, val):
    """The test that square value `val` is a snake or ladder."""
    return {"ne": (val, "!=", "-1"), "ge0": (val, ">=", "0"), "gt": (val, ">", "-1")}[p.s["jump_test"]]


def unvisited(p, expr):
    if p.s["unset"] == "None":
        return f"{expr} is None" if p.look.lang == "py" else cmp(p.look, expr, "==", "-1")
    return cmp(p.look, expr, "==", "-1")


def py_jump_value(o, depth, p, var):
    """Lines that compute the jump of square `var`; returns its expression."""
    nm = p.look.names
    if p.kind == "mt":
        return f"{nm['move']}[{var}]"
    read = p.s["read"]
    if read == "flat":
        return f"{nm['cells']}[{var}]"
    if read == "helper":
        o.line(depth, f"{nm['r']}, {nm['c']} = {nm['coord']}({var})")
        return f"{nm['board']}[{nm['r']}][{nm['c']}]"
    n = nm["n"]
    o.line(depth, f"{nm['r']} = ({var} - 1) // {n}")
    o.line(depth, f"{nm['c']} = ({var} - 1) % {n}")
    o.line(depth, f"if {nm['r']} % 2 == 1:")
    o.line(depth + 1, f"{nm['c']} = {n} - 1 - {nm['c']}")
    return f"{nm['board']}[{n} - 1 - {nm['r']}][{nm['c']}]"


def py_land(o, depth, p, src, dst):
    """`dst` = where a throw that lands on `src` ends."""
    look = p.look
    val = py_jump_value(o, depth, p, src)
    j = p.s["jump"]
    test = has_jump(p, val)
    if j == "ternary":
        o.line(depth, f"{dst} = {val} if {cmp(look, *test)} else {src}")
    elif j == "ifelse":
        if_else(o, depth, look, test,
                lambda d: o.line(d, f"{dst} = {val}"),
                lambda d: o.line(d, f"{dst} = {src}"))
    else:
        if src != dst:
            o.line(depth, f"{dst} = {src}")
        o.line(depth, f"if {cmp(look, *test)}:")
        o.line(depth + 1, f"{dst} = {val}")


def py_faces(o, depth, p, cell, body):
    """The loop over the squares one throw reaches from `cell`."""
    look, nm, s = p.look, p.look.names, p.s
    k, nxt, goal = nm["k"], nm["nxt"], nm["goal"]

    def bounded(d):
        if s["bound"] == "nest":
            o.line(d, f"if {cmp(look, nxt, '<=', goal)}:")
            body(d + 1)
            return
        o.line(d, f"if {cmp(look, nxt, '>', goal)}:")
        o.line(d + 1, "break" if s["bound"] == "break" else "continue")
        body(d)

    if s["inner"] == "faces":
        form = s["faces_form"]
        first, stop, plus = ("0", "6", " + 1") if form == "range6" else ("1", "7", "")
        if look.loop_while:
            o.line(depth, f"{k} = {first}")
            o.line(depth, f"while {cmp(look, k, '<', stop)}:")
            o.line(depth + 1, f"{nxt} = {cell} + {k}{plus}")
            o.line(depth + 1, f"{k} += 1")
            bounded(depth + 1)
        else:
            if form == "tuple":
                o.line(depth, f"for {k} in (1, 2, 3, 4, 5, 6):")
            else:
                o.line(depth, f"for {k} in range({first + ', ' if first != '0' else ''}{stop}):")
            o.line(depth + 1, f"{nxt} = {cell} + {k}{plus}")
            bounded(depth + 1)
    else:
        if look.loop_while:
            o.line(depth, f"{k} = {cell} + 1")
            o.line(depth, f"while {cmp(look, k, '<=', f'min({cell} + 6, {goal})')}:")
            o.line(depth + 1, f"{nxt} = {k}")
            o.line(depth + 1, f"{k} += 1")
            body(depth + 1)
        else:
            o.line(depth, f"for {nxt} in range({cell} + 1, min({cell} + 6, {goal}) + 1):")
            body(depth + 1)


def py_search(o, depth, p):
    """The search itself, as statements at `depth`; ends in a return."""
    look, nm, s = p.look, p.look.names, p.s
    q, dist, seen, cell, nxt, goal = nm["q"], nm["dist"], nm["seen"], nm["cell"], nm["nxt"], nm["goal"]
    dst = "dest_" + nm["nxt"] if s["jump"] != "override" else nm["nxt"]
    if s["jump"] == "override":
        dst = nm["nxt"] + "_end"
    algo = s["algo"]
    inits = [f"{goal} = {p.goal_expr}"]
    unset = "None" if s["unset"] == "None" else "-1"
    if algo in ("deque", "pop0", "head", "relax"):
        inits.append(f"{dist} = [{unset}] * ({p.count})")
    first_in = f"[{p.start}]" if s["qinit"] == "literal" else ""
    if algo == "deque":
        inits.append(f"{q} = deque({first_in})")
    elif algo in ("pop0", "head"):
        inits.append(f"{q} = {first_in or '[]'}")
    elif algo == "pairs":
        inits.append(f"{q} = deque([({p.start}, 0)])")
        inits.append(f"{seen} = {{{p.start}}}")
    elif algo == "levels":
        inits.append(f"{nm['level']} = [{p.start}]")
        inits.append(f"{seen} = {{{p.start}}}")
        inits.append(f"{nm['ans']} = 0")
    if algo == "head":
        inits.append(f"{nm['head']} = 0")
    rng = random.Random(look.order)
    first = inits[:1]
    rest = inits[1:]
    rng.shuffle(rest)
    for line in first + rest:
        o.line(depth, line)
    if algo in ("deque", "pop0", "head", "relax"):
        o.line(depth, f"{dist}[{p.start}] = 0")
    if algo in ("deque", "pop0", "head") and s["qinit"] == "append":
        o.line(depth, f"{q}.append({p.start})")
    o.comment(depth)
    if s["guard"]:
        o.line(depth, f"if {cmp(look, goal, '==', p.start)}:")
        o.line(depth + 1, "return 0")

    def visit(d, push, mark_test, mark, at_goal):
        def inner(d2):
            py_land(o, d2, p, nxt, dst)
            o.line(d2, f"if {mark_test}:")
            for m in mark:
                o.line(d2 + 1, m)
            if at_goal:
                o.line(d2 + 1, f"if {cmp(look, dst, '==', goal)}:")
                o.line(d2 + 2, f"return {at_goal}")
            o.line(d2 + 1, push)
        py_faces(o, d, p, cell, inner)

    if algo in ("deque", "pop0", "head"):
        if algo == "head":
            o.line(depth, f"while {cmp(look, nm['head'], '<', f'len({q})')}:")
            o.line(depth + 1, f"{cell} = {q}[{nm['head']}]")
            o.line(depth + 1, f"{nm['head']} += 1")
        else:
            test = {"truthy": q, "len": cmp(look, f"len({q})", ">", "0"),
                    "len_ne": cmp(look, f"len({q})", "!=", "0")}[s["empty"]]
            o.line(depth, f"while {test}:")
            o.line(depth + 1, f"{cell} = {q}.popleft()" if algo == "deque" else f"{cell} = {q}.pop(0)")
        base = f"{dist}[{cell}]"
        if s["cur_var"] and not look.split:
            o.line(depth + 1, f"{nm['ans']} = {base}")
            base = nm["ans"]
        if s["goal"] == "dequeue":
            o.line(depth + 1, f"if {cmp(look, cell, '==', goal)}:")
            o.line(depth + 2, f"return {dist}[{cell}]")
        o.comment(depth + 1)
        if look.split:
            args = f"{cell}, {dist}, {q}"
            if s["goal"] == "enqueue":
                o.line(depth + 1, f"{nm['ans']} = {nm['helper']}({args})")
                o.line(depth + 1, f"if {cmp(look, nm['ans'], '!=', '-1')}:")
                o.line(depth + 2, f"return {nm['ans']}")
            else:
                o.line(depth + 1, f"{nm['helper']}({args})")
        else:
            visit(depth + 1, f"{q}.append({dst})", unvisited(p, f"{dist}[{dst}]"),
                  [f"{dist}[{dst}] = {base} + 1"],
                  f"{dist}[{dst}]" if s["goal"] == "enqueue" else None)
        o.line(depth, f"return {dist}[{goal}]" if s["final"] == "dist_goal" else "return -1")
    elif algo == "pairs":
        o.line(depth, f"while {q}:")
        o.line(depth + 1, f"{cell}, {nm['ans']} = {q}.popleft()")
        if s["goal"] == "dequeue":
            o.line(depth + 1, f"if {cmp(look, cell, '==', goal)}:")
            o.line(depth + 2, f"return {nm['ans']}")
        visit(depth + 1, f"{q}.append(({dst}, {nm['ans']} + 1))", f"{dst} not in {seen}",
              [f"{seen}.add({dst})"], f"{nm['ans']} + 1" if s["goal"] == "enqueue" else None)
        o.line(depth, "return -1")
    elif algo == "levels":
        o.line(depth, f"while {nm['level']}:")
        if s["goal"] == "dequeue":
            o.line(depth + 1, f"if {goal} in {nm['level']}:")
            o.line(depth + 2, f"return {nm['ans']}")
        o.line(depth + 1, f"{nm['nlevel']} = []")
        o.line(depth + 1, f"for {cell} in {nm['level']}:")
        visit(depth + 2, f"{nm['nlevel']}.append({dst})", f"{dst} not in {seen}",
              [f"{seen}.add({dst})"], f"{nm['ans']} + 1" if s["goal"] == "enqueue" else None)
        o.line(depth + 1, f"{nm['level']} = {nm['nlevel']}")
        o.line(depth + 1, f"{nm['ans']} += 1")
        o.line(depth, "return -1")
    else:  # relax
        ch = nm["changed"]
        o.line(depth, f"{ch} = True")
        o.line(depth, f"while {ch}:")
        o.line(depth + 1, f"{ch} = False")
        o.line(depth + 1, f"for {cell} in range({p.start}, {goal}):")
        skip = s["relax_skip"]
        if skip == "continue":
            o.line(depth + 2, f"if {cmp(look, f'{dist}[{cell}]', '==', '-1')}:")
            o.line(depth + 3, "continue")
        elif skip == "nest":
            o.line(depth + 2, f"if {cmp(look, f'{dist}[{cell}]', '!=', '-1')}:")
            depth += 1

        def inner(d2):
            py_land(o, d2, p, nxt, dst)
            if skip == "none":
                o.line(d2, f"if {dist}[{cell}] == -1:")
                o.line(d2 + 1, "continue")
            o.line(d2, f"if {dist}[{dst}] == -1 or {cmp(look, f'{dist}[{cell}] + 1', '<', f'{dist}[{dst}]')}:")
            o.line(d2 + 1, f"{dist}[{dst}] = {dist}[{cell}] + 1")
            o.line(d2 + 1, f"{ch} = True")
        py_faces(o, depth + 2, p, cell, inner)
        if skip == "nest":
            depth -= 1
        o.line(depth, f"return {dist}[{goal}]")


def py_helper_split(o, p, depth):
    """The split-out neighbour loop (heavy copies)."""
    look, nm, s = p.look, p.look.names, p.s
    q, dist, cell, nxt, goal = nm["q"], nm["dist"], nm["cell"], nm["nxt"], nm["goal"]
    dst = nm["nxt"] + "_end" if s["jump"] == "override" else "dest_" + nm["nxt"]
    # Nested in the solving function: the board is in its scope.
    o.line(depth, f"def {nm['helper']}({cell}, {dist}, {q}):")
    o.line(depth + 1, f"{goal} = len({dist}) - 1")

    def inner(d2):
        py_land(o, d2, p, nxt, dst)
        o.line(d2, f"if {unvisited(p, f'{dist}[{dst}]')}:")
        o.line(d2 + 1, f"{dist}[{dst}] = {dist}[{cell}] + 1")
        if s["goal"] == "enqueue":
            o.line(d2 + 1, f"if {cmp(look, dst, '==', goal)}:")
            o.line(d2 + 2, f"return {dist}[{dst}]")
        o.line(d2 + 1, f"{q}.append({dst})")
    py_faces(o, depth + 1, p, cell, inner)
    o.line(depth + 1, "return -1")


def py_flatten(o, depth, p):
    """LeetCode's board as a list indexed by square number."""
    nm, look = p.look.names, p.look
    n, b, cells = nm["n"], nm["board"], nm["cells"]
    fl = p.s["flat_loop"]
    o.line(depth, f"{cells} = [-1]")
    if fl == "alt":
        o.line(depth, f"{nm['r']} = 0")
        o.line(depth, f"for {nm['k']} in range({n} - 1, -1, -1):")
        o.line(depth + 1, f"{nm['c']} = {b}[{nm['k']}] if {cmp(look, nm['r'] + ' % 2', '==', '0')} else {b}[{nm['k']}][::-1]")
        o.line(depth + 1, f"{cells}.extend({nm['c']})")
        o.line(depth + 1, f"{nm['r']} += 1")
    elif fl == "reverse_rows":
        o.line(depth, f"for {nm['r']}, {nm['c']} in enumerate(reversed({b})):")
        o.line(depth + 1, f"{cells} += {nm['c']} if {cmp(look, nm['r'] + ' % 2', '==', '0')} else list(reversed({nm['c']}))")
    else:
        o.line(depth, f"for {nm['lab']} in range(1, {n} * {n} + 1):")
        o.line(depth + 1, f"{nm['r']} = ({nm['lab']} - 1) // {n}")
        o.line(depth + 1, f"{nm['c']} = ({nm['lab']} - 1) % {n}")
        odd = {"mod": f"{nm['r']} % 2", "and": f"{nm['r']} & 1", "flag": f"{nm['r']} % 2 == 1"}[p.s["flat_parity"]]
        o.line(depth + 1, f"if {odd}:")
        o.line(depth + 2, f"{nm['c']} = {n} - 1 - {nm['c']}")
        o.line(depth + 1, f"{cells}.append({b}[{n} - 1 - {nm['r']}][{nm['c']}])")


def py_coord_helper(o, depth, p):
    nm, look = p.look.names, p.look
    n = nm["n"]
    o.line(depth, f"def {nm['coord']}({nm['lab']}):")
    o.line(depth + 1, f"{nm['r']}, {nm['c']} = divmod({nm['lab']} - 1, {n})")
    if_else(o, depth + 1, look, (f"{nm['r']} % 2", "==", "0"),
            lambda d: o.line(d, f"return {n} - 1 - {nm['r']}, {nm['c']}"),
            lambda d: o.line(d, f"return {n} - 1 - {nm['r']}, {n} - 1 - {nm['c']}"))


def py_dead(o, depth, p, where):
    nm = p.look.names
    if where == "top":
        o.line(depth, f"def {nm['deadf']}(*args):")
        o.line(depth + 1, "print('debug:', *args)")
        o.blank()
    elif where == "start":
        o.line(depth, f"{nm['dead']} = 0")
        o.line(depth, "if False:")
        o.line(depth + 1, f"print({nm['dead']})")
    elif where == "end":
        o.line(depth, "print('unreachable')")


def python(kind, s, look):
    o = Out(look)
    nm = look.names
    p = Problem(kind, s, look)
    if s["algo"] in ("deque", "pairs"):
        o.line(0, "from collections import deque")
    if kind == "lc":
        o.line(0, "from typing import List")
    o.blank()
    if look.dead:
        py_dead(o, 0, p, "top")

    def body(depth):
        if kind == "lc":
            o.line(depth, f"{nm['n']} = len({nm['board']})")
            if s["read"] == "flat":
                py_flatten(o, depth, p)
            elif s["read"] == "helper":
                py_coord_helper(o, depth, p)
        if look.split and s["algo"] in ("deque", "pop0", "head"):
            py_helper_split(o, p, depth)
        if look.dead:
            py_dead(o, depth, p, "start")
        py_search(o, depth, p)
        if look.dead:
            py_dead(o, depth, p, "end")

    if kind == "mt":
        args = f"{nm['move']}, {nm['n']}"
        if look.wrap:
            o.line(0, f"class {nm['wrapcls']}:")
            o.line(1, f"def {nm['wrapm']}(self, {args}):")
            body(2)
            o.blank()
            o.line(0, f"def get_min_dice_throws({args}):")
            o.line(1, f"return {nm['wrapcls']}().{nm['wrapm']}({args})")
        elif s["style"] == "cls":
            o.line(0, "class Throws:")
            o.line(1, f"def count(self, {args}):")
            body(2)
            o.blank()
            o.line(0, f"def get_min_dice_throws({args}):")
            o.line(1, f"return Throws().count({args})")
        else:
            o.line(0, f"def get_min_dice_throws({args}):")
            body(1)
    else:
        sig = f"{nm['board']}: List[List[int]]"
        if look.wrap:
            o.line(0, f"class {nm['wrapcls']}:")
            o.line(1, f"def {nm['wrapm']}(self, {nm['board']}):")
            body(2)
            o.blank()
            o.line(0, "class Solution:")
            o.line(1, f"def snakesAndLadders(self, {sig}) -> int:")
            o.line(2, f"return {nm['wrapcls']}().{nm['wrapm']}({nm['board']})")
        else:
            o.line(0, "class Solution:")
            o.line(1, f"def snakesAndLadders(self, {sig}) -> int:")
            body(2)
    return o.render()


# ---------------------------------------------------------------------- C++


def cpp_t(look, t):
    """A standard type, with or without `std::`."""
    return ("std::" + t) if look.std else t


def cpp_jump_value(o, depth, p, var):
    nm = p.look.names
    if p.kind == "mt":
        return f"{nm['move']}[{var}]"
    read = p.s["read"]
    if read == "flat":
        return f"{nm['cells']}[{var}]"
    n = nm["n"]
    if read == "helper":
        return f"{nm['coord']}({nm['board']}, {var})"
    o.line(depth, f"int {nm['r']} = ({var} - 1) / {n};")
    o.line(depth, f"int {nm['c']} = ({var} - 1) % {n};")
    o.line(depth, f"if ({nm['r']} % 2 == 1) {nm['c']} = {n} - 1 - {nm['c']};")
    return f"{nm['board']}[{n} - 1 - {nm['r']}][{nm['c']}]"


def cpp_land(o, depth, p, src, dst):
    look = p.look
    j = p.s["jump"]
    val = cpp_jump_value(o, depth, p, src)
    if p.s["read"] == "helper" and p.kind == "lc" and j != "override":
        o.line(depth, f"int {dst}_v = {val};")
        val = f"{dst}_v"
    test = has_jump(p, val)
    if j == "ternary":
        o.line(depth, f"int {dst} = {cmp(look, *test)} ? {val} : {src};")
    elif j == "ifelse":
        o.line(depth, f"int {dst};")
        if_else(o, depth, look, test,
                lambda d: o.line(d, f"{dst} = {val};"),
                lambda d: o.line(d, f"{dst} = {src};"))
    else:
        o.line(depth, f"int {dst} = {src};")
        o.line(depth, f"if ({cmp(look, *test)}) {dst} = {val};")


def cpp_faces(o, depth, p, cell, body):
    look, nm, s = p.look, p.look.names, p.s
    k, nxt, goal = nm["k"], nm["nxt"], nm["goal"]
    if s["inner"] == "faces":
        form = s["faces_form"]
        first, stop, plus = ("0", "6", " + 1") if form == "range6" else ("1", "7", "")
        if look.loop_while:
            o.line(depth, f"int {k} = {first};")
            open_brace(o, depth, f"while ({cmp(look, k, '<', stop)})")
            o.line(depth + 1, f"int {nxt} = {cell} + {k}{plus};")
            o.line(depth + 1, f"{k}++;")
        else:
            open_brace(o, depth, f"for (int {k} = {first}; {cmp(look, k, '<', stop)}; ++{k})")
            o.line(depth + 1, f"int {nxt} = {cell} + {k}{plus};")
        if s["bound"] == "nest":
            open_brace(o, depth + 1, f"if ({cmp(look, nxt, '<=', goal)})")
            body(depth + 2)
            close_brace(o, depth + 1)
        else:
            o.line(depth + 1, f"if ({cmp(look, nxt, '>', goal)}) {'break' if s['bound'] == 'break' else 'continue'};")
            body(depth + 1)
        close_brace(o, depth)
        return
    bound = f"{cpp_t(look, 'min')}({cell} + 6, {goal})"
    if look.loop_while:
        o.line(depth, f"int {nxt} = {cell};")
        open_brace(o, depth, f"while ({cmp(look, nxt, '<', bound)})")
        o.line(depth + 1, f"{nxt}++;")
    else:
        open_brace(o, depth, f"for (int {nxt} = {cell} + 1; {cmp(look, nxt, '<=', bound)}; {nxt}++)")
    body(depth + 1)
    close_brace(o, depth)


def cpp_search(o, depth, p):
    look, nm, s = p.look, p.look.names, p.s
    q, dist, seen, cell, nxt, goal = nm["q"], nm["dist"], nm["seen"], nm["cell"], nm["nxt"], nm["goal"]
    dst = nm["nxt"] + "_end" if s["jump"] == "override" else "dest_" + nm["nxt"]
    vec = cpp_t(look, "vector")
    algo = s["algo"]
    vi = "vi" if look.alias else f"{vec}<int>"
    inits = [f"int {goal} = {p.goal_expr};"]
    if algo in ("deque", "pop0", "head", "relax"):
        inits.append(f"{vi} {dist}({p.count}, -1);")
    if algo in ("deque", "pop0"):
        inits.append(f"{cpp_t(look, s['cppq'])}<int> {q};")
    elif algo == "head":
        inits.append(f"{vi} {q};")
    elif algo == "pairs":
        inits.append(f"{cpp_t(look, 'queue')}<{cpp_t(look, 'pair')}<int, int>> {q};")
        inits.append(f"{vec}<bool> {seen}({p.count}, false);")
    elif algo == "levels":
        inits.append(f"{vi} {nm['level']};")
        inits.append(f"{vec}<bool> {seen}({p.count}, false);")
        inits.append(f"int {nm['ans']} = 0;")
    if algo == "head":
        inits.append(f"size_t {nm['head']} = 0;")
    dq = s["cppq"] == "deque" and algo in ("deque", "pop0")
    push = "push_back" if dq or algo == "head" else "push"
    rng = random.Random(look.order)
    rest = inits[1:]
    rng.shuffle(rest)
    for line in inits[:1] + rest:
        o.line(depth, line)
    if algo in ("deque", "pop0", "head", "relax"):
        o.line(depth, f"{dist}[{p.start}] = 0;")
    if algo in ("deque", "pop0", "head"):
        o.line(depth, f"{q}.{push}({p.start});")
    elif algo == "pairs":
        o.line(depth, f"{q}.push({{{p.start}, 0}});")
        o.line(depth, f"{seen}[{p.start}] = true;")
    elif algo == "levels":
        o.line(depth, f"{nm['level']}.push_back({p.start});")
        o.line(depth, f"{seen}[{p.start}] = true;")
    o.comment(depth)
    if s["guard"]:
        o.line(depth, f"if ({cmp(look, goal, '==', p.start)}) return 0;")

    def visit(d, push, mark_test, mark, at_goal):
        def inner(d2):
            cpp_land(o, d2, p, nxt, dst)
            open_brace(o, d2, f"if ({mark_test})")
            for m in mark:
                o.line(d2 + 1, m)
            if at_goal:
                o.line(d2 + 1, f"if ({cmp(look, dst, '==', goal)}) return {at_goal};")
            o.line(d2 + 1, push)
            close_brace(o, d2)
        cpp_faces(o, d, p, cell, inner)

    if algo in ("deque", "pop0", "head", "pairs"):
        if algo == "head":
            open_brace(o, depth, f"while ({cmp(look, nm['head'], '<', f'{q}.size()')})")
            o.line(depth + 1, f"int {cell} = {q}[{nm['head']}++];")
        elif algo == "pairs":
            open_brace(o, depth, f"while (!{q}.empty())")
            o.line(depth + 1, f"int {cell} = {q}.front().first;")
            o.line(depth + 1, f"int {nm['ans']} = {q}.front().second;")
            o.line(depth + 1, f"{q}.pop();")
        else:
            test = {"truthy": f"!{q}.empty()", "len": cmp(look, f"{q}.size()", ">", "0"),
                    "len_ne": cmp(look, f"{q}.size()", "!=", "0")}[s["empty"]]
            open_brace(o, depth, f"while ({test})")
            o.line(depth + 1, f"int {cell} = {q}.front();")
            o.line(depth + 1, f"{q}.{'pop_front' if dq else 'pop'}();")
        base = f"{dist}[{cell}]"
        if s["cur_var"] and not look.split and algo != "pairs":
            o.line(depth + 1, f"int {nm['ans']} = {base};")
            base = nm["ans"]
        if s["goal"] == "dequeue":
            ret = nm["ans"] if algo == "pairs" else f"{dist}[{cell}]"
            o.line(depth + 1, f"if ({cmp(look, cell, '==', goal)}) return {ret};")
        o.comment(depth + 1)
        push_fn = push
        if look.split and algo != "pairs":
            args = f"{cell}, {dist}, {q}" + (f", {nm['move']}" if p.kind == "mt" else "")
            if p.kind == "lc" and s["read"] != "flat":
                args += f", {nm['board']}"
            if p.kind == "lc" and s["read"] == "flat":
                args += f", {nm['cells']}"
            if s["goal"] == "enqueue":
                o.line(depth + 1, f"int {nm['ans']} = {nm['helper']}({args});")
                o.line(depth + 1, f"if ({cmp(look, nm['ans'], '!=', '-1')}) return {nm['ans']};")
            else:
                o.line(depth + 1, f"{nm['helper']}({args});")
        elif algo == "pairs":
            visit(depth + 1, f"{q}.push({{{dst}, {nm['ans']} + 1}});", f"!{seen}[{dst}]",
                  [f"{seen}[{dst}] = true;"], f"{nm['ans']} + 1" if s["goal"] == "enqueue" else None)
        else:
            visit(depth + 1, f"{q}.{push_fn}({dst});", cmp(look, f"{dist}[{dst}]", "==", "-1"),
                  [f"{dist}[{dst}] = {base} + 1;"],
                  f"{dist}[{dst}]" if s["goal"] == "enqueue" else None)
        close_brace(o, depth)
        o.line(depth, f"return {dist}[{goal}];" if s["final"] == "dist_goal" and algo != "pairs" else "return -1;")
    elif algo == "levels":
        open_brace(o, depth, f"while (!{nm['level']}.empty())")
        if s["goal"] == "dequeue":
            open_brace(o, depth + 1, f"for (int {cell} : {nm['level']})")
            o.line(depth + 2, f"if ({cmp(look, cell, '==', goal)}) return {nm['ans']};")
            close_brace(o, depth + 1)
        o.line(depth + 1, f"{vi} {nm['nlevel']};")
        open_brace(o, depth + 1, f"for (int {cell} : {nm['level']})")
        visit(depth + 2, f"{nm['nlevel']}.push_back({dst});", f"!{seen}[{dst}]",
              [f"{seen}[{dst}] = true;"], f"{nm['ans']} + 1" if s["goal"] == "enqueue" else None)
        close_brace(o, depth + 1)
        o.line(depth + 1, f"{nm['level']} = {nm['nlevel']};")
        o.line(depth + 1, f"{nm['ans']}++;")
        close_brace(o, depth)
        o.line(depth, "return -1;")
    else:
        ch = nm["changed"]
        o.line(depth, f"bool {ch} = true;")
        open_brace(o, depth, f"while ({ch})")
        o.line(depth + 1, f"{ch} = false;")
        open_brace(o, depth + 1, f"for (int {cell} = {p.start}; {cmp(look, cell, '<', goal)}; {cell}++)")
        skip = s["relax_skip"]
        if skip == "continue":
            o.line(depth + 2, f"if ({cmp(look, f'{dist}[{cell}]', '==', '-1')}) continue;")
        elif skip == "nest":
            open_brace(o, depth + 2, f"if ({cmp(look, f'{dist}[{cell}]', '!=', '-1')})")

        def inner(d2):
            if skip == "none":
                o.line(d2, f"if ({dist}[{cell}] == -1) continue;")
            cpp_land(o, d2, p, nxt, dst)
            open_brace(o, d2, f"if ({dist}[{dst}] == -1 || {cmp(look, f'{dist}[{cell}] + 1', '<', f'{dist}[{dst}]')})")
            o.line(d2 + 1, f"{dist}[{dst}] = {dist}[{cell}] + 1;")
            o.line(d2 + 1, f"{ch} = true;")
            close_brace(o, d2)
        if skip == "nest":
            cpp_faces(o, depth + 3, p, cell, inner)
            close_brace(o, depth + 2)
        else:
            cpp_faces(o, depth + 2, p, cell, inner)
        close_brace(o, depth + 1)
        close_brace(o, depth)
        o.line(depth, f"return {dist}[{goal}];")


def cpp_helper_split(o, p, depth):
    look, nm, s = p.look, p.look.names, p.s
    q, dist, cell, nxt, goal = nm["q"], nm["dist"], nm["cell"], nm["nxt"], nm["goal"]
    dst = nm["nxt"] + "_end" if s["jump"] == "override" else "dest_" + nm["nxt"]
    vi = "vi" if look.alias else f"{cpp_t(look, 'vector')}<int>"
    dq = s["cppq"] == "deque" and s["algo"] in ("deque", "pop0")
    qt = vi if s["algo"] == "head" else f"{cpp_t(look, s['cppq'])}<int>"
    params = f"int {cell}, {vi}& {dist}, {qt}& {q}"
    if p.kind == "mt":
        params += f", int {nm['move']}[]"
    elif s["read"] == "flat":
        params += f", {vi}& {nm['cells']}"
    else:
        params += f", {cpp_t(look, 'vector')}<{cpp_t(look, 'vector')}<int>>& {nm['board']}"
    open_brace(o, depth, f"int {nm['helper']}({params})")
    if p.kind == "mt":
        o.line(depth + 1, f"int {goal} = {dist}.size() - 1;")
    else:
        o.line(depth + 1, f"int {nm['n']} = {nm['board'] if s['read'] != 'flat' else nm['cells']}.size();")
        if s["read"] == "flat":
            o.line(depth + 1, f"int {goal} = {nm['n']} - 1;")
        else:
            o.line(depth + 1, f"int {goal} = {nm['n']} * {nm['n']};")

    def inner(d2):
        cpp_land(o, d2, p, nxt, dst)
        open_brace(o, d2, f"if ({cmp(look, f'{dist}[{dst}]', '==', '-1')})")
        o.line(d2 + 1, f"{dist}[{dst}] = {dist}[{cell}] + 1;")
        if s["goal"] == "enqueue":
            o.line(d2 + 1, f"if ({cmp(look, dst, '==', goal)}) return {dist}[{dst}];")
        o.line(d2 + 1, f"{q}.{'push_back' if s['algo'] == 'head' or dq else 'push'}({dst});")
        close_brace(o, d2)
    cpp_faces(o, depth + 1, p, cell, inner)
    o.line(depth + 1, "return -1;")
    close_brace(o, depth)


def cpp_coord_helper(o, depth, p):
    nm, look = p.look.names, p.look
    vec = cpp_t(look, "vector")
    n = nm["n"]
    open_brace(o, depth, f"int {nm['coord']}({vec}<{vec}<int>>& {nm['board']}, int {nm['lab']})")
    o.line(depth + 1, f"int {n} = {nm['board']}.size();")
    o.line(depth + 1, f"int {nm['r']} = ({nm['lab']} - 1) / {n};")
    o.line(depth + 1, f"int {nm['c']} = ({nm['lab']} - 1) % {n};")
    if_else(o, depth + 1, look, (f"{nm['r']} % 2", "==", "0"),
            lambda d: o.line(d, f"return {nm['board']}[{n} - 1 - {nm['r']}][{nm['c']}];"),
            lambda d: o.line(d, f"return {nm['board']}[{n} - 1 - {nm['r']}][{n} - 1 - {nm['c']}];"))
    close_brace(o, depth)


def cpp_flatten(o, depth, p):
    nm, look = p.look.names, p.look
    n, b, cells = nm["n"], nm["board"], nm["cells"]
    vi = "vi" if look.alias else f"{cpp_t(look, 'vector')}<int>"
    o.line(depth, f"{vi} {cells}(1, -1);")
    if p.s["flat_loop"] == "index":
        open_brace(o, depth, f"for (int {nm['lab']} = 1; {cmp(look, nm['lab'], '<=', f'{n} * {n}')}; {nm['lab']}++)")
        o.line(depth + 1, f"int {nm['r']} = ({nm['lab']} - 1) / {n};")
        o.line(depth + 1, f"int {nm['c']} = ({nm['lab']} - 1) % {n};")
        odd = {"mod": f"{nm['r']} % 2", "and": f"{nm['r']} & 1", "flag": f"{nm['r']} % 2 == 1"}[p.s["flat_parity"]]
        o.line(depth + 1, f"if ({odd}) {nm['c']} = {n} - 1 - {nm['c']};")
        o.line(depth + 1, f"{cells}.push_back({b}[{n} - 1 - {nm['r']}][{nm['c']}]);")
        close_brace(o, depth)
    else:
        o.line(depth, f"bool {nm['r']}_fwd = true;")
        open_brace(o, depth, f"for (int {nm['r']} = {n} - 1; {cmp(look, nm['r'], '>=', '0')}; {nm['r']}--)")
        open_brace(o, depth + 1, f"if ({nm['r']}_fwd)")
        o.line(depth + 2, f"for (int {nm['c']} = 0; {nm['c']} < {n}; {nm['c']}++) {cells}.push_back({b}[{nm['r']}][{nm['c']}]);")
        close_brace(o, depth + 1)
        open_brace(o, depth + 1, "else")
        o.line(depth + 2, f"for (int {nm['c']} = {n} - 1; {nm['c']} >= 0; {nm['c']}--) {cells}.push_back({b}[{nm['r']}][{nm['c']}]);")
        close_brace(o, depth + 1)
        o.line(depth + 1, f"{nm['r']}_fwd = !{nm['r']}_fwd;")
        close_brace(o, depth)


def cpp(kind, s, look):
    o = Out(look)
    nm = look.names
    p = Problem(kind, s, look)
    if kind == "mt":
        o.line(0, "#include <queue>")
        o.line(0, "#include <deque>")
        o.line(0, "#include <vector>")
        o.line(0, "#include <algorithm>")
    if not look.std:
        o.line(0, "using namespace std;")
    if look.alias:
        o.line(0, f"typedef {cpp_t(look, 'vector')}<int> vi;")
    o.blank()
    if look.dead:
        open_brace(o, 0, f"void {nm['deadf']}(int {nm['dead']})")
        o.line(1, f"if ({nm['dead']} < 0) return;")
        close_brace(o, 0)
        o.blank()
    if kind == "lc" and s["read"] == "helper":
        cpp_coord_helper(o, 0, p)
        o.blank()
    if look.split and s["algo"] in ("deque", "pop0", "head"):
        cpp_helper_split(o, p, 0)
        o.blank()

    def body(depth):
        if kind == "lc":
            o.line(depth, f"int {nm['n']} = {nm['board']}.size();")
            if s["read"] == "flat":
                cpp_flatten(o, depth, p)
        if look.dead:
            o.line(depth, f"int {nm['dead']} = 0;")
            o.line(depth, "if (false) {")
            o.line(depth + 1, f"{nm['dead']}++;")
            o.line(depth, "}")
        cpp_search(o, depth, p)
        if look.dead:
            o.line(depth, f"{nm['dead']} = -1;")

    if kind == "mt":
        params = f"int {nm['move']}[], int {nm['n']}"
        if look.wrap:
            open_brace(o, 0, f"struct {nm['wrapcls']}")
            open_brace(o, 1, f"int {nm['wrapm']}({params})")
            body(2)
            close_brace(o, 1)
            close_brace(o, 0, ";")
            o.blank()
            open_brace(o, 0, f"int get_min_dice_throws({params})")
            o.line(1, f"{nm['wrapcls']} {nm['dead']}_s;")
            o.line(1, f"return {nm['dead']}_s.{nm['wrapm']}({nm['move']}, {nm['n']});")
            close_brace(o, 0)
        else:
            open_brace(o, 0, f"int get_min_dice_throws({params})")
            body(1)
            close_brace(o, 0)
    else:
        vec = cpp_t(look, "vector")
        params = f"{vec}<{vec}<int>>& {nm['board']}"
        if look.wrap:
            open_brace(o, 0, f"struct {nm['wrapcls']}")
            open_brace(o, 1, f"int {nm['wrapm']}({params})")
            body(2)
            close_brace(o, 1)
            close_brace(o, 0, ";")
            o.blank()
            open_brace(o, 0, "class Solution")
            o.line(0, "public:")
            open_brace(o, 1, f"int snakesAndLadders({params})")
            o.line(2, f"return {nm['wrapcls']}().{nm['wrapm']}({nm['board']});")
            close_brace(o, 1)
            close_brace(o, 0, ";")
        else:
            open_brace(o, 0, "class Solution")
            o.line(0, "public:")
            open_brace(o, 1, f"int snakesAndLadders({params})")
            body(2)
            close_brace(o, 1)
            close_brace(o, 0, ";")
    return o.render()


# ---------------------------------------------------------------------- a48

A48_POOLS = {
    "first": ["first", "head", "start", "root", "begin", "f0"],
    "node": ["node", "cur", "p", "at", "here", "curr", "x"],
    "twin": ["twin", "copy", "clone", "mirror", "new_node", "dup"],
    "n": ["n", "size", "count", "total", "num", "length", "squares"],
    "last": ["last", "goal", "end", "final", "tail", "target"],
    "step": ["stepsize", "step", "s", "k", "jump", "stride"],
    "move": ["move", "moves", "turn", "t", "rounds", "tries"],
    "left": ["left", "remaining", "todo", "r", "steps_left", "c"],
    "t1": ["time1", "one", "a", "first_time", "t1", "p1"],
    "t2": ["time2", "two", "b", "second_time", "t2", "p2"],
    "newf": ["new_first", "new_head", "result", "dual_first", "out", "nf"],
    "prev": ["prev", "previous", "before", "last_new", "tail_new", "pv"],
    "nodes": ["nodes", "ring", "squares_list", "lst", "arr", "cells"],
    "i": ["i", "j", "idx", "ii", "pos", "ix"],
    "src": ["src", "source", "frm", "sq_from", "start_sq", "s_"],
    "dst": ["dst", "destination", "to", "sq_to", "end_sq", "d_"],
    "salb": ["salb", "board", "b", "sb", "game", "brd"],
    "dist": ["dist", "gap", "offset", "d", "delta", "hops"],
    "size_f": ["_size", "count_squares", "size_of", "ring_len", "num_squares", "length_of"],
    "last_f": ["_last", "last_square", "find_last", "tail_of", "get_last", "end_node"],
    "time_f": ["_finish_time", "moves_needed", "finish_time", "time_to_finish", "rounds_to_end", "play"],
    "walk_f": ["advance", "walk", "step_on", "move_on", "go", "hop"],
    "wrapcls": ["Game", "Board", "Solver", "Ring", "Helper", "Player"],
    "wrapm": ["run", "solve", "compute", "answer", "evaluate", "get"],
    "dead": ["unused", "tmp", "debug", "counter", "spare", "extra", "dummy"],
    "deadf": ["log", "show", "trace", "dump_state", "pretty", "report_it", "noop"],
}


def a48_structure(rng):
    """The choices one writer of a48 makes."""
    return {
        "build": rng.choice(["list_mod", "list_link", "chain"]),
        "items": rng.choice(["items", "keys"]),
        "size": rng.choice(["from1", "while_true", "both"]),
        "time_loop": rng.choice(["while", "for"]),
        "step": rng.choice(["for_mod", "while_left", "for_plain"]),
        "sn": rng.choice(["none", "truthy"]),
        "never": rng.choice(["0", "0", "-1", "None"]),
        "wf": rng.choice(["cmp", "if"]),
        "ww": rng.choice(["one", "nested", "expr"]),
        "dual": rng.choice(["twin", "interleave", "position"]),
        "walk_helper": rng.random() < 0.3,
        # Micro-choices, as in the other sets.
        "steps_var": rng.random() < 0.4,
        "follow": rng.choice(["if", "if", "or"]),
        "done": rng.choice(["is", "is", "eq"]),
        "local_n": rng.random() < 0.4,
        "wf_bool": rng.random() < 0.3,
    }


def py_range_loop(o, depth, look, var, a, b, body):
    """`for var in range(a, b)`, or its `while` in this look."""
    if look.loop_while:
        o.line(depth, f"{var} = {a}")
        o.line(depth, f"while {cmp(look, var, '<', b)}:")
        body(depth + 1)
        o.line(depth + 1, f"{var} += 1")
    else:
        bounds = b if a == "0" else f"{a}, {b}"
        o.line(depth, f"for {var} in range({bounds}):")
        body(depth + 1)


def a48_python(s, look):
    o = Out(look)
    nm = look.names
    rng = random.Random(look.order)
    o.line(0, "from salboard import SALboard")
    o.line(0, "from salbnode import SALBnode")
    o.blank()
    if look.dead:
        py_dead(o, 0, Problem("mt", {}, look), "top")
    wrap = look.wrap
    # In a wrapping class, the helpers are methods called through `self`.
    me = "self, " if wrap else ""
    call = (lambda f: f"self.{nm[f]}") if wrap else (lambda f: nm[f])
    outer = (lambda f: f"{nm['wrapcls']}().{nm[f]}") if wrap else (lambda f: nm[f])
    sn_set = (lambda x: f"{x}.snadder is not None") if s["sn"] == "none" else (lambda x: f"{x}.snadder")
    never = s["never"]

    def finished(t):
        if never == "None":
            return f"{t} is not None"
        return cmp(look, t, ">" if never == "0" else "!=", never)

    def unfinished(t):
        if never == "None":
            return f"{t} is None"
        return cmp(look, t, "==", never)

    # salb2salbLL
    o.line(0, f"def salb2salbLL({nm['salb']}):")
    N = f"{nm['salb']}.numSquares"
    if s["local_n"]:
        o.line(1, f"{nm['n']} = {N}")
        N = nm["n"]
    nodes, i = nm["nodes"], nm["i"]
    if s["build"] == "list_mod":
        o.line(1, f"{nodes} = [SALBnode() for _ in range({N})]")
        py_range_loop(o, 1, look, i, "0", N, lambda d: o.line(d, f"{nodes}[{i}].next = {nodes}[({i} + 1) % {N}]"))
    elif s["build"] == "list_link":
        o.line(1, f"{nodes} = []")
        py_range_loop(o, 1, look, i, "0", N, lambda d: o.line(d, f"{nodes}.append(SALBnode())"))
        py_range_loop(o, 1, look, i, "0", f"{N} - 1", lambda d: o.line(d, f"{nodes}[{i}].next = {nodes}[{i} + 1]"))
        o.line(1, f"{nodes}[{N} - 1].next = {nodes}[0]")
    else:
        o.line(1, f"{nodes} = [SALBnode()]")

        def chain(d):
            o.line(d, f"{nm['node']} = SALBnode()")
            o.line(d, f"{nodes}[-1].next = {nm['node']}")
            o.line(d, f"{nodes}.append({nm['node']})")

        py_range_loop(o, 1, look, i, "1", N, chain)
        o.line(1, f"{nodes}[-1].next = {nodes}[0]")
    o.comment(1)
    if s["items"] == "items":
        o.line(1, f"for {nm['src']}, {nm['dst']} in {nm['salb']}.snadders.items():")
        o.line(2, f"{nodes}[{nm['src']} - 1].snadder = {nodes}[{nm['dst']} - 1]")
    else:
        o.line(1, f"for {nm['src']} in {nm['salb']}.snadders:")
        o.line(2, f"{nodes}[{nm['src']} - 1].snadder = {nodes}[{nm['salb']}.snadders[{nm['src']}] - 1]")
    o.line(1, f"return {nodes}[0]")
    o.blank()

    d0 = 0
    if wrap:
        o.line(0, f"class {nm['wrapcls']}:")
        d0 = 1
    first, node, n, last = nm["first"], nm["node"], nm["n"], nm["last"]
    # The size (and last square) helpers.
    o.line(d0, f"def {nm['size_f']}({me}{first}):")
    if s["size"] == "from1":
        o.line(d0 + 1, f"{n} = 1")
        o.line(d0 + 1, f"{node} = {first}.next")
        o.line(d0 + 1, f"while {node} is not {first}:")
        o.line(d0 + 2, f"{n} += 1")
        o.line(d0 + 2, f"{node} = {node}.next")
        o.line(d0 + 1, f"return {n}")
    elif s["size"] == "while_true":
        o.line(d0 + 1, f"{n} = 0")
        o.line(d0 + 1, f"{node} = {first}")
        o.line(d0 + 1, "while True:")
        o.line(d0 + 2, f"{n} += 1")
        o.line(d0 + 2, f"{node} = {node}.next")
        o.line(d0 + 2, f"if {node} is {first}:")
        o.line(d0 + 3, "break")
        o.line(d0 + 1, f"return {n}")
    else:
        o.line(d0 + 1, f"{n} = 1")
        o.line(d0 + 1, f"{node} = {first}")
        o.line(d0 + 1, f"while {node}.next is not {first}:")
        o.line(d0 + 2, f"{n} += 1")
        o.line(d0 + 2, f"{node} = {node}.next")
        o.line(d0 + 1, f"return {n}, {node}")
    o.blank()
    if s["size"] != "both":
        o.line(d0, f"def {nm['last_f']}({me}{first}):")
        o.line(d0 + 1, f"{node} = {first}")
        o.line(d0 + 1, f"while {node}.next is not {first}:")
        o.line(d0 + 2, f"{node} = {node}.next")
        o.line(d0 + 1, f"return {node}")
        o.blank()
    walk_helper = s["walk_helper"] or look.split
    if walk_helper:
        o.line(d0, f"def {nm['walk_f']}({me}{node}, {nm['left']}):")
        o.line(d0 + 1, f"for _ in range({nm['left']}):")
        o.line(d0 + 2, f"{node} = {node}.next")
        o.line(d0 + 1, f"return {node}")
        o.blank()
    # The finish time.
    step, move, left = nm["step"], nm["move"], nm["left"]
    o.line(d0, f"def {nm['time_f']}({me}{first}, {step}):")
    if s["size"] == "both":
        o.line(d0 + 1, f"{n}, {last} = {call('size_f')}({first})")
    else:
        head = [f"{n} = {call('size_f')}({first})", f"{last} = {call('last_f')}({first})"]
        rng.shuffle(head)
        for h_ in head:
            o.line(d0 + 1, h_)
    if look.dead:
        py_dead(o, d0 + 1, Problem("mt", {}, look), "start")
    o.line(d0 + 1, f"{node} = {last}")

    steps = f"{step}" if s["step"] == "for_plain" else f"{step} % {n}"
    if s["steps_var"] and s["step"] != "for_plain":
        o.line(d0 + 1, f"{nm['dist']} = {steps}")
        steps = nm["dist"]

    def turn(d):
        amount = steps
        if walk_helper:
            o.line(d, f"{node} = {call('walk_f')}({node}, {amount})")
        elif s["step"] == "while_left":
            o.line(d, f"{left} = {amount}")
            o.line(d, f"while {cmp(look, left, '>', '0')}:")
            o.line(d + 1, f"{node} = {node}.next")
            o.line(d + 1, f"{left} -= 1")
        else:
            o.line(d, f"for _ in range({amount}):")
            o.line(d + 1, f"{node} = {node}.next")
        if s["follow"] == "or":
            o.line(d, f"{node} = {node}.snadder or {node}")
        else:
            o.line(d, f"if {sn_set(node)}:")
            o.line(d + 1, f"{node} = {node}.snadder")
        o.line(d, f"if {node} {'is' if s['done'] == 'is' else '=='} {last}:")
        o.line(d + 1, f"return {move}")

    if s["time_loop"] == "while" or look.loop_while:
        o.line(d0 + 1, f"{move} = 0")
        o.line(d0 + 1, f"while {cmp(look, move, '<', n)}:")
        o.line(d0 + 2, f"{move} += 1")
        turn(d0 + 2)
    else:
        o.line(d0 + 1, f"for {move} in range(1, {n} + 1):")
        turn(d0 + 2)
    o.line(d0 + 1, f"return {never}")
    if look.dead:
        py_dead(o, d0 + 1, Problem("mt", {}, look), "end")
    o.blank()
    # willfinish and whowins.
    o.line(0, f"def willfinish({first}, {step}):")
    if s["wf_bool"] and never != "-1":
        o.line(1, f"return bool({outer('time_f')}({first}, {step}))")
    elif s["wf"] == "cmp":
        o.line(1, f"return {finished(outer('time_f') + f'({first}, {step})')}")
    else:
        o.line(1, f"{move} = {outer('time_f')}({first}, {step})")
        o.line(1, f"if {unfinished(move)}:")
        o.line(2, "return False")
        o.line(1, "return True")
    o.blank()
    t1, t2 = nm["t1"], nm["t2"]
    o.line(0, f"def whowins({first}, {step}1, {step}2):")
    lines = [f"{t1} = {outer('time_f')}({first}, {step}1)", f"{t2} = {outer('time_f')}({first}, {step}2)"]
    rng.shuffle(lines)
    for ln in lines:
        o.line(1, ln)
    le = cmp(look, t1, "<=", t2)
    if s["ww"] == "one":
        o.line(1, f"if {finished(t1)} and ({unfinished(t2)} or {le}):")
        o.line(2, "return 1")
        o.line(1, "return 2")
    elif s["ww"] == "nested":
        o.line(1, f"if {finished(t1)}:")
        o.line(2, f"if {unfinished(t2)}:")
        o.line(3, "return 1")
        o.line(2, f"if {le}:")
        o.line(3, "return 1")
        o.line(1, "return 2")
    else:
        o.line(1, f"return 1 if {finished(t1)} and ({unfinished(t2)} or {le}) else 2")
    o.blank()
    # dualboard.
    twin, newf, prev = nm["twin"], nm["newf"], nm["prev"]
    o.line(0, f"def dualboard({first}):")
    if s["dual"] == "twin":
        o.line(1, f"{node} = {first}")
        o.line(1, f"{newf} = None")
        o.line(1, f"{prev} = None")
        o.line(1, "while True:")
        o.line(2, f"{twin} = SALBnode()")
        o.line(2, f"{node}.twin = {twin}")
        o.line(2, f"if {prev} is None:")
        o.line(3, f"{newf} = {twin}")
        o.line(2, "else:")
        o.line(3, f"{prev}.next = {twin}")
        o.line(2, f"{prev} = {twin}")
        o.line(2, f"{node} = {node}.next")
        o.line(2, f"if {node} is {first}:")
        o.line(3, "break")
        o.line(1, f"{prev}.next = {newf}")
        o.line(1, f"{node} = {first}")
        o.line(1, "while True:")
        o.line(2, f"if {sn_set(node)}:")
        o.line(3, f"{node}.snadder.twin.snadder = {node}.twin")
        o.line(2, f"{node} = {node}.next")
        o.line(2, f"if {node} is {first}:")
        o.line(3, "break")
        o.line(1, f"{node} = {first}")
        o.line(1, "while True:")
        o.line(2, f"del {node}.twin")
        o.line(2, f"{node} = {node}.next")
        o.line(2, f"if {node} is {first}:")
        o.line(3, "break")
    elif s["dual"] == "interleave":
        o.line(1, f"{node} = {first}")
        o.line(1, "while True:")
        o.line(2, f"{twin} = SALBnode({node}.next)")
        o.line(2, f"{node}.next = {twin}")
        o.line(2, f"{node} = {twin}.next")
        o.line(2, f"if {node} is {first}:")
        o.line(3, "break")
        o.line(1, f"{node} = {first}")
        o.line(1, "while True:")
        o.line(2, f"if {sn_set(node)}:")
        o.line(3, f"{node}.snadder.next.snadder = {node}.next")
        o.line(2, f"{node} = {node}.next.next")
        o.line(2, f"if {node} is {first}:")
        o.line(3, "break")
        o.line(1, f"{newf} = {first}.next")
        o.line(1, f"{node} = {first}")
        o.line(1, "while True:")
        o.line(2, f"{twin} = {node}.next")
        o.line(2, f"{prev} = {twin}.next")
        o.line(2, f"{node}.next = {prev}")
        o.line(2, f"{twin}.next = {newf} if {prev} is {first} else {prev}.next")
        o.line(2, f"{node} = {prev}")
        o.line(2, f"if {node} is {first}:")
        o.line(3, "break")
    else:
        dist = nm["dist"]
        if s["size"] == "both":
            o.line(1, f"{n}, _ = {outer('size_f')}({first})")
        else:
            o.line(1, f"{n} = {outer('size_f')}({first})")
        o.line(1, f"{newf} = SALBnode()")
        o.line(1, f"{prev} = {newf}")

        def grow(d):
            o.line(d, f"{prev}.next = SALBnode()")
            o.line(d, f"{prev} = {prev}.next")

        py_range_loop(o, 1, look, nm["i"], "0", f"{n} - 1", grow)
        o.line(1, f"{prev}.next = {newf}")
        o.line(1, f"{node} = {first}")
        o.line(1, f"{twin} = {newf}")

        def mirror(d):
            o.line(d, f"if {sn_set(node)}:")
            o.line(d + 1, f"{dist} = 0")
            o.line(d + 1, f"{last} = {first}")
            o.line(d + 1, f"while {last} is not {node}.snadder:")
            o.line(d + 2, f"{last} = {last}.next")
            o.line(d + 2, f"{dist} += 1")
            o.line(d + 1, f"{prev} = {newf}")
            o.line(d + 1, f"for _ in range({dist}):")
            o.line(d + 2, f"{prev} = {prev}.next")
            o.line(d + 1, f"{prev}.snadder = {twin}")
            o.line(d, f"{node} = {node}.next")
            o.line(d, f"{twin} = {twin}.next")

        py_range_loop(o, 1, look, nm["i"], "0", n, mirror)
    o.line(1, f"return {newf}")
    return o.render()


# ------------------------------------------------------------------- copies


def disguised(look, level, rng):
    """The look of a copy of `look` at `level`."""
    pools = A48_POOLS if "salb" in look.names else None
    c = Look(rng, pick_names(rng, avoid=look.names, pools=pools), look.lang)
    # Keep what the level does not change.
    for attr in ("flip", "swap", "order", "loop_while", "std", "alias", "dead", "split", "wrap"):
        setattr(c, attr, getattr(look, attr))
    if level == "light":
        return c
    # Medium: at least three of the rewrites that keep behaviour.
    moves = ["flip", "swap", "order", "loop_while"] + (["std", "alias"] if look.lang == "cpp" else [])
    for m in rng.sample(moves, k=min(len(moves), rng.choice([3, 4]))):
        if m == "order":
            c.order = rng.randrange(1 << 30)
        else:
            setattr(c, m, not getattr(look, m))
    if level == "medium":
        return c
    c.dead = True
    c.split = True
    c.wrap = True
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--originals", type=int, default=60)
    ap.add_argument("--copies", type=int, default=6, help="copies per level per set")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sets", help="only these sets, comma-separated (min-throws-py,...)")
    args = ap.parse_args()
    wanted = set(args.sets.split(",")) if args.sets else None
    truth = {}
    for kind, lang in (("mt", "py"), ("mt", "cpp"), ("lc", "py"), ("lc", "cpp"), ("a48", "py")):
        name = {"mt": "min-throws", "lc": "leetcode909", "a48": "a48"}[kind] + f"-{lang}"
        if wanted is not None and name not in wanted:
            continue
        rng = random.Random(f"{args.seed}-{name}")
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        render = python if lang == "py" else cpp
        if kind == "a48":
            render = lambda _kind, st, lk: a48_python(st, lk)  # noqa: E731
        ext = "py" if lang == "py" else "cpp"
        seen_text = set()
        made = []
        while len(made) < args.originals:
            if kind == "a48":
                s = a48_structure(rng)
                look = Look(rng, pick_names(rng, pools=A48_POOLS), lang)
            else:
                s = structure(rng, kind)
                look = Look(rng, pick_names(rng), lang)
            text = render(kind, s, look)
            if text in seen_text:
                continue
            seen_text.add(text)
            made.append((s, look))
            with open(os.path.join(folder, f"s{len(made):03d}.{ext}"), "w") as f:
                f.write(text)
        copies = {}
        chosen = rng.sample(range(len(made)), 3 * args.copies)
        for i, idx in enumerate(chosen):
            level = ["light", "medium", "heavy"][i // args.copies]
            s, look = made[idx]
            c = disguised(look, level, rng)
            text = render(kind, s, c)
            cname = f"c{i + 1:03d}"
            with open(os.path.join(folder, f"{cname}.{ext}"), "w") as f:
                f.write(text)
            copies[cname] = [f"s{idx + 1:03d}", level]
        truth[name] = copies
    with open(os.path.join(args.out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)
    print(f"wrote {args.out}: {len(truth)} sets")


if __name__ == "__main__":
    main()
