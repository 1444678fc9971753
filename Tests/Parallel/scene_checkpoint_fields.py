#!/usr/bin/env python3
"""Corrupted scene checkpoints with a valid checksum (issue 23 #5, #12): every field of a real
checkpoint written by `nsdyn run --checkpoint-every`, changed and the FNV-1a 64 checksum
recomputed, is refused by `nsdyn run --restart` with exit 3, one message naming the file and
the field or value, on one process and under mpirun (every rank stops, no hang, rank 0
alone prints). Run by ctest as parallel/checkpoint_fields:

  scene_checkpoint_fields.py NSDYN WORKDIR MPIRUN [MPIRUN_ARGS...]

The byte layout is that of nsdyn/io/SceneCheckpoint.hpp (format 2).
"""
import os
import shutil
import struct
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
<nsdyn version="1" name="Fields">
  <model>
    <scene gravity="0 0 -9.81">
      <ContactManager><material mu="0.1" restitution="0"/></ContactManager>
      <container lower="0 0 0" upper="0.4 0.4 0.8" planes="true"/>
      <randomPacking count="24" seed="3">
        <particle kind="sphere" radius="0.05" size-spread="0.1" density="2500"/>
        <region lower="0 0 0" upper="0.4 0.4 0.4"/>
      </randomPacking>
    </scene>
  </model>
  <simulation type="TimeStepping" t0="0" T="0.2" h="4e-3">
    <MoreauJeanOSI theta="0.5"/>
    <FrictionContact dim="3" solver="nsgs"/>
  </simulation>
  <outputs>
    <output name="Table">
      <column name="t" value="t"/>
      <column name="work" value="scene.contact_work" sum="true"/>
    </output>
  </outputs>
</nsdyn>
"""
STEPS = 50  # T / h


def fnv1a64(data):
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


class Layout:
    """Offsets of the fields of a format-2 scene checkpoint."""

    def __init__(self, d):
        self.d = d
        u64 = lambda at: struct.unpack_from("<Q", d, at)[0]
        at = 24
        items = u64(at)
        at += 8
        self.item_hash = None
        for _ in range(items):
            n = u64(at)
            at += 8 + n
            if self.item_hash is None:
                self.item_hash = at  # the first item's hash ("h")
            at += 8
        self.steps, self.time = at, at + 8
        self.nb = at + 16
        nb = u64(self.nb)
        self.body = self.nb + 8  # the first body record: id, hash, q (7), v (6)
        self.last_body = self.body + 120 * (nb - 1)
        self.nm = self.body + 120 * nb
        nm = u64(self.nm)
        self.memory = self.nm + 8 if nm else None  # idA, idB, sub, normal, tangential
        self.last_memory = self.nm + 8 + 56 * (nm - 1) if nm else None
        at = self.nm + 8 + 56 * nm
        self.run_flag = at
        at += 8
        self.outputs = at
        at += 8
        self.name = at  # first output: name length, name
        at += 8 + u64(at)
        self.columns = at
        columns = u64(at)
        at += 8
        self.spool = at
        at += 8 + u64(at)
        self.spooled = at
        self.rows = at + 8
        rows = u64(self.rows)
        at = self.rows + 8 + 8 * columns * rows + 8 * columns
        self.pending = at
        self.values = at + 8  # count, then the values
        assert u64(self.values) == 21, u64(self.values)
        self.nb_value, self.nm_value, self.rows_value, self.columns_value = nb, nm, rows, columns


def with_field(data, at, fmt, value, more=()):
    d = bytearray(data[:-8])
    struct.pack_into(fmt, d, at, value)
    for a, f, v in more:
        struct.pack_into(f, d, a, v)
    return bytes(d) + struct.pack("<Q", fnv1a64(d))


def run(args, ranks):
    cmd = (MPIRUN + [str(ranks)] if ranks else []) + [NSDYN, "run"] + args + ["--quiet", "--no-plot"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=100,
                       env=dict(os.environ, OMP_NUM_THREADS="1"))
    return p.returncode, p.stdout, p.stderr


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
xml = os.path.join(WORK, "fields.xml")
with open(xml, "w") as f:
    f.write(MODEL)
rc, out, err = run([xml, "--output", os.path.join(WORK, "cp"), "--checkpoint-every", "20",
                    "--stop-after", "45", "--output-window", "4"], 2)
check(rc == 0, "the run that writes the checkpoint: exit %d %s" % (rc, err[-400:]))
with open(os.path.join(WORK, "cp", "Fields.checkpoint"), "rb") as f:
    good = f.read()
check(good[:8] == b"NSDYNSCP" and struct.unpack_from("<I", good, 8)[0] == 2, "not a format-2 checkpoint")
check(struct.unpack_from("<Q", good, len(good) - 8)[0] == fnv1a64(good[:-8]),
      "the checksum is not the standard FNV-1a 64 of the bytes before it")
L = Layout(good)
check(L.memory is not None, "a checkpoint with contact memory expected (a pile at rest at step 40)")
f64 = "<d"
i64 = "<q"
u64 = "<Q"
CASES = [
    # name, offset, format, value, what the message says
    # a step past the end with the time of that step (t0 + steps h): all else consistent
    ("step past the end", L.steps, i64, STEPS + 10, "within [0, 50]", [(L.time, f64, (STEPS + 10) * 4e-3)]),
    ("step far past the end", L.steps, i64, 999999999999999, "within [0, 50]",
     [(L.time, f64, 999999999999999 * 4e-3)]),
    ("negative step", L.steps, i64, -3, "a step count >= 0"),
    ("time NaN", L.time, f64, float("nan"), "a finite time"),
    ("time of another step", L.time, f64, 0.5, "the time t0 + steps h"),
    ("format 7", 8, "<I", 7, "format 7"),
    ("reserved field", 12, "<I", 1, "the reserved field"),
    ("fingerprint item", L.item_hash, u64, 12345, "fingerprint"),
    ("body count + 1", L.nb, u64, L.nb_value + 1, "corrupted"),
    ("body count 2^60", L.nb, u64, 1 << 60, "a count of"),
    ("body id out of range", L.last_body, i64, 10 ** 6, "bod"),
    ("negative body id", L.body, i64, -1, "body ids >= 0"),
    # the file holds masses, inertias and shapes only through each body's hash
    ("body hash (its mass, inertia or shapes)", L.body + 8, u64, 7, "a body's hash changed"),
    ("position NaN", L.last_body + 16, f64, float("nan"), "a finite position"),
    ("quaternion not unit", L.last_body + 16 + 24, f64, 2.0, "a unit quaternion"),
    ("velocity infinite", L.last_body + 16 + 56, f64, float("inf"), "a finite velocity"),
    ("memory count + 1", L.nm, u64, L.nm_value + 1, "corrupted"),
    ("memory unknown body", L.last_memory + 8, i64, 10 ** 6, "contacts between bodies of the checkpoint"),
    ("memory impulse NaN", L.memory + 24, f64, float("nan"), "finite impulses"),
    ("run record flag 2", L.run_flag, u64, 2, "run record flag"),
    ("output count + 1", L.outputs, u64, 2, "an output's columns"),
    ("output name", L.name + 8, "<5s", b"Tabla", "output 'Tabla'"),
    ("output columns 0", L.columns, u64, 0, "0 columns"),
    ("output columns + 1", L.columns, u64, L.columns_value + 1, "corrupted"),
    ("spooled rows past the step", L.spooled, u64, 10 ** 6, "rows"),
    ("rows count 2^61", L.rows, u64, 1 << 61, "a count of"),
    ("pending flag 5", L.pending, u64, 5, "pending row flag"),
    ("run values count", L.values, u64, 20, "corrupted"),
    ("steps done in the run record", L.values + 8, f64, 12.0, "steps done in the run record"),
    ("a run value NaN", L.values + 8 + 8 * 12, f64, float("nan"), "finite run values"),
    ("a negative count", L.values + 8 + 8 * 4, f64, -2.0, "run value 4"),
]
# every case on one process; a third of them, and those only rank 0 can check, under mpirun
for k, case in enumerate(CASES):
    name, at, fmt, value, says = case[:5]
    bad = with_field(good, at, fmt, value, case[5] if len(case) > 5 else ())
    path = os.path.join(WORK, "bad%02d.checkpoint" % k)
    with open(path, "wb") as f:
        f.write(bad)
    mpi = k % 6 == 0 or name.startswith(("output name", "steps done", "step past"))
    for ranks in ((0, 2) if mpi else (0,)):
        where = "%s (%s)" % (name, "mpirun -np %d" % ranks if ranks else "one process")
        outdir = os.path.join(WORK, "out%02d_%d" % (k, ranks))
        rc, out, err = run([xml, "--output", outdir, "--restart", path], ranks)
        lines = [l for l in err.splitlines() if l.startswith(("nsdyn run:", "nsdyn: error:"))]
        check(rc == 3, "%s: exit %d (3 expected): %s" % (where, rc, err[-300:]))
        check(len(lines) == 1, "%s: %d error lines (one expected): %s" % (where, len(lines), err[-400:]))
        check(path in err, "%s: the file is not named: %s" % (where, err[-300:]))
        check(says in err, "%s: the message does not say '%s': %s" % (where, says, err[-300:]))
        check(not os.path.exists(os.path.join(outdir, "Table.csv")), "%s: results written" % where)
        print("%-45s exit %d: %s" % (where, rc, lines[0][:160] if lines else err[-160:]))

# the checkpoint itself still restarts (the corruptions, not the file, were refused)
rc, out, err = run([xml, "--output", os.path.join(WORK, "good"), "--restart",
                    os.path.join(WORK, "cp", "Fields.checkpoint")], 2)
check(rc == 0, "the intact checkpoint: exit %d %s" % (rc, err[-300:]))
# the spool of the rows before the checkpoint cut short: refused, naming it
spool = os.path.join(WORK, "cp", ".Table.rows.part")
check(os.path.isfile(spool), "no spool file " + spool)
if os.path.isfile(spool):
    with open(spool, "r+b") as f:
        f.truncate(16)
    for ranks in (0, 2):
        rc, out, err = run([xml, "--output", os.path.join(WORK, "short%d" % ranks), "--restart",
                            os.path.join(WORK, "cp", "Fields.checkpoint")], ranks)
        check(rc == 3 and spool in err and err.count("nsdyn run:") == 1,
              "a short spool (%d ranks): exit %d: %s" % (ranks, rc, err[-300:]))
        print("short spool (%d ranks): exit %d: %s" % (ranks, rc, err.strip()[:200]))
print("%d cases, %d failure(s)" % (len(CASES), len(failures)))
sys.exit(1 if failures else 0)
