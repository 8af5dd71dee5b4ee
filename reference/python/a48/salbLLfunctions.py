"""Model solution for the snakes and ladders linked list assignment.

salgrade grades every submission against the same rules this file follows,
and its tests require this file to score full marks. Apart from
salb2salbLL, no function here (nor any helper they call) uses a list,
tuple, set or dict: they work with SALBnodes only, as the handout asks.
"""

from salboard import SALboard
from salbnode import SALBnode


def salb2salbLL(salb):
    """Return the first node of a circular linked list for the board salb."""
    nodes = [SALBnode() for _ in range(salb.numSquares)]
    for i in range(salb.numSquares):
        nodes[i].next = nodes[(i + 1) % salb.numSquares]
    for source, destination in salb.snadders.items():
        nodes[source - 1].snadder = nodes[destination - 1]
    return nodes[0]


def _last(first):
    """Return the last node of the ring that starts at first."""
    node = first
    while node.next is not first:
        node = node.next
    return node


def _size(first):
    """Return the number of squares of the board that starts at first."""
    count = 1
    node = first.next
    while node is not first:
        count += 1
        node = node.next
    return count


def _finish_time(first, stepsize):
    """Return the number of the first move ending on the last square.

    The start counts as move 1 (it is a move of stepsize from the last
    square). Returns 0 when the player never gets there. Before its first
    return to the last square the player visits distinct squares, so a
    player that has not finished within n moves never will.
    """
    n = _size(first)
    last = _last(first)
    steps = stepsize % n
    at = last
    move = 0
    while move < n:
        move += 1
        left = steps
        while left > 0:
            at = at.next
            left -= 1
        if at.snadder is not None:
            at = at.snadder
        if at is last:
            return move
    return 0


def willfinish(first, stepsize):
    """Return whether a player with this step size ever reaches the last square."""
    return _finish_time(first, stepsize) > 0


def whowins(first, step1, step2):
    """Return 1 or 2, the player who wins; player 2 also wins when nobody finishes."""
    time1 = _finish_time(first, step1)
    time2 = _finish_time(first, step2)
    if time1 > 0 and (time2 == 0 or time1 <= time2):
        return 1
    return 2


def dualboard(first):
    """Return the first node of a new list holding the dual board.

    Each original node temporarily links to its twin in the new list
    (original.next is the twin, twin.next the original's successor), which
    lets a snadder's destination find its twin without a dictionary. The
    original ring is restored before returning.
    """
    node = first
    while True:
        twin = SALBnode(node.next)
        node.next = twin
        node = twin.next
        if node is first:
            break

    node = first
    while True:
        twin = node.next
        if node.snadder is not None:
            node.snadder.next.snadder = twin
        node = twin.next
        if node is first:
            break

    new_first = first.next
    node = first
    while True:
        twin = node.next
        following = twin.next
        node.next = following
        if following is first:
            twin.next = new_first
        else:
            twin.next = following.next
        node = following
        if node is first:
            break
    return new_first
