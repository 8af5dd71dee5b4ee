#!/usr/bin/env python3
"""Benchmark for issue 15: salgrade against a pytest baseline and a bare limit.

    python3 bench/run.py                      # cohorts of 20, 100, 200 and 400 students
    python3 bench/run.py --students 20,100    # some sizes only
    python3 bench/run.py --quick              # 20 students only: a smoke test

It builds synthetic A48 cohorts from the sample submissions in
fixtures/submissions/, writes one case file with `salgrade gen`, and grades
every cohort three ways on those cases:

  salgrade  `salgrade grade COHORT --cases-file CASES --format json`, default settings;
  baseline  one pytest process per student (baseline/test_a48.py: one test per
            case, pytest-timeout at 1 s, salgrade's checks), JOBS students at once;
  limit     one bare interpreter per student calling every case once, no checks
            (limit_driver.py), JOBS students at once.

It prints wall and CPU seconds, peak memory and ratios, salgrade's cost per
looping case, and fails (exit 1) when salgrade and the baseline disagree on
any student's passes per function. Results go to bench/results.json and
bench/results.md. Python 3.11 standard library only; pytest and
pytest-timeout are installed into bench/.venv on first use.
"""

import argparse
import datetime
import json
import os
import platform
import random
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
FIXTURES = os.path.join(REPO, "fixtures", "submissions")
COURSE_API = os.path.join(REPO, "reference", "python", "a48")
VENV = os.path.join(BENCH, ".venv")
BASELINE = os.path.join(BENCH, "baseline")
LIMIT_DRIVER = os.path.join(BENCH, "limit_driver.py")
FUNCTIONS = ("salb2salbLL", "willfinish", "whowins", "dualboard")
RULED = ("willfinish", "whowins", "dualboard")
STUDENT_FILE = "salbLLfunctions.py"
MEMORY_MB = 1024  # salgrade's default --memory-mb, given to the baseline and the limit too

# The cohort mix: (bucket, percent, fixture folders). Within a bucket the
# folders take turns in this order; the buckets' places in the cohort are
# shuffled with a fixed seed, so a cohort of a given size is always the same.
MIX = (
    ("correct", 70, ("correct", "correct_helpers", "correct_separate_reading", "uses_containers")),
    ("slow", 10, ("correct_slow",)),
    ("loop", 5, ("loop_willfinish",)),
    ("crash", 5, ("exit_whowins",)),
    ("wrong", 5, ("wrong_answer", "wrong_type", "shares_input", "edits_input", "open_list")),
    ("memory", 5, ("memory_hog",)),
)
METHODS = ("salgrade", "baseline", "limit")


def log(message):
    print(message, file=sys.stderr, flush=True)


# ---- setup ---------------------------------------------------------------

def ensure_venv():
    """bench/.venv with pytest and pytest-timeout (bench/requirements.txt)."""
    python = os.path.join(VENV, "bin", "python")
    probe = [python, "-c", "import pytest, pytest_timeout"]
    if os.path.exists(python) and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    log(f"creating {VENV} with pytest and pytest-timeout ...")
    subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-r", os.path.join(BENCH, "requirements.txt")], check=True)
    subprocess.run(probe, check=True)
    return python


def tool_versions(venv_python, salgrade):
    versions = {
        "salgrade": subprocess.run([salgrade, "--version"], capture_output=True, text=True).stdout.strip(),
        "python": platform.python_version(),
    }
    if venv_python:
        probe = ("import importlib.metadata as m; "
                 "print(m.version('pytest'), m.version('pytest-timeout'))")
        out = subprocess.run([venv_python, "-c", probe], capture_output=True, text=True).stdout.split()
        versions.update(zip(("pytest", "pytest_timeout"), out))
    return versions


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu_model": model, "system": platform.platform()}


def generate_cases(salgrade, path, seed, per_function):
    subprocess.run([salgrade, "gen", "--seed", str(seed), "--cases", str(per_function), "-o", path],
                   check=True)
    with open(path, encoding="utf-8") as f:
        return json.load(f)["cases"]


def course_folder(work):
    """The course API the handout ships (salbnode.py, salboard.py), without the model solution."""
    folder = os.path.join(work, "course")
    os.makedirs(folder, exist_ok=True)
    for name in ("salbnode.py", "salboard.py"):
        shutil.copyfile(os.path.join(COURSE_API, name), os.path.join(folder, name))
    return folder


# ---- cohorts -------------------------------------------------------------

def mix_counts(size):
    """Students per bucket for a cohort of `size`: the MIX percentages, rounded
    by largest remainder (ties in MIX order) so they add up to `size`."""
    exact = {bucket: size * percent / 100.0 for bucket, percent, _ in MIX}
    counts = {bucket: int(x) for bucket, x in exact.items()}
    left = size - sum(counts.values())
    by_remainder = sorted(exact, key=lambda b: exact[b] - counts[b], reverse=True)  # stable
    for bucket in by_remainder[:left]:
        counts[bucket] += 1
    return counts


def mixed_students(size):
    """[(bucket, fixture folder)] for a mixed cohort, in a fixed shuffled order."""
    counts = mix_counts(size)
    members = []
    for bucket, _, folders in MIX:
        members += [(bucket, folders[i % len(folders)]) for i in range(counts[bucket])]
    random.Random(15_000 + size).shuffle(members)
    return members


def write_cohort(work, name, members):
    """One folder per student, each with a copy of its fixture's file plus a
    comment that makes every file different. Returns the cohort's manifest."""
    folder = os.path.join(work, "cohorts", name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    students = {}
    for i, (bucket, fixture) in enumerate(members, start=1):
        student = f"s{i:04d}_{fixture}"
        os.makedirs(os.path.join(folder, student))
        with open(os.path.join(FIXTURES, fixture, STUDENT_FILE), encoding="utf-8") as f:
            text = f.read()
        text += f"\n# benchmark cohort {name}, student {student}\n"
        with open(os.path.join(folder, student, STUDENT_FILE), "w", encoding="utf-8") as f:
            f.write(text)
        students[student] = {"bucket": bucket, "fixture": fixture}
    return {"name": name, "folder": folder, "students": students}


def plan_cohorts(work, sizes):
    cohorts = []
    for size in sizes:
        cohorts.append(("mixed", size, write_cohort(work, f"mixed-{size:03d}", mixed_students(size))))
    correct = [("correct", MIX[0][2][i % len(MIX[0][2])]) for i in range(20)]
    cohorts.append(("only correct", 20, write_cohort(work, "correct-020", correct)))
    return cohorts


# ---- running processes -----------------------------------------------------

class Usage:
    """The processes a method started, and the largest peak RSS they reported.

    Peak RSS is each process's own VmHWM, which it reports at its end: wait4's
    ru_maxrss would not do, as Linux counts in it the RSS of the process that
    forked the child (this script) as it was at exec."""

    def __init__(self):
        self.lock = threading.Lock()
        self.max_rss_kib = 0
        self.processes = 0

    def started(self):
        with self.lock:
            self.processes += 1

    def peak(self, kib):
        with self.lock:
            self.max_rss_kib = max(self.max_rss_kib, kib)


def run_child(cmd, usage, log_path, env=None, cwd=None, limit_s=None, on_start=None):
    """Runs one process to its end; returns its exit code (negative: a signal)."""
    with open(log_path, "ab") as out:
        proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    watchdog = None
    if limit_s is not None:
        watchdog = threading.Timer(limit_s, lambda: os.killpg(proc.pid, signal.SIGKILL))
        watchdog.start()
    if on_start is not None:
        on_start(proc.pid)
    usage.started()
    proc.wait()
    if watchdog is not None:
        watchdog.cancel()
    return proc.returncode


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def own_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class CgroupCpu:
    """CPU time of every process this script starts, wherever it ends up.

    getrusage(RUSAGE_CHILDREN) counts a process only when an ancestor of ours
    reaps it. salgrade's student processes run in bubblewrap's PID namespaces
    and are killed at the end of each session, so most of their CPU time never
    reaches it (on the one-loop student: about 4.5 s of about 12 s). So, where
    a cgroup hierarchy with CPU accounting is writable (cgroup v1 `cpuacct`,
    or v2), this script moves itself into a cgroup of its own at start; its
    children inherit it, salgrade's own cgroups are in other hierarchies, and
    the cgroup's usage less this script's own CPU is the children's CPU.
    """

    def __init__(self):
        self.path = self.home = None
        self.v2 = False
        try:
            self._enter()
        except (OSError, ValueError):
            self.path = None

    def _enter(self):
        mounts = {}  # "cpuacct" or "cgroup2" -> mount point
        with open("/proc/self/mountinfo", encoding="utf-8") as f:
            for line in f:
                pre, _, post = line.partition(" - ")
                fstype, _, options = post.split()[:3]
                point = pre.split()[4]
                if fstype == "cgroup" and "cpuacct" in options.split(","):
                    mounts["cpuacct"] = point
                elif fstype == "cgroup2":
                    mounts["cgroup2"] = point
        own = {}
        with open("/proc/self/cgroup", encoding="utf-8") as f:
            for line in f:
                _, controllers, path = line.rstrip("\n").split(":", 2)
                for c in controllers.split(",") if controllers else ["cgroup2"]:
                    own[c] = path
        if "cpuacct" in mounts and "cpuacct" in own:
            home = mounts["cpuacct"] + own["cpuacct"]
        elif "cgroup2" in mounts and "cgroup2" in own:
            home, self.v2 = mounts["cgroup2"] + own["cgroup2"], True
        else:
            return
        path = os.path.join(home, f"salgrade-bench-{os.getpid()}")
        os.mkdir(path)
        try:
            with open(os.path.join(path, "cgroup.procs"), "w", encoding="ascii") as f:
                f.write(str(os.getpid()))
        except OSError:
            os.rmdir(path)
            raise
        self.path, self.home = path, home

    def usage_s(self):
        """Total CPU seconds of the cgroup so far, or None without one."""
        if self.path is None:
            return None
        if self.v2:
            with open(os.path.join(self.path, "cpu.stat"), encoding="ascii") as f:
                for line in f:
                    if line.startswith("usage_usec "):
                        return int(line.split()[1]) / 1e6
            return None
        with open(os.path.join(self.path, "cpuacct.usage"), encoding="ascii") as f:
            return int(f.read()) / 1e9

    def close(self):
        if self.path is None:
            return
        try:
            with open(os.path.join(self.home, "cgroup.procs"), "w", encoding="ascii") as f:
                f.write(str(os.getpid()))
            os.rmdir(self.path)
        except OSError as e:
            log(f"could not remove the cgroup {self.path}: {e}")
        self.path = None


CGROUP = None  # set by main()


def cpu_source():
    if CGROUP.path is None:
        return "getrusage(RUSAGE_CHILDREN): undercounts salgrade (see CgroupCpu)"
    return f"cgroup {'v2 cpu.stat' if CGROUP.v2 else 'v1 cpuacct.usage'}, less this script's own CPU"


def watch_hwm(pid, into):
    """Polls /proc/PID/status for VmHWM (the process's own peak RSS) until it exits."""
    def poll():
        path = f"/proc/{pid}/status"
        while True:
            try:
                with open(path, encoding="utf-8") as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            into["hwm_kib"] = max(into.get("hwm_kib", 0), int(line.split()[1]))
            except (OSError, ValueError):
                return
            if into.get("stop"):
                return
            time.sleep(0.05)
    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    into["thread"] = thread


# ---- the three methods ---------------------------------------------------

def run_salgrade(args, cohort, cases_path, out):
    report = os.path.join(out, "salgrade.json")
    cmd = [args.salgrade, "grade", cohort["folder"], "--cases-file", cases_path,
           "--format", "json", "-o", report, "--out-dir", os.path.join(out, "salgrade-out")]
    usage, hwm = Usage(), {}
    code = run_child(cmd, usage, os.path.join(out, "salgrade.log"),
                     on_start=lambda pid: watch_hwm(pid, hwm))
    hwm["stop"] = True
    hwm["thread"].join()
    usage.peak(hwm.get("hwm_kib", 0))
    if code not in (0, 1):
        raise SystemExit(f"salgrade failed (exit {code}) on {cohort['name']}: see {out}/salgrade.log")
    with open(report, encoding="utf-8") as f:
        data = json.load(f)
    passes, rules, timeouts = {}, {}, {}
    for s in data["students"]:
        passes[s["student"]] = {fn: [v["passed"], v["total"]] for fn, v in s["functions"].items()}
        offenders = set()
        for violation in s.get("violations", []):
            offenders.update(violation.get("graded", []))
        rules[s["student"]] = sorted(offenders)
        timeouts[s["student"]] = sum(1 for c in s.get("cases", []) if c.get("verdict") == "timeout")
    return usage, {"passes": passes, "rules": rules, "timeouts": timeouts}


def baseline_student(args, student_dir, cases_path, course, out, usage, totals):
    """pytest for one student, started again after any test that kills it."""
    name = os.path.basename(student_dir)
    outcomes = os.path.join(out, "baseline", name + ".outcomes")
    if os.path.exists(outcomes):
        os.remove(outcomes)
    env = dict(os.environ, A48_CASES=cases_path, A48_STUDENT=student_dir, A48_COURSE=course,
               A48_OUTCOMES=outcomes, A48_MEMORY_MB=str(MEMORY_MB), PYTHONDONTWRITEBYTECODE="1")
    cmd = [args.venv_python, "-m", "pytest", "test_a48.py", "-q", "-p", "no:cacheprovider",
           "--timeout", str(args.pytest_timeout)]
    runs = 0
    for _ in range(sum(totals.values()) + 1):
        runs += 1
        run_child(cmd, usage, os.path.join(out, "baseline", name + ".log"), env=env, cwd=BASELINE,
                  limit_s=args.student_limit_s)
        records = read_outcomes(outcomes)
        if records["finished"]:
            break
        # The process died: the test it had started counts as failed, and
        # pytest starts again on the tests not yet run.
        if records["running"] is None:
            break
        with open(outcomes, "a", encoding="utf-8") as f:
            f.write(f"crashed\t{records['running']}\n")
    records = read_outcomes(outcomes)
    usage.peak(records["hwm_kib"])
    passes = {fn: [0, totals[fn]] for fn in FUNCTIONS if totals[fn]}
    rules = []
    for nodeid, outcome in records["outcomes"].items():
        test, _, param = nodeid.partition("::")[2].partition("[")
        function = test.removeprefix("test_")
        if function == "container_rule":
            if outcome != "passed":
                rules.append(param.rstrip("]"))
        elif function in passes and outcome == "passed":
            passes[function][0] += 1
    return name, passes, sorted(rules), runs


def read_outcomes(path):
    outcomes, running, finished, hwm = {}, None, False, 0
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                kind, _, nodeid = line.rstrip("\n").partition("\t")
                if kind == "finished":
                    finished = True
                elif kind == "hwm":
                    hwm = max(hwm, int(nodeid))
                elif kind == "start":
                    running = nodeid
                else:
                    if outcomes.get(nodeid) != "failed":  # a failing teardown after a pass
                        outcomes[nodeid] = kind
                    if nodeid == running:
                        running = None
    return {"outcomes": outcomes, "running": running, "finished": finished, "hwm_kib": hwm}


def run_baseline(args, cohort, cases_path, course, out, totals):
    os.makedirs(os.path.join(out, "baseline"), exist_ok=True)
    usage = Usage()
    students = [os.path.join(cohort["folder"], s) for s in sorted(cohort["students"])]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(
            lambda d: baseline_student(args, d, cases_path, course, out, usage, totals), students))
    passes = {name: p for name, p, _, _ in results}
    rules = {name: r for name, _, r, _ in results}
    restarts = {name: runs - 1 for name, _, _, runs in results if runs > 1}
    return usage, {"passes": passes, "rules": rules, "restarts": restarts}


def limit_student(args, student_dir, cases_path, course, out, usage, case_count):
    name = os.path.basename(student_dir)
    progress = os.path.join(out, "limit", name + ".progress")
    if os.path.exists(progress):
        os.remove(progress)
    start = 0
    for _ in range(case_count + 1):
        env = dict(os.environ, A48_START=str(start), A48_MEMORY_MB=str(MEMORY_MB),
                   PYTHONDONTWRITEBYTECODE="1")
        run_child([args.python, LIMIT_DRIVER, cases_path, student_dir, course, progress,
                   str(args.limit_deadline_ms)],
                  usage, os.path.join(out, "limit", name + ".log"), env=env,
                  limit_s=args.student_limit_s)
        with open(progress, encoding="utf-8") as f:
            lines = f.read().splitlines()
        if not lines or lines[-1] == "done":
            break
        start = int(lines[-1]) + 1  # the case that ended the process is not tried again
        if start >= case_count:
            break
    with open(progress, encoding="utf-8") as f:
        for line in f:
            if line.startswith("hwm "):
                usage.peak(int(line.split()[1]))


def run_limit(args, cohort, cases_path, course, out, case_count):
    os.makedirs(os.path.join(out, "limit"), exist_ok=True)
    usage = Usage()
    students = [os.path.join(cohort["folder"], s) for s in sorted(cohort["students"])]
    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(lambda d: limit_student(args, d, cases_path, course, out, usage, case_count),
                      students))
    return usage, {}


def measure(method, run):
    """Runs one method on one cohort: its wall time, its children's CPU time
    (from the cgroup where there is one, else getrusage), its peak RSS."""
    cgroup0, own0, rusage0 = CGROUP.usage_s(), own_cpu(), children_cpu()
    wall0 = time.monotonic()
    usage, details = run()
    wall = time.monotonic() - wall0
    time.sleep(0.2)  # processes killed at the very end finish dying
    rusage = children_cpu() - rusage0
    result = {"method": method, "wall_s": round(wall, 2), "cpu_rusage_s": round(rusage, 2)}
    if cgroup0 is not None:
        result["cpu_cgroup_s"] = round(CGROUP.usage_s() - cgroup0 - (own_cpu() - own0), 2)
    result["cpu_s"] = result.get("cpu_cgroup_s", result["cpu_rusage_s"])
    result.update(processes=usage.processes, peak_rss_mib=round(usage.max_rss_kib / 1024, 1))
    return result, details


# ---- comparing -------------------------------------------------------------

def disagreements(salgrade, baseline):
    """[(student, function, salgrade's [passed, total], the baseline's)] where they differ."""
    found = []
    for student in sorted(set(salgrade) | set(baseline)):
        ours, theirs = salgrade.get(student, {}), baseline.get(student, {})
        for fn in FUNCTIONS:
            if ours.get(fn) != theirs.get(fn):
                found.append((student, fn, ours.get(fn), theirs.get(fn)))
    return found


def ratio(a, b):
    return round(a / b, 2) if b else None


# ---- main ----------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--students", default="20,100,200,400",
                   help="sizes of the mixed cohorts, comma-separated (default 20,100,200,400)")
    p.add_argument("--quick", action="store_true",
                   help="a smoke test: the 20-student cohorts only (overrides --students)")
    p.add_argument("--jobs", type=int, default=2,
                   help="students at once for the baseline and the limit (default 2); "
                        "salgrade keeps its own default (the number of cores)")
    p.add_argument("--salgrade", default=os.path.join(REPO, "target", "release", "salgrade"),
                   help="the salgrade binary (default target/release/salgrade)")
    p.add_argument("--seed", type=int, default=1, help="the case file's seed (default 1)")
    p.add_argument("--cases", type=int, default=30,
                   help="random cases per function for `salgrade gen` (default 30: 120 random "
                        "cases on top of the fixed edge cases)")
    p.add_argument("--methods", default=",".join(METHODS),
                   help="which of salgrade,baseline,limit to run (default all three)")
    p.add_argument("--pytest-timeout", type=float, default=1.0,
                   help="pytest-timeout's limit per test in seconds (default 1)")
    p.add_argument("--limit-deadline-ms", type=int, default=300,
                   help="the limit's deadline per call, salgrade's floor (default 300)")
    p.add_argument("--student-limit-s", type=float, default=1800.0,
                   help="kill any one baseline or limit process after this long (default 1800)")
    p.add_argument("--python", default=sys.executable,
                   help="the interpreter for the limit (default: the one running this script)")
    p.add_argument("--work", default=os.path.join(BENCH, "work"),
                   help="folder for cohorts, the case file and logs (default bench/work)")
    p.add_argument("--results", default=BENCH,
                   help="folder for results.json and results.md (default bench/)")
    args = p.parse_args(argv)
    args.sizes = [20] if args.quick else sorted({int(s) for s in args.students.split(",") if s.strip()})
    args.methods = [m for m in METHODS if m in args.methods.split(",")]
    if not os.access(args.salgrade, os.X_OK):
        p.error(f"no salgrade binary at {args.salgrade}: run `cargo build --release` first, or pass --salgrade")
    args.salgrade = os.path.abspath(args.salgrade)
    return args


def main(argv=None):
    global CGROUP
    args = parse_args(argv)
    CGROUP = CgroupCpu()
    try:
        return benchmark(args)
    finally:
        CGROUP.close()


def benchmark(args):
    args.venv_python = ensure_venv() if "baseline" in args.methods else None
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    cases_path = os.path.join(work, "cases.json")
    cases = generate_cases(args.salgrade, cases_path, args.seed, args.cases)
    totals = {fn: sum(1 for c in cases if c["function"] == fn) for fn in FUNCTIONS}
    looping_cases = sum(1 for c in cases
                        if c["function"] == "willfinish" and c["expected"]["one_of"] == [False])
    course = course_folder(work)
    cohorts = plan_cohorts(work, args.sizes)
    # Two one-student cohorts for the cost of a looping case: a student whose
    # willfinish loops, and the same code with a correct willfinish.
    single = [("one loop", 1, write_cohort(work, "one-loop", [("loop", "loop_willfinish")])),
              ("one correct", 1, write_cohort(work, "one-correct", [("correct", "correct")]))]

    log(f"CPU time from {cpu_source()}")
    log(f"{len(cases)} cases (seed {args.seed}, --cases {args.cases}): "
        + ", ".join(f"{fn} {n}" for fn, n in totals.items())
        + f"; {looping_cases} willfinish cases loop forever in loop_willfinish")

    runs, agreement, rule_notes = [], [], []
    failed = False
    for kind, size, cohort in cohorts + single:
        out = os.path.join(work, "results", cohort["name"])
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        seen = {}
        for method in args.methods:
            log(f"[{cohort['name']}] {method} ...")
            if method == "salgrade":
                result, seen[method] = measure(method, lambda: run_salgrade(args, cohort, cases_path, out))
            elif method == "baseline":
                result, seen[method] = measure(method, lambda: run_baseline(args, cohort, cases_path, course, out, totals))
            else:
                result, seen[method] = measure(method, lambda: run_limit(args, cohort, cases_path, course, out, len(cases)))
            result.update(cohort=cohort["name"], kind=kind, students=size)
            runs.append(result)
            log(f"[{cohort['name']}] {method}: {result['wall_s']} s wall, {result['cpu_s']} s CPU")
        if "salgrade" in seen and "baseline" in seen:
            diff = disagreements(seen["salgrade"]["passes"], seen["baseline"]["passes"])
            agreement.append({"cohort": cohort["name"], "students": size,
                              "disagreements": [
                                  {"student": s, "fixture": cohort["students"].get(s, {}).get("fixture"),
                                   "function": fn, "salgrade": a, "baseline": b}
                                  for s, fn, a, b in diff]})
            failed |= bool(diff)
            for student in sorted(cohort["students"]):
                a = seen["salgrade"]["rules"].get(student)
                b = seen["baseline"]["rules"].get(student)
                if a != b:
                    rule_notes.append({"cohort": cohort["name"], "student": student,
                                       "salgrade": a, "baseline": b})
        with open(os.path.join(out, "details.json"), "w", encoding="utf-8") as f:
            json.dump({"cohort": cohort, "results": seen}, f, indent=1, default=str)

    loop_cost = looping_cost(runs, looping_cases)
    summary = summarize(runs)
    results = {
        "issue": 15,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "versions": tool_versions(args.venv_python, args.salgrade),
        "settings": {"cpu_source": cpu_source(), "seed": args.seed, "cases_per_function": args.cases, "case_count": len(cases),
                     "cases_by_function": totals, "looping_cases": looping_cases, "jobs": args.jobs,
                     "salgrade_jobs": "default (number of cores)", "pytest_timeout_s": args.pytest_timeout,
                     "limit_deadline_ms": args.limit_deadline_ms, "memory_mb": MEMORY_MB,
                     "mix": {bucket: {"percent": pct, "fixtures": list(fx)} for bucket, pct, fx in MIX}},
        "runs": runs,
        "summary": summary,
        "looping_case_cost": loop_cost,
        "agreement": agreement,
        "container_rule_differences": rule_notes,
        "agree": not failed,
    }
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, "results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    markdown = render_markdown(results)
    with open(os.path.join(args.results, "results.md"), "w", encoding="utf-8") as f:
        f.write(markdown)
    print(markdown)
    if failed:
        print("FAIL: salgrade and the baseline disagree on passes per function:")
        for a in agreement:
            for d in a["disagreements"]:
                print(f"  {a['cohort']}: {d['student']} ({d['fixture']}) {d['function']}: "
                      f"salgrade {fmt_pass(d['salgrade'])}, baseline {fmt_pass(d['baseline'])}")
        return 1
    return 0


def fmt_pass(p):
    return "missing" if p is None else f"{p[0]}/{p[1]}"


def summarize(runs):
    """Per cohort: each method's figures side by side, with the ratios."""
    rows = {}
    for r in runs:
        row = rows.setdefault(r["cohort"], {"cohort": r["cohort"], "kind": r["kind"], "students": r["students"]})
        row[r["method"]] = {k: r[k] for k in ("wall_s", "cpu_s", "peak_rss_mib", "processes")}
    for row in rows.values():
        s, b, l = row.get("salgrade"), row.get("baseline"), row.get("limit")
        if s and l:
            row["salgrade_over_limit_wall"] = ratio(s["wall_s"], l["wall_s"])
            row["salgrade_over_limit_cpu"] = ratio(s["cpu_s"], l["cpu_s"])
        if s and b:
            row["baseline_over_salgrade_wall"] = ratio(b["wall_s"], s["wall_s"])
            row["baseline_over_salgrade_cpu"] = ratio(b["cpu_s"], s["cpu_s"])
    return list(rows.values())


def looping_cost(runs, looping_cases):
    """Seconds per looping case: the one-loop student's wall time divided by
    its looping cases, and the same after subtracting a correct student's run."""
    by = {(r["cohort"], r["method"]): r for r in runs}
    cost = {}
    for method in METHODS:
        loop, correct = by.get(("one-loop", method)), by.get(("one-correct", method))
        if loop and looping_cases:
            cost[method] = {"per_looping_case_s": round(loop["wall_s"] / looping_cases, 3)}
            if correct:
                cost[method]["marginal_per_looping_case_s"] = round(
                    (loop["wall_s"] - correct["wall_s"]) / looping_cases, 3)
    return cost


def render_markdown(results):
    st = results["settings"]
    cpu = results["machine"]["cpu_model"]
    lines = [
        f"Benchmark of issue 15 ({results['date']}, {results['machine']['cpus']} CPUs"
        f"{', ' + cpu if cpu else ''}): {st['case_count']} cases per student "
        f"(`salgrade gen --seed {st['seed']} --cases {st['cases_per_function']}`); the baseline and "
        f"the limit grade {st['jobs']} students at once, salgrade uses its default `--jobs`. "
        f"Seconds of wall time and of CPU (all child processes; {st['cpu_source']}); peak RSS in MiB "
        "(salgrade: its own process; baseline and limit: their largest process).",
        "",
        "| cohort | students | salgrade wall | salgrade CPU | baseline wall | baseline CPU "
        "| limit wall | limit CPU | salgrade / limit | baseline / salgrade "
        "| salgrade RSS | baseline RSS | limit RSS |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def cell(row, method, key):
        v = row.get(method, {}).get(key)
        return "" if v is None else f"{v:g}"

    for row in results["summary"]:
        ratios = [row.get("salgrade_over_limit_wall"), row.get("baseline_over_salgrade_wall")]
        lines.append("| " + " | ".join([
            row["cohort"], str(row["students"]),
            cell(row, "salgrade", "wall_s"), cell(row, "salgrade", "cpu_s"),
            cell(row, "baseline", "wall_s"), cell(row, "baseline", "cpu_s"),
            cell(row, "limit", "wall_s"), cell(row, "limit", "cpu_s"),
            *("" if v is None else f"{v:g}" for v in ratios),
            cell(row, "salgrade", "peak_rss_mib"), cell(row, "baseline", "peak_rss_mib"),
            cell(row, "limit", "peak_rss_mib"),
        ]) + " |")
    lines.append("")
    lines.append("The ratios are of wall time; results.json has the CPU ratios too.")
    peaks = [r["peak_rss_mib"] for r in results["runs"] if r["method"] == "salgrade"]
    if peaks:
        lines.append(f"salgrade's own peak RSS, largest of all runs: {max(peaks):g} MiB.")
    lines.append("")
    cost = results["looping_case_cost"]
    if cost:
        parts = []
        for method, c in cost.items():
            text = f"{method} {c['per_looping_case_s']:g} s"
            if "marginal_per_looping_case_s" in c:
                text += f" ({c['marginal_per_looping_case_s']:g} s beyond a correct student's run)"
            parts.append(text)
        lines.append(f"A looping case (`loop_willfinish`, {st['looping_cases']} looping `willfinish` cases, "
                     "one-student run): " + "; ".join(parts) + ".")
        lines.append("")
    mix = ", ".join(f"{v['percent']}% {k} ({', '.join(v['fixtures'])})" for k, v in st["mix"].items())
    lines.append(f"Cohort mix: {mix}; `correct-020` holds correct variants only.")
    lines.append("")
    if results["agreement"]:
        bad = sum(len(a["disagreements"]) for a in results["agreement"])
        checked = ", ".join(a["cohort"] for a in results["agreement"])
        lines.append(f"Passes per student and function, salgrade against the baseline ({checked}): "
                     + ("identical." if not bad else f"{bad} disagreement(s), see results.json."))
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
