"""salgrade's driver: runs a student's module inside the sandbox.

It names no assignment. Its command line is

    python -I -S _salgrade_driver.py IN_FD OUT_FD STUDENT_FILE ADAPTER_MODULE MODE [LINT]

MODE is `fork` or `single`. With `single` this one process answers every
call, one after the other. With `fork` the process is a zygote: it imports
the student's module once and, when the first call arrives, forks ONE worker
from that post-import state, which reads and answers call after call on the
request channel exactly as `single` does (state a call leaves reaches the
next call, as in one program). The zygote does nothing while its worker
lives: it waits for the worker's end. When the worker ends (it died, or
salgrade killed it at a deadline) the zygote says so (`ended`) and reads
and drops every request until `resume`, which salgrade sends once it has
killed whatever the worker left running; what follows `resume` is answered
by a new worker forked from the same pristine state: a restart without a
new Python, a new import or a new cgroup migration. salgrade uses `fork`
only where the session has a cgroup of its own (the clock of a whole
process tree's CPU time).

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
# A zygote whose import left more resident than this answers the calls
# itself: its worker could copy all of it, which the student's memory
# limit would count twice.
MAX_ZYGOTE_BYTES = 64 * 1024 * 1024
RESUME = b'{"type":"resume"'
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
    def __init__(self, in_fd, out_fd, early=b""):
        """`early`: bytes of the request channel already read (by a zygote),
        which come before what is still to be read."""
        self.reader = os.fdopen(in_fd, "rb", buffering=1 << 16, closefd=False)
        self.in_fd = in_fd
        self.out_fd = out_fd
        self.early = early

    def receive(self):
        line, self.early = self.early, b""
        if b"\n" in line:
            line, self.early = line.split(b"\n", 1)
        else:
            line += self.reader.readline(max(1, MAX_LINE - len(line)))
        if not line:
            return None
        return json.loads(line)

    def send(self, message):
        # A lone surrogate (a student's str can hold one) is not UTF-8 and
        # not JSON: it goes as "?", so the answer is judged, not the process.
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        data = (text + "\n").encode("utf-8", "replace")
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


def open_fds():
    """The descriptors open now, each with the file it names (device and
    inode: a descriptor number closed and opened again names another file),
    or None when /proc cannot say."""
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return None
    fds = {}
    for name in names:
        try:
            st = os.fstat(int(name))
            fds[name] = (st.st_dev, st.st_ino)
        except (OSError, ValueError):
            fds[name] = None
    return fds


def forkable(fds_before):
    """Whether a worker forked now would be what a fresh process that
    imported the file again is: None, or why not. A fork leaves threads
    behind, shares open files' offsets with the zygote, and may copy what
    the import made (the worker's memory would count it twice)."""
    try:
        if len(os.listdir("/proc/self/task")) != 1:
            return "threads"
    except OSError:
        import threading
        if threading.active_count() != 1:
            return "threads"
    if fds_before is None or open_fds() != fds_before:
        return "open files"
    try:
        with open("/proc/self/statm") as f:
            resident = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return "memory unknown"
    if resident > MAX_ZYGOTE_BYTES:
        return "memory"
    return None


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


def serve(channel, adapter, module, run_call, take_fingerprint, baseline, tampered):
    """Answers calls one after the other until the channel closes: the whole
    life of a `single` driver, and of a zygote's worker."""
    while True:
        request = channel.receive()
        if request is None:
            return
        if request.get("type") != "call":
            continue
        outcome, cpu, changed = run_call(adapter, module, request)
        if take_fingerprint() != baseline:
            outcome, changed = dict(tampered), None
        channel.send({"type": "result", "case": request["case"], "outcome": outcome,
                      "cpu_ms": cpu, "input_changed": changed})


def start_worker(channel, early, serve_calls, student_sigchld):
    """Forks a worker that answers the calls in `early` and then those it
    reads itself from the request channel: its pid, or None and why no
    worker could start. The worker gets back the student's SIGCHLD setting,
    which the zygote changed for itself."""
    import signal
    pid, why = fork_patiently()
    if pid is None:
        return None, why
    if pid == 0:
        code = 70
        try:
            if student_sigchld is not None:
                signal.signal(signal.SIGCHLD, student_sigchld)
            serve_calls(Channel(channel.in_fd, channel.out_fd, early))
            flush_student_streams()
            code = 0
        finally:
            os._exit(code)
    return pid, None


def wait_for_end(pid):
    """(code, signal) once the worker `pid` has ended."""
    while True:
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            return None, None
        if os.WIFSIGNALED(status):
            return None, os.WTERMSIG(status)
        if os.WIFEXITED(status):
            return os.WEXITSTATUS(status), None


def zygote(channel, serve_calls, spawn, wait):
    """The zygote's loop (see the module doc): a worker for the requests
    read, the worker's end said, and every request dropped until `resume`."""
    import signal
    student_sigchld = signal.getsignal(signal.SIGCHLD)
    pending, dropping = b"", False
    while True:
        while dropping and b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            dropping = not line.startswith(RESUME)
        if pending and not dropping:
            # The student's import may have changed how children are
            # reaped (SIGCHLD ignored reaps them unasked, and waitpid
            # could not say how the worker ended).
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            pid, why = spawn(channel, pending, serve_calls, student_sigchld)
            pending, dropping = b"", True
            code, sig = (None, None) if pid is None else wait(pid)
            channel.send({"type": "ended", "code": code, "signal": sig, "note": why})
            continue
        if len(pending) > MAX_LINE:
            return
        data = os.read(channel.in_fd, 1 << 16)
        if not data:
            return
        pending += data


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
    answer_calls, spawn, wait_end, loop = serve, start_worker, wait_for_end, zygote
    can_fork, fds_before = forkable, (open_fds() if forking else None)
    import resource
    baseline = take_fingerprint()
    if forking:
        import gc
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
    if forking and can_fork(fds_before) is not None:
        # A worker forked now would differ from a fresh process (see
        # `forkable`): this process answers the calls itself, as in `single`
        # mode, with the student's process limit (salgrade gave a zygote one
        # more).
        forking = False
        soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
        if 1 < soft != resource.RLIM_INFINITY:
            resource.setrlimit(resource.RLIMIT_NPROC, (soft - 1, hard))
    if forking:
        # Everything made so far stays where it is: a collection in a worker
        # would otherwise write to (and so copy) every page holding it.
        gc.freeze()
    channel.send({"type": "ready", "protocol": PROTOCOL,
                  "runtime": "Python " + sys.version.split()[0], "functions": functions,
                  "forking": forking})

    def serve_calls(worker_channel):
        answer_calls(worker_channel, adapter, module, run_call, take_fingerprint, baseline,
                     tampered)

    if forking:
        loop(channel, serve_calls, spawn, wait_end)
    else:
        serve_calls(channel)


if __name__ == "__main__":
    main()
