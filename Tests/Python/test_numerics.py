"""Numerics bindings: problems from arrays, sparse matrices and files; solve; tables; errors."""
import numpy as np
import pytest

import nsdyn

M2 = np.array([[2.0, 1.0], [1.0, 2.0]])
Q2 = np.array([-5.0, -6.0])


def test_lcp_lemke_dense():
    z, w, rep = nsdyn.solve(nsdyn.lcp(M2, Q2), "lemke")
    assert rep.converged and rep.status == "converged" and bool(rep)
    np.testing.assert_allclose(z, [4 / 3, 7 / 3], atol=1e-12)
    np.testing.assert_allclose(w, M2 @ z + Q2, atol=1e-12)
    assert rep.solver.startswith("lemke") and rep.iterations > 0 and rep.seconds >= 0.0


def test_solution_names_and_report_fields():
    sol = nsdyn.solve(nsdyn.lcp(M2, Q2))  # auto
    assert sol.report.converged and sol.report.solver.startswith("auto")
    np.testing.assert_allclose(sol.z, sol.x)
    np.testing.assert_allclose(sol.w, sol.y)
    assert "auto" in repr(sol.report) or "lemke" in repr(sol.report)


def test_every_lcp_solver_of_the_table():
    pb = nsdyn.lcp(M2, Q2)
    names = [s["name"] for s in nsdyn.solvers("lcp")]
    assert "lemke" in names and "auto" in names
    for name in names:
        z, w, rep = nsdyn.solve(pb, name, tolerance=1e-10, max_iterations=2000)
        assert rep.converged, (name, rep.message)
        np.testing.assert_allclose(z, [4 / 3, 7 / 3], atol=1e-6)


def test_history_of_an_iterative_solver():
    n = 20
    A = np.random.default_rng(1).standard_normal((n, n))
    M = A @ A.T + n * np.eye(n)
    q = -np.ones(n)
    z, w, rep = nsdyn.solve(nsdyn.lcp(M, q), "nlgs", tolerance=1e-12)
    assert rep.converged
    assert len(rep.history) == rep.iterations > 1
    assert rep.history[-1] <= 1e-12 < rep.history[0]
    _, _, rep0 = nsdyn.solve(nsdyn.lcp(M, q), "nlgs", tolerance=1e-12, history=0)
    assert len(rep0.history) == 0


class FakeCsc:
    """Any object with indptr/indices/data/shape is read as CSC."""

    def __init__(self, dense):
        cols = []
        self.shape = dense.shape
        self.indptr, self.indices, self.data = [0], [], []
        for j in range(dense.shape[1]):
            for i in range(dense.shape[0]):
                if dense[i, j] != 0:
                    self.indices.append(i)
                    self.data.append(dense[i, j])
            self.indptr.append(len(self.indices))
        del cols


def test_sparse_inputs():
    z_dense = nsdyn.solve(nsdyn.lcp(M2, Q2), "lemke").z
    z_fake = nsdyn.solve(nsdyn.lcp(FakeCsc(M2), Q2), "lemke").z
    np.testing.assert_allclose(z_fake, z_dense, atol=1e-12)
    sp = pytest.importorskip("scipy.sparse")
    for mat in (sp.csc_matrix(M2), sp.csr_matrix(M2), sp.coo_matrix(M2)):
        z = nsdyn.solve(nsdyn.lcp(mat, Q2), "lemke").z
        np.testing.assert_allclose(z, z_dense, atol=1e-12)
    np.testing.assert_allclose(nsdyn.lcp(sp.csr_matrix(M2), Q2).M, M2)


def test_fc3d_one_contact_and_options_by_keyword():
    M = np.eye(3)
    q = np.array([-1.0, 0.5, 0.0])
    pb = nsdyn.fc(M, q, [0.3])
    assert pb.kind == "fc3d" and pb.size == 3 and pb.contacts == 1
    r, u, rep = nsdyn.solve(pb, "nsgs", tolerance=1e-12, nsgs__local_tolerance=1e-14)
    assert rep.converged, rep.message
    assert r[0] > 0 and np.hypot(r[1], r[2]) <= 0.3 * r[0] + 1e-12
    assert pb.error(r) <= 1e-10


def test_option_the_solver_does_not_read_raises():
    pb = nsdyn.lcp(M2, Q2)
    with pytest.raises(nsdyn.BadInputError, match="nsgs.local_tolerance"):
        nsdyn.solve(pb, "lemke", nsgs__local_tolerance=1e-12)
    with pytest.raises(nsdyn.BadInputError, match="no_such_option"):
        nsdyn.solve(pb, "lemke", no_such_option=1)
    with pytest.raises(nsdyn.BadInputError, match="tolerance"):
        nsdyn.solve(pb, "lemke", tolerance=-1.0)
    with pytest.raises(ValueError):  # BadInputError is a ValueError
        nsdyn.solve(pb, "no_such_solver")


def test_tables():
    opts = nsdyn.options()
    names = {o["name"] for o in opts}
    assert {"tolerance", "max_iterations", "nsgs.local_tolerance"} <= names
    local = nsdyn.option_doc("nsgs__local_tolerance")
    assert local["keyword"] == "nsgs__local_tolerance" and local["doc"]
    solvers = nsdyn.solvers()
    assert {s["kind"] for s in solvers} >= {"lcp", "mlcp", "fc3d"}
    nsgs = [s for s in nsdyn.solvers("fc3d") if s["name"] == "nsgs"][0]
    assert "nsgs.local_tolerance" in nsgs["options"] and nsgs["description"]
    with pytest.raises(ValueError, match="kind"):
        nsdyn.solvers("nope")


def test_mlcp_forms():
    M = np.array([[2.0, 1.0], [1.0, 2.0]])
    q = np.array([-1.0, 1.0])
    for pb in (nsdyn.mlcp(M, q, n_eq=1), nsdyn.mlcp(M, q, is_comp=[0, 1]),
               nsdyn.mlcp(M, q, lb=[-np.inf, 0.0], ub=[np.inf, np.inf])):
        z, w, rep = nsdyn.solve(pb, "auto", tolerance=1e-12)
        assert rep.converged, rep.message
        np.testing.assert_allclose(w[0], 0.0, atol=1e-9)
        assert z[1] >= -1e-12 and w[1] >= -1e-9 and abs(z[1] * w[1]) < 1e-9
    with pytest.raises(ValueError, match="exactly one"):
        nsdyn.mlcp(M, q)


def test_gfc_builds():
    pb = nsdyn.gfc(np.eye(3), np.eye(3), [0.0, 0.0, -1.0], [0.0, 0.0, 0.0], [0.5])
    assert pb.kind == "gfc3d" and pb.contacts == 1


def test_files(shared, tmp_path):
    pb = nsdyn.read_problem(str(shared / "data" / "lcp" / "lcp_CPS_1.dat"))
    assert pb.kind == "lcp"
    sol = nsdyn.solve(pb)
    assert sol.report.converged
    out = tmp_path / "copy.dat"
    pb.write(str(out))
    pb2 = nsdyn.read_problem(str(out), "lcp")
    np.testing.assert_array_equal(pb2.M, pb.M)
    fc = nsdyn.read_problem(str(shared / "data" / "fc3d" / "Capsules-i125-1213.hdf5"))
    assert fc.kind == "fc3d" and fc.contacts > 0
    fc.write(str(tmp_path / "copy.hdf5"))
    assert nsdyn.read_problem(str(tmp_path / "copy.hdf5")).contacts == fc.contacts
    with pytest.raises(nsdyn.BadInputError):
        nsdyn.read_problem(str(tmp_path / "missing.dat"))
    bad = tmp_path / "bad.dat"
    bad.write_text("2 2\n1 2 x\n")
    with pytest.raises(nsdyn.BadInputError, match="bad.dat"):
        nsdyn.read_problem(str(bad), "lcp")


def test_anderson_by_keyword(shared):
    # the Anderson-accelerated sweeps (nsgs.anderson) on a shared Siconos problem: the
    # same tolerance in a fifth of the sweeps at most (C: 456 against 8,322)
    fc = nsdyn.read_problem(str(shared / "data" / "fc3d" / "Capsules-i101-404.dat"))
    plain = nsdyn.solve(fc, "nsgs", tolerance=1e-8, max_iterations=100000)
    fast = nsdyn.solve(fc, "nsgs", tolerance=1e-8, max_iterations=100000, nsgs__anderson=5)
    assert plain.report.converged and fast.report.converged, fast.report.message
    assert 5 * fast.report.iterations < plain.report.iterations
    assert fc.error(fast.r) <= 1e-8
    with pytest.raises(nsdyn.BadInputError, match="anderson"):
        nsdyn.solve(fc, "nsgs", nsgs__anderson=65)
    with pytest.raises(nsdyn.BadInputError, match="anderson"):
        nsdyn.solve(fc, "apgd", nsgs__anderson=5)


@pytest.mark.parametrize("M,q,exc,words", [
    (np.eye(3), Q2, ValueError, ["M", "(2, 2)", "(3, 3)"]),
    (M2, np.zeros((2, 2)), ValueError, ["q", "shape"]),
    (M2, np.array([1.0, np.nan]), ValueError, ["q", "finite"]),
    (np.array([[1.0, np.inf], [0.0, 1.0]]), Q2, ValueError, ["M", "finite"]),
    (M2.astype(complex), Q2, TypeError, ["M", "complex"]),
    (np.eye(4)[::2, ::2], Q2, ValueError, ["M", "contiguous"]),
    (M2, np.array(["a", "b"]), TypeError, ["q"]),
    ("not a matrix", Q2, TypeError, ["M", "str"]),
    (M2, None, TypeError, ["q", "None"]),
])
def test_bad_input_names_the_argument(M, q, exc, words):
    with pytest.raises(exc) as info:
        nsdyn.lcp(M, q)
    for w in words:
        assert w in str(info.value), (w, str(info.value))


def test_solve_checks_its_arguments():
    pb = nsdyn.lcp(M2, Q2)
    with pytest.raises(TypeError, match="problem"):
        nsdyn.solve(M2)
    with pytest.raises(ValueError, match="x0"):
        nsdyn.solve(pb, "lemke", x0=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="mu"):
        nsdyn.fc(np.eye(6), np.zeros(6), [0.5])
    with pytest.raises(ValueError, match="dim"):
        nsdyn.fc(np.eye(3), np.zeros(3), [0.5], dim=4)


def test_warm_start_from_the_solution():
    pb = nsdyn.lcp(M2, Q2)
    z = nsdyn.solve(pb, "nlgs", tolerance=1e-12).z
    rep = nsdyn.solve(pb, "nlgs", tolerance=1e-12, x0=z).report
    assert rep.converged and rep.iterations <= 2
