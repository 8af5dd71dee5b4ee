#!/usr/bin/env python3
"""Two salgrade binaries' verdicts side by side, case by case: each folder of
submissions is graded by both (`grade --shrink-ms 0 --format json`, one
after the other, on one case file that the binary after writes with
`gen --seed 20261123`), and every student's cases are compared by id and verdict.
Prints each difference and a line per folder; exits 1 if any differ.

    python3 bench/verdicts.py BEFORE_BINARY AFTER_BINARY [FOLDER[=ASSIGNMENT] ...]

VERDICTS_ARGS adds arguments to both sides' `grade` (e.g. `--jobs 1`).
Without folders: fixtures/submissions, fixtures/mutants/*, the assignments'
fixtures/*/submissions and fixtures/hostile (Python ones).
"""

import glob
import os
import json
import subprocess
import sys
import tempfile


def grade(binary, folder, assignment, cases_file):
    args = [binary, "grade", folder, "--shrink-ms", "0", "--format", "json",
            "--cases-file", cases_file]
    if assignment:
        args += ["--assignment", assignment]
    args += os.environ.get("VERDICTS_ARGS", "").split()
    with tempfile.TemporaryDirectory() as work:
        run = subprocess.run(args, capture_output=True, cwd=work, timeout=1800)
    try:
        report = json.loads(run.stdout)
    except ValueError:
        return None, run.stderr.decode(errors="replace")[-500:]
    out = {}
    for student in report["students"]:
        cases = {}
        for case in student.get("cases") or []:
            key = case.get("case_id")
            cases[key] = case.get("verdict") if isinstance(case.get("verdict"), str) else json.dumps(case.get("verdict"), sort_keys=True)
        funcs = {k: (v["passed"], v["total"]) for k, v in student["functions"].items()}
        out[student["student"]] = (student.get("score"), funcs, cases)
    return out, None


def main():
    before, after = sys.argv[1], sys.argv[2]
    folders = sys.argv[3:] or (
        ["fixtures/submissions"] + sorted(glob.glob("fixtures/mutants/*"))
        + sorted(glob.glob("fixtures/*/submissions")) + ["fixtures/hostile"])
    differ = 0
    for spec in folders:
        folder, _, assignment = spec.partition("=")
        folder = os.path.abspath(folder)
        if not assignment:
            for name in ("a48", "game", "leetcode909", "min-throws"):
                if "/" + name in folder:
                    assignment = name
        # One case file for both sides, written by the binary after, so a
        # generator that changed between the two cannot make a difference.
        cases_file = os.path.join(tempfile.mkdtemp(), "cases.json")
        subprocess.run([after, "gen", "--assignment", assignment or "a48", "--seed", "20261123",
                        "-o", cases_file], check=True, capture_output=True)
        a, err_a = grade(before, folder, assignment, cases_file)
        b, err_b = grade(after, folder, assignment, cases_file)
        if a is None or b is None:
            print(f"{folder}: no report ({err_a or ''} | {err_b or ''})")
            differ += 1
            continue
        n = 0
        for student in sorted(set(a) | set(b)):
            sa, sb = a.get(student), b.get(student)
            if sa is None or sb is None:
                print(f"  {folder}/{student}: only in one report")
                n += 1
                continue
            if sa[1] != sb[1]:
                print(f"  {folder}/{student}: functions {sa[1]} -> {sb[1]}")
            for case in sorted(set(sa[2]) | set(sb[2])):
                if sa[2].get(case) != sb[2].get(case):
                    print(f"  {folder}/{student} {case}: {sa[2].get(case)} -> {sb[2].get(case)}")
                    n += 1
            if sa[0] != sb[0]:
                print(f"  {folder}/{student}: score {sa[0]} -> {sb[0]}")
                n += 1
        print(f"{folder}: {len(a)} students, {n} differences")
        differ += n
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
