"""Model solution for minimum dice throws (seed 000).

`move` is a list of n cells; move[i] is -1 or the cell a snake or ladder on
cell i leads to. Start on cell 0, finish on cell n - 1; a throw never goes
past the last cell, and a snake or ladder is taken once per throw (never
chained). Breadth-first search over the cells the player can stand on: each
cell is enqueued at most once, so this is O(n).
"""

from collections import deque


def get_min_dice_throws(move, n):
    last = n - 1
    throws = [-1] * n
    throws[0] = 0
    queue = deque([0])
    while queue:
        cell = queue.popleft()
        if cell == last:
            return throws[cell]
        for landed in range(cell + 1, min(cell + 6, last) + 1):
            stand = landed if move[landed] == -1 else move[landed]
            if throws[stand] == -1:
                throws[stand] = throws[cell] + 1
                queue.append(stand)
    return -1
