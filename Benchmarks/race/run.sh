#!/usr/bin/env bash
# run.sh: the race of issue 24 in one command: nsdyn, Bullet, ODE, MuJoCo and Siconos on the
# scenes of race_scenes.hpp, every budget swept, measured by one quality code (race_quality.cpp;
# Siconos through race_measure), one CSV (out/race.csv) and one work-precision plot per scene and
# size (out/race_<scene>_<bodies>.png).
#
#   Benchmarks/race/run.sh [--quick | --full]
#
# --quick: a smoke test in a few minutes (200-sphere piles, 4 x 4 x 4 boxes of bullet3000, a
#   4-layer pyramid, pyramid20 of base 6, 20-120 steps, three budgets);
# (no flag): every scene at 2,000 spheres; --full: every table and plot of doc/benchmarks.md's
#   race section: every scene, the sphere scenes at 2,000, 10,000 and 30,000 (hours: see there).
# Environment (defaults for the run without flag):
#   BUILD (build): the build folder (bin/race_*, bin/granular_scene);
#   SCENES (shallow,column,ratio,hopper,jolt_pyramid,bullet3000,pyramid20);
#   ENGINES (nsdyn,bullet,ode,mujoco,siconos);
#   COUNTS (2000; --full 2000,10000,30000; --quick 200): the sphere counts of the piles; the
#       column needs 4 x 50 at least (500 with --quick); SETTLE (500): the piles made by
#       granular_scene --export-state (store engine, NSGS 1e-3), kept in out/states and reused;
#   STEPS (the scene's: 100 for the piles, 600 = 10 s for the box scenes);
#   ITERS (5,10,20,50,100,200,500): the iterative peers' budgets; TOLS (1e-2,...,1e-6): nsdyn's;
#   NSDYN_SOLVERS (nsgs,apgd), MAXIT (1000): nsdyn's solvers and their iteration cap;
#   (the rows of TOLS and NSDYN_SWEEPS run with the overlap recovery off, --recovery off)
#   NSDYN_SWEEPS (5,10,20; --quick 5,20): nsdyn NSGS in budget mode as the scene examples run it
#       (fixed sweeps, tolerance 1e-4 tested every 10 sweeps), one row per sweep count;
#   NSDYN_RECOVERY_SWEEPS (5,10,20; --quick 5): the same with the overlap recovery on, its
#       pseudo-impulses to 1e-2 (as ColumnCollapse and HopperDischarge run it) in at most
#       NSDYN_RECOVERY_ITERATIONS sweeps (100, the library's default);
#   NSDYN_SPECULATIVE_SWEEPS (5): the same with speculative contacts on as well (landings
#       stopped at the surface: the box scenes' drops), rows "speculative contacts on";
#   NEWTON_MAX (600; 64 with --quick): MuJoCo Newton runs up to that many bodies (its
#       dense Hessian: a step grows like n^3);
#   MUJOCO (newton:elliptic cg:elliptic pgs:pyramidal pgs:elliptic): MuJoCo's solver:cone pairs;
#   SICONOS_ITERS (10,50), SICONOS_TOLS (1e-4): Siconos NSGS budgets (iterations, then
#       tolerances with MAXIT); SICONOS_CHECKS (on,off): as shipped, and with Debian's debug
#       graph checks stubbed (race_siconos_nocheck.so); SICONOS_MAX (2000; 3100 --full): the
#       largest scene Siconos runs (its steps take seconds at 2,000 spheres);
#   OUT (Benchmarks/race/out): the output folder (race.csv is rewritten).
# An engine whose driver was not built (its library missing: make bench-deps) is skipped.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MODE=normal
for a in "$@"; do
  case "$a" in
    --quick) MODE=quick ;;
    --full) MODE=full ;;
    *) sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
BUILD=${BUILD:-$ROOT/build}
BIN=$BUILD/bin
OUT=${OUT:-$HERE/out}
SCENES=${SCENES:-shallow,column,ratio,hopper,jolt_pyramid,bullet3000,pyramid20}
ENGINES=${ENGINES:-nsdyn,bullet,ode,mujoco,siconos}
NSDYN_SOLVERS=${NSDYN_SOLVERS:-nsgs,apgd}
MAXIT=${MAXIT:-1000}
MUJOCO=${MUJOCO:-newton:elliptic cg:elliptic pgs:pyramidal pgs:elliptic}
SICONOS_CHECKS=${SICONOS_CHECKS:-on,off}
SICONOS_ITERS=${SICONOS_ITERS:-10,50}
SICONOS_TOLS=${SICONOS_TOLS:-1e-4}
NSDYN_RECOVERY_ITERATIONS=${NSDYN_RECOVERY_ITERATIONS:-100}
if [ "$MODE" = quick ]; then
  COUNTS=${COUNTS:-200}; COLUMN_MIN=500; SETTLE=${SETTLE:-200}
  ITERS=${ITERS:-5,20,100}; TOLS=${TOLS:-1e-2,1e-4}; NSDYN_SWEEPS=${NSDYN_SWEEPS-5,20}
  NSDYN_RECOVERY_SWEEPS=${NSDYN_RECOVERY_SWEEPS-5}; NSDYN_SPECULATIVE_SWEEPS=${NSDYN_SPECULATIVE_SWEEPS-5}
  QFLAG=--quick; NEWTON_MAX=${NEWTON_MAX:-64}; SICONOS_MAX=${SICONOS_MAX:-600}
else
  [ "$MODE" = full ] && COUNTS=${COUNTS:-2000,10000,30000}
  COUNTS=${COUNTS:-2000}; COLUMN_MIN=200; SETTLE=${SETTLE:-500}
  ITERS=${ITERS:-5,10,20,50,100,200,500}; TOLS=${TOLS:-1e-2,1e-3,1e-4,1e-5,1e-6}
  NSDYN_SWEEPS=${NSDYN_SWEEPS-5,10,20}; NSDYN_RECOVERY_SWEEPS=${NSDYN_RECOVERY_SWEEPS-5,10,20}
  NSDYN_SPECULATIVE_SWEEPS=${NSDYN_SPECULATIVE_SWEEPS-5}
  QFLAG=; NEWTON_MAX=${NEWTON_MAX:-600}
  SICONOS_MAX=${SICONOS_MAX:-$([ "$MODE" = full ] && echo 3100 || echo 2000)}
fi
STEPS_FLAG=()
[ -n "${STEPS:-}" ] && STEPS_FLAG=(--steps "$STEPS")

mkdir -p "$OUT/states" "$OUT/series"
# a private copy of the programs: a rebuild of the tree during the run cannot swap them
SNAP=$(mktemp -d)
trap 'rm -rf "$SNAP"' EXIT
for exe in race_nsdyn race_bullet race_ode race_mujoco race_measure race_siconos_nocheck.so granular_scene; do
  [ -e "$BIN/$exe" ] && cp "$BIN/$exe" "$SNAP/"
done
BIN=$SNAP
CSV=$OUT/race.csv
rm -f "$CSV.part"
echo "race ($MODE): $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), scenes $SCENES, engines $ENGINES" >&2
START=$(date +%s)

has() { case ",$1," in *",$2,"*) return 0 ;; *) return 1 ;; esac; }

# one run of every engine on one scene; $1: the scene, $2: its state file (or empty), $3: bodies
race_scene() {
  local scene=$1 st=$2 n=$3 STATE=()
  [ -n "$st" ] && STATE=(--state "$st")
  local common=(--scene "$scene" "${STATE[@]}" $QFLAG "${STEPS_FLAG[@]}" --csv "$CSV.part" --series-dir "$OUT/series")
  echo "== $scene ($n bodies), $(( $(date +%s) - START )) s into the race" >&2
  if has "$ENGINES" nsdyn; then
    for s in ${NSDYN_SOLVERS//,/ }; do
      "$BIN/race_nsdyn" "${common[@]}" --solver "$s" --budgets "$TOLS" --max-iterations "$MAXIT" \
        --recovery off
    done
    if [ -n "$NSDYN_SWEEPS" ]; then
      "$BIN/race_nsdyn" "${common[@]}" --solver nsgs --mode budget --tolerance 1e-4 \
        --check-every 10 --budgets "$NSDYN_SWEEPS" --recovery off
    fi
    if [ -n "$NSDYN_RECOVERY_SWEEPS" ]; then
      "$BIN/race_nsdyn" "${common[@]}" --solver nsgs --mode budget --tolerance 1e-4 \
        --check-every 10 --budgets "$NSDYN_RECOVERY_SWEEPS" --recovery on --recovery-tolerance 1e-2 \
        --recovery-iterations "$NSDYN_RECOVERY_ITERATIONS"
    fi
    if [ -n "$NSDYN_SPECULATIVE_SWEEPS" ]; then
      "$BIN/race_nsdyn" "${common[@]}" --solver nsgs --mode budget --tolerance 1e-4 \
        --check-every 10 --budgets "$NSDYN_SPECULATIVE_SWEEPS" --recovery on --recovery-tolerance 1e-2 \
        --recovery-iterations "$NSDYN_RECOVERY_ITERATIONS" --speculative on
    fi
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
  if has "$ENGINES" siconos; then
    if ! /usr/bin/python3 -c 'import siconos.mechanics.collision.bullet' 2>/dev/null; then
      echo "race: Siconos not found (python3-siconos: make bench-deps), skipped" >&2
    elif [ "$n" -gt "$SICONOS_MAX" ]; then
      echo "race: siconos skipped on $scene: $n bodies > SICONOS_MAX $SICONOS_MAX" >&2
    else
      for chk in ${SICONOS_CHECKS//,/ }; do
        local nc=()
        [ "$chk" = off ] && nc=(--nocheck)
        /usr/bin/python3 "$HERE/race_siconos.py" "${common[@]}" --bin "$BIN" "${nc[@]}" --budgets "$SICONOS_ITERS"
        [ -n "$SICONOS_TOLS" ] && /usr/bin/python3 "$HERE/race_siconos.py" "${common[@]}" --bin "$BIN" "${nc[@]}" \
          --mode tolerance --max-iterations "$MAXIT" --budgets "$SICONOS_TOLS"
      done
    fi
  fi
}

for scene in ${SCENES//,/ }; do
  case "$scene" in
    shallow|column|ratio|hopper)
      for n in ${COUNTS//,/ }; do
        [ "$scene" = column ] && [ "$n" -lt "$COLUMN_MIN" ] && n=$COLUMN_MIN
        st=$OUT/states/${scene}_${n}_${SETTLE}.txt
        if [ ! -f "$st" ]; then
          [ -x "$BIN/granular_scene" ] || { echo "race: granular_scene missing (cmake --build \$BUILD --target granular_scene)" >&2; exit 1; }
          echo "== $scene: settling $n spheres over $SETTLE steps (granular_scene, store engine)" >&2
          "$BIN/granular_scene" --scene "$scene" --count "$n" --settle "$SETTLE" --steps 1 --solvers nsgs --threads 1 \
            --engine store --export-state "$st.part" --csv "$OUT/states/settle.csv" >/dev/null
          mv "$st.part" "$st"
        fi
        race_scene "$scene" "$st" "$n"
      done ;;
    *)
      n=$("$BIN/race_measure" --scene "$scene" $QFLAG --dump-scene "$SNAP/scene.txt" && grep -c '^body' "$SNAP/scene.txt")
      race_scene "$scene" "" "$n" ;;
  esac
done
mv "$CSV.part" "$CSV"
echo "race: wrote $CSV in $(( $(date +%s) - START )) s (load average now $(cut -d' ' -f1-3 /proc/loadavg))" >&2
python3 "$HERE/plot_race.py" "$CSV" "$OUT"
