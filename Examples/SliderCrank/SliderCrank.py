#!/usr/bin/env python3
"""SliderCrank (Python twin of SliderCrank.cpp): a motor-driven slider-crank stopped by a wall.

    PYTHONPATH=build/python python3 Examples/SliderCrank/SliderCrank.py [--output DIR] [--no-plot]
        [--quiet] [--step H] [--time T] [--wall limit|contact] [--no-projection]

The model of SliderCrank.cpp (README.md): a crank (r = 0.1 m, 1 kg) hinged to the world about
y and driven by a velocity motor (2 pi rad/s, at most 2 N m), a rod (L = 0.3 m, 0.5 kg) on ball
joints, a slider (a 1 kg box) on a prismatic joint along x; the wall stops the slider centre at
x = 0.35 m (--wall limit: JointAxisR.upperLimit, projected; --wall contact: a static half-space
found by a ContactManager). Joints, motor and wall in one GenericMechanical problem ("newton",
1e-12), TimeSteppingDirectProjection + MoreauJeanDirectProjectionOSI(1/2), h = 1e-3, T = 1.

Writes DIR/SliderCrank.csv (the columns of the C++ example, row 0 the initial state), with
Matplotlib DIR/SliderCrank.png, and the VTK frames of the bodies (every 10th step) with
DIR/SliderCrank.pvd, the files of the C++ example. Exit status 1 when a solve failed.
"""
import math
import os
import sys

import numpy as np

import nsdyn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import example_run  # noqa: E402 (Examples/python: options, step loop, CSV, summary and plot of the twins)

R_CRANK, L_ROD, OMEGA, TORQUE, STOP = 0.1, 0.3, 2.0 * math.pi, 2.0, 0.35
HALF = 0.03  # slider half-length along x
COLUMNS = ["t", "theta", "omega", "x", "x_closed", "x_error", "v", "motor_torque", "wall_force",
           "wall_gap", "joint_drift", "joint_angle_drift", "kinetic", "motor_work",
           "active_contacts", "newton_iterations", "projection_iterations"]


def slider_position(th):
    """Closed-form slider position of the in-line slider-crank."""
    s = math.sin(th)
    return R_CRANK * math.cos(th) + math.sqrt(L_ROD * L_ROD - R_CRANK * R_CRANK * s * s)


def world_point(body, p):
    return body.q()[:3] + body.rotationMatrix() @ np.asarray(p, dtype=float)


def equality(joint):
    return nsdyn.Interaction(nsdyn.EqualityConditionNSL(joint.rows()), joint)


def simulate(h=1e-3, T=1.0, wall="limit", projection=True, quiet=False, vtk_dir=None):
    """The run: (rows, summary dict, failed solves)."""
    N = int(round(T / h))
    g, th0 = 9.81, math.pi
    detected = wall == "contact"
    mc, mr, ms = 1.0, 0.5, 1.0
    qy = [math.cos(th0 / 2), 0.0, math.sin(th0 / 2), 0.0]
    Omega = OMEGA * R_CRANK / L_ROD  # rod rate at the dead centre
    crank = nsdyn.NewtonEulerDS([-R_CRANK / 2, 0.0, 0.0] + qy, [0, 0, OMEGA * R_CRANK / 2, 0, OMEGA, 0],
                                mc, [1e-4, mc * R_CRANK ** 2 / 12, mc * R_CRANK ** 2 / 12])
    rod = nsdyn.NewtonEulerDS([L_ROD / 2 - R_CRANK, 0, 0, 1, 0, 0, 0], [0, 0, OMEGA * R_CRANK / 2, 0, Omega, 0],
                              mr, [1e-4, mr * L_ROD ** 2 / 12, mr * L_ROD ** 2 / 12])
    slider_body = nsdyn.make_body(nsdyn.BoxShape([HALF, 0.02, 0.02]), mass=ms,
                                  position=[L_ROD - R_CRANK, 0.0, 0.0], name="slider")
    slider = slider_body.ds
    crank.setFExt([0.0, -mc * g, 0.0])
    rod.setFExt([0.0, -mr * g, 0.0])
    slider.setFExt([0.0, -ms * g, 0.0])

    model = nsdyn.Model(0.0, N * h)
    nsds = model.nonSmoothDynamicalSystem()
    nsds.insertDynamicalSystem(crank)
    nsds.insertDynamicalSystem(rod)
    problem = nsdyn.GenericMechanical("newton")
    problem.setTolerance(1e-12)
    td = nsdyn.TimeDiscretisation(0.0, h)
    if projection:
        sim = nsdyn.TimeSteppingDirectProjection(td, nsdyn.MoreauJeanDirectProjectionOSI(0.5), problem)
        sim.setProjectionMaxIteration(500)
        sim.setConstraintTol(1e-10)
        sim.setConstraintTolUnilateral(1e-10)
    else:
        sim = nsdyn.TimeStepping(td, nsdyn.MoreauJeanOSI(0.5), problem)
    sim.setNewtonTolerance(1e-10)
    sim.setNewtonMaxIteration(50)
    contacts = nsdyn.ContactManager(2e-3)  # margin = breaking distance = 2 mm
    contacts.setDefaultMaterial(0.0, 0.0)  # frictionless wall, e = 0
    wall_x = STOP + HALF
    contacts.addBody(nsdyn.make_static_body(nsdyn.HalfSpaceShape([-1.0, 0.0, 0.0], -wall_x)))
    if detected:
        contacts.addBody(slider_body, nsds)
        sim.insertInteractionManager(contacts)
    else:
        nsds.insertDynamicalSystem(slider)

    y, x = [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]
    hinge = nsdyn.PivotJointR([0.0, 0.0, 0.0], y, True, crank)
    pin = nsdyn.KneeJointR([R_CRANK / 2, 0.0, 0.0], False, crank, rod)
    wrist = nsdyn.KneeJointR([L_ROD / 2, 0.0, 0.0], False, rod, slider)
    guide = nsdyn.PrismaticJointR(x, True, slider)
    nsds.link(equality(hinge), crank)
    nsds.link(equality(pin), crank, rod)
    nsds.link(equality(wrist), rod, slider)
    nsds.link(equality(guide), slider)
    motor = nsdyn.JointAxisR.motor(hinge, OMEGA, TORQUE)
    nsds.link(motor, crank)
    limit = None
    if not detected:  # slider coordinate (0 at x = L - r) at most STOP - (L - r)
        limit = nsdyn.JointAxisR.upperLimit(guide, STOP - (L_ROD - R_CRANK))
        nsds.link(limit, slider)
    model.initialize(sim)

    s = dict(theta=th0, work=0.0, drift=0.0, angle=0.0, gap=1e300, xerr=0.0, impact=-1.0)
    rows = []

    def row(t, st):
        qc = crank.q()
        a = 2.0 * math.atan2(qc[5], qc[3])  # crank angle about y, unwrapped
        a += 2.0 * math.pi * round((s["theta"] - a) / (2.0 * math.pi))
        s["theta"] = a
        qs = slider.q()
        xs, xc = qs[0], slider_position(a)
        torque = force = 0.0
        active = 0
        if st is not None:
            torque = problem.reaction(motor)[0]
            s["work"] += nsdyn.JointAxisR.work(motor)
            if limit is not None:
                force = problem.reaction(limit)[0]
                active = 1 if force > 0.0 else 0
            else:
                cs = contacts.contacts()
                active = int(cs["active"].sum())
                force = float(cs["impulse"][cs["active"], 0].sum()) / h
        if active > 0 and s["impact"] < 0.0:
            s["impact"] = t
        if s["impact"] < 0.0:
            s["xerr"] = max(s["xerr"], abs(xs - xc))
        gap = wall_x - (xs + HALF)
        s["gap"] = min(s["gap"], gap)
        # joint violations: hinge point and axis, both ball joints, the slider's line and orientation
        d1 = np.linalg.norm(world_point(crank, [-R_CRANK / 2, 0, 0]))
        d2 = np.linalg.norm(world_point(crank, [R_CRANK / 2, 0, 0]) - world_point(rod, [-L_ROD / 2, 0, 0]))
        d3 = np.linalg.norm(world_point(rod, [L_ROD / 2, 0, 0]) - qs[:3])
        d4 = math.hypot(qs[1], qs[2])
        drift = max(d1, d2, d3, d4)
        Rc = crank.rotationMatrix()
        axis_off = math.hypot(Rc[0, 1], Rc[2, 1])
        slider_turn = 2.0 * math.asin(min(1.0, math.sqrt(qs[4] ** 2 + qs[5] ** 2 + qs[6] ** 2)))
        angle = max(axis_off, slider_turn)
        s["drift"] = max(s["drift"], drift)
        s["angle"] = max(s["angle"], angle)
        kinetic = crank.kineticEnergy() + rod.kineticEnergy() + slider.kineticEnergy()
        rows.append([t, a, crank.velocity()[4], xs, xc, xs - xc, slider.velocity()[0], torque, force, gap,
                     drift, angle, kinetic, s["work"], active,
                     st["newton_iterations"] if st else 0, st["projection_iterations"] if st else 0])

    run = example_run.run(sim, N, row, "SliderCrank", [crank, rod, slider], vtk_dir, quiet)
    th = s["theta"]
    sn = math.sin(th)
    dx = -R_CRANK * sn - R_CRANK ** 2 * sn * math.cos(th) / math.sqrt(L_ROD ** 2 - R_CRANK ** 2 * sn * sn)
    summary = dict(steps=N, first_contact=s["impact"], max_x_error=s["xerr"], min_wall_gap=s["gap"],
                   max_drift=s["drift"], max_angle_drift=s["angle"], theta=th, x=slider.q()[0],
                   motor_torque=problem.reaction(motor)[0], closed_force=TORQUE / dx,
                   motor_work=s["work"], newton=run.newton,
                   projection_failures=sim.projectionFailures() if projection else 0, vtk=run.vtk)
    return np.array(rows), summary, run.failed


def main():
    parser = example_run.parser(__doc__)
    parser.add_argument("--step", type=float, default=1e-3, help="time step (default 1e-3)")
    parser.add_argument("--time", type=float, default=1.0, help="simulated time (default 1)")
    parser.add_argument("--wall", choices=["limit", "contact"], default="limit")
    parser.add_argument("--no-projection", action="store_true", help="TimeStepping, no projection")
    args = example_run.parse(parser, lambda a: 0.0 < a.step <= 0.01 and 0.0 < a.time <= 100.0,
                             "--step in (0, 0.01], --time in (0, 100]")
    rows, m, failed = simulate(args.step, args.time, args.wall, not args.no_projection, args.quiet,
                               args.output)
    lines = [
        ("time step, steps", "%g, %d (%s, wall: %s)" % (
            args.step, m["steps"], "TimeStepping" if args.no_projection else "TimeSteppingDirectProjection",
            "detected contacts" if args.wall == "contact" else "joint limit")),
        ("failed solves", "%d" % failed),
        ("Newton iterations/step", "%d to %d" % m["newton"]),
        ("first wall contact", "t = %.4f s" % m["first_contact"]),
        ("max |x - x(theta)|", "%.3e m (before the first contact)" % m["max_x_error"]),
        ("min wall gap", "%.3e m" % m["min_wall_gap"]),
        ("max joint drift", "%.3e m, %.3e rad" % (m["max_drift"], m["max_angle_drift"])),
        ("final crank angle", "%.6f rad, x = %.6f m" % (m["theta"], m["x"])),
        ("final motor torque", "%.6f N m (limit %g)" % (m["motor_torque"], TORQUE)),
        ("stalled wall force", "closed form tau_max / x'(theta) = %.6f N" % m["closed_force"]),
        ("motor work", "%.6f J" % m["motor_work"]),
    ]
    panels = [("position (m)", [(3, "x slider"), (4, "x(theta) closed form", "--")]),
              ("torque (N m), force (N)", [(7, "motor torque"), (8, "wall force")]),
              ("violation (m)", [(10, "joint drift"), (9, "wall gap")])]
    return example_run.finish(args, "SliderCrank", rows, COLUMNS, m, failed, lines,
                              "SliderCrank: motor-driven crank, slider stopped by a wall", panels)


if __name__ == "__main__":
    sys.exit(main())
