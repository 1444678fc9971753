"""Kernel bindings: modelling classes, simulations, BouncingBallTS equal to the C++ run."""
import importlib.util
import os
import subprocess

import numpy as np
import pytest

import nsdyn
from conftest import BIN, SOURCE


def load_example(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def bouncing_ball():
    mod = load_example(SOURCE / "Examples" / "BouncingBallTS" / "BouncingBallTS.py", "BouncingBallTS_py")
    return mod.simulate()


def test_bouncing_ball_matches_the_reference(bouncing_ball, shared):
    ref = np.loadtxt(shared / "reference" / "BouncingBallTS.ref", skiprows=1)
    assert bouncing_ball.shape == ref.shape == (2001, 5)
    # columns t, z, zdot, p_z, lambda: the reference to round-off
    assert np.max(np.abs(bouncing_ball - ref)) < 1e-11


def test_bouncing_ball_equals_the_cpp_example(bouncing_ball, tmp_path):
    exe = BIN / "BouncingBallTS"
    if not exe.exists():
        pytest.skip("%s not built" % exe)
    subprocess.run([str(exe), "--output", str(tmp_path), "--no-plot", "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    cpp = np.loadtxt(tmp_path / "BouncingBallTS.csv", delimiter=",", skiprows=1)
    assert cpp.shape == bouncing_ball.shape
    assert np.max(np.abs(cpp - bouncing_ball)) <= 1e-13


def make_ball(e=0.9, h=0.005, T=1.0):
    ball = nsdyn.LagrangianLinearTIDS([1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 0.004])
    ball.setFExt([-9.81, 0.0, 0.0])
    inter = nsdyn.Interaction(nsdyn.NewtonImpactNSL(e), nsdyn.LagrangianLinearTIR([1.0, 0.0, 0.0]))
    model = nsdyn.Model(0.0, T)
    model.nonSmoothDynamicalSystem().insertDynamicalSystem(ball)
    model.nonSmoothDynamicalSystem().link(inter, ball)
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, h), nsdyn.MoreauJeanOSI(0.5), nsdyn.LCP())
    model.initialize(sim)
    return model, sim, ball, inter


def test_accessors_and_run():
    model, sim, ball, inter = make_ball(T=1.0)
    nsds = model.nonSmoothDynamicalSystem()
    assert nsds.numberOfDynamicalSystems() == 1 and nsds.numberOfInteractions() == 1
    assert ball.className() == "LagrangianLinearTIDS" and ball.dimension() == 3
    np.testing.assert_array_equal(ball.mass(), np.diag([1.0, 1.0, 0.004]))
    np.testing.assert_array_equal(ball.q0(), [1.0, 0.0, 0.0])
    assert sim.run(steps=10) == 10
    assert abs(sim.startingTime() - 0.05) < 1e-15
    done = sim.run()
    assert done == 190 and not sim.hasNextEvent()
    st = sim.lastStatistics()
    assert set(st) >= {"iterations", "residual", "status", "solver"}
    q = ball.q()
    q[0] = 123.0  # a copy: the state is unchanged
    assert ball.q()[0] != 123.0
    assert inter.y(0).shape == (1,) and inter.lambda_(1).shape == (1,)
    with pytest.raises(ValueError, match="level"):
        inter.y(3)


def test_set_state_checks_shape():
    _, _, ball, _ = make_ball()
    ball.setQ([0.5, 0.0, 0.0])
    assert ball.q()[0] == 0.5
    with pytest.raises(ValueError, match=r"q: expected shape \(3,\)"):
        ball.setQ([1.0, 2.0])


def test_python_force_callables():
    calls = []

    def fext(t):
        calls.append(t)
        return np.array([-9.81, 0.0])

    ds = nsdyn.LagrangianDS([1.0, 0.0], [0.0, 0.0], np.eye(2))
    ds.setFExt(fext)
    ds.setFInt(lambda q, v, t: 10.0 * q)
    ds.setJacobianFIntq(lambda q, v, t: 10.0 * np.eye(2))
    ds.setJacobianFIntv(lambda q, v, t: np.zeros((2, 2)))
    model = nsdyn.Model(0.0, 0.1)
    model.nonSmoothDynamicalSystem().insertDynamicalSystem(ds)
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, 0.01), nsdyn.MoreauJeanOSI(0.5), nsdyn.LCP())
    model.initialize(sim)
    sim.run()
    assert len(calls) > 0 and ds.q()[0] < 1.0


def test_callback_that_raises_or_returns_a_bad_shape():
    def bad(t):
        raise RuntimeError("force exploded")

    for fext, exc, msg in ((bad, RuntimeError, "force exploded"),
                           (lambda t: [1.0, 2.0, 3.0], ValueError, "fExt"),
                           (lambda t: "x", TypeError, "fExt")):
        ds = nsdyn.LagrangianDS([1.0, 0.0], [0.0, 0.0], np.eye(2))
        ds.setFExt(fext)
        model = nsdyn.Model(0.0, 0.1)
        model.nonSmoothDynamicalSystem().insertDynamicalSystem(ds)
        sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, 0.01), nsdyn.MoreauJeanOSI(0.5), nsdyn.LCP())
        with pytest.raises(exc, match=msg):
            model.initialize(sim)
            sim.run()


def test_bad_input_to_constructors():
    with pytest.raises(ValueError, match="v0"):
        nsdyn.LagrangianLinearTIDS([1.0, 0.0], [0.0], np.eye(2))
    with pytest.raises(ValueError, match="mass"):
        nsdyn.LagrangianLinearTIDS([1.0, 0.0], [0.0, 0.0], np.eye(3))
    with pytest.raises(ValueError, match="q0"):
        nsdyn.LagrangianLinearTIDS([1.0, np.nan], [0.0, 0.0], np.eye(2))
    with pytest.raises(TypeError):
        nsdyn.Interaction(nsdyn.LagrangianLinearTIR([1.0]), nsdyn.NewtonImpactNSL(0.5))  # wrong classes
    with pytest.raises(TypeError):
        nsdyn.Model(0.0, 1.0).nonSmoothDynamicalSystem().insertDynamicalSystem("ball")
    with pytest.raises(nsdyn.BadInputError, match="no_such"):
        nsdyn.LCP("no_such")
    with pytest.raises(ValueError, match="dim"):
        nsdyn.FrictionContact(4)
    lcp = nsdyn.LCP("lemke")
    with pytest.raises(nsdyn.BadInputError, match="nsgs.local_tolerance"):
        lcp.setOption("nsgs.local_tolerance", 1e-10)
    lcp.setTolerance(1e-12)
    assert lcp.option("tolerance") == 1e-12


def test_inconsistent_model_raises_kernel_error():
    ds = nsdyn.LagrangianLinearTIDS([1.0, 0.0], [0.0, 0.0], np.eye(2))
    inter = nsdyn.Interaction(nsdyn.NewtonImpactNSL(0.5), nsdyn.LagrangianLinearTIR([1.0, 0.0, 0.0]))
    model = nsdyn.Model(0.0, 1.0)
    model.nonSmoothDynamicalSystem().insertDynamicalSystem(ds)
    with pytest.raises((nsdyn.Error, ValueError)):
        model.nonSmoothDynamicalSystem().link(inter, ds)
        model.initialize(nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, 0.01), nsdyn.MoreauJeanOSI(), nsdyn.LCP()))


def test_newton_euler_and_friction_contact_classes():
    ds = nsdyn.NewtonEulerDS([0, 0, 1, 1, 0, 0, 0], [0, 0, 0, 0, 0, 1.0], 1.0, [0.1, 0.1, 0.1])
    ds.setFExt([0.0, 0.0, -9.81])
    assert ds.className() == "NewtonEulerDS" and ds.scalarMass() == 1.0
    np.testing.assert_allclose(ds.position(), [0, 0, 1])
    np.testing.assert_allclose(ds.rotationMatrix(), np.eye(3))
    with pytest.raises(ValueError, match="q0"):
        nsdyn.NewtonEulerDS([0, 0, 1], [0] * 6, 1.0, np.eye(3))
    law = nsdyn.NewtonImpactFrictionNSL(0.5, 0.0, 0.3, 3)
    assert law.mu() == 0.3 and law.size() == 3
    fc = nsdyn.FrictionContact(3, "nsgs")
    fc.setOptions(tolerance=1e-6, nsgs__local_tolerance=1e-12)
    assert fc.option("nsgs.local_tolerance") == 1e-12


def test_keyboard_interrupt_stops_between_steps():
    import signal
    model, sim, ball, inter = make_ball(T=10.0, h=1e-4)
    seen = []

    def cb():
        seen.append(sim.nextTime())
        if len(seen) == 5:
            signal.raise_signal(signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        sim.run(callback=cb)
    assert len(seen) == 5
    assert sim.currentStep() == 5  # the step was finished cleanly
    assert sim.run(steps=3) == 3  # and the simulation goes on
