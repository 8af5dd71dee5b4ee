#!/usr/bin/env python3
"""Before and after each optimisation: salgrade at several commits, on the
benchmark's 20-student cohorts (`run.py --quick --methods salgrade`).

Each commit is checked out in a temporary git worktree and built with
`cargo build --release` (one shared target folder, so only salgrade itself
is rebuilt); then `run.py` grades the same cohorts with each binary in turn.

    python3 bench/steps.py BEFORE:label COMMIT:label ... [--runs 3]

writes bench/steps.md (a Markdown table) and bench/steps.json.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "bench/work"


def build(commit, target):
    """The release binary of `commit`, copied out of the shared target."""
    out = WORK / "steps" / f"salgrade-{commit}"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tree:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", tree, commit],
                       check=True, capture_output=True)
        try:
            subprocess.run(["cargo", "build", "--release", "--locked", "-q", "--bin", "salgrade"],
                           cwd=tree, check=True, env={**__import__("os").environ,
                                                      "CARGO_TARGET_DIR": str(target)})
            shutil.copy(target / "release/salgrade", out)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", tree],
                           capture_output=True)
    return out


def measure(binary, runs):
    """salgrade's figures on the quick cohorts, best of `runs`."""
    best = {}
    for run in range(runs):
        results = WORK / "steps" / f"results-{binary.name}-{run}"
        results.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(ROOT / "bench/run.py"), "--quick", "--methods",
                        "salgrade", "--salgrade", str(binary), "--results", str(results)],
                       check=True, capture_output=True)
        data = json.loads((results / "results.json").read_text())
        for row in data["summary"]:
            name = row["cohort"]
            wall = row["salgrade"]["wall_s"]
            best[name] = min(best.get(name, wall), wall)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("steps", nargs="+", help="COMMIT:label, oldest first")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    target = WORK / "steps-target"
    rows = []
    for step in args.steps:
        commit, _, label = step.partition(":")
        binary = build(commit, target)
        figures = measure(binary, args.runs)
        loops = figures.get("one-loop", 0.0) - figures.get("one-correct", 0.0)
        rows.append({"commit": commit, "label": label or commit, **figures,
                     "per_looping_case_s": round(loops / 33, 3)})
        print(rows[-1], flush=True)
    lines = [f"salgrade alone, best of {args.runs} runs of `run.py --quick --methods salgrade`, "
             "wall seconds:", "",
             "| step | commit | correct-020 | mixed-020 | one looping case |",
             "|---|---|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['label']} | `{r['commit'][:7]}` | {r.get('correct-020', 0):.2f} | "
                     f"{r.get('mixed-020', 0):.2f} | {r['per_looping_case_s'] * 1000:.0f} ms |")
    (ROOT / "bench/steps.md").write_text("\n".join(lines) + "\n")
    (ROOT / "bench/steps.json").write_text(json.dumps(rows, indent=2) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
