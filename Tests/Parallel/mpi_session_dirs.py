#!/usr/bin/env python3
"""MPI tests that cannot collide (issue 23): two mpirun started at once in the same temporary
folder could fail in Open MPI's start-up ("File exists" for its session directory). Run by
ctest as parallel/session_dirs:

  mpi_session_dirs.py CTEST BUILD_DIR MPIRUN [MPIRUN_ARGS...]

Checks:
  1. every test of ctest's parallel/ group runs with its own TMPDIR (and the same
     OMPI_MCA_orte_tmpdir_base), none shared by two tests;
  2. two mpirun -np 2 started at once, each with its own TMPDIR, both exit 0, and each made
     its session directory (ompi.*) under its own TMPDIR, not in the other's.
"""
import json
import os
import shutil
import subprocess
import sys

CTEST, BUILD = sys.argv[1], sys.argv[2]
MPIRUN = sys.argv[3:]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, flush=True)


# 1. the registrations
shown = subprocess.run([CTEST, "--show-only=json-v1", "-R", "^parallel/"], cwd=BUILD,
                       capture_output=True, text=True, timeout=60)
check(shown.returncode == 0, "ctest --show-only: exit %d %s" % (shown.returncode, shown.stderr[-300:]))
tests = json.loads(shown.stdout).get("tests", []) if shown.returncode == 0 else []
check(len(tests) > 10, "%d parallel/ tests found (more than 10 expected)" % len(tests))
seen = {}
for t in tests:
    env = {}
    for p in t.get("properties", []):
        if p.get("name") == "ENVIRONMENT":
            for item in p.get("value", []):
                k, _, v = item.partition("=")
                env[k] = v
    tmp = env.get("TMPDIR")
    check(tmp is not None, "%s: no TMPDIR of its own" % t["name"])
    check(env.get("OMPI_MCA_orte_tmpdir_base") == tmp,
          "%s: OMPI_MCA_orte_tmpdir_base %s, TMPDIR %s" % (t["name"], env.get("OMPI_MCA_orte_tmpdir_base"), tmp))
    if tmp is not None:
        check(tmp not in seen, "%s and %s share TMPDIR %s" % (seen.get(tmp), t["name"], tmp))
        seen[tmp] = t["name"]
print("%d parallel tests, %d distinct TMPDIRs" % (len(tests), len(seen)))

# 2. two mpirun at once, each in its own folder
base = os.path.join(os.environ.get("TMPDIR", "/tmp"), "two")
shutil.rmtree(base, ignore_errors=True)
dirs = [os.path.join(base, "a"), os.path.join(base, "b")]
probe = "import os, time; time.sleep(1.5); print(sorted(os.listdir(os.environ['TMPDIR'])))"
procs = []
for d in dirs:
    os.makedirs(d)
    env = dict(os.environ, TMPDIR=d, OMPI_MCA_orte_tmpdir_base=d)
    procs.append(subprocess.Popen(MPIRUN + ["2", sys.executable, "-c", probe], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
for d, p in zip(dirs, procs):
    out, err = p.communicate(timeout=90)
    check(p.returncode == 0, "mpirun in %s: exit %d %s" % (d, p.returncode, err[-400:]))
    check("ompi." in out, "mpirun in %s: no ompi.* session directory under its TMPDIR: %s" % (d, out.strip()))
    print(d, out.strip().splitlines()[:1])

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
