#!/usr/bin/env python3
"""RubberBlockIncline in Python: a rubber block sticking or sliding on an incline with friction.

The twin of Examples/RubberBlockIncline/RubberBlockIncline.cpp through nsdyn.peridynamics: a
Neo-Hookean block (correspondence peridynamics, or the linear peridynamic solid) of 10 x 10 x 5 cm
on a lattice in the slope's frame, its points spheres of an nsdyn.SceneEngine in frictional
contact (mu = 0.6) with the incline, a static half-space through the origin whose normal is
tilted by the angle. The block is settled first (statics under gravity with its bottom layer
held, then released); its free motion by the successive substitution, Moreau-Jean theta = 3/4.
Below the friction angle (20 deg) it sticks and shears under its weight; above it (40 deg) it
slides with the acceleration g (sin - mu cos) of a rigid block.

    PYTHONPATH=build/python python3 Examples/python/rubber_block_incline.py [--case stick|slide]
        [--angle DEG] [--mu MU] [--young E] [--poisson NU] [--density RHO] [--length L]
        [--width W] [--height H] [--spacing DX] [--horizon M] [--time T] [--step H] [--theta TH]
        [--tolerance TOL] [--material neo-hookean|lps] [--stepper substitution|newton]
        [--settle substitution|newton] [--frames N] [--threads N] [--output DIR] [--no-plot]

Writes DIR/RubberBlockIncline.csv with the columns of the C++ example (t, s, s_closed, v_slope,
v_closed, normal, slip, shear, shear_closed, kinetic, elastic, contacts, contact_points,
iterations, residual), VTK frames of the block with --frames N, and prints its summary figures.
Exit status 2 for a bad option, 3 for an error of the model, 1 when a contact solve failed.
"""
import argparse
import math
import os
import sys

import numpy as np

import nsdyn
import nsdyn.peridynamics as pd
from example_run import checked, write_csv

G = 9.81
COLUMNS = ["t", "s", "s_closed", "v_slope", "v_closed", "normal", "slip", "shear", "shear_closed",
           "kinetic", "elastic", "contacts", "contact_points", "iterations", "residual"]


def divisions(size, dx, what):
    """Lattice count of size / dx; ValueError when dx does not divide it into 2 or more layers."""
    n = size / dx
    k = int(math.floor(n + 0.5))
    if k < 2 or abs(n - k) > 1e-6 * n:
        raise ValueError("--spacing %g does not divide the block %s %g m into 2 or more layers"
                         % (dx, what, size))
    return k


class Slope:
    """The slope's frame: d downhill, y across, n the outward normal of the incline."""

    def __init__(self, alpha):
        self.d = (math.cos(alpha), 0.0, -math.sin(alpha))
        self.y = (0.0, 1.0, 0.0)
        self.n = (math.sin(alpha), 0.0, math.cos(alpha))

    @staticmethod
    def _dot(p, e):
        p = np.asarray(p, dtype=float)
        return p[..., 0] * e[0] + p[..., 1] * e[1] + p[..., 2] * e[2]

    def along(self, p):
        return self._dot(p, self.d)

    def normal(self, p):
        return self._dot(p, self.n)


def block_points(slope, nl, nw, nh, dx, length, width):
    """The lattice in the slope's frame, bottom layer dx/2 above the plane, centred along the
    slope and across (the C++ example's order: along, across, then normal)."""
    X = []
    for i in range(nl):
        for j in range(nw):
            for k in range(nh):
                a, b, c = (i + 0.5) * dx - 0.5 * length, (j + 0.5) * dx - 0.5 * width, (k + 0.5) * dx
                X.append([a * slope.d[q] + b * slope.y[q] + c * slope.n[q] for q in range(3)])
    return np.array(X)


def simulate(case="stick", angle=-1.0, mu=0.6, young=2e6, poisson=0.45, density=1100.0,
             length=0.1, width=0.1, height=0.05, spacing=0.01, horizon_ratio=3.0, duration=0.2,
             step=2.5e-4, theta=0.75, tolerance=1e-6, material="neo-hookean",
             stepper="substitution", settle="substitution", frames=0, output=".", threads=0):
    """Run the example; (block, rows (one per step, COLUMNS), summary dict)."""
    slide = case == "slide"
    if angle < 0.0:
        angle = 40.0 if slide else 20.0
    alpha, dx = angle * math.pi / 180.0, spacing
    nl, nw = divisions(length, dx, "length"), divisions(width, dx, "width")
    nh = divisions(height, dx, "height")
    slope = Slope(alpha)
    X = block_points(slope, nl, nw, nh, dx, length, width)
    n = len(X)
    if material == "lps":
        mat = pd.LinearPeridynamicSolid(E=young, nu=poisson)
    else:
        mat = pd.NeoHookeanMaterial(E=young, nu=poisson)
    block = pd.Body(X, np.full(n, dx * dx * dx), mat, spacing=dx, horizon=horizon_ratio * dx,
                    density=density, threads=threads, name="rubber")

    gravity = (0.0, 0.0, -G)
    engine = nsdyn.SceneEngine(h=step, theta=theta, gravity=gravity, solver="nsgs",
                               tolerance=1e-10, max_iterations=20000, threads=threads, mu=mu,
                               restitution=0.0)
    engine.add_static([nsdyn.HalfSpaceShape(slope.n, 0.0)])

    # placed gently: the static equilibrium under gravity with the bottom layer held (the shear
    # of a block that stuck from the start), then the bottom layer released
    bottom = slope.normal(X) < dx
    block.prescribed[bottom] = True
    xs, _, settled = pd.free_step(block, method=settle, h=0.0, gravity=gravity, tolerance=1e-8,
                                  iterations=5000, threads=threads)
    block.x = xs
    block.prescribed[:] = False

    system = engine.add_peridynamic_body(block, stepper=stepper, tolerance=tolerance,
                                         iterations=5000, threads=threads, fracture=False)
    engine.initialize()

    mass = block.total_mass()
    shear_modulus = young / (2.0 * (1.0 + poisson))
    sticks = math.tan(alpha) <= mu
    a = 0.0 if sticks else G * (math.sin(alpha) - mu * math.cos(alpha))
    shear_closed = density * G * math.sin(alpha) * height / (2.0 * shear_modulus)
    com0 = block.centre_of_mass()
    h = engine.h
    steps = int(math.floor(duration / h + 0.5))

    # the mean shear strain: the top layer's mean downhill displacement less the bottom layer's,
    # over the distance between them
    top = slope.normal(X) > (nh - 1) * dx
    bottom_index, top_index = np.flatnonzero(bottom), np.flatnonzero(top)

    def mean_along(index):
        u = 0.0
        for d in (slope.along(block.x[index]) - slope.along(block.X[index])).tolist():
            u += d  # summed in the C++ example's order: the same round-off
        return u / len(index)

    def shear():
        return (mean_along(top_index) - mean_along(bottom_index)) / ((nh - 1) * dx)

    vtk = pd.VtkWriter(output, "RubberBlockIncline") if frames > 0 else None

    def frame(time):
        """A VTK frame when due (frames evenly over the run, frame 0 at t = 0)."""
        if vtk and vtk.frame_count <= frames and time + 0.5 * h >= steps * h * vtk.frame_count / frames:
            vtk.write_frame(time, block)

    rows = []

    def sample(k, report):
        dc = block.centre_of_mass() - com0
        t = k * h
        r = system.last_report
        rows.append([t, slope.along(dc), 0.5 * a * t * t, slope.along(block.momentum()) / mass, a * t,
                     slope.normal(dc), mean_along(bottom_index), shear(), shear_closed,
                     block.kinetic_energy(), block.elastic_energy(),
                     report["contacts"] if report else 0.0, r["contact_points"] if report else 0.0,
                     r["iterations"] if report else 0.0, r["residual"] if report else 0.0])

    sample(0, None)
    frame(0.0)
    failed = not_converged = non_monotone = contacts_max = 0
    st = sv = stt = stv = count = shear_max = 0.0
    for k in range(1, steps + 1):
        r = engine.step()
        failed += not r["accepted"]
        pr = system.last_report
        not_converged += not pr["converged"]
        non_monotone += not pr["monotone"]
        contacts_max = max(contacts_max, r["contacts"])
        sample(k, r)
        shear_max = max(shear_max, abs(rows[-1][7]))
        if 2 * k > steps:  # least-squares line through the velocity over the second half
            t, v = k * h, rows[-1][3]
            st, sv, stt, stv, count = st + t, sv + v, stt + t * t, stv + t * v, count + 1.0
        frame(engine.time)
    fit = (count * stv - st * sv) / (count * stt - st * st) if count > 1 else 0.0
    dc = block.centre_of_mass() - com0
    gaps = slope.normal(block.x[bottom_index]) - block.contact_radius
    summary = {
        "angle": angle, "points": n, "bonds": block.bond_count // 2, "h": h, "steps": steps,
        "time": engine.time, "sticks": sticks, "a": a, "fit": fit, "travel": float(slope.along(dc)),
        "normal": float(slope.normal(dc)), "shear": shear(), "shear_closed": shear_closed,
        "shear_max": shear_max, "slip": mean_along(bottom_index), "bottom": len(bottom_index),
        "gap_mean": float(gaps.mean()), "gap_min": float(gaps.min()),
        "contact_radius": block.contact_radius, "contacts_max": contacts_max,
        "touching": system.last_report["contact_points"], "kinetic": block.kinetic_energy(),
        "elastic": block.elastic_energy(), "mass": mass, "settle": settled,
        "iterations": system.total_iterations, "not_converged": not_converged,
        "non_monotone": non_monotone, "failed": failed, "exact_response": system.exact_response,
        "vtk": vtk.finish() if vtk else None,
    }
    return block, np.array(rows), summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    num = lambda lo, hi, what: checked(float, lo, hi, what)  # noqa: E731
    parser.add_argument("--case", default="stick", choices=["stick", "slide"],
                        help="default angle 20 deg (tan < mu: sticks) or 40 deg (slides)")
    parser.add_argument("--angle", type=num(0.0, 80.0, "an inclination in (0, 80] degrees"),
                        default=-1.0, help="inclination (overrides the case's)")
    parser.add_argument("--mu", type=num(0.0, 10.0, "a friction coefficient in (0, 10]"), default=0.6)
    parser.add_argument("--young", type=num(0.0, 1e12, "a Young's modulus in (0, 1e12] Pa"), default=2e6)
    parser.add_argument("--poisson", type=num(-1.0, 0.4999, "a Poisson ratio in (-1, 0.5)"), default=0.45)
    parser.add_argument("--density", type=num(0.0, 1e5, "a density in (0, 1e5] kg/m^3"), default=1100.0)
    parser.add_argument("--length", type=num(0.0, 10.0, "a block length in (0, 10] m"), default=0.1)
    parser.add_argument("--width", type=num(0.0, 10.0, "a block width in (0, 10] m"), default=0.1)
    parser.add_argument("--height", type=num(0.0, 10.0, "a block height in (0, 10] m"), default=0.05)
    parser.add_argument("--spacing", type=num(0.0, 1.0, "a lattice spacing in (0, 1] m"), default=0.01)
    parser.add_argument("--horizon", type=num(0.999, 6.0, "a horizon ratio delta/dx in [1, 6]"),
                        default=3.0, help="delta / dx")
    parser.add_argument("--time", type=num(0.0, 100.0, "a duration in (0, 100] s"), default=0.2)
    parser.add_argument("--step", type=num(0.0, 0.01, "a time step in (0, 0.01] s"), default=2.5e-4)
    parser.add_argument("--theta", type=num(0.4999, 1.0, "a theta in [0.5, 1]"), default=0.75)
    parser.add_argument("--tolerance", type=num(0.0, 1e-2, "a relative residual in (0, 1e-2]"),
                        default=1e-6, help="the block's step residual")
    parser.add_argument("--material", default="neo-hookean", choices=["neo-hookean", "lps"])
    parser.add_argument("--stepper", default="substitution", choices=["substitution", "newton"])
    parser.add_argument("--settle", default="substitution", choices=["substitution", "newton"])
    parser.add_argument("--frames", type=checked(int, -1, 1000, "a number of VTK frames in [0, 1000]"),
                        default=10, help="VTK frames of the block (0: none)")
    parser.add_argument("--threads", type=checked(int, -1, 1024, "a thread count in [0, 1024]"),
                        default=0)
    parser.add_argument("--output", default=".")
    parser.add_argument("--no-plot", action="store_true")
    a = parser.parse_args()
    for size, what in ((a.length, "length"), (a.width, "width"), (a.height, "height")):
        try:
            divisions(size, a.spacing, what)
        except ValueError as err:
            parser.error(str(err))  # exit status 2
    try:
        os.makedirs(a.output, exist_ok=True)
    except OSError as err:
        print("RubberBlockIncline: results folder not writable: %s" % err, file=sys.stderr)
        return 4
    try:
        block, rows, s = simulate(a.case, a.angle, a.mu, a.young, a.poisson, a.density, a.length,
                                  a.width, a.height, a.spacing, a.horizon, a.time, a.step, a.theta,
                                  a.tolerance, a.material, a.stepper, a.settle, a.frames, a.output,
                                  a.threads)
    except (nsdyn.Error, ValueError) as err:
        print("RubberBlockIncline: %s" % err, file=sys.stderr)
        return 3
    csv = os.path.join(a.output, "RubberBlockIncline.csv")
    try:
        write_csv(a.output, "RubberBlockIncline", rows, COLUMNS)
    except OSError as err:
        print("RubberBlockIncline: results not writable: %s" % err, file=sys.stderr)
        return 4
    t_end = s["steps"] * s["h"]
    print("RubberBlockIncline (Python): %s block %g x %g x %g m, %d points, %d bonds; incline %g deg, "
          "mu = %g (%s); h = %g s, theta = %g, %d steps, %s"
          % (a.material, a.length, a.width, a.height, s["points"], s["bonds"], s["angle"], a.mu,
             "sticks" if s["sticks"] else "slides", s["h"], a.theta, s["steps"], a.stepper))
    print("  settling (statics):  %d %s iterations, residual %.2e"
          % (s["settle"]["iterations"], a.settle, s["settle"]["residual"]))
    if s["sticks"]:
        print("  closed form:         sticks (tan alpha <= mu): a = 0")
    else:
        print("  closed form:         slides, a = g (sin - mu cos) = %.6g m/s^2" % s["a"])
    print("  centre of mass:      %.6g m down the slope (closed form %.6g m), %.3g m along the normal"
          % (s["travel"], 0.5 * s["a"] * t_end * t_end, s["normal"]))
    if s["sticks"]:
        print("  acceleration (fit):  %.4g m/s^2 over the second half (a rigid block: 0)" % s["fit"])
    else:
        print("  acceleration (fit):  %.6g m/s^2 over the second half, ratio to the closed form %.5f"
              % (s["fit"], s["fit"] / s["a"]))
    print("  shear of the block:  %.4g (top - bottom layer / distance); infinite layer %.4g, ratio "
          "%.3f; largest %.4g" % (s["shear"], s["shear_closed"], s["shear"] / s["shear_closed"],
                                  s["shear_max"]))
    print("  bottom layer:        slip %.4g m (mean over its %d points), gap %.3g m mean, %.3g m "
          "least" % (s["slip"], s["bottom"], s["gap_mean"], s["gap_min"]))
    print("  contacts:            %d at most, %d points touching at the end"
          % (s["contacts_max"], s["touching"]))
    print("  energies (end):      kinetic %.4g J, elastic %.4g J (mass %.4g kg)"
          % (s["kinetic"], s["elastic"], s["mass"]))
    print("  block stepper:       %s, %d iterations (%.1f per step), %d steps short of the "
          "tolerance, %d non-monotone; exact response in the contacts: %s"
          % (a.stepper, s["iterations"], s["iterations"] / s["steps"], s["not_converged"],
             s["non_monotone"], "yes" if s["exact_response"] else "no"))
    print("  failed solves:       %d" % s["failed"])
    print("  csv:  %s" % csv)
    if s["vtk"]:
        print("  vtk:  %s" % s["vtk"])
    if not a.no_plot:
        plt = nsdyn.pyplot()
        if plt is not None:
            fig, axes = plt.subplots(3, 1, figsize=(7, 8), sharex=True)
            for ax, (m, c, label) in zip(axes, [(1, 2, "distance (m)"), (3, 4, "velocity (m/s)"),
                                                (7, 8, "shear strain")]):
                ax.plot(rows[:, 0], rows[:, m], label="measured")
                ax.plot(rows[:, 0], rows[:, c], "--", label="closed form")
                ax.set_ylabel(label)
                ax.legend()
            axes[-1].set_xlabel("t (s)")
            fig.suptitle("RubberBlockIncline: centre of mass along the slope")
            png = os.path.join(a.output, "RubberBlockIncline.png")
            fig.savefig(png, dpi=100)
            print("  plot: %s" % png)
    if s["failed"]:
        print("RubberBlockIncline: %d of %d contact solves did not converge" % (s["failed"], s["steps"]),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
