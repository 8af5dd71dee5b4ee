#!/usr/bin/env python3
"""Where a mixed cohort's time goes: each fixture of the cohort mix graded
on the benchmark's case file in a folder of 1 copy and of 1 + COPIES copies
(`grade --jobs 1`, best of ROUNDS runs each); the difference over COPIES is
one student's own wall time, without the run's fixed cost (calibration,
set-up), which the 1-copy runs give. Its share of a mixed cohort of SIZE
students is students of that fixture x that time, over the sum (a one-slot
estimate: the real run grades `--jobs` students at once).

    python3 bench/shares.py [--salgrade PATH] [--size 100] [--rounds 3] [-o bench/shares.md]

Needs the case file of a `run.py` run (bench/work/cases.json).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the cohort mix and the fixture folders)


COPIES = 4


def timed(binary, folder, cases):
    start = time.perf_counter()
    # A report file of its own: salgrade before 2026-11-24 replaced a
    # non-regular `-o` target (`/dev/null` itself) with a regular file.
    subprocess.run([binary, "grade", folder, "--cases-file", cases, "--jobs", "1",
                    "--format", "json", "-o", folder + ".json"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--salgrade", default=os.path.join(run.REPO, "target", "release", "salgrade"))
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", default=os.path.join(run.BENCH, "work", "cases.json"))
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    counts = run.mix_counts(args.size)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        per_fixture, runs = {}, []
        for bucket, _, folders in run.MIX:
            for name in folders:
                times = []
                for copies in (1, 1 + COPIES):
                    folder = os.path.join(work, f"{name}-{copies}")
                    for i in range(copies):
                        shutil.copytree(os.path.join(run.FIXTURES, name),
                                        os.path.join(folder, f"{name}{i}"))
                    times.append(min(timed(args.salgrade, folder, args.cases)
                                     for _ in range(args.rounds)))
                runs.append(times[0])
                per_fixture[name] = max(0.0, (times[1] - times[0]) / COPIES)
        for bucket, percent, folders in run.MIX:
            students = counts[bucket]
            for i, name in enumerate(folders):
                # Folders of a bucket take turns.
                n = students // len(folders) + (1 if i < students % len(folders) else 0)
                rows.append((bucket, name, n, per_fixture[name]))
    fixed = min(runs) - min(per_fixture.values())
    total = sum(n * t for _, _, n, t in rows)
    lines = [f"Each fixture's own wall time per student (`--jobs 1`, best of {args.rounds}), and its share of a "
             f"{args.size}-student mixed cohort, one slot; a run's fixed cost "
             f"(calibration, set-up) is about {fixed:.2f} s.", "",
             "| bucket | fixture | students | one student, s | share of the cohort |",
             "|---|---|---:|---:|---:|"]
    for bucket, name, n, t in rows:
        lines.append(f"| {bucket} | `{name}` | {n} | {t:.2f} | {100 * n * t / total:.1f}% |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
