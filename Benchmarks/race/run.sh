#!/usr/bin/env bash
# run.sh: the race of issue 24 in one command: nsdyn, Bullet, ODE and MuJoCo on the scenes of
# race_scenes.hpp, every budget swept, measured by one quality code (race_quality.cpp), one
# CSV (out/race.csv) and one work-precision plot per scene (out/race_<scene>.png).
#
#   Benchmarks/race/run.sh [--quick]
#
# --quick: a smoke test in about a minute (200-sphere piles, 4 x 4 x 4 boxes of bullet3000,
# a 4-layer pyramid, 20-120 steps, three budgets). Environment (defaults for the full run):
#   BUILD (build): the build folder (bin/race_*, bin/granular_scene);
#   SCENES (shallow,column,jolt_pyramid,bullet3000); ENGINES (nsdyn,bullet,ode,mujoco);
#   COUNT (2000), COLUMN_COUNT (COUNT; 500 with --quick: the column's lattice needs 4 x 50),
#       SETTLE (500): the sphere piles made by granular_scene --export-state (store engine,
#       NSGS 1e-3), kept in out/states and reused;
#   STEPS (the scene's: 100 for the piles, 600 = 10 s for the box scenes);
#   ITERS (5,10,20,50,100,200,500): the iterative peers' budgets; TOLS (1e-2,...,1e-6): nsdyn's;
#   NSDYN_SOLVERS (nsgs,apgd), MAXIT (1000): nsdyn's solvers and their iteration cap;
#   NEWTON_MAX (600; 64 with --quick): MuJoCo Newton runs up to that many bodies (its
#       dense Hessian: a step grows like n^3);
#   MUJOCO (newton:elliptic cg:elliptic pgs:pyramidal pgs:elliptic): MuJoCo's solver:cone pairs;
#   OUT (Benchmarks/race/out): the output folder (race.csv is rewritten).
# An engine whose driver was not built (its library missing: make bench-deps) is skipped.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
QUICK=0
for a in "$@"; do
  case "$a" in
    --quick) QUICK=1 ;;
    *) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
BUILD=${BUILD:-$ROOT/build}
BIN=$BUILD/bin
OUT=${OUT:-$HERE/out}
SCENES=${SCENES:-shallow,column,jolt_pyramid,bullet3000}
ENGINES=${ENGINES:-nsdyn,bullet,ode,mujoco}
NSDYN_SOLVERS=${NSDYN_SOLVERS:-nsgs,apgd}
MAXIT=${MAXIT:-1000}
MUJOCO=${MUJOCO:-newton:elliptic cg:elliptic pgs:pyramidal pgs:elliptic}
if [ "$QUICK" = 1 ]; then
  COUNT=${COUNT:-200}; COLUMN_COUNT=${COLUMN_COUNT:-500}; SETTLE=${SETTLE:-200}
  ITERS=${ITERS:-5,20,100}; TOLS=${TOLS:-1e-2,1e-4}
  QFLAG=--quick; NEWTON_MAX=${NEWTON_MAX:-64}
else
  COUNT=${COUNT:-2000}; COLUMN_COUNT=${COLUMN_COUNT:-$COUNT}; SETTLE=${SETTLE:-500}
  ITERS=${ITERS:-5,10,20,50,100,200,500}; TOLS=${TOLS:-1e-2,1e-3,1e-4,1e-5,1e-6}
  QFLAG=; NEWTON_MAX=${NEWTON_MAX:-600}
fi
STEPS_FLAG=()
[ -n "${STEPS:-}" ] && STEPS_FLAG=(--steps "$STEPS")

mkdir -p "$OUT/states" "$OUT/series"
# a private copy of the programs: a rebuild of the tree during the run cannot swap them
SNAP=$(mktemp -d)
trap 'rm -rf "$SNAP"' EXIT
for exe in race_nsdyn race_bullet race_ode race_mujoco granular_scene; do
  [ -x "$BIN/$exe" ] && cp "$BIN/$exe" "$SNAP/"
done
BIN=$SNAP
CSV=$OUT/race.csv
rm -f "$CSV.part"
echo "race: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), scenes $SCENES, engines $ENGINES" >&2

has() { case ",$1," in *",$2,"*) return 0 ;; *) return 1 ;; esac; }

for scene in ${SCENES//,/ }; do
  STATE=()
  if [ "$scene" = shallow ] || [ "$scene" = column ]; then
    n=$COUNT
    [ "$scene" = column ] && n=$COLUMN_COUNT
    st=$OUT/states/${scene}_${n}_${SETTLE}.txt
    if [ ! -f "$st" ]; then
      [ -x "$BIN/granular_scene" ] || { echo "race: $BIN/granular_scene missing (cmake --build \$BUILD --target granular_scene)" >&2; exit 1; }
      echo "== $scene: settling $n spheres over $SETTLE steps (granular_scene, store engine)" >&2
      "$BIN/granular_scene" --scene "$scene" --count "$n" --settle "$SETTLE" --steps 1 --solvers nsgs --threads 1 \
        --engine store --export-state "$st.part" --csv "$OUT/states/settle.csv" >/dev/null
      mv "$st.part" "$st"
    fi
    STATE=(--state "$st")
  fi
  common=(--scene "$scene" "${STATE[@]}" $QFLAG "${STEPS_FLAG[@]}" --csv "$CSV.part" --series-dir "$OUT/series")
  if has "$ENGINES" nsdyn; then
    for s in ${NSDYN_SOLVERS//,/ }; do
      "$BIN/race_nsdyn" "${common[@]}" --solver "$s" --budgets "$TOLS" --max-iterations "$MAXIT"
    done
  fi
  for peer in bullet ode; do
    has "$ENGINES" $peer || continue
    if [ -x "$BIN/race_$peer" ]; then "$BIN/race_$peer" "${common[@]}" --budgets "$ITERS"
    else echo "race: race_$peer not built ($peer not found: make bench-deps), skipped" >&2; fi
  done
  if has "$ENGINES" mujoco; then
    if [ -x "$BIN/race_mujoco" ]; then
      for sc in $MUJOCO; do
        "$BIN/race_mujoco" "${common[@]}" --solver "${sc%%:*}" --cone "${sc##*:}" --max-bodies-newton "$NEWTON_MAX" --budgets "$ITERS"
      done
    else echo "race: race_mujoco not built (libmujoco-dev not found: make bench-deps), skipped" >&2; fi
  fi
done
mv "$CSV.part" "$CSV"
echo "race: wrote $CSV (load average now $(cut -d' ' -f1-3 /proc/loadavg))" >&2
python3 "$HERE/plot_race.py" "$CSV" "$OUT"
