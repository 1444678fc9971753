#!/usr/bin/env python3
"""`mpirun -np N nsdyn run MODEL.xml` against the single-process `nsdyn run` of the same file
(doc/parallel.md, "nsdyn run under mpirun"). Run by ctest as parallel/run_npN:

  mpi_run_cli.py NSDYN NP WORKDIR MPIRUN [MPIRUN_ARGS...]

Checks, with figures:
  1. the same model file run on one process (the Kernel's TimeStepping) and on NP ranks:
     every step the same contact count, kinetic and potential energy within 1e-9 relative,
     the highest centre within 1e-9 m (1e-8 of a diameter); exit 0 both;
  2. the files the MPI run reports exist: NAME.csv, NAME.png (when gnuplot is there),
     the .pvd series, each frame's .pvtp listing NP pieces, the pieces; NAME.hdf5;
  3. restart with another rank count: NP ranks stop at step 50 with a checkpoint, then
     (NP % 3) + 1 ranks continue from it to step 100: the last row equals the uninterrupted
     run's within 1e-9 relative (energies) and 1e-9 m (top);
  4. a checkpoint of another scene (another count of spheres) is refused: exit 3, the message
     ("another scene") once on stderr, no results;
  5. a model with a box particle is refused: exit 3, the body named once.
"""
import csv
import os
import re
import shutil
import subprocess
import sys

NSDYN, NP, WORK = sys.argv[1], int(sys.argv[2]), sys.argv[3]
MPIRUN = sys.argv[4:]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, flush=True)


MODEL = """<?xml version="1.0"?>
<nsdyn version="1" name="MpiPile">
  <model>
    <scene gravity="0 0 -9.81">
      <ContactManager>
        <material mu="0.1" restitution="0"/>
      </ContactManager>
      <container lower="0 0 0" upper="0.6 0.6 1.2" planes="true"/>
      <randomPacking count="{count}" seed="7">
        <particle kind="{kind}" radius="0.05" size-spread="0.1" density="2500"/>
        <region lower="0 0 0" upper="0.6 0.6 1.2"/>
      </randomPacking>
    </scene>
  </model>
  <simulation type="TimeStepping" t0="0" T="0.4" h="4e-3">
    <MoreauJeanOSI theta="0.5"/>
    <FrictionContact dim="3" solver="apgd">
      <options tolerance="1e-10" max-iterations="200000"/>
    </FrictionContact>
  </simulation>
  <outputs>
    <output name="Single">
      <column name="t" value="t"/>
      <column name="kinetic" value="scene.kinetic_energy"/>
      <column name="potential" value="scene.potential_energy"/>
      <column name="contacts" value="scene.contacts"/>
      <column name="top" value="scene.max_z"/>
    </output>
    <sceneFiles every="25" vtk="true" hdf5="true"/>
  </outputs>
</nsdyn>
"""


def model(path, count=180, kind="sphere"):
    with open(path, "w") as f:
        f.write(MODEL.format(count=count, kind=kind))
    return path


def run(args, mpi=0):
    cmd = (MPIRUN + [str(mpi)] if mpi else []) + [NSDYN, "run"] + args + ["--quiet"]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=280)
    return p.returncode, p.stdout, p.stderr


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def close(a, b, rel):
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
xml = model(os.path.join(WORK, "pile.xml"))

# 1. one process against NP ranks, step by step
rc, out, err = run([xml, "--output", os.path.join(WORK, "single"), "--no-plot"])
check(rc == 0, "single-process run exit %d: %s" % (rc, err[-500:]))
rc, out, err = run([xml, "--output", os.path.join(WORK, "mpi")], NP)
check(rc == 0, "mpirun -np %d run exit %d: %s" % (NP, rc, err[-800:]))
print(out)
single = rows(os.path.join(WORK, "single", "Single.csv"))[1:]  # row 0: the initial state
mpi = rows(os.path.join(WORK, "mpi", "MpiPile.csv"))
check(len(single) == 100 and len(mpi) == 100, "rows: single %d, mpi %d (100 expected)" % (len(single), len(mpi)))
worst = {"kinetic": 0.0, "potential": 0.0, "top": 0.0}
for s, m in zip(single, mpi):
    step = "t = %s" % m["t"]
    check(close(float(s["t"]), float(m["t"]), 1e-12), step + ": times differ")
    check(int(float(s["contacts"])) == int(m["contacts"]),
          step + ": contacts %s (single) and %s (mpi)" % (s["contacts"], m["contacts"]))
    for k in ("kinetic", "potential"):
        d = abs(float(s[k]) - float(m[k])) / max(1.0, abs(float(s[k])))
        worst[k] = max(worst[k], d)
        check(d <= 1e-9, step + ": %s %s (single) and %s (mpi)" % (k, s[k], m[k]))
    d = abs(float(s["top"]) - float(m["top"]))
    worst["top"] = max(worst["top"], d)
    check(d <= 1e-9, step + ": top %s (single) and %s (mpi)" % (s["top"], m["top"]))
print("largest differences over 100 steps: kinetic %.2e, potential %.2e (relative), top %.2e m" %
      (worst["kinetic"], worst["potential"], worst["top"]))

# 2. the files it reports
mdir = os.path.join(WORK, "mpi")
for f in ("MpiPile.csv", "MpiPile.hdf5", "MpiPile_bodies.pvd", "MpiPile_contacts.pvd"):
    check(os.path.isfile(os.path.join(mdir, f)) and f in out, "%s missing or not reported" % f)
for line in out.splitlines():
    m = re.search(r":\s+(\S+\.(?:csv|png|pvd|hdf5))$", line)
    if m:
        check(os.path.isfile(m.group(1)), "reported but not written: " + m.group(1))
with open(os.path.join(mdir, "MpiPile_bodies.pvd")) as f:
    frames = re.findall(r'file="([^"]+\.pvtp)"', f.read())
check(len(frames) == 5, "%d frames in the .pvd (steps 25, 50, 75, 100 and the initial one: 5 expected)" % len(frames))
for fr in frames:
    with open(os.path.join(mdir, fr)) as f:
        pieces = re.findall(r'Source="([^"]+)"', f.read())
    check(len(pieces) == NP, "%s lists %d pieces (%d ranks)" % (fr, len(pieces), NP))
    points = 0
    for p in pieces:
        path = os.path.join(mdir, p)
        check(os.path.isfile(path), "piece %s missing" % p)
        if os.path.isfile(path):
            with open(path) as f:
                points += sum(int(n) for n in re.findall(r'NumberOfPoints="(\d+)"', f.read()))
    check(points == 180, "%s: %d bodies in its pieces (180 expected)" % (fr, points))

# 3. restart with another rank count
other = NP % 3 + 1
cp = os.path.join(WORK, "cp")
rc, out, err = run([xml, "--output", cp, "--checkpoint-every", "50", "--stop-after", "50"], NP)
check(rc == 0, "run to step 50 exit %d: %s" % (rc, err[-500:]))
checkpoint = os.path.join(cp, "MpiPile.mpi-checkpoint")
check(os.path.isfile(checkpoint), "no checkpoint " + checkpoint)
rc, out, err = run([xml, "--output", os.path.join(WORK, "restart"), "--restart", checkpoint, "--no-plot"], other)
check(rc == 0, "restart on %d ranks exit %d: %s" % (other, rc, err[-500:]))
print(out)
rest = rows(os.path.join(WORK, "restart", "MpiPile.csv"))
check(len(rest) == 50, "%d rows after the restart (50 expected)" % len(rest))
if rest:
    a, b = rest[-1], mpi[-1]
    for k in ("kinetic", "potential"):
        check(close(float(a[k]), float(b[k]), 1e-9), "after the restart on %d ranks: %s %s, uninterrupted %s" %
              (other, k, a[k], b[k]))
    check(abs(float(a["top"]) - float(b["top"])) <= 1e-9, "after the restart: top %s, uninterrupted %s" %
          (a["top"], b["top"]))
    check(a["contacts"] == b["contacts"], "after the restart: contacts %s, uninterrupted %s" % (a["contacts"], b["contacts"]))
    print("restart on %d ranks from %d: kinetic %s vs %s, top %s vs %s" % (other, NP, a["kinetic"], b["kinetic"],
                                                                          a["top"], b["top"]))

# 4. a checkpoint of another scene
xml2 = model(os.path.join(WORK, "pile170.xml"), count=170)
rc, out, err = run([xml2, "--output", os.path.join(WORK, "wrong"), "--restart", checkpoint], NP)
check(rc == 3, "restart from another scene's checkpoint: exit %d (3 expected)" % rc)
check(err.count("another scene") == 1, "the message 'another scene' once on stderr: " + err[-400:])
check(not os.path.exists(os.path.join(WORK, "wrong", "MpiPile.csv")), "results written after a refused restart")

# 5. a box particle
xml3 = model(os.path.join(WORK, "boxes.xml"), count=20, kind="box")
rc, out, err = run([xml3, "--output", os.path.join(WORK, "boxes")], NP)
check(rc == 3, "box particles: exit %d (3 expected)" % rc)
check(err.count("is not one sphere") == 1, "the message naming the body once: " + err[-400:])

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
