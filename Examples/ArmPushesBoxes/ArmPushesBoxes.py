#!/usr/bin/env python3
"""ArmPushesBoxes (Python twin of ArmPushesBoxes.cpp): a six-hinge arm under PD control pushes a
stack of four boxes off a table.

    PYTHONPATH=build/python python3 Examples/ArmPushesBoxes/ArmPushesBoxes.py [--time T] [--step H]
        [--solver newton|nsgs] [--paddle] [--output DIR] [--no-plot] [--quiet]

The model of ArmPushesBoxes.cpp (README.md): capsule links chained by PivotJointR hinges (base
yaw hinged to the world, shoulder, elbow, wrist pitch, wrist roll, a pusher on the last pitch
hinge), each with a velocity motor (JointAxisR.motor, torque limits 150, 150, 100, 40, 20, 20 N m)
whose target is a Python callable: the position servo

    rate(t) = rate_ref(t) + kp (angle_ref(t) - angle),   kp = 20 1/s

on a quintic reference, the angle read from the bodies' current state (JointAxisR.coordinate):
a PD law on the angle. A static box table, a floor, four 10 cm boxes; joints, motors and the
detected contacts (mu = 0.5, e = 0) in one GenericMechanical problem ("newton", 1e-8, Gauss-Seidel
fallback), Moreau-Jean 1/2, h = 2 ms, T = 5 s.

Writes DIR/ArmPushesBoxes.csv (the columns of the C++ example), with Matplotlib
DIR/ArmPushesBoxes.png, and the VTK frames of the links and boxes (every 10th step) with
DIR/ArmPushesBoxes.pvd, the files of the C++ example. Exit status 1 when a solve failed (the full run: 3 impact steps).
"""
import math
import os
import sys

import numpy as np

import nsdyn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import example_run  # noqa: E402 (Examples/python: options, step loop, CSV, summary and plot of the twins)

DEG = math.pi / 180.0
KP = 20.0  # 1/s: the servo's position gain (rate per rad of error)
MAX_TORQUE = [150.0, 150.0, 100.0, 40.0, 20.0, 20.0]
COLUMNS = (["t"] + ["angle%d" % j for j in range(1, 7)] + ["error%d" % j for j in range(1, 7)]
           + ["drift", "table_gap", "boxes_on_table", "self_contacts", "motor_work", "newton_iterations"])


def smooth_step(t, t0, t1, a, b):
    """Quintic smooth step from a to b over [t0, t1]: (value, rate)."""
    if t <= t0:
        return a, 0.0
    if t >= t1:
        return b, 0.0
    d = t1 - t0
    u = (t - t0) / d
    s = u * u * u * (10.0 - 15.0 * u + 6.0 * u * u)
    ds = 30.0 * u * u * (1.0 - u) * (1.0 - u) / d
    return a + (b - a) * s, (b - a) * ds


def reference(j, t):
    """The reference angle and rate of hinge j (0-based) at t."""
    if j == 0:
        if t < 2.0:
            return smooth_step(t, 0.0, 0.5, 0.0, -40.0 * DEG)
        return smooth_step(t, 2.0, 4.0, -40.0 * DEG, 70.0 * DEG)
    if j <= 3:
        return smooth_step(t, 0.5, 1.5, 0.0, 60.0 * DEG)
    return 0.0, 0.0


def simulate(T=5.0, h=2e-3, solver="newton", paddle=False, quiet=False, vtk_dir=None):
    """The run: (rows, summary dict, failed solves)."""
    g, base = 9.81, 0.5
    model = nsdyn.Model(0.0, T)
    nsds = model.nonSmoothDynamicalSystem()
    problem = nsdyn.GenericMechanical(solver)
    # Gauss-Seidel over the blocks finishes the steps where the global Newton stalls
    problem.setFallbackSolver("nsgs" if solver == "newton" else "newton")
    problem.setFallbackBound(0.0, 20000)
    problem.setMaxIter(20000)
    problem.setTolerance(1e-8)
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, h), nsdyn.MoreauJeanOSI(0.5), problem)
    sim.setNewtonTolerance(1e-8)
    sim.setNewtonMaxIteration(20)
    contacts = nsdyn.ContactManager(0.005)  # margin = breaking distance = 5 mm
    contacts.setDefaultMaterial(0.5, 0.0)
    sim.insertInteractionManager(contacts)

    # the floor and the table (top at z = 0.44, under the paddle of the first target pose)
    contacts.addBody(nsdyn.make_static_body(nsdyn.HalfSpaceShape([0, 0, 1], 0.0)))
    table_top = 0.44
    table_centre = [0.866, -0.05, table_top - 0.02]
    table_half = [0.35, 0.45, 0.02]
    table = contacts.addBody(nsdyn.make_static_body(nsdyn.BoxShape(table_half), table_centre))

    # the arm, upright at t = 0: joint j at height zj on the z axis, link j from joint j up
    zj = [base, base + 0.4, base + 0.9, base + 1.4, base + 1.52, base + 1.64, base + 1.84]
    radius = [0.05, 0.04, 0.035, 0.03, 0.03, 0.0]
    links = []
    for j in range(6):
        length = zj[j + 1] - zj[j]
        if j == 5 and paddle:  # a plate thin along y (the sweep direction)
            shapes = [(nsdyn.BoxShape([0.08, 0.015, 0.5 * length - 0.01]), (0, 0, 0.5 * length + 0.01))]
        elif j == 5:  # the pusher: a capsule from 3.5 cm below the joint to the tip
            half = 0.5 * (length - 0.035 - 0.06)
            shapes = [(nsdyn.CapsuleShape(0.03, half), (0, 0, 0.065 + half))]
        else:
            clear = 0.035 if j >= 3 else 0.06  # short wrist links: less clearance
            half = max(0.5 * length - clear - radius[j], 0.005)
            shapes = [(nsdyn.CapsuleShape(radius[j], half), (0, 0, 0.5 * length))]
        body = nsdyn.make_body(shapes, density=1000.0, position=[0, 0, zj[j]], name="link%d" % (j + 1))
        body.ds.setFExt([0.0, 0.0, -g * body.ds.scalarMass()])
        links.append(body.ds)
        contacts.addBody(body, nsds, 1)
    # the stack: four 10 cm boxes on the table, on the paddle's path at yaw 0
    b = 0.05
    boxes = []
    for k in range(4):
        body = nsdyn.make_body(nsdyn.BoxShape([b, b, b]), density=500.0,
                               position=[0.866, 0.0, table_top + b + 2.0 * b * k], name="box%d" % (k + 1))
        body.ds.setFExt([0.0, 0.0, -g * body.ds.scalarMass()])
        boxes.append(body.ds)
        contacts.addBody(body, nsds, 2)

    # the hinges: yaw (world z), pitch (y), pitch, pitch, roll (z), pitch (y)
    ay, az = [0, 1, 0], [0, 0, 1]
    axes = [az, ay, ay, ay, az, ay]
    hinges, joints, coords, motors = [], [], [], []
    for j in range(6):
        P = [0.0, 0.0, zj[j]]
        hinge = (nsdyn.PivotJointR(P, axes[j], True, links[0]) if j == 0
                 else nsdyn.PivotJointR(P, axes[j], True, links[j - 1], links[j]))
        hinges.append(hinge)
        joints.append(nsdyn.Interaction(nsdyn.EqualityConditionNSL(5), hinge))
        coords.append(nsdyn.JointAxisR(hinge))  # the angle reader

    def angle(j):
        """The angle of hinge j at the bodies' current state."""
        if j == 0:
            return coords[0].coordinate(links[0].q())
        return coords[j].coordinate(np.concatenate((links[j - 1].q(), links[j].q())))

    def servo(j):
        """The PD controller of hinge j: a Python callable t -> target rate of its motor."""
        def target(t):
            ref, rate = reference(j, t)
            return rate + KP * (ref - angle(j))
        return target

    for j in range(6):
        motors.append(nsdyn.JointAxisR.motor(hinges[j], servo(j), MAX_TORQUE[j]))
    for j in range(6):
        ds = (links[0],) if j == 0 else (links[j - 1], links[j])
        nsds.link(joints[j], *ds)
        nsds.link(motors[j], *ds)
    model.initialize(sim)

    s = dict(work=0.0, drift=0.0, gap=math.inf, pose=0.0, rest=0.0, self=0)
    rows = []

    def on_table():
        n = 0
        for box in boxes:
            x, y, z = box.q()[:3]
            if z > table_top and abs(x - table_centre[0]) < table_half[0] and abs(y - table_centre[1]) < table_half[1]:
                n += 1
        return n

    def row(t, st):
        if st is not None:
            for m in motors:
                s["work"] += nsdyn.JointAxisR.work(m)
        angles = [angle(j) for j in range(6)]
        errors = [reference(j, t)[0] - angles[j] for j in range(6)]
        worst = max(abs(e) for e in errors)
        drift = max(float(np.abs(inter.y(0)).max()) for inter in joints)
        s["drift"] = max(s["drift"], drift)
        # the deepest box-table gap and the arm's contacts with itself (group 1 both sides)
        cs = contacts.contacts()
        a, bb = cs["body_a"], cs["body_b"]
        touching = (a == table) | (bb == table)
        gap = float(cs["gap"][touching].min()) if touching.any() else math.inf
        self_contacts = int(((a >= 2) & (a < 8) & (bb >= 2) & (bb < 8)).sum())
        if math.isfinite(gap):
            s["gap"] = min(s["gap"], gap)
        s["self"] = max(s["self"], self_contacts)
        if abs(t - 2.0) < 0.5 * h:
            s["pose"] = worst
        if t > 4.5:
            s["rest"] = max(s["rest"], worst)
        rows.append([t] + angles + errors + [drift, gap if math.isfinite(gap) else 0.0, on_table(),
                                            self_contacts, s["work"], st["newton_iterations"] if st else 0])

    N = int(round(T / h))
    run = example_run.run(sim, N, row, "ArmPushesBoxes", links + boxes, vtk_dir, quiet)
    summary = dict(steps=N, newton=run.newton, pose_error=s["pose"], rest_error=s["rest"],
                   max_drift=s["drift"], min_table_gap=s["gap"], self_contacts=s["self"],
                   motor_work=s["work"], on_table=on_table(), vtk=run.vtk)
    return np.array(rows), summary, run.failed


def main():
    parser = example_run.parser(__doc__)
    parser.add_argument("--time", type=float, default=5.0, help="simulated time (default 5; 2: the first pose)")
    parser.add_argument("--step", type=float, default=2e-3, help="time step (default 2e-3)")
    parser.add_argument("--solver", choices=["newton", "nsgs"], default="newton")
    parser.add_argument("--paddle", action="store_true", help="the last link a flat plate")
    args = example_run.parse(parser, lambda a: 0.0 < a.step <= 0.01 and 0.0 < a.time <= 60.0,
                             "--step in (0, 0.01], --time in (0, 60]")
    rows, m, failed = simulate(args.time, args.step, args.solver, args.paddle, args.quiet, args.output)
    lines = [("time step, steps", "%g, %d (failed solves: %d)" % (args.step, m["steps"], failed)),
             ("Newton iterations/step", "%d to %d" % m["newton"])]
    if args.time >= 2.0:
        lines.append(("first target pose", "max |angle_ref - angle| %.3e rad at t = 2 s" % m["pose_error"]))
    if args.time > 4.5:
        lines.append(("at rest (t > 4.5 s)", "max |angle_ref - angle| %.3e rad" % m["rest_error"]))
    lines += [
        ("hinge drift", "max ||y0||inf %.3e (no projection)" % m["max_drift"]),
        ("box-table gap", "deepest %.3e m" % m["min_table_gap"]),
        ("arm self-contacts", "at most %d" % m["self_contacts"]),
        ("motor work", "%.4f J" % m["motor_work"]),
        ("boxes", "%d of 4 still on the table, %d pushed off" % (m["on_table"], 4 - m["on_table"])),
    ]
    hinges = ("yaw", "shoulder", "elbow", "wrist")
    panels = [("angle (rad)", [(1 + j, name) for j, name in enumerate(hinges)]),
              ("tracking error (rad)", [(7 + j, "error " + name) for j, name in enumerate(hinges[:3])]),
              ("boxes", [(15, "boxes on table")])]
    return example_run.finish(args, "ArmPushesBoxes", rows, COLUMNS, m, failed, lines,
                              "ArmPushesBoxes: six-hinge arm, PD servo, boxes pushed off a table", panels)


if __name__ == "__main__":
    sys.exit(main())
