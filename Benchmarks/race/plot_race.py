#!/usr/bin/env python3
"""plot_race.py CSV OUTDIR: one work-precision plot per scene and size of the race (issue 24),
with gnuplot (PNG): time per step (ms, x, log) against each quality measure (y, log), one curve
per engine and solver over its budgets (iteration budgets and tolerance budgets apart). Writes
OUTDIR/race_<scene>_<bodies>.png (and the .dat/.gp files it plots from, under OUTDIR/plot)."""
import csv
import os
import shutil
import subprocess
import sys
from collections import defaultdict

MEASURES = [("pen_max", "max penetration (m)"), ("pen_mean", "mean penetration (m)"),
            ("ke_end", "kinetic energy at end (J)"), ("drift_max", "largest drift (m)"),
            ("drift_mean", "mean drift (m)"), ("top_end", "pile top at end (m)")]
FLOOR = 1e-12  # zero on a log axis


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = sys.argv[1:3]
    rows = list(csv.DictReader(open(src)))
    if not rows:
        print("plot_race.py: no rows in %s" % src, file=sys.stderr)
        return 1
    if not shutil.which("gnuplot"):
        print("plot_race.py: gnuplot not found: no plots (apt-get install gnuplot-nox)", file=sys.stderr)
        return 0
    pdir = os.path.join(out, "plot")
    os.makedirs(pdir, exist_ok=True)
    scenes = defaultdict(lambda: defaultdict(list))
    for r in rows:
        # one curve per engine, solver and kind of budget: a peer's tolerance rows, nsdyn's
        # fixed-sweep rows (budget mode) and rows with the overlap recovery (and speculative
        # contacts) on apart
        if r["engine"] == "nsdyn":
            kind = " sweeps" if r["budget_kind"] == "iterations" else ""
        else:
            kind = " tol" if r["budget_kind"] == "tolerance" else ""
        if "recovery on" in r.get("settings", ""):
            kind += " recovery"
        if "speculative contacts on" in r.get("settings", ""):
            kind += " speculative"
        scenes["%s_%s" % (r["scene"], r["bodies"])]["%s %s%s" % (r["engine"], r["solver"], kind)].append(r)
    for scene, curves in scenes.items():
        files = []
        for name, rs in sorted(curves.items()):
            key = name.replace(" ", "_")
            path = os.path.join(pdir, "%s_%s.dat" % (scene, key))
            # along the budget: more iterations, or a tighter tolerance
            rs.sort(key=lambda r: float(r["budget"]) if r["budget_kind"] == "iterations" else 1.0 / float(r["budget"]))
            with open(path, "w") as f:
                f.write("# ms_step budget " + " ".join(m for m, _ in MEASURES) + "\n")
                for r in rs:
                    vals = [max(float(r[m]), FLOOR) for m, _ in MEASURES]
                    f.write("%s %s %s\n" % (r["ms_step"], r["budget"], " ".join("%.6e" % v for v in vals)))
            files.append((name, path))
        bodies = curves[next(iter(curves))][0]["bodies"]
        load = max(float(r["load_avg"]) for rs in curves.values() for r in rs)
        png = os.path.join(out, "race_%s.png" % scene)
        gp = os.path.join(pdir, "race_%s.gp" % scene)
        with open(gp, "w") as g:
            g.write('set terminal pngcairo noenhanced size 1500,950 font ",9"\nset output "%s"\n' % png)
            g.write('set multiplot layout 2,3 title "race: %s, %s bodies (work-precision: lower left is better; '
                    'load average up to %.1f)"\n' % (scene, bodies, load))
            g.write("set logscale xy\nset grid\nset key top right font \",7\"\nset xlabel \"ms per step (1 thread)\"\n")
            g.write('set format y "%.0e"\n')
            for col, (m, label) in enumerate(MEASURES):
                if m == "top_end":
                    g.write('unset logscale y\nset format y "%g"\n')
                g.write('set ylabel "%s"\nset title "%s"\n' % (label, label))
                plots = ['"%s" using 1:%d with linespoints title "%s"' % (p, col + 3, n) for n, p in files]
                g.write("plot " + ", \\\n     ".join(plots) + "\n")
            g.write("unset multiplot\n")
        subprocess.run(["gnuplot", gp], check=True)
        print("plot_race.py: wrote %s" % png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
