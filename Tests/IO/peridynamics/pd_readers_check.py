#!/usr/bin/env python3
"""Our peridynamic files in other readers (doc/scene-outputs.md, "Peridynamic bodies"):
pd_readers_check.py NSDYN WORKDIR runs `nsdyn run` on a block falling on a plane, then reads
the VTK frames with VTK's own vtkXMLPolyDataReader (point count, arrays and their components,
the stress component names) and the HDF5 file with h5py (shapes, the first positions equal
the reference, the damage in [0, 1]). Exit 77 (skipped) without the vtk or h5py modules."""
import os
import subprocess
import sys

SKIP = 77
try:
    import h5py
    import vtk
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(SKIP)

MODEL = """<?xml version="1.0"?>
<nsdyn version="1" name="pd">
  <model>
    <scene gravity="0 0 -9.81">
      <StaticBody name="floor"><HalfSpaceShape normal="0 0 1"/></StaticBody>
      <PeridynamicBody name="block" spacing="0.01" density="1000">
        <box centre="0 0 0.0205" half-extents="0.02 0.02 0.01"/>
        <peridynamicMaterial model="bond-based" E="1e6" critical-stretch="0.001"/>
        <velocity>0 0 -1</velocity>
      </PeridynamicBody>
    </scene>
  </model>
  <simulation type="TimeStepping" T="0.01" h="1e-3">
    <MoreauJeanOSI theta="0.5"/>
    <FrictionContact dim="3"/>
  </simulation>
  <outputs><sceneFiles every="5" vtk="true" hdf5="true"/></outputs>
</nsdyn>
"""


def check(condition, what):
    if not condition:
        print(f"FAILED: {what}")
        sys.exit(1)


def main():
    nsdyn, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    model = os.path.join(work, "pd.xml")
    with open(model, "w") as f:
        f.write(MODEL)
    out = os.path.join(work, "out")
    run = subprocess.run([nsdyn, "run", model, "--quiet", "--output", out],
                         capture_output=True, text=True)
    check(run.returncode == 0, f"nsdyn run exit {run.returncode}: {run.stdout}{run.stderr}")
    arrays = {"displacement": 3, "velocity": 3, "damage": 1, "stress": 6, "von_mises": 1,
              "prescribed": 1, "volume": 1, "reference": 3}
    for k in range(3):
        reader = vtk.vtkXMLPolyDataReader()
        reader.SetFileName(os.path.join(out, f"pd_pd_block_{k:06d}.vtp"))
        reader.Update()
        check(reader.GetErrorCode() == 0, f"frame {k} read by VTK")
        poly = reader.GetOutput()
        check(poly.GetNumberOfPoints() == 32 and poly.GetNumberOfVerts() == 32,
              f"frame {k}: 32 points and vertices, found {poly.GetNumberOfPoints()}")
        data = poly.GetPointData()
        for name, components in arrays.items():
            a = data.GetArray(name)
            check(a is not None and a.GetNumberOfComponents() == components,
                  f"frame {k}: array {name} of {components} components")
        stress = data.GetArray("stress")
        check([stress.GetComponentName(c) for c in range(6)] ==
              ["XX", "YY", "ZZ", "XY", "YZ", "XZ"], "stress component names")
    with h5py.File(os.path.join(out, "pd_peridynamics.hdf5"), "r") as f:
        check(f.attrs["format"] in (b"nsdyn-peridynamics-hdf5-1", "nsdyn-peridynamics-hdf5-1"),
              "format attribute")
        g = f["peridynamics/block"]
        check(g["positions"].shape == (3, 32, 3) and g["velocities"].shape == (3, 32, 3),
              f"positions {g['positions'].shape}")
        check(g["damage"].shape == (3, 32) and f["time"].shape == (3,), "damage and time")
        check((g["positions"][0] == g["reference"][:]).all(), "positions at t0 = reference")
        d = g["damage"][:]
        check(((d >= 0) & (d <= 1)).all(), "damage in [0, 1]")
        check(int(g.attrs["points"]) == 32, "points attribute")
    print("ok: 3 VTK frames read by VTK, the HDF5 datasets by h5py")


if __name__ == "__main__":
    main()
