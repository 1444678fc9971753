#!/bin/sh
# cmake --install into a temporary prefix, then import nsdyn from PREFIX/NSDYN_PYTHON_INSTALL_DIR
# (no build tree on the path) and solve an LCP: the module finds its libraries by its RPATH.
set -eu
CMAKE=$1 BUILD=$2 PYTHON=$3 PYDIR=$4
PREFIX=$(mktemp -d)
trap 'rm -rf "$PREFIX"' EXIT
"$CMAKE" --install "$BUILD" --prefix "$PREFIX" >/dev/null
test -f "$PREFIX/$PYDIR/nsdyn/__init__.py" || { echo "missing $PREFIX/$PYDIR/nsdyn/__init__.py"; exit 1; }
cd "$PREFIX"
env -u PYTHONPATH PYTHONPATH="$PREFIX/$PYDIR" "$PYTHON" -c "
import nsdyn, numpy as np
assert nsdyn.__file__.startswith('$PREFIX'), nsdyn.__file__
z, w, rep = nsdyn.solve(nsdyn.lcp(np.array([[2.0, 1.0], [1.0, 2.0]]), [-5.0, -6.0]), 'lemke')
assert rep.converged and np.allclose(z, [4/3, 7/3]), (z, rep)
print('installed module OK:', nsdyn.__file__)
"
