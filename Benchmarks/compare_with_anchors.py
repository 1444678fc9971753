#!/usr/bin/env python3
"""Compare a solve_folder CSV with a Siconos anchor CSV (same columns).

usage: compare_with_anchors.py OURS.csv ANCHORS.csv [--tol 1e-8]

Prints, as Markdown: files solved per solver (error <= tol, recomputed error,
not `info`), and per file the best time of each side and their ratio.
"""
import csv
import statistics
import sys


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def solved(row, tol):
    try:
        return float(row["error"]) <= tol
    except ValueError:
        return False


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    tol = float(argv[argv.index("--tol") + 1]) if "--tol" in argv else 1e-8
    ours, anchors = load(argv[1]), load(argv[2])

    for name, rows in (("nsdyn", ours), ("Siconos", anchors)):
        counts = {}
        files = set()
        for r in rows:
            counts.setdefault(r["solver"], 0)
            files.add(r["problem"])
            if solved(r, tol):
                counts[r["solver"]] += 1
        print(f"\n{name}: files solved to {tol:g} (of {len(files)})\n")
        print("| solver | solved |\n|---|---|")
        for s, c in counts.items():
            print(f"| {s} | {c} |")

    def best(rows):
        b = {}
        for r in rows:
            if solved(r, tol):
                t = float(r["seconds"])
                if r["problem"] not in b or t < b[r["problem"]][0]:
                    b[r["problem"]] = (t, r["solver"])
        return b

    bo, ba = best(ours), best(anchors)
    print("\n| problem | nsdyn best (s) | solver | Siconos best (s) | solver | ratio |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for f in sorted(set(bo) | set(ba)):
        o, a = bo.get(f), ba.get(f)
        ratio = o[0] / a[0] if o and a and a[0] > 0 else None
        if ratio is not None and a[0] > 1e-3:
            ratios.append(ratio)
        print(f"| {f} | {o[0]:.2e} | {o[1]} | " if o else f"| {f} | - | - | ", end="")
        print(f"{a[0]:.2e} | {a[1]} | " if a else "- | - | ", end="")
        print(f"{ratio:.2f} |" if ratio is not None else "- |")
    only_siconos = sorted(set(ba) - set(bo))
    print(f"\nsolved by Siconos only: {', '.join(only_siconos) if only_siconos else 'none'}")
    if ratios:
        print(f"median ratio over files where Siconos best > 1 ms: {statistics.median(ratios):.2f} "
              f"({len(ratios)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
