#!/usr/bin/env python3
"""Siconos's mechanics tools on a scene HDF5 file of ours (doc/scene-outputs.md,
"Siconos's tools"): siconos_tools_check.py SCENE_WRITER WORKDIR.

SCENE_WRITER (siconos_tools_scene) writes the scene of SiconosScene.hpp; then
`siconos_info` must summarise it (objects, contacts, iterations) and list its objects and
contactors, and `siconos_vexport` must export it to VTK; the exported bodies must lie where
ours are: at a few times, the centre of each exported body's points is our centre of mass
(data/dynamic, data/static) moved by the shape offset, and the exported points lie on the
surface of our shape at our pose. Exit 77 (skipped) without the tools or their Python
modules (Debian: apt-get install siconos-mechanics-tools)."""
import glob
import math
import os
import shutil
import subprocess
import sys

SKIP = 77
STEPS = 60


def skip(why):
    print("SKIP: " + why + " (Debian: apt-get install siconos-mechanics-tools)")
    sys.exit(SKIP)


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def tool(name):
    path = shutil.which(name)
    if path is None:
        skip(name + " not found")
    return path


def system_python(path):
    """The interpreter of a tool's #! line (Siconos's modules are in Debian's python3)."""
    with open(path) as f:
        first = f.readline()
    return first[2:].split()[0] if first.startswith("#!") else sys.executable


def rotate(q, v):
    w, x, y, z = q
    # v + 2 w (u × v) + 2 u × (u × v), u = (x, y, z)
    ux = (y * v[2] - z * v[1], z * v[0] - x * v[2], x * v[1] - y * v[0])
    uux = (y * ux[2] - z * ux[1], z * ux[0] - x * ux[2], x * ux[1] - y * ux[0])
    return [v[i] + 2.0 * w * ux[i] + 2.0 * uux[i] for i in range(3)]


def main():
    if len(sys.argv) != 3:
        print("usage: siconos_tools_check.py SCENE_WRITER WORKDIR")
        return 2
    writer, work = sys.argv[1], sys.argv[2]
    info, vexport = tool("siconos_info"), tool("siconos_vexport")
    python = system_python(vexport)
    probe = subprocess.run([python, "-c", "import siconos.io.vview, h5py, vtk"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        skip("Siconos's Python modules not importable: " + probe.stderr.strip()[-200:])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    scene = os.path.join(work, "scene.hdf5")
    subprocess.run([writer, scene, str(STEPS)], check=True)

    # siconos_info: the summary and the object and contactor lists
    r = subprocess.run([info, "-O", "-C", scene], capture_output=True, text=True, cwd=work)
    print(r.stdout[-2500:], r.stderr[-2500:])
    if r.returncode != 0 or "Traceback" in r.stderr:
        fail("siconos_info exited %d" % r.returncode)
    want = ["Time simulated: 0.0 to %g = %d steps" % (STEPS * 0.002, STEPS + 1),
            "Objects:             5          5          5", "body0", "body6", "Capsule",
            "Cylinder", "convex"]
    for w in want:
        if w not in r.stdout:
            fail("siconos_info printed no line with %r" % w)

    # siconos_vexport: one .vtm per time
    r = subprocess.run([vexport, scene], capture_output=True, text=True, cwd=work)
    if r.returncode != 0 or "Traceback" in r.stderr:
        print(r.stdout[-2000:], r.stderr[-4000:])
        fail("siconos_vexport exited %d" % r.returncode)
    frames = glob.glob(os.path.join(work, "scene-*.vtm"))
    if len(frames) != STEPS + 1:
        fail("siconos_vexport wrote %d .vtm files, not %d" % (len(frames), STEPS + 1))

    # the exported bodies against ours, in Siconos's Python (h5py, vtk)
    r = subprocess.run([python, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                             "siconos_tools_compare.py"), scene, work],
                       capture_output=True, text=True)
    print(r.stdout[-4000:], r.stderr[-4000:])
    if r.returncode != 0:
        fail("the exported bodies are not where ours are")
    print("OK: siconos_info and siconos_vexport read the scene file")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
