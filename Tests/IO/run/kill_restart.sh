#!/usr/bin/env bash
# A run killed (SIGKILL) at a random moment and restarted from its last checkpoint ends
# with the same CSV, byte for byte, as an uninterrupted run (issue "Reliability", item 7).
#   kill_restart.sh NSDYN MODEL.xml NAME WORKDIR [TRIALS]
# Each trial kills `nsdyn run --checkpoint-every 50` after a random delay (0.02-0.25 s),
# then restarts it from NAME.checkpoint (from scratch when the kill came before the first
# checkpoint) and compares NAME.csv with the reference run's.
set -euo pipefail
bin=$1 model=$2 name=$3 work=$4 trials=${5:-5}
rm -rf "$work"
mkdir -p "$work/full"
"$bin" run "$model" --output "$work/full" --quiet --no-plot > /dev/null
restarted=0 midrun=0
for ((trial = 1; trial <= trials; ++trial)); do
  d="$work/kill$trial"
  mkdir -p "$d"
  delay=$(awk -v s="$RANDOM$trial" 'BEGIN { srand(s); printf "%.3f", 0.02 + 0.23 * rand() }')
  "$bin" run "$model" --output "$d" --quiet --no-plot --checkpoint-every 50 > /dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -KILL "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
  # the results are written at the end of a run: no CSV yet means the kill came mid-run
  [[ -f $d/$name.csv ]] && finished=1 || { finished=0; midrun=$((midrun + 1)); }
  if [[ -f $d/$name.checkpoint ]]; then
    "$bin" run "$model" --output "$d" --quiet --no-plot --checkpoint-every 50 --restart "$d/$name.checkpoint" \
      > /dev/null
    restarted=$((restarted + 1))
  else
    "$bin" run "$model" --output "$d" --quiet --no-plot --checkpoint-every 50 > /dev/null
  fi
  if ! cmp -s "$work/full/$name.csv" "$d/$name.csv"; then
    echo "kill_restart: trial $trial (killed after $delay s): $d/$name.csv differs from the uninterrupted run" >&2
    exit 1
  fi
  echo "trial $trial: killed after $delay s ($( ((finished)) && echo "after the end" || echo "mid-run" )), $( [[ -f $d/$name.checkpoint ]] && echo restarted || echo rerun ), same CSV"
done
echo "kill_restart: $trials trials ($midrun killed mid-run), $restarted restarted from a checkpoint, every CSV identical"
if ((midrun == 0)); then
  echo "kill_restart: no trial was killed before the run ended (machine too fast for the delays?)" >&2
  exit 1
fi
