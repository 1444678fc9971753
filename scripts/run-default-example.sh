#!/usr/bin/env bash
# `make run`: run the default example from its XML model file and say where its results are.
set -euo pipefail
build=${1:-build}
model=Examples/BouncingBallTS/BouncingBallTS.xml
out="$build/examples/BouncingBallTS"
mkdir -p "$out"
"$build/bin/nsdyn" run "$model" --output "$out"
echo
echo "model: $model"
echo "CSV:   $out/BouncingBallTS.csv"
if [ -f "$out/BouncingBallTS.png" ]; then
  echo "plot:  $out/BouncingBallTS.png"
else
  echo "plot:  not drawn (is gnuplot installed?)"
fi
