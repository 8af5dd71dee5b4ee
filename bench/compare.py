#!/usr/bin/env python3
"""Two salgrade binaries side by side: the table `bench/zygote.md` that
`update_docs.py` puts into docs/performance.md.

Each ROUND is a pair of `run.py --methods salgrade --results DIR` result
folders, the first graded with the binary before a change and the second
with the one after, run one right after the other so that both saw the
same load; rounds are run in turn and the best wall time of each side per
cohort is kept. Optionally one run of the baseline and the limit
(`--others DIR`, `run.py --methods baseline,limit`) gives the ratios.

    python3 bench/compare.py --title "..." BEFORE1:AFTER1 [BEFORE2:AFTER2 ...] \\
        [--others DIR] [-o bench/zygote.md]
"""

import argparse
import json
import os
import sys


def runs(folder):
    with open(os.path.join(folder, "results.json")) as f:
        data = json.load(f)
    out = {}
    for run in data["runs"]:
        out[(run["cohort"], run["method"])] = run
    loop = data.get("looping_case_cost", {})
    return out, loop, data


def best(values):
    values = [v for v in values if v is not None]
    return min(values) if values else None


def fmt(x, digits=2):
    return "" if x is None else f"{x:.{digits}f}"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("rounds", nargs="+", help="BEFORE_DIR:AFTER_DIR, one pair per round")
    p.add_argument("--others", help="a run.py results folder with the baseline and the limit")
    p.add_argument("--title", default="salgrade before and after")
    p.add_argument("-o", "--output", help="write here instead of stdout")
    args = p.parse_args(argv)

    before, after = {}, {}
    loop_before, loop_after = [], []
    meta = None
    for pair in args.rounds:
        b_dir, a_dir = pair.split(":", 1)
        (b, lb, meta), (a, la, _) = runs(b_dir), runs(a_dir)
        for key, run in b.items():
            before.setdefault(key[0], []).append(run)
        for key, run in a.items():
            after.setdefault(key[0], []).append(run)
        if "salgrade" in lb:
            loop_before.append(lb["salgrade"])
        if "salgrade" in la:
            loop_after.append(la["salgrade"])
    others = runs(args.others)[0] if args.others else {}

    lines = [f"{args.title} ({meta['date']}, {meta['machine'].get('cpus', '?')} CPUs): "
             f"{meta['settings']['case_count']} cases per student, salgrade's default `--jobs`; "
             f"{len(args.rounds)} round(s), each the binary before then the binary after, "
             "best wall time of each side. Seconds of wall time and of CPU (all child "
             "processes, cgroup); the ratios are of wall time, of the after binary.", ""]
    header = "| cohort | students | before wall | after wall | after / before | before CPU | after CPU |"
    rule = "|---|---:|---:|---:|---:|---:|---:|"
    if others:
        header += " baseline wall | limit wall | after / limit | baseline / after |"
        rule += "---:|---:|---:|---:|"
    lines += [header, rule]
    for cohort in sorted(before, key=lambda c: (before[c][0]["kind"], before[c][0]["students"])):
        if cohort not in after:
            continue
        bw = best(r["wall_s"] for r in before[cohort])
        aw = best(r["wall_s"] for r in after[cohort])
        bc = best(r["cpu_s"] for r in before[cohort])
        ac = best(r["cpu_s"] for r in after[cohort])
        row = (f"| {cohort} | {before[cohort][0]['students']} | {fmt(bw)} | {fmt(aw)} | "
               f"{fmt(aw / bw if bw else None)} | {fmt(bc)} | {fmt(ac)} |")
        if others:
            base = others.get((cohort, "baseline"), {}).get("wall_s")
            lim = others.get((cohort, "limit"), {}).get("wall_s")
            row += (f" {fmt(base)} | {fmt(lim)} | {fmt(aw / lim if lim else None)} | "
                    f"{fmt(base / aw if base and aw else None, 1)} |")
        lines.append(row)
    if loop_before and loop_after:
        def ms(costs, key):
            return best(c.get(key) for c in costs) * 1000
        lines += ["", "A looping case (the `one-loop` student's wall time, start and restarts "
                  f"included, over its {meta['settings']['looping_cases']} looping cases, best "
                  f"round): before {ms(loop_before, 'per_looping_case_s'):.0f} ms, after "
                  f"{ms(loop_after, 'per_looping_case_s'):.0f} ms; beyond a correct student's "
                  f"run (`one-loop` less `one-correct`): before "
                  f"{ms(loop_before, 'marginal_per_looping_case_s'):.0f} ms, after "
                  f"{ms(loop_after, 'marginal_per_looping_case_s'):.0f} ms."]
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
