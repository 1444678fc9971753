#!/usr/bin/env python3
"""The bodies siconos_vexport exported (WORKDIR/scene-K.vtm) against ours (SCENE, the scene of
SiconosScene.hpp): siconos_tools_compare.py SCENE WORKDIR. Run by siconos_tools_check.py with
the Python of Siconos's tools (h5py, vtk).

At the first, middle and last-but-one times, every point of each exported body, taken into our
shape's frame with our pose of that time (data/dynamic, data/static) and our shape's offset,
lies on our shape's surface (our conventions: cylinders and capsules along z, the floor the
plane z = 0); the exported 'translation' of a dynamic body is our centre of mass."""
import math
import sys

import h5py
import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

TOL = 1e-6  # m


def axis_angle(axis, angle):
    a = np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    return np.hstack(([math.cos(angle / 2)], math.sin(angle / 2) * a))


def matrix(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


HULL = np.array([[0.04, 0, 0], [-0.03, 0.03, 0], [-0.03, -0.03, 0], [0, 0, 0.05]])
# Siconos id: our shape (SiconosScene.hpp), its rotation and offset in the body frame (about
# the centre of mass, as BodyStore keeps them)
OURS = {
    1: ("sphere", 0.05, np.eye(3), np.zeros(3)),
    2: ("box", np.array([0.05, 0.03, 0.02]), np.eye(3), np.zeros(3)),
    3: ("capsule", (0.02, 0.05), matrix(axis_angle([0, 1, 0], 0.3)), np.zeros(3)),
    4: ("cylinder", (0.03, 0.04), np.eye(3), np.zeros(3)),
    5: ("hull", HULL, np.eye(3), -HULL.mean(axis=0)),
    -1: ("floor", None, np.eye(3), np.zeros(3)),
    -2: ("box", np.array([0.02, 0.3, 0.1]), np.eye(3), np.zeros(3)),
}


def surface_error(kind, dims, s):
    """Largest distance of the points s (our shape frame) from the surface of our shape."""
    if kind == "sphere":
        return np.abs(np.linalg.norm(s, axis=1) - dims).max()
    if kind == "box":
        return (np.abs(s) / dims).max(axis=1).__sub__(1.0).__abs__().max() * dims.min()
    rho = np.hypot(s[:, 0], s[:, 1])
    if kind == "cylinder":
        r, hl = dims
        return max(np.abs(rho - r).max(), np.abs(np.abs(s[:, 2]) - hl).max())
    if kind == "capsule":
        r, hl = dims
        top = np.abs(np.linalg.norm(s - [0, 0, hl], axis=1) - r)
        bottom = np.abs(np.linalg.norm(s + [0, 0, hl], axis=1) - r)
        side = np.where(np.abs(s[:, 2]) <= hl + TOL, np.abs(rho - r), np.inf)
        return np.minimum(np.minimum(top, bottom), side).max()
    if kind == "hull":
        d = np.linalg.norm(s[:, None, :] - dims[None, :, :], axis=2)
        return d.min(axis=1).max()
    raise ValueError(kind)


def leaves(block):
    if block.IsA("vtkMultiBlockDataSet"):
        out = []
        for i in range(block.GetNumberOfBlocks()):
            out += leaves(block.GetBlock(i))
        return out
    return [block]


def main():
    # (the exported files hold NaN ranges, which VTK's reader reports at each read)
    vtk.vtkLogger.SetStderrVerbosity(vtk.vtkLogger.VERBOSITY_OFF)
    scene, work = sys.argv[1], sys.argv[2]
    with h5py.File(scene, "r") as f:
        dynamic = f["data/dynamic"][:]
        static = f["data/static"][:]
        # the objects in the order Siconos's viewer reads them (h5py's: by name)
        names = list(f["data/input"])
        ids = [int(f["data/input"][n].attrs["id"]) for n in names]
        ncontactors = [len(f["data/input"][n]) for n in names]
    times = np.unique(dynamic[:, 0])
    worst = 0.0
    checked = 0
    # (not the last time: there siconos_vexport 4.4 moves the first body only, its reader
    # taking one row of data/dynamic at the last time)
    for k in (1, len(times) // 2 + 1, len(times) - 1):
        t = times[k - 1]
        reader = vtk.vtkXMLMultiBlockDataReader()
        reader.SetFileName("%s/scene-%d.vtm" % (work, k))
        reader.Update()
        objects = reader.GetOutput().GetBlock(1)
        if objects is None or objects.GetNumberOfBlocks() != sum(ncontactors):
            print("frame %d: not %d exported bodies" % (k, sum(ncontactors)))
            return 1
        for j, body in enumerate(ids):
            rows = dynamic[(dynamic[:, 0] == t) & (dynamic[:, 1] == body)] if body > 0 else \
                static[static[:, 1] == body]
            if len(rows) != 1:
                print("frame %d: no pose of body %d" % (k, body))
                return 1
            x, rot = rows[0, 2:5], matrix(rows[0, 5:9])
            block = objects.GetBlock(j)
            parts = [b for b in leaves(block) if b is not None and b.GetPoints() is not None]
            if not parts:
                print("frame %d: body %d exported without points" % (k, body))
                return 1
            pts = np.vstack([vtk_to_numpy(b.GetPoints().GetData()) for b in parts])
            kind, dims, r_i, p_i = OURS[body]
            s = ((pts - x) @ rot - p_i) @ r_i  # our shape frame: r_iᵀ (Rᵀ (p − x) − p_i)
            if kind == "floor":
                # the plane z = 0 under the bodies: its top face at z = 0, its size beyond theirs
                err = abs(pts[:, 2].max())
                span = pts[:, :2].min(axis=0), pts[:, :2].max(axis=0)
                inside = np.all(span[0] < dynamic[:, 2:4].min(axis=0)) and \
                    np.all(span[1] > dynamic[:, 2:4].max(axis=0))
                if not inside or pts[:, 2].min() >= 0:
                    print("frame %d: the floor drawn at %s..%s, z %g..%g" %
                          (k, span[0], span[1], pts[:, 2].min(), pts[:, 2].max()))
                    return 1
            else:
                err = surface_error(kind, dims, s)
            if body > 0:
                first = parts[0].GetCellData().GetArray("translation").GetTuple3(0)
                err = max(err, np.abs(np.array(first) - x).max())
            print("t = %.3f body %2d %-8s %4d points, off our surface by %.2e m" %
                  (t, body, kind, len(pts), err))
            worst = max(worst, err)
            checked += 1
    print("%d bodies checked, largest distance %.2e m (tolerance %.0e)" % (checked, worst, TOL))
    return 0 if worst <= TOL else 1


if __name__ == "__main__":
    sys.exit(main())
