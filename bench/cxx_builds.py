#!/usr/bin/env python3
"""Benchmark for issue 27's C++ half: a 40-student C++ cohort built whole
(every student compiles <bits/stdc++.h> and salgrade's driver, as before)
and against the precompiled prelude, side by side in one run.

    cargo build --release
    python3 bench/cxx_builds.py               # 20 min-throws + 20 leetcode909 students
    python3 bench/cxx_builds.py --cases 4     # fewer random cases per function

The cohort is made from the C++ fixture submissions (fixtures/<assignment>/cpp/)
and leetcode909's naive reference, mixed correct and wrong (MIX below), each
file the fixture's plus a unique comment. Each assignment's cohort is graded
three ways with `salgrade grade` (default settings otherwise):

  whole   --cxx-prelude off: every build compiles everything, as before;
  cold    --cxx-prelude cached with an empty cache: the prelude is compiled
          once in the run, then every student is built against it;
  warm    the same again: the prelude comes from the cache.

Figures, per mode and summed over both assignments: the cohort's wall
seconds; the build seconds per student (wall time of each student's build in
its slot, from salgrade's build log, SALGRADE_BUILD_LOG); the builds' total
(students, the model and the naive solution, and the prelude's compilation
once); and the speed-up against `whole`. The machine's load is what it is:
the load average is printed beside the figures. It exits 1 if a mode's
verdicts differ from `whole`'s for any student. Writes bench/cxx_builds.json
and bench/cxx_builds.md. Python 3 standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
FIXTURES = os.path.join(REPO, "fixtures")

# Per assignment: the student's file name and (source, copies) in cohort
# order; a source is a fixture folder under fixtures/<assignment>/cpp/ or a
# path from the repository's root.
MIX = {
    "min-throws": ("min_throws.cpp", (
        ("correct", 6),
        ("correct_with_main", 2),
        ("queue_without_include", 2),
        ("prints_stdout", 1),
        ("reads_stdin", 1),
        ("last_dequeued", 4),
        ("uncaught_exception", 2),
        ("wrong_signature", 1),
        ("syntax_error", 1),
    )),
    "leetcode909": ("solution.cpp", (
        ("correct_leetcode_style", 10),
        ("reference/cpp/leetcode909/naive/solution.cpp", 2),
        ("rows_left_to_right", 6),
        ("no_class", 2),
    )),
}
MODES = ("whole", "cold", "warm")


def log(message):
    print(message, file=sys.stderr, flush=True)


def source_path(assignment, source, file_name):
    if "/" in source:
        return os.path.join(REPO, source)
    return os.path.join(FIXTURES, assignment, "cpp", source, file_name)


def make_cohort(work, assignment):
    file_name, mix = MIX[assignment]
    folder = os.path.join(work, "cohort-" + assignment)
    shutil.rmtree(folder, ignore_errors=True)
    n = 0
    for source, copies in mix:
        with open(source_path(assignment, source, file_name)) as f:
            text = f.read()
        label = os.path.basename(os.path.dirname(source)) if "/" in source else source
        for _ in range(copies):
            n += 1
            student = os.path.join(folder, f"s{n:02d}_{label}")
            os.makedirs(student)
            with open(os.path.join(student, file_name), "w") as f:
                f.write(text + f"\n// bench student {n}\n")
    return folder, n


def grade(salgrade, assignment, cohort, out, mode, cache, build_log, args):
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = cache
    env["SALGRADE_BUILD_LOG"] = build_log
    env["SALGRADE_CXX_PRELUDE"] = "off" if mode == "whole" else "cached"
    env.pop("SALGRADE_JOBS", None)
    cmd = [salgrade, "grade", "--assignment", assignment, "--out-dir", out,
           "--format", "json", "-o", os.path.join(out, "stdout.json")]
    if args.cases is not None:
        cmd += ["--cases", str(args.cases)]
    if args.jobs is not None:
        cmd += ["--jobs", str(args.jobs)]
    cmd.append(cohort)
    load = os.getloadavg()[0]
    start = time.monotonic()
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    if run.returncode not in (0, 1):
        log(run.stderr)
        raise SystemExit(f"salgrade grade failed ({run.returncode}) in mode {mode}")
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    return wall, load, report


def verdicts(report):
    return {s["student"]: [(c["case_id"], c["verdict"], c.get("detail")) for c in s["cases"]]
            for s in report["students"]}


def read_log(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def differ_preview(reports):
    return [k for k in reports if k[1] != "whole" and reports[k] != reports[(k[0], "whole")]]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--salgrade", default=os.path.join(REPO, "target", "release", "salgrade"))
    p.add_argument("--cases", type=int, default=None, help="random cases per function (default: salgrade's)")
    p.add_argument("--jobs", type=int, default=None, help="students at once (default: salgrade's)")
    p.add_argument("--work", default=os.path.join(BENCH, "work", "cxx"))
    args = p.parse_args()
    if not os.path.exists(args.salgrade):
        p.error(f"no salgrade binary at {args.salgrade}: run `cargo build --release` first, or pass --salgrade")
    os.makedirs(args.work, exist_ok=True)
    cache = tempfile.mkdtemp(prefix="cache-", dir=args.work)
    results = {"modes": {}, "cohort": {}, "cpus": os.cpu_count()}
    reports = {}
    try:
        for assignment in MIX:
            cohort, n = make_cohort(args.work, assignment)
            results["cohort"][assignment] = n
            for mode in MODES:
                out = os.path.join(args.work, f"out-{assignment}-{mode}")
                shutil.rmtree(out, ignore_errors=True)
                os.makedirs(out)
                build_log = os.path.join(out, "builds.jsonl")
                log(f"{assignment}: {n} students, {mode} ...")
                wall, load, report = grade(args.salgrade, assignment, cohort, out, mode, cache,
                                           build_log, args)
                entries = read_log(build_log)
                builds = [e for e in entries if "build" in e]
                preludes = [e for e in entries if "prelude" in e]
                # The model and the naive solution are built first, during
                # calibration; the rest are the students'.
                students = builds[-n:]
                r = results["modes"].setdefault(mode, {"wall": 0.0, "student_builds": [], "prelude_builds": [], "all_builds": 0.0,
                                                       "prelude": 0.0, "loads": [], "how": {}})
                r["wall"] += wall
                r["student_builds"] += [e["seconds"] for e in students]
                r["prelude_builds"] += [e["seconds"] for e in students if e["how"] == "prelude"]
                r["all_builds"] += sum(e["seconds"] for e in builds)
                r["prelude"] += sum(e["seconds"] for e in preludes)
                r["loads"].append(load)
                for e in builds:
                    r["how"][e["how"]] = r["how"].get(e["how"], 0) + 1
                reports[(assignment, mode)] = verdicts(report)
                log(f"  {wall:.1f} s wall, {len(builds)} builds, load {load:.1f}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    differ = []
    for assignment in MIX:
        for mode in MODES[1:]:
            if reports[(assignment, mode)] != reports[(assignment, "whole")]:
                differ.append(f"{assignment} {mode}")
    base = results["modes"]["whole"]
    lines = [
        "| mode | cohort wall s | build s per student: mean | median | max | against the prelude: mean | builds' total s (with the prelude's) | prelude s | × faster (wall) | × faster (builds) | load avg | builds (how) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for mode in MODES:
        r = results["modes"][mode]
        per = r["student_builds"]
        mean = sum(per) / len(per)
        median = sorted(per)[len(per) // 2]
        fast = r["prelude_builds"]
        fast_mean = f"{sum(fast) / len(fast):.2f}" if fast else "-"
        r["median_student_build"] = median
        total = r["all_builds"] + r["prelude"]
        r["mean_student_build"] = mean
        r["total_build"] = total
        lines.append(
            f"| {mode} | {r['wall']:.1f} | {mean:.2f} | {median:.2f} | {max(per):.2f} | {fast_mean} | {total:.1f} | {r['prelude']:.1f} | "
            f"{base['wall'] / r['wall']:.2f} | {(base['all_builds'] + base['prelude']) / total:.2f} | "
            f"{', '.join(f'{x:.1f}' for x in r['loads'])} | "
            f"{', '.join(f'{k} {v}' for k, v in sorted(r['how'].items()))} |")
    total_students = sum(results["cohort"].values())
    header = (f"{total_students} C++ students ({', '.join(f'{a} {n}' for a, n in results['cohort'].items())}), "
              f"{results['cpus']} cores, `--cases {args.cases if args.cases is not None else 'default'}`")
    footer = ("Build seconds are wall time in the build's slot (two students at once), so they include "
              "waiting for the CPU; `against the prelude` leaves out the students built whole (those "
              "whose build fails against the prelude, which then compile everything, as before). "
              "Verdicts: " + ("identical in every mode." if not differ_preview(reports) else "DIFFER."))
    table = header + "\n\n" + "\n".join(lines) + "\n\n" + footer
    print(table)
    results["verdicts_differ"] = differ
    with open(os.path.join(BENCH, "cxx_builds.json"), "w") as f:
        json.dump(results, f, indent=2)
    with open(os.path.join(BENCH, "cxx_builds.md"), "w") as f:
        f.write(table + "\n")
    if differ:
        log("verdicts differ from the whole builds': " + "; ".join(differ))
        return 1
    log("verdicts: identical in every mode")
    return 0


if __name__ == "__main__":
    sys.exit(main())
