"""Global friction contact from Python: nsdyn.solve on gfc problems (nsgs_wr), the velocity,
the Siconos GFC error and the reduced problem."""

import os

import numpy as np
import pytest

import nsdyn

DATA = os.path.join(os.environ.get("NSDYN_SHARED_DIR", ""), "data", "gfc")


@pytest.mark.parametrize("name", ["GFC3D_TwoRods1.dat", "Box_Stacks-i0122-82-5.hdf5",
                                  "gfc2d_granularflowonwall_00069_00350.dat"])
def test_shared_files_solved(name):
    pb = nsdyn.read_problem(os.path.join(DATA, name))
    assert pb.kind in ("gfc2d", "gfc3d")
    assert "nsgs_wr" in {s["name"] for s in nsdyn.solvers(pb.kind)}
    sol = nsdyn.solve(pb, tolerance=1e-8)  # "auto": nsgs_wr first
    assert sol.report.converged and sol.report.solver == "auto:nsgs_wr"
    assert sol.report.residual <= 1e-8
    v = nsdyn.gfc_velocity(pb, sol.r)
    assert nsdyn.gfc_error(pb, sol.r, v) == pytest.approx(sol.report.residual, abs=1e-14)
    assert pb.error(sol.r) <= 1e-8


def test_hand_computed_error_and_reduction():
    # M = H = I, mu = 0.5, q = (-1, 1, 0): r = 0 has error sqrt(0.4) (formats/README.md §3)
    pb = nsdyn.gfc(np.eye(3), np.eye(3), [-1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.5])
    v = nsdyn.gfc_velocity(pb, np.zeros(3))
    assert np.allclose(v, [-1.0, 1.0, 0.0])
    assert nsdyn.gfc_error(pb, np.zeros(3), v) == pytest.approx(np.sqrt(0.4), abs=1e-15)
    local = nsdyn.gfc_reduce(pb)
    assert local.kind == "fc3d" and local.contacts == 1
    sol = nsdyn.solve(pb, solver="nsgs_wr", tolerance=1e-12)
    assert np.allclose(sol.r, [1.0, -0.5, 0.0], atol=1e-10)


def test_singular_mass_refused():
    M = np.diag([1.0, 1.0, 0.0])
    pb = nsdyn.gfc(M, np.eye(3), [-1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.3])
    with pytest.raises(nsdyn.BadInputError, match="needs M invertible"):
        nsdyn.solve(pb, solver="nsgs_wr")
    with pytest.raises(nsdyn.BadInputError, match=r"M \(3 x 3\)"):
        nsdyn.gfc_velocity(pb, np.zeros(3))
    with pytest.raises(ValueError, match="expected a gfc2d or gfc3d problem"):
        nsdyn.gfc_velocity(nsdyn.read_problem(os.path.join(DATA, "..", "lcp", "lcp_CPS_1.dat")),
                           np.zeros(3))
