#!/usr/bin/env python3
"""What `mpirun -np N nsdyn run` says (issue 23 #12, #15). Run by ctest as parallel/run_messages:

  mpi_run_messages.py NSDYN WORKDIR MPIRUN [MPIRUN_ARGS...]

Checks:
  1. fewer dynamic bodies than ranks (4 bodies, mpirun -np 6): exit 2 (a rank count for this
     model, a usage error; it was 3), one message with both counts, no results;
  2. the warnings of a model (two pairs of spheres overlapping at t0) under mpirun -np 3: the
     same lines as on one process, once each (rank 0), none interleaved (they were printed
     once per rank, "nsdyn: warning: nsdyn: warning: ...");
  3. --set NAME=VALUE under mpirun -np 2 (the option parser of one process): the value used
     and reported once; an unknown NAME exit 2 with the file's parameters, a VALUE that is no
     number exit 3 with the parameter.
"""
import os
import shutil
import subprocess
import sys

NSDYN, WORK = sys.argv[1], sys.argv[2]
MPIRUN = sys.argv[3:]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, flush=True)


MODEL = """<?xml version="1.0"?>
<nsdyn version="1" name="Overlaps">
  <parameters><parameter name="T" value="0.01"/></parameters>
  <model>
    <scene gravity="0 0 -9.81">
      <ContactManager><material mu="0.5" restitution="0"/></ContactManager>
      <StaticBody name="floor"><HalfSpaceShape normal="0 0 1" offset="0"/></StaticBody>
      <RigidBody name="a" density="500"><position>0 0 0.1</position><SphereShape radius="0.1"/></RigidBody>
      <RigidBody name="b" density="500"><position>0 0 0.15</position><SphereShape radius="0.1"/></RigidBody>
      <RigidBody name="c" density="500"><position>0.5 0 0.1</position><SphereShape radius="0.1"/></RigidBody>
      <RigidBody name="d" density="500"><position>0.5 0 0.15</position><SphereShape radius="0.1"/></RigidBody>
    </scene>
  </model>
  <simulation type="TimeStepping" t0="0" T="T" h="1e-3">
    <MoreauJeanOSI theta="0.5"/>
    <FrictionContact dim="3" solver="nsgs"/>
  </simulation>
  <outputs><output name="o"><column name="t" value="t"/></output></outputs>
</nsdyn>
"""


def run(args, ranks):
    cmd = (MPIRUN + [str(ranks)] if ranks else []) + [NSDYN, "run"] + args + ["--quiet", "--no-plot"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=100,
                       env=dict(os.environ, OMP_NUM_THREADS="1"))
    return p.returncode, p.stdout, p.stderr


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
xml = os.path.join(WORK, "overlaps.xml")
with open(xml, "w") as f:
    f.write(MODEL)

# 1. fewer bodies than ranks
rc, out, err = run([xml, "--output", os.path.join(WORK, "six")], 6)
errors = [l for l in err.splitlines() if l.startswith("nsdyn: error:")]
check(rc == 2, "4 bodies on 6 ranks: exit %d (2 expected): %s" % (rc, err[-300:]))
check(len(errors) == 1, "4 bodies on 6 ranks: %d error lines (1 expected)" % len(errors))
check(errors and "4 dynamic bodies for 6 ranks" in errors[0] and xml in errors[0],
      "4 bodies on 6 ranks: the message does not name the file and both counts: %s" % errors)
check(not os.path.exists(os.path.join(WORK, "six", "o.csv")), "4 bodies on 6 ranks: results written")
print("6 ranks:", rc, errors)

# 2. warnings once
rc1, out1, err1 = run([xml, "--output", os.path.join(WORK, "one")], 0)
rc3, out3, err3 = run([xml, "--output", os.path.join(WORK, "three")], 3)
check(rc1 == 0 and rc3 == 0, "overlapping spheres: exit %d (one process), %d (3 ranks)" % (rc1, rc3))
w1 = [l for l in err1.splitlines() if "warning" in l]
w3 = [l for l in err3.splitlines() if "warning" in l]
check(len(w1) >= 2, "one process: %d warnings (the 2 overlaps at least expected): %s" % (len(w1), err1[-300:]))
check(sorted(w3) == sorted(w1), "3 ranks: warnings differ from one process's:\n%s\n---\n%s" %
      ("\n".join(w3), "\n".join(w1)))
check(all(l.count("warning:") == 1 for l in w3), "3 ranks: interleaved warnings: %s" % w3)
print("warnings: %d on one process, %d on 3 ranks" % (len(w1), len(w3)))

# 3. --set under mpirun
rc, out, err = run([xml, "--output", os.path.join(WORK, "set"), "--set", "T=0.005"], 2)
check(rc == 0, "--set T=0.005 on 2 ranks: exit %d: %s" % (rc, err[-300:]))
check(out.count("parameters set (--set):  T = 0.005 (file: 0.01)") == 1,
      "--set T=0.005 on 2 ranks: not reported once: %s" % out[-400:])
rows = open(os.path.join(WORK, "set", "o.csv")).read().split()
check(len(rows) == 7, "--set T=0.005 on 2 ranks: %d lines in o.csv (header + 6 rows)" % len(rows))
rc, out, err = run([xml, "--set", "nope=1", "--output", os.path.join(WORK, "set")], 2)
errors = [l for l in err.splitlines() if l.startswith("nsdyn: error:")]
check(rc == 2 and len(errors) == 1 and "no <parameter> named 'nope'" in errors[0] and
      "its parameters: T" in errors[0], "--set nope=1 on 2 ranks: exit %d: %s" % (rc, err[-300:]))
rc, out, err = run([xml, "--set", "T=abc", "--output", os.path.join(WORK, "set")], 2)
check(rc == 3 and "parameter 'T' set to 'abc'" in err and xml in err,
      "--set T=abc on 2 ranks: exit %d: %s" % (rc, err[-300:]))
print("--set on 2 ranks checked")
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
