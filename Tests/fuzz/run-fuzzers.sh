#!/usr/bin/env bash
# Run each libFuzzer target of BUILD_DIR (make fuzz) for SECONDS, starting from the seed
# corpus of Tests/fuzz/corpus/<target>; new inputs go to BUILD_DIR/fuzz-corpus/<target>,
# crashes to BUILD_DIR/fuzz-artifacts/. Exit status 1 when a target found something.
# FUZZ_JOBS targets run at once (default: the cores; each fuzzer is one process), so each
# still fuzzes SECONDS on a core of its own.
#   bash Tests/fuzz/run-fuzzers.sh [BUILD_DIR] [SECONDS] [TARGET...]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-build-fuzz}"
seconds="${2:-60}"
shift 2 2>/dev/null || shift $#
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(dat fclib xml checkpoint scene_checkpoint)
mkdir -p "$build/fuzz-artifacts"
rm -f "$build/fuzz-status"
export TMPDIR="${TMPDIR:-/tmp}"
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
fuzz_one() {
  local t="$1"
  local bin="$build/bin/fuzz_$t"
  if [ ! -x "$bin" ]; then echo "run-fuzzers: $bin missing (make fuzz builds it)"; return 1; fi
  local work="$build/fuzz-corpus/$t"
  mkdir -p "$work"
  local seeds=("$here/corpus/$t")
  if [ "$t" = xml ]; then
    # every example's model file is a seed (scenes included: the loader bounds their bodies)
    local ex="$build/fuzz-seeds/xml"
    mkdir -p "$ex"
    find "$here/../../Examples" -name '*.xml' -print0 |
      while IFS= read -r -d '' f; do cp "$f" "$ex/$(echo "$f" | md5sum | cut -c1-16).xml"; done
    seeds+=("$ex")
  fi
  # -malloc_limit_mb: one allocation above 512 MB is a finding (the readers bound them by the input).
  # fclib: libhdf5 runs first in a child process (io_fclib.c), which inherits libFuzzer's malloc
  # hook; the multi-GB allocations libhdf5 makes there on corrupted files are what the child is
  # for, so this target's limit is raised (the parent reads only files the child read cleanly).
  # The same child meets sizes like 2^64-1 that ASan refuses with a report: there malloc returns
  # NULL instead, as glibc's does in a release build, and libhdf5 fails cleanly.
  local limit=512 asan="${ASAN_OPTIONS:-}"
  # Allocations above 2 GiB fail there as under the release build's address-space limit,
  # and the child's time limit stays below libFuzzer's -timeout.
  [ "$t" = fclib ] && limit=8192 asan="allocator_may_return_null=1:max_allocation_size_mb=2048${asan:+:$asan}"
  [ "$t" = fclib ] && export NSDYN_FCLIB_PROBE_SECONDS=10
  ASAN_OPTIONS="$asan" "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=$limit \
    -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" \
    "$work" "${seeds[@]}" 2>"$build/fuzz-$t.log"
}
pids=() names=()
for t in "${targets[@]}"; do
  echo "== fuzz_$t: ${seconds}s"
  fuzz_one "$t" &
  pids+=($!) names+=("$t")
  # at most $jobs at once: wait for the oldest before starting more
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}"; echo "${names[0]} $?" >> "$build/fuzz-status"
    pids=("${pids[@]:1}") names=("${names[@]:1}")
  fi
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"; echo "${names[$i]} $?" >> "$build/fuzz-status"
done
status=0
for t in "${targets[@]}"; do
  rc=$(awk -v t="$t" '$1 == t {print $2}' "$build/fuzz-status" | tail -1)
  echo "== fuzz_$t"
  [ -f "$build/fuzz-$t.log" ] &&
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR:|SUMMARY:" "$build/fuzz-$t.log"
  if [ "${rc:-1}" -ne 0 ]; then
    echo "fuzz_$t: exit status ${rc:-unknown}: see $build/fuzz-$t.log and $build/fuzz-artifacts/"
    status=1
  fi
done
exit $status
