"""Rolling friction contact from Python: nsdyn.rfc from arrays, the kept files, both solvers."""
import os

import numpy as np
import pytest

import nsdyn

DATA = os.path.join(os.environ.get("NSDYN_SOURCE_DIR", ""), "Tests", "Numerics", "rfc", "data")


@pytest.mark.parametrize("solver", ["nsgs", "pg"])
def test_sphere_rolls_against_its_rolling_velocity(solver):
    # decoupled rows: r_N = 2, the rolling demand 5 / 5 exceeds mu_r r_N = 0.1: it rolls
    W = np.diag([2.0, 3.5, 3.5, 5.0, 5.0])
    q = np.array([-4.0, 0.5, -0.2, 3.0, -4.0])
    pb = nsdyn.rfc(W, q, [0.6], [0.05])
    assert pb.kind == "rfc3d" and pb.size == 5
    r, u, rep = nsdyn.solve(pb, solver, tolerance=1e-12)
    assert rep.converged and rep.solver == solver
    np.testing.assert_allclose(r, [2.0, -0.5 / 3.5, 0.2 / 3.5, -0.06, 0.08], atol=1e-9)
    np.testing.assert_allclose(u, W @ r + q, atol=1e-12)
    assert pb.error(r) <= 1e-12


def test_files_read_and_solved():
    for name, kind in [("rfc3d_sphere_pile_12.dat", "rfc3d"), ("rfc2d_disks_5.dat", "rfc2d")]:
        pb = nsdyn.read_problem(os.path.join(DATA, name))
        assert pb.kind == kind
        r, u, rep = nsdyn.solve(pb)  # the default: nsgs
        assert rep.converged and rep.solver == "nsgs" and pb.error(r) <= 1e-8
    assert len(nsdyn.rfc_mu_r(pb)) == 5
    assert {s["name"] for s in nsdyn.solvers("rfc3d")} == {"nsgs", "pg"}


def test_bad_input_and_projection():
    with pytest.raises(ValueError, match=r"mu_r\[0\] = -0.1"):
        nsdyn.rfc(np.eye(5), np.zeros(5), [0.5], [-0.1])
    with pytest.raises(ValueError, match="dim: expected 5"):
        nsdyn.rfc(np.eye(4), np.zeros(4), [0.5], [0.1], dim=4)
    p = nsdyn.rfc_project([1.0, 0.0, 2.0, 3.0, 0.0], 0.5, 0.2)
    t = 2.6 / 1.29
    np.testing.assert_allclose(p, [t, 0.0, 0.5 * t, 0.2 * t, 0.0], atol=1e-15)
