"""The generic mechanical problem from Python: nsdyn.gmp, the shared GMP files, its solvers."""
import os

import numpy as np
import pytest

import nsdyn

DATA = os.path.join(os.environ.get("NSDYN_SHARED_DIR", ""), "data", "gmp")
FILES = ["Example1_Fc3D_SBM.dat", "GMP0.dat", "GMP1.dat", "GMP2.dat", "GMP4.dat", "GMP5.dat"]


@pytest.mark.parametrize("name", FILES)
def test_shared_files_solved_by_newton(name):
    pb = nsdyn.read_problem(os.path.join(DATA, name))
    assert pb.kind == "gmp" and pb.size == sum(b["size"] for b in nsdyn.gmp_blocks(pb))
    r, u, rep = nsdyn.solve(pb, "newton")
    assert rep.converged and rep.residual <= 1e-8 and rep.solver == "newton"
    assert pb.error(r) <= 1e-8


def test_nsgs_and_default_solver():
    pb = nsdyn.read_problem(os.path.join(DATA, "GMP1.dat"), kind="gmp")
    r, u, rep = nsdyn.solve(pb, "nsgs")
    assert rep.converged and rep.solver == "nsgs"
    r2, u2, rep2 = nsdyn.solve(pb)  # the default: newton
    assert rep2.converged and rep2.solver == "newton"
    np.testing.assert_allclose(u, u2, atol=1e-7)
    assert {s["name"] for s in nsdyn.solvers("gmp")} == {"nsgs", "newton", "admm"}
    r3, u3, rep3 = nsdyn.solve(pb, "admm")  # ADMM, the equality rows free
    assert rep3.converged and rep3.solver == "admm" and pb.error(r3) <= 1e-8
    np.testing.assert_allclose(u3, u2, atol=1e-6)


def test_equalities_equal_the_linear_solve():
    W = np.array([[4.0, 1.0, 0.5], [0.2, 3.0, 0.1], [0.3, 0.4, 5.0]])
    q = np.array([1.0, -2.0, 0.5])
    pb = nsdyn.gmp(W, q, [("equality", 1), ("equality", 2)])
    r, u, rep = nsdyn.solve(pb, "nsgs", tolerance=1e-14)
    assert rep.converged
    np.testing.assert_allclose(r, np.linalg.solve(W, -q), rtol=0, atol=1e-13)


def test_mixed_blocks_and_their_laws():
    # a joint row, a unilateral row and a 3D cone, coupled
    W = np.eye(5) * 2.0 + 0.1
    q = np.array([1.0, -1.0, -1.0, 0.3, 0.0])
    pb = nsdyn.gmp(W, q, [("equality", 1), ("lcp", 1), ("fc3d", 3, 0.5)])
    assert [b["kind"] for b in nsdyn.gmp_blocks(pb)] == ["equality", "lcp", "fc3d"]
    r, u, rep = nsdyn.solve(pb, "newton")
    assert rep.converged
    np.testing.assert_allclose(u, W @ r + q, atol=1e-12)
    assert abs(u[0]) <= 1e-8 and r[1] >= 0 and u[1] >= -1e-8 and abs(r[1] * u[1]) <= 1e-8
    assert np.hypot(r[3], r[4]) <= 0.5 * r[2] + 1e-10


def test_write_and_read_back(tmp_path):
    pb = nsdyn.read_problem(os.path.join(DATA, "GMP5.dat"))
    path = tmp_path / "copy_gmp.dat"
    pb.write(str(path))
    back = nsdyn.read_problem(str(path))
    assert nsdyn.gmp_blocks(back) == nsdyn.gmp_blocks(pb)


def test_bad_input():
    W = np.eye(4)
    with pytest.raises(nsdyn.BadInputError, match="add up to 3"):
        nsdyn.gmp(W, np.ones(4), [("equality", 3)])
    with pytest.raises(nsdyn.BadInputError, match="mu = -0.1"):
        nsdyn.gmp(W, np.ones(4), [("lcp", 1), ("fc3d", 3, -0.1)])
    with pytest.raises(ValueError, match="blocks\\[0\\].kind"):
        nsdyn.gmp(W, np.ones(4), [("joint", 4)])
    with pytest.raises(ValueError, match="needs its mu"):
        nsdyn.gmp(W, np.ones(4), [("lcp", 1), ("fc3d", 3)])
    with pytest.raises(ValueError, match="q"):
        nsdyn.gmp(W, [1.0, float("nan"), 1.0, 1.0], [("equality", 4)])
    with pytest.raises(nsdyn.BadInputError, match="mu\\[1\\]"):
        bad = os.path.join(DATA, "GMP5.dat")
        text = open(bad).read().replace("3.000000e-02", "-3.000000e-02")
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "nsdyn_bad_gmp.dat")
        with open(path, "w") as f:
            f.write(text)
        nsdyn.read_problem(path)
    with pytest.raises(TypeError):
        nsdyn.gmp_blocks(42)
