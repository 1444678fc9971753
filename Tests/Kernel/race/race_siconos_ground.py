#!/usr/bin/python3
"""race_siconos.py's ground (issue 24): a 9 mm grain resting on the floor with a 0.22 mm overlap,
and a stack of three on it, stay at rest in Siconos at 1e-6 on its error in every step.

With the floor as Siconos's own SiconosPlane (a shape of half-size 1000 m, which
Debian's single-precision Bullet resolves to 2^-14 m) this grain, at this place, got its floor
contacts 61 um off and fell at -g h per step, and 30 of the settled column's 36 stacks with it;
the floor is now a static slab of the scene's size. Also checks that tolerance mode reads
Siconos's full error (every step's reported error within the tolerance).

  race_siconos_ground.py WORKDIR      exit 0 passed, 1 failed, 77 skipped (no Siconos or numpy)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "Benchmarks", "race"))

RADIUS = 0.0090286322750559884  # the grain of the settled column that fell
X, Y = 0.063644663844041105, 0.039144663844041111
OVERLAP = 2.2e-4
STEPS = 5
TOL = 1e-6


def scene_text(count):
    mass, inertia = 7.7071624544759925e-3, 2.5130344076599716e-07
    lines = ["# race scene ground h 0.001 gravity -9.81 mu 0.5 e 0 steps %d drift_from 0 "
             "length_scale 0.024 reference_iterations 0" % STEPS,
             "plane 0 0 1 0", "plane 1 0 0 0", "plane 0 1 0 0"]
    for k in range(count):
        z = RADIUS - OVERLAP + k * (2 * RADIUS - OVERLAP)
        lines.append("body sphere %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
                     "1 0 0 0 0 0 0 0 0 0" % ((RADIUS,) * 3 + (mass,) + (inertia,) * 3 + (X, Y, z)))
    return "\n".join(lines) + "\n"


def check(rs, work, count):
    path = os.path.join(work, "ground_%d.txt" % count)
    with open(path, "w") as f:
        f.write(scene_text(count))
    positions = os.path.join(work, "ground_%d_positions.txt" % count)
    failed = rs.run(rs.parse_scene(path), "tolerance", TOL, 10000, positions)
    worst_v, worst_err, steps = 0.0, 0.0, 0
    with open(positions) as f:
        for line in f:
            w = line.split()
            if not w or w[0] == "#":
                continue
            if w[0] == "step":
                steps += 1
                worst_err = max(worst_err, float(w[5]))
            else:
                worst_v = max(worst_v, max(abs(float(x)) for x in w[7:10]))
    ok = failed == 0 and steps == STEPS and worst_v < 1e-6 and worst_err <= TOL
    print("%d grain(s): %d steps, failed steps %d, largest |v| %.3e m/s (at rest: < 1e-6), "
          "largest error %.3e (<= %g): %s" % (count, steps, failed, worst_v, worst_err, TOL,
                                              "ok" if ok else "FAILED"))
    return ok


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    try:
        import numpy  # noqa: F401
        import siconos.mechanics.collision.bullet  # noqa: F401
    except ImportError as e:
        print("skipped: %s (make bench-deps installs python3-siconos)" % e)
        return 77
    import race_siconos as rs
    results = [check(rs, work, count) for count in (1, 3)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
