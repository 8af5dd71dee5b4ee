#!/usr/bin/env python3
"""Checks that every file of the similarity benchmark answers as the model
does on random boards (so every copy behaves exactly like its original):

    python3 bench/similarity/check.py OUT [--boards 200]

Python files are imported (a48's with the course's `salboard.py` and
`salbnode.py` from reference/python/a48, and compared with the model
solution there: `salb2salbLL`'s ring, `willfinish` for every step size up to
2n + 1, `whowins`, and `dualboard`'s ring with its input left as it was);
C++ files are compiled with g++ together with a
small driver. Prints one line per wrong file and exits 1 if there is any.
"""

import argparse
import collections
import importlib.util
import os
import random
import subprocess
import sys
import tempfile


def min_throws(move, n):
    dist = [-1] * n
    dist[0] = 0
    q = collections.deque([0])
    while q:
        c = q.popleft()
        for k in range(1, 7):
            x = c + k
            if x > n - 1:
                break
            y = x if move[x] == -1 else move[x]
            if dist[y] == -1:
                dist[y] = dist[c] + 1
                q.append(y)
    return dist[n - 1]


def flatten(board):
    n = len(board)
    out = [-1]
    for r in range(n):
        row = board[n - 1 - r]
        out += row if r % 2 == 0 else row[::-1]
    return out


def leetcode(board):
    cells = flatten(board)
    n2 = len(cells) - 1
    return _lc(cells, n2)


def _lc(cells, last):
    dist = [-1] * (last + 1)
    dist[1] = 0
    q = collections.deque([1])
    while q:
        c = q.popleft()
        for x in range(c + 1, min(c + 6, last) + 1):
            y = x if cells[x] == -1 else cells[x]
            if dist[y] == -1:
                dist[y] = dist[c] + 1
                q.append(y)
    return dist[last]


A48_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "reference", "python", "a48")


def a48_board(rng):
    """A valid a48 board: (numSquares, snadders)."""
    n = rng.randint(1, 30)
    snadders = {}
    used_src, used_dst = set(), set()
    for _ in range(rng.randint(0, n // 2)):
        a, b = rng.randint(1, n), rng.randint(1, n)
        if a == b or n in (a, b) or a in used_src or b in used_dst:
            continue
        snadders[a] = b
        used_src.add(a)
        used_dst.add(b)
    return n, snadders


def ring(first, n):
    """The ring from `first` as each square's snadder index (or None); None
    if it is not a ring of `n` nodes."""
    nodes = []
    node = first
    for _ in range(n):
        if node is None or any(node is x for x in nodes):
            return None
        nodes.append(node)
        node = node.next
    if node is not first:
        return None
    index = {id(x): i for i, x in enumerate(nodes)}
    return [None if x.snadder is None else index.get(id(x.snadder), "outside") for x in nodes]


def check_a48(path, count, rng):
    if A48_DIR not in sys.path:
        sys.path.insert(0, A48_DIR)
    from salboard import SALboard

    def load(p, name):
        spec = importlib.util.spec_from_file_location(name, p)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    model = load(os.path.join(A48_DIR, "salbLLfunctions.py"), "a48_model")
    sol = load(path, "a48_sol")
    for _ in range(count):
        n, snadders = a48_board(rng)
        board = SALboard(n, dict(snadders))
        want_ring = ring(model.salb2salbLL(board), n)
        got = sol.salb2salbLL(board)
        if ring(got, n) != want_ring:
            return f"salb2salbLL({board}) is not the board's ring"
        first = model.salb2salbLL(board)
        before = ring(first, n)
        for s in range(1, 2 * n + 2):
            w, g = model.willfinish(first, s), sol.willfinish(first, s)
            if w is not g:
                return f"willfinish({board}, {s}): got {g!r}, want {w!r}"
        for _ in range(5):
            s1, s2 = rng.randint(1, 2 * n), rng.randint(1, 2 * n)
            w, g = model.whowins(first, s1, s2), sol.whowins(first, s1, s2)
            if w != g:
                return f"whowins({board}, {s1}, {s2}): got {g!r}, want {w!r}"
        dual = sol.dualboard(first)
        if ring(dual, n) != ring(model.dualboard(first), n):
            return f"dualboard({board}) is not the dual"
        if ring(first, n) != before:
            return f"dualboard({board}) changed its input"
    return None


def boards(kind, count, rng):
    for _ in range(count):
        if kind == "mt":
            n = rng.randint(2, 40)
            move = [-1] * n
            for _ in range(rng.randint(0, n // 3)):
                a, b = rng.randrange(1, n - 1 or 1), rng.randrange(0, n)
                if 0 < a < n - 1 and a != b:
                    move[a] = b
            yield (move, n)
        else:
            n = rng.randint(2, 7)
            board = [[-1] * n for _ in range(n)]
            for _ in range(rng.randint(0, n)):
                r, c = rng.randrange(n), rng.randrange(n)
                board[r][c] = rng.randint(2, n * n)
            board[n - 1][0] = -1
            yield (board,)


CPP_DRIVER = {
    "mt": """
#include <cstdio>
int main() {
    int n;
    while (scanf("%d", &n) == 1) {
        int move[64];
        for (int i = 0; i < n; i++) scanf("%d", &move[i]);
        printf("%d\\n", get_min_dice_throws(move, n));
    }
}
""",
    "lc": """
#include <cstdio>
int main() {
    int n;
    while (scanf("%d", &n) == 1) {
        std::vector<std::vector<int>> b(n, std::vector<int>(n));
        for (auto& row : b) for (auto& x : row) scanf("%d", &x);
        Solution s;
        printf("%d\\n", s.snakesAndLadders(b));
    }
}
""",
}


def check_py(path, kind, cases):
    spec = importlib.util.spec_from_file_location("sol", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for case in cases:
        want = min_throws(*case) if kind == "mt" else leetcode(*case)
        got = mod.get_min_dice_throws(*case) if kind == "mt" else mod.Solution().snakesAndLadders(*case)
        if got != want:
            return f"{case}: got {got}, want {want}"
    return None


def check_cpp(path, kind, cases, tmp):
    src = os.path.join(tmp, "t.cpp")
    with open(path) as f:
        text = f.read()
    with open(src, "w") as f:
        f.write("#include <bits/stdc++.h>\nusing namespace std;\n" if kind == "lc" else "#include <vector>\n")
        f.write(text)
        f.write(CPP_DRIVER[kind])
    exe = os.path.join(tmp, "t")
    r = subprocess.run(["g++", "-O1", "-o", exe, src], capture_output=True, text=True)
    if r.returncode != 0:
        return "does not build: " + r.stderr[:400]
    lines = []
    wants = []
    for case in cases:
        if kind == "mt":
            move, n = case
            lines.append(f"{n} " + " ".join(map(str, move)))
            wants.append(min_throws(move, n))
        else:
            (b,) = case
            lines.append(f"{len(b)} " + " ".join(str(x) for row in b for x in row))
            wants.append(leetcode(b))
    r = subprocess.run([exe], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    got = [int(x) for x in r.stdout.split()]
    if got != wants:
        bad = next(i for i in range(len(wants)) if i >= len(got) or got[i] != wants[i])
        return f"{lines[bad]}: got {got[bad] if bad < len(got) else None}, want {wants[bad]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--boards", type=int, default=200)
    args = ap.parse_args()
    wrong = 0
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(args.out)):
            folder = os.path.join(args.out, name)
            if not os.path.isdir(folder):
                continue
            kind = "mt" if name.startswith("min-throws") else "a48" if name.startswith("a48") else "lc"
            cases = list(boards(kind, args.boards, random.Random(name))) if kind != "a48" else []
            for f in sorted(os.listdir(folder)):
                path = os.path.join(folder, f)
                try:
                    if kind == "a48":
                        why = check_a48(path, args.boards, random.Random(name + f))
                    elif f.endswith(".py"):
                        why = check_py(path, kind, cases)
                    else:
                        why = check_cpp(path, kind, cases, tmp)
                except Exception as e:  # noqa: BLE001 - any failure is a wrong file
                    why = f"raises {type(e).__name__}: {e}"
                checked += 1
                if why:
                    wrong += 1
                    print(f"{name}/{f}: {why}")
    print(f"{checked} files checked, {wrong} wrong")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
