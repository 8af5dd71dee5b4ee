"""The two-player game's adapter for salgrade's driver (issue 17).

A case is a scenario, not one call. Its input is

    {"size": 100, "jumps": [[4, 14], ...], "players": 2, "finish": "bounce",
     "calls": [{"call": "move", "args": [1, 6]}, {"call": "play", "args": [[3, 4], 10]}, ...]}

and the callable `find` returns runs all of it on the student's `Game`:
it builds `Game(size, dict(jumps), players, finish)`, makes each call with
fresh arguments, and after each call asks `position(p)` for every player and
then `winner()`. It never sees the expected answers; it records what
happened and returns the transcript (`reference/src/game/compare.rs` is its
specification):

    {"kind": "transcript",
     "construct": "ok" | {"raised": TYPE, "message": TEXT},
     "calls": [{"returns": PLAIN} | {"raised": TYPE, "message": TEXT}, ...],
     "after": [{"positions": [PLAIN, ...], "winner": PLAIN}
               | {"raised": TYPE, "message": TEXT, "query": "position(2)"}, ...]}

PLAIN is `values.plain(v)`, taken when the value is returned. A ValueError
(or a subclass, reported as ValueError with its class name leading the
message) is the rules' own error: the scenario goes on. Any other exception
from a call, or any exception from a query, is recorded and ends the
scenario (a call that ends it has no "after" entry). Exceptions that are not
`Exception`s (SystemExit, KeyboardInterrupt) and infinite loops are left to
the driver, which judges the whole case as it would a function.

Each case builds one game; the module is imported once per process, so
state a submission keeps at class or module level carries from one case to
the next, exactly as it would between two games in one program.
"""

from _salgrade_values import plain

FUNCTIONS = ("Game", "move", "play")


def find(module, unit):
    cls = getattr(module, "Game", None)
    if not isinstance(cls, type):
        return None
    if unit != "Game" and not callable(getattr(cls, unit, None)):
        return None

    def run(scenario):
        return transcript(cls, scenario)
    return run


def prepare(function, input):
    return [input], None


def changed(function, input, state):
    return None


def describe(function, input, result, state):
    # The transcript is built of plain values as the calls return them.
    return result


def raised(exc, **extra):
    try:
        message = str(exc)[:500]
    except Exception:
        message = "<unprintable>"
    name = type(exc).__name__
    if isinstance(exc, ValueError) and type(exc) is not ValueError:
        message = (name + ": " + message)[:500]
        name = "ValueError"
    out = {"raised": name, "message": message}
    out.update(extra)
    return out


def fresh_args(call):
    return [list(a) if isinstance(a, list) else a for a in call["args"]]


def transcript(cls, scenario):
    out = {"kind": "transcript", "construct": "ok", "calls": [], "after": []}
    jumps = {int(source): int(destination) for source, destination in scenario["jumps"]}
    try:
        game = cls(scenario["size"], jumps, scenario["players"], scenario["finish"])
    except Exception as exc:
        out["construct"] = raised(exc)
        return out
    players = scenario["players"]
    for call in scenario["calls"]:
        try:
            value = getattr(game, call["call"])(*fresh_args(call))
            out["calls"].append({"returns": plain(value)})
        except Exception as exc:
            out["calls"].append(raised(exc))
            if out["calls"][-1]["raised"] != "ValueError":
                return out
        query = None
        try:
            positions = []
            for p in range(1, players + 1):
                query = "position({})".format(p)
                positions.append(plain(game.position(p)))
            query = "winner()"
            winner = plain(game.winner())
        except Exception as exc:
            out["after"].append(raised(exc, query=query))
            return out
        out["after"].append({"positions": positions, "winner": winner})
    return out
