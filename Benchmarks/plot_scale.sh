#!/usr/bin/env bash
# Scale pictures of the granular benchmark: time per step against the number of
# contacts (log-log, one line per solver and thread count, the peers' points beside
# them), the phase breakdown of a step per solver at the largest size, the residual
# against the iteration inside one step, and the peak memory against the contacts.
#
# usage: Benchmarks/plot_scale.sh [BUILD_DIR [OUT_DIR]]
#   BUILD_DIR  default build (needs bin/granular_scene; bin/fc_history for the residuals)
#   OUT_DIR    default doc/bench/scale
# Environment (defaults in brackets):
#   SCENE [column]   granular_scene --scene
#   COUNTS ["2000 8000 16000"]  sphere counts, one size each
#   SETTLE [200]     settling steps (once per size; the state is exported and every run
#                    starts from it: --export-state / --load-state)
#   STEPS [20]       measured steps per run
#   SOLVERS [apgd,nsgs]  THREADS [1,2]  TOL [1e-4]  MAX_ITER [10000]
#   EXTRA []         more granular_scene options (e.g. "--swept --stabilisation 0.2")
#   PEERS [doc/bench/peers.csv]  peer rows drawn as points (engine != nsdyn/state)
#   RUN [1]          0: only draw from the CSVs already in OUT_DIR
# Every run is its own process, so peak_rss_mb is that run's. Writes
#   OUT_DIR/scale-SCENE-N.csv     granular_scene rows, one file per size
#   OUT_DIR/scale.csv             all rows
#   OUT_DIR/history-SCENE-N.csv   fc_history on the problem of the first measured step
#                                 at the largest size (dumped by granular_scene --dump-step)
#   OUT_DIR/scale.png             the four panels
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
out=${2:-$root/doc/bench/scale}
case $out in /*) ;; *) out=$PWD/$out ;; esac
scene=${SCENE:-column}
counts=${COUNTS:-"2000 8000 16000"}
settle=${SETTLE:-200}
steps=${STEPS:-20}
solvers=${SOLVERS:-apgd,nsgs}
threads=${THREADS:-1,2}
tol=${TOL:-1e-4}
maxit=${MAX_ITER:-10000}
extra=${EXTRA:-}
peers=${PEERS:-$root/doc/bench/peers.csv}
run=${RUN:-1}

command -v gnuplot > /dev/null || { echo "plot_scale: gnuplot not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
mkdir -p "$out"
largest=$(printf '%s\n' $counts | sort -n | tail -1)

if [[ $run != 0 ]]; then
  [[ -x $build/bin/granular_scene ]] || { echo "plot_scale: $build/bin/granular_scene not found; build it first" >&2; exit 2; }
  for n in $counts; do
    state=$out/state-$scene-$n.txt
    csv=$out/scale-$scene-$n.csv
    echo "plot_scale: $scene, $n spheres: settling $settle steps" >&2
    # shellcheck disable=SC2086
    "$build/bin/granular_scene" --scene "$scene" --count "$n" --settle "$settle" --steps 1 --solvers nsgs \
      --threads 1 --tolerances 1e-3 --export-state "$state" --csv "$out/settle-$scene-$n.csv" $extra > /dev/null
    rm -f "$csv"
    IFS=, read -r -a solver_list <<< "$solvers"
    IFS=, read -r -a thread_list <<< "$threads"
    for s in "${solver_list[@]}"; do
      for t in "${thread_list[@]}"; do
        dump=()
        if [[ $n == "$largest" && $t == "${thread_list[0]}" && $s == "${solver_list[0]}" ]]; then
          mkdir -p "$out/problems-$scene-$n"
          dump=(--dump-step 1 "$out/problems-$scene-$n")
        fi
        # shellcheck disable=SC2086
        "$build/bin/granular_scene" --scene "$scene" --count "$n" --load-state "$state" --steps "$steps" \
          --solvers "$s" --threads "$t" --tolerances "$tol" --max-iterations "$maxit" \
          --csv "$out/run.csv" "${dump[@]}" $extra > /dev/null
        if [[ -f $csv ]]; then tail -n +2 "$out/run.csv" >> "$csv"; else cp "$out/run.csv" "$csv"; fi
      done
    done
    rm -f "$out/run.csv"
  done
  problem=$(ls "$out/problems-$scene-$largest"/*.hdf5 2> /dev/null | head -1 || true)
  if [[ -n $problem && -x $build/bin/fc_history ]]; then
    "$build/bin/fc_history" "$problem" --solvers "$solvers" --tol "$tol" --max-iter "$maxit" \
      --output "$out/history-$scene-$largest.csv" > /dev/null || true
  fi
fi

# all rows in one file
first=1
for f in "$out"/scale-"$scene"-*.csv; do
  [[ -f $f ]] || continue
  if [[ $first == 1 ]]; then cp "$f" "$out/scale.csv"; first=0; else tail -n +2 "$f" >> "$out/scale.csv"; fi
done
[[ $first == 0 ]] || { echo "plot_scale: no $out/scale-$scene-*.csv to draw" >&2; exit 2; }

steps=$(awk -F, 'NR == 2 { print $6 }' "$out/scale.csv")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# columns: scene,bodies,solver,threads,tolerance,steps,contacts_mean,active_mean,ms_step,
#          ms_interactions,ms_build,ms_solve,ms_integration,iterations_mean,siconos_error_max,
#          failed_steps,max_penetration,kinetic_end,peak_rss_mb
awk -F, -v d="$tmp" 'NR > 1 { f = d "/" $3 "-t" $4 ".dat"; print $7, $9, $19, $16, $6 > f }' "$out/scale.csv"
for f in "$tmp"/*.dat; do sort -n "$f" -o "$f"; done
awk -F, -v n="$(awk -F, 'NR > 1 && $2 > m { m = $2 } END { print m }' "$out/scale.csv")" \
  'NR > 1 && $2 == n { print $3 "-t" $4, $10, $11, $12, $13, $9 - $10 - $11 - $12 - $13 }' "$out/scale.csv" \
  > "$tmp/phases.dat"
if [[ -f $peers ]]; then
  awk -F, 'NR > 1 && $2 != "nsdyn" && $2 != "state" && $7 != "" && $10 != "" {
             gsub(/ /, "_", $3); print $10, $7 > ("'"$tmp"'/peer-" $2 "-" $3 "-" $4 ".dat") }' "$peers"
fi
history=$out/history-$scene-$largest.csv
if [[ -f $history ]]; then
  awk -F, -v d="$tmp" 'NR > 1 { print $2, $4 > (d "/hist-" $1 ".dat") }' "$history"
fi

{
  echo "set terminal pngcairo size 1400,1000 font ',10' noenhanced"
  echo "set output '$out/scale.png'"
  echo "set multiplot layout 2,2 title 'granular_scene $scene (tolerance $tol on the Siconos error, $steps steps per run)'"
  echo "set logscale xy; set grid; set key top left"
  echo "set xlabel 'contacts (mean over the steps)'; set ylabel 'ms per step'"
  echo "set title 'time per step'"
  plot="plot "
  for f in "$tmp"/*-t*.dat; do
    name=$(basename "$f" .dat)
    plot+="'$f' using 1:2 with linespoints lw 2 title '$name', "
  done
  for f in "$tmp"/peer-*.dat; do
    [[ -f $f ]] || continue
    name=$(basename "$f" .dat)
    plot+="'$f' using 1:2 with points pt 7 ps 1.2 title '${name#peer-}', "
  done
  echo "${plot%, }"
  echo "unset logscale; set logscale y 10; unset logscale y"
  echo "set title 'phases of a step at the largest size'; set ylabel 'ms per step'; set xlabel ''"
  echo "set style data histograms; set style histogram rowstacked; set style fill solid 0.8 border -1"
  echo "set boxwidth 0.6; set key top left; set xtics rotate by -30; set yrange [0:*]"
  echo "plot '$tmp/phases.dat' using 2:xtic(1) title 'detection + contacts', '' using 3 title 'problem build', \
'' using 4 title 'solve', '' using 5 title 'integration', '' using 6 title 'other'"
  echo "set style data lines; set style fill empty; set xtics norotate; set yrange [*:*]"
  if ls "$tmp"/hist-*.dat > /dev/null 2>&1; then
    echo "set title 'residual per iteration, first measured step, $largest spheres'"
    echo "set logscale y; set xlabel 'iteration'; set ylabel 'residual (solver record)'; set key top right"
    plot="plot "
    for f in "$tmp"/hist-*.dat; do
      name=$(basename "$f" .dat)
      plot+="'$f' using 1:2 with lines lw 2 title '${name#hist-}', "
    done
    echo "${plot%, }"
  else
    echo "set title 'residual per iteration: no history (fc_history or the dump missing)'"
    echo "unset logscale; set xrange [0:1]; set yrange [0:1]; plot 2 notitle"
    echo "set autoscale"
  fi
  echo "unset logscale; set logscale xy; set xrange [*:*]; set yrange [*:*]; set key top left"
  echo "set title 'peak resident memory'; set xlabel 'contacts'; set ylabel 'MB'"
  plot="plot "
  for f in "$tmp"/*-t*.dat; do
    name=$(basename "$f" .dat)
    plot+="'$f' using 1:3 with linespoints lw 2 title '$name', "
  done
  echo "${plot%, }, (x*1.5e-3) with lines dt 2 lc rgb 'black' title '1.5 kB per contact'"
  echo "unset multiplot"
} > "$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "plot_scale: rows in $out/scale.csv, picture $out/scale.png"
