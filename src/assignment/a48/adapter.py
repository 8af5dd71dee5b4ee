"""A48's adapter for salgrade's driver: builds SALboards and circular lists
of SALBnodes from a case's input, and describes what the student returned.

Input: {"board": {"squares": N, "snadders": [[s, d], ...]}, "args": [steps...]}.
Answers: {"kind": "value", "type": T, "value": V[, "repr": R]} for a plain
value, or {"kind": "list", ...} for a returned list (its shape, its snadders
as 0-based node pairs, links outside it, nodes shared with the input).
"""

from operator import attrgetter
from operator import is_ as operator_is

from _salgrade_values import plain
from salbnode import SALBnode
from salboard import SALboard

FUNCTIONS = ("salb2salbLL", "willfinish", "whowins", "dualboard")
RETURNS_A_LIST = ("salb2salbLL", "dualboard")
# The course's own modules: the driver takes their state before the
# student's import and compares it after each call.
COURSE_MODULES = ("salbnode", "salboard")


def find(module, function):
    fn = getattr(module, function, None)
    return fn if callable(fn) else None


CLASS_NAME = type.__dict__["__name__"].__get__
NEXT = attrgetter("next")
SNADDER = attrgetter("snadder")


def build_list(squares, snadders):
    nodes = [SALBnode() for _ in range(squares)]
    for node, following in zip(nodes, nodes[1:]):
        node.next = following
    nodes[-1].next = nodes[0]
    for source, destination in snadders:
        nodes[source - 1].snadder = nodes[destination - 1]
    return tuple(nodes)


def snapshot(nodes, tuple=tuple, map=map):
    """Every square's links, as the objects themselves (compared by
    identity); built at C speed, as it runs twice on every case. Tuples:
    nothing the student's code reaches can change them."""
    return tuple(map(NEXT, nodes)), tuple(map(SNADDER, nodes))


def board_items(snadders):
    """A SALboard's snadders as a sorted tuple of (int, int), or None when
    the mapping or an item is not exactly a dict of ints (an object the
    student made could say it equals anything)."""
    if type(snadders) is not dict:
        return None
    items = tuple(dict.items(snadders))
    for source, destination in items:
        if type(source) is not int or type(destination) is not int:
            return None
    return tuple(sorted(items))


def prepare(function, input):
    board = input["board"]
    squares = board["squares"]
    pairs = board.get("snadders", [])
    args = input.get("args", [])
    if function == "salb2salbLL":
        snadders = {s: d for s, d in pairs}
        argument = SALboard(squares, snadders)
        before = (squares, tuple(sorted(snadders.items())))
        return [argument] + args, (argument, before, frozenset())
    nodes = build_list(squares, pairs)
    return [nodes[0]] + args, (nodes, snapshot(nodes), frozenset(map(id, nodes)))


def changed(function, input, state, type=type, all=all, map=map, operator_is=operator_is,
            getattr=getattr):
    if function == "salb2salbLL":
        board, (squares, items) = state[0], state[1]
        if type(board) is not SALboard:
            return "the SALboard passed in was replaced by another kind of object"
        try:
            now_squares = object.__getattribute__(board, "numSquares")
            now_items = board_items(object.__getattribute__(board, "snadders"))
        except AttributeError:
            return "the SALboard passed in lost an attribute"
        if type(now_squares) is not int or now_squares != squares or now_items != items:
            return "the SALboard passed in was modified"
        return None
    nodes, (nexts, snadders) = state[0], state[1]
    for node in nodes:
        if type(node) is not SALBnode:
            return "a square of the input list was made another kind of object"
    after_nexts, after_snadders = snapshot(nodes)
    same = all(map(operator_is, nexts, after_nexts)) and all(map(operator_is, snadders, after_snadders))
    if same:
        return None
    for i in range(len(nodes)):
        if nexts[i] is not after_nexts[i]:
            return "square {}'s next link was changed".format(i + 1)
        if snadders[i] is not after_snadders[i]:
            return "square {}'s snadder was changed".format(i + 1)
    return "the input list was changed"


def describe(function, input, result, state):
    if function in RETURNS_A_LIST:
        return describe_list(result, input["board"]["squares"], state[2])
    return plain(result)


def is_node(obj):
    return hasattr(obj, "next") and hasattr(obj, "snadder")


def describe_list(head, squares, input_ids):
    """Walk a returned list at most squares+1 nodes and report its shape."""
    if not is_node(head):
        return plain(head)
    order = []
    append = order.append
    index = {}
    node = head
    while True:
        if node is None:
            end = {"kind": "open"}
            break
        if type(node) is not SALBnode and not is_node(node):
            end = {"kind": "not_a_node", "type": CLASS_NAME(type(node))[:200]}
            break
        key = id(node)
        seen = index.get(key)
        if seen is not None:
            end = {"kind": "circular"} if seen == 0 else {"kind": "loops_back", "to": seen}
            break
        if len(order) > squares:
            end = {"kind": "too_long"}
            break
        index[key] = len(order)
        append(node)
        node = node.next
    links = []
    outside = []
    for i, target in enumerate(map(SNADDER, order)):
        if target is None:
            continue
        j = index.get(id(target))
        if j is not None:
            links.append([i, j])
        elif id(target) in input_ids:
            outside.append([i, "input"])
        elif not is_node(target):
            outside.append([i, "not_a_node"])
        else:
            outside.append([i, "other"])
    shared = len(input_ids.intersection(index))
    return {"kind": "list", "length": len(order), "end": end, "snadders": links,
            "outside": outside, "shares_input": shared}
