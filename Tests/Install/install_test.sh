#!/usr/bin/env bash
# Install the built tree into a scratch prefix, then build a small C program
# against the *installed* library twice: with pkg-config and the C compiler,
# and with a CMake project using find_package(nsdyn). Both must solve an LCP.
# Then the C++ libraries: the internal headers are not installed, every installed header
# compiles, nm -D of each installed library lists none of the internal symbols, and the
# C++ drivers of README.md plus an XML driver build against nsdyn::kernel / nsdyn::io of the
# installed package and run (cpp_consumer.sh).
set -euo pipefail
build=$1 work=$2 cc=$3 extra=${4:-} cxx=${5:-c++} readme=${6:-}
rm -rf "$work"
mkdir -p "$work/consumer"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"

cat > "$work/consumer/main.c" <<'C'
#include <math.h>
#include <stdio.h>
#include <nsdyn/numerics.h>
int main(void) {
  /* M = [2 1; 1 2], q = (-5, -6): z = (4/3, 7/3) */
  double m[] = {2, 1, 1, 2}, q[] = {-5, -6}, z[2] = {0, 0}, w[2];
  NsdLcp* lcp = nsd_lcp_create(nsd_matrix_create_dense_from(2, 2, m), q);
  NsdSolverOptions opt;
  nsd_solver_options_default(&opt);
  NsdReport rep = {0};
  NsdStatus st = nsd_lcp_lemke(lcp, z, w, &opt, &rep);
  nsd_lcp_destroy(lcp);
  int ok = st == NSD_OK && fabs(z[0] - 4.0 / 3) < 1e-12 && fabs(z[1] - 7.0 / 3) < 1e-12;
  printf("%s z = (%.15g, %.15g) residual %.1e\n", ok ? "OK" : "WRONG", z[0], z[1], rep.residual);
  return ok ? 0 : 1;
}
C

# 1. pkg-config + the C compiler
pc=$(dirname "$(find "$prefix" -name nsdyn-numerics.pc | head -n 1)")
libdir=$(PKG_CONFIG_PATH=$pc pkg-config --variable=libdir nsdyn-numerics)
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Werror $extra "$work/consumer/main.c" -o "$work/with_pkgconfig" \
  $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs nsdyn-numerics) -lm -Wl,-rpath,"$libdir"
"$work/with_pkgconfig"

# 2. CMake find_package(nsdyn)
cat > "$work/consumer/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.25)
project(nsdyn_consumer C)
find_package(nsdyn 0.1 REQUIRED)
add_executable(with_cmake main.c)
target_link_libraries(with_cmake PRIVATE nsdyn::numerics m)
CM
cmake -S "$work/consumer" -B "$work/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" \
  -DCMAKE_BUILD_RPATH="$libdir" > "$work/consumer-configure.log"
cmake --build "$work/consumer-build" > "$work/consumer-build.log"
"$work/consumer-build/with_cmake"
echo "install test: both consumers built against $prefix and solved the LCP"
if [ -n "$readme" ]; then
  bash "$(dirname "$0")/cpp_consumer.sh" "$prefix" "$work" "$cxx" "$readme" "$extra"
fi
