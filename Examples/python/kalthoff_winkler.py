#!/usr/bin/env python3
"""KalthoffWinkler in Python: a notched steel plate hit on its edge, a crack at about 70 degrees.

The twin of Examples/KalthoffWinkler/KalthoffWinkler.cpp through nsdyn.peridynamics: a
maraging-steel plate 100 mm (x, the impact direction) x 200 mm (y), 9 mm thick, two notches
50 mm long and 1.5 mm wide, 50 mm apart; the edge between them pushed at V/2 (the projectile at
V = 32 m/s); bond-based peridynamics in plane stress (2D PMB, nu = 1/3), critical stretch from
G0, stepped by velocity Verlet in a pd.Simulation.

    PYTHONPATH=build/python python3 Examples/python/kalthoff_winkler.py [--spacing DX] [--time T]
        [--samples N] [--output DIR] [--no-plot]

Writes DIR/KalthoffWinkler.csv with the columns of the C++ example (t, kinetic, elastic,
broken_bonds, crack_upper, crack_lower, angle_upper, angle_lower, impactor_x) and prints the
crack angles.
"""
import argparse
import math
import os

import numpy as np

import nsdyn
import nsdyn.peridynamics as pd

LENGTH, WIDTH, THICKNESS = 0.1, 0.2, 0.009
NOTCH_LENGTH, NOTCH_WIDTH, NOTCH_Y = 0.05, 0.0015, 0.025
YOUNG, DENSITY, G0 = 190e9, 8000.0, 2.2e4
COLUMNS = ["t", "kinetic", "elastic", "broken_bonds", "crack_upper", "crack_lower", "angle_upper",
           "angle_lower", "impactor_x"]


def plate_points(dx):
    """Lattice points of the plate, x in (0, L), y in (-W/2, W/2), none in the notch slots."""
    nx, ny = round(LENGTH / dx), round(WIDTH / dx)
    j, i = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    x, y = dx * (i.ravel() + 0.5), -0.5 * WIDTH + dx * (j.ravel() + 0.5)
    keep = ~((x < NOTCH_LENGTH) & (np.abs(np.abs(y) - NOTCH_Y) < 0.5 * NOTCH_WIDTH - 1e-12))
    return np.column_stack([x[keep], y[keep], np.zeros(keep.sum())])


def measure_crack(body, damage0, side, delta, threshold, fit_radius):
    """(points, angle to x in degrees, length, rms spread) of the crack leaving one notch tip."""
    d = body.X[:, 0] - NOTCH_LENGTH
    e = side * (body.X[:, 1] - side * NOTCH_Y)
    cracked = (body.damage - damage0 >= threshold) & (d >= -delta) & (e >= 0)
    r = np.hypot(d, e)
    length = r[cracked].max() if cracked.any() else 0.0
    fit = cracked & (r >= delta) & (r <= fit_radius)
    if fit.sum() < 4:
        return fit.sum(), 0.0, length, 0.0
    px, py = d[fit] - d[fit].mean(), e[fit] - e[fit].mean()
    sxx, syy, sxy = (px * px).mean(), (py * py).mean(), (px * py).mean()
    mean, root = 0.5 * (sxx + syy), math.hypot(0.5 * (sxx - syy), sxy)
    a = 0.5 * math.atan2(2 * sxy, sxx - syy)  # the principal direction of the points
    angle = math.degrees(math.atan2(abs(math.sin(a)), abs(math.cos(a))))
    return fit.sum(), angle, length, math.sqrt(max(0.0, mean - root))


def simulate(spacing=1e-3, horizon_ratio=3.0, velocity=32.0, duration=90e-6, impact_time=0.0,
             step=0.0, safety=0.8, threshold=0.3, fit_radius=0.04, samples=90, threads=0):
    dx, delta = spacing, horizon_ratio * spacing
    s0 = pd.critical_stretch_from_energy(G0, delta, YOUNG, 2)
    steel = pd.BondBasedMaterial(E=YOUNG, nu=1 / 3, critical_stretch=s0,
                                 calibration="isotropic")
    X = plate_points(dx)
    body = pd.Body(X, np.full(len(X), dx * dx * THICKNESS), steel, spacing=dx, horizon=delta,
                   density=DENSITY, thickness=THICKNESS, threads=threads, name="plate")
    cut = sum(body.precrack([-delta, side * NOTCH_Y, 0], [NOTCH_LENGTH, side * NOTCH_Y, 0], [0, 0, 1])
              for side in (1, -1))
    body.refresh()
    damage0 = body.damage.copy()
    half = NOTCH_Y - 0.5 * NOTCH_WIDTH
    zone = (body.X[:, 0] < delta) & (np.abs(body.X[:, 1]) < half)  # the impact zone
    body.prescribed[zone] = True
    body.v[zone, 0] = 0.5 * velocity
    stable = pd.stable_step(body)
    h = step if step > 0 else safety * stable
    sim = pd.Simulation(method="verlet", h=h, fracture=True, threads=threads)
    sim.add(body)
    steps = int(math.ceil(duration / h - 1e-9))
    release = impact_time if impact_time > 0 else duration + h
    rows = []

    def sample():
        up = measure_crack(body, damage0, 1, delta, threshold, fit_radius)
        low = measure_crack(body, damage0, -1, delta, threshold, fit_radius)
        impactor = (body.x[zone, 0] - body.X[zone, 0]).mean()
        rows.append([sim.time, body.kinetic_energy(), body.elastic_energy(),
                     0.5 * (body.broken_bonds - cut), up[2], low[2], up[1], low[1], impactor])

    sample()
    released, next_sample = False, 1
    for k in range(1, steps + 1):
        if not released and sim.time + 0.5 * h >= release:
            body.prescribed[zone] = False
            released = True
        sim.step()
        if k * samples >= next_sample * steps:
            sample()
            next_sample += 1
    summary = {"points": len(body), "bonds": body.bond_count // 2, "critical_stretch": s0,
               "impacted": int(zone.sum()), "h": h, "stable": stable, "steps": steps,
               "upper": measure_crack(body, damage0, 1, delta, threshold, fit_radius),
               "lower": measure_crack(body, damage0, -1, delta, threshold, fit_radius)}
    return body, np.array(rows), summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spacing", type=float, default=1e-3)
    parser.add_argument("--horizon", type=float, default=3.0, help="delta / dx")
    parser.add_argument("--velocity", type=float, default=32.0)
    parser.add_argument("--time", type=float, default=90e-6)
    parser.add_argument("--impact-time", type=float, default=0.0)
    parser.add_argument("--step", type=float, default=0.0)
    parser.add_argument("--safety", type=float, default=0.8)
    parser.add_argument("--threshold", type=float, default=0.3)
    parser.add_argument("--fit-radius", type=float, default=0.04)
    parser.add_argument("--samples", type=int, default=90)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--output", default=".")
    parser.add_argument("--no-plot", action="store_true")
    a = parser.parse_args()
    cells = LENGTH / a.spacing
    if abs(cells - round(cells)) > 1e-6 * cells:
        parser.error("--spacing %g does not divide the 100 mm plate" % a.spacing)
    body, rows, s = simulate(a.spacing, a.horizon, a.velocity, a.time, a.impact_time, a.step,
                             a.safety, a.threshold, a.fit_radius, a.samples, a.threads)
    os.makedirs(a.output, exist_ok=True)
    csv = os.path.join(a.output, "KalthoffWinkler.csv")
    np.savetxt(csv, rows, delimiter=",", fmt="%.17g", header=",".join(COLUMNS), comments="")
    print("KalthoffWinkler (Python): %d points, %d bonds, s0 = %.4g, %d points pushed at %g m/s, "
          "h = %.3g s (stable %.3g s), %d steps" % (s["points"], s["bonds"], s["critical_stretch"],
                                                    s["impacted"], 0.5 * a.velocity, s["h"],
                                                    s["stable"], s["steps"]))
    print("  bonds broken:  %.0f" % rows[-1, 3])
    print("  crack angle:   upper %.1f deg, lower %.1f deg (experiment about 70 deg)"
          % (s["upper"][1], s["lower"][1]))
    print("  crack length:  upper %.1f mm, lower %.1f mm" % (1e3 * s["upper"][2], 1e3 * s["lower"][2]))
    print("  csv:  %s" % csv)
    if not a.no_plot:
        plt = nsdyn.pyplot()
        if plt is not None:
            fig, ax = plt.subplots(figsize=(5, 8))
            sc = ax.scatter(body.X[:, 0] * 1e3, body.X[:, 1] * 1e3, c=body.damage, s=2, vmin=0, vmax=1)
            fig.colorbar(sc, ax=ax, label="damage")
            ax.set_aspect("equal")
            ax.set_xlabel("x (mm), impact direction")
            ax.set_ylabel("y (mm)")
            png = os.path.join(a.output, "KalthoffWinkler.png")
            fig.savefig(png, dpi=100)
            print("  plot: %s" % png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
