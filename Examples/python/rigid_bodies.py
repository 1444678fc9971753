#!/usr/bin/env python3
"""Rigid bodies in Python: a sphere, a box and a capsule dropped on the ground, with
Coulomb friction (nsdyn.Scene: the scene engine over a body store, FrictionContact(3)).

    PYTHONPATH=build/python python3 Examples/python/rigid_bodies.py [--time T] [--output DIR] [--no-plot]

Writes DIR/rigid_bodies.csv (t, then z of each body) and DIR/rigid_bodies.png.
"""
import argparse
import os

import numpy as np

import nsdyn


def simulate(T=1.0, h=1e-3):
    scene = nsdyn.Scene(T, h, solver="nsgs", tolerance=1e-6, mu=0.4)
    scene.add_body(nsdyn.ground_plane())
    bodies = [
        nsdyn.make_body(nsdyn.SphereShape(0.1), density=1000.0, position=[0.0, 0.0, 0.5], velocity=[1, 0, 0, 0, 0, 0]),
        nsdyn.make_body(nsdyn.BoxShape([0.1, 0.05, 0.05]), density=1000.0, position=[0.5, 0.0, 0.4],
                        orientation=[np.cos(0.3), np.sin(0.3), 0.0, 0.0]),
        nsdyn.make_body(nsdyn.CapsuleShape(0.05, 0.1), density=1000.0, position=[1.0, 0.0, 0.3]),
    ]
    for b in bodies:
        scene.add_body(b)
    rows = []
    scene.run(callback=lambda: rows.append([scene.time] + list(scene.positions()[:, 2])))
    return scene, np.array(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--output", default=".")
    parser.add_argument("--no-plot", action="store_true")
    args = parser.parse_args()
    scene, rows = simulate(args.time)
    os.makedirs(args.output, exist_ok=True)
    csv = os.path.join(args.output, "rigid_bodies.csv")
    np.savetxt(csv, rows, delimiter=",", fmt="%.17g", header="t,z_sphere,z_box,z_capsule", comments="")
    print("rigid_bodies (Python): %d steps; final heights %s" % (len(rows), np.array2string(rows[-1, 1:], precision=4)))
    print("  csv:  %s" % csv)
    if not args.no_plot:
        plt = nsdyn.pyplot()
        if plt is None:
            return
        fig, ax = plt.subplots(figsize=(8, 4))
        for j, name in enumerate(("sphere", "box", "capsule")):
            ax.plot(rows[:, 0], rows[:, j + 1], label=name)
        ax.set_xlabel("t (s)")
        ax.set_ylabel("height of the centre (m)")
        ax.legend()
        png = os.path.join(args.output, "rigid_bodies.png")
        fig.savefig(png, dpi=100)
        print("  plot: %s" % png)


if __name__ == "__main__":
    main()
