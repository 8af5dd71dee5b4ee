"""The LIMIT: the least any grader must do for one student. It imports the
student's file and calls every case of the case file once, building each
case's input, and checks nothing. A call that runs past the deadline (salgrade's
shortest, 300 ms) is interrupted by SIGALRM, as any grader must stop a loop.

    python3 limit_driver.py CASES STUDENT_DIR COURSE_DIR PROGRESS [DEADLINE_MS]

Before each call it appends the case's index to PROGRESS, and at the end
"hwm KIB" (its peak RSS) and "done"; if the student's code ends the process
(`os._exit`), run.py starts it again after the case that killed it (the
environment's A48_START).
The process's address space is limited like salgrade's (A48_MEMORY_MB).
"""

import importlib.util
import json
import os
import resource
import signal
import sys


class Deadline(BaseException):
    """Raised by SIGALRM inside the student's code; BaseException so that a
    student's `except Exception:` does not swallow it."""


def on_alarm(signum, frame):
    raise Deadline()


def build_list(board, node_class):
    squares = board["squares"]
    nodes = [node_class() for _ in range(squares)]
    for i in range(squares):
        nodes[i].next = nodes[(i + 1) % squares]
    for source, destination in board["snadders"]:
        nodes[source - 1].snadder = nodes[destination - 1]
    return nodes


def main():
    cases_path, student_dir, course_dir, progress_path = sys.argv[1:5]
    deadline = (int(sys.argv[5]) if len(sys.argv) > 5 else 300) / 1000.0
    start = int(os.environ.get("A48_START", "0"))
    memory_mb = int(os.environ.get("A48_MEMORY_MB", "0"))
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    with open(cases_path, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    progress = open(progress_path, "a", encoding="utf-8", buffering=1)

    sys.path[:0] = [course_dir, student_dir]
    from salbnode import SALBnode
    from salboard import SALboard
    signal.signal(signal.SIGALRM, on_alarm)
    try:
        spec = importlib.util.spec_from_file_location(
            "salbLLfunctions", os.path.join(student_dir, "salbLLfunctions.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules["salbLLfunctions"] = module
        spec.loader.exec_module(module)
    except BaseException:
        finish(progress)  # nothing can be called
        return

    for index in range(start, len(cases)):
        case = cases[index]
        progress.write(f"{index}\n")
        board = case["input"]["board"]
        try:
            fn = getattr(module, case["function"])
            if case["function"] == "salb2salbLL":
                first = SALboard(board["squares"], {s: d for s, d in board["snadders"]})
            else:
                first = build_list(board, SALBnode)[0]
            signal.setitimer(signal.ITIMER_REAL, deadline)
            try:
                fn(first, *case["input"]["args"])
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException:
            pass  # no checks: an exception is as good as an answer here
    finish(progress)


def finish(progress):
    """Reports this process's own peak RSS (VmHWM; getrusage's ru_maxrss
    would count the RSS of the process that started this one), then "done"."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                progress.write(f"hwm {line.split()[1]}\n")
    progress.write("done\n")


if __name__ == "__main__":
    main()
