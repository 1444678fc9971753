"""VTK frames of rigid bodies for ParaView, the files of the C++ examples' BodyVtkWriter
(Examples/common/body_vtk.hpp) written from Python: per frame DIR/NAME_NNNNNN.vtp (VTK PolyData,
ASCII, one vertex per body at its centre of mass with the point arrays "orientation" (quaternion
body -> world), "velocity", "angular_velocity" (world frame) and "body" (index)), and at the end
DIR/NAME.pvd listing the frames with their times. Used by the Python twins of the mechanism
examples (Examples/SliderCrank/SliderCrank.py, ...)."""
import os


def _array(lines, name, components, values):
    lines.append('        <DataArray type="Float64" Name="%s" NumberOfComponents="%d" format="ascii">'
                 % (name, components))
    rows = ["          " + " ".join("%.17g" % v for v in values[i:i + components])
            for i in range(0, len(values), components)]
    lines.append("\n".join(rows))
    lines.append("        </DataArray>")


class BodyVtkWriter:
    """frame(t) writes the bodies' state (NewtonEulerDS) now; finish() the .pvd index."""

    def __init__(self, folder, name, bodies):
        self.folder, self.name, self.bodies = folder, name, list(bodies)
        self.frames = []  # (t, file name relative to folder)

    def frame(self, t):
        points, orientation, velocity, omega, index = [], [], [], [], []
        for b, ds in enumerate(self.bodies):
            q, v = ds.q(), ds.velocity()
            points += list(q[:3])
            orientation += list(q[3:7])
            velocity += list(v[:3])
            omega += list(ds.angularVelocityWorld())
            index.append(float(b))
        n = len(self.bodies)
        lines = ['<?xml version="1.0"?>',
                 '<VTKFile type="PolyData" version="0.1" byte_order="LittleEndian">',
                 '  <PolyData>', '    <Piece NumberOfPoints="%d" NumberOfVerts="%d">' % (n, n),
                 "      <Points>"]
        _array(lines, "position", 3, points)
        lines.append('      </Points>\n      <PointData Scalars="body" Vectors="velocity">')
        _array(lines, "orientation", 4, orientation)
        _array(lines, "velocity", 3, velocity)
        _array(lines, "angular_velocity", 3, omega)
        _array(lines, "body", 1, index)
        lines.append("      </PointData>\n      <Verts>")
        lines.append('        <DataArray type="Int64" Name="connectivity" format="ascii">')
        lines.append("         " + "".join(" %d" % b for b in range(n)))
        lines.append('        </DataArray>\n        <DataArray type="Int64" Name="offsets" format="ascii">')
        lines.append("         " + "".join(" %d" % (b + 1) for b in range(n)))
        lines.append("        </DataArray>\n      </Verts>\n    </Piece>\n  </PolyData>\n</VTKFile>\n")
        rel = "%s_%06d.vtp" % (self.name, len(self.frames))
        with open(os.path.join(self.folder, rel), "w") as f:
            f.write("\n".join(lines))
        self.frames.append((t, rel))

    def finish(self):
        """Write DIR/NAME.pvd (the frames and their times) and return its path."""
        path = os.path.join(self.folder, self.name + ".pvd")
        with open(path + ".part", "w") as f:
            f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n  <Collection>\n')
            for t, rel in self.frames:
                f.write('    <DataSet timestep="%.17g" part="0" file="%s"/>\n' % (t, rel))
            f.write("  </Collection>\n</VTKFile>\n")
        os.replace(path + ".part", path)
        return path
