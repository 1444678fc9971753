"""RollingFrictionContact from Python (issue 27): the material's rolling length, a sphere on a
tilted-gravity plane resting below atan(rolling / R) and rolling above it with the closed-form
acceleration, the rolling reactions in ContactManager.contacts(), rolling = 0 equal to
FrictionContact(3), bad input."""
import math

import numpy as np
import pytest

import nsdyn

G = 9.81


def sphere_on_tilted_plane(theta_deg, rolling, T=0.3, h=1e-3, problem=None, r=0.1):
    """A sphere (radius r, 1 kg) on the plane z = 0 with gravity tilted by theta about y:
    returns its velocity (6) after T and the manager."""
    theta = math.radians(theta_deg)
    model = nsdyn.Model(0.0, T)
    nsds = model.nonSmoothDynamicalSystem()
    if problem is None:
        problem = nsdyn.RollingFrictionContact()
    problem.setTolerance(1e-11)
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, h), nsdyn.MoreauJeanOSI(0.5), problem)
    contacts = nsdyn.ContactManager()
    contacts.setDefaultMaterial(1.0, 0.0, rolling=rolling)
    sim.insertInteractionManager(contacts)
    contacts.addBody(nsdyn.make_static_body(nsdyn.HalfSpaceShape()))
    b = nsdyn.make_body(nsdyn.SphereShape(r), mass=1.0, position=(0, 0, r))
    b.ds.setFExt([G * math.sin(theta), 0.0, -G * math.cos(theta)])
    contacts.addBody(b, nsds)
    model.initialize(sim)
    while sim.hasNextEvent():
        sim.computeOneStep()
        assert sim.lastStatistics()["status"] == "converged"
        sim.nextStep()
    return np.array(b.ds.velocity()), contacts


def test_rests_below_and_rolls_above_the_threshold():
    r, rolling = 0.1, 0.01
    threshold = math.degrees(math.atan(rolling / r))  # 5.71 degrees
    v, _ = sphere_on_tilted_plane(threshold - 0.5, rolling, T=0.05)
    assert np.abs(v).max() < 1e-9
    v, _ = sphere_on_tilted_plane(threshold + 0.5, rolling, T=0.05)
    assert v[0] > 1e-4


def test_rolling_acceleration_and_reactions():
    r, rolling, theta, T = 0.1, 0.01, 20.0, 0.3
    v, contacts = sphere_on_tilted_plane(theta, rolling, T=T)
    t = math.radians(theta)
    a = G * (math.sin(t) - rolling / r * math.cos(t)) / (1.0 + 2.0 / 5.0)
    assert abs(v[0] - a * T) < 1e-6 * a * T
    assert abs(v[4] * r - v[0]) < 1e-9  # no slip
    c = contacts.contacts()
    assert c["rolling"].shape == (1,) and c["rolling"][0] == rolling
    assert c["rolling_impulse"].shape == (1, 2)
    normal = c["impulse"][0, 0]
    assert abs(normal - G * math.cos(t) * 1e-3) < 1e-9 * normal
    moment = np.linalg.norm(c["rolling_impulse"][0])
    assert abs(moment - rolling * normal) < 1e-9 * moment
    # the moment opposes the relative rotation
    assert np.dot(c["rolling_impulse"][0], c["rolling_velocity"][0]) < 0.0
    # the contact work includes the rolling moment's: negative
    assert contacts.statistics()["contactWork"] < 0.0


def test_zero_rolling_equals_friction_contact():
    v1, _ = sphere_on_tilted_plane(20.0, 0.0, T=0.2)
    v2, _ = sphere_on_tilted_plane(20.0, 0.0, T=0.2, problem=nsdyn.FrictionContact(3, "nsgs"))
    np.testing.assert_allclose(v1, v2, rtol=0, atol=1e-10)
    assert abs(v1[0] - 5.0 / 7.0 * G * math.sin(math.radians(20.0)) * 0.2) < 1e-8


def test_bad_input():
    contacts = nsdyn.ContactManager()
    with pytest.raises(nsdyn.Error, match=r"rolling = -0\.5"):
        contacts.setDefaultMaterial(0.5, 0.0, rolling=-0.5)
    with pytest.raises(nsdyn.Error, match=r"groups 1 and 2.*rolling = nan"):
        contacts.setMaterial(1, 2, 0.5, 0.0, rolling=float("nan"))
    with pytest.raises(ValueError, match="no rfc3d solver 'lemke'"):
        nsdyn.RollingFrictionContact("lemke")
    # a rolling material with FrictionContact is refused at initialize
    with pytest.raises(nsdyn.Error, match="RollingFrictionContact"):
        sphere_on_tilted_plane(10.0, 0.01, T=0.01, problem=nsdyn.FrictionContact(3, "nsgs"))
