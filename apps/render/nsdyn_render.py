#!/usr/bin/env python3
"""Offscreen pictures of a scene for `nsdyn render` (apps/render_command.cpp).

Usage (by nsdyn render, not by hand): nsdyn_render.py DESCRIPTION.json

The description (format nsdyn-render-1) lists the shapes, the bodies (their shapes and
offsets in the body frame) and one entry per picture (time, PNG path, each body's pose
x y z qw qx qy qz and colour value). Each picture is drawn with VTK (Debian's python3-vtk9)
into an offscreen window: on the X display of DISPLAY when one answers, else on an Xvfb
server started here for the run (-displayfd: a free display number) and stopped after.

Exit status: 0 the pictures written; 4 a picture could not be written; 5 a bad
description; 6 the rendering stack is missing (VTK, libX11, an X display or Xvfb): a
message on stderr names what and how to install it. Nothing partial is left under a
picture's name (written as NAME.part, then renamed).
"""
import atexit
import ctypes
import ctypes.util
import json
import math
import os
import select
import shutil
import subprocess
import sys

EXIT_IO, EXIT_BAD, EXIT_UNAVAILABLE = 4, 5, 6
BACKGROUND = (1.0, 1.0, 1.0)
FLOOR = (0.80, 0.80, 0.78)
STATIC = (0.55, 0.55, 0.55)
PLAIN = (0.90, 0.55, 0.20)  # --color none
# colour scale, low to high: blue, yellow, red
SCALE = ((0.0, (0.15, 0.30, 0.85)), (0.5, (0.95, 0.85, 0.20)), (1.0, (0.85, 0.10, 0.10)))
LABELS = {"speed": "speed (m/s)", "force": "contact force (N)"}


def fail(status, message):
    sys.stderr.write("nsdyn render: " + message + "\n")
    sys.exit(status)


def import_vtk():
    try:
        import numpy  # noqa: F401  (vtk's numpy_support needs it)
        import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (the OpenGL render window)
        import vtkmodules.vtkRenderingFreeType  # noqa: F401  (text)
        from vtkmodules import vtkCommonCore, vtkCommonDataModel, vtkRenderingCore
        from vtkmodules import vtkIOImage, vtkRenderingAnnotation, vtkRenderingOpenGL2
        from vtkmodules.util import numpy_support
    except ImportError as e:
        fail(EXIT_UNAVAILABLE, "the rendering stack is missing: cannot import VTK for %s (%s); "
             "install Debian's python3-vtk9 (scripts/install-deps.sh)" % (sys.executable, e))
    return {"core": vtkCommonCore, "data": vtkCommonDataModel, "render": vtkRenderingCore,
            "image": vtkIOImage, "annotation": vtkRenderingAnnotation,
            "gl": vtkRenderingOpenGL2, "np": numpy_support}


def display_answers(name):
    """True when the X display @p name accepts a connection (libX11, no VTK abort)."""
    lib = ctypes.util.find_library("X11")
    if not lib:
        return False
    try:
        x11 = ctypes.CDLL(lib)
    except OSError:
        return False
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    d = x11.XOpenDisplay(name.encode())
    if not d:
        return False
    x11.XCloseDisplay(d)
    return True


def ensure_display(width, height):
    """An X display to draw on: DISPLAY if it answers, else an Xvfb started for this run."""
    current = os.environ.get("DISPLAY", "")
    if current and display_answers(current):
        return
    if not ctypes.util.find_library("X11"):
        fail(EXIT_UNAVAILABLE, "the rendering stack is missing: no libX11 (VTK draws through X)")
    xvfb = os.environ.get("NSDYN_RENDER_XVFB", "Xvfb")
    program = shutil.which(xvfb)
    if not program:
        fail(EXIT_UNAVAILABLE,
             "the rendering stack is missing: no X display to draw on (DISPLAY %s) and no Xvfb "
             "(%s not found); install Debian's xvfb (scripts/install-deps.sh) or run under a "
             "display" % ("is not set" if not current else "=%s does not answer" % current, xvfb))
    read_end, write_end = os.pipe()
    screen = "%dx%dx24" % (max(width, 1280), max(height, 1024))
    try:
        server = subprocess.Popen([program, "-displayfd", str(write_end), "-screen", "0", screen,
                                   "-nolisten", "tcp", "-noreset"],
                                  pass_fds=(write_end,), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError as e:
        fail(EXIT_UNAVAILABLE, "the rendering stack is missing: cannot start %s (%s)" % (program, e))
    os.close(write_end)

    def stop():
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    atexit.register(stop)
    number = b""
    while not number.endswith(b"\n"):
        ready, _, _ = select.select([read_end], [], [], 20.0)
        chunk = os.read(read_end, 16) if ready else b""
        if not chunk:
            stop()
            err = server.stderr.read().decode(errors="replace").strip().splitlines()[-3:]
            fail(EXIT_UNAVAILABLE, "the rendering stack is missing: %s did not start a display "
                 "(%s)" % (program, "; ".join(err) or "no display number in 20 s"))
        number += chunk
    os.close(read_end)
    os.environ["DISPLAY"] = ":" + number.decode().strip()
    if not display_answers(os.environ["DISPLAY"]):
        fail(EXIT_UNAVAILABLE, "the rendering stack is missing: the Xvfb display %s does not "
             "answer" % os.environ["DISPLAY"])


# --- geometry: each shape as triangles with normals, in its own frame -------------------------

def lathe(profile, segments):
    """A surface of revolution about z: profile points (rho, z, normal_rho, normal_z)."""
    pts, nrm, tri = [], [], []
    for rho, z, nr, nz in profile:
        for j in range(segments):
            a = 2.0 * math.pi * j / segments
            c, s = math.cos(a), math.sin(a)
            pts.append((rho * c, rho * s, z))
            nrm.append((nr * c, nr * s, nz))
    for i in range(len(profile) - 1):
        for j in range(segments):
            a, b = i * segments + j, i * segments + (j + 1) % segments
            tri += [(a, a + segments, b), (b, a + segments, b + segments)]
    return pts, nrm, tri


def hemisphere_rings(r, lift, upper, rings):
    out = []
    for i in range(rings + 1):
        phi = (0.5 * math.pi * i / rings) if upper else (0.5 * math.pi * (1 + i / rings))
        out.append((r * math.sin(phi), r * math.cos(phi) + lift, math.sin(phi), math.cos(phi)))
    return out


def shape_mesh(shape, segments):
    kind = shape["kind"]
    rings = max(4, segments // 4)
    if kind == "sphere":
        r = shape["radius"]
        return lathe(hemisphere_rings(r, 0.0, True, rings) +
                     hemisphere_rings(r, 0.0, False, rings)[1:], segments)
    if kind == "capsule":
        r, h = shape["radius"], shape["half_length"]
        return lathe(hemisphere_rings(r, h, True, rings) +
                     hemisphere_rings(r, -h, False, rings), segments)
    if kind == "cylinder":
        r, h = shape["radius"], shape["half_length"]
        return lathe([(0, h, 0, 1), (r, h, 0, 1), (r, h, 1, 0), (r, -h, 1, 0), (r, -h, 0, -1),
                      (0, -h, 0, -1)], segments)
    if kind == "box":
        a = shape["half_extents"]
        pts, nrm, tri = [], [], []
        for axis in range(3):
            for sign in (-1.0, 1.0):
                u, v = (axis + 1) % 3, (axis + 2) % 3
                n = [0.0, 0.0, 0.0]
                n[axis] = sign
                base = len(pts)
                for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                    p = [0.0, 0.0, 0.0]
                    p[axis], p[u], p[v] = sign * a[axis], su * a[u], sv * a[v]
                    pts.append(tuple(p))
                    nrm.append(tuple(n))
                tri += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
        return pts, nrm, tri
    if kind == "hull":
        v = shape["vertices"]
        centre = [sum(p[k] for p in v) / len(v) for k in range(3)]
        pts, nrm, tri = [], [], []
        for t in shape["triangles"]:
            a, b, c = (v[i] for i in t)
            e1 = [b[k] - a[k] for k in range(3)]
            e2 = [c[k] - a[k] for k in range(3)]
            n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                 e1[0] * e2[1] - e1[1] * e2[0]]
            length = math.sqrt(sum(x * x for x in n)) or 1.0
            n = [x / length for x in n]
            if sum(n[k] * (a[k] - centre[k]) for k in range(3)) < 0:
                n = [-x for x in n]
            base = len(pts)
            pts += [tuple(a), tuple(b), tuple(c)]
            nrm += [tuple(n)] * 3
            tri.append((base, base + 1, base + 2))
        return pts, nrm, tri
    fail(EXIT_BAD, "unknown shape kind %r in the description" % kind)


def rotation(q):
    """3x3 rotation matrix of the unit quaternion (w, x, y, z)."""
    w, x, y, z = q
    n = math.sqrt(w * w + x * x + y * y + z * z) or 1.0
    w, x, y, z = w / n, x / n, y / n, z / n
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def compose(q_body, x_body, offset):
    """World pose (R, t) of a shape at @p offset (x y z qw qx qy qz) in a body at q_body, x."""
    import numpy as np
    rb = np.array(rotation(q_body))
    rs = np.array(rotation(offset[3:7]))
    return rb @ rs, np.array(x_body) + rb @ np.array(offset[0:3])


# --- one picture ----------------------------------------------------------------------------------

def colour_of(value, lo, hi):
    s = 0.0 if hi <= lo else min(1.0, max(0.0, (value - lo) / (hi - lo)))
    for (s0, c0), (s1, c1) in zip(SCALE, SCALE[1:]):
        if s <= s1:
            f = (s - s0) / (s1 - s0)
            return tuple(c0[k] + f * (c1[k] - c0[k]) for k in range(3))
    return SCALE[-1][1]


def scene_bounds(desc, meshes):
    """Box of every finite shape over every picture (one camera for all of them)."""
    import numpy as np
    lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    for pic in desc["pictures"]:
        q = pic["q"]
        for b, body in enumerate(desc["bodies"]):
            pose = q[7 * b:7 * b + 7]
            for inst in body["shapes"]:
                mesh = meshes[int(inst[0])]
                if mesh is None:
                    continue
                r, t = compose(pose[3:7], pose[0:3], inst[1:8])
                w = mesh[0] @ r.T + t
                lo, hi = np.minimum(lo, w.min(axis=0)), np.maximum(hi, w.max(axis=0))
    if not np.all(np.isfinite(lo)):
        lo, hi = np.full(3, -1.0), np.full(3, 1.0)
    return lo, hi


def camera_pose(desc, lo, hi, aspect):
    """Camera looking at the box [lo, hi] from the azimuth and elevation of the description,
    at the distance where every corner of the box is in view (divided by the zoom)."""
    import numpy as np
    g = np.array(desc.get("gravity", [0, 0, -9.81]), dtype=float)
    up = -g / np.linalg.norm(g) if np.linalg.norm(g) > 0 else np.array([0.0, 0.0, 1.0])
    e1 = np.array([1.0, 0.0, 0.0]) if abs(up[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    e1 = e1 - up * (e1 @ up)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(up, e1)
    azimuth, elevation, zoom = (math.radians(desc["view"][0]), math.radians(desc["view"][1]),
                                desc["view"][2])
    d = (math.cos(elevation) * (math.cos(azimuth) * -e2 + math.sin(azimuth) * e1) +
         math.sin(elevation) * up)  # from the focal point to the camera
    right = np.cross(-d, up)
    right /= np.linalg.norm(right)
    above = np.cross(right, -d)
    centre = 0.5 * (lo + hi)
    angle = 30.0
    ty = math.tan(math.radians(angle) / 2)
    tx = ty * aspect
    distance = 1e-6
    for corner in np.array(np.meshgrid(*zip(lo, hi))).T.reshape(-1, 3):
        p = corner - centre
        z = p @ d
        distance = max(distance, z + abs(p @ right) / tx, z + abs(p @ above) / ty)
    distance *= 1.06 / zoom
    return centre + distance * d, centre, up, angle, float(np.linalg.norm(hi - lo))


def floor_patch(vtk, normal, point, centre, size):
    """A square of side 2 size in the plane (normal, point), about centre's projection; its
    front face (counter-clockwise) on the free side of the half-space."""
    import numpy as np
    n = np.array(normal, dtype=float)
    n /= np.linalg.norm(n)
    c = np.array(centre) - n * ((np.array(centre) - np.array(point)) @ n)
    t1 = np.cross(n, [1.0, 0.0, 0.0])
    if np.linalg.norm(t1) < 0.1:
        t1 = np.cross(n, [0.0, 1.0, 0.0])
    t1 /= np.linalg.norm(t1)
    t2 = np.cross(n, t1)
    corners = [c + size * (a * t1 + b * t2) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    if np.cross(corners[1] - corners[0], corners[2] - corners[1]) @ n < 0:
        corners.reverse()
    pts = vtk["core"].vtkPoints()
    for p in corners:
        pts.InsertNextPoint(*p)
    cells = vtk["data"].vtkCellArray()
    cells.InsertNextCell(4)
    for i in range(4):
        cells.InsertCellPoint(i)
    poly = vtk["data"].vtkPolyData()
    poly.SetPoints(pts)
    poly.SetPolys(cells)
    mapper = vtk["render"].vtkPolyDataMapper()
    mapper.SetInputData(poly)
    actor = vtk["render"].vtkActor()
    actor.SetMapper(mapper)
    actor.GetProperty().SetColor(*FLOOR)
    actor.GetProperty().SetAmbient(0.45)
    actor.GetProperty().SetDiffuse(0.6)
    actor.GetProperty().BackfaceCullingOn()
    return actor


def bodies_actor(vtk, desc, meshes, pic, lo_hi):
    """Every finite shape of every body in one mesh, coloured per body (RGB per point)."""
    import numpy as np
    q = pic["q"]
    points, normals, colours, triangles = [], [], [], []
    count = 0
    for b, body in enumerate(desc["bodies"]):
        pose = q[7 * b:7 * b + 7]
        if body["static"]:
            rgb = STATIC
        elif desc["color"] == "none":
            rgb = PLAIN
        else:
            rgb = colour_of(pic["value"][b], *lo_hi)
        for inst in body["shapes"]:
            mesh = meshes[int(inst[0])]
            if mesh is None:
                continue
            r, t = compose(pose[3:7], pose[0:3], inst[1:8])
            points.append(mesh[0] @ r.T + t)
            normals.append(mesh[1] @ r.T)
            triangles.append(mesh[2] + count)
            colours.append(np.tile(np.round(np.array(rgb) * 255), (len(mesh[0]), 1)))
            count += len(mesh[0])
    if not points:
        return None
    ns = vtk["np"]
    poly = vtk["data"].vtkPolyData()
    pts = vtk["core"].vtkPoints()
    pts.SetData(ns.numpy_to_vtk(np.ascontiguousarray(np.vstack(points)), deep=True))
    poly.SetPoints(pts)
    tri = np.vstack(triangles).astype(np.int64)
    cells = vtk["data"].vtkCellArray()
    cells.SetData(ns.numpy_to_vtkIdTypeArray(np.arange(0, 3 * len(tri) + 1, 3, dtype=np.int64),
                                             deep=True),
                  ns.numpy_to_vtkIdTypeArray(np.ascontiguousarray(tri.ravel()), deep=True))
    poly.SetPolys(cells)
    nrm = ns.numpy_to_vtk(np.ascontiguousarray(np.vstack(normals)), deep=True)
    nrm.SetName("Normals")
    poly.GetPointData().SetNormals(nrm)
    rgb = ns.numpy_to_vtk(np.ascontiguousarray(np.vstack(colours).astype(np.uint8)), deep=True)
    rgb.SetName("colour")
    poly.GetPointData().SetScalars(rgb)
    mapper = vtk["render"].vtkPolyDataMapper()
    mapper.SetInputData(poly)
    mapper.SetColorModeToDirectScalars()
    actor = vtk["render"].vtkActor()
    actor.SetMapper(mapper)
    actor.GetProperty().SetAmbient(0.3)
    actor.GetProperty().SetSpecular(0.2)
    actor.GetProperty().SetSpecularPower(20)
    return actor


def scale_bar(vtk, lo, hi, title):
    ctf = vtk["render"].vtkColorTransferFunction()
    for s, c in SCALE:
        ctf.AddRGBPoint(lo + s * (hi - lo), *c)
    bar = vtk["annotation"].vtkScalarBarActor()
    bar.SetLookupTable(ctf)
    bar.SetTitle(title)
    bar.SetNumberOfLabels(5)
    bar.SetLabelFormat("%.3g")
    bar.SetPosition(0.1, 0.1)
    bar.SetWidth(0.8)
    bar.SetHeight(0.8)
    for p in (bar.GetTitleTextProperty(), bar.GetLabelTextProperty()):
        p.SetColor(0.1, 0.1, 0.1)
        p.ShadowOff()
        p.ItalicOff()
    return bar


def write_png(vtk, window, path):
    grab = vtk["render"].vtkWindowToImageFilter()
    grab.SetInput(window)
    grab.SetInputBufferTypeToRGB()
    grab.ReadFrontBufferOff()
    grab.Update()
    part = path + ".part"
    writer = vtk["image"].vtkPNGWriter()
    writer.SetFileName(part)
    writer.SetInputConnection(grab.GetOutputPort())
    writer.Write()
    ok = writer.GetErrorCode() == 0 and os.path.isfile(part) and os.path.getsize(part) > 0
    try:
        if not ok:
            raise OSError("the PNG writer failed (error code %d)" % writer.GetErrorCode())
        os.replace(part, path)
    except OSError as e:
        if os.path.exists(part):
            os.remove(part)
        fail(EXIT_IO, "cannot write the picture %s: %s" % (path, e))


def main():
    if len(sys.argv) != 2:
        fail(EXIT_BAD, "usage: nsdyn_render.py DESCRIPTION.json (run by nsdyn render)")
    try:
        with open(sys.argv[1]) as f:
            desc = json.load(f)
        if desc.get("format") != "nsdyn-render-1":
            raise ValueError("format %r, expected nsdyn-render-1" % desc.get("format"))
    except (OSError, ValueError) as e:
        fail(EXIT_BAD, "the description %s: %s" % (sys.argv[1], e))
    vtk = import_vtk()
    import numpy as np
    width, height = desc["size"]
    ensure_display(width, height)

    n_bodies = len(desc["bodies"])
    segments = 24 if n_bodies <= 2000 else 12
    meshes = []
    for shape in desc["shapes"]:
        if shape["kind"] == "plane":
            meshes.append(None)
            continue
        p, n, t = shape_mesh(shape, segments)
        meshes.append((np.array(p, dtype=float), np.array(n, dtype=float),
                       np.array(t, dtype=np.int64)))
    lo, hi = scene_bounds(desc, meshes)
    # the scene on the left, the colour bar in its own strip on the right
    viewport = [0.0, 0.0, 0.86 if desc["color"] != "none" else 1.0, 1.0]
    position, focal, up, angle, radius = camera_pose(desc, lo, hi,
                                                     viewport[2] * width / float(height))
    values = [v for pic in desc["pictures"]
              for v, body in zip(pic["value"], desc["bodies"]) if not body["static"]]
    lo_hi = desc.get("range") or [0.0, max(values + [0.0]) or 1.0]

    cameras = []
    for pic in desc["pictures"]:
        renderer = vtk["render"].vtkRenderer()
        renderer.SetBackground(*BACKGROUND)
        renderer.SetViewport(*viewport)
        renderer.RemoveAllLights()
        lights = vtk["render"].vtkLightKit()
        lights.AddLightsToRenderer(renderer)
        window = vtk["render"].vtkRenderWindow()
        window.SetOffScreenRendering(1)
        window.SetMultiSamples(4)  # (FXAA draws a black picture with Mesa under Xvfb)
        window.SetSize(width, height)
        window.AddRenderer(renderer)
        actor = bodies_actor(vtk, desc, meshes, pic, lo_hi)
        if actor:
            renderer.AddActor(actor)
        for b, body in enumerate(desc["bodies"]):
            pose = pic["q"][7 * b:7 * b + 7]
            for inst in body["shapes"]:
                shape = desc["shapes"][int(inst[0])]
                if shape["kind"] != "plane":
                    continue
                r, t = compose(pose[3:7], pose[0:3], inst[1:8])
                normal = r @ np.array(shape["normal"])
                point = t + normal * shape["offset"]
                renderer.AddActor(floor_patch(vtk, normal, point, 0.5 * (lo + hi), 1.5 * radius))
        if desc["color"] != "none":
            strip = vtk["render"].vtkRenderer()
            strip.SetBackground(*BACKGROUND)
            strip.SetViewport(viewport[2], 0.0, 1.0, 1.0)
            strip.AddActor2D(scale_bar(vtk, lo_hi[0], lo_hi[1], LABELS[desc["color"]]))
            window.AddRenderer(strip)
        title = vtk["render"].vtkTextActor()
        title.SetInput("%s   t = %.4g s" % (desc["name"], pic["time"]))
        title.GetTextProperty().SetFontSize(max(12, height // 36))
        title.GetTextProperty().SetColor(0.1, 0.1, 0.1)
        title.SetPosition(10, height - 10 - max(12, height // 36))
        renderer.AddActor2D(title)
        camera = renderer.GetActiveCamera()
        camera.SetPosition(*position)
        camera.SetFocalPoint(*focal)
        camera.SetViewUp(*up)
        camera.SetViewAngle(angle)
        renderer.ResetCameraClippingRange()
        window.Render()
        write_png(vtk, window, pic["png"])
        cameras.append({"png": pic["png"], "time": pic["time"], "frame": pic["frame"],
                        "size": [width, height], "position": list(camera.GetPosition()),
                        "focal_point": list(camera.GetFocalPoint()),
                        "view_up": list(camera.GetViewUp()), "view_angle": camera.GetViewAngle(),
                        "viewport": viewport,
                        "color": desc["color"], "range": list(lo_hi),
                        "background": list(BACKGROUND)})
        window.Finalize()
        print("nsdyn render: t = %.6g (frame %d) -> %s" % (pic["time"], pic["frame"], pic["png"]))
    if desc.get("camera_file"):
        path = desc["camera_file"]
        try:
            with open(path + ".part", "w") as f:
                json.dump({"pictures": cameras}, f, indent=1)
            os.replace(path + ".part", path)
        except OSError as e:
            fail(EXIT_IO, "cannot write the camera file %s: %s" % (path, e))


if __name__ == "__main__":
    try:
        main()
    except (KeyError, IndexError, TypeError, ValueError) as e:
        import traceback
        traceback.print_exc()
        fail(EXIT_BAD, "a bad description %s: %r" % (sys.argv[1], e))
