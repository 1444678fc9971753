"""The plumbing shared by the Python twins of the mechanism examples (Examples/SliderCrank/SliderCrank.py,
ChainOnPile.py, ArmPushesBoxes.py, Rover.py), so that each script reads as its model: the common
options (--output, --no-plot, --quiet), the step loop with its bookkeeping (failed solves, Newton
iterations, progress, the VTK frames of body_vtk.py every 10th step), and the end of a run: the CSV
(written under a temporary name, then renamed), the aligned summary and the Matplotlib plot."""
import argparse
import math
import os
import sys

import numpy as np

import nsdyn
from body_vtk import BodyVtkWriter

VTK_EVERY = 10  # steps between two VTK frames, as in the C++ examples


def parser(doc):
    """An argument parser described by the first line of `doc`, with the common options."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--output", default=".", help="results folder (created)")
    p.add_argument("--no-plot", action="store_true")
    p.add_argument("--quiet", action="store_true")
    return p


def parse(p, valid, message):
    """Parse the command line; a usage error (exit status 2) with `message` unless valid(args).
    Creates the results folder."""
    args = p.parse_args()
    if not valid(args):
        p.error(message)
    os.makedirs(args.output, exist_ok=True)
    return args


class Run:
    """The outcome of run(): failed (solves that did not converge), newton ((min, max) Newton
    iterations per step) and vtk ((.pvd path, frames) or None)."""

    def __init__(self, failed, newton, vtk):
        self.failed, self.newton, self.vtk = failed, newton, vtk


def run(sim, steps, row, name, bodies, vtk_dir=None, quiet=False):
    """Record row(0, None), then `steps` steps: computeOneStep, row(t, statistics of the step), a VTK
    frame of `bodies` every 10th step (with frame 0, into vtk_dir/name_NNNNNN.vtp and name.pvd when
    vtk_dir is given), nextStep; progress on stderr unless quiet."""
    row(0.0, None)
    vtk = BodyVtkWriter(vtk_dir, name, bodies) if vtk_dir else None
    if vtk:
        vtk.frame(0.0)
    failed, newton = 0, []
    for k in range(steps):
        sim.computeOneStep()
        st = sim.lastStatistics()
        if st["solved"] and st["status"] != "converged":
            failed += 1
        newton.append(st["newton_iterations"])
        row(sim.nextTime(), st)
        if vtk and (k + 1) % VTK_EVERY == 0:
            vtk.frame(sim.nextTime())
        sim.nextStep()
        if not quiet and (k + 1) % max(1, steps // 10) == 0:
            print("  step %d/%d" % (k + 1, steps), file=sys.stderr)
    return Run(failed, (min(newton), max(newton)), (vtk.finish(), len(vtk.frames)) if vtk else None)


def write_csv(folder, name, rows, columns, fmt="%.17g"):
    """folder/name.csv (a header line, then the values in `fmt`: one format or one per column),
    complete or absent: written to .part, renamed."""
    csv = os.path.join(folder, name + ".csv")
    np.savetxt(csv + ".part", rows, delimiter=",", fmt=fmt, header=",".join(columns), comments="")
    os.replace(csv + ".part", csv)
    return csv


def checked(kind, lo, hi, what):
    """An argparse type: a finite number (or count) in (lo, hi], else a usage error naming it."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError("expected %s, found '%s'" % (what, text))
        if not (math.isfinite(value) and lo < value <= hi):
            raise argparse.ArgumentTypeError("expected %s, found %s" % (what, text))
        return value
    return parse


def line(label, text):
    """One summary line: the label and its colon in a column of 25 characters."""
    print("  %-25s%s" % (label + ":", text))


def finish(args, name, rows, columns, summary, failed, lines, title, panels, figsize=(8, 9)):
    """The end of main(): the CSV, the summary (`lines`: (label, text) pairs, then the csv, vtk and
    plot files), the plot (unless --no-plot; `panels`: per axis (y label, [(column, label[, style])]))
    and the exit status, 1 when a solve failed."""
    csv = write_csv(args.output, name, rows, columns)
    print("%s (Python) summary" % name)
    for label, text in lines:
        line(label, text)
    line("csv", "%s (%d rows)" % (csv, len(rows)))
    line("vtk", "%s (%d frames)" % summary["vtk"])
    if not args.no_plot:
        plt = nsdyn.pyplot()
        if plt is not None:
            fig, ax = plt.subplots(len(panels), 1, figsize=figsize, sharex=True)
            t = rows[:, 0]
            for a, (ylabel, curves) in zip(ax, panels):
                for column, label, *style in curves:
                    a.plot(t, rows[:, column], *style, label=label)
                a.set_ylabel(ylabel)
                a.legend()
            ax[-1].set_xlabel("t (s)")
            fig.suptitle(title)
            png = os.path.join(args.output, name + ".png")
            fig.savefig(png, dpi=100)
            line("plot", png)
    return 1 if failed else 0
