"""salgrade's driver: runs a student's module inside the sandbox.

It names no assignment. Its command line is

    python -I -S _salgrade_driver.py IN_FD OUT_FD STUDENT_FILE ADAPTER_MODULE MODE [LINT]

MODE is `fork` or `single`. With `fork` the process is a zygote: it imports
the student's module once, and runs each call in a child forked from that
post-import state, so whatever a call changes (a module global, a class
attribute, the random generator) is gone before the next call; the child
answers and exits, and the zygote says how it ended (`ended`). After a
child that did not exit with code 0 (it died, or salgrade killed it at its
deadline) the zygote holds the calls it reads until `resume`: salgrade first
kills whatever that child left running. With `single` every call runs in
this one process, one after the other (salgrade uses it where it has no
cgroup to measure a whole process tree's CPU time with).

With LINT (a lint request as JSON), it first checks the student's file
against the container rule with the checker beside it (`_salgrade_lint.py`)
and sends the answer, before any student code runs: one process start per
student instead of two. It imports the assignment's adapter, then the
student's module, then answers requests one at a time. The wire format (JSON lines on two private file
descriptors, never stdin or stdout) is specified in `src/runner/protocol.rs`.

The adapter is a module beside this one that knows the assignment:

    FUNCTIONS                     the names graded, in report order
    before_import()               optional: set up what the student may assume
    find(module, function)        a callable to run, or None when missing
    prepare(function, input)      (args, state): fresh arguments from the case input
    describe(function, input, result, state)
                                  a JSON-safe description of the returned value
    changed(function, input, state)
                                  None, or how the call changed its input

The driver owns what every assignment shares: private descriptors, the
import, exceptions (the student's failure is data, even SystemExit), CPU
time, flushing the student's output. It reports raw facts; it never sees the
expected answers.
"""

import json
import os
import sys
import time

PROTOCOL = 2
MAX_LINE = 64 * 1024 * 1024
STUDENT_FILE = "?"


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
    import traceback  # only when something was raised: it costs a start-up
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if os.path.basename(f.filename) == STUDENT_FILE]
    lines = ["line {}, in {}: {}".format(f.lineno, f.name, (f.line or "").strip()) for f in frames[-6:]]
    line = frames[-1].lineno if frames else None
    return line, "\n".join(lines)


def describe_exception(exc):
    line, tb = short_traceback(exc)
    try:
        message = str(exc)[:500]
    except BaseException:
        message = "<unprintable>"
    out = {"type": type(exc).__name__, "message": message, "line": line, "traceback": tb}
    if isinstance(exc, SyntaxError):
        out["line"] = exc.lineno if isinstance(exc.lineno, int) else None
        out["message"] = str(exc.msg)[:500]
        out["text"] = (exc.text or "").rstrip()[:200]
    return out


def raised(exc):
    outcome = describe_exception(exc)
    outcome["kind"] = "raised"
    return outcome


def call(adapter, module, request):
    name = request["function"]
    fn = adapter.find(module, name)
    if fn is None:
        return {"kind": "missing"}, None, None
    args, state = adapter.prepare(name, request["input"])
    start = time.process_time()
    try:
        result = fn(*args)
    except BaseException as exc:  # the student's failure is data, even SystemExit
        return raised(exc), None, None
    finally:
        cpu = round((time.process_time() - start) * 1000.0, 3)
        flush_student_streams()
    # Describing the value runs student code too (a __eq__, a property), so
    # its failures are the student's as well.
    try:
        changed = adapter.changed(name, request["input"], state)
        answer = adapter.describe(name, request["input"], result, state)
        return {"kind": "returned", "answer": answer}, cpu, changed
    except BaseException as exc:
        return raised(exc), cpu, None


def fingerprint():
    """What the checks that run in this interpreter are made of: every
    global of the driver and of salgrade's own modules (the adapter, the
    values module), and each function's code, defaults and globals. A
    student's code that patches them (through `sys.modules`, `__code__`)
    changes it; the driver compares it after every call. Detection, not
    prevention: code that runs here can always lie to code that runs here."""
    out = []
    for name, module in list(sys.modules.items()):
        if not (name == "__main__" or name.startswith("_salgrade")):
            continue
        for key, value in list(vars(module).items()):
            out.append((name, key, id(value), id(getattr(value, "__code__", None)),
                        id(getattr(value, "__defaults__", None)),
                        id(getattr(value, "__globals__", None))))
    return out


TAMPERED = {"kind": "raised", "type": "TamperingError",
            "message": "salgrade's checks were changed while your function ran "
                       "(through sys.modules or a function's code); the answer cannot be trusted",
            "line": None, "traceback": ""}


def flush_student_streams():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass


def wait_for(pid):
    """How a case's child ended, as (code, signal), from the kernel."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return None, None
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    return os.WEXITSTATUS(status), None


def become_subreaper():
    """Makes the processes a case leaves behind (a child that outlives its
    parent, a double fork) come back to this process rather than to the
    sandbox's init, so that `clear_leftovers` finds them; the path of the
    file that lists them, or None where that is not possible."""
    try:
        import ctypes
        pr_set_child_subreaper = 36
        if ctypes.CDLL(None, use_errno=True).prctl(pr_set_child_subreaper, 1, 0, 0, 0) != 0:
            return None
    except BaseException:
        return None
    return "/proc/self/task/{0}/children".format(os.getpid())


def children_now(children):
    """The PIDs the listing `children` names, or None when it cannot be read."""
    try:
        with open(children, "rb") as listing:
            return [int(p) for p in listing.read().split()]
    except (OSError, ValueError):
        return None


def clear_leftovers(children, spared):
    """Kills and reaps every child still here once a case's child has
    exited, but those the import left (`spared`): what a case left running
    belongs to that case, and the next case starts without it, as it starts
    without the case's memory."""
    for _ in range(1000):
        pids = [p for p in children_now(children) or [] if p not in spared]
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        for pid in pids:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def fork_patiently():
    """(pid, None) for a new child, or (None, why) when none could start.
    The slot's task limit refuses a fork while a killed case's processes
    are still being reaped, so a refusal is retried for up to 3 s."""
    pause, waited = 0.005, 0.0
    while True:
        try:
            return os.fork(), None
        except BlockingIOError as exc:
            if waited >= 3.0:
                return None, "could not start a new process: " + str(exc)[:200]
            time.sleep(pause)
            waited += pause
            pause = min(pause * 2, 0.2)
        except OSError as exc:
            return None, "could not start a new process: " + str(exc)[:200]


def main():
    global STUDENT_FILE
    in_fd, out_fd = take_private_fds(int(sys.argv[1]), int(sys.argv[2]))
    STUDENT_FILE = sys.argv[3]
    forking = sys.argv[5] == "fork"
    channel = Channel(in_fd, out_fd)
    sys.path.insert(0, os.getcwd())
    sys.setrecursionlimit(1000)
    if len(sys.argv) > 6:
        import _salgrade_lint
        channel.send(_salgrade_lint.check(json.loads(sys.argv[6])))
        del sys.modules["_salgrade_lint"]
    import importlib
    adapter = importlib.import_module(sys.argv[4])
    # Held in this frame's locals, which student code cannot rebind: the
    # loop keeps using the functions as they were before the student's
    # module was imported, and compares against what they were then.
    run_call, take_fingerprint, tampered = call, fingerprint, dict(TAMPERED)
    fork, wait, clear = fork_patiently, wait_for, clear_leftovers
    baseline = take_fingerprint()
    # Before any student code runs, so that a module the student's import
    # planted is not what makes this process a subreaper.
    children = become_subreaper() if forking else None
    if forking:
        import gc
        import signal
    try:
        hook = getattr(adapter, "before_import", None)
        if hook is not None:
            hook()
        module = importlib.import_module(os.path.splitext(STUDENT_FILE)[0])
    except BaseException as exc:
        flush_student_streams()
        channel.send({"type": "import_failed", "error": describe_exception(exc)})
        return
    flush_student_streams()
    functions = {}
    for name in adapter.FUNCTIONS:
        try:
            functions[name] = adapter.find(module, name) is not None
        except BaseException:
            functions[name] = False
    if forking:
        spared = set(children_now(children) or []) if children is not None else set()
        # Everything made so far stays where it is: a collection in a child
        # would otherwise write to (and so copy) every page holding it.
        gc.freeze()
    channel.send({"type": "ready", "protocol": PROTOCOL,
                  "runtime": "Python " + sys.version.split()[0], "functions": functions})
    held, waiting = False, []
    while True:
        if waiting and not held:
            request = waiting.pop(0)
        else:
            request = channel.receive()
            if request is None:
                return
            kind = request.get("type")
            if kind == "resume":
                held = False
                continue
            if kind != "call":
                continue
            if held:
                waiting.append(request)
                continue
        if not forking:
            outcome, cpu, changed = run_call(adapter, module, request)
            if take_fingerprint() != baseline:
                outcome, changed = dict(tampered), None
            channel.send({"type": "result", "case": request["case"], "outcome": outcome,
                          "cpu_ms": cpu, "input_changed": changed})
            continue
        # The student may have changed how children are reaped (SIGCHLD
        # ignored reaps them unasked, and waitpid could not say how one ended).
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        pid, why = fork()
        if pid == 0:
            code = 70
            try:
                me = os.getpid()
                outcome, cpu, changed = run_call(adapter, module, request)
                if os.getpid() != me:
                    # A process the student forked came back here: it must
                    # not answer for the case.
                    code = 0
                else:
                    if take_fingerprint() != baseline:
                        outcome, changed = dict(tampered), None
                    channel.send({"type": "result", "case": request["case"],
                                  "outcome": outcome, "cpu_ms": cpu,
                                  "input_changed": changed})
                    code = 0
            finally:
                os._exit(code)
        code, signum = (None, None) if pid is None else wait(pid)
        if children is not None:
            clear(children, spared)
        held = code != 0
        channel.send({"type": "ended", "case": request["case"], "code": code,
                      "signal": signum, "note": why, "held": held})


if __name__ == "__main__":
    main()
