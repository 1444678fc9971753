#!/usr/bin/env python3
"""ChainOnPile (Python twin of ChainOnPile.cpp): a chain of 50 links on ball joints falling onto a
pile of spheres.

    PYTHONPATH=build/python python3 Examples/ChainOnPile/ChainOnPile.py [--output DIR] [--no-plot]
        [--quiet] [--time T] [--layers N] [--solver nsgs|newton]

The model of ChainOnPile.cpp (README.md): 50 steel capsule links (radius 8 mm, half-length 9 mm
along the body x axis) joined by KneeJointR ball joints (pitch 5 cm), released at rest 10 cm
above a square pyramid of spheres (radius 5 cm, 2500 kg/m3, --layers N, default 5) on the floor
z = 0. Every contact is found by a ContactManager (mu = 0.5, e = 0, swept detection) and solved
with the joints in one GenericMechanical problem per step ("nsgs", tolerance 1e-4, budget mode
of 2000 sweeps), TimeStepping + MoreauJeanOSI(1/2), h = 1e-3, T = 2.

Writes DIR/ChainOnPile.csv (the columns of the C++ example, row 0 the initial state), with
Matplotlib DIR/ChainOnPile.png, and the VTK frames of the bodies (every 10th step) with
DIR/ChainOnPile.pvd, the files of the C++ example. Exit status 1 when a solve failed.
"""
import math
import os
import sys

import numpy as np

import nsdyn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import example_run  # noqa: E402 (Examples/python: options, step loop, CSV, summary and plot of the twins)

LINKS, LINK_R, LINK_HALF, PITCH, SPHERE_R, G = 50, 0.008, 0.009, 0.05, 0.05, 9.81
COLUMNS = ["t", "kinetic", "potential", "energy", "chain_kinetic", "joint_drift", "floor_gap",
           "min_contact_gap", "contacts", "active_contacts", "solver_iterations", "residual",
           "chain_min_z", "chain_max_z"]


def simulate(T=2.0, layers=5, solver="nsgs", quiet=False, vtk_dir=None):
    """The run: (rows, summary dict, failed solves)."""
    h = 1e-3
    N = int(round(T / h))
    model = nsdyn.Model(0.0, N * h)
    nsds = model.nonSmoothDynamicalSystem()
    problem = nsdyn.GenericMechanical(solver)
    problem.setTolerance(1e-4)
    problem.setMaxIter(2000)
    # budget mode: 2000 sweeps are the step's budget; a step stopped there is accepted
    problem.setSolveMode("budget")
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, h), nsdyn.MoreauJeanOSI(0.5), problem)
    sim.setNewtonTolerance(1e-8)
    sim.setNewtonMaxIteration(20)
    contacts = nsdyn.ContactManager(swept_detection=True, threads=1)
    contacts.setDefaultMaterial(0.5, 0.0)
    contacts.addBody(nsdyn.make_static_body(nsdyn.HalfSpaceShape([0.0, 0.0, 1.0], 0.0)))

    bodies = []
    top = 0.0
    for layer in range(layers):  # layer l: (layers - l)^2 spheres, each in a pocket of four
        n = layers - layer
        z = SPHERE_R + layer * math.sqrt(2.0) * SPHERE_R
        for i in range(n):
            for j in range(n):
                b = nsdyn.make_body(nsdyn.SphereShape(SPHERE_R), density=2500.0, name="sphere",
                                    position=[(i - 0.5 * (n - 1)) * 2.0 * SPHERE_R,
                                              (j - 0.5 * (n - 1)) * 2.0 * SPHERE_R, z])
                bodies.append(b.ds)
                contacts.addBody(b, nsds, 0)
                top = max(top, z + SPHERE_R)
    spheres = len(bodies)
    c = math.sqrt(0.5)  # capsule axis = shape z, turned onto the body x axis
    links = []
    for i in range(LINKS):
        b = nsdyn.make_body([(nsdyn.CapsuleShape(LINK_R, LINK_HALF), (0, 0, 0), (c, 0, c, 0))],
                            density=7800.0, position=[(i - 0.5 * (LINKS - 1)) * PITCH, 0.0, top + 0.1],
                            name="link%d" % i)
        links.append(b.ds)
        bodies.append(b.ds)
        contacts.addBody(b, nsds, 1)
    for b in bodies:
        b.setFExt([0.0, 0.0, -b.scalarMass() * G])
    for i in range(LINKS - 1):
        j = nsdyn.KneeJointR([0.5 * PITCH, 0.0, 0.0], False, links[i], links[i + 1])
        nsds.link(nsdyn.Interaction(nsdyn.EqualityConditionNSL(3), j), links[i], links[i + 1])
    sim.insertInteractionManager(contacts)
    model.initialize(sim)

    s = dict(above=0, worst=0.0, drift=0.0, floor=1e300, gap=1e300, E0=0.0, rise=0.0, Eprev=0.0)
    rows = []

    def row(t, st):
        K = P = Kc = 0.0
        floor = zmin = 1e300
        zmax = -1e300
        ends = []
        for b, body in enumerate(bodies):
            q = body.q()
            k = body.kineticEnergy()
            K += k
            P += body.scalarMass() * G * q[2]
            if b < spheres:
                floor = min(floor, q[2] - SPHERE_R)
            else:
                Kc += k
                ex = body.rotationMatrix()[:, 0]
                floor = min(floor, q[2] - LINK_HALF * abs(ex[2]) - LINK_R)
                zmin = min(zmin, q[2])
                zmax = max(zmax, q[2])
                ends.append((q[:3] - 0.5 * PITCH * ex, q[:3] + 0.5 * PITCH * ex))
        drift = max(float(np.linalg.norm(ends[i][1] - ends[i + 1][0])) for i in range(LINKS - 1))
        cs = contacts.contacts()
        gap = min(0.0, float(cs["gap"].min())) if len(cs["gap"]) else 0.0
        if st is not None:
            s["above"] += 1 if st["above_tolerance"] else 0
            s["worst"] = max(s["worst"], st["residual"])
        else:
            s["E0"] = s["Eprev"] = K + P
        s["rise"] = max(s["rise"], K + P - s["Eprev"])
        s["Eprev"] = K + P
        s["drift"] = max(s["drift"], drift)
        s["floor"] = min(s["floor"], floor)
        s["gap"] = min(s["gap"], gap)
        rows.append([t, K, P, K + P, Kc, drift, floor, gap, len(cs["gap"]), cs["active_count"],
                     st["iterations"] if st else 0, st["residual"] if st else 0.0, zmin, zmax])

    run = example_run.run(sim, N, row, "ChainOnPile", bodies, vtk_dir, quiet)
    summary = dict(steps=N, spheres=spheres, newton=run.newton, above=s["above"],
                   worst_residual=s["worst"], max_drift=s["drift"], min_floor_gap=s["floor"],
                   min_contact_gap=s["gap"], E0=s["E0"], E=s["Eprev"], max_rise=s["rise"],
                   chain_kinetic=sum(link.kineticEnergy() for link in links), vtk=run.vtk)
    return np.array(rows), summary, run.failed


def main():
    parser = example_run.parser(__doc__)
    parser.add_argument("--time", type=float, default=2.0, help="simulated time (default 2)")
    parser.add_argument("--layers", type=int, default=5, help="pyramid layers in [1, 12] (default 5)")
    parser.add_argument("--solver", choices=["nsgs", "newton"], default="nsgs")
    args = example_run.parse(parser, lambda a: 1 <= a.layers <= 12 and 0.0 < a.time <= 100.0,
                             "--layers in [1, 12], --time in (0, 100]")
    rows, m, failed = simulate(args.time, args.layers, args.solver, args.quiet, args.output)
    lines = [
        ("steps", "%d (failed solves: %d)" % (m["steps"], failed)),
        ("bodies", "%d links, %d spheres, %d ball joints (%s)" % (LINKS, m["spheres"], LINKS - 1, args.solver)),
        ("Newton iterations/step", "%d to %d" % m["newton"]),
        ("solver budget", "%d of %d steps stopped at 2000 sweeps above 1e-4 (largest residual %.2e)"
         % (m["above"], m["steps"], m["worst_residual"])),
        ("max joint drift", "%.3e m" % m["max_drift"]),
        ("min floor gap", "%.3e m" % m["min_floor_gap"]),
        ("min contact gap", "%.3e m (detected contacts, step start)" % m["min_contact_gap"]),
        ("energy", "%.6f J at t = 0, %.6f J at the end" % (m["E0"], m["E"])),
        ("largest energy rise", "%.3e J in one step" % m["max_rise"]),
        ("chain kinetic energy", "%.3e J at the end" % m["chain_kinetic"]),
    ]
    panels = [("energy (J)", [(1, "kinetic"), (3, "energy")]),
              ("violation (m)", [(5, "joint drift"), (7, "min contact gap")]),
              ("chain height (m)", [(12, "chain min z"), (13, "chain max z")])]
    return example_run.finish(args, "ChainOnPile", rows, COLUMNS, m, failed, lines,
                              "ChainOnPile: 50 links on ball joints falling onto a pile", panels)


if __name__ == "__main__":
    sys.exit(main())
