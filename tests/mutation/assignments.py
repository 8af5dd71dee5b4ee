"""How the mutation harness asks each assignment's cases, in Python and in
C++, and what it accepts as the answer: the same inputs and the same
checks as salgrade's adapters and judges (`src/assignment/*/adapter.py`),
reduced to one canonical string per answer so that a mutant's answer and
the reference's compare as strings.

A case is a salgrade case (`id`, `function`, `input`, `expected`), read
from a case file: `salgrade gen`'s for the default case set, the test's own
for the small boards.
"""

import sys


def plain(value):
    """An answer as a canonical string; the type is part of it, so `True`
    is not `1` and `4.0` is not `4`."""
    kind = type(value)
    if kind is bool:
        return "bool:" + str(value)
    if kind is int:
        return "int:" + str(value)
    return "type:" + kind.__name__


class LeetCode909:
    name = "leetcode909"
    python_file = "solution.py"
    cpp_file = "solution.cpp"
    cpp_prelude = "#include <bits/stdc++.h>\nusing namespace std;\n"

    def expected(self, case):
        return "int:{}".format(case["expected"]["answer"])

    def python_call(self, namespace):
        solution = namespace["Solution"]

        def run(case):
            board = [list(row) for row in case["input"]["board"]]
            return plain(solution().snakesAndLadders(board))

        return run

    def cpp_line(self, case):
        board = case["input"]["board"]
        return " ".join(str(v) for v in [len(board)] + [v for row in board for v in row])

    def cpp_entry(self, space):
        return (
            "static int entry_{s}(std::vector<std::vector<int>>& board) {{\n"
            "    {s}::Solution solution;\n"
            "    return solution.snakesAndLadders(board);\n"
            "}}\n"
        ).format(s=space)


class MinThrows:
    name = "min-throws"
    python_file = "min_throws.py"
    cpp_file = "min_throws.cpp"
    cpp_prelude = "#include <bits/stdc++.h>\nusing namespace std;\n"

    def expected(self, case):
        return "int:{}".format(case["expected"]["answer"])

    def python_call(self, namespace):
        function = namespace.get("get_min_dice_throws") or namespace["getMinDiceThrows"]

        def run(case):
            move = list(case["input"]["move"])
            return plain(function(move, len(move)))

        return run

    def cpp_line(self, case):
        move = case["input"]["move"]
        return " ".join(str(v) for v in [len(move)] + move)

    def cpp_entry(self, space):
        return "static int entry_{s}(int* move, int n) {{ return {s}::get_min_dice_throws(move, n); }}\n".format(
            s=space
        )


class A48:
    """Built as `src/assignment/a48/adapter.py` builds them: a fresh
    circular list of `SALBnode`s (or a `SALboard` for `salb2salbLL`) for
    each call, compared after the call with a snapshot."""

    name = "a48"
    python_file = "salbLLfunctions.py"
    cpp_file = None

    def __init__(self, course_folder):
        sys.path.insert(0, course_folder)
        from salbnode import SALBnode
        from salboard import SALboard

        self.SALBnode, self.SALboard = SALBnode, SALboard

    def expected(self, case):
        expected = case["expected"]
        if "board" in expected:
            board = expected["board"]
            pairs = sorted((s - 1, d - 1) for s, d in board.get("snadders", []))
            return "list:{}:{}".format(board["squares"], pairs)
        return " or ".join(sorted(plain(v) for v in expected["one_of"]))

    def _build(self, squares, pairs):
        nodes = [self.SALBnode() for _ in range(squares)]
        for node, following in zip(nodes, nodes[1:]):
            node.next = following
        nodes[-1].next = nodes[0]
        for source, destination in pairs:
            nodes[source - 1].snadder = nodes[destination - 1]
        return nodes

    def _describe_list(self, head, squares, input_ids):
        if not (hasattr(head, "next") and hasattr(head, "snadder")):
            return plain(head)
        order, index, node = [], {}, head
        while True:
            if node is None or type(node) is not self.SALBnode:
                return "list:open"
            if id(node) in index:
                if index[id(node)] != 0:
                    return "list:loops-back"
                break
            if len(order) > squares:
                return "list:too-long"
            index[id(node)] = len(order)
            order.append(node)
            node = node.next
        if input_ids.intersection(index):
            return "list:shares-input"
        pairs = []
        for i, node in enumerate(order):
            if node.snadder is None:
                continue
            j = index.get(id(node.snadder))
            if j is None:
                return "list:snadder-outside"
            pairs.append((i, j))
        return "list:{}:{}".format(len(order), sorted(pairs))

    def python_call(self, namespace):
        def run(case):
            function = namespace[case["function"]]
            board = case["input"]["board"]
            squares, pairs = board["squares"], [tuple(p) for p in board.get("snadders", [])]
            args = list(case["input"].get("args", []))
            if case["function"] == "salb2salbLL":
                salb = self.SALboard(squares, dict(pairs))
                result = function(salb, *args)
                if type(salb) is not self.SALboard or salb.numSquares != squares or salb.snadders != dict(pairs):
                    return "changed-input"
                return self._describe_list(result, squares, set())
            nodes = self._build(squares, pairs)
            before = [(n.next, n.snadder) for n in nodes]
            result = function(nodes[0], *args)
            if any(n.next is not b[0] or n.snadder is not b[1] for n, b in zip(nodes, before)):
                return "changed-input"
            if case["function"] == "dualboard":
                return self._describe_list(result, squares, {id(n) for n in nodes})
            return plain(result)

        return run


class Game:
    """Plays a scenario as `src/assignment/game/adapter.py` does: a
    `ValueError` (in C++ `std::invalid_argument`) is the rules' error and the
    scenario goes on; any other exception ends it. The transcript is
    `construct;call|positions|winner;...`."""

    name = "game"
    python_file = "snakes_game.py"
    cpp_file = "snakes_game.cpp"
    cpp_prelude = "#include <bits/stdc++.h>\nusing namespace std;\n"

    def expected(self, case):
        expected = case["expected"]
        if expected["construct"] != "ok":
            return "construct:ValueError"
        parts = ["construct:ok"]
        for outcome, state in zip(expected["calls"], expected["after"]):
            call = "R{}".format(outcome["returns"]) if "returns" in outcome else "V"
            positions = ",".join(str(p) for p in state["positions"])
            parts.append("{}|{}|{}".format(call, positions, state["winner"]))
        return ";".join(parts)

    def python_call(self, namespace):
        cls = namespace["Game"]

        def number(value):
            return str(value) if type(value) is int else plain(value)

        def run(case):
            s = case["input"]
            jumps = {int(a): int(b) for a, b in s["jumps"]}
            try:
                game = cls(s["size"], jumps, s["players"], s["finish"])
            except ValueError:
                return "construct:ValueError"
            parts = ["construct:ok"]
            for call in s["calls"]:
                args = [list(a) if isinstance(a, list) else a for a in call["args"]]
                try:
                    outcome = "R" + number(getattr(game, call["call"])(*args))
                except ValueError:
                    outcome = "V"
                positions = ",".join(number(game.position(p)) for p in range(1, s["players"] + 1))
                parts.append("{}|{}|{}".format(outcome, positions, number(game.winner())))
            return ";".join(parts)

        return run

    def cpp_line(self, case):
        s = case["input"]
        tokens = [s["size"], len(s["jumps"])]
        for a, b in s["jumps"]:
            tokens += [a, b]
        tokens += [s["players"], s["finish"] or "-", len(s["calls"])]
        for call in s["calls"]:
            name, args = call["call"], call["args"]
            if name == "move":
                tokens += ["M", args[0], args[1]]
            elif name == "position":
                tokens += ["Q", args[0]]
            elif name == "winner":
                tokens += ["W"]
            else:
                rolls = args[0]
                tokens += ["P", len(rolls)] + list(rolls) + [args[1] if len(args) > 1 else "-"]
        return " ".join(str(t) for t in tokens)

    def cpp_entry(self, space):
        # On one line: the harness blames a compiler error by its line.
        return (
            "static const GameOps ops_{s}{{"
            "[](int a, const std::map<int, int>& j, int p, const std::string& f) -> void* {{"
            " std::map<int, int> jumps = j; std::string finish = f; return new {s}::Game(a, jumps, p, finish); }}, "
            "[](void* g, int p, int r) {{ return static_cast<{s}::Game*>(g)->move(p, r); }}, "
            "[](void* g, int p) {{ return static_cast<{s}::Game*>(g)->position(p); }}, "
            "[](void* g) {{ return static_cast<{s}::Game*>(g)->winner(); }}, "
            "[](void* g, const std::vector<int>& r, int m, bool capped) {{ std::vector<int> rolls = r;"
            " auto* game = static_cast<{s}::Game*>(g); return capped ? game->play(rolls, m) : game->play(rolls); }}, "
            "[](void* g) {{ delete static_cast<{s}::Game*>(g); }}}}; "
            "static std::string entry_{s}(const Scenario& scenario) {{ return transcript(ops_{s}, scenario); }}\n"
        ).format(s=space)


def by_name(name, reference):
    if name == "leetcode909":
        return LeetCode909()
    if name == "min-throws":
        return MinThrows()
    if name == "a48":
        return A48(reference + "/python/a48")
    if name == "game":
        return Game()
    raise SystemExit("unknown assignment " + name)
