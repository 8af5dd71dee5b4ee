"""The mutation harness: makes every mutant of an assignment's model and
naive solutions in one language, asks each the default case set, and
tells apart, for each mutant that answers every default case right,
whether it is equivalent to the reference on every small board or a bug the
cases miss.

    python3 harness.py --assignment leetcode909 --language python \\
        --reference reference --cases default.json --small small.json \\
        --out report.json [--jobs 2] [--cxx g++] [--work DIR]

`--cases` is the case file `salgrade gen` writes; `--small` is a case file
of small boards (every board up to a size, then random and built ones)
with the Rust reference's answers, smallest first (`tests/cli/
machine_mutants.rs` writes it). Both originals must pass every case of both
files, or the harness stops: a harness or reference bug.

Each mutant is asked the small boards first, smallest first: one that
answers them all as the reference does is *equivalent*; for any other, the
first board it answers differently is the smallest that shows its bug, and
it is then asked the default cases, cheapest first, until one fails it.
Each run is a process of its own (a fork for Python; for C++ one program
holds every mutant, each in a namespace of its own, built once and started
once per mutant) that stops at its first wrong answer, exception, crash or
timeout. A case may use, in CPU
time, twice what salgrade would allow it (`max(50 ms, 10 x the naive
solution, 25 x the model)`, both measured here on the same case), so a
mutant killed by a timeout here is one salgrade times out too. The
address space is capped at 1 GiB, as salgrade's default.

The report lists every mutant with its operator, its change, and its fate:
`equivalent` (it answers every small board as the reference does),
`killed` (a small board tells it apart, and so does a default case: which,
and how), `survived` (a small board tells it apart, no default case does: a
bug the cases miss), or `unviable` (a C++ mutant that does not compile:
salgrade's `build_failed`, which says nothing of the cases). For a module of
functions (a48) a mutant is asked only the calls that reach the function it
changes.
"""

import argparse
import hashlib
import json
import mmap
import os
import re
import resource
import selectors
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import assignments  # noqa: E402
import mutate_cpp  # noqa: E402
import mutate_python  # noqa: E402

FLOOR = 0.05
NAIVE_TIMES = 10
MODEL_TIMES = 25
MARGIN = 2.0
MEMORY = 1 << 30
# salgrade's own C++ flags (src/runner/cxx.rs), so that a mutant builds here
# exactly when it builds there, but -O0 for -O2: a third of the build's time
# for some six hundred mutants. Budgets are calibrated on the originals built
# the same way; only a mutant whose behaviour is undefined could answer
# differently at another level.
CXX_FLAGS = ["-std=c++20", "-O0", "-Werror=return-type", "-w"]
HERE = os.path.dirname(os.path.abspath(__file__))


def solution_paths(reference, assignment, language):
    folder = assignment.name.replace("-", "_")
    name = assignment.python_file if language == "python" else assignment.cpp_file
    root = os.path.join(reference, language, folder)
    return [("model", os.path.join(root, name)), ("naive", os.path.join(root, "naive", name))]


def load_cases(path):
    with open(path) as f:
        data = json.load(f)
    return data["cases"] if isinstance(data, dict) else data


# -- running one mutant ------------------------------------------------------


class Phase:
    """One case file as the runs ask it: the cases, their expected answers
    (canonical strings; a48's `whowins` may accept two, joined by " or "),
    and each case's CPU-time budget."""

    def __init__(self, name, cases, assignment):
        self.name = name
        self.cases = cases
        self.expected = [assignment.expected(c) for c in cases]
        self.accepted = [frozenset(e.split(" or ")) for e in self.expected]
        self.budgets = [60.0] * len(cases)
        # For a run of many quick cases under one timer: what each may add
        # to the run's limit (20 times the naive solution's time).
        self.quick = [0.0] * len(cases)
        self.file = None  # the C++ program's copy of the cases

    def reorder(self, order):
        for field in ("cases", "expected", "accepted", "budgets", "quick"):
            values = getattr(self, field)
            setattr(self, field, [values[k] for k in order])


def _write(fd, text):
    data = (text + "\n").encode()
    while data:
        data = data[os.write(fd, data):]


def _python_child(fd, progress, source, assignment, phase, indices, chunk, calibrate):
    """Runs in the forked child: asks the cases in order and reports on fd.

    The case in progress is kept in `progress` (memory shared with the
    parent, which reads it if the child dies), and the CPU-time limit is set
    once per `chunk` cases: a case's budget when one at a time, else
    FLOOR x MARGIN and each case's quick allowance (an infinite loop costs
    that, not the sum of the budgets)."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    signal.signal(signal.SIGPROF, signal.SIG_DFL)
    sys.setrecursionlimit(1000)
    namespace = {"__name__": "solution"}
    try:
        exec(compile(source, "<mutant>", "exec"), namespace)
        run = assignment.python_call(namespace)
    except BaseException as exc:  # the mutant's import failing kills it
        _write(fd, "W {} import {}".format(indices[0] if indices else 0, type(exc).__name__))
        return
    pack, timer, clock = struct.pack_into, signal.setitimer, time.process_time
    cases, accepted, budgets, quick = phase.cases, phase.accepted, phase.budgets, phase.quick
    for j, k in enumerate(indices):
        pack("q", progress, 0, k)
        if chunk == 1:
            timer(signal.ITIMER_PROF, budgets[k])
        elif j % chunk == 0:
            timer(signal.ITIMER_PROF, FLOOR * MARGIN + sum(quick[i] for i in indices[j:j + chunk]))
        if calibrate:
            start = clock()
        try:
            got = run(cases[k])
        except BaseException as exc:
            got = "raised:" + type(exc).__name__
        if calibrate:
            _write(fd, "T {} {:.9f}".format(k, clock() - start))
        if got not in accepted[k]:
            timer(signal.ITIMER_PROF, 0)
            _write(fd, "W {} {}".format(k, got))
            return
    timer(signal.ITIMER_PROF, 0)
    _write(fd, "P")


class Job:
    """One mutant (or original) asked some of a phase's cases, in order:
    `indices` (all when None). Python runs in a fork of this process; C++
    in the mutants' program, which reads the phase's file."""

    def __init__(self, key, phase, indices=None, python=None, cpp=None, calibrate=False):
        self.key = key
        self.phase = phase
        self.indices = indices if indices is not None else range(len(phase.cases))
        self.python = python  # (source, assignment)
        self.cpp = cpp  # (binary, index in it, ask every step-th case)
        self.calibrate = calibrate
        # Small boards are many and quick: one timer per 256 of them.
        self.chunk = 256 if phase.name == "small" and not calibrate else 1
        self.wall = 2.0 + 3 * sum(phase.budgets[k] for k in self.indices)

    def start(self):
        read, write = os.pipe()
        self.progress = mmap.mmap(-1, 8)
        struct.pack_into("q", self.progress, 0, -1)
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read)
                if self.python is not None:
                    source, assignment = self.python
                    _python_child(
                        write, self.progress, source, assignment, self.phase, self.indices, self.chunk,
                        self.calibrate,
                    )
                else:
                    binary, index, step = self.cpp
                    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
                    os.dup2(write, 1)
                    null = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(null, 2)
                    mode = "calibrate" if self.calibrate else "run"
                    os.execv(binary, [
                        binary, mode, str(index), self.phase.file, self.phase.file + ".budgets", str(step),
                    ])
            finally:
                os._exit(0)
        os.close(write)
        self.pid, self.fd, self.buffer = pid, read, b""
        self.deadline = time.monotonic() + self.wall
        self.killed = False
        return read

    def finish(self, status):
        lines = self.buffer.decode(errors="replace").splitlines()
        started, times, verdict = struct.unpack_from("q", self.progress, 0)[0], {}, None
        self.progress.close()
        for line in lines:
            kind, _, rest = line.partition(" ")
            if kind == "S":
                started = int(rest)
            elif kind == "T":
                k, spent = rest.split()
                times[int(k)] = float(spent)
            elif kind == "W":
                k, _, got = rest.partition(" ")
                verdict = {"status": "fail", "case": int(k), "how": _how(got), "got": got}
            elif kind == "P":
                verdict = {"status": "pass"}
        if verdict is None:
            if os.WIFSIGNALED(status):
                sig = os.WTERMSIG(status)
                how = "timeout" if self.killed or sig in (signal.SIGPROF, signal.SIGXCPU) else "crash"
                got = signal.Signals(sig).name
            else:
                how, got = "crash", "exit {}".format(os.WEXITSTATUS(status))
            case = started if started >= 0 else (self.indices[0] if len(self.indices) else 0)
            verdict = {"status": "fail", "case": case, "how": how, "got": got}
        verdict["times"] = times
        return verdict


def _how(got):
    if got.startswith("import "):
        return "import"
    if got.startswith("raised:"):
        return "exception"
    return "wrong"


def run_jobs(jobs, parallel):
    """Runs the jobs (any iterable, taken as they start), `parallel` at a
    time; returns {key: verdict}."""
    results = {}
    waiting = iter(jobs)
    running = {}
    selector = selectors.DefaultSelector()
    exhausted = False
    while not exhausted or running:
        while not exhausted and len(running) < parallel:
            job = next(waiting, None)
            if job is None:
                exhausted = True
                break
            fd = job.start()
            running[fd] = job
            selector.register(fd, selectors.EVENT_READ)
        for key, _ in selector.select(timeout=0.05):
            job = running[key.fd]
            data = os.read(key.fd, 65536)
            if data:
                job.buffer += data
                continue
            selector.unregister(key.fd)
            os.close(key.fd)
            _, status, usage = os.wait4(job.pid, 0)
            results[job.key] = job.finish(status)
            results[job.key]["cpu"] = usage.ru_utime + usage.ru_stime
            del running[key.fd]
        now = time.monotonic()
        for job in running.values():
            if not job.killed and now > job.deadline:
                job.killed = True
                os.kill(job.pid, signal.SIGKILL)
    return results


# -- types, for the `name` operators ----------------------------------------


def trace_types(source, assignment, cases):
    """The type of every local of every function (and of `self`'s
    attributes) while the original answers a few cases, and the locals
    bound when each line runs: the `name` operators swap only within a
    type, and only to a variable that has a value there."""
    seen, live = {}, {}

    def record(frame):
        key = "{}:{}".format(frame.f_code.co_name, frame.f_lineno)
        live.setdefault(key, set()).update(frame.f_locals)
        table = seen.setdefault(frame.f_code.co_name, {})
        for name, value in frame.f_locals.items():
            if name == "self":
                attributes = seen.setdefault("self", {})
                for attribute, v in getattr(value, "__dict__", {}).items():
                    attributes.setdefault(attribute, set()).add(type(v).__name__)
                continue
            table.setdefault(name, set()).add(type(value).__name__)

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != "<original>":
            return None

        def local(frame, event, arg):
            if event in ("line", "return"):
                record(frame)
            return local

        return local

    namespace = {"__name__": "solution"}
    exec(compile(source, "<original>", "exec"), namespace)
    run = assignment.python_call(namespace)
    sys.settrace(tracer)
    try:
        for case in cases:
            run(case)
    finally:
        sys.settrace(None)
    types = {}
    for function, table in seen.items():
        types[function] = {}
        for name, kinds in table.items():
            kinds = kinds - {"NoneType"}
            if len(kinds) == 1:
                types[function][name] = kinds.pop()
    return {"types": types, "live": {k: sorted(v) for k, v in live.items()}}


# -- C++: one program for every mutant --------------------------------------

INCLUDE = re.compile(r"^\s*#\s*include\b.*$", re.M)


def _unit(assignment, mutants):
    """The translation unit: every mutant in a namespace of its own, the
    driver, and a table of entries; with the first and last line of each
    mutant's code, to tell whose a compiler error is."""
    lines = [assignment.cpp_prelude.rstrip("\n")]
    spans = {}
    for i, (key, source) in enumerate(mutants):
        body = INCLUDE.sub("", source)
        first = len(lines) + 1
        lines.append("namespace m{} {{".format(i))
        lines.extend(body.splitlines())
        lines.append("}")
        spans[key] = [(first, len(lines))]
    with open(os.path.join(HERE, "driver.hpp")) as f:
        driver = f.read()
    lines.append('#define MUTANTS_{}'.format(assignment.name.upper().replace("-", "_")))
    lines.extend(driver.splitlines())
    for i, (key, _) in enumerate(mutants):
        line = len(lines) + 1
        lines.append(assignment.cpp_entry("m{}".format(i)).rstrip("\n"))
        spans[key].append((line, line))
    lines.append("static const Entry ENTRIES[] = {")
    lines.extend("    entry_m{},".format(i) for i in range(len(mutants)))
    lines.append("};")
    lines.append("int main(int argc, char** argv) {")
    lines.append("    return mutants_main(argc, argv, ENTRIES, {});".format(len(mutants)))
    lines.append("}")
    return "\n".join(lines) + "\n", spans


def build_cpp(assignment, mutants, work, cxx):
    """Builds the program; returns (binary, {key: index}, unviable keys).

    Mutants that do not compile are found with syntax-only passes (every
    error is mapped to the mutant whose lines it names, also through
    "required from here") and left out."""
    unviable = set()
    os.makedirs(work, exist_ok=True)
    for _ in range(8):
        viable = [(k, s) for k, s in mutants if k not in unviable]
        text, spans = _unit(assignment, viable)
        digest = hashlib.sha256((text + " ".join(CXX_FLAGS) + cxx).encode()).hexdigest()[:16]
        path = os.path.join(work, "mutants-{}.cpp".format(digest))
        binary = os.path.join(work, "mutants-{}".format(digest))
        index = {k: i for i, (k, _) in enumerate(viable)}
        if os.path.exists(binary):
            return binary, index, unviable
        with open(path, "w") as f:
            f.write(text)
        # Built at once: when every mutant compiles (as the quick check's
        # always do), a syntax-only pass first would parse it all twice.
        built = subprocess.run([cxx] + CXX_FLAGS + ["-o", binary + ".tmp", path], capture_output=True, text=True)
        if built.returncode == 0:
            os.replace(binary + ".tmp", binary)
            return binary, index, unviable
        check = subprocess.run(
            [cxx] + CXX_FLAGS + ["-fsyntax-only", "-fmax-errors=0", path],
            capture_output=True, text=True,
        )
        if check.returncode == 0:
            raise SystemExit("the mutants' program did not build:\n" + built.stderr[-4000:])
        blamed = _blame(check.stderr, path, spans)
        if not blamed:
            raise SystemExit("a compiler error in no mutant's code:\n" + check.stderr[-4000:])
        unviable |= blamed
    raise SystemExit("the mutants' program still does not compile after 8 passes")


def _blame(stderr, path, spans):
    """The mutants whose lines an error names (in its own line or in the
    instantiation notes before it)."""
    name = re.escape(os.path.basename(path))
    located = re.compile(r"{}:(\d+):(?:\d+:)?\s*(error|note|required|In )?".format(name))
    blamed, pending = set(), set()
    for line in stderr.splitlines():
        found = located.search(line)
        if not found:
            continue
        number = int(found.group(1))
        owners = {k for k, ranges in spans.items() if any(a <= number <= b for a, b in ranges)}
        pending |= owners
        if ": error:" in line:
            blamed |= pending
            pending = set()
    return blamed


# -- the whole run -----------------------------------------------------------


def cpu_seconds():
    """CPU time of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def budgets_from(model, naive):
    return [MARGIN * max(FLOOR, NAIVE_TIMES * n, MODEL_TIMES * m) for m, n in zip(model, naive)]


def _write_phase_file(phase, assignment, work, stem):
    phase.file = os.path.join(work, "{}-{}.txt".format(stem, phase.name))
    with open(phase.file, "w") as f:
        for case, expected in zip(phase.cases, phase.expected):
            f.write(expected + "\t" + assignment.cpp_line(case) + "\n")
    _write_budgets(phase)


def _write_budgets(phase):
    if phase.file is not None:
        with open(phase.file + ".budgets", "w") as f:
            f.write("\n".join("{:.6f}".format(b) for b in phase.budgets) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignment", required=True)
    parser.add_argument("--language", choices=("python", "cpp"), required=True)
    parser.add_argument("--reference", required=True, help="the reference crate's folder")
    parser.add_argument("--cases", required=True)
    parser.add_argument(
        "--small", help="the small boards (with --check, only the first 200 are used: to trace types, as the full run)"
    )
    parser.add_argument("--out", help="the report (not with --check)")
    parser.add_argument("--record", help="also write the report's compact record here, to commit")
    parser.add_argument(
        "--check", metavar="RECORD",
        help="the quick check: the mutants must be those of RECORD, and each it says is not equivalent"
        " must fail a default case (no small boards are asked)",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cxx", default="g++")
    parser.add_argument("--work", default=None, help="where C++ programs are built and kept")
    args = parser.parse_args()
    if args.small is None or (args.check is None and args.out is None):
        parser.error("--small is needed, and --out without --check")

    started = time.monotonic()
    assignment = assignments.by_name(args.assignment, args.reference)
    default = Phase("default", load_cases(args.cases), assignment)
    small = Phase("small", load_cases(args.small), assignment)
    originals = []
    for label, path in solution_paths(args.reference, assignment, args.language):
        with open(path) as f:
            originals.append((label, f.read()))

    mutants = []  # (key, file label, Mutant)
    # For a module of functions (a48), a change in one of them can only
    # change the answers of the calls that reach it: only those are asked.
    reached_by = {}
    for label, source in originals:
        if args.language == "python":
            types = trace_types(source, assignment, small.cases[:200] + default.cases[:5])
            made = mutate_python.mutants(source, types)
            if assignment.name == "a48":
                reached_by[label] = mutate_python.callers(source)
        else:
            made = mutate_cpp.mutants(source)
        for i, m in enumerate(made):
            mutants.append(("{}-{}".format(label, i), label, m))

    if args.check:
        return check(args, assignment, default, originals, mutants, reached_by)

    unviable, index = set(), {}
    if args.language == "cpp":
        work = args.work or os.path.join(os.getcwd(), "mutants-work")
        sources = [("original-" + label, s) for label, s in originals] + [(k, m.source) for k, _, m in mutants]
        binary, index, unviable = build_cpp(assignment, sources, work, args.cxx)
        if any(k.startswith("original-") for k in unviable):
            raise SystemExit("an original does not compile")
        for phase in (default, small):
            _write_phase_file(phase, assignment, work, os.path.basename(binary))

    def job(key, phase, source=None, indices=None, calibrate=False):
        if args.language == "python":
            return Job(key, phase, indices, python=(source, assignment), calibrate=calibrate)
        step = 1
        if indices is not None:
            step = indices[1] - indices[0] if len(indices) > 1 else 1
            assert list(indices) == list(range(0, len(phase.cases), step)), "C++ mutants are asked every n-th case"
        return Job(key, phase, range(0, len(phase.cases), step), cpp=(binary, index[key], step), calibrate=calibrate)

    # Calibration: both originals on every case, which must all pass.
    for phase in (default, small):
        results = run_jobs([job("original-" + label, phase, s, calibrate=True) for label, s in originals], 1)
        times = {}
        for label, _ in originals:
            verdict = results["original-" + label]
            if verdict["status"] != "pass":
                k = verdict["case"]
                raise SystemExit(
                    "the {} solution fails {} case {} ({}): got {}, expected {}".format(
                        label, phase.name, phase.cases[k]["id"], verdict["how"], verdict["got"], phase.expected[k]
                    )
                )
            times[label] = [verdict["times"][k] for k in range(len(phase.cases))]
        phase.budgets = budgets_from(times["model"], times["naive"])
        phase.quick = [20 * t for t in times["naive"]]
        if phase is default:
            # Cheap cases first: most mutants die on one of the first few.
            phase.reorder(sorted(range(len(phase.cases)), key=lambda k: times["naive"][k]))
            if args.language == "cpp":
                _write_phase_file(phase, assignment, work, os.path.basename(binary))
        _write_budgets(phase)

    report = {"assignment": assignment.name, "language": args.language, "mutants": []}
    report["calibration"] = round(time.monotonic() - started, 1)
    cpu_before = cpu_seconds()
    viable = [(k, label, m) for k, label, m in mutants if k not in unviable]

    def asked(phase, label, m):
        """The cases of `phase` a mutant is asked: all, or for a module of
        functions those of the functions that reach the changed one."""
        callers = reached_by.get(label, {}).get(getattr(m, "function", None))
        if callers is None:
            return None
        return [k for k, c in enumerate(phase.cases) if c["function"] in callers]

    # First the small boards: a mutant that answers them all as the
    # reference does is equivalent, and needs no default case. One in eight
    # of them first (most mutants differ there), then all of them, smallest
    # first, for the mutants that answered those: the first board a mutant
    # answers differently is then the smallest that shows its bug.
    def every(phase, label, m):
        picked = asked(phase, label, m)
        return list(range(len(phase.cases))) if picked is None else picked

    sample = run_jobs((job(k, small, m.source, every(small, label, m)[::8]) for k, label, m in viable), args.jobs)
    passed = [(k, label, m) for k, label, m in viable if sample[k]["status"] == "pass"]
    full = run_jobs((job(k, small, m.source, asked(small, label, m)) for k, label, m in passed), args.jobs)
    first = {**sample, **full}
    different = [(k, label, m) for k, label, m in viable if first[k]["status"] == "fail"]
    middle = time.monotonic()
    second = run_jobs((job(k, default, m.source, asked(default, label, m)) for k, label, m in different), args.jobs)
    # A survivor found on the sample: its smallest board, from all of them.
    again = run_jobs(
        (
            job(k, small, m.source, asked(small, label, m))
            for k, label, m in different
            if second[k]["status"] == "pass" and k not in full
        ),
        args.jobs,
    )
    first.update(again)
    report["phases"] = [round(middle - started, 1), round(time.monotonic() - middle, 1)]
    for key, label, m in mutants:
        entry = {"key": key, "file": label, "operator": m.operator, "change": m.description}
        entry["cpu"] = round(sum(r.get(key, {}).get("cpu", 0) for r in (sample, full, second, again)), 4)
        if key in unviable:
            entry["fate"] = "unviable"
        elif first[key]["status"] == "pass":
            entry["fate"] = "equivalent"
        else:
            v = first[key]
            k = v["case"]
            entry["board"] = {
                "case": small.cases[k]["id"], "function": small.cases[k]["function"],
                "input": small.cases[k]["input"], "how": v["how"], "got": v["got"], "expected": small.expected[k],
            }
            if second[key]["status"] == "fail":
                v = second[key]
                entry.update(fate="killed", case=default.cases[v["case"]]["id"], how=v["how"], got=v["got"])
            else:
                entry.update(fate="survived", source=m.source)
        report["mutants"].append(entry)
    report["seconds"] = round(time.monotonic() - started, 1)
    report["cpu_seconds"] = {"all": round(cpu_seconds(), 1), "mutants": round(cpu_seconds() - cpu_before, 1)}
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    if args.record:
        with open(args.record, "w") as f:
            f.write(record_of(report))


RECORD_FIELDS = ("key", "file", "operator", "change", "fate", "board", "case")


def record_of(report):
    """The compact record of a full run, one mutant a line: what
    `--check` needs (which mutants there are, and which are equivalent),
    and for each other one the smallest board that shows its bug and the
    default case that failed it."""
    counts = {}
    for m in report["mutants"]:
        counts[m["fate"]] = counts.get(m["fate"], 0) + 1
    lines = [
        "{",
        ' "assignment": {},'.format(json.dumps(report["assignment"])),
        ' "language": {},'.format(json.dumps(report["language"])),
        ' "counts": {},'.format(json.dumps(dict(sorted(counts.items())))),
        ' "mutants": [',
    ]
    entries = []
    for m in report["mutants"]:
        entry = {k: m[k] for k in RECORD_FIELDS if k in m}
        if "board" in entry:
            entry["board"] = {k: entry["board"][k] for k in ("input", "got", "expected")}
        entries.append("  " + json.dumps(entry, sort_keys=False))
    lines.append(",\n".join(entries))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def check(args, assignment, default, originals, mutants, reached_by):
    """The quick check against a committed record: exits non-zero, saying
    why, when the mutants made now are not the record's (a solution or an
    operator changed: run the full harness again) or when a mutant the
    record calls killed or survived passes every default case."""
    with open(args.check) as f:
        record = json.load(f)
    made = [(key, m.description) for key, _, m in mutants]
    recorded = [(m["key"], m["change"]) for m in record["mutants"]]
    if made != recorded:
        first = next((a, b) for a, b in zip(made + [None] * len(recorded), recorded + [None] * len(made)) if a != b)
        raise SystemExit(
            "{}: the mutants made now are not those of {} ({} made, {} recorded; first difference: {} / {}):"
            " run bench/mutants.sh again".format(assignment.name, args.check, len(made), len(recorded), *first)
        )
    fate = {m["key"]: m["fate"] for m in record["mutants"]}
    wanted = [(k, label, m) for k, label, m in mutants if fate[k] in ("killed", "survived")]
    index = {}
    if args.language == "cpp":
        work = args.work or os.path.join(os.getcwd(), "mutants-work")
        sources = [("original-" + label, s) for label, s in originals] + [(k, m.source) for k, _, m in wanted]
        binary, index, unviable = build_cpp(assignment, sources, work, args.cxx)
        if unviable:
            raise SystemExit("{}: mutants the record calls viable do not compile: {}".format(
                assignment.name, sorted(unviable)))
        _write_phase_file(default, assignment, work, os.path.basename(binary))

    def job(key, source=None, indices=None, calibrate=False):
        if args.language == "python":
            return Job(key, default, indices, python=(source, assignment), calibrate=calibrate)
        return Job(key, default, None, cpp=(binary, index[key], 1), calibrate=calibrate)

    results = run_jobs([job("original-" + label, s, calibrate=True) for label, s in originals], 1)
    times = {}
    for label, _ in originals:
        verdict = results["original-" + label]
        if verdict["status"] != "pass":
            raise SystemExit("the {} solution fails default case {}".format(
                label, default.cases[verdict["case"]]["id"]))
        times[label] = [verdict["times"][k] for k in range(len(default.cases))]
    default.budgets = budgets_from(times["model"], times["naive"])
    default.reorder(sorted(range(len(default.cases)), key=lambda k: times["naive"][k]))
    if args.language == "cpp":
        _write_phase_file(default, assignment, work, os.path.basename(binary))

    def asked(label, m):
        callers = reached_by.get(label, {}).get(getattr(m, "function", None))
        if callers is None or args.language == "cpp":
            return None
        return [k for k, c in enumerate(default.cases) if c["function"] in callers]

    results = run_jobs((job(k, m.source, asked(label, m)) for k, label, m in wanted), args.jobs)
    alive = [(k, m) for k, _, m in wanted if results[k]["status"] == "pass"]
    print("{} {}: {} mutants, {} not equivalent, {} pass every default case".format(
        assignment.name, args.language, len(mutants), len(wanted), len(alive)))
    if alive:
        raise SystemExit("{} {}: no default case fails {} mutant(s):\n{}".format(
            assignment.name, args.language, len(alive),
            "\n".join("{} ({}) {}".format(k, m.operator, m.description) for k, m in alive)))


if __name__ == "__main__":
    main()
