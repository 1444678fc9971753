#!/usr/bin/env bash
# run_peers.sh: nsdyn and its peers (Bullet, ODE) on the same settled granular scene, one
# thread each (issue "Performance at scale", peers on the same scene).
#
#   Benchmarks/peers/run_peers.sh STATE K
#
# STATE: a state file of `granular_scene --export-state`; K: steps to run from it.
# granular_scene cannot load a state: it rebuilds the scene (deterministic, seed 7) and
# settles it again; its --export-state of that run is compared with STATE (byte for byte),
# so the nsdyn rows are known to start from the same state as the peers. When STATE does
# not exist it is made by that run. Environment (defaults):
#   SCENE (shallow), SETTLE (500): the granular_scene settle; COUNT: the number of spheres
#       (default: the lines of STATE; needed when STATE does not exist);
#   SOLVERS (nsgs,apgd), TOL (1e-4), MAXIT (10000): nsdyn's solvers;
#   BULLET_ITERS (10 50), ODE_ITERS (20): the iterative peers;
#   DIRECT_MAX (400): the dense direct peers (Bullet MLCP Dantzig, ODE dWorldStep) run only
#       up to that many spheres;
#   OUT (doc/bench/peers.csv): the combined CSV, rows appended (header written once);
#   BUILD (build): the build folder (bin/granular_scene, bin/bullet_scene, bin/ode_scene);
#   NSDYN_CSV: reuse the CSV of the granular_scene run that wrote STATE (same --steps K)
#       instead of settling and solving again (that run's rows start from STATE by construction).
set -euo pipefail

if [ $# -ne 2 ]; then
  sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
STATE=$1
K=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
BIN=$BUILD/bin
SCENE=${SCENE:-shallow}
SETTLE=${SETTLE:-500}
SOLVERS=${SOLVERS:-nsgs,apgd}
TOL=${TOL:-1e-4}
MAXIT=${MAXIT:-10000}
BULLET_ITERS=${BULLET_ITERS:-10 50}
ODE_ITERS=${ODE_ITERS:-20}
DIRECT_MAX=${DIRECT_MAX:-400}
OUT=${OUT:-$ROOT/doc/bench/peers.csv}

for exe in granular_scene bullet_scene ode_scene; do
  if [ ! -x "$BIN/$exe" ]; then
    echo "run_peers.sh: $BIN/$exe missing (make bench-deps; cmake --build $BUILD --target $exe)" >&2
    exit 1
  fi
done

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [ -f "$STATE" ]; then
  SCENE=$(head -1 "$STATE" | awk '{for (i = 1; i < NF; ++i) if ($i == "scene") print $(i + 1)}')
  COUNT=${COUNT:-$(grep -vc '^#' "$STATE")}
else
  : "${COUNT:?run_peers.sh: $STATE does not exist: set COUNT (and SCENE, SETTLE) to make it}"
fi

SAME=1
if [ -n "${NSDYN_CSV:-}" ]; then
  [ -f "$STATE" ] || { echo "run_peers.sh: NSDYN_CSV needs an existing STATE" >&2; exit 1; }
  echo "== nsdyn: rows of $NSDYN_CSV (the run that wrote $STATE)"
  cp "$NSDYN_CSV" "$WORK/nsdyn.csv"
else
echo "== nsdyn granular_scene: $SCENE, $COUNT spheres, settle $SETTLE, $K steps, $SOLVERS, tol $TOL, 1 thread"
"$BIN/granular_scene" --scene "$SCENE" --count "$COUNT" --settle "$SETTLE" --steps "$K" --solvers "$SOLVERS" \
  --threads 1 --tolerances "$TOL" --max-iterations "$MAXIT" --export-state "$WORK/state.txt" --csv "$WORK/nsdyn.csv"
if [ -f "$STATE" ]; then
  if ! cmp -s "$STATE" "$WORK/state.txt"; then
    SAME=0
    echo "run_peers.sh: WARNING: granular_scene's settled state differs from $STATE: the nsdyn rows do not start" \
         "from the peers' state (another SCENE/SETTLE, or the Kernel changed)" >&2
  fi
else
  mkdir -p "$(dirname "$STATE")"
  cp "$WORK/state.txt" "$STATE"
  echo "run_peers.sh: state written to $STATE"
fi
fi

echo "== peers on $STATE"
for it in $BULLET_ITERS; do
  "$BIN/bullet_scene" --state "$STATE" --steps "$K" --solver si --iterations "$it" --csv "$WORK/peers.csv"
done
"$BIN/bullet_scene" --state "$STATE" --steps "$K" --solver mlcp --iterations 10 --max-bodies "$DIRECT_MAX" \
  --csv "$WORK/peers.csv"
for it in $ODE_ITERS; do
  "$BIN/ode_scene" --state "$STATE" --steps "$K" --solver quick --iterations "$it" --csv "$WORK/peers.csv"
done
"$BIN/ode_scene" --state "$STATE" --steps "$K" --solver dantzig --max-bodies "$DIRECT_MAX" --csv "$WORK/peers.csv"

python3 - "$STATE" "$WORK/nsdyn.csv" "$WORK/peers.csv" "$OUT" "$SAME" "$TOL" <<'PY'
import csv, math, os, sys
from collections import defaultdict

state, nsdyn_csv, peers_csv, out, same, tol = sys.argv[1:7]

# the start state's own measures (the same definitions as peer_common.hpp)
box = None
spheres = []
with open(state) as f:
    head = f.readline().split()
    if "box" in head:
        b = head[head.index("box") + 1:]
        if b[0] != "none":
            box = [float(x) for x in b[:6]]
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        v = [float(x) for x in line.split()]
        spheres.append(v)
rmax = max(s[13] for s in spheres)
cell = 2 * rmax
grid = defaultdict(list)
keys = []
for i, s in enumerate(spheres):
    k = tuple(int(math.floor(s[d] / cell)) for d in range(3))
    keys.append(k)
    grid[k].append(i)
pen, touching = 0.0, 0
planes = []
if box:
    planes = [((0, 0, 1), box[2]), ((1, 0, 0), box[0]), ((-1, 0, 0), -box[3]), ((0, 1, 0), box[1]), ((0, -1, 0), -box[4])]
for i, s in enumerate(spheres):
    for n, d in planes:
        o = s[13] - (n[0] * s[0] + n[1] * s[1] + n[2] * s[2] - d)
        if o > 0:
            touching += 1
            pen = max(pen, o)
    ki = keys[i]
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dz in (-1, 0, 1):
                for j in grid.get((ki[0] + dx, ki[1] + dy, ki[2] + dz), ()):
                    if j <= i:
                        continue
                    t = spheres[j]
                    o = s[13] + t[13] - math.dist(s[:3], t[:3])
                    if o > 0:
                        touching += 1
                        pen = max(pen, o)
ke = sum(0.5 * s[14] * (s[7] ** 2 + s[8] ** 2 + s[9] ** 2) + 0.5 * 0.4 * s[14] * s[13] ** 2 * (s[10] ** 2 + s[11] ** 2 + s[12] ** 2)
         for s in spheres)
pile = max(s[2] + s[13] for s in spheres) - (box[2] if box else 0.0)
scene = head[head.index("scene") + 1]
n = len(spheres)

rows = []
rows.append(dict(engine="state", solver="start", iterations="", bodies=n, steps=0, ms_step="", contacts_mean="",
                 touching_mean=touching, max_penetration="%.3e" % pen, penetration_end="%.3e" % pen, kinetic_end="%.6e" % ke, pile_height="%.5f" % pile,
                 failed_steps="", note="the settled state itself"))
with open(nsdyn_csv) as f:
    for r in csv.DictReader(f):
        rows.append(dict(engine="nsdyn", solver=r["solver"], iterations=r["iterations_mean"], bodies=r["bodies"],
                         steps=r["steps"], ms_step=r["ms_step"], contacts_mean=r["contacts_mean"], touching_mean="",
                         max_penetration=r["max_penetration"], penetration_end="", kinetic_end=r["kinetic_end"], pile_height="",
                         failed_steps=r["failed_steps"],
                         note="tol %s; siconos err max %s; active %s; solve %s ms%s" % (
                             r["tolerance"], r["siconos_error_max"], r["active_mean"], r["ms_solve"],
                             "" if same == "1" else "; STATE MISMATCH")))
with open(peers_csv) as f:
    for r in csv.DictReader(f):
        rows.append(r)

ref = {r["solver"]: float(r["ms_step"]) for r in rows if r["engine"] == "nsdyn" and r["ms_step"]}
fields = ["scene", "engine", "solver", "iterations", "bodies", "steps", "ms_step", "ratio_vs_apgd", "ratio_vs_nsgs",
          "contacts_mean", "touching_mean", "max_penetration", "penetration_end", "kinetic_end", "pile_height", "failed_steps", "note"]
for r in rows:
    r["scene"] = scene
    for s in ("apgd", "nsgs"):
        r["ratio_vs_" + s] = ("%.3f" % (float(r["ms_step"]) / ref[s])) if r["ms_step"] and s in ref else ""
fresh = not os.path.exists(out) or os.path.getsize(out) == 0
os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
with open(out, "a", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
    if fresh:
        w.writeheader()
    for r in rows:
        w.writerow(r)

print()
print("%-6s %-13s %6s %6s %6s %10s %8s %8s %9s %9s %10s %10s %11s %8s %6s" % (
    "engine", "solver", "iter", "bodies", "steps", "ms/step", "/apgd", "/nsgs", "contacts", "touching", "max pen m",
    "pen end m", "KE end J", "pile m", "failed"))
for r in rows:
    print("%-6s %-13s %6s %6s %6s %10s %8s %8s %9s %9s %10s %10s %11s %8s %6s" % (
        r["engine"], r["solver"], r["iterations"], r["bodies"], r["steps"], r["ms_step"], r["ratio_vs_apgd"],
        r["ratio_vs_nsgs"], r["contacts_mean"], r["touching_mean"], r["max_penetration"], r["penetration_end"], r["kinetic_end"],
        r["pile_height"], r["failed_steps"]))
print("\n(ratios: ms/step over nsdyn's; nsdyn: contacts = detected, max penetration = largest -gap of its contacts; "
      "peers: contacts = the engine's contact points; touching (pairs overlapping, mean over steps), max penetration "
      "(over the positions after each step, the start excluded) and pen end (after the last) from positions)")
print("combined CSV: %s" % out)
PY
