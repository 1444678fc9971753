#!/usr/bin/env bash
# The MPI benchmark (doc/benchmarks.md "Over MPI ranks"): the same model file run four ways
# on this machine, K steps each, and compared side by side:
#   proc-1t     nsdyn run             (one process, the scene engine, 1 OpenMP thread)
#   proc-2t     nsdyn run             (one process, 2 OpenMP threads)
#   mpi-1       mpirun -np 1 nsdyn run (the same run loop over MpiSceneExchange on one rank, 1 thread)
#   mpi-2       mpirun -np 2 nsdyn run (two ranks, 1 thread each)
#   mpi-3       mpirun -np 3 nsdyn run (three ranks on the 2 cores: colours and iterations only)
# Usage: Benchmarks/mpi/run_mpi_bench.sh [BUILD_DIR] ; N=40 LAYERS=20 STEPS=20 SOLVER=apgd|nsgs
#   CONFIGS="proc-1t proc-2t mpi-1 mpi-2" (the default; mpi-3 on demand), LOGS=DIR keeps the
#   run logs (per-step phases of the slowest rank, iterations)
# Appends to doc/bench/mpi_engine.csv (doc/bench/mpi.csv: the rows of DistributedScene, removed) and prints the table (time per step, ratios to proc-1t and
# to mpi-1, the largest solver error, bytes sent per step).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
nsdyn=$build/bin/nsdyn
N=${N:-40}
LAYERS=${LAYERS:-20}
STEPS=${STEPS:-20}
SOLVER=${SOLVER:-apgd}
out=${OUT:-$root/doc/bench/mpi_engine.csv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x "$nsdyn" ] || { echo "run_mpi_bench: $nsdyn not built (cmake --build $build --target nsdyn)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "run_mpi_bench: mpirun not found (scripts/install-deps.sh)" >&2; exit 2; }
sed -e "s/name=\"n\" value=\"[0-9]*\"/name=\"n\" value=\"$N\"/" \
    -e "s/name=\"layers\" value=\"[0-9]*\"/name=\"layers\" value=\"$LAYERS\"/" \
    -e "s/name=\"steps\" value=\"[0-9]*\"/name=\"steps\" value=\"$STEPS\"/" \
    -e "s/solver=\"apgd\"/solver=\"$SOLVER\"/" "$here/pile.xml" > "$work/pile.xml"
mpirun_flags=()
if mpirun --version 2>&1 | grep -q "Open MPI"; then mpirun_flags=(--allow-run-as-root --oversubscribe --bind-to none); fi

declare -A cmd
cmd[proc-1t]="env OMP_NUM_THREADS=1 $nsdyn run $work/pile.xml --quiet --no-plot --output $work/k1"
cmd[proc-2t]="env OMP_NUM_THREADS=2 $nsdyn run $work/pile.xml --quiet --no-plot --output $work/k2"
cmd[mpi-1]="env OMP_NUM_THREADS=1 mpirun ${mpirun_flags[*]} -np 1 $nsdyn run $work/pile.xml --quiet --no-plot --output $work/m1"
cmd[mpi-2]="env OMP_NUM_THREADS=1 mpirun ${mpirun_flags[*]} -np 2 $nsdyn run $work/pile.xml --quiet --no-plot --output $work/m2"
cmd[mpi-3]="env OMP_NUM_THREADS=1 mpirun ${mpirun_flags[*]} -np 3 $nsdyn run $work/pile.xml --quiet --no-plot --output $work/m3"
CONFIGS=${CONFIGS:-proc-1t proc-2t mpi-1 mpi-2}
[ -f "$out" ] || echo "date,config,spheres,contacts,steps,solver,ms_per_step,detect_ms,assemble_ms,solve_ms,update_ms,step_ms,kB_per_step,iterations,max_error" > "$out"
printf "%-10s %9s %10s %9s %9s %11s %8s %8s %10s\n" config contacts ms/step "/proc-1t" "/mpi-1" "kB/step" "it/step" "ms/it" max_err
declare -A ms
for c in $CONFIGS; do
  log=$work/$c.log
  ${cmd[$c]} > "$log" 2>&1 || { echo "run_mpi_bench: $c failed:" >&2; tail -5 "$log" >&2; exit 1; }
  [ -n "${LOGS:-}" ] && mkdir -p "$LOGS" && cp "$log" "$LOGS/"
  wall=$(grep -m1 "wall time:" "$log" | awk '{print $3}')
  if grep -q "contacts at most" "$log"; then
    contacts=$(grep -m1 "contacts at most" "$log" | grep -oE "contacts at most [0-9]+" | grep -oE "[0-9]+")
  else
    contacts=$(grep -m1 -E "^  contacts: " "$log" | grep -oE "at most [0-9]+" | grep -oE "[0-9]+")
  fi
  iters=$(grep -m1 -E "solver iterations:|iterations in all" "$log" | grep -oE "[0-9]+ (total|iterations)" | grep -oE "[0-9]+")
  err=$(grep -m1 -E "max solver residual|max error" "$log" | grep -oE "[0-9.e+-]+$")
  phases=",,,,"; kb=0
  if grep -q "per step (slowest rank)" "$log"; then
    phases=$(grep -m1 "per step (slowest rank)" "$log" | grep -oE "[0-9.e+-]+ ms" | head -5 | awk '{printf "%s%s", (NR>1?",":""), $1}')
    kb=$(grep -m1 "kB sent per step" "$log" | grep -oE "[0-9.]+ kB" | grep -oE "[0-9.]+" || echo 0)
  fi
  ms[$c]=$(awk -v w="$wall" -v s="$STEPS" 'BEGIN{printf "%.2f", 1000*w/s}')
  echo "$(date -u +%F),$c,$((N*N*LAYERS)),$contacts,$STEPS,$SOLVER,${ms[$c]},$phases,$kb,$iters,$err" >> "$out"
  r1=-; [ -n "${ms[proc-1t]:-}" ] && r1=$(awk -v a="${ms[$c]}" -v b="${ms[proc-1t]}" 'BEGIN{printf "%.2f", a/b}')
  r2=-; [ -n "${ms[mpi-1]:-}" ] && r2=$(awk -v a="${ms[$c]}" -v b="${ms[mpi-1]}" 'BEGIN{printf "%.2f", a/b}')
  itps=$(awk -v i="$iters" -v s="$STEPS" 'BEGIN{printf "%.1f", i/s}')
  msit=$(awk -v m="${ms[$c]}" -v i="$iters" -v s="$STEPS" 'BEGIN{printf "%.3f", m*s/i}')
  printf "%-10s %9s %10s %9s %9s %11s %8s %8s %10s\n" "$c" "$contacts" "${ms[$c]}" "$r1" "$r2" "$kb" "$itps" "$msit" "$err"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${ms[mpi-1]:-}" ] && [ -n "${ms[mpi-2]:-}" ] && [ -n "${ms[proc-1t]:-}" ]; then
  echo "speed-up of 2 ranks over 1 rank: $(awk -v a="${ms[mpi-1]}" -v b="${ms[mpi-2]}" 'BEGIN{printf "%.2f", a/b}')x; over one process with 1 thread: $(awk -v a="${ms[proc-1t]}" -v b="${ms[mpi-2]}" 'BEGIN{printf "%.2f", a/b}')x (rows appended to $out)"
fi
