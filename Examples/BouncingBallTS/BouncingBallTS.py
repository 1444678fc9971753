#!/usr/bin/env python3
"""BouncingBallTS in Python: a ball bouncing on a rigid floor, Moreau-Jean time-stepping
with the Newton impact law (the Python twin of BouncingBallTS.cpp; same CSV, same numbers).

    PYTHONPATH=build/python python3 Examples/BouncingBallTS/BouncingBallTS.py [--output DIR] [--no-plot]

Writes DIR/BouncingBallTS.csv (t, z, zdot, p_z, lambda; 2001 rows) and, with Matplotlib,
DIR/BouncingBallTS.png.
"""
import argparse
import math
import os

import numpy as np

import nsdyn


def simulate():
    """Run the model; returns the (N+1, 5) array t, z, zdot, p_z, lambda."""
    t0, T, h, theta = 0.0, 10.0, 0.005, 0.5
    m, R, g, e = 1.0, 0.1, 9.81, 0.9

    # the ball: q = (z, x, rotation), M = diag(m, m, 2/5 m R^2), weight -m g on z
    ball = nsdyn.LagrangianLinearTIDS([1.0, 0.0, 0.0], [0.0, 0.0, 0.0], np.diag([m, m, 0.4 * m * R * R]))
    ball.setFExt([-m * g, 0.0, 0.0])

    # the floor: gap y = z (H = [1 0 0]), Newton impact law e
    inter = nsdyn.Interaction(nsdyn.NewtonImpactNSL(e), nsdyn.LagrangianLinearTIR([[1.0, 0.0, 0.0]]))

    model = nsdyn.Model(t0, T)
    model.nonSmoothDynamicalSystem().insertDynamicalSystem(ball)
    model.nonSmoothDynamicalSystem().link(inter, ball)

    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(t0, h), nsdyn.MoreauJeanOSI(theta), nsdyn.LCP("lemke"))
    model.initialize(sim)

    N = int(math.ceil((T - t0) / h))
    rows = np.empty((N + 1, 5))
    rows[0] = [t0, ball.q()[0], ball.velocity()[0], ball.p(1)[0], inter.lambda_(1)[0]]
    for k in range(1, N + 1):
        sim.computeOneStep()
        rows[k] = [sim.nextTime(), ball.q()[0], ball.velocity()[0], ball.p(1)[0], inter.lambda_(1)[0]]
        sim.nextStep()
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=".", help="results folder (created)")
    parser.add_argument("--no-plot", action="store_true")
    args = parser.parse_args()
    rows = simulate()
    os.makedirs(args.output, exist_ok=True)
    csv = os.path.join(args.output, "BouncingBallTS.csv")
    np.savetxt(csv, rows, delimiter=",", fmt="%.17g", header="t,z,zdot,p_z,lambda", comments="")
    print("BouncingBallTS (Python): %d steps, %d with an impulse" % (len(rows) - 1, int((rows[1:, 4] > 0).sum())))
    print("  csv:  %s (%d rows)" % (csv, len(rows)))
    if not args.no_plot:
        plt = nsdyn.pyplot()
        if plt is None:
            return
        fig, ax = plt.subplots(3, 1, sharex=True, figsize=(8, 8))
        for a, col, label in zip(ax, (1, 2, 4), ("height z (m)", "velocity (m/s)", "impulse (N s)")):
            a.plot(rows[:, 0], rows[:, col])
            a.set_ylabel(label)
        ax[-1].set_xlabel("t (s)")
        fig.suptitle("BouncingBallTS: ball on a floor, e = 0.9, h = 0.005")
        png = os.path.join(args.output, "BouncingBallTS.png")
        fig.savefig(png, dpi=100)
        print("  plot: %s" % png)


if __name__ == "__main__":
    main()
