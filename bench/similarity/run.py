#!/usr/bin/env python3
"""Scores `salgrade similar` (and Dolos, when installed) on the similarity
benchmark, the way the issue's held-out benchmark is scored:

    python3 bench/similarity/generate.py /tmp/simbench
    python3 bench/similarity/run.py /tmp/simbench [--dolos /tmp/dolos] [--salgrade PATH]
    python3 bench/similarity/run.py --scale 1000 [--salgrade PATH]

Each set (folder) is compared on its own; every pair of its files is
labelled a copy (a copy and its original) or not, the pairs of all sets
pooled. A pair a tool does not list scores 0. For each disguise level
(the copies of that level against every pair that is not a copy) and for
all copies together: recall at precision 0.9 (the most copies found at any
threshold whose flagged pairs are at least 90% copies), ROC AUC (ties
count a half) and average precision. Time is the wall time of each run,
summed over the sets.

Dolos: `npm install @dodona/dolos-lib` in a folder outside the repository
(`--dolos DIR`, default /tmp/dolos; its tree-sitter parsers need
`npm rebuild`); `dolos.mjs` beside this script runs it at its defaults.

`--scale N`: N students of min-throws in Python (the generator's
originals, and copies), timed once with salgrade (and Dolos), peak memory
from `/usr/bin/time -v` where it exists.
"""

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LEVELS = ["light", "medium", "heavy"]


def timed(cmd):
    """Runs `cmd`; its stdout, wall seconds and peak RSS in MiB (or None)."""
    gnu_time = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)
    with tempfile.NamedTemporaryFile(mode="r", suffix=".txt") as stats:
        full = [gnu_time, "-v", "-o", stats.name] + cmd if gnu_time else cmd
        start = time.perf_counter()
        r = subprocess.run(full, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if r.returncode not in (0, 1):
            sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr[-2000:]}")
        peak = None
        for line in open(stats.name).read().splitlines() if gnu_time else []:
            if "Maximum resident set size" in line:
                peak = int(line.split(":")[1]) / 1024
    return r.stdout, wall, peak


def salgrade_scores(salgrade, folder):
    out, wall, peak = timed([salgrade, "similar", folder, "--format", "csv", "--min-score", "0"])
    scores = {}
    for row in csv.DictReader(io.StringIO(out)):
        scores[frozenset((row["student_a"], row["student_b"]))] = float(row["score"])
    return scores, wall, peak


def dolos_scores(dolos, folder):
    out, wall, peak = timed(["node", os.path.join(HERE, "dolos.mjs"), dolos, folder])
    scores = {}
    for row in csv.DictReader(io.StringIO(out)):
        stem = lambda f: os.path.splitext(f)[0]  # noqa: E731
        scores[frozenset((stem(row["left"]), stem(row["right"])))] = float(row["similarity"])
    return scores, wall, peak


def labelled(folder, copies, scores):
    """(score, level or None) for every pair of files in `folder`."""
    names = sorted(os.path.splitext(f)[0] for f in os.listdir(folder))
    original = {c: o for c, (o, _) in copies.items()}
    level = {c: lv for c, (_, lv) in copies.items()}
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            lab = None
            if original.get(a) == b:
                lab = level[a]
            elif original.get(b) == a:
                lab = level[b]
            out.append((scores.get(frozenset((a, b)), 0.0), lab))
    return out


def metrics(pairs, level):
    """Recall at precision 0.9, ROC AUC, average precision of `level`'s
    copies (None: all copies) against every pair that is not a copy."""
    pos = [s for s, lab in pairs if lab is not None and (level is None or lab == level)]
    neg = [s for s, lab in pairs if lab is None]
    if not pos:
        return None
    ranked = sorted([(s, 1) for s in pos] + [(s, 0) for s in neg], key=lambda x: -x[0])
    # Recall at precision 0.9 and average precision, over distinct thresholds.
    tp = fp = 0
    best_recall = 0.0
    ap = 0.0
    prev_recall = 0.0
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            tp += ranked[j][1]
            fp += 1 - ranked[j][1]
            j += 1
        recall = tp / len(pos)
        precision = tp / (tp + fp)
        if precision >= 0.9:
            best_recall = max(best_recall, recall)
        ap += (recall - prev_recall) * precision
        prev_recall = recall
        i = j
    # ROC AUC as the Mann-Whitney statistic, ties a half.
    neg_sorted = sorted(neg)
    import bisect

    wins = 0.0
    for s in pos:
        lo = bisect.bisect_left(neg_sorted, s)
        hi = bisect.bisect_right(neg_sorted, s)
        wins += lo + 0.5 * (hi - lo)
    auc = wins / (len(pos) * len(neg))
    return {"recall_at_p90": best_recall, "auc": auc, "ap": ap, "copies": len(pos)}


def evaluate(bench, tool, run):
    truth = json.load(open(os.path.join(bench, "truth.json")))
    pooled = []
    total_wall = 0.0
    files = 0
    peaks = []
    per_set = {}
    for name in sorted(truth):
        folder = os.path.join(bench, name)
        scores, wall, peak = run(folder)
        total_wall += wall
        peaks.append(peak)
        files += len(os.listdir(folder))
        pairs = labelled(folder, truth[name], scores)
        pooled.extend(pairs)
        per_set[name] = {lv: metrics(pairs, lv) for lv in LEVELS + [None]}
    result = {lv or "all": metrics(pooled, lv) for lv in LEVELS + [None]}
    result["wall_seconds"] = total_wall
    result["files"] = files
    result["peak_mib"] = max((p for p in peaks if p), default=None)
    result["per_set"] = {k: {lv or "all": m for lv, m in v.items()} for k, v in per_set.items()}
    return result


def table(results):
    lines = [
        "| tool | level | recall at precision 0.9 | ROC AUC | average precision |",
        "|---|---|---|---|---|",
    ]
    for tool, r in results.items():
        for lv in LEVELS + ["all"]:
            m = r[lv]
            lines.append(
                f"| {tool} | {lv} ({m['copies']}) | {m['recall_at_p90']:.2f} | {m['auc']:.3f} | {m['ap']:.3f} |"
            )
    lines.append("")
    lines.append("| tool | files | wall seconds (all sets) | peak RSS MiB (largest set) |")
    lines.append("|---|---|---|---|")
    for tool, r in results.items():
        peak = f"{r['peak_mib']:.0f}" if r["peak_mib"] else "-"
        lines.append(f"| {tool} | {r['files']} | {r['wall_seconds']:.2f} | {peak} |")
    return "\n".join(lines)


def scale(args):
    with tempfile.TemporaryDirectory() as tmp:
        copies = max(1, args.scale // 30)
        subprocess.run(
            [sys.executable, os.path.join(HERE, "generate.py"), tmp, "--originals", str(args.scale - 3 * copies),
             "--copies", str(copies), "--seed", "7", "--sets", "min-throws-py"],
            check=True, capture_output=True,
        )
        folder = os.path.join(tmp, "min-throws-py")
        n = len(os.listdir(folder))
        _, wall, peak = timed([args.salgrade, "similar", folder, "--format", "csv"])
        print(f"salgrade similar, {n} students: {wall:.2f} s wall, peak RSS {peak or 0:.0f} MiB")
        if args.dolos and os.path.isdir(args.dolos):
            _, wall, peak = timed(["node", os.path.join(HERE, "dolos.mjs"), args.dolos, folder])
            print(f"Dolos, {n} students: {wall:.2f} s wall, peak RSS {peak or 0:.0f} MiB")


def main():
    ap = argparse.ArgumentParser(description="Scores salgrade similar and Dolos on the benchmark.")
    ap.add_argument("bench", nargs="?")
    ap.add_argument("--salgrade", default=os.path.join(ROOT, "target", "release", "salgrade"))
    ap.add_argument("--dolos", default="/tmp/dolos")
    ap.add_argument("--no-dolos", action="store_true")
    ap.add_argument("--scale", type=int, help="time one cohort of this many students instead")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()
    if args.scale:
        return scale(args)
    if not args.bench:
        ap.error("give the benchmark folder (from generate.py), or --scale N")
    results = {"salgrade": evaluate(args.bench, "salgrade", lambda f: salgrade_scores(args.salgrade, f))}
    if not args.no_dolos and os.path.isdir(os.path.join(args.dolos, "node_modules")):
        results["Dolos"] = evaluate(args.bench, "Dolos", lambda f: dolos_scores(args.dolos, f))
    print(table(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
