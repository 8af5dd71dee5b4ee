"""The slowest acceptable min-throws solution: the shape students write.

salgrade's deadlines come from this file, not from the model. A breadth-first
search with a plain list as its queue: `pop(0)` shifts the whole list, so
the search is quadratic in the cells in the worst case. Nothing here is
wrong; it is only slow.
"""


def get_min_dice_throws(move, n):
    visited = [False] * n
    queue = [[0, 0]]
    visited[0] = True
    while len(queue) > 0:
        entry = queue.pop(0)
        cell = entry[0]
        dist = entry[1]
        if cell == n - 1:
            return dist
        j = cell + 1
        while j <= cell + 6 and j < n:
            if move[j] != -1:
                stand = move[j]
            else:
                stand = j
            if not visited[stand]:
                visited[stand] = True
                queue.append([stand, dist + 1])
            j += 1
    return -1
