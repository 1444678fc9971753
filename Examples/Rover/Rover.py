#!/usr/bin/env python3
"""Rover (Python twin of Rover.cpp): a four-wheeled rover on a heightfield slope and a bed of spheres.

    PYTHONPATH=build/python python3 Examples/Rover/Rover.py [--spheres N] [--slope DEG] [--mu MU]
        [--on-plateau] [--time T] [--step H] [--solver nsgs|newton] [--budget N] [--output DIR]
        [--no-plot] [--quiet]

The model of Rover.cpp (README.md): a box chassis (0.7 x 0.3 x 0.1 m, 20 kg), four sphere wheels
(R = 0.12 m, 2 kg) on PivotJointR hinges about the chassis y axis, each driven by a velocity motor
(target v/R, v = 1 m/s reached over 0.5 s: a Python callable; torque limit 10 N m), on one
HeightfieldShape (5 cm cells: flat, a slope, a plateau, a trench holding a bed of spheres of
radius 2.5 cm, then the plateau). Joints, motors and the detected contacts (mu = 0.8, e = 0) in
one GenericMechanical problem ("nsgs", budget mode of 100 sweeps), Moreau-Jean 1/2, h = 2 ms.

Writes DIR/Rover.csv (the columns of the C++ example), with Matplotlib DIR/Rover.png, and the VTK
frames of the chassis and wheels (every 10th step) with DIR/Rover.pvd, the files of the C++ example.
Exit status 1 when a solve failed.
"""
import math
import os
import sys

import numpy as np

import nsdyn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import example_run  # noqa: E402 (Examples/python: options, step loop, CSV, summary and plot of the twins)

COLUMNS = ["t", "x", "z", "vx", "pitch", "rim_speed", "roll_error", "slip", "wheel_gap", "torque",
           "drift", "active", "newton_iterations"]


class Terrain:
    """Flat to x = 2, a slope of angle a to H = 1.5 tan a at x = 3.5, a plateau, a trench of depth d
    (|y| <= 0.5, x in [4.5, 4.5 + L], then a ramp out over 0.6 m), the plateau again."""

    def __init__(self, slope, depth, length):
        self.slope, self.depth, self.length = slope, depth, length

    def plateau(self):
        return 1.5 * math.tan(self.slope)

    def height(self, x, y):
        H = self.plateau()
        if x <= 2.0:
            return 0.0
        if x <= 3.5:
            return (x - 2.0) * math.tan(self.slope)
        # one 5 cm cell wider than the bed on every side: its walls are one-cell ramps
        if self.length <= 0.0 or x <= 4.46 or abs(y) >= 0.54:
            return H
        if x < 4.54 + self.length:
            return H - self.depth
        return min(H, H - self.depth + (x - 4.54 - self.length) * self.depth / 0.6)


def simulate(spheres=2000, slope_deg=15.0, mu=0.8, h=2e-3, T=-1.0, on_plateau=False, solver="nsgs",
             budget=100, quiet=False, vtk_dir=None):
    """The run: (rows, summary dict, failed solves)."""
    g, R, speed, r = 9.81, 0.12, 1.0, 0.025
    spacing = 2.0 * r + 0.001
    across, layers = int(math.floor(0.98 / spacing)), 3
    rows_bed = (spheres + across * layers - 1) // (across * layers) if spheres > 0 else 0
    terrain = Terrain(slope_deg * math.pi / 180.0, layers * spacing,
                      rows_bed * spacing + 0.01 if rows_bed > 0 else 0.0)
    if T <= 0.0:
        T = (2.0 if on_plateau else 6.0) + terrain.length / speed
    start_x = 4.0 if on_plateau else 0.0
    start_z = (terrain.plateau() if on_plateau else 0.0) + R + 0.001
    model = nsdyn.Model(0.0, T)
    nsds = model.nonSmoothDynamicalSystem()
    problem = nsdyn.GenericMechanical(solver)
    if budget > 0:  # budget mode: granular steps stop at the budget, accepted
        problem.setSolveMode("budget")
        problem.setMaxIter(budget)
    else:
        problem.setFallbackSolver("nsgs" if solver == "newton" else "newton")
        problem.setFallbackBound(0.0, 20000)
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, h), nsdyn.MoreauJeanOSI(0.5), problem)
    sim.setNewtonTolerance(1e-8)
    sim.setNewtonMaxIteration(20)
    contacts = nsdyn.ContactManager(0.005)  # margin = breaking distance = 5 mm
    contacts.setDefaultMaterial(mu, 0.0)
    sim.insertInteractionManager(contacts)

    # the heightfield, 5 cm cells from x = -1 to the far plateau, |y| <= 1
    dx, x0, x1 = 0.05, -1.0, 6.5 + terrain.length
    nx, ny = int(math.ceil((x1 - x0) / dx)) + 1, 41
    heights = np.array([[terrain.height(x0 + dx * i, -1.0 + dx * j) for i in range(nx)] for j in range(ny)])
    xc = x0 + 0.5 * dx * (nx - 1)  # grid centre
    ground = contacts.addBody(nsdyn.make_static_body(nsdyn.HeightfieldShape(heights, dx, name="terrain"),
                                                     [xc, 0.0, 0.0]))

    # the rover: chassis 0.7 x 0.3 x 0.1 m (20 kg), wheels of radius R (2 kg) at (+-0.3, +-0.3)
    c = nsdyn.make_body(nsdyn.BoxShape([0.35, 0.15, 0.05]), mass=20.0, position=[start_x, 0.0, start_z],
                        name="chassis")
    chassis = c.ds
    chassis.setFExt([0.0, 0.0, -g * chassis.scalarMass()])
    contacts.addBody(c, nsds, 1)
    wheels, wheel_index, joints, motors = [], [], [], []
    ramp, max_torque = 0.5, 10.0

    def wheel_rate(t):
        """The motors' target: a Python callable t -> rate, v/R reached over `ramp` seconds."""
        return speed / R * min(1.0, t / ramp)

    for k in range(4):
        wx, wy = (0.3 if k < 2 else -0.3), (0.3 if k % 2 == 0 else -0.3)
        w = nsdyn.make_body(nsdyn.SphereShape(R), mass=2.0, position=[start_x + wx, wy, start_z],
                            name="wheel%d" % (k + 1))
        wheel = w.ds
        wheel.setFExt([0.0, 0.0, -g * wheel.scalarMass()])
        wheels.append(wheel)
        wheel_index.append(contacts.addBody(w, nsds, 1))
        hinge = nsdyn.PivotJointR([start_x + wx, wy, start_z], [0.0, 1.0, 0.0], True, chassis, wheel)
        joints.append(nsdyn.Interaction(nsdyn.EqualityConditionNSL(5), hinge))
        nsds.link(joints[-1], chassis, wheel)
        motors.append(nsdyn.JointAxisR.motor(hinge, wheel_rate, max_torque))
        nsds.link(motors[-1], chassis, wheel)
    # the bed: layers of spheres on a square lattice in the trench
    bed_bottom = terrain.plateau() - terrain.depth
    placed = 0
    for layer in range(layers):
        for i in range(rows_bed):
            for j in range(across):
                if placed >= spheres:
                    break
                s = nsdyn.make_body(nsdyn.SphereShape(r), density=2500.0, name="grain%d" % placed,
                                    position=[4.5 + 0.5 * spacing + 0.005 + spacing * i,
                                              -0.5 * spacing * (across - 1) + spacing * j,
                                              bed_bottom + r + 0.0005 + spacing * layer])
                s.ds.setFExt([0.0, 0.0, -g * s.ds.scalarMass()])
                contacts.addBody(s, nsds, 2)
                placed += 1
    model.initialize(sim)
    print("Rover: slope %.3g deg, mu %.3g (atan mu = %.3g deg), %d spheres in a %.2f m bed"
          % (slope_deg, mu, math.atan(mu) * 180.0 / math.pi, placed, terrain.length))

    st_ = dict(roll=0.0, gap=math.inf, drift=0.0, slip_sum=0.0, slip_n=0, reached=0.0)
    rows = []

    def row(t, st):
        q, v = chassis.q(), chassis.velocity()
        Rc = chassis.rotationMatrix()
        pitch = math.atan2(-Rc[2, 0], Rc[0, 0])  # nose up: positive
        # velocity along the chassis x axis and the wheels' world spin about the chassis y axis
        along = Rc[0, 0] * v[0] + Rc[1, 0] * v[1] + Rc[2, 0] * v[2]
        rim = roll_error = 0.0
        for w in wheels:
            Rw, vw = w.rotationMatrix(), w.velocity()
            spin = 0.0  # (Rw Omega) . (Rc e_y), summed in the order of Rover.cpp
            for a in range(3):
                for b in range(3):
                    spin += Rc[a, 1] * Rw[a, b] * vw[3 + b]
            rim += 0.25 * spin * R
            roll_error = max(roll_error, abs(v[0] - spin * R))
        slip = 1.0 - along / rim if abs(rim) > 1e-3 else 0.0
        flat = q[0] > -0.5 and q[0] + 0.3 + R < 2.0 and t > 1.0
        if flat:
            st_["roll"] = max(st_["roll"], roll_error)
        if q[0] - 0.3 > 2.1 and q[0] + 0.3 + R < 3.5:  # all wheels on the slope
            st_["slip_sum"] += slip
            st_["slip_n"] += 1
        st_["reached"] = max(st_["reached"], q[0])
        cs = contacts.contacts()
        a, b = cs["body_a"], cs["body_b"]
        on_ground = ((a == ground) & np.isin(b, wheel_index)) | ((b == ground) & np.isin(a, wheel_index))
        gap = float(cs["gap"][on_ground].min()) if on_ground.any() else math.inf
        if math.isfinite(gap):
            st_["gap"] = min(st_["gap"], gap)
        drift = max(float(np.abs(inter.y(0)).max()) for inter in joints)
        st_["drift"] = max(st_["drift"], drift)
        torque = problem.reaction(motors[0])[0] if t > 0.0 else 0.0
        rows.append([t, q[0], q[2], v[0], pitch, rim, roll_error if flat else 0.0, slip,
                     gap if math.isfinite(gap) else 0.0, torque, drift, cs["active_count"],
                     st["newton_iterations"] if st else 0])

    N = int(round(T / h))
    run = example_run.run(sim, N, row, "Rover", [chassis] + wheels, vtk_dir, quiet)
    summary = dict(steps=N, spheres=placed, newton=run.newton, max_roll_error=st_["roll"],
                   mean_slip=st_["slip_sum"] / st_["slip_n"] if st_["slip_n"] else 0.0, slip_steps=st_["slip_n"],
                   min_wheel_gap=st_["gap"], max_drift=st_["drift"], reached_x=st_["reached"],
                   final_z=chassis.q()[2], plateau=terrain.plateau(), vtk=run.vtk)
    return np.array(rows), summary, run.failed


def main():
    parser = example_run.parser(__doc__)
    parser.add_argument("--spheres", type=int, default=2000, help="spheres in the bed (0: no trench)")
    parser.add_argument("--slope", type=float, default=15.0, help="slope angle in deg (default 15)")
    parser.add_argument("--mu", type=float, default=0.8, help="friction coefficient (default 0.8)")
    parser.add_argument("--time", type=float, default=-1.0, help="simulated time (default: across the bed)")
    parser.add_argument("--step", type=float, default=2e-3, help="time step (default 2e-3)")
    parser.add_argument("--solver", choices=["nsgs", "newton"], default="nsgs")
    parser.add_argument("--budget", type=int, default=100, help="solver iterations per step (0: tolerance mode)")
    parser.add_argument("--on-plateau", action="store_true", help="start 0.5 m before the bed")
    args = example_run.parse(
        parser, lambda a: (0 <= a.spheres <= 20000 and 0.0 <= a.slope <= 30.0 and 0.0 <= a.mu <= 10.0
                           and 0 <= a.budget <= 100000 and 0.0 < a.step <= 0.01 and a.time <= 100.0),
        "--spheres in [0, 20000], --slope in [0, 30], --mu in [0, 10], --budget in [0, 100000], "
        "--step in (0, 0.01], --time at most 100")
    rows, m, failed = simulate(args.spheres, args.slope, args.mu, args.step, args.time, args.on_plateau,
                               args.solver, args.budget, args.quiet, args.output)
    lines = [
        ("time step, steps", "%g, %d (%d spheres, failed solves: %d)" % (args.step, m["steps"], m["spheres"], failed)),
        ("Newton iterations/step", "%d to %d" % m["newton"]),
        ("flat, rolling", "max |vx - omega R| %.3e m/s (1 s < t, all wheels on the flat)" % m["max_roll_error"]),
        ("slope", "mean slip %.3e over %d steps (all wheels on it)" % (m["mean_slip"], m["slip_steps"])),
        ("wheel-heightfield gap", "deepest %.3e m" % m["min_wheel_gap"]),
        ("hinge drift", "max ||y0||inf %.3e (no projection)" % m["max_drift"]),
        ("chassis", "reached x = %.3f m, final z = %.3f m (plateau %.3f)"
         % (m["reached_x"], m["final_z"], m["plateau"])),
    ]
    panels = [("position (m)", [(1, "x (m)"), (2, "z (m)")]),
              ("speed (m/s)", [(3, "vx (m/s)"), (5, "omega R (m/s)")]),
              ("slip", [(7, "slip")]),
              ("motor torque (N m)", [(9, "torque (N m)")])]
    return example_run.finish(args, "Rover", rows, COLUMNS, m, failed, lines,
                              "Rover: flat, slope, bed of spheres", panels, figsize=(8, 10))


if __name__ == "__main__":
    sys.exit(main())
