#!/usr/bin/env bash
# Every FC3D solver over ../shared/data/fc3d at tolerance 1e-8, side by side with
# the Siconos anchors, plus the pictures.
#
# usage: Benchmarks/run_fc3d_benchmark.sh [BUILD_DIR]      (from the repository root;
#                                                            BUILD_DIR default: build)
# Settings, as for the anchors (../shared/anchors/README.md): start from r = 0,
# tolerance 1e-8, every solve in a process of its own capped at 10 s; at most
# 10,000 iterations for first-order solvers and 1,000 for Newton-type ones
# (the solvers whose name starts with "newton").
# Writes:
#   doc/bench/fc3d.csv                 solve_folder rows (kind,problem,...,seconds)
#   doc/bench/fc3d-vs-siconos.md       Benchmarks/compare_with_anchors.py output
#   doc/bench/fc3d-profile.png         Dolan-More performance profile, ours and Siconos's
#   doc/bench/convergence/*.png        residual vs iteration and vs time (plot_convergence.sh)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
data=${NSDYN_SHARED_DIR:-$root/../shared}/data/fc3d
anchors=${NSDYN_SHARED_DIR:-$root/../shared}/anchors/siconos-numerics-fc3d.csv
out=$root/doc/bench
tol=1e-8
time_limit=10

for exe in solve_folder nsdyn fc_history; do
  if [[ ! -x $build/bin/$exe ]]; then
    echo "run_fc3d_benchmark: $build/bin/$exe not found; build first (cmake --build $build)" >&2
    exit 2
  fi
done
mkdir -p "$out"

# The FC3D solvers of the library's table, split by iteration cap.
solvers=$("$build/bin/nsdyn" solve --list-solvers |
          awk '/^[a-z0-9]+:$/ {section = $1; next} section == "fc3d:" && $1 !~ /^\(/ {print $1}')
if [[ -z $solvers ]]; then
  echo "run_fc3d_benchmark: the solver table has no fc3d solver" >&2
  exit 1
fi
first_order=$(echo "$solvers" | grep -v '^newton' | paste -sd, - || true)
newton=$(echo "$solvers" | grep '^newton' | paste -sd, - || true)
echo "first-order: ${first_order:-none}; Newton-type: ${newton:-none}" >&2

# One solve_folder run per group, then one CSV.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -n $first_order ]]; then
  "$build/bin/solve_folder" "$data" --solvers "$first_order" --tol $tol \
      --time-limit $time_limit --max-iter 10000 --threads 1 --output "$tmp/first.csv"
fi
if [[ -n $newton ]]; then
  "$build/bin/solve_folder" "$data" --solvers "$newton" --tol $tol \
      --time-limit $time_limit --max-iter 1000 --threads 1 --output "$tmp/newton.csv"
fi
{
  echo "kind,problem,n_contacts_or_size,solver,info,iterations,error,seconds"
  for f in "$tmp"/first.csv "$tmp"/newton.csv; do
    [[ -f $f ]] && tail -n +2 "$f"
  done
} | sort -t, -k2,2 -s > "$tmp/all.csv"
# keep the header first (sort moved it by its "problem" field)
{ grep '^kind,' "$tmp/all.csv"; grep -v '^kind,' "$tmp/all.csv"; } > "$out/fc3d.csv"
echo "wrote $out/fc3d.csv" >&2

# Side by side with Siconos, then the pictures.
python3 "$here/compare_with_anchors.py" "$out/fc3d.csv" "$anchors" --tol $tol > "$out/fc3d-vs-siconos.md"
echo "wrote $out/fc3d-vs-siconos.md" >&2
python3 "$here/performance_profile.py" "$out/fc3d.csv" --anchors "$anchors" --tol $tol \
    --output "$out/fc3d-profile.png"
"$here/plot_convergence.sh" "$build" "$out/convergence"
