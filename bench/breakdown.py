#!/usr/bin/env python3
"""Where a case's time goes, for one correct A48 student.

Measures each part on its own and prints a Markdown table for docs/performance.md:

* inside the student's process, per case (the driver's own functions,
  in-process, no protocol): building the input lists, the student's call,
  the checks on the result (`changed`, `describe`), and the JSON of the
  protocol on the driver's side; and once per student, the rule check;
* from outside, with salgrade itself: a process start (a one-case `check`,
  which starts the model and the student, less a `lint`, which starts
  one), a case (a whole `check` less a one-case one), the protocol and
  judging (a case less the parts inside), and shrinking (`check` of
  `wrong_answer` with and without `--shrink-ms 0`).

    python3 bench/breakdown.py [--salgrade PATH] [--runs 5]
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures/submissions"


def best_of(runs, command):
    """The shortest wall time of `runs` runs of `command` (seconds)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            sys.exit(f"{command}: exit {done.returncode}: {done.stderr.decode()[-400:]}")
    return min(times)


def in_process(cases, workdir):
    """Per-case seconds of each part inside the student's process."""
    sys.path.insert(0, str(workdir))
    import _salgrade_adapter as adapter
    import _salgrade_driver as driver
    import _salgrade_lint as lint
    import salbLLfunctions as module

    parts = {"build": 0.0, "call": 0.0, "checks": 0.0, "json": 0.0}
    clock = time.perf_counter
    lines = [json.dumps({"type": "call", "case": case["id"], "function": case["function"],
                         "input": case["input"]}) for case in cases]
    for case, line in zip(cases, lines):
        t0 = clock()
        request = json.loads(line)
        t1 = clock()
        args, state = adapter.prepare(request["function"], request["input"])
        t2 = clock()
        result = getattr(module, request["function"])(*args)
        t3 = clock()
        changed = adapter.changed(request["function"], request["input"], state)
        answer = adapter.describe(request["function"], request["input"], result, state)
        t4 = clock()
        json.dumps({"type": "result", "case": case["id"],
                    "outcome": {"kind": "returned", "answer": answer},
                    "cpu_ms": 0.0, "input_changed": changed}, separators=(",", ":"))
        t5 = clock()
        parts["json"] += (t1 - t0) + (t5 - t4)
        parts["build"] += t2 - t1
        parts["call"] += t3 - t2
        parts["checks"] += t4 - t3
    per_case = {k: v / len(cases) for k, v in parts.items()}
    start = clock()
    lint.check({"file": str(workdir / "salbLLfunctions.py"),
                "checked": ["willfinish", "whowins", "dualboard"], "exempt": ["salb2salbLL"]})
    rule_check = clock() - start
    del driver
    return per_case, rule_check


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--salgrade", default=str(ROOT / "target/release/salgrade"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--markdown", help="also write the table here")
    args = parser.parse_args()
    salgrade = args.salgrade
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cases_file = tmp / "cases.json"
        subprocess.run([salgrade, "gen", "--seed", "1", "--cases", "30", "-o", str(cases_file)],
                       check=True, capture_output=True)
        cases = json.loads(cases_file.read_text())["cases"]
        # The files a session holds, as salgrade writes them.
        work = tmp / "session"
        work.mkdir()
        for name, source in [
            ("_salgrade_driver.py", ROOT / "src/runner/driver.py"),
            ("_salgrade_lint.py", ROOT / "src/runner/lint.py"),
            ("_salgrade_adapter.py", ROOT / "src/assignment/a48/adapter.py"),
            ("_salgrade_values.py", ROOT / "src/assignment/values.py"),
            ("salbLLfunctions.py", FIXTURES / "correct/salbLLfunctions.py"),
        ]:
            (work / name).write_text(source.read_text())
        for course in ("salbnode.py", "salboard.py"):  # the course's API, not its model
            (work / course).write_text((ROOT / "reference/python/a48" / course).read_text())
        per_case, rule_check = in_process(cases, work)

        correct = str(FIXTURES / "correct/salbLLfunctions.py")
        wrong = str(FIXTURES / "wrong_answer/salbLLfunctions.py")
        # The interpreter itself, so a pyenv shim's cost is measured apart.
        real = subprocess.run(["python3", "-c", "import sys; print(sys.executable)"],
                              capture_output=True, text=True).stdout.strip()
        one_case = tmp / "one.json"
        whole = json.loads(cases_file.read_text())
        whole["cases"] = whole["cases"][:1]
        one_case.write_text(json.dumps(whole))
        check = [salgrade, "check", "--python", real]
        lint_shim = best_of(args.runs, [salgrade, "lint", correct])
        lint_real = best_of(args.runs, [salgrade, "lint", "--python", real, correct])
        check_one = best_of(args.runs, check + ["--cases-file", str(one_case), "--shrink-ms", "0",
                                                correct])
        check_all = best_of(args.runs, check + ["--cases-file", str(cases_file), "--shrink-ms", "0",
                                                correct])
        shrink_on = best_of(args.runs, check + ["--cases-file", str(cases_file), wrong])
        shrink_off = best_of(args.runs, check + ["--cases-file", str(cases_file), "--shrink-ms", "0",
                                                 wrong])

    n = len(cases)
    python_per_case = sum(per_case.values())
    # `lint` is set-up, a start and the rule check; a one-case `check` is
    # set-up, two starts (calibration, student), the rule check, two cases.
    start_cost = check_one - lint_real
    per_case_total = (check_all - check_one) / (2 * (n - 1))
    harness_per_case = max(per_case_total - python_per_case, 0.0)
    rows = [
        ("resolving `python3` (a pyenv shim here) beyond the sandbox probe it runs beside",
         f"{max(lint_shim - lint_real, 0.0) * 1000:.0f} ms per run",
         "`lint` with and without `--python` the interpreter itself"),
        ("process start (sandbox and Python, to `ready`)", f"{start_cost * 1000:.1f} ms per student",
         "a one-case `check` less a `lint`"),
        ("calibration (the model solution on every case)",
         f"{(start_cost + n * per_case_total) * 1000:.0f} ms per run",
         "a start plus every case, once per run"),
        ("the rule check (in the driver, before the import)", f"{rule_check * 1000:.1f} ms per student",
         "`lint.check` in-process"),
        ("building the input lists in Python", f"{per_case['build'] * 1e6:.0f} µs per case",
         "the adapter's `prepare`, in-process"),
        ("the student's call (`correct`)", f"{per_case['call'] * 1e6:.0f} µs per case", "in-process"),
        ("checking the result in Python (`changed`, `describe`)", f"{per_case['checks'] * 1e6:.0f} µs per case",
         "in-process"),
        ("the protocol's JSON on the driver's side", f"{per_case['json'] * 1e6:.0f} µs per case", "in-process"),
        ("the protocol's pipes and threads, and judging in Rust, beyond what runs beside the "
         "driver (each request is queued behind the one before)",
         f"{harness_per_case * 1e6:.0f} µs per case",
         "a whole `check` less a one-case `check`, per case, less the parts above"),
        ("all of a case", f"{per_case_total * 1e6:.0f} µs per case", "the same, without subtracting"),
        ("shrinking (`wrong_answer`, two functions)",
         f"{max(shrink_on - shrink_off, 0.0) * 1000:.0f} ms per failing student",
         "`check` with and without `--shrink-ms 0`"),
    ]
    lines = [f"{n} cases (`gen --seed 1 --cases 30`), best of {args.runs} runs:", "",
             "| part | cost | measured by |", "|---|---:|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
