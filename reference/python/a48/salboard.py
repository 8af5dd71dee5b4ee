"""The dictionary representation of a snakes and ladders board.

Written for salgrade from the assignment's description; students code
against exactly this interface.
"""


class SALboard:
    """A board of ``numSquares`` squares numbered 1..numSquares.

    ``snadders`` maps the source square of each snake or ladder to its
    destination square, e.g. ``{23: 71}`` for a ladder from 23 to 71.
    """

    def __init__(self, numSquares, snadders):
        self.numSquares = numSquares
        self.snadders = snadders

    def __eq__(self, other):
        if not isinstance(other, SALboard):
            return NotImplemented
        return self.numSquares == other.numSquares and self.snadders == other.snadders

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None

    def __repr__(self):
        return "SALboard({!r}, {!r})".format(self.numSquares, self.snadders)
