#!/usr/bin/env python3
"""Dolan-More performance profile of solvers over a set of problems, drawn with gnuplot.

usage: performance_profile.py RESULTS.csv [--anchors ANCHORS.csv] [--tol 1e-8]
                              [--output profile.png] [--title TEXT]

RESULTS.csv (and ANCHORS.csv) have the solve_folder columns
kind,problem,n_contacts_or_size,solver,info,iterations,error,seconds.
A run counts as solved when its recomputed error is <= tol (not `info`).
With t(p,s) the time of solver s on problem p (infinite if unsolved) and
r(p,s) = t(p,s) / min over s of t(p,s), the profile of s is
rho_s(tau) = |{p : r(p,s) <= tau}| / |P|, over every problem of the files
(problems no solver solves count in |P|), drawn against log2(tau).
Anchor solvers are shown as "siconos:NAME". Times are floored at 1e-6 s
(timer resolution), so that runs of zero seconds compare.
Also writes the step data next to the PNG (same name, .dat).
"""
import csv
import math
import os
import subprocess
import sys

TIME_FLOOR = 1e-6


def load(path, prefix, tol, times):
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            solver = prefix + row["solver"]
            problem = row["problem"]
            times.setdefault(problem, {})
            try:
                solved = float(row["error"]) <= tol
                seconds = max(float(row["seconds"]), TIME_FLOOR)
            except ValueError:
                solved = False
                seconds = math.inf
            t = seconds if solved else math.inf
            # the best of repeated rows of one solver on one problem
            times[problem][solver] = min(t, times[problem].get(solver, math.inf))


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__)
        return 2
    opts = {"--anchors": None, "--tol": "1e-8", "--output": "profile.png", "--title": None}
    i = 2
    while i < len(argv):
        if argv[i] not in opts or i + 1 >= len(argv):
            print(__doc__)
            return 2
        opts[argv[i]] = argv[i + 1]
        i += 2
    tol = float(opts["--tol"])

    times = {}
    load(argv[1], "", tol, times)
    if opts["--anchors"]:
        load(opts["--anchors"], "siconos:", tol, times)
    solvers = sorted({s for per in times.values() for s in per})
    problems = sorted(times)
    if not problems or not solvers:
        print("performance_profile: no rows", file=sys.stderr)
        return 1

    # performance ratios; a solver absent on a problem counts as failed there
    ratios = {s: [] for s in solvers}
    for p in problems:
        best = min(times[p].values())
        for s in solvers:
            t = times[p].get(s, math.inf)
            ratios[s].append(t / best if math.isfinite(t) else math.inf)
    finite = [r for rs in ratios.values() for r in rs if math.isfinite(r)]
    tau_max = max(finite + [2.0])
    x_max = math.log2(tau_max) * 1.05 + 0.1

    # step data: one block per solver, (log2 tau, rho) at each ratio, then out to x_max
    dat = os.path.splitext(opts["--output"])[0] + ".dat"
    n = len(problems)
    with open(dat, "w") as f:
        for s in solvers:
            f.write(f"# {s}\n")
            rs = sorted(r for r in ratios[s] if math.isfinite(r))
            rho = 0
            f.write(f"0 {sum(1 for r in rs if r <= 1.0) / n:.6f}\n")
            for r in rs:
                rho += 1
                f.write(f"{math.log2(r):.6f} {rho / n:.6f}\n")
            f.write(f"{x_max:.6f} {rho / n:.6f}\n\n\n")

    title = opts["--title"] or (f"performance profile, {n} problems, solved = error <= {tol:g}")
    plots = ", ".join(
        f"'{dat}' index {k} using 1:2 with steps lw 2 dt {k // 8 + 1} title '{s}'"
        for k, s in enumerate(solvers))
    script = f"""
set terminal pngcairo size 1000,650 font ",10"
set output '{opts["--output"]}'
set title '{title}' noenhanced
set xlabel 'log_2({{/Symbol t}})'
set ylabel '{{/Symbol r}}_s({{/Symbol t}}): fraction of problems solved within {{/Symbol t}} x best time'
set xrange [0:{x_max:.6f}]
set yrange [0:1.02]
set grid
set key outside right top noenhanced
plot {plots}
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print(f"wrote {opts['--output']} ({n} problems, {len(solvers)} solvers)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
