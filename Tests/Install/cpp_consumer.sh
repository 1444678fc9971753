#!/usr/bin/env bash
# The C++ side of the install test (install_test.sh has installed the tree into PREFIX):
# 1. the Kernel's and IO's internal headers are absent, their export headers present, and
#    one translation unit including every installed C++ header compiles;
# 2. nm -D of each installed library lists no internal symbol (narrowphase, broadphase,
#    scenes::detail, the checkpoint codec, ...) and still the public ones;
# 3. every C++ driver of README.md (```cpp blocks with a main) and an XML driver (the
#    README's bouncing ball through nsdyn::io, a LoadError caught by type) build with
#    find_package(nsdyn) and run.
set -euo pipefail
prefix=$1 work=$2 cxx=$3 readme=$4 extra=${5:-}
inc="$prefix/include/nsdyn"
lib=$(dirname "$(find "$prefix" -name 'libnsdyn_kernel.so' | head -n 1)")
fail() { echo "install test: $*" >&2; exit 1; }

# 1. headers
for h in Broadphase.hpp Narrowphase.hpp ConvexContact.hpp ContactRules.hpp ContactFrame.hpp \
         io/PartFile.hpp; do
  [ ! -e "$inc/$h" ] || fail "internal header installed: $inc/$h"
done
for h in KernelExport.hpp DetectionOptions.hpp ContactDetector.hpp Kernel.hpp io/IoExport.hpp \
         io/XmlLoader.hpp; do
  [ -f "$inc/$h" ] || fail "public header missing: $inc/$h"
done
mkdir -p "$work/cpp"
all="$work/cpp/all_headers.cpp"
: > "$all"
for h in "$inc"/*.hpp "$inc"/io/*.hpp; do
  echo "#include <nsdyn/${h#"$inc"/}>" >> "$all"
done
"$cxx" -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I"$prefix/include" "$all" ||
  fail "the installed headers do not compile on their own (one includes a header not installed?)"

# 2. exported symbols
check_symbols() {  # library, then symbol-name prefixes that must be absent; "+prefix" present
  local so=$1; shift
  [ -f "$lib/$so" ] || fail "$lib/$so not installed"
  local syms absent=""
  syms=$(nm -DC --defined-only "$lib/$so" | cut -d' ' -f3-)
  for p in "$@"; do
    [ "${p#+}" != "$p" ] || absent="$absent $p"
    if [ "${p#+}" != "$p" ]; then
      awk -v p="${p#+}" 'index($0, p) == 1 { f = 1 } END { exit !f }' <<<"$syms" ||
        fail "$so does not export ${p#+}"
    elif awk -v p="$p" 'index($0, p) == 1 { f = 1 } END { exit !f }' <<<"$syms"; then
      fail "$so exports internal symbols: $(awk -v p="$p" 'index($0, p) == 1' <<<"$syms" | head -n 3)"
    fi
  done
  echo "install test: $so exports $(wc -l <<<"$syms") symbols, none of:$absent"
}
check_symbols libnsdyn_kernel.so 'nsdyn::scenes::detail::' 'nsdyn::narrowphase::' \
  'nsdyn::UniformGridBroadphase::' 'nsdyn::convexContact(' 'nsdyn::convexManifold(' \
  'nsdyn::store::' 'nsdyn::mechanics::' \
  '+nsdyn::scenes::latticePacking(' '+typeinfo for nsdyn::Error' '+nsdyn::SceneEngine::step()'
check_symbols libnsdyn_io.so 'nsdyn::io::scenecp::' 'nsdyn::io::detail::' 'nsdyn::io::xml::' \
  '+nsdyn::io::XmlLoader::loadFile(' '+typeinfo for nsdyn::io::LoadError'
if [ -f "$lib/libnsdyn_parallel.so" ]; then
  check_symbols libnsdyn_parallel.so 'MPI::Comm::' 'nsdyn::io::XmlLoader' \
    '+nsdyn::parallel::MpiSceneExchange::'
fi
check_symbols libnsdyn_numerics.so 'apgd_run' 'apgd_norm' '+nsd_lcp_lemke'

# 3. the README's C++ drivers and an XML driver against the installed package
src="$work/cpp/src"
mkdir -p "$src"
awk -v dir="$src" '
  /^```cpp$/ { inblock = 1; text = ""; next }
  inblock && /^```$/ { inblock = 0; if (text ~ /int main\(/) { n++; f = dir "/readme_" n ".cpp"; printf "%s", text > f; close(f) } next }
  inblock { text = text $0 "\n" }
  END { print n > (dir "/count") }' "$readme"
drivers=$(cat "$src/count")
[ "$drivers" -ge 3 ] || fail "found $drivers C++ drivers in $readme (expected at least 3)"
awk '/^```xml$/ { inblock = 1; next } inblock && /^```$/ { exit } inblock { print }' "$readme" \
  > "$src/ball.xml"
cat > "$src/xml_driver.cpp" <<'CPP'
#include <cstdio>
#include <memory>
#include <nsdyn/SecondOrderDS.hpp>
#include <nsdyn/TimeStepping.hpp>
#include <nsdyn/io/LoadError.hpp>
#include <nsdyn/io/XmlLoader.hpp>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  nsdyn::io::XmlLoader loader;
  try {  // an exception class of the library, caught by type across the library boundary
    loader.loadString("<nsdyn version=\"1\"><model/>", "broken.xml");
    std::puts("WRONG: no LoadError");
    return 1;
  } catch (const nsdyn::io::LoadError& e) {
    std::printf("LoadError caught: %s\n", e.what());
  }
  std::unique_ptr<nsdyn::io::LoadedModel> run = loader.loadFile(argv[1]);
  auto ts = std::dynamic_pointer_cast<nsdyn::TimeStepping>(run->simulation);
  if (!ts) { std::puts("WRONG: not a TimeStepping"); return 1; }
  for (int k = 0; k < 100; ++k) { ts->computeOneStep(); ts->nextStep(); }
  auto ball = std::dynamic_pointer_cast<nsdyn::SecondOrderDS>(run->system("ball"));
  if (!ball) { std::puts("WRONG: the ball is not a SecondOrderDS"); return 1; }
  const double z = ball->q()(0);
  std::printf("%s after 100 steps z = %.6f\n", z < 1.0 && z > 0.0 ? "OK" : "WRONG", z);
  return z < 1.0 && z > 0.0 ? 0 : 1;
}
CPP
{
  echo 'cmake_minimum_required(VERSION 3.25)'
  echo 'project(nsdyn_cpp_consumer CXX)'
  echo 'set(CMAKE_CXX_STANDARD 17)'
  echo 'find_package(nsdyn 0.1 REQUIRED)'
  for i in $(seq 1 "$drivers"); do
    echo "add_executable(readme_$i readme_$i.cpp)"
    echo "target_link_libraries(readme_$i PRIVATE nsdyn::kernel)"
  done
  echo 'add_executable(xml_driver xml_driver.cpp)'
  echo 'target_link_libraries(xml_driver PRIVATE nsdyn::io)'
} > "$src/CMakeLists.txt"
cmake -S "$src" -B "$work/cpp/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" -DCMAKE_BUILD_RPATH="$lib" \
  > "$work/cpp/configure.log" || { cat "$work/cpp/configure.log"; fail "configure failed"; }
cmake --build "$work/cpp/build" -j 4 > "$work/cpp/build.log" 2>&1 ||
  { tail -n 40 "$work/cpp/build.log"; fail "the README drivers do not build against $prefix"; }
for i in $(seq 1 "$drivers"); do
  (cd "$work/cpp" && "$work/cpp/build/readme_$i" > "readme_$i.out") ||
    fail "README driver $i (readme_$i.cpp) failed: $(tail -n 3 "$work/cpp/readme_$i.out")"
  echo "install test: README driver $i ran: $(tail -n 1 "$work/cpp/readme_$i.out")"
done
"$work/cpp/build/xml_driver" "$src/ball.xml"
echo "install test: $drivers README drivers and the XML driver built against $prefix and ran"
