#!/usr/bin/env python3
"""GlassPlate in Python: a rigid steel sphere dropped on a clamped glass plate that cracks.

The twin of Examples/GlassPlate/GlassPlate.cpp through nsdyn.peridynamics: the plate is a
bond-based peridynamic body (PMB, nu = 1/4, critical stretch from G0 = 8 J/m^2) whose points are
spheres of an nsdyn.SceneEngine, in frictional contact with the rigid sphere in one problem; its
free motion by velocity Verlet at the engine's step.

    PYTHONPATH=build/python python3 Examples/python/glass_plate.py [--side L] [--spacing DX]
        [--time T] [--samples N] [--output DIR] [--no-plot]

Writes DIR/GlassPlate.csv, the columns of the C++ example (t, kinetic, potential, elastic,
contact_work, energy, imbalance, sphere_z, sphere_vz, broken_bonds, centre_damage, contacts,
active), and prints its summary figures.
"""
import argparse
import math
import os

import numpy as np

import nsdyn
import nsdyn.peridynamics as pd

GLASS_E, GLASS_RHO, GLASS_G0, STEEL_RHO = 70e9, 2500.0, 8.0, 7850.0
COLUMNS = ["t", "kinetic", "potential", "elastic", "contact_work", "energy", "imbalance",
           "sphere_z", "sphere_vz", "broken_bonds", "centre_damage", "contacts", "active"]


def simulate(side=0.1, thickness=0.006, spacing=0.002, horizon_ratio=3.0, radius=0.01, speed=5.0,
             gap=2e-4, duration=4e-4, step=0.0, safety=0.8, mu=0.3, stepper="verlet", samples=200,
             threads=0):
    delta = horizon_ratio * spacing
    s0 = pd.critical_stretch_from_energy(GLASS_G0, delta, GLASS_E, 3)
    glass = pd.BondBasedMaterial(E=GLASS_E, nu=0.25, critical_stretch=s0,
                                 calibration="isotropic")
    plate = pd.box([0, 0, -0.5 * thickness], [0.5 * side, 0.5 * side, 0.5 * thickness], glass,
                   spacing=spacing, horizon=delta, density=GLASS_RHO, threads=threads, name="glass")
    inner = 0.5 * side - delta  # clamped along the edges: the points within delta of the sides
    plate.prescribed[(np.abs(plate.X[:, 0]) > inner) | (np.abs(plate.X[:, 1]) > inner)] = True
    stable = pd.stable_step(plate)
    h = step if step > 0 else safety * stable
    engine = nsdyn.SceneEngine(h=h, theta=0.5, gravity=(0, 0, -9.81), solver="nsgs", tolerance=1e-8,
                               max_iterations=1000, threads=threads, mu=mu, restitution=0.0)
    ball = engine.add_body(nsdyn.SphereShape(radius), density=STEEL_RHO,
                           position=[0, 0, radius + gap], velocity=[0, 0, -speed, 0, 0, 0])
    system = engine.add_peridynamic_body(plate, stepper=stepper, threads=threads)
    engine.initialize()
    steps = int(math.ceil(duration / h - 1e-9))
    centre = np.hypot(plate.X[:, 0], plate.X[:, 1]) <= 2 * spacing

    energy0 = engine.kinetic_energy() + engine.potential_energy() + plate.elastic_energy()
    work = 0.0
    rows = []

    def sample(report):
        kin, pot, el = engine.kinetic_energy(), engine.potential_energy(), plate.elastic_energy()
        total = kin + pot + el
        q, v = engine.q, engine.v
        rows.append([engine.time, kin, pot, el, work, total, total - energy0 - work, q[ball, 2],
                     v[ball, 2], 0.5 * plate.broken_bonds,
                     plate.damage[centre].mean() if centre.any() else 0.0,
                     report["contacts"] if report else 0, report["active"] if report else 0])

    sample(None)
    failed, next_sample = 0, 1
    for k in range(1, steps + 1):
        r = engine.step()
        failed += not r["accepted"]
        work += r["contact_work"]
        if k * samples >= next_sample * steps:
            sample(r)
            next_sample += 1
    summary = {
        "points": len(plate), "clamped": int(plate.prescribed.sum()), "bonds": plate.bond_count // 2,
        "h": h, "stable": stable, "steps": steps, "critical_stretch": s0,
        "bonds_broken": plate.broken_bonds // 2, "centre_damage": rows[-1][10],
        "sphere_vz": engine.v[ball, 2], "sphere_z": engine.q[ball, 2], "failed": failed,
        "iterations": system.total_iterations,
    }
    return plate, np.array(rows), summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=float, default=0.1)
    parser.add_argument("--thickness", type=float, default=0.006)
    parser.add_argument("--spacing", type=float, default=0.002)
    parser.add_argument("--horizon", type=float, default=3.0, help="delta / dx")
    parser.add_argument("--radius", type=float, default=0.01)
    parser.add_argument("--speed", type=float, default=5.0)
    parser.add_argument("--time", type=float, default=4e-4)
    parser.add_argument("--step", type=float, default=0.0)
    parser.add_argument("--safety", type=float, default=0.8)
    parser.add_argument("--mu", type=float, default=0.3)
    parser.add_argument("--stepper", default="verlet", choices=["verlet", "substitution", "newton"])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--output", default=".")
    parser.add_argument("--no-plot", action="store_true")
    a = parser.parse_args()
    plate, rows, s = simulate(a.side, a.thickness, a.spacing, a.horizon, a.radius, a.speed,
                              duration=a.time, step=a.step, safety=a.safety, mu=a.mu,
                              stepper=a.stepper, samples=a.samples, threads=a.threads)
    os.makedirs(a.output, exist_ok=True)
    csv = os.path.join(a.output, "GlassPlate.csv")
    np.savetxt(csv, rows, delimiter=",", fmt="%.17g", header=",".join(COLUMNS), comments="")
    print("GlassPlate (Python): %d points (%d clamped), %d bonds, s0 = %.3g; h = %.3g s (stable %.3g s), "
          "%d steps" % (s["points"], s["clamped"], s["bonds"], s["critical_stretch"], s["h"],
                        s["stable"], s["steps"]))
    print("  bonds broken:   %d of %d" % (s["bonds_broken"], s["bonds"]))
    print("  centre damage:  %.3f" % s["centre_damage"])
    print("  sphere vz:      %.4g m/s before, %.4g m/s after" % (-a.speed, s["sphere_vz"]))
    print("  failed solves:  %d" % s["failed"])
    print("  csv:  %s" % csv)
    if not a.no_plot:
        plt = nsdyn.pyplot()
        if plt is not None:
            fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4))
            ax.plot(rows[:, 0] * 1e6, rows[:, 8], label="sphere vz (m/s)")
            ax.set_xlabel("t (us)")
            ax.legend()
            sc = bx.scatter(plate.X[:, 0] * 1e3, plate.X[:, 1] * 1e3, c=plate.damage, s=4,
                            vmin=0, vmax=1)
            fig.colorbar(sc, ax=bx, label="damage")
            bx.set_aspect("equal")
            bx.set_xlabel("x (mm)")
            bx.set_ylabel("y (mm)")
            png = os.path.join(a.output, "GlassPlate.png")
            fig.savefig(png, dpi=100)
            print("  plot: %s" % png)
    return 1 if s["failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
