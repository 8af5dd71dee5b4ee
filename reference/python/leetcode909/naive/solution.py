"""The slowest acceptable LeetCode 909 solution: the shape students write.

salgrade's deadlines come from this file, not from the model. A breadth-first
search with a plain list as its queue (`pop(0)` shifts the whole list), a
visited list searched with `in`, and every label turned into a cell by
walking the rows. Nothing here is wrong; it is only slow.
"""


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)
        last = n * n

        def cell(label):
            count = 0
            for r in range(n - 1, -1, -1):
                row_from_bottom = n - 1 - r
                cols = range(n) if row_from_bottom % 2 == 0 else range(n - 1, -1, -1)
                for c in cols:
                    count += 1
                    if count == label:
                        return board[r][c]
            return -1

        queue = [(1, 0)]
        visited = [1]
        while len(queue) > 0:
            square, moves = queue.pop(0)
            if square == last:
                return moves
            for nxt in range(square + 1, min(square + 6, last) + 1):
                jump = cell(nxt)
                stand = nxt if jump == -1 else jump
                if stand not in visited:
                    visited.append(stand)
                    queue.append((stand, moves + 1))
        return -1
