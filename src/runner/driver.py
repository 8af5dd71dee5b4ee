"""salgrade's driver: runs a student's module inside the sandbox.

It names no assignment. Its command line is

    python -I -S _salgrade_driver.py IN_FD OUT_FD STUDENT_FILE ADAPTER_MODULE MODE [LINT]

MODE is `fork` or `single`. With `single` this one process answers every
call, one after the other. With `fork` the process is a zygote: it imports
the student's module once and says `ready`; then, at each `resume` from
salgrade, it forks ONE worker from that post-import state. The worker first
copies every page it shares with the zygote (so that no copy-on-write fault
is charged to a case's CPU clock), says `forked`, and then reads and answers
call after call on the request channel exactly as `single` does (state a
call leaves reaches the next call, as in one program). The zygote does
nothing while its worker lives: it waits for the worker's end. When the
worker ends (it died, or salgrade killed it at a deadline) the zygote says
so (`ended`) and reads and drops every request until `resume`, which
salgrade sends once it has killed whatever the worker left running. Before
it forks again, the zygote compares the places a student can write (the
session folder, /tmp, /dev/shm) with what they were after the import: if
anything differs it says `spent` and exits, and salgrade starts a new
process, which finds them fresh. A restart is thus a fork, without a new
Python, a new import or a new cgroup migration, whenever the fork is what a
new process would be. salgrade uses `fork` only where the session has a
cgroup of its own (the clock of a whole process tree's CPU time).

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
# More entries than this in the places a student can write, and a fork is
# declined: comparing them before each fork would cost more than a start.
MAX_PLACE_ENTRIES = 2000
WRITABLE_PLACES = ("/tmp", "/dev/shm")
MADV_POPULATE_WRITE = 23  # Linux 5.14
CHUNK_PAGES = 1 << 13
RECURSION_PROBE = 200
# ioprio_get's system call number, per machine.
IOPRIO_GET = {"x86_64": 252, "aarch64": 31}
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


def statm_bytes(field):
    """A field of /proc/self/statm in bytes (0: the address space, what
    RLIMIT_AS limits; 1: what is resident), or None when /proc cannot say."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[field]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def mapped_files():
    """The (low, high) ranges of this process's mappings of files (shared
    libraries, for RLIMIT_AS): not its heap, stack or anonymous memory,
    which a student's allocations can reuse."""
    ranges = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                fields = line.split()
                if len(fields) > 5 and fields[5].startswith("/"):
                    ranges.add(tuple(int(x, 16) for x in fields[0].split("-")))
    except (OSError, ValueError):
        pass
    return ranges


def private_writable_mappings():
    """(low, high, name) of each private writable mapping of this process,
    and whether it has a shared writable one: from /proc/self/maps."""
    mappings, shared = [], False
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 2 or fields[1][1] != "w":
                continue
            if fields[1][3] == "s":
                shared = True
                continue
            low, high = (int(x, 16) for x in fields[0].split("-"))
            mappings.append((low, high, fields[5] if len(fields) > 5 else ""))
    return mappings, shared


def anonymous_bytes():
    """This process's anonymous resident memory (what the memory cgroup
    counts as its own), or 0 when /proc cannot say."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


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


def forkable(fds_before, kit, state, untouched):
    """Whether a worker forked now would be what a fresh process that
    imported the file again is: None, or why not. Checked once, after the
    import. A fork keeps only the calling thread and no interval timer;
    it shares open files' offsets, shared mappings and the processes the
    import started with the zygote; and the worker copies what the import
    made (its memory would count it twice: hence a size limit). Student
    code that would run in the zygote itself (a fork handler, an audit
    hook, a profiler, a collector callback, a replaced function the zygote
    calls, a changed global of the driver) could change the state every
    worker starts from."""
    try:
        if len(os.listdir("/proc/self/task")) != 1:
            return "threads"
    except OSError:
        return "threads unknown"
    if fds_before is None or open_fds() != fds_before:
        return "open files"
    if kit.hooked or kit.patched() or not untouched():
        return "code that runs in the zygote"
    gc, signal = kit.modules["gc"], kit.modules["_signal"]
    if sys.getprofile() is not None or sys.gettrace() is not None or gc.callbacks:
        return "code that runs in the zygote"
    for timer in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF):
        if signal.getitimer(timer) != (0.0, 0.0):
            return "a timer"
    if children_of_mine():
        return "processes left running"
    if kit.madvise is None:
        return "no pre-copy of the pages"
    resident = statm_bytes(1)
    try:
        _, shared = private_writable_mappings()
    except (OSError, ValueError, IndexError):
        resident = None
    if resident is None:
        return "memory unknown"
    if resident > MAX_ZYGOTE_BYTES:
        return "memory"
    if shared:
        return "shared memory"
    if state() is None:
        return "files"
    return None


def children_of_mine():
    """This process's live children: None for none; ["?"] when /proc
    cannot say (taken as some)."""
    try:
        with open("/proc/self/task/%d/children" % os.getpid()) as f:
            return f.read().split() or None
    except OSError:
        return ["?"]


class Kit:
    """What the zygote uses after the student's import, taken before it and
    before the session folder is on `sys.path` (a student's file named
    like one of these modules is not what is taken), then hidden from
    `sys.modules` where a fresh process would not have it: the import sees
    the modules a fresh process's import sees. While the student's file is
    imported, `sys.addaudithook` and `register_at_fork` are wrapped: any
    call, whoever's code makes it, marks student code that would run in
    the zygote. After the import, any function of these modules or any
    builtin replaced does the same (`patched`)."""

    MODULES = ("builtins", "os", "posix", "sys", "_signal", "gc", "time", "resource", "array",
               "re", "mmap", "ctypes", "functools", "_io", "io", "fcntl")

    def __init__(self):
        import importlib
        before = set(sys.modules)
        self.modules = {name: importlib.import_module(name) for name in self.MODULES}
        self.runs = self.modules["re"].compile(rb"P+")
        resource = self.modules["resource"]
        self.limits = [getattr(resource, n) for n in sorted(dir(resource))
                       if n.startswith("RLIMIT_")]
        self.madvise, self.ioprio = find_libc(self.modules)
        self.added = set(sys.modules) - before
        self.hooked = False
        self.real = None
        self.functions = {}

    def watch(self):
        """Just before the student's import: the wrappers in, and what the
        modules hold noted."""
        posix = self.modules["posix"]
        self.real = (sys.addaudithook, posix.register_at_fork)
        add_hook, register = self.real

        def addaudithook(*args, **kwargs):
            self.hooked = True
            return add_hook(*args, **kwargs)

        def register_at_fork(*args, **kwargs):
            self.hooked = True
            return register(*args, **kwargs)

        self.functions = {name: dict(vars(m)) for name, m in self.modules.items()}
        sys.addaudithook = addaudithook
        os.register_at_fork = posix.register_at_fork = register_at_fork

    def hide(self):
        """Takes out of `sys.modules` what only this kit imported."""
        for name in self.added:
            sys.modules.pop(name, None)

    def done(self):
        """After the import: the real functions back in place."""
        if self.real is None:
            return
        posix = self.modules["posix"]
        sys.addaudithook, posix.register_at_fork = self.real
        os.register_at_fork = posix.register_at_fork
        self.real = None

    def patched(self):
        """Whether the import replaced or removed a function of these
        modules (a value that is not callable, `sys.stdout` say, may change)."""
        for name, before in self.functions.items():
            now = vars(self.modules[name])
            for key, value in before.items():
                if callable(value) and (key not in now or now[key] is not value):
                    return True
        return False


def find_libc(modules):
    """libc's madvise, when this kernel can pre-copy pages with it
    (MADV_POPULATE_WRITE), and a reader of this process's I/O priority;
    None for either it cannot give."""
    try:
        ctypes, mmap = modules["ctypes"], modules["mmap"]
        libc = ctypes.CDLL(None, use_errno=True)
        madvise = libc.madvise
        madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        madvise.restype = ctypes.c_int
        page = mmap.PAGESIZE
        probe = mmap.mmap(-1, page)
        try:
            view = ctypes.c_char.from_buffer(probe)
            works = madvise(ctypes.addressof(view), page, MADV_POPULATE_WRITE) == 0
            del view
        finally:
            probe.close()
        number = IOPRIO_GET.get(os.uname().machine)
        ioprio = None
        if number is not None:
            syscall = libc.syscall
            syscall.restype = ctypes.c_long

            def ioprio():
                return syscall(number, 1, 0)  # IOPRIO_WHO_PROCESS, this process

        return (madvise if works else None), ioprio
    except (ImportError, OSError, AttributeError, ValueError, TypeError):
        return None, None


def shared_pages(kit):
    """The runs of pages present in this process's private writable
    mappings, what a worker forked from it shares until it writes there,
    as a flat array of (address, length) pairs (an array is no object the
    collector counts). Read from /proc/self/maps and the present and
    swapped bits of /proc/self/pagemap (readable without privileges)."""
    page = os.sysconf("SC_PAGE_SIZE")
    # The high byte of each little-endian 64-bit entry: bit 63 present,
    # bit 62 swapped.
    table = bytes(b"P"[0] if b & 0xC0 else b"."[0] for b in range(256))
    runs = kit.modules["array"].array("Q")
    mappings, _ = private_writable_mappings()
    fd = os.open("/proc/self/pagemap", os.O_RDONLY)
    try:
        for low, high, name in mappings:
            if name.startswith("[v"):
                continue  # [vvar], [vdso], [vsyscall]
            # In chunks of 8 Ki pages (64 KiB read, below malloc's mmap
            # threshold): a huge mapping the import reserved and never
            # touched costs no more memory to read.
            for chunk in range(low, high, CHUNK_PAGES * page):
                count = min(CHUNK_PAGES, (high - chunk) // page)
                entries = os.pread(fd, count * 8, (chunk // page) * 8)
                marks = entries[7::8].translate(table)
                for run in kit.runs.finditer(marks):
                    runs.append(chunk + run.start() * page)
                    runs.append((run.end() - run.start()) * page)
    finally:
        os.close(fd)
    return runs


def zygote_state(roots, kit):
    """What a worker can leave behind for the next one where a fresh
    process would find it fresh: everything in the places a student can
    write (each entry's mode, inode, size and times), the IPC namespace's
    message queues, semaphores and shared memory, and the zygote's own
    limits, scheduling, priorities, OOM score and umask (a worker can
    change its parent's). One string (the collector does not count it);
    None when it cannot be compared (too many entries, or one it cannot
    read: a folder it cannot list could hide a changed file)."""
    resource = kit.modules["resource"]
    seen = []
    stack = []
    for root in roots:
        try:
            st = os.stat(root, follow_symlinks=False)
        except OSError:
            continue
        seen.append((root, st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        stack.append(root)
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if len(seen) > MAX_PLACE_ENTRIES:
                        return None
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        return None
                    seen.append((entry.path, st.st_mode, st.st_ino, st.st_size,
                                 st.st_mtime_ns, st.st_ctime_ns))
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:
            # A folder it cannot list could hide a changed file.
            return None
    for name in ("sysvipc/msg", "sysvipc/sem", "sysvipc/shm", "self/oom_score_adj",
                 "self/coredump_filter"):
        try:
            with open("/proc/" + name) as f:
                seen.append((name, f.read()))
        except OSError:
            seen.append((name, None))
    limits = [resource.getrlimit(n) for n in kit.limits]
    mask = os.umask(0o022)
    os.umask(mask)
    seen.append((limits, os.getpriority(os.PRIO_PROCESS, 0), sorted(os.sched_getaffinity(0)),
                 os.sched_getscheduler(0), os.sched_getparam(0).sched_priority, mask,
                 kit.ioprio() if kit.ioprio is not None else None))
    return repr(seen)


def precopy(madvise, runs):
    """Writes to (copies) every page this worker shares with its zygote,
    before any case's clock runs."""
    for i in range(0, len(runs), 2):
        madvise(runs[i], runs[i + 1], MADV_POPULATE_WRITE)


def recursion_used():
    """How much of the recursion limit the caller's frame has used: Python
    frames, and C calls that count. Found by recursing to the error under a
    small limit for a moment."""
    limit = sys.getrecursionlimit()
    room = [0]

    def down(n):
        room[0] = n
        down(n + 1)

    sys.setrecursionlimit(RECURSION_PROBE)
    try:
        down(1)
    except RecursionError:
        pass
    finally:
        sys.setrecursionlimit(limit)
    # `down`'s first call is one level below the caller.
    return RECURSION_PROBE - room[0] - 1


def fork_patiently():
    """The pid of a new child, or None when none could start. The slot's
    task limit refuses a fork while a killed case's processes are still
    being reaped, so a refusal is retried for up to 3 s."""
    pause, waited = 0.005, 0.0
    while True:
        try:
            return os.fork()
        except BlockingIOError:
            if waited >= 3.0:
                return None
            time.sleep(pause)
            waited += pause
            pause = min(pause * 2, 0.2)
        except OSError:
            return None


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


def set_address_limit(resource, limit, extra):
    """Sets RLIMIT_AS, soft and hard, to the student's soft limit `limit`
    (soft, hard as the process started) plus `extra` bytes, within the hard."""
    soft, hard = limit
    if soft == resource.RLIM_INFINITY:
        return
    value = soft + max(0, extra)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (value, value))
    except (ValueError, OSError):
        pass


def start_worker(channel, early, serve_calls, kit, student, runs, nonce):
    """Forks a worker that copies the pages it shares with the zygote, says
    `forked` (with the `resume`'s nonce), and then answers the calls in
    `early` and those it reads itself from the request channel: its pid,
    or None when no worker could start. The worker gets back what the
    zygote changed for itself (the student's SIGCHLD setting, signal mask
    and collector), the recursion limit the zygote's own calls take, the
    address space its machinery maps, and pays the zygote's CPU time
    towards its CPU limit, as a fresh process pays for its import."""
    signal, gc, resource = kit.modules["_signal"], kit.modules["gc"], kit.modules["resource"]
    pid = fork_patiently()
    if pid == 0:
        code = 70
        try:
            if student.sigchld is not None:
                signal.signal(signal.SIGCHLD, student.sigchld)
            if student.collecting:
                gc.enable()
            charge_cpu(resource, student.cpu)
            set_address_limit(resource, student.address_limit, student.address_offset)
            # serve_calls runs deeper here than in `single` mode.
            sys.setrecursionlimit(sys.getrecursionlimit() + recursion_used() - student.depth)
            precopy(kit.madvise, runs)
            signal.pthread_sigmask(signal.SIG_SETMASK, student.mask)
            say(channel, b'{"type":"forked","nonce":%s}' % nonce)
            serve_calls(Channel(channel.in_fd, channel.out_fd, early))
            flush_student_streams()
            code = 0
        finally:
            os._exit(code)
    return pid


def charge_cpu(resource, seconds):
    """Lowers this worker's CPU limit by what its zygote used (a fork's CPU
    time starts at 0, a fresh process's counts its import)."""
    used = int(seconds + 0.5)
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if used <= 0 or soft == resource.RLIM_INFINITY:
        return
    soft = max(1, soft - used)
    if hard != resource.RLIM_INFINITY:
        hard = max(soft, hard - used)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def wait_for_end(pid):
    """(code, signal) once the worker `pid` has ended; every other child
    that has ended (the student's code can give the zygote children of
    its own: clone with CLONE_PARENT) is reaped too."""
    code, sig = None, None
    while True:
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            break
        if os.WIFSIGNALED(status):
            code, sig = None, os.WTERMSIG(status)
            break
        if os.WIFEXITED(status):
            code, sig = os.WEXITSTATUS(status), None
            break
    reap_children()
    return code, sig


def reap_children():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def descriptor_flags(kit, fds):
    """Each open descriptor's status flags (O_NONBLOCK, O_APPEND...): a
    forked worker shares them with the zygote, where a fresh process has
    its own."""
    fcntl = kit.modules["fcntl"]
    flags = {}
    for fd in fds:
        try:
            flags[fd] = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            pass
    return flags


def restore_flags(kit, flags):
    """Sets the descriptors' status flags back to what they were after the
    import: what a worker (or its processes) changed is not the next's."""
    fcntl = kit.modules["fcntl"]
    for fd, value in flags.items():
        try:
            fcntl.fcntl(fd, fcntl.F_SETFL, value)
        except OSError:
            pass


def say(channel, line):
    """The zygote's own messages, written without `json` (a module whose
    classes a student's import could have changed)."""
    view = memoryview(line + b"\n")
    while view:
        view = view[os.write(channel.out_fd, view):]


class Student:
    """What the zygote set aside of the student's process for its workers."""


def resume_nonce(line):
    """The digits of `"nonce":N` in a `resume` line, as bytes."""
    _, _, rest = line.partition(b'"nonce":')
    digits = bytes(c for c in rest[:20] if 48 <= c <= 57)
    return digits or b"0"


def zygote(channel, serve_calls, spawn, wait, state, kit, student):
    """The zygote's loop (see the module doc): at each `resume`, a worker
    (or `spent`, when what a worker can leave behind changed), its end
    said, and every request dropped until the next `resume`."""
    signal, gc = kit.modules["_signal"], kit.modules["gc"]
    # No student code runs in the zygote from here on: not a signal
    # handler (signals wait, blocked, and the worker unblocks them), not a
    # finaliser in a collection (collecting waits too, and a worker
    # collects as a fresh process would).
    times = os.times()
    student.sigchld = signal.getsignal(signal.SIGCHLD)
    student.mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    student.collecting = gc.isenabled()
    student.cpu = times[0] + times[1]
    gc.disable()
    # The student's import may have changed how children are reaped
    # (SIGCHLD ignored reaps them unasked, and waitpid could not say how
    # the worker ended).
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    runs = shared_pages(kit)
    after_import = state()
    flags = descriptor_flags(kit, (0, 1, 2, channel.in_fd, channel.out_fd))
    pending = b""
    while True:
        nonce = None
        while nonce is None:
            while b"\n" in pending and nonce is None:
                line, pending = pending.split(b"\n", 1)
                if line.startswith(RESUME):
                    nonce = resume_nonce(line)
            if nonce is not None:
                break
            if len(pending) > MAX_LINE:
                return
            try:
                data = os.read(channel.in_fd, 1 << 16)
            except BlockingIOError:
                # A worker's process made the request channel non-blocking.
                restore_flags(kit, flags)
                continue
            if not data:
                return
            pending += data
        reap_children()
        restore_flags(kit, flags)
        if children_of_mine() or state() != after_import:
            say(channel, b'{"type":"spent","why":"the submission changed what a new process '
                         b'would find fresh"}')
            return
        pid = spawn(channel, pending, serve_calls, kit, student, runs, nonce)
        if pid is None:
            say(channel, b'{"type":"spent","why":"no new process could start"}')
            return
        pending = b""
        code, sig = wait(pid)
        restore_flags(kit, flags)
        say(channel, b'{"type":"ended","code":%s,"signal":%s,"note":null}'
            % (b"null" if code is None else b"%d" % code, b"null" if sig is None else b"%d" % sig))


def main():
    global STUDENT_FILE
    in_fd, out_fd = take_private_fds(int(sys.argv[1]), int(sys.argv[2]))
    STUDENT_FILE = sys.argv[3]
    forking = sys.argv[5] == "fork"
    channel = Channel(in_fd, out_fd)
    import resource
    # A zygote's hard address-space limit leaves room (salgrade's) for
    # what its own machinery maps; the student's limit is the soft one.
    address_limit = resource.getrlimit(resource.RLIMIT_AS)
    # What the zygote's own machinery holds and maps (not the student's,
    # nor a fresh process's): each worker copies it too, so salgrade adds
    # it to the worker's memory limit, and the worker to its address space.
    anonymous_before = anonymous_bytes() if forking else 0
    files_before = mapped_files() if forking else set()
    kit = Kit() if forking else None
    overhead = max(0, anonymous_bytes() - anonymous_before) if forking else 0
    machinery = (sum(high - low for low, high in mapped_files() - files_before)
                 if forking else 0)
    if kit is not None:
        kit.hide()
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
    student_places = (os.getcwd(),) + WRITABLE_PLACES

    def state():
        return zygote_state(student_places, kit)

    baseline = take_fingerprint()

    def untouched():
        return take_fingerprint() == baseline

    try:
        hook = getattr(adapter, "before_import", None)
        if hook is not None:
            hook()
        if kit is not None:
            kit.watch()
        module = importlib.import_module(os.path.splitext(STUDENT_FILE)[0])
    except BaseException as exc:
        flush_student_streams()
        channel.send({"type": "import_failed", "error": describe_exception(exc)})
        return
    finally:
        if kit is not None:
            kit.done()
    flush_student_streams()
    functions = {}
    for name in adapter.FUNCTIONS:
        try:
            functions[name] = adapter.find(module, name) is not None
        except BaseException:
            functions[name] = False
    if forking and can_fork(fds_before, kit, state, untouched) is not None:
        # A worker forked now would differ from a fresh process (see
        # `forkable`): this process answers the calls itself, as in `single`
        # mode, with the student's process and address-space limits
        # (salgrade gave a zygote room for its own).
        forking = False
        soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
        if 1 < soft != resource.RLIM_INFINITY:
            resource.setrlimit(resource.RLIMIT_NPROC, (soft - 1, hard))
        set_address_limit(resource, address_limit, 0)
    channel.send({"type": "ready", "protocol": PROTOCOL,
                  "runtime": "Python " + sys.version.split()[0], "functions": functions,
                  "forking": forking, "overhead": overhead if forking else 0})

    def serve_calls(worker_channel):
        answer_calls(worker_channel, adapter, module, run_call, take_fingerprint, baseline,
                     tampered)

    if forking:
        student = Student()
        # Each worker's address space: the student's limit, plus what the
        # zygote's machinery holds that a fresh process would not: the
        # files it maps (ctypes and a few modules) and the memory its
        # objects use; not the heap it grew around them, which the
        # student's allocations reuse (crediting that let a worker map
        # up to 12 MiB more than a fresh process).
        student.address_limit = address_limit
        student.address_offset = machinery + overhead
        student.depth = recursion_used()
        loop(channel, serve_calls, spawn, wait_end, state, kit, student)
    else:
        serve_calls(channel)


if __name__ == "__main__":
    main()
