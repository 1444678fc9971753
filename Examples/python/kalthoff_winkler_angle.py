#!/usr/bin/env python3
"""The crack angles of a Kalthoff-Winkler run read from its VTK frames (plain Python, no nsdyn).

For the runs that do not measure the angle themselves, such as the XML twin
(nsdyn run Examples/KalthoffWinkler/KalthoffWinkler.xml, which writes
NAME_pd_plate.pvd and its .vtp frames): the same measure as KalthoffWinkler.cpp. A point is
cracked when its damage grew by at least THRESHOLD since the first frame; for each notch tip
(50 mm, +-25 mm) the cracked points ahead of it (x >= 50 mm - delta) on the outer side, between
delta and R from the tip, are fitted by their principal line, whose angle to the impact
direction x is printed with the crack length (the farthest cracked point from the tip).

    python3 Examples/python/kalthoff_winkler_angle.py RUN.pvd [--delta 0.003] [--radius 0.04]
        [--threshold 0.3]
"""
import argparse
import math
import os
import re
import sys

NOTCH_LENGTH, NOTCH_Y = 0.05, 0.025


def frames(pvd):
    """The .vtp files of a .pvd collection, in order."""
    with open(pvd) as f:
        names = re.findall(r'file="([^"]+)"', f.read())
    if not names:
        sys.exit("%s: no frame listed" % pvd)
    return [os.path.join(os.path.dirname(pvd), n) for n in names]


def arrays(vtp, wanted):
    """The ASCII DataArrays of @p vtp named in @p wanted, as lists of floats."""
    with open(vtp) as f:
        text = f.read()
    out = {}
    for name in wanted:
        m = re.search(r'<DataArray[^>]*Name="%s"[^>]*>(.*?)</DataArray>' % name, text, re.S)
        if not m:
            sys.exit("%s: no array '%s'" % (vtp, name))
        out[name] = [float(v) for v in m.group(1).split()]
    return out


def crack(reference, damage, damage0, side, delta, radius, threshold):
    """(angle in degrees or None, points fitted, length in m) of the crack at the notch @p side."""
    tip_x, tip_y = NOTCH_LENGTH, side * NOTCH_Y
    fitted, length = [], 0.0
    for i, d in enumerate(damage):
        if d - damage0[i] < threshold:
            continue
        dx, dy = reference[3 * i] - tip_x, side * (reference[3 * i + 1] - tip_y)
        if dx < -delta or dy < 0.0:
            continue
        r = math.hypot(dx, dy)
        length = max(length, r)
        if delta <= r <= radius:
            fitted.append((dx, dy))
    if len(fitted) < 4:
        return None, len(fitted), length
    n = len(fitted)
    cx, cy = sum(p[0] for p in fitted) / n, sum(p[1] for p in fitted) / n
    sxx = sum((p[0] - cx) ** 2 for p in fitted) / n
    syy = sum((p[1] - cy) ** 2 for p in fitted) / n
    sxy = sum((p[0] - cx) * (p[1] - cy) for p in fitted) / n
    a = 0.5 * math.atan2(2.0 * sxy, sxx - syy)  # first principal axis
    return math.degrees(math.atan2(abs(math.sin(a)), abs(math.cos(a)))), n, length


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pvd")
    p.add_argument("--delta", type=float, default=0.003, help="the horizon (m)")
    p.add_argument("--radius", type=float, default=0.04, help="fit radius (m)")
    p.add_argument("--threshold", type=float, default=0.3, help="damage increase")
    a = p.parse_args()
    files = frames(a.pvd)
    first = arrays(files[0], ["damage"])["damage"]
    last = arrays(files[-1], ["reference", "damage"])
    for side, label in ((1, "upper"), (-1, "lower")):
        angle, n, length = crack(last["reference"], last["damage"], first, side, a.delta,
                                 a.radius, a.threshold)
        print("%s crack: angle %s (fit of %d points), length %.1f mm"
              % (label, "%.1f deg" % angle if angle is not None else "not measured", n,
                 1e3 * length))


if __name__ == "__main__":
    main()
