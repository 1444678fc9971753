"""nsdyn: nonsmooth dynamics from Python.

Thin bindings (pybind11) over the C library (Numerics), the C++ Kernel and IO:

* Numerics: ``nsdyn.lcp / mlcp / fc / gfc`` build problems from NumPy arrays or
  SciPy-style sparse matrices, ``nsdyn.read_problem`` reads .dat / FCLIB files,
  ``nsdyn.solve(problem, solver="auto", tolerance=..., **options)`` solves;
  ``nsdyn.solvers()`` and ``nsdyn.options()`` are the C tables.
* Kernel: the modelling classes under their Siconos names (LagrangianLinearTIDS,
  NewtonImpactNSL, Interaction, Model, TimeStepping, MoreauJeanOSI, LCP, ...).
* Mechanics: shapes, bodies, scene generators, ``nsdyn.SceneEngine`` (rigid bodies in arrays)
  and ``nsdyn.Scene`` (a scene run to a final time T on a SceneEngine).
* IO: ``nsdyn.load_xml(path)`` and its ``run()``, ``tables()``; ``nsdyn.read_results(path)``
  reads what ``nsdyn run`` wrote (an HDF5 file, a CSV file or a folder of CSV files).

See doc/python.md.
"""

from . import _nsdyn
from ._nsdyn import *  # noqa: F401,F403
from ._nsdyn import BadInputError, Error, __version__  # noqa: F401

__all__ = [name for name in dir(_nsdyn) if not name.startswith("_")] + [
    "solve", "Solution", "read_results", "load_results_csv"]


class Solution(tuple):
    """(x, y, report) of a solve, also readable by name: z/w (LCP, MLCP) or r/u (friction)."""

    __slots__ = ()

    def __new__(cls, x, y, report):
        return super().__new__(cls, (x, y, report))

    x = property(lambda self: self[0], doc="primal unknowns (z, or r)")
    y = property(lambda self: self[1], doc="dual unknowns (w, or u)")
    z = x
    r = x
    w = y
    u = y
    report = property(lambda self: self[2])

    def __repr__(self):
        return "Solution(x=%r, y=%r, report=%r)" % tuple(self)


def solve(problem, solver="auto", tolerance=None, max_iterations=None, x0=None, history=100000, **options):
    """Solve a Numerics problem with the solver named ``solver`` (nsdyn.solvers(problem.kind)).

    Keyword options are those of the option table (nsdyn.options()); a dot in the option
    name is written ``__``: ``nsgs__local_tolerance=1e-12`` sets "nsgs.local_tolerance".
    An option the solver does not read raises nsdyn.BadInputError, as does bad input
    (the C message). ``x0`` starts from a given point (warm start). ``history``: capacity
    of the per-iteration residual record. Returns Solution(x, y, report); a solver that
    does not converge is not an error: look at report.status / report.converged.
    """
    if not isinstance(problem, _nsdyn.Problem):
        raise TypeError("problem: expected an nsdyn.Problem (nsdyn.lcp, nsdyn.fc, nsdyn.read_problem, ...), "
                        "found %s" % type(problem).__name__)
    if not isinstance(solver, str):
        raise TypeError("solver: expected a solver name (str), found %s" % type(solver).__name__)
    x, y, report = _nsdyn._solve(problem, solver, tolerance, max_iterations, x0, history, **options)
    return Solution(x, y, report)


def load_results_csv(path):
    """Read a CSV written by nsdyn (header line, then numbers) into (columns, array)."""
    import numpy as np

    with open(path) as f:
        header = f.readline().strip().lstrip("#").split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return [c.strip() for c in header], data


def read_results(path):
    """The results written by ``nsdyn run`` (or LoadedModel.write_results), as NumPy tables:
    {table name: {"columns": [...], "data": (rows, cols) float64 array}}, the layout of
    LoadedModel.tables().

    ``path``: an HDF5 file (``--format hdf5``: one 2-D dataset per table, read with the HDF5
    C library), a CSV file (one table, named after the file), or a folder: its CSV files
    (``--format csv``: one per table), else its single .h5 file. nsdyn.Error for an HDF5 file
    that cannot be read; FileNotFoundError for a missing path or a folder without results.
    """
    import os

    path = os.fspath(path)
    if os.path.isdir(path):
        names = sorted(os.listdir(path))
        csvs = [n for n in names if n.endswith(".csv")]
        if csvs:
            return {n[:-4]: _csv_table(os.path.join(path, n)) for n in csvs}
        h5 = [n for n in names if n.endswith((".h5", ".hdf5"))]
        if len(h5) == 1:
            return _nsdyn._read_results_hdf5(os.path.join(path, h5[0]))
        raise FileNotFoundError("%s: no CSV results%s" % (
            path, "" if not h5 else " and %d HDF5 files (name one)" % len(h5)))
    if not os.path.isfile(path):
        raise FileNotFoundError("%s: no such file or folder" % path)
    if path.endswith(".csv"):
        return {os.path.basename(path)[:-4]: _csv_table(path)}
    return _nsdyn._read_results_hdf5(path)


def _csv_table(path):
    columns, data = load_results_csv(path)
    return {"columns": columns, "data": data}


def pyplot():
    """matplotlib.pyplot on the Agg backend (PNG files, no display), or None after saying
    that Matplotlib is not installed: the examples plot when it is there."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("  plot: not drawn (Matplotlib is not installed)")
        return None
    return plt
