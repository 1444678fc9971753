"""First-order systems and relations (the electrical door, Siconos names): FirstOrderLinearDS /
FirstOrderLinearTIDS, FirstOrderLinearR / FirstOrderLinearTIR, the complementarity, relay,
equality and mixed laws, EulerMoreauOSI with the LCP, Relay and MLCP one-step problems."""
import math
import subprocess

import numpy as np
import pytest

import nsdyn
from conftest import BIN


def diode_bridge():
    """Examples/DiodeBridge/DiodeBridge.cpp in Python: the same model, the same CSV rows."""
    L, C, R = 1e-2, 1e-6, 1e3
    t0, T, h, theta = 0.0, 5e-3, 1.0e-6, 0.5
    Vinit = 10.0
    N = math.ceil((T - t0) / h)

    lc = nsdyn.FirstOrderLinearTIDS([Vinit, 0.0], [[0.0, -1.0 / C], [1.0 / L, 0.0]])
    Cr = np.zeros((4, 2))
    Cr[2, 0] = -1.0
    Cr[3, 0] = 1.0
    D = [[1.0 / R, 1.0 / R, -1.0, 0.0],
         [1.0 / R, 1.0 / R, 0.0, -1.0],
         [1.0, 0.0, 0.0, 0.0],
         [0.0, 1.0, 0.0, 0.0]]
    B = np.zeros((2, 4))
    B[0, 2] = -1.0 / C
    B[0, 3] = 1.0 / C
    relation = nsdyn.FirstOrderLinearTIR(Cr, B)
    relation.setDPtr(D)  # the Siconos way; FirstOrderLinearTIR(Cr, B, D=D) is the same
    bridge = nsdyn.Interaction(nsdyn.ComplementarityConditionNSL(4), relation)

    model = nsdyn.Model(t0, T)
    model.nonSmoothDynamicalSystem().insertDynamicalSystem(lc)
    model.nonSmoothDynamicalSystem().link(bridge, lc)
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(t0, h), nsdyn.EulerMoreauOSI(theta), nsdyn.LCP("lemke"))
    model.initialize(sim)

    x = lc.x()
    rows = [[t0, x[0], x[1], 0.0, 0.0, 0.0, 0.0, 0.0]]
    for _ in range(1, N):
        sim.computeOneStep()
        y, lam, x = bridge.y(0), bridge.lambda_(0), lc.x()
        rows.append([sim.nextTime(), x[0], x[1], y[0], -lam[0], -lam[1], lam[2], y[0] + lam[2]])
        sim.nextStep()
    return np.array(rows)


@pytest.fixture(scope="module")
def bridge_rows():
    return diode_bridge()


def test_diode_bridge_equals_the_cpp_example(bridge_rows, tmp_path):
    exe = BIN / "DiodeBridge"
    if not exe.exists():
        pytest.skip("%s not built" % exe)
    subprocess.run([str(exe), "--output", str(tmp_path), "--no-plot", "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    columns, cpp = nsdyn.load_results_csv(tmp_path / "DiodeBridge.csv")
    assert columns == ["t", "V_C", "I_L", "I_R1", "V_R1", "V_F2", "I_F1", "I_resistor"]
    assert cpp.shape == bridge_rows.shape == (5000, 8)
    # the same operations in the same order: equal to round-off, column by column
    scale = np.maximum(np.max(np.abs(cpp), axis=0), 1e-300)
    assert np.max(np.abs(cpp - bridge_rows) / scale) < 1e-12


def test_diode_bridge_physics(bridge_rows):
    t, vc, il, i_res = bridge_rows[:, 0], bridge_rows[:, 1], bridge_rows[:, 2], bridge_rows[:, 7]
    assert t[-1] == pytest.approx(4.999e-3)
    # the bridge rectifies: the resistor current never goes negative; the LC energy decays
    assert np.min(i_res) > -1e-12 and np.max(i_res) > 1e-4
    energy = 0.5 * 1e-6 * vc**2 + 0.5 * 1e-2 * il**2
    assert energy[-1] < energy[0] and np.all(np.diff(energy) < 1e-12)


def test_first_order_classes():
    ds = nsdyn.FirstOrderLinearDS([1.0, 2.0], lambda t: [[0.0, t], [0.0, 0.0]], b=lambda t: [t, 0.0])
    assert ds.className() == "FirstOrderLinearDS" and ds.dimension() == 2 and ds.hasb()
    np.testing.assert_array_equal(ds.A(3.0), [[0.0, 3.0], [0.0, 0.0]])
    np.testing.assert_array_equal(ds.b(2.0), [2.0, 0.0])
    np.testing.assert_array_equal(ds.x(), [1.0, 2.0])
    ds.setX([3.0, 4.0])
    np.testing.assert_array_equal(ds.x(), [3.0, 4.0])
    ti = nsdyn.FirstOrderLinearTIDS([0.0], [[-1.0]], [2.0])
    assert isinstance(ti, nsdyn.FirstOrderLinearDS) and ti.className() == "FirstOrderLinearTIDS"
    with pytest.raises(ValueError, match="A"):
        nsdyn.FirstOrderLinearTIDS([0.0, 0.0], [[1.0]])

    r = nsdyn.FirstOrderLinearTIR([[1.0, 0.0]], [[0.0], [1.0]], D=[[2.0]], e=[0.5])
    assert r.className() == "FirstOrderLinearTIR" and r.hasD() and r.hasE() and r.isTimeInvariant()
    np.testing.assert_array_equal(r.D(), [[2.0]])
    np.testing.assert_array_equal(r.e(), [0.5])
    rt = nsdyn.FirstOrderLinearR(lambda t: [[t, 0.0]], lambda t: [[0.0], [1.0]], e=lambda t: [t])
    assert not rt.isTimeInvariant()
    np.testing.assert_array_equal(rt.C(2.0), [[2.0, 0.0]])
    np.testing.assert_array_equal(rt.e(3.0), [3.0])
    with pytest.raises(TypeError):
        nsdyn.FirstOrderLinearR(lambda t: [[t]], [[1.0]])

    assert nsdyn.ComplementarityConditionNSL(4).size() == 4
    assert nsdyn.EqualityConditionNSL(3).className() == "EqualityConditionNSL"
    mixed = nsdyn.MixedComplementarityConditionNSL(2, 3)
    assert (mixed.size(), mixed.equalitySize(), mixed.complementaritySize()) == (5, 2, 3)
    relay = nsdyn.RelayNSL(1, lb=-2.0, ub=3.0)
    assert (relay.lb(), relay.ub()) == (-2.0, 3.0)
    with pytest.raises(ValueError):
        nsdyn.RelayNSL(1, lb=1.0, ub=-1.0)
    assert nsdyn.Relay().className() == "Relay"
    with pytest.raises(nsdyn.BadInputError):
        nsdyn.Relay("no-such-solver")


def run_first_order(law, problem, x0=1.0, T=2.0, h=0.01):
    """x' = lambda, y = x: a scalar system held by `law` through `problem`."""
    ds = nsdyn.FirstOrderLinearTIDS([x0], [[0.0]])
    inter = nsdyn.Interaction(law, nsdyn.FirstOrderLinearTIR([[1.0]], [[1.0]]))
    model = nsdyn.Model(0.0, T)
    model.nonSmoothDynamicalSystem().insertDynamicalSystem(ds)
    model.nonSmoothDynamicalSystem().link(inter, ds)
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, h), nsdyn.EulerMoreauOSI(0.5), problem)
    model.initialize(sim)
    xs = [ds.x()[0]]
    while sim.hasNextEvent():
        sim.computeOneStep()
        xs.append(ds.x()[0])
        sim.nextStep()
    return np.array(xs), inter


def test_relay_sliding_mode():
    # -x in N_[-1,1](lambda), x' = lambda: x decreases at unit rate, reaches 0 at t = 1 and stays
    xs, inter = run_first_order(nsdyn.RelayNSL(1), nsdyn.Relay())
    assert xs[50] == pytest.approx(0.5, abs=1e-9)
    assert np.max(np.abs(xs[110:])) < 1e-9
    assert -1.0 <= inter.lambda_(0)[0] <= 1.0


def test_mlcp_equality_and_complementarity():
    # equality: x = 0 from the first step on
    xs, _ = run_first_order(nsdyn.EqualityConditionNSL(1), nsdyn.MLCP())
    assert np.max(np.abs(xs[1:])) < 1e-9
    # complementarity x >= 0 from x0 = -1: pushed up to 0 at once, then stays there
    xs, inter = run_first_order(nsdyn.MixedComplementarityConditionNSL(0, 1), nsdyn.MLCP(), x0=-1.0)
    assert np.min(xs[1:]) > -1e-9 and np.max(xs[1:]) < 1e-9
    assert inter.lambda_(0)[0] >= 0.0
