"""A small plugin for the baseline suite: it limits the process's memory as
salgrade does, and writes each test's outcome to a file as soon as it is
known, so that run.py can count passes per function and, when a student's
code kills the pytest process (`os._exit`), start pytest again on the tests
not yet run.

Environment (set by bench/run.py):

    A48_OUTCOMES   the outcome file: lines "start|passed|failed|skipped|crashed <tab> nodeid",
                   then "hwm <tab> peak RSS in KiB" and "finished" when the session
                   ended normally. Tests already in it are deselected, so a second
                   pytest resumes the first.
    A48_MEMORY_MB  address-space limit for this process (salgrade's default is 1024)
"""

import os
import resource

OUTCOMES = os.environ.get("A48_OUTCOMES")
MEMORY_MB = int(os.environ.get("A48_MEMORY_MB", "0"))

if MEMORY_MB > 0:
    limit = MEMORY_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

_log = None


def _write(kind, nodeid=""):
    global _log
    if OUTCOMES is None:
        return
    if _log is None:
        _log = open(OUTCOMES, "a", encoding="utf-8", buffering=1)  # line-buffered
    _log.write(f"{kind}\t{nodeid}\n")


def _already_recorded():
    if OUTCOMES is None or not os.path.exists(OUTCOMES):
        return set()
    done = set()
    with open(OUTCOMES, encoding="utf-8") as f:
        for line in f:
            kind, _, nodeid = line.rstrip("\n").partition("\t")
            if kind not in ("start", "hwm", "finished"):
                done.add(nodeid)
    return done


def pytest_collection_modifyitems(session, config, items):
    done = _already_recorded()
    if not done:
        return
    keep = [item for item in items if item.nodeid not in done]
    dropped = [item for item in items if item.nodeid in done]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def pytest_runtest_logstart(nodeid, location):
    _write("start", nodeid)


def pytest_runtest_logreport(report):
    # One line per phase that decides: the call, or a setup that did not pass,
    # or a teardown that failed (run.py keeps a failure over an earlier pass).
    if report.when == "call" or report.outcome != "passed":
        _write(report.outcome, report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    _write("hwm", str(_peak_rss_kib()))
    _write("finished")


def _peak_rss_kib():
    """This process's own peak RSS (VmHWM). getrusage's ru_maxrss would not do:
    Linux counts in it the RSS of the process that started this one."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
