"""salgrade's driver: runs a student's module inside the sandbox.

It imports the student's module once, then answers requests one at a time.
The protocol travels on two private file descriptors handed over by the
runner (never stdin/stdout), one JSON object per line:

    runner -> driver   {"type": "call", "case": ID, "function": NAME, "board": {...}, "args": [...]}
    driver -> runner   {"type": "ready", "python": "3.11.7", "functions": {NAME: bool, ...}}
                       {"type": "import_failed", "error": ERROR}
                       {"type": "result", "case": ID, "cpu_ms": F, "outcome": OUTCOME,
                        "input_changed": null | TEXT}

OUTCOME is {"kind": "value", "type": T, "value": V}, {"kind": "list", ...},
{"kind": "raised", ...} or {"kind": "missing"}. The driver reports raw facts
only; it never sees the expected answers, the runner judges.
"""

import json
import os
import sys
import time
import traceback

STUDENT_FILE = "salbLLfunctions.py"
FUNCTIONS = ("salb2salbLL", "willfinish", "whowins", "dualboard")
MAX_LINE = 64 * 1024 * 1024


def take_private_fds(in_fd, out_fd):
    """Move the protocol fds out of the way so student code cannot write to 3 or 4 by guess."""
    high_in = os.dup(in_fd)
    high_out = os.dup(out_fd)
    import fcntl
    import resource
    # Near the top of the allowed range, so `os.write(3, ...)` or `os.write(4, ...)`
    # from student code hits nothing.
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY or soft > 1024:
        soft = 1024
    base = max(10, soft - 12 + (os.getpid() % 8))
    moved_in = fcntl.fcntl(high_in, fcntl.F_DUPFD_CLOEXEC, base)
    moved_out = fcntl.fcntl(high_out, fcntl.F_DUPFD_CLOEXEC, base + 1)
    for fd in (in_fd, out_fd, high_in, high_out):
        os.close(fd)
    return moved_in, moved_out


class Channel:
    def __init__(self, in_fd, out_fd):
        self.reader = os.fdopen(in_fd, "rb", buffering=1 << 16)
        self.out_fd = out_fd

    def receive(self):
        line = self.reader.readline(MAX_LINE)
        if not line:
            return None
        return json.loads(line)

    def send(self, message):
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        view = memoryview(data)
        while view:
            written = os.write(self.out_fd, view)
            view = view[written:]


def short_traceback(exc):
    """The frames of the student's own file, most recent last, at most 6."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(STUDENT_FILE)]
    lines = ["line {}, in {}: {}".format(f.lineno, f.name, (f.line or "").strip()) for f in frames[-6:]]
    line = frames[-1].lineno if frames else None
    return line, "\n".join(lines)


def describe_exception(exc):
    line, tb = short_traceback(exc)
    out = {"type": type(exc).__name__, "message": str(exc)[:500], "line": line, "traceback": tb}
    if isinstance(exc, SyntaxError):
        out["line"] = exc.lineno
        out["message"] = exc.msg
        out["text"] = (exc.text or "").rstrip()[:200]
    return out


def build_list(squares, snadders):
    from salbnode import SALBnode
    nodes = [SALBnode() for _ in range(squares)]
    for i in range(squares):
        nodes[i].next = nodes[(i + 1) % squares]
    for source, destination in snadders:
        nodes[source - 1].snadder = nodes[destination - 1]
    return nodes


def snapshot(nodes):
    return [(id(n.next), id(n.snadder)) for n in nodes]


def plain(value):
    """A JSON-safe description of a returned value, keeping its Python type."""
    kind = type(value).__name__
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, str):
            value = value[:200]
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2 ** 53:
            value = repr(value)[:200]
        return {"kind": "value", "type": kind, "value": value}
    try:
        text = repr(value)[:200]
    except BaseException:
        text = "<unprintable>"
    return {"kind": "value", "type": kind, "value": None, "repr": text}


def is_node(obj):
    return hasattr(obj, "next") and hasattr(obj, "snadder")


def describe_list(head, squares, input_ids):
    """Walk a returned list at most squares+1 nodes and report its shape."""
    if not is_node(head):
        return plain(head)
    order = []
    index = {}
    node = head
    while True:
        if node is None:
            end = {"kind": "open"}
            break
        if not is_node(node):
            end = {"kind": "not_a_node", "type": type(node).__name__}
            break
        seen = index.get(id(node))
        if seen is not None:
            end = {"kind": "circular"} if seen == 0 else {"kind": "loops_back", "to": seen}
            break
        if len(order) > squares:
            end = {"kind": "too_long"}
            break
        index[id(node)] = len(order)
        order.append(node)
        node = node.next
    links = []
    outside = []
    for i, n in enumerate(order):
        target = n.snadder
        if target is None:
            continue
        j = index.get(id(target))
        if j is not None:
            links.append([i, j])
        elif id(target) in input_ids:
            outside.append([i, "input"])
        elif not is_node(target):
            outside.append([i, "not_a_node"])
        else:
            outside.append([i, "other"])
    shared = sum(1 for n in order if id(n) in input_ids)
    return {"kind": "list", "length": len(order), "end": end, "snadders": links,
            "outside": outside, "shares_input": shared}


def call(module, request):
    from salboard import SALboard
    name = request["function"]
    fn = getattr(module, name, None)
    if not callable(fn):
        return {"kind": "missing"}, None
    board = request["board"]
    squares = board["squares"]
    pairs = board.get("snadders", [])
    args = request.get("args", [])
    keep = None
    if name == "salb2salbLL":
        snadders = {s: d for s, d in pairs}
        argument = SALboard(squares, snadders)
        before = (squares, dict(snadders))
        input_ids = set()
    else:
        keep = build_list(squares, pairs)
        argument = keep[0]
        before = snapshot(keep)
        input_ids = set(id(n) for n in keep)
    start = time.process_time()
    try:
        result = fn(argument, *args)
    except BaseException as exc:  # the student's failure is data, even SystemExit
        outcome = describe_exception(exc)
        outcome["kind"] = "raised"
        return outcome, None
    finally:
        cpu = (time.process_time() - start) * 1000.0
        flush_student_streams()
    changed = None
    try:
        if name == "salb2salbLL":
            if not (argument.numSquares == before[0] and argument.snadders == before[1]):
                changed = "the SALboard passed in was modified"
        elif snapshot(keep) != before:
            changed = input_change(keep, before)
        if name in ("salb2salbLL", "dualboard"):
            outcome = describe_list(result, squares, input_ids)
        else:
            outcome = plain(result)
    except BaseException as exc:
        outcome = describe_exception(exc)
        outcome["kind"] = "raised"
    outcome["cpu_ms"] = round(cpu, 3)
    return outcome, changed


def input_change(nodes, before):
    after = snapshot(nodes)
    for i, (old, new) in enumerate(zip(before, after)):
        if old[0] != new[0]:
            return "square {}'s next link was changed".format(i + 1)
        if old[1] != new[1]:
            return "square {}'s snadder was changed".format(i + 1)
    return "the input list was changed"


def flush_student_streams():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass


def main():
    in_fd, out_fd = int(sys.argv[1]), int(sys.argv[2])
    in_fd, out_fd = take_private_fds(in_fd, out_fd)
    channel = Channel(in_fd, out_fd)
    sys.path.insert(0, os.getcwd())
    sys.setrecursionlimit(1000)
    try:
        import importlib
        module = importlib.import_module(STUDENT_FILE[:-3])
    except BaseException as exc:
        flush_student_streams()
        channel.send({"type": "import_failed", "error": describe_exception(exc)})
        return
    flush_student_streams()
    functions = {name: callable(getattr(module, name, None)) for name in FUNCTIONS}
    channel.send({"type": "ready", "python": sys.version.split()[0], "functions": functions})
    while True:
        request = channel.receive()
        if request is None:
            return
        if request.get("type") != "call":
            continue
        outcome, changed = call(module, request)
        channel.send({"type": "result", "case": request["case"], "outcome": outcome,
                      "input_changed": changed})


if __name__ == "__main__":
    main()
