#!/usr/bin/env bash
# Convergence pictures: for each chosen FC3D problem, the residual of every
# friction solver against the iteration and against the time, drawn with gnuplot.
#
# usage: Benchmarks/plot_convergence.sh [BUILD_DIR [OUT_DIR [FILE...]]]
#   BUILD_DIR  default build (needs BUILD_DIR/bin/fc_history)
#   OUT_DIR    default doc/bench/convergence
#   FILE...    problem files; default: a few shared FC3D files of different kinds
# Environment: SOLVERS (comma list, default every solver of the file's kind),
#   TOL (default 1e-8), MAX_ITER (default 10000), TIME_LIMIT (default 10 s).
# Writes OUT_DIR/<stem>.csv (fc_history rows) and OUT_DIR/<stem>.png.
# The time axis is approximate: fc_history spreads each solve's total time
# evenly over its iterations (seconds(k) = seconds * k / iterations), because
# the solvers record no clock per iteration.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
out=${2:-$root/doc/bench/convergence}
shift $(( $# < 2 ? $# : 2 ))
data=${NSDYN_SHARED_DIR:-$root/../shared}/data/fc3d
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
  for stem in Capsules-i100-1090 Confeti-ex13-4contact-Fc3D-SBM GFC3D_TwoRods1-condensed \
              NESpheres_10_1 Rover4144 OneObject-i100000-316.hdf5; do
    [[ -f $data/$stem.dat ]] && files+=("$data/$stem.dat")
  done
fi
if [[ ! -x $build/bin/fc_history ]]; then
  echo "plot_convergence: $build/bin/fc_history not found; build first" >&2
  exit 2
fi
command -v gnuplot > /dev/null || { echo "plot_convergence: gnuplot not found" >&2; exit 2; }
mkdir -p "$out"

for file in "${files[@]}"; do
  stem=$(basename "$file")
  stem=${stem%.*}
  csv=$out/$stem.csv
  args=(--tol "${TOL:-1e-8}" --max-iter "${MAX_ITER:-10000}" --time-limit "${TIME_LIMIT:-10}")
  [[ -n ${SOLVERS:-} ]] && args+=(--solvers "$SOLVERS")
  "$build/bin/fc_history" "$file" "${args[@]}" --output "$csv"

  # one data block per solver (gnuplot "index"), in the order of appearance
  dat=$out/$stem.dat
  awk -F, 'NR > 1 {
             if ($1 != last) { if (last != "") printf "\n\n"; printf "# %s\n", $1; last = $1; n++; names[n] = $1 }
             if ($4 > 0) print $2, $3, $4
           }
           END { for (i = 1; i <= n; ++i) print names[i] > "/dev/stderr" }' "$csv" > "$dat" 2> "$dat.names"
  mapfile -t names < "$dat.names"
  rm -f "$dat.names"
  if [[ ${#names[@]} -eq 0 ]]; then
    echo "plot_convergence: no history for $file" >&2
    continue
  fi
  by_iter="" by_time=""
  for i in "${!names[@]}"; do
    sep=$([[ $i -gt 0 ]] && echo ", " || true)
    by_iter+="$sep'$dat' index $i using 1:3 with lines lw 2 title '${names[$i]}'"
    by_time+="$sep'$dat' index $i using 2:3 with lines lw 2 title '${names[$i]}'"
  done
  gnuplot <<EOF
set terminal pngcairo size 1400,560 font ",10"
set output '$out/$stem.png'
set multiplot layout 1,2 title '$stem: residual per solver (tolerance ${TOL:-1e-8})' noenhanced
set logscale y
set format y '10^{%T}'
set grid
set key outside right top noenhanced
set xlabel 'iteration'
set ylabel 'residual'
plot $by_iter
set logscale x
set format x '10^{%T}'
set xlabel 'seconds (total time spread evenly over iterations)'
plot $by_time
unset multiplot
EOF
  echo "wrote $out/$stem.png" >&2
done
