"""The slowest acceptable salbLLfunctions.py: the shape students write.

salgrade's deadlines come from this file, not from the model: every case's
CPU deadline is a multiple of what this solution needs. It walks the ring
one node per step (a step of s is s single moves, never s mod n), counts
the board again at every call, and finds each snadder's twin in the new
ring by walking to it. Nothing here is wrong; it is only slow. Apart from
salb2salbLL it uses no list, tuple, set or dict, as the handout asks.
"""

from salbnode import SALBnode


def salb2salbLL(salb):
    """Return the first node of a circular linked list for the board salb."""
    first = SALBnode()
    last = first
    for _ in range(salb.numSquares - 1):
        last.next = SALBnode()
        last = last.next
    last.next = first
    for source in salb.snadders:
        destination = salb.snadders[source]
        node = first
        for _ in range(source - 1):
            node = node.next
        target = first
        for _ in range(destination - 1):
            target = target.next
        node.snadder = target
    return first


def count_squares(first):
    count = 1
    node = first.next
    while node is not first:
        count += 1
        node = node.next
    return count


def last_square(first):
    node = first
    while node.next is not first:
        node = node.next
    return node


def finish_time(first, stepsize):
    n = count_squares(first)
    last = last_square(first)
    at = last
    move = 0
    while move < n:
        move = move + 1
        for _ in range(stepsize):
            at = at.next
        if at.snadder is not None:
            at = at.snadder
        if at is last:
            return move
    return 0


def willfinish(first, stepsize):
    return finish_time(first, stepsize) > 0


def whowins(first, step1, step2):
    time1 = finish_time(first, step1)
    time2 = finish_time(first, step2)
    if time1 > 0 and (time2 == 0 or time1 <= time2):
        return 1
    return 2


def position(first, node):
    """The number of node's square, counting from 1 at first."""
    count = 1
    at = first
    while at is not node:
        at = at.next
        count += 1
    return count


def dualboard(first):
    new_first = SALBnode()
    new_last = new_first
    node = first.next
    while node is not first:
        new_last.next = SALBnode()
        new_last = new_last.next
        node = node.next
    new_last.next = new_first
    node = first
    twin = new_first
    while True:
        if node.snadder is not None:
            # The reversed snadder goes from the destination's twin back to
            # this square's twin: walk the new ring to the destination's twin.
            target = new_first
            for _ in range(position(first, node.snadder) - 1):
                target = target.next
            target.snadder = twin
        node = node.next
        twin = twin.next
        if node is first:
            break
    return new_first
