#!/usr/bin/env bash
# Install the Debian packages nsdyn needs, only those missing (idempotent, apt-get only).
set -euo pipefail
PKGS=(cmake make g++ gcc gfortran pkg-config libopenblas-dev liblapacke-dev libsuitesparse-dev
      libboost-dev libboost-graph-dev libpugixml-dev libcppunit-dev
      libhdf5-dev libsundials-dev libqhull-dev gnuplot-nox fonts-dejavu-core libxml2-utils
      python3-dev python3-pybind11 pybind11-dev python3-numpy python3-pytest python3-matplotlib python3-scipy
      libopenmpi-dev openmpi-bin libtrilinos-zoltan-dev
      # assimp: OBJ and STL terrain meshes (TriangleMeshShape::fromFile, Kernel)
      libassimp-dev
      # libpng: heightfields from grey-level images (HeightfieldShape::fromImage, Kernel)
      libpng-dev)
# `nsdyn render` (pictures of scene runs): Debian's VTK for Python, and Xvfb for machines
# without a display (VTK 9.1 of Debian draws through X only). On top of the packages above:
# python3-vtk9 brings 78 packages, 58 MB downloaded, 257 MB installed (libvtk9.1 102 MB,
# python3-vtk9 46 MB, Mesa 24 MB, proj-data 22 MB, the Qt 5 libraries Debian's VTK links);
# xvfb 10 packages, 6 MB downloaded, 9 MB installed. NSDYN_NO_RENDER=1 leaves them out: nsdyn
# render then exits 6 with a message, and its test (cli/render_scene) is skipped.
if [ "${NSDYN_NO_RENDER:-0}" != "1" ]; then
  PKGS+=(python3-vtk9 xvfb)
fi
missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
