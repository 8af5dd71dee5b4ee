"""Model solution for LeetCode 909, Snakes and Ladders.

Breadth-first search over the squares the player can stand on. A roll lands
on `nxt`; if that square holds a snake or ladder the move ends at its
destination (one hop, never two). Each square is enqueued at most once, so
the search is O(n^2) for an n x n board.
"""

from collections import deque
from typing import List


class Solution:
    def snakesAndLadders(self, board: List[List[int]]) -> int:
        n = len(board)
        last = n * n

        def value(label: int) -> int:
            # Rows are counted from the bottom; odd rows run right to left.
            row, col = divmod(label - 1, n)
            if row % 2 == 1:
                col = n - 1 - col
            return board[n - 1 - row][col]

        moves = [-1] * (last + 1)
        moves[1] = 0
        queue = deque([1])
        while queue:
            curr = queue.popleft()
            if curr == last:
                return moves[curr]
            for nxt in range(curr + 1, min(curr + 6, last) + 1):
                jump = value(nxt)
                stand = nxt if jump == -1 else jump
                if moves[stand] == -1:
                    moves[stand] = moves[curr] + 1
                    queue.append(stand)
        return -1
