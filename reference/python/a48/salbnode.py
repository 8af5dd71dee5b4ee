"""The node of the linked list representation of a snakes and ladders board.

Written for salgrade from the assignment's description; students code
against exactly this interface.
"""


class SALBnode:
    """One square of a board held as a circular singly linked list.

    ``next`` is the following square (the last square links back to the
    first). ``snadder`` is the node this square's snake or ladder leads to,
    or ``None`` when the square is not the source of one.
    """

    def __init__(self, next=None, snadder=None):
        self.next = next
        self.snadder = snadder
