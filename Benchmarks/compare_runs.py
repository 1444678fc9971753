#!/usr/bin/env python3
"""Two solve_folder runs side by side (before, after): per solver, the files solved to the
tolerance (from the recomputed Siconos error), and the median and range of the time ratio
after/before on the files both runs solved. Markdown on stdout.

usage: Benchmarks/compare_runs.py BEFORE.csv AFTER.csv [--tol 1e-8]
"""
import csv
import statistics
import sys


def load(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            try:
                err, sec = float(r["error"]), float(r["seconds"])
            except (KeyError, ValueError):
                continue
            rows[(r["solver"], r["problem"])] = (err, sec)
    return rows


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    tol = 1e-8
    if "--tol" in argv:
        tol = float(argv[argv.index("--tol") + 1])
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    before, after = load(args[0]), load(args[1])
    solvers = sorted({s for s, _ in before} | {s for s, _ in after},
                     key=lambda s: [k for k, _ in list(after) + list(before)].index(s))
    print("| solver | solved before | solved after | time after/before: median | min | max | files timed |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for s in solvers:
        files = sorted({p for k, p in list(before) + list(after) if k == s})
        ok_b = [p for p in files if (s, p) in before and before[(s, p)][0] <= tol]
        ok_a = [p for p in files if (s, p) in after and after[(s, p)][0] <= tol]
        both = [p for p in ok_b if p in ok_a]
        ratios = [after[(s, p)][1] / before[(s, p)][1] for p in both if before[(s, p)][1] > 0]
        if ratios:
            cells = f"{statistics.median(ratios):.2f} | {min(ratios):.2f} | {max(ratios):.2f} | {len(ratios)}"
        else:
            cells = "- | - | - | 0"
        sb = f"{len(ok_b)}/{len([p for p in files if (s, p) in before])}" if any(k == s for k, _ in before) else "(new)"
        sa = f"{len(ok_a)}/{len([p for p in files if (s, p) in after])}"
        print(f"| `{s}` | {sb} | {sa} | {cells} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
