#!/usr/bin/env bash
# Full-size granular scene examples: time per step and share of contact detection
# of ColumnCollapse (10,000 spheres) and HopperDischarge (20,000 spheres), over a
# given simulated time (default 0.2 s = 200 steps of h = 1 ms: the start of the
# collapse and of the filling, not the whole runs, which take hours). Not run by ctest.
#
# usage: Benchmarks/run_granular_examples.sh [BUILD_DIR] [TIME]   (from the repository root;
#                                                                  BUILD_DIR default: build,
#                                                                  TIME default: 0.2 s)
# Environment: OMP_NUM_THREADS as usual (unset: the OpenMP default; on a machine with
# other loads, 1 avoids spinning threads).
# Writes:
#   doc/bench/granular_examples.csv    example,count,steps,ms_per_step,detection_pct,solver_pct,max_contacts
#   BUILD_DIR/granular_bench/<Example>/  the examples' outputs (CSV, VTK, HDF5) and logs
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
time=${2:-0.2}
out=$root/doc/bench
csv=$out/granular_examples.csv

for exe in ColumnCollapse HopperDischarge; do
  if [[ ! -x $build/bin/$exe ]]; then
    echo "run_granular_examples: $build/bin/$exe not found; build first (cmake --build $build)" >&2
    exit 1
  fi
done
mkdir -p "$out"
echo "example,count,steps,ms_per_step,detection_pct,solver_pct,max_contacts" > "$csv"

run() {  # name count
  local name=$1 count=$2 dir=$build/granular_bench/$1
  mkdir -p "$dir"
  echo "run_granular_examples: $name --count $count --time $time" >&2
  "$build/bin/$name" --count "$count" --time "$time" --no-plot --quiet --output "$dir" > "$dir/run.log" 2>&1 || {
    echo "run_granular_examples: $name failed (exit $?), see $dir/run.log" >&2
  }
  # summary lines of finishScene:
  #   NAME: B bodies (S static), N steps of h = H with SOLVER
  #   contacts:  at most C, last step L
  #   time:      W s (M ms/step; detection D%, solver S%)
  local steps maxc ms det sol
  steps=$(sed -n "s/^$name: .*, \([0-9]*\) steps of h.*/\1/p" "$dir/run.log")
  maxc=$(sed -n 's/^ *contacts: *at most \([0-9]*\),.*/\1/p' "$dir/run.log")
  ms=$(sed -n 's/^ *time: .*(\([0-9.e+-]*\) ms\/step.*/\1/p' "$dir/run.log")
  det=$(sed -n 's/^ *time: .*detection \([0-9]*\)%.*/\1/p' "$dir/run.log")
  sol=$(sed -n 's/^ *time: .*solver \([0-9]*\)%.*/\1/p' "$dir/run.log")
  echo "$name,$count,${steps:-},${ms:-},${det:-},${sol:-},${maxc:-}" >> "$csv"
}

run ColumnCollapse 10000
run HopperDischarge 20000
echo "run_granular_examples: wrote $csv" >&2
cat "$csv"
