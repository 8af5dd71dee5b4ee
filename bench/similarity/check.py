#!/usr/bin/env python3
"""Checks that every file of the similarity benchmark answers as the model
does on random boards (so every copy behaves exactly like its original):

    python3 bench/similarity/check.py OUT [--boards 200]

Python files are imported; C++ files are compiled with g++ together with a
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
            kind = "mt" if name.startswith("min-throws") else "lc"
            cases = list(boards(kind, args.boards, random.Random(name)))
            for f in sorted(os.listdir(folder)):
                path = os.path.join(folder, f)
                try:
                    why = check_py(path, kind, cases) if f.endswith(".py") else check_cpp(path, kind, cases, tmp)
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
