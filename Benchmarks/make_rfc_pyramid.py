#!/usr/bin/env python3
"""Write a larger rolling friction problem for rfc_siconos (issue 27): a square pyramid of
spheres (layers 6 x 6, 5 x 5, ... 1; 91 spheres, R = 0.1 m, touching side by side and
resting each on the four below: 396 contacts), settling with small deterministic velocities
and spins, mu = 0.5, mu_r = 0.05. Built with the helpers of
Tests/Numerics/rfc/data/make_rfc_data.py (one time step h = 0.01 s of gravity). The file
is about 2.7 MB: generate it, do not commit it.

    python3 Benchmarks/make_rfc_pyramid.py [output.dat] [layers]
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests",
                                "Numerics", "rfc", "data"))
import make_rfc_data as rfc  # noqa: E402


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "rfc3d_pyramid.dat"
    layers = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    R = 0.1
    dz = math.sqrt(2.0) * R  # a sphere on four touching ones below, centres 2R apart
    bodies = []
    for level in range(layers):
        k = layers - level
        for i in range(k):
            for j in range(k):
                x = (2 * i - (k - 1)) * R
                y = (2 * j - (k - 1)) * R
                n = len(bodies)
                v = [0.01 * math.sin(n), 0.01 * math.cos(1.3 * n), -0.05]
                w = [0.2 * math.sin(0.7 * n), 0.2 * math.cos(0.9 * n), 0.05]
                bodies.append(rfc.Body([x, y, R + level * dz], R, v, w))
    nc = rfc.spheres(out, bodies, 0.5, 0.05)
    print("%s: %d spheres, %d contacts" % (out, len(bodies), nc))


if __name__ == "__main__":
    main()
