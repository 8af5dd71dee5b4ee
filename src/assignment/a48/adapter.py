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

FUNCTIONS = ("salb2salbLL", "willfinish", "whowins", "dualboard")
RETURNS_A_LIST = ("salb2salbLL", "dualboard")


def find(module, function):
    fn = getattr(module, function, None)
    return fn if callable(fn) else None


NEXT = attrgetter("next")
SNADDER = attrgetter("snadder")


def build_list(squares, snadders):
    from salbnode import SALBnode
    nodes = [SALBnode() for _ in range(squares)]
    for node, following in zip(nodes, nodes[1:]):
        node.next = following
    nodes[-1].next = nodes[0]
    for source, destination in snadders:
        nodes[source - 1].snadder = nodes[destination - 1]
    return nodes


def snapshot(nodes):
    """Every square's links, as the objects themselves (compared by
    identity); built at C speed, as it runs twice on every case."""
    return list(map(NEXT, nodes)), list(map(SNADDER, nodes))


def prepare(function, input):
    board = input["board"]
    squares = board["squares"]
    pairs = board.get("snadders", [])
    args = input.get("args", [])
    if function == "salb2salbLL":
        from salboard import SALboard
        snadders = {s: d for s, d in pairs}
        argument = SALboard(squares, snadders)
        return [argument] + args, {"board": argument, "before": (squares, dict(snadders)),
                                   "input_ids": set()}
    nodes = build_list(squares, pairs)
    return [nodes[0]] + args, {"nodes": nodes, "before": snapshot(nodes),
                               "input_ids": set(map(id, nodes))}


def changed(function, input, state):
    if function == "salb2salbLL":
        board, before = state["board"], state["before"]
        if not (board.numSquares == before[0] and board.snadders == before[1]):
            return "the SALboard passed in was modified"
        return None
    nodes, (nexts, snadders) = state["nodes"], state["before"]
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
        return describe_list(result, input["board"]["squares"], state["input_ids"])
    return plain(result)


def is_node(obj):
    return hasattr(obj, "next") and hasattr(obj, "snadder")


def describe_list(head, squares, input_ids):
    """Walk a returned list at most squares+1 nodes and report its shape."""
    if not is_node(head):
        return plain(head)
    from salbnode import SALBnode
    order = []
    append = order.append
    index = {}
    node = head
    while True:
        if node is None:
            end = {"kind": "open"}
            break
        if type(node) is not SALBnode and not is_node(node):
            end = {"kind": "not_a_node", "type": type(node).__name__}
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
