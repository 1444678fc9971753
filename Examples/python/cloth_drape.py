#!/usr/bin/env python3
"""ClothDrape in Python: a cloth draped over a sphere on a table, then cut and torn apart.

The twin of Examples/ClothDrape/ClothDrape.cpp through nsdyn.peridynamics: a square cloth (0.8 m,
0.5 mm thick, E = 5 MPa, nu = 1/3, 300 kg/m^3) made by pd.sheet with a pd.SheetMaterial (membrane
bonds and bending), dropped 2 cm above a rigid sphere (R = 0.2 m) resting on a table; its points
are spheres of an nsdyn.SceneEngine in frictional contact (mu = 0.5) with the sphere and the table
(two static shapes); its free motion by the successive substitution, Moreau-Jean theta = 3/4,
h = 1 ms; a linear air drag F = -c m v applied to the points' velocities after each step (in the
body and in the engine's store, which the next step starts from). Phase 1 (drape); phase 2
(--pull): a cut along x = 0 from the middle of the edge y = -L/2, then the side edges x = +-L/2
gripped and pulled apart along x until the cloth tears from the cut's tip.

    PYTHONPATH=build/python python3 Examples/python/cloth_drape.py [--side L] [--spacing DX]
        [--radius R] [--thickness T] [--young E] [--density RHO] [--bending S]
        [--critical-stretch S] [--contact-radius R] [--mu MU] [--drop D] [--drape-time T]
        [--drag C] [--pull] [--pull-time T] [--pull-speed V] [--notch C] [--step H] [--theta TH]
        [--tolerance TOL] [--stepper substitution|newton] [--response lumped|exact] [--frames N] [--samples N]
        [--threads N] [--output DIR] [--no-plot]

Writes DIR/ClothDrape.csv with the columns of the C++ example (t, phase, z_centre, z_lowest,
z_highest, z_corners, inside_sphere, kinetic, elastic, potential, contacts, contact_points,
broken_bonds, line_bonds, tear_tip, max_stretch, grip_travel, iterations), DIR/ClothDrape_points.csv
(the points at the end), VTK frames with --frames N, and prints its summary figures. Exit status
2 for a bad option (a cut as long as half the side among them), 3 for an error of the model, 1
when a contact solve failed.
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
COLUMNS = ["t", "phase", "z_centre", "z_lowest", "z_highest", "z_corners", "inside_sphere",
           "kinetic", "elastic", "potential", "contacts", "contact_points", "broken_bonds",
           "line_bonds", "tear_tip", "max_stretch", "grip_travel", "iterations"]


class Cloth:
    """The figures of the cloth measured by the C++ example, from the body's arrays."""

    def __init__(self, body, side, radius, spacing):
        self.body, self.L, self.R, self.dx = body, side, radius, spacing
        self.rc = body.contact_radius
        X = body.X
        # the centre: the points within dx of the axis; the corners: within 2 dx of each corner
        # along both axes; the grips: the points within dx of the side edges x = +-L/2
        self.centre = np.flatnonzero((np.abs(X[:, 0]) < spacing) & (np.abs(X[:, 1]) < spacing))
        far = 0.5 * side - 2.0 * spacing
        self.corners = np.flatnonzero((np.abs(X[:, 0]) > far) & (np.abs(X[:, 1]) > far))
        self.grips = np.flatnonzero(np.abs(X[:, 0]) > 0.5 * side - spacing)
        start = np.asarray(body.bond_start, dtype=np.int64)
        self.owner = np.repeat(np.arange(len(body)), np.diff(start))  # point of each directed bond
        self.neighbour = np.asarray(body.neighbour, dtype=np.int64)
        self.length = np.asarray(body.bond_length)

    @staticmethod
    def _mean(values):
        total = 0.0
        for v in values.tolist():  # summed in the C++ example's order: the same round-off
            total += v
        return total / len(values)

    def drape(self):
        """centre, lowest, highest, corners (z, m), deepest inside the sphere and below the table
        (m, >= 0; the contact radius included)."""
        x = self.body.x
        r = np.sqrt(x[:, 0] * x[:, 0] + x[:, 1] * x[:, 1] + (x[:, 2] - self.R) * (x[:, 2] - self.R))
        return {"centre": self._mean(x[self.centre, 2]), "corners": self._mean(x[self.corners, 2]),
                "lowest": float(x[:, 2].min()), "highest": float(x[:, 2].max()),
                "inside": max(0.0, float((self.R + self.rc - r).max())),
                "below": max(0.0, float((self.rc - x[:, 2]).max()))}

    def point_stretch(self):
        """The largest stretch of each point's intact bonds (0 when none is stretched)."""
        x = self.body.x
        d = x[self.neighbour] - x[self.owner]
        stretch = np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1] + d[:, 2] * d[:, 2]) / self.length - 1.0
        m = np.zeros(len(self.body))
        intact = ~np.asarray(self.body.bond_broken, dtype=bool)
        np.maximum.at(m, self.owner[intact], stretch[intact])
        return m

    def broken_pairs(self):
        """The reference midpoints (k, 2) of the broken pairs (i < j)."""
        broken = np.asarray(self.body.bond_broken, dtype=bool) & (self.neighbour > self.owner)
        X = self.body.X
        return 0.5 * (X[self.owner[broken], :2] + X[self.neighbour[broken], :2])

    def tear_line(self):
        """The broken pairs within 1.5 dx of x = 0 (the cut's included) and the largest y they
        reach (-L/2 when none)."""
        mid = self.broken_pairs()
        on = mid[np.abs(mid[:, 0]) <= 1.5 * self.dx]
        return float(len(on)), max(-0.5 * self.L, float(on[:, 1].max()) if len(on) else -0.5 * self.L)

    def potential(self):
        p = 0.0
        for e in (self.body.mass * G * self.body.x[:, 2]).tolist():
            p += e
        return p


def fit_line(points):
    """Centroid, direction and rms extent along / across of 2D points (principal axis)."""
    if len(points) == 0:
        return (0.0, 0.0), (1.0, 0.0), 0.0, 0.0
    c = points.mean(axis=0)
    d = points - c
    sxx, syy, sxy = (d[:, 0] ** 2).mean(), (d[:, 1] ** 2).mean(), (d[:, 0] * d[:, 1]).mean()
    mean, root = 0.5 * (sxx + syy), math.hypot(0.5 * (sxx - syy), sxy)
    angle = 0.5 * math.atan2(2.0 * sxy, sxx - syy)
    return (c[0], c[1]), (math.cos(angle), math.sin(angle)), math.sqrt(max(0.0, mean + root)), \
        math.sqrt(max(0.0, mean - root))


def simulate(side=0.8, spacing=0.02, radius=0.2, thickness=5e-4, young=5e6, density=300.0,
             bending=1.0, stretch=0.05, contact=0.0, mu=0.5, drop=0.02, drape_time=1.0, drag=2.0,
             pull=False, pull_time=0.5, pull_speed=0.2, notch=0.2, step=1e-3, theta=0.75,
             tolerance=1e-6, stepper="substitution", frames=0, samples=200, output=".", threads=0,
             response="lumped"):
    """Run the example; (cloth, rows (samples + 1, COLUMNS), summary dict)."""
    dx, L, R = spacing, side, radius
    if notch >= 0.5 * L:
        raise ValueError("--notch %g must be shorter than half the side %g m" % (notch, L))
    material = pd.SheetMaterial(E=young, nu=1.0 / 3.0, critical_stretch=stretch,
                                bending_scale=bending)
    rc = contact if contact > 0.0 else 0.25 * dx
    z0 = 2.0 * R + rc + drop
    body = pd.sheet([0.0, 0.0, z0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], 0.5 * L, 0.5 * L, material,
                    spacing=dx, horizon=3.0 * dx, density=density, thickness=thickness,
                    contact_radius=rc, threads=threads, name="cloth")
    n = len(body)

    engine = nsdyn.SceneEngine(h=step, theta=theta, gravity=(0.0, 0.0, -G), solver="nsgs",
                               tolerance=1e-8, max_iterations=5000, threads=threads, mu=mu,
                               restitution=0.0)
    engine.add_static([nsdyn.HalfSpaceShape((0.0, 0.0, 1.0), 0.0)])
    engine.add_static([nsdyn.SphereShape(R)], position=(0.0, 0.0, R))
    system = engine.add_peridynamic_body(body, stepper=stepper, tolerance=tolerance,
                                         iterations=2000, threads=threads, fracture=True,
                                         exact_response=response == "exact")
    engine.initialize()
    cloth = Cloth(body, L, R, dx)
    store = np.array([system.store_index(i) for i in range(n)])

    def set_velocity(points, v):
        """The points' velocities in the body and in the engine's store (the state the scene
        steps from: a velocity written in the body alone would be lost)."""
        body.v[points] = v
        V = engine.v
        V[store[points], :3] = v
        engine.set_v(V)

    h = engine.h
    drag_factor = math.exp(-drag * h)  # air drag F = -c m v: v <- v exp(-c h) after each step
    drape_steps = int(math.floor(drape_time / h + 0.5))
    pull_steps = int(math.floor(pull_time / h + 0.5)) if pull else 0
    steps = drape_steps + pull_steps
    vtk = pd.VtkWriter(output, "ClothDrape") if frames > 0 else None

    def frame(time):
        """A VTK frame when due (frames evenly over the run, frame 0 at t = 0)."""
        if vtk and vtk.frame_count <= frames and time + 0.5 * h >= steps * h * vtk.frame_count / frames:
            vtk.write_frame(time, body)

    rows = []
    grip_travel = 0.0

    def sample(k, report):
        d = cloth.drape()
        r = system.last_report
        line, tip = cloth.tear_line()
        rows.append([k * h, 2.0 if k > drape_steps else 1.0, d["centre"], d["lowest"], d["highest"],
                     d["corners"], d["inside"], body.kinetic_energy(), body.elastic_energy(),
                     cloth.potential(), report["contacts"] if report else 0.0,
                     r["contact_points"] if report else 0.0, 0.5 * body.broken_bonds, line, tip,
                     float(cloth.point_stretch().max()), grip_travel,
                     r["iterations"] if report else 0.0])

    sample(0, None)
    frame(0.0)
    failed = short = 0
    next_sample = 1
    first_break, worst_inside = -1.0, 0.0
    cut = cut_bonds = 0
    draped = {}
    for k in range(1, steps + 1):
        if k == drape_steps + 1:
            # phase 2: the cut (bonds crossing x = 0 for y in [-L/2 - dx, -L/2 + notch]), then
            # the side edges gripped and pulled apart along x
            if notch > 0.0:
                cut = body.precrack([0.0, -0.5 * L - dx, 0.0], [0.0, -0.5 * L + notch, 0.0],
                                    [0.0, 0.0, 1.0]) // 2
            cut_bonds = body.broken_bonds
            body.prescribed[cloth.grips] = True
            grip_v = np.zeros((len(cloth.grips), 3))
            grip_v[:, 0] = np.where(body.X[cloth.grips, 0] > 0.0, 1.0, -1.0) * pull_speed
            set_velocity(cloth.grips, grip_v)
        r = engine.step()
        failed += not r["accepted"]
        if drag > 0.0:
            free = np.flatnonzero(~np.asarray(body.prescribed, dtype=bool))
            set_velocity(free, drag_factor * body.v[free])
        short += not system.last_report["converged"]
        if k > drape_steps:
            grip_travel += pull_speed * h
        if first_break < 0.0 and k > drape_steps and body.broken_bonds > cut_bonds:
            first_break = k * h
        if k <= drape_steps:
            worst_inside = max(worst_inside, cloth.drape()["inside"])
        if k == drape_steps:
            draped = cloth.drape()
            draped.update(contacts=r["contacts"], touching=system.last_report["contact_points"],
                          kinetic=body.kinetic_energy(), elastic=body.elastic_energy(),
                          membrane=material.membrane_energy(body), potential=cloth.potential(),
                          t=k * h)
        if k * samples >= next_sample * steps:
            sample(k, r)
            next_sample += 1
        frame(engine.time)
    line, tip = cloth.tear_line()
    summary = {
        "points": n, "bonds": body.bond_count // 2, "h": h, "steps": steps,
        "drape_steps": drape_steps, "time": engine.time, "start": z0, "drape": draped,
        "worst_inside": worst_inside, "start_potential": body.total_mass() * G * z0,
        "cut": cut, "broken": body.broken_bonds // 2, "first_break": first_break,
        "line": fit_line(cloth.broken_pairs()), "line_bonds": line, "tear_tip": tip,
        "iterations": system.total_iterations, "short": short, "failed": failed,
        "exact_response": system.exact_response, "stretch": cloth.point_stretch(),
        "vtk": vtk.finish() if vtk else None,
    }
    return body, np.array(rows), summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    num = lambda lo, hi, what: checked(float, lo, hi, what)  # noqa: E731
    add = parser.add_argument
    add("--side", type=num(0.0, 10.0, "a cloth side in (0, 10] m"), default=0.8)
    add("--spacing", type=num(0.0, 1.0, "a lattice spacing in (0, 1] m"), default=0.02)
    add("--radius", type=num(0.0, 10.0, "a sphere radius in (0, 10] m"), default=0.2,
        help="the sphere rests on the table z = 0")
    add("--thickness", type=num(0.0, 0.1, "a thickness in (0, 0.1] m"), default=5e-4)
    add("--young", type=num(0.0, 1e12, "a Young's modulus in (0, 1e12] Pa"), default=5e6)
    add("--density", type=num(0.0, 1e5, "a density in (0, 1e5] kg/m^3"), default=300.0)
    add("--bending", type=num(-1e-300, 1e6, "a bending scale in [0, 1e6]"), default=1.0)
    add("--critical-stretch", type=num(0.0, 10.0, "a critical stretch in (0, 10]"), default=0.05)
    add("--contact-radius", type=num(-1e-300, 1.0, "a contact radius in [0, 1] m"), default=0.0,
        help="points' contact radius (0: dx / 4)")
    add("--mu", type=num(-1e-300, 10.0, "a friction coefficient in [0, 10]"), default=0.5)
    add("--drop", type=num(-1e-300, 10.0, "a drop gap in [0, 10] m"), default=0.02)
    add("--drape-time", type=num(0.0, 100.0, "a drape duration in (0, 100] s"), default=1.0)
    add("--drag", type=num(-1e-300, 1000.0, "a drag rate in [0, 1000] 1/s"), default=2.0)
    add("--pull", action="store_true", help="phase 2: cut, then pull the side edges apart")
    add("--pull-time", type=num(0.0, 100.0, "a pull duration in (0, 100] s"), default=0.5)
    add("--pull-speed", type=num(0.0, 100.0, "a pull speed in (0, 100] m/s"), default=0.2)
    add("--notch", type=num(-1e-300, 10.0, "a cut length in [0, 10] m"), default=0.2)
    add("--step", type=num(0.0, 0.01, "a time step in (0, 0.01] s"), default=1e-3)
    add("--theta", type=num(0.4999, 1.0, "a theta in [0.5, 1]"), default=0.75)
    add("--tolerance", type=num(0.0, 1e-2, "a relative residual in (0, 1e-2]"), default=1e-6)
    add("--stepper", default="substitution", choices=["substitution", "newton"])
    add("--response", default="lumped", choices=["lumped", "exact"])
    add("--frames", type=checked(int, -1, 1000, "a number of VTK frames in [0, 1000]"), default=20)
    add("--samples", type=checked(int, 0, 100000, "a number of CSV rows in [1, 100000]"),
        default=200)
    add("--threads", type=checked(int, -1, 1024, "a thread count in [0, 1024]"), default=0)
    add("--output", default=".")
    add("--no-plot", action="store_true")
    a = parser.parse_args()
    if a.notch >= 0.5 * a.side:
        parser.error("--notch %g must be shorter than half the side %g m" % (a.notch, a.side))
    try:
        os.makedirs(a.output, exist_ok=True)
    except OSError as err:
        print("ClothDrape: results folder not writable: %s" % err, file=sys.stderr)
        return 4
    try:
        body, rows, s = simulate(a.side, a.spacing, a.radius, a.thickness, a.young, a.density,
                                 a.bending, a.critical_stretch, a.contact_radius, a.mu, a.drop,
                                 a.drape_time, a.drag, a.pull, a.pull_time, a.pull_speed, a.notch,
                                 a.step, a.theta, a.tolerance, a.stepper, a.frames, a.samples,
                                 a.output, a.threads, a.response)
    except (nsdyn.Error, ValueError) as err:
        print("ClothDrape: %s" % err, file=sys.stderr)
        return 3
    csv = os.path.join(a.output, "ClothDrape.csv")
    points = os.path.join(a.output, "ClothDrape_points.csv")
    try:
        write_csv(a.output, "ClothDrape", rows, COLUMNS)
        write_csv(a.output, "ClothDrape_points",
                  np.column_stack([body.x, body.X, body.damage, s["stretch"]]),
                  ["x", "y", "z", "X", "Y", "Z", "damage", "stretch"],
                  ["%.9g"] * 6 + ["%.6g", "%.9g"])
    except OSError as err:
        print("ClothDrape: results not writable: %s" % err, file=sys.stderr)
        return 4
    d = s["drape"]
    print("ClothDrape (Python): %d points, %d bonds, side %g m, dx = %g m; sphere R = %g m on the "
          "table; mu = %g; h = %g s, theta = %g, %d steps (drape %d), %s"
          % (s["points"], s["bonds"], a.side, a.spacing, a.radius, a.mu, s["h"], a.theta,
             s["steps"], s["drape_steps"], a.stepper))
    print("  drape (t = %g s):  centre z = %.4g m (start %.4g, sphere top %.4g), lowest %.4g m, "
          "highest %.4g m, corners %.4g m" % (d["t"], d["centre"], s["start"], 2.0 * a.radius,
                                              d["lowest"], d["highest"], d["corners"]))
    print("  contact:           %d contacts, %d points touching; deepest inside the sphere %.3g m "
          "(worst over the drape %.3g m), below the table %.3g m"
          % (d["contacts"], d["touching"], d["inside"], s["worst_inside"], d["below"]))
    print("  energy (drape):    kinetic %.4g J, elastic %.4g J (membrane %.4g, bending %.4g), "
          "gravity %.4g J (at the start %.4g J)"
          % (d["kinetic"], d["elastic"], d["membrane"], d["elastic"] - d["membrane"],
             d["potential"], s["start_potential"]))
    if a.pull:
        (cx, cy), (ux, uy), along, across = s["line"]
        first = s["first_break"]
        print("  tear:              %d bonds broken besides the %d cut (first at t = %.4g s, grips "
              "%.3g m apart more)" % (s["broken"] - s["cut"], s["cut"], first,
                                      2.0 * a.pull_speed * (first - d["t"]) if first > 0 else 0.0))
        print("  tear line:         broken bonds along (%.3f, %.3f) through (%.3g, %.3g) m, %.3g m "
              "long (rms), %.3g m across (rms)" % (ux, uy, cx, cy, along, across))
        print("  along x = 0:       %.0f of the %d broken pairs within 1.5 dx of the line; the tear "
              "reaches y = %.3g m (cut tip %.3g m)" % (s["line_bonds"], s["broken"], s["tear_tip"],
                                                       -0.5 * a.side + a.notch))
    print("  cloth stepper:     %s, %d iterations (%.1f per step), %d steps short of the tolerance; "
          "exact response in the contacts: %s" % (a.stepper, s["iterations"], s["iterations"] / s["steps"],
                                                  s["short"], "yes" if s["exact_response"] else "no"))
    print("  failed solves:     %d" % s["failed"])
    print("  csv:    %s" % csv)
    print("  points: %s" % points)
    if s["vtk"]:
        print("  vtk:    %s" % s["vtk"])
    if not a.no_plot:
        plt = nsdyn.pyplot()
        if plt is not None:
            fig, (ax, bx, cx_) = plt.subplots(1, 3, figsize=(15, 4))
            for k, label in ((2, "centre z"), (3, "lowest z"), (5, "corners z")):
                ax.plot(rows[:, 0], rows[:, k], label=label)
            ax.set_ylabel("height (m)")
            for k, label in ((7, "kinetic"), (8, "elastic")):
                bx.plot(rows[:, 0], rows[:, k], label=label)
            bx.set_ylabel("energy (J)")
            for k, label in ((10, "contacts"), (12, "broken bonds")):
                cx_.plot(rows[:, 0], rows[:, k], label=label)
            for axis in (ax, bx, cx_):
                axis.set_xlabel("t (s)")
                axis.legend()
            fig.suptitle("ClothDrape: heights, energies, tear")
            png = os.path.join(a.output, "ClothDrape.png")
            fig.savefig(png, dpi=100)
            print("  plot:   %s" % png)
            if a.pull:
                fig, ax = plt.subplots(figsize=(6, 6))
                sc = ax.scatter(body.X[:, 0], body.X[:, 1], c=body.damage, s=8, vmin=0, vmax=1)
                fig.colorbar(sc, ax=ax, label="damage")
                ax.set_aspect("equal")
                ax.set_xlabel("x (m)")
                ax.set_ylabel("y (m)")
                damage = os.path.join(a.output, "ClothDrape_damage.png")
                fig.savefig(damage, dpi=100)
                print("  damage map: %s" % damage)
    if s["failed"]:
        print("ClothDrape: %d of %d contact solves did not converge" % (s["failed"], s["steps"]),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
