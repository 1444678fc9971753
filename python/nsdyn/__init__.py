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

import numbers as _numbers

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
    if isinstance(history, bool) or not isinstance(history, _numbers.Integral):
        raise TypeError("solve: history: expected a capacity (int >= 0), found %s %s"
                        % (type(history).__name__, _short(history)))
    if not 0 <= history <= 2147483647:
        raise ValueError("solve: history: expected a capacity in [0, 2147483647], found %d" % history)
    x, y, report = _nsdyn._solve(problem, solver, tolerance, max_iterations, x0, history, **options)
    return Solution(x, y, report)


def load_results_csv(path):
    """Read a CSV written by nsdyn (header line, then numbers) into (columns, array).

    nsdyn.Error naming the file and the line for a file that is not such a table: no header,
    a row with another number of fields than the header, a field that is not a number (a
    damaged or truncated file is refused, never read in part).
    """
    import numpy as np

    path = _path(path, "load_results_csv")
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise Error("%s:%d: expected a CSV results table (UTF-8 text), found bytes that are not "
                    "text (a damaged file)" % (path, line)) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last row
    if not lines or not lines[0].strip():
        raise Error("%s:1: expected a header line of column names, found %s"
                    % (path, "an empty file" if not lines else "an empty line"))
    columns = [c.strip() for c in lines[0].strip().lstrip("#").split(",")]
    width = len(columns)
    if len(lines) == 1:
        return columns, np.empty((0, width))
    # NumPy's parser (C) first; the rows one by one only to say where a damaged one is
    try:
        data = np.loadtxt(lines[1:], delimiter=",", ndmin=2, comments=None)
        if data.shape == (len(lines) - 1, width):
            return columns, data
    except ValueError:
        pass
    data = np.empty((len(lines) - 1, width))
    for k in range(1, len(lines)):
        fields = lines[k].split(",")
        if len(fields) != width:
            raise Error("%s:%d: expected %d fields (the columns of the header), found %d%s"
                        % (path, k + 1, width, len(fields),
                           " (a truncated last row)" if k == len(lines) - 1 else ""))
        try:
            data[k - 1] = [float(v) for v in fields]
        except ValueError:
            bad = next(j for j, v in enumerate(fields) if not _is_number(v))
            raise Error("%s:%d: expected a number in column %d (%s), found %r"
                        % (path, k + 1, bad + 1, columns[bad], fields[bad].strip()[:40])) from None
    return columns, data


def _is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def _short(value):
    r = repr(value)
    return r if len(r) <= 80 else r[:77] + "..."


def _path(path, function):
    """A path argument as str: TypeError naming ``function``'s argument and the value."""
    import os

    try:
        path = os.fspath(path)
    except TypeError:
        raise TypeError("%s: path: expected a path (str or os.PathLike), found %s %s"
                        % (function, type(path).__name__, _short(path))) from None
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    return path


def read_results(path):
    """The results written by ``nsdyn run`` (or LoadedModel.write_results), as NumPy tables:
    {table name: {"columns": [...], "data": (rows, cols) float64 array}}, the layout of
    LoadedModel.tables().

    ``path``: an HDF5 file (``--format hdf5``: one 2-D dataset per table, read with the HDF5
    C library), a CSV file (one table, named after the file), or a folder: its CSV files
    (``--format csv``: one per table), else its single .h5 file. nsdyn.Error naming the file
    for a file that is not a results file or is damaged (an HDF5 file that cannot be read,
    without any table, a table whose shape does not fit the file; a CSV row with another
    number of fields or a field that is not a number: file:line); FileNotFoundError for a
    missing path or a folder without results; TypeError for a path that is not str/PathLike.
    """
    import os

    path = _path(path, "read_results")
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
