//! Tests of the whole comparison: each normalisation makes a disguised
//! copy score as the plain copy (renamed only) did, within a cohort of
//! independent solutions of the same problem written in other styles.

use super::*;
use crate::similar::tree::Node;

/// Independent solutions of min-throws in Python, each in its own style.
const PY_COHORT: &[&str] = &[
    "from collections import deque\n\ndef get_min_dice_throws(move, n):\n    dist = [-1] * n\n    dist[0] = 0\n    q = deque([0])\n    while q:\n        c = q.popleft()\n        if c == n - 1:\n            return dist[c]\n        for k in range(1, 7):\n            x = c + k\n            if x >= n:\n                break\n            y = move[x] if move[x] != -1 else x\n            if dist[y] == -1:\n                dist[y] = dist[c] + 1\n                q.append(y)\n    return -1\n",
    "def get_min_dice_throws(move, n):\n    seen = {0}\n    level = [0]\n    throws = 0\n    while level:\n        if n - 1 in level:\n            return throws\n        nxt = []\n        for c in level:\n            for x in range(c + 1, min(c + 6, n - 1) + 1):\n                if move[x] >= 0:\n                    x = move[x]\n                if x not in seen:\n                    seen.add(x)\n                    nxt.append(x)\n        level = nxt\n        throws += 1\n    return -1\n",
    "def get_min_dice_throws(move, n):\n    best = [None] * n\n    best[0] = 0\n    changed = True\n    while changed:\n        changed = False\n        for c in range(n):\n            if best[c] is None:\n                continue\n            for k in range(1, 7):\n                if c + k < n:\n                    t = c + k\n                    if move[t] > -1:\n                        t = move[t]\n                    if best[t] is None or best[c] + 1 < best[t]:\n                        best[t] = best[c] + 1\n                        changed = True\n    return -1 if best[n - 1] is None else best[n - 1]\n",
    "import heapq\n\ndef get_min_dice_throws(move, n):\n    heap = [(0, 0)]\n    done = set()\n    while heap:\n        d, c = heapq.heappop(heap)\n        if c in done:\n            continue\n        done.add(c)\n        if c == n - 1:\n            return d\n        for k in range(1, 7):\n            if c + k <= n - 1:\n                t = move[c + k] if move[c + k] != -1 else c + k\n                heapq.heappush(heap, (d + 1, t))\n    return -1\n",
    "def get_min_dice_throws(move, n):\n    queue = [(0, 0)]\n    visited = [False] * n\n    visited[0] = True\n    while len(queue) > 0:\n        cell, d = queue.pop(0)\n        if cell == n - 1:\n            return d\n        j = cell + 1\n        while j <= cell + 6 and j < n:\n            dest = j if move[j] == -1 else move[j]\n            if not visited[dest]:\n                visited[dest] = True\n                queue.append((dest, d + 1))\n            j += 1\n    return -1\n",
    "class Board:\n    def __init__(self, move, n):\n        self.move = move\n        self.n = n\n\n    def land(self, x):\n        return self.move[x] if self.move[x] != -1 else x\n\n\ndef get_min_dice_throws(move, n):\n    b = Board(move, n)\n    frontier = [0]\n    dist = {0: 0}\n    i = 0\n    while i < len(frontier):\n        c = frontier[i]\n        i += 1\n        for k in range(6):\n            x = c + k + 1\n            if x < n:\n                y = b.land(x)\n                if y not in dist:\n                    dist[y] = dist[c] + 1\n                    frontier.append(y)\n    return dist.get(n - 1, -1)\n",
];

/// The original every copy below is made from.
const PY_ORIGINAL: &str = "from collections import deque\n\n\ndef get_min_dice_throws(move, n):\n    goal = n - 1\n    throws = [-1] * n\n    throws[0] = 0\n    frontier = deque([0])\n    while frontier:\n        cell = frontier.popleft()\n        if cell == goal:\n            return throws[cell]\n        for landed in range(cell + 1, min(cell + 6, goal) + 1):\n            stand = landed if move[landed] == -1 else move[landed]\n            if throws[stand] == -1:\n                throws[stand] = throws[cell] + 1\n                frontier.append(stand)\n            else:\n                continue\n    return -1\n";

/// The original, renamed, re-commented and re-laid out: the plain copy.
const PY_PLAIN: &str = "from collections import deque\n\ndef get_min_dice_throws(jumps, size):\n  # breadth first\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    if at == end:\n      return cost[at]  # found it\n    for to in range(at + 1, min(at + 6, end) + 1):\n      real = to if jumps[to] == -1 else jumps[to]\n      if cost[real] == -1:\n        cost[real] = cost[at] + 1\n        q.append(real)\n      else:\n        continue\n  return -1\n";

/// Disguises of the plain copy, one normalisation each: (what, text).
const PY_DISGUISED: &[(&str, &str)] = &[
    (
        "statements reordered",
        "from collections import deque\n\ndef get_min_dice_throws(jumps, size):\n  q = deque([0])\n  cost = [-1] * size\n  end = size - 1\n  cost[0] = 0\n  while q:\n    at = q.popleft()\n    if at == end:\n      return cost[at]\n    for to in range(at + 1, min(at + 6, end) + 1):\n      real = to if jumps[to] == -1 else jumps[to]\n      if cost[real] == -1:\n        cost[real] = cost[at] + 1\n        q.append(real)\n      else:\n        continue\n  return -1\n",
    ),
    (
        "for as while",
        "from collections import deque\n\ndef get_min_dice_throws(jumps, size):\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    if at == end:\n      return cost[at]\n    to = at + 1\n    while to <= min(at + 6, end):\n      real = to if jumps[to] == -1 else jumps[to]\n      if cost[real] == -1:\n        cost[real] = cost[at] + 1\n        q.append(real)\n      else:\n        to += 1\n        continue\n      to = to + 1\n  return -1\n",
    ),
    (
        "if/else swapped, test negated",
        "from collections import deque\n\ndef get_min_dice_throws(jumps, size):\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    if at == end:\n      return cost[at]\n    for to in range(at + 1, min(at + 6, end) + 1):\n      real = jumps[to] if jumps[to] != -1 else to\n      if cost[real] != -1:\n        continue\n      else:\n        cost[real] = cost[at] + 1\n        q.append(real)\n  return -1\n",
    ),
    (
        "comparisons flipped",
        "from collections import deque\n\ndef get_min_dice_throws(jumps, size):\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    if end == at:\n      return cost[at]\n    for to in range(at + 1, min(at + 6, end) + 1):\n      real = to if -1 == jumps[to] else jumps[to]\n      if -1 == cost[real]:\n        cost[real] = 1 + cost[at]\n        q.append(real)\n      else:\n        continue\n  return -1\n",
    ),
    (
        "dead code",
        "from collections import deque\n\ndef debug(*args):\n  print(*args)\n\ndef get_min_dice_throws(jumps, size):\n  unused = len(jumps) * 2\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  if False:\n    debug(cost)\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    if at == end:\n      return cost[at]\n      print('found')\n    for to in range(at + 1, min(at + 6, end) + 1):\n      real = to if jumps[to] == -1 else jumps[to]\n      if cost[real] == -1:\n        cost[real] = cost[at] + 1\n        q.append(real)\n      else:\n        continue\n  return -1\n",
    ),
    (
        "a function split out",
        "from collections import deque\n\ndef land(jumps, to):\n  return to if jumps[to] == -1 else jumps[to]\n\ndef expand(at, end, jumps, cost, q):\n  for to in range(at + 1, min(at + 6, end) + 1):\n    real = land(jumps, to)\n    if cost[real] == -1:\n      cost[real] = cost[at] + 1\n      q.append(real)\n    else:\n      continue\n\ndef get_min_dice_throws(jumps, size):\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    if at == end:\n      return cost[at]\n    expand(at, end, jumps, cost, q)\n  return -1\n",
    ),
    (
        "for as while, the counter stepped first and the bound shifted",
        "from collections import deque\n\ndef get_min_dice_throws(jumps, size):\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    if at == end:\n      return cost[at]\n    to = at\n    while to < min(at + 6, end):\n      to += 1\n      real = to if jumps[to] == -1 else jumps[to]\n      if cost[real] == -1:\n        cost[real] = cost[at] + 1\n        q.append(real)\n      else:\n        continue\n  return -1\n",
    ),
    (
        "for as while, the counter copied then stepped at the top",
        "from collections import deque\n\ndef get_min_dice_throws(jumps, size):\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    if at == end:\n      return cost[at]\n    k = at + 1\n    while k <= min(at + 6, end):\n      to = k\n      k += 1\n      real = to if jumps[to] == -1 else jumps[to]\n      if cost[real] == -1:\n        cost[real] = cost[at] + 1\n        q.append(real)\n      else:\n        continue\n  return -1\n",
    ),
    (
        "the search split out, its answer returned through a temporary",
        "from collections import deque\n\ndef search(jumps, size):\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    if at == end:\n      return cost[at]\n    for to in range(at + 1, min(at + 6, end) + 1):\n      real = to if jumps[to] == -1 else jumps[to]\n      if cost[real] == -1:\n        cost[real] = cost[at] + 1\n        q.append(real)\n      else:\n        continue\n  return -1\n\ndef get_min_dice_throws(jumps, size):\n  answer = search(jumps, size)\n  return answer\n",
    ),
    (
        "the current value held in a variable",
        "from collections import deque\n\ndef get_min_dice_throws(jumps, size):\n  end = size - 1\n  cost = [-1] * size\n  cost[0] = 0\n  q = deque([0])\n  while q:\n    at = q.popleft()\n    here = cost[at]\n    if at == end:\n      return here\n    for to in range(at + 1, min(at + 6, end) + 1):\n      real = to if jumps[to] == -1 else jumps[to]\n      if cost[real] == -1:\n        cost[real] = here + 1\n        q.append(real)\n      else:\n        continue\n  return -1\n",
    ),
    (
        "a wrapping class",
        "import collections\n\nclass Searcher:\n  def __init__(self, jumps, size):\n    self.jumps = jumps\n    self.size = size\n\n  def run(self):\n    end = self.size - 1\n    cost = [-1] * self.size\n    cost[0] = 0\n    q = collections.deque([0])\n    while q:\n      at = q.popleft()\n      if at == end:\n        return cost[at]\n      for to in range(at + 1, min(at + 6, end) + 1):\n        real = to if self.jumps[to] == -1 else self.jumps[to]\n        if cost[real] == -1:\n          cost[real] = cost[at] + 1\n          q.append(real)\n        else:\n          continue\n    return -1\n\ndef get_min_dice_throws(jumps, size):\n  return Searcher(jumps, size).run()\n",
    ),
];

/// Independent C++ solutions of min-throws.
const CPP_COHORT: &[&str] = &[
    "#include <queue>\n#include <vector>\nint get_min_dice_throws(int move[], int n) {\n    std::vector<int> dist(n, -1);\n    std::queue<int> q;\n    dist[0] = 0;\n    q.push(0);\n    while (!q.empty()) {\n        int c = q.front(); q.pop();\n        if (c == n - 1) return dist[c];\n        for (int k = 1; k <= 6 && c + k < n; ++k) {\n            int y = move[c + k] == -1 ? c + k : move[c + k];\n            if (dist[y] == -1) { dist[y] = dist[c] + 1; q.push(y); }\n        }\n    }\n    return -1;\n}\n",
    "#include <vector>\nusing namespace std;\nint get_min_dice_throws(int move[], int n) {\n    vector<int> level{0};\n    vector<bool> seen(n, false);\n    seen[0] = true;\n    int t = 0;\n    while (!level.empty()) {\n        vector<int> next;\n        for (int c : level) {\n            if (c == n - 1) return t;\n            for (int x = c + 1; x <= c + 6 && x < n; x++) {\n                int y = x;\n                if (move[x] >= 0) y = move[x];\n                if (!seen[y]) { seen[y] = true; next.push_back(y); }\n            }\n        }\n        level = next;\n        t++;\n    }\n    return -1;\n}\n",
    "#include <climits>\n#include <vector>\nint get_min_dice_throws(int move[], int n) {\n    std::vector<int> best(n, INT_MAX);\n    best[0] = 0;\n    bool again = true;\n    while (again) {\n        again = false;\n        for (int c = 0; c < n; c++) {\n            if (best[c] == INT_MAX) continue;\n            for (int k = 1; k <= 6; k++) {\n                if (c + k >= n) break;\n                int t = move[c + k] > -1 ? move[c + k] : c + k;\n                if (best[c] + 1 < best[t]) { best[t] = best[c] + 1; again = true; }\n            }\n        }\n    }\n    return best[n - 1] == INT_MAX ? -1 : best[n - 1];\n}\n",
    "#include <deque>\n#include <utility>\nint get_min_dice_throws(int move[], int n) {\n    std::deque<std::pair<int, int>> dq;\n    bool vis[1000] = {false};\n    dq.push_back({0, 0});\n    vis[0] = true;\n    while (dq.size() > 0) {\n        auto [c, d] = dq.front();\n        dq.pop_front();\n        if (c == n - 1) return d;\n        for (int j = c + 1; j <= c + 6; j++) {\n            if (j >= n) continue;\n            int dest = move[j] != -1 ? move[j] : j;\n            if (!vis[dest]) { vis[dest] = true; dq.push_back({dest, d + 1}); }\n        }\n    }\n    return -1;\n}\n",
];

const CPP_ORIGINAL: &str = "#include <queue>\n#include <vector>\n\nint get_min_dice_throws(int move[], int n) {\n    std::vector<int> dist(n, -1);\n    std::queue<int> frontier;\n    dist[0] = 0;\n    frontier.push(0);\n    while (!frontier.empty()) {\n        int cell = frontier.front();\n        frontier.pop();\n        if (cell == n - 1) return dist[cell];\n        for (int k = 1; k <= 6; ++k) {\n            int landed = cell + k;\n            if (landed > n - 1) break;\n            int next = move[landed] == -1 ? landed : move[landed];\n            if (dist[next] == -1) {\n                dist[next] = dist[cell] + 1;\n                frontier.push(next);\n            }\n        }\n    }\n    return -1;\n}\n";

const CPP_PLAIN: &str = "#include <queue>\n#include <vector>\n// my solution\nint get_min_dice_throws(int jumps[], int size)\n{\n  std::vector<int> d(size, -1);\n  std::queue<int> q;\n  d[0] = 0;\n  q.push(0);\n  while (!q.empty())\n  {\n    int at = q.front();\n    q.pop();\n    if (at == size - 1) return d[at];\n    for (int r = 1; r <= 6; r++)\n    {\n      int to = at + r;\n      if (to > size - 1) break;\n      int real = jumps[to] == -1 ? to : jumps[to];\n      if (d[real] == -1)\n      {\n        d[real] = d[at] + 1;\n        q.push(real);\n      }\n    }\n  }\n  return -1;\n}\n";

const CPP_DISGUISED: &[(&str, &str)] = &[
    (
        "std:: dropped and a typedef",
        "#include <queue>\n#include <vector>\nusing namespace std;\ntypedef vector<int> vi;\nint get_min_dice_throws(int jumps[], int size)\n{\n  vi d(size, -1);\n  queue<int> q;\n  d[0] = 0;\n  q.push(0);\n  while (!q.empty())\n  {\n    int at = q.front();\n    q.pop();\n    if (at == size - 1) return d[at];\n    for (int r = 1; r <= 6; r++)\n    {\n      int to = at + r;\n      if (to > size - 1) break;\n      int real = jumps[to] == -1 ? to : jumps[to];\n      if (d[real] == -1)\n      {\n        d[real] = d[at] + 1;\n        q.push(real);\n      }\n    }\n  }\n  return -1;\n}\n",
    ),
    (
        "a using alias and a #define",
        "#include <queue>\n#include <vector>\nusing row = std::vector<int>;\n#define NONE -1\nint get_min_dice_throws(int jumps[], int size)\n{\n  row d(size, NONE);\n  std::queue<int> q;\n  d[0] = 0;\n  q.push(0);\n  while (!q.empty())\n  {\n    int at = q.front();\n    q.pop();\n    if (at == size - 1) return d[at];\n    for (int r = 1; r <= 6; r++)\n    {\n      int to = at + r;\n      if (to > size - 1) break;\n      int real = jumps[to] == NONE ? to : jumps[to];\n      if (d[real] == NONE)\n      {\n        d[real] = d[at] + 1;\n        q.push(real);\n      }\n    }\n  }\n  return NONE;\n}\n",
    ),
    (
        "for as while, comparisons flipped",
        "#include <queue>\n#include <vector>\nint get_min_dice_throws(int jumps[], int size)\n{\n  std::vector<int> d(size, -1);\n  std::queue<int> q;\n  d[0] = 0;\n  q.push(0);\n  while (!q.empty())\n  {\n    int at = q.front();\n    q.pop();\n    if (size - 1 == at) return d[at];\n    int r = 1;\n    while (6 >= r)\n    {\n      int to = at + r;\n      if (size - 1 < to) break;\n      int real = -1 == jumps[to] ? to : jumps[to];\n      if (-1 == d[real])\n      {\n        d[real] = d[at] + 1;\n        q.push(real);\n      }\n      ++r;\n    }\n  }\n  return -1;\n}\n",
    ),
    (
        "for as while, the counter stepped first and the bound shifted",
        "#include <queue>\n#include <vector>\nint get_min_dice_throws(int jumps[], int size)\n{\n  std::vector<int> d(size, -1);\n  std::queue<int> q;\n  d[0] = 0;\n  q.push(0);\n  while (!q.empty())\n  {\n    int at = q.front();\n    q.pop();\n    if (at == size - 1) return d[at];\n    int r = 0;\n    while (r < 6)\n    {\n      r++;\n      int to = at + r;\n      if (to > size - 1) break;\n      int real = jumps[to] == -1 ? to : jumps[to];\n      if (d[real] == -1)\n      {\n        d[real] = d[at] + 1;\n        q.push(real);\n      }\n    }\n  }\n  return -1;\n}\n",
    ),
    (
        "dead code, a wrapping struct and a split function",
        "#include <queue>\n#include <vector>\nstatic int calls = 0;\nvoid trace(int x) { if (x < 0) return; }\nint land(int jumps[], int to) { return jumps[to] == -1 ? to : jumps[to]; }\nstruct Solver {\n  int solve(int jumps[], int size)\n  {\n    int spare = 0;\n    if (false) { spare++; }\n    std::vector<int> d(size, -1);\n    std::queue<int> q;\n    d[0] = 0;\n    q.push(0);\n    while (!q.empty())\n    {\n      int at = q.front();\n      q.pop();\n      if (at == size - 1) return d[at];\n      for (int r = 1; r <= 6; r++)\n      {\n        int to = at + r;\n        if (to > size - 1) break;\n        int real = land(jumps, to);\n        if (d[real] == -1)\n        {\n          d[real] = d[at] + 1;\n          q.push(real);\n        }\n      }\n    }\n    return -1;\n    spare = 2;\n  }\n};\nint get_min_dice_throws(int jumps[], int size)\n{\n  Solver s;\n  return s.solve(jumps, size);\n}\n",
    ),
];

fn source(owner: &str, language: Language, text: &str) -> Source {
    let ext = if language == Language::Python {
        "py"
    } else {
        "cpp"
    };
    Source {
        owner: owner.to_owned(),
        archive: false,
        shown: format!("{owner}.{ext}"),
        language,
        text: text.to_owned(),
    }
}

fn course() -> Course {
    Course {
        entry_points: vec!["get_min_dice_throws".to_owned(), "main".to_owned()],
        starter: vec![],
    }
}

/// The score of `original` with `copy` in a cohort of `others`.
fn score_in_cohort(language: Language, others: &[&str], original: &str, copy: &str) -> f64 {
    let mut sources: Vec<Source> = others
        .iter()
        .enumerate()
        .map(|(i, t)| source(&format!("other{i}"), language, t))
        .collect();
    sources.push(source("original", language, original));
    sources.push(source("copy", language, copy));
    let a = analyse(sources, &course(), 2);
    a.findings
        .iter()
        .find(|f| {
            let names = [a.owner_name(f.a), a.owner_name(f.b)];
            names.contains(&"original") && names.contains(&"copy")
        })
        .map_or(0.0, |f| f.score)
}

/// The best score of `original` with any of `others`.
fn best_other(language: Language, others: &[&str], original: &str) -> f64 {
    let mut sources: Vec<Source> = others
        .iter()
        .enumerate()
        .map(|(i, t)| source(&format!("other{i}"), language, t))
        .collect();
    sources.push(source("original", language, original));
    let a = analyse(sources, &course(), 2);
    a.findings
        .iter()
        .filter(|f| [a.owner_name(f.a), a.owner_name(f.b)].contains(&"original"))
        .map(|f| f.score)
        .fold(0.0, f64::max)
}

#[track_caller]
fn assert_each_disguise_scores_as_the_plain_copy(
    language: Language,
    cohort: &[&str],
    original: &str,
    plain: &str,
    disguised: &[(&str, &str)],
) {
    let plain_score = score_in_cohort(language, cohort, original, plain);
    assert!(plain_score > 0.95, "the plain copy scores {plain_score}");
    let independent = best_other(language, cohort, original);
    let mut failed = Vec::new();
    for (what, text) in disguised {
        let score = score_in_cohort(language, cohort, original, text);
        // As the plain copy, and above every independent solution.
        if score < plain_score - 0.1 || score <= independent + 0.05 {
            failed.push(format!("{what}: {score:.3}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{failed:?}; the plain copy {plain_score:.3}, the best independent {independent:.3}"
    );
}

#[test]
fn each_python_disguise_scores_as_the_plain_copy() {
    assert_each_disguise_scores_as_the_plain_copy(
        Language::Python,
        PY_COHORT,
        PY_ORIGINAL,
        PY_PLAIN,
        PY_DISGUISED,
    );
}

#[test]
fn each_cpp_disguise_scores_as_the_plain_copy() {
    assert_each_disguise_scores_as_the_plain_copy(
        Language::Cpp,
        CPP_COHORT,
        CPP_ORIGINAL,
        CPP_PLAIN,
        CPP_DISGUISED,
    );
}

#[test]
fn the_starter_code_counts_for_nothing() {
    let starter = "def parse_board(text):\n    rows = []\n    for line in text.split(\"\\n\"):\n        cells = [int(c) for c in line.split()]\n        if cells:\n            rows.append(cells)\n        else:\n            rows.append([-1])\n    return rows\n";
    let a = format!(
        "{starter}\ndef solve(x):\n    b = parse_board(x)\n    c = parse_board(x + x)\n    return len(b) + len(c)\n"
    );
    let b = format!(
        "{starter}\ndef solve(y):\n    first = parse_board(y)\n    second = parse_board(y * 2)\n    return [first] * 3 + [second]\n"
    );
    let sources = vec![
        source("a", Language::Python, &a),
        source("b", Language::Python, &b),
    ];
    let with_starter = Course {
        entry_points: vec!["solve".to_owned()],
        starter: vec![(Language::Python, starter.to_owned())],
    };
    let without = Course {
        entry_points: vec!["solve".to_owned()],
        starter: vec![],
    };
    let score = |c: &Course| {
        analyse(sources.clone(), c, 1)
            .findings
            .first()
            .map_or(0.0, |f| f.score)
    };
    assert!(score(&without) > 0.5, "{}", score(&without));
    assert!(score(&with_starter) < 0.2, "{}", score(&with_starter));
}

#[test]
fn drafts_of_one_student_are_never_a_pair_and_archive_files_never_meet() {
    let mut sources = vec![
        source("ann", Language::Python, PY_ORIGINAL),
        source("ann", Language::Python, PY_PLAIN),
        source("bob", Language::Python, PY_COHORT[1]),
    ];
    for i in 0..2 {
        sources.push(Source {
            owner: format!("public/copy{i}.py"),
            archive: true,
            shown: format!("public/copy{i}.py"),
            language: Language::Python,
            text: PY_COHORT[0].to_owned(),
        });
    }
    let a = analyse(sources, &course(), 1);
    for f in &a.findings {
        assert_ne!(a.documents[f.a].owner, a.documents[f.b].owner);
        assert!(!(a.documents[f.a].source.archive && a.documents[f.b].source.archive));
        assert!(!a.documents[f.a].source.archive, "the student comes first");
    }
}

#[test]
fn two_different_files_alone_are_not_a_copy() {
    let a = analyse(
        vec![
            source("a", Language::Python, PY_ORIGINAL),
            source("b", Language::Python, PY_COHORT[1]),
        ],
        &course(),
        1,
    );
    let score = a.findings.first().map_or(0.0, |f| f.score);
    assert!(score < 0.5, "{score}");
    let same = analyse(
        vec![
            source("a", Language::Python, PY_ORIGINAL),
            source("b", Language::Python, PY_PLAIN),
        ],
        &course(),
        1,
    );
    assert!(same.findings[0].score > 0.99, "{}", same.findings[0].score);
}

#[test]
fn a_file_that_does_not_parse_is_compared_on_what_does() {
    let broken = format!("{PY_PLAIN}\ndef oops(:\n    return )\n");
    let a = analyse(
        vec![
            source("a", Language::Python, PY_ORIGINAL),
            source("b", Language::Python, &broken),
        ],
        &course(),
        1,
    );
    let b = a.documents.iter().find(|d| d.source.owner == "b").unwrap();
    assert!(b.errors > 0);
    assert!(a.findings[0].score > 0.8, "{}", a.findings[0].score);
}

#[test]
fn fragments_are_lines_of_both_files() {
    let a = analyse(
        vec![
            source("a", Language::Python, PY_ORIGINAL),
            source("b", Language::Python, PY_PLAIN),
            source("c", Language::Python, PY_COHORT[1]),
            source("d", Language::Python, PY_COHORT[2]),
        ],
        &course(),
        1,
    );
    let f = &a.findings[0];
    let longest = a.longest(f.a, f.b).expect("a shared fragment");
    assert!(longest.lines() >= 5, "{longest:?}");
    let (da, db) = (&a.documents[f.a], &a.documents[f.b]);
    assert!(longest.a.1 <= da.source.text.lines().count());
    assert!(longest.b.1 <= db.source.text.lines().count());
}

/// The tree as indented text, for reading a normalisation's result.
fn dump(n: &Node, depth: usize, out: &mut String) {
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "{}{:?} {:x}",
        "  ".repeat(depth),
        n.kind,
        n.label & 0xffff
    );
    for c in &n.children {
        dump(c, depth + 1, out);
    }
}

/// `SIMILAR_DUMP=a.cpp cargo test --lib similar::tests::dump_a_file -- --ignored --nocapture`
#[test]
#[ignore = "a debugging aid: prints the normalised tree of $SIMILAR_DUMP"]
fn dump_a_file() {
    let path = std::env::var("SIMILAR_DUMP").unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lang = Language::of_file(&path).unwrap();
    let mut t = tree::parse(&text, lang).unwrap();
    let entry: HashSet<u64> = ["get_min_dice_throws", "snakesAndLadders", "main"]
        .iter()
        .map(|s| text_hash(s.as_bytes()))
        .collect();
    normalize::normalize(&mut t, &entry);
    let mut out = String::new();
    dump(&t.root, 0, &mut out);
    println!("{out}");
}
