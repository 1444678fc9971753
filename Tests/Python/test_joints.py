"""Joints of rigid bodies (NewtonEulerDS): KneeJointR, PivotJointR, PrismaticJointR, FixedJointR
with EqualityConditionNSL, Moreau-Jean with Newton iterations and the MLCP."""
import math
import subprocess

import numpy as np
import pytest

import nsdyn
from conftest import BIN


def simulate(body, joint, steps, h=0.01, theta=1.0, solver="enum", record=None):
    """A body held by a joint: Moreau-Jean (theta) with Newton iterations, MLCP, as
    Examples/common/body_run (makeMoreauJeanNewton)."""
    inter = nsdyn.Interaction(nsdyn.EqualityConditionNSL(joint.rows()), joint)
    model = nsdyn.Model(0.0, steps * h)
    model.nonSmoothDynamicalSystem().insertDynamicalSystem(body)
    model.nonSmoothDynamicalSystem().link(inter, body)
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, h), nsdyn.MoreauJeanOSI(theta), nsdyn.MLCP(solver))
    sim.setNewtonTolerance(1e-6)
    sim.setNewtonMaxIteration(50)
    model.initialize(sim)
    rows = []
    for _ in range(steps):
        sim.computeOneStep()
        if record:
            rows.append(record(sim.nextTime(), inter))
        sim.nextStep()
    return np.array(rows), inter


def knee_body():
    s2 = math.sqrt(2.0)
    q0 = [0.5 / s2, 0.0, -0.5 / s2, math.cos(math.pi / 8.0), 0.0, math.sin(math.pi / 8.0), 0.0]
    body = nsdyn.NewtonEulerDS(q0, [100.0, 0.0, 0.0, 0.0, 0.0, 0.0], 1.0,
                               [[0.1, 0.1, 0.0], [0.1, 1.0, 0.0], [0.0, 0.0, 1.0]])
    body.setFExt([0.0, 0.0, -9.81])
    return body


def test_knee_joint_equals_the_cpp_example(tmp_path):
    """Examples/NE_1DS_1Knee_MLCP in Python: a body on a ball joint at the world origin."""
    exe = BIN / "NE_1DS_1Knee_MLCP"
    if not exe.exists():
        pytest.skip("%s not built" % exe)
    body = knee_body()
    knee = nsdyn.KneeJointR([0.0, 0.0, 0.0], True, body)
    assert knee.rows() == 3 and knee.bodyCount() == 1 and knee.body1() is body and knee.body2() is None
    np.testing.assert_allclose(knee.computeh(body.q()), 0.0, atol=1e-15)

    def row(t, inter):
        return [t, *body.q(), np.linalg.norm(inter.y(0)), np.linalg.norm(inter.y(1))]

    rows, _ = simulate(body, knee, 1000, record=row)
    subprocess.run([str(exe), "--output", str(tmp_path), "--no-plot", "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    columns, cpp = nsdyn.load_results_csv(tmp_path / "NE_1DS_1Knee_MLCP.csv")
    assert columns[:10] == ["t", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "norm_y0", "norm_y1"]
    assert cpp.shape == (1000, 22) and rows.shape == (1000, 10)
    np.testing.assert_array_equal(cpp[:, 10:], 0.0)
    # t and q: the same doubles (same operations); the norms of y (NumPy's here) to round-off
    np.testing.assert_array_equal(cpp[:, :8], rows[:, :8])
    assert np.max(np.abs(cpp[:, 8:10] - rows[:, 8:10])) < 1e-14


def body_at(x, y, z):
    body = nsdyn.NewtonEulerDS([x, y, z, 1.0, 0.0, 0.0, 0.0], [0.0] * 6, 1.0, [1.0, 1.0, 1.0])
    body.setFExt([0.0, 0.0, -9.81])
    return body


def test_fixed_joint_holds_the_body():
    body = body_at(1.0, 2.0, 3.0)
    joint = nsdyn.FixedJointR(body)
    assert joint.rows() == 6 and joint.className() == "FixedJointR"
    simulate(body, joint, 100)
    np.testing.assert_allclose(body.q(), [1.0, 2.0, 3.0, 1.0, 0.0, 0.0, 0.0], atol=1e-6)


def test_prismatic_joint_lets_the_body_fall_along_its_axis():
    body = body_at(1.0, 2.0, 3.0)
    joint = nsdyn.PrismaticJointR([0.0, 0.0, 1.0], True, body)
    assert joint.rows() == 5
    np.testing.assert_allclose(joint.axis(), [0.0, 0.0, 1.0])
    simulate(body, joint, 100)
    q = body.q()
    np.testing.assert_allclose(q[:2], [1.0, 2.0], atol=1e-6)
    np.testing.assert_allclose(q[3:], [1.0, 0.0, 0.0, 0.0], atol=1e-6)
    # free fall along z, implicit Euler (theta = 1): z_N = z_0 - g h^2 N (N + 1) / 2
    assert q[2] == pytest.approx(3.0 - 9.81 * 0.01**2 * 100 * 101 / 2, abs=1e-9)


def test_pivot_joint_pendulum_stays_in_its_plane():
    # a body at (1, 0, 0) hinged at the origin about the world y axis: a pendulum in the x-z plane
    body = body_at(1.0, 0.0, 0.0)
    joint = nsdyn.PivotJointR([0.0, 0.0, 0.0], [0.0, 1.0, 0.0], True, body)
    assert joint.rows() == 5
    np.testing.assert_allclose(joint.absolutePoint(), [0.0, 0.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(joint.worldAxis(body.q()), [0.0, 1.0, 0.0], atol=1e-15)
    simulate(body, joint, 50)
    q = body.q()
    assert abs(q[1]) < 1e-6 and q[2] < -0.1
    # the joint holds the velocities (H v = 0): the position drifts a little, as for the knee
    assert np.linalg.norm(q[:3]) == pytest.approx(1.0, abs=1e-2)


def test_two_body_joint_and_errors():
    a, b = body_at(0.0, 0.0, 0.0), body_at(1.0, 0.0, 0.0)
    knee = nsdyn.KneeJointR([0.5, 0.0, 0.0], True, a, b)
    assert knee.bodyCount() == 2 and knee.body2() is b
    np.testing.assert_allclose(knee.computeh(np.concatenate([a.q(), b.q()])), 0.0, atol=1e-15)
    assert knee.jachq(np.concatenate([a.q(), b.q()])).shape == (3, 14)
    with pytest.raises(nsdyn.Error):
        nsdyn.FixedJointR(a, a)
    with pytest.raises(TypeError, match="d1"):
        nsdyn.FixedJointR("a body")
    with pytest.raises(ValueError, match="P"):
        nsdyn.KneeJointR([0.0, 0.0], True, a)
    with pytest.raises(nsdyn.Error):
        nsdyn.PrismaticJointR([0.0, 0.0, 0.0], True, a)
    # a joint keeps its bodies weakly (as the Kernel does): the model keeps them alive
    rel = nsdyn.NewtonEulerR([[0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]], [2.3])
    np.testing.assert_allclose(rel.computeh(a.q()), [2.3])
