"""nsdyn: nonsmooth dynamics from Python.

Thin bindings (pybind11) over the C library (Numerics), the C++ Kernel and IO:

* Numerics: ``nsdyn.lcp / mlcp / fc / gfc`` build problems from NumPy arrays or
  SciPy-style sparse matrices, ``nsdyn.read_problem`` reads .dat / FCLIB files,
  ``nsdyn.solve(problem, solver="auto", tolerance=..., **options)`` solves;
  ``nsdyn.solvers()`` and ``nsdyn.options()`` are the C tables.
* Kernel: the modelling classes under their Siconos names (LagrangianLinearTIDS,
  NewtonImpactNSL, Interaction, Model, TimeStepping, MoreauJeanOSI, LCP, ...).
* Mechanics: shapes, bodies, scene generators and ``nsdyn.Scene``.
* IO: ``nsdyn.load_xml(path)`` and its ``run()``, ``tables()``.

See doc/python.md.
"""

from . import _nsdyn
from ._nsdyn import *  # noqa: F401,F403
from ._nsdyn import BadInputError, Error, __version__  # noqa: F401

__all__ = [name for name in dir(_nsdyn) if not name.startswith("_")] + ["solve", "Solution"]


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
