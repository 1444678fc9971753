#!/usr/bin/env bash
# The C/C++ files of the tree against .clang-format (Debian 12's clang-format 14).
#   scripts/format.sh          rewrite every tracked C/C++ file in place
#   scripts/format.sh --check  change nothing; list the files that differ and exit 1 if any
# Installs clang-format if it is missing (apt-get, as scripts/install-deps.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
  echo "format: installing clang-format"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-format
fi
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp' ':!:build*')
if [ "${1:-}" = "--check" ]; then
  bad=()
  for f in "${files[@]}"; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
  done
  if [ ${#bad[@]} -ne 0 ]; then
    echo "format: ${#bad[@]} of ${#files[@]} C/C++ files differ from .clang-format:" >&2
    printf '  %s\n' "${bad[@]}" >&2
    echo "format: run 'make format' (scripts/format.sh) and commit the result" >&2
    exit 1
  fi
  echo "format: all ${#files[@]} C/C++ files follow .clang-format ($(clang-format --version | head -1))"
else
  printf '%s\0' "${files[@]}" | xargs -0 -n 40 clang-format -i
  echo "format: ${#files[@]} C/C++ files formatted with .clang-format"
fi
