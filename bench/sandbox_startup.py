#!/usr/bin/env python3
"""Start-up cost of a student process under each sandbox backend.

Grades the same cohort of N copies of a correct submission, one student at
a time (`--jobs 1`), under `none`, `rlimit`, `namespaces` and `bwrap` (where
it works), best of R runs each. Every student is one process start and the
same cases, so the difference between two backends' times, divided by N, is
the difference in start-up cost per student process.

    python3 bench/sandbox_startup.py [--students 40] [--runs 3] [--salgrade PATH]

It writes the table to bench/startup.md for docs/performance.md.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cohort(where: Path, n: int) -> Path:
    source = ROOT / "fixtures/submissions/correct/salbLLfunctions.py"
    subs = where / "subs"
    for i in range(n):
        d = subs / f"s{i:03}"
        d.mkdir(parents=True)
        shutil.copy(source, d / "salbLLfunctions.py")
    return subs


def grade(salgrade: str, subs: Path, sandbox: str, out: Path) -> float:
    command = [salgrade, "grade", str(subs), "--sandbox", sandbox, "--jobs", "1",
               "--cases", "0", "--shrink-ms", "0", "--format", "json", "--out-dir", str(out)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{sandbox}: salgrade exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--salgrade", default=str(ROOT / "target/release/salgrade"))
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    if not Path(args.salgrade).exists():
        sys.exit(f"{args.salgrade} not found: run `cargo build --release` first")
    backends = ["none", "rlimit", "namespaces"]
    if shutil.which("bwrap"):
        backends.append("bwrap")
    with tempfile.TemporaryDirectory() as tmp:
        subs = cohort(Path(tmp), args.students)
        best = {}
        for run in range(args.runs):
            # Interleaved, so a change in the machine's load hits every backend.
            for b in backends:
                wall = grade(args.salgrade, subs, b, Path(tmp) / f"out-{b}-{run}")
                best[b] = min(best.get(b, wall), wall)
    base = best["none"]
    lines = [f"{args.students} students graded one at a time (`--jobs 1 --cases 0`), best of "
             f"{args.runs} runs:", "",
             "| backend | wall s | ms per student | beyond `none`, ms per process start |",
             "|---|---:|---:|---:|"]
    rows = {}
    for b in backends:
        per = best[b] / args.students * 1000
        extra = (best[b] - base) / args.students * 1000
        rows[b] = {"wall_s": round(best[b], 3), "ms_per_student": round(per, 2),
                   "extra_ms_per_process": round(extra, 2)}
        lines.append(f"| `{b}` | {best[b]:.2f} | {per:.1f} | {extra:.1f} |")
    if "bwrap" in best:
        diff = (best["namespaces"] - best["bwrap"]) / args.students * 1000
        lines += ["", f"`namespaces` against `bwrap`: {diff:+.1f} ms per student process."]
    text = "\n".join(lines) + "\n"
    print(text)
    (ROOT / "bench/startup.md").write_text(text)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
