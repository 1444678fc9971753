#!/usr/bin/env python3
"""Write failures under `mpirun -np 2 nsdyn run` (issue 23 #11, #13). Run by ctest as
parallel/write_failures:

  mpi_write_failures.py NSDYN SOURCE_DIR WORKDIR MPIRUN [MPIRUN_ARGS...]

A pile of 20 spheres, 20 steps, scene HDF5 and VTK every 5 steps, a checkpoint every 5 steps.
The write-failure hook (NSDYN_FAIL_WRITE_AT=k, doc/robustness.md "Write failures") makes the
k-th write operation of each rank fail (rank 0 writes every file): for five k spread over the
operations of rank 0 (from the first), every run exits 4 (it was 1 for a file not creatable), with
"No space left on device", no crash, no .part file left but the spools, and no
SpherePile.hdf5 unless whole (byte-identical to the run without a failure).
"""
import os
import shutil
import subprocess
import sys

NSDYN, SOURCE, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
MPIRUN = sys.argv[4:]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, flush=True)


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
text = open(os.path.join(SOURCE, "Examples", "SpherePile", "SpherePile.xml")).read()
for old, new in (('name="count" value="500"', 'name="count" value="20"'),
                 ('name="T" value="1"', 'name="T" value="0.02"'),
                 ('<sceneFiles every="20" hdf5="true"/>', '<sceneFiles every="5" hdf5="true" vtk="true"/>')):
    assert old in text, old
    text = text.replace(old, new)
model = os.path.join(WORK, "pile.xml")
open(model, "w").write(text)


def run(out, env):
    shutil.rmtree(out, ignore_errors=True)
    cmd = MPIRUN + ["2"] + [x for k, v in env.items() for x in ("-x", k + "=" + v)]
    cmd += [NSDYN, "run", model, "--output", out, "--quiet", "--no-plot", "--checkpoint-every", "5"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


ref = os.path.join(WORK, "ref")
log = os.path.join(WORK, "writes.log")
status, text = run(ref, {"NSDYN_WRITE_LOG": log})
check(status == 0, "the run without a failure: exit %d\n%s" % (status, text))
# rank 0 writes every file: its operations are those on the output folder's files
operations = len(open(log).read().splitlines())
check(operations > 20, "%d write operations" % operations)
tried = 0
step = max(1, operations // 5)
for k in range(1, operations + 1, step):
    out = os.path.join(WORK, "k")
    status, text = run(out, {"NSDYN_FAIL_WRITE_AT": str(k)})
    if status == 0:  # beyond rank 0's last operation (the log counts both ranks')
        break
    tried += 1
    what = "k = %d: exit %d\n%s" % (k, status, text)
    check(status == 4, what)
    check("No space left on device" in text, what)
    if not os.path.isdir(out):
        continue
    for name in os.listdir(out):
        if name.startswith("."):
            continue
        check(not name.endswith(".part"), what + "\n" + name + " left")
        if name.endswith(".checkpoint") or name.endswith(".part"):
            continue
        same = os.path.exists(os.path.join(ref, name)) and \
            open(os.path.join(out, name), "rb").read() == open(os.path.join(ref, name), "rb").read()
        check(same, what + "\n" + name + ": not the whole file")
print("%d failing operations tried under mpirun -np 2 (one in %d of %d)" % (tried, step, operations))
check(tried >= 4, "%d operations tried" % tried)
if failures:
    sys.exit(1)
print("ok")
