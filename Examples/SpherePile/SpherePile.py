#!/usr/bin/env python3
"""SpherePile in Python: spheres settling in a box (nsdyn.Scene over a SceneEngine, NSGS),
the Python twin of SpherePile.cpp built with nsdyn.Scene and the scene generators.

    PYTHONPATH=build/python python3 Examples/SpherePile/SpherePile.py [--count N] [--time T] [--output DIR] [--no-plot]

Writes DIR/SpherePile_py.csv (t, kinetic, top, contacts, iterations) and, with Matplotlib,
DIR/SpherePile_py.png.
"""
import argparse
import os

import numpy as np

import nsdyn


def simulate(count=100, T=0.5, h=1e-3):
    scene = nsdyn.Scene(T, h, solver="nsgs", tolerance=1e-3, mu=0.5)
    scene.add_bodies(nsdyn.container([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]))
    rmax = 0.05 * 1.2
    height = max(0.5, count * 4.0 / 3.0 * np.pi * rmax ** 3 / 0.15)
    grains = nsdyn.random_packing(count, [0.0, 0.0, 0.0], [1.0, 1.0, height], radius=0.05, size_spread=0.2,
                                  density=2500.0, seed=42)
    scene.add_bodies(grains)
    scene.initialize()
    rows = []

    def record():
        pos = scene.positions()
        st = scene.last_statistics()
        rows.append([scene.time, scene.kinetic_energy(), pos[:, 2].max(), st["contacts"],
                     st["iterations"]])

    scene.run(callback=record)
    return scene, np.array(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.5)
    parser.add_argument("--output", default=".")
    parser.add_argument("--no-plot", action="store_true")
    args = parser.parse_args()
    scene, rows = simulate(args.count, args.time)
    os.makedirs(args.output, exist_ok=True)
    csv = os.path.join(args.output, "SpherePile_py.csv")
    np.savetxt(csv, rows, delimiter=",", fmt="%.17g", header="t,kinetic,top,contacts,iterations", comments="")
    c = scene.contacts()
    print("SpherePile (Python): %d spheres, %d steps, %d contacts at the end (max force %.3g N)"
          % (scene.body_count, len(rows), len(c["gap"]), c["force"][:, 0].max() if len(c["gap"]) else 0.0))
    print("  csv:  %s" % csv)
    if not args.no_plot:
        plt = nsdyn.pyplot()
        if plt is None:
            return
        fig, ax = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
        ax[0].plot(rows[:, 0], rows[:, 1])
        ax[0].set_ylabel("kinetic energy (J)")
        ax[1].plot(rows[:, 0], rows[:, 2])
        ax[1].set_ylabel("pile top (m)")
        ax[1].set_xlabel("t (s)")
        fig.suptitle("SpherePile: %d spheres settling in a box" % scene.body_count)
        png = os.path.join(args.output, "SpherePile_py.png")
        fig.savefig(png, dpi=100)
        print("  plot: %s" % png)


if __name__ == "__main__":
    main()
