#!/usr/bin/env bash
# `make run`: run the default example end to end and say where its results are.
set -euo pipefail
build=${1:-build}
out="$build/examples/BouncingBallTS"
mkdir -p "$out"
"$build/bin/BouncingBallTS" --output "$out"
