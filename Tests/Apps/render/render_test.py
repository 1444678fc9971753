#!/usr/bin/env python3
"""nsdyn render on a small scene run (Tests/Apps/render/RenderScene.xml), checked in figures.

Usage: render_test.py NSDYN RenderScene.xml WORKDIR

1. The degraded paths, always: no Python interpreter, and no display with no Xvfb, give exit
   status 6 and a message naming what is missing; a time outside the frames is a usage error
   (2); a folder without frames is bad input (3) naming NAME_bodies.pvd.
2. The pictures, when the rendering stack is here (else exit 77: skipped, with the reason):
   the PNG has the size asked, is not blank, and at the pixel where each body's centre
   projects (the camera of --camera-file, a pinhole projection done here) it has the
   body's colour: the resting bodies of each shape blue (speed 0), the falling sphere red
   (2.9 m/s > the range's 1), the static box grey, the floor grey, the sky the background.
   Coloured by contact force, the resting sphere is red (its weight 139 N > 100) and the
   falling one blue (no contact).
"""
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

SKIP = 77
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def run(args, env=None):
    p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout + p.stderr


def read_png(path):
    """RGB rows of an 8-bit RGB PNG (what vtkPNGWriter writes), decoded here."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "8-bit RGB(A) expected"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def project(cam, p):
    """Pixel (column, row from the top) of world point p: VTK's perspective camera."""
    sub = lambda a, b: [a[i] - b[i] for i in range(3)]
    dot = lambda a, b: sum(a[i] * b[i] for i in range(3))
    cross = lambda a, b: [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                          a[0] * b[1] - a[1] * b[0]]
    unit = lambda a: [x / math.sqrt(dot(a, a)) for x in a]
    f = unit(sub(cam["focal_point"], cam["position"]))
    r = unit(cross(f, cam["view_up"]))
    u = cross(r, f)
    d = sub(p, cam["position"])
    w, h = cam["size"]
    v = cam["viewport"]
    vw, vh = (v[2] - v[0]) * w, (v[3] - v[1]) * h
    t = math.tan(math.radians(cam["view_angle"]) / 2)
    x = dot(d, r) / (dot(d, f) * t * vw / vh)
    y = dot(d, u) / (dot(d, f) * t)
    return v[0] * w + (x + 1) / 2 * vw, h - (v[1] * h + (y + 1) / 2 * vh)


def pixel(rows, col, row):
    """Mean colour of the 3x3 pixels about (col, row)."""
    c, r = int(round(col)), int(round(row))
    px = [rows[r + j][c + i] for i in (-1, 0, 1) for j in (-1, 0, 1)]
    return tuple(sum(p[k] for p in px) / 9.0 for k in range(3))


def centres(vtp):
    """Body index -> centre (x, y, z) from a bodies frame."""
    piece = ET.parse(vtp).getroot().find("PolyData/Piece")
    xyz = [float(x) for x in piece.find("Points/DataArray").text.split()]
    ids = [int(x) for x in piece.find("PointData/DataArray[@Name='body']").text.split()]
    return {b: xyz[3 * i:3 * i + 3] for i, b in enumerate(ids)}


def main():
    nsdyn, scene, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out")
    code, text = run([nsdyn, "run", scene, "--output", out, "--no-plot", "--quiet"])
    check(code == 0, "nsdyn run RenderScene.xml: exit 0 (got %d)" % code)

    # 1. degraded paths: status and message
    env = dict(os.environ, NSDYN_RENDER_PYTHON=os.path.join(work, "no-python"))
    code, text = run([nsdyn, "render", scene, "--output", out], env)
    check(code == 6 and "cannot start the Python interpreter" in text,
          "no Python interpreter: exit 6 naming it (got %d: %s)" % (code, text.strip()[-120:]))
    env = dict(os.environ, NSDYN_RENDER_XVFB=os.path.join(work, "no-Xvfb"))
    env.pop("DISPLAY", None)
    code, text = run([nsdyn, "render", scene, "--output", out], env)
    check(code == 6 and "rendering stack is missing" in text,
          "no display and no Xvfb: exit 6, 'the rendering stack is missing' (got %d: %s)"
          % (code, text.strip()[-160:]))
    code, text = run([nsdyn, "render", scene, "--output", out, "--times", "5"])
    check(code == 2 and "outside the frames" in text and "t = 0 ... 0.3" in text,
          "--times 5: exit 2, the frames' span named (got %d)" % code)
    code, text = run([nsdyn, "render", scene, "--output", work])
    check(code == 3 and "RenderScene_bodies.pvd" in text and "--vtk" in text,
          "no frames in the folder: exit 3 naming the .pvd and --vtk (got %d)" % code)
    check(not [f for f in os.listdir(out) if f.endswith(".png") or f.endswith(".part")],
          "no picture and no .part file left by the failed renders")

    # 2. the pictures
    png = os.path.join(work, "speed.png")
    camera = os.path.join(work, "camera.json")
    code, text = run([nsdyn, "render", scene, "--output", out, "--times", "0.3", "--range",
                      "0,1", "--size", "480x360", "--png", png, "--camera-file", camera])
    if code == 6:
        print("SKIPPED: the rendering stack is missing here: " + text.strip())
        sys.exit(SKIP if not failures else 1)
    check(code == 0 and "frame 6" in text, "nsdyn render --times 0.3: exit 0, frame 6 (got %d: %s)"
          % (code, text.strip()[-200:]))
    if code != 0:
        sys.exit(1)
    cam = json.load(open(camera))["pictures"][0]
    w, h, rows = read_png(png)
    check((w, h) == (480, 360), "the PNG is 480x360 (got %dx%d)" % (w, h))
    flat = [p for row in rows for p in row]
    white = sum(1 for p in flat if p == (255, 255, 255)) / float(len(flat))
    colours = len(set(flat))
    check(0.05 < white < 0.8 and colours > 200,
          "not blank: background %.0f %% of the pixels, %d colours" % (100 * white, colours))
    where = centres(os.path.join(out, "RenderScene_bodies_000006.vtp"))
    names = {1: "sphere", 2: "box", 3: "capsule", 4: "cylinder", 5: "convex hull",
             6: "static box", 7: "falling sphere"}
    for b, name in names.items():
        col, row = project(cam, where[b])
        inside = 1 <= col < w - 1 and 1 <= row < h - 1
        r, g, bl = pixel(rows, col, row) if inside else (0, 0, 0)
        if b == 7:
            ok = inside and r > bl + 60 and r > g + 60
            want = "red"
        elif b == 6:
            ok = inside and max(r, g, bl) - min(r, g, bl) < 20 and max(r, g, bl) < 235
            want = "grey"
        else:
            ok = inside and bl > r + 40 and bl > g + 20
            want = "blue"
        check(ok, "%s (body %d) at pixel (%.0f, %.0f): %s, got (%.0f, %.0f, %.0f)"
              % (name, b, col, row, want, r, g, bl))
    col, row = project(cam, [0.35, -0.5, 0.0])
    r, g, bl = pixel(rows, col, row)
    check(abs(r - g) < 20 and bl < r and max(r, g, bl) < 250,
          "the floor at (0.35, -0.5, 0), pixel (%.0f, %.0f): grey, got (%.0f, %.0f, %.0f)"
          % (col, row, r, g, bl))
    check(rows[3][int(0.4 * w)] == (255, 255, 255),
          "the sky above the floor: the background (got %s)" % (rows[3][int(0.4 * w)],))

    png = os.path.join(work, "force.png")
    code, text = run([nsdyn, "render", scene, "--output", out, "--times", "0.3", "--color",
                      "force", "--range", "0,100", "--size", "480x360", "--png", png,
                      "--camera-file", camera])
    check(code == 0, "nsdyn render --color force: exit 0 (got %d)" % code)
    if code == 0:
        cam = json.load(open(camera))["pictures"][0]
        w, h, rows = read_png(png)
        for b, want in ((1, "red"), (7, "blue")):
            col, row = project(cam, where[b])
            r, g, bl = pixel(rows, col, row)
            ok = (r > bl + 60 and r > g + 60) if want == "red" else (bl > r + 40 and bl > g + 20)
            check(ok, "--color force: %s %s, got (%.0f, %.0f, %.0f)" % (names[b], want, r, g, bl))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
