"""The baseline: the pytest suite a competent instructor would write for A48.

One pytest process grades one student. Each (function, case) of the case
file written by `salgrade gen` is one test, with the checks salgrade's judge
makes (docs/a48.md; src/assignment/a48/):

* willfinish: the answer is a `bool` and one of the case's accepted answers;
* whowins: the answer is an `int` and one of the accepted answers (both 1
  and 2 where the case accepts either reading);
* salb2salbLL and dualboard: the result is the first node of a circular
  list of exactly n nodes, every snadder leads to a node of that list, the
  (source, destination) squares are the expected board's, and for dualboard
  no node of the input list is reused;
* every function leaves its input as it was (every node's `next` and
  `snadder`, or the SALboard's fields).

A case passes only when all of its checks hold. The container rule is
checked approximately by `test_container_rule` (see rule_check.py); it is
reported apart and never counted as a case.

Settings come from the environment (bench/run.py sets them):

    A48_CASES     the case file
    A48_STUDENT   the student's folder, holding salbLLfunctions.py
    A48_COURSE    a folder holding the course API: salbnode.py, salboard.py
"""

import importlib.util
import json
import os
import sys

import pytest

from rule_check import offending_functions

CASES_PATH = os.environ["A48_CASES"]
STUDENT_DIR = os.environ["A48_STUDENT"]
COURSE_DIR = os.environ["A48_COURSE"]
STUDENT_FILE = os.path.join(STUDENT_DIR, "salbLLfunctions.py")

with open(CASES_PATH, encoding="utf-8") as f:
    CASES = json.load(f)["cases"]

# The course API, as the handout ships it; the student's file imports the same modules.
sys.path[:0] = [COURSE_DIR, STUDENT_DIR]
from salbnode import SALBnode  # noqa: E402
from salboard import SALboard  # noqa: E402


def cases_of(function):
    return [pytest.param(case, id=case["id"]) for case in CASES if case["function"] == function]


@pytest.fixture(scope="module")
def student():
    """The student's module, imported once per process as a course's tests would."""
    spec = importlib.util.spec_from_file_location("salbLLfunctions", STUDENT_FILE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["salbLLfunctions"] = module
    spec.loader.exec_module(module)
    return module


# ---- inputs ---------------------------------------------------------------

def build_list(board):
    """A fresh circular list for the case's board; returns all its nodes."""
    squares = board["squares"]
    nodes = [SALBnode() for _ in range(squares)]
    for i in range(squares):
        nodes[i].next = nodes[(i + 1) % squares]
    for source, destination in board["snadders"]:
        nodes[source - 1].snadder = nodes[destination - 1]
    return nodes


def links(nodes):
    """What the input list says: every node's next and snadder, by identity."""
    return [(id(node.next), id(node.snadder)) for node in nodes]


def assert_list_unchanged(nodes, before):
    after = links(nodes)
    for square, (old, new) in enumerate(zip(before, after), start=1):
        assert old[0] == new[0], f"changed input: square {square}'s next link was changed"
        assert old[1] == new[1], f"changed input: square {square}'s snadder was changed"


# ---- answers ----------------------------------------------------------------

def assert_accepted(got, accepted, type_name):
    # The type is checked by name, as salgrade does: True is not the int 1.
    assert type(got).__name__ == type_name, f"wrong type: expected a {type_name}, got {got!r}"
    assert got in accepted, f"wrong answer: expected one of {accepted}, got {got!r}"


def is_node(obj):
    return hasattr(obj, "next") and hasattr(obj, "snadder")


def assert_board_list(head, expected_board, input_nodes=()):
    """The returned list must be a circle of n nodes holding the expected snadders."""
    squares = expected_board["squares"]
    assert is_node(head), f"wrong type: expected the first SALBnode of a list, got {head!r}"
    order = []
    position = {}
    node = head
    while True:
        assert is_node(node), f"invalid structure: node {len(order)}'s next is {node!r}"
        if id(node) in position:
            break
        assert len(order) < squares, f"invalid structure: longer than the board's {squares} squares"
        position[id(node)] = len(order)
        order.append(node)
        node = node.next
    assert node is head, "invalid structure: the list loops back to a node other than the first"
    assert len(order) == squares, f"invalid structure: {len(order)} nodes for {squares} squares"

    got = set()
    for i, node in enumerate(order):
        target = node.snadder
        if target is None:
            continue
        j = position.get(id(target))
        assert j is not None, f"square {i + 1}'s snadder leads outside the returned list"
        got.add((i + 1, j + 1))
    input_ids = {id(n) for n in input_nodes}
    shared = sum(1 for n in order if id(n) in input_ids)
    assert shared == 0, f"shares input: {shared} node(s) of the input list reused"
    want = {(source, destination) for source, destination in expected_board["snadders"]}
    assert got == want, f"wrong answer: snadders {sorted(got)}, expected {sorted(want)}"


# ---- one test per (function, case) --------------------------------------------

@pytest.mark.parametrize("case", cases_of("salb2salbLL"))
def test_salb2salbLL(student, case):
    board = case["input"]["board"]
    snadders = {source: destination for source, destination in board["snadders"]}
    salb = SALboard(board["squares"], snadders)
    head = student.salb2salbLL(salb)
    assert salb.numSquares == board["squares"] and salb.snadders == dict(board["snadders"]), \
        "changed input: the SALboard passed in was modified"
    assert_board_list(head, case["expected"]["board"])


@pytest.mark.parametrize("case", cases_of("willfinish"))
def test_willfinish(student, case):
    nodes = build_list(case["input"]["board"])
    before = links(nodes)
    got = student.willfinish(nodes[0], *case["input"]["args"])
    assert_accepted(got, case["expected"]["one_of"], "bool")
    assert_list_unchanged(nodes, before)


@pytest.mark.parametrize("case", cases_of("whowins"))
def test_whowins(student, case):
    nodes = build_list(case["input"]["board"])
    before = links(nodes)
    got = student.whowins(nodes[0], *case["input"]["args"])
    assert_accepted(got, case["expected"]["one_of"], "int")
    assert_list_unchanged(nodes, before)


@pytest.mark.parametrize("case", cases_of("dualboard"))
def test_dualboard(student, case):
    nodes = build_list(case["input"]["board"])
    before = links(nodes)
    head = student.dualboard(nodes[0])
    assert_list_unchanged(nodes, before)
    assert_board_list(head, case["expected"]["board"], input_nodes=nodes)


# ---- the handout's container rule (approximate, reported apart) -----------

@pytest.mark.parametrize("function", ["willfinish", "whowins", "dualboard"])
def test_container_rule(function):
    with open(STUDENT_FILE, "rb") as f:
        source = f.read()
    found = offending_functions(source).get(function, [])
    assert not found, f"{function} reaches a list, tuple, set or dict: " + "; ".join(found)
