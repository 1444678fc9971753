"""Mechanics bindings: shapes, bodies, generators, scenes and their arrays."""
import numpy as np
import pytest

import nsdyn


def test_shapes():
    assert nsdyn.SphereShape(0.5).radius() == 0.5
    assert abs(nsdyn.BoxShape([0.5, 0.5, 0.5]).volume() - 1.0) < 1e-14
    np.testing.assert_allclose(nsdyn.BoxShape([1, 2, 3]).halfExtents(), [1, 2, 3])
    assert nsdyn.CapsuleShape(0.1, 0.2).kindName() == "CapsuleShape"
    assert nsdyn.CylinderShape(0.1, 0.2).volume() > 0
    hull = nsdyn.ConvexHullShape(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]]))
    assert abs(hull.volume() - 1 / 6) < 1e-12
    with pytest.raises(ValueError, match="half_extents"):
        nsdyn.BoxShape([1.0, 2.0])
    with pytest.raises(ValueError, match="points"):
        nsdyn.ConvexHullShape(np.zeros((4, 2)))
    with pytest.raises((ValueError, nsdyn.Error)):
        nsdyn.SphereShape(-1.0)


def test_bodies():
    b = nsdyn.make_body(nsdyn.SphereShape(0.1), density=1000.0, position=[0, 0, 1])
    assert not b.is_static
    assert abs(b.ds.scalarMass() - 1000.0 * 4 / 3 * np.pi * 0.001) < 1e-9
    np.testing.assert_allclose(b.position(), [0, 0, 1])
    two = nsdyn.make_body([nsdyn.SphereShape(0.1), (nsdyn.SphereShape(0.1), [0.2, 0, 0])], mass=2.0)
    assert two.ds.scalarMass() == 2.0
    ground = nsdyn.ground_plane()
    assert ground.is_static and ground.ds is None
    with pytest.raises(TypeError, match="shapes"):
        nsdyn.make_body("sphere")
    with pytest.raises(TypeError, match=r"shapes\[1\]"):
        nsdyn.make_body([nsdyn.SphereShape(0.1), 3])
    with pytest.raises(ValueError, match="orientation"):
        nsdyn.make_body(nsdyn.SphereShape(0.1), orientation=[1, 0, 0])


def test_generators():
    walls = nsdyn.container([0, 0, 0], [1, 1, 1])
    assert len(walls) >= 5 and all(w.is_static for w in walls)
    grains = nsdyn.random_packing(20, [0, 0, 0], [1, 1, 1], radius=0.05, seed=3)
    assert len(grains) == 20
    pos = np.array([g.position() for g in grains])
    d = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=2) + np.eye(20)
    assert d.min() >= 0.1 - 1e-12
    lattice = nsdyn.lattice_packing(8, [0, 0, 0], [1, 1, 1], kind="box", half_extents=[0.04, 0.04, 0.04])
    assert len(lattice) == 8
    with pytest.raises(ValueError, match="kind"):
        nsdyn.random_packing(2, [0, 0, 0], [1, 1, 1], kind="torus")


def test_scene_drop_and_arrays():
    scene = nsdyn.Scene(0.3, 1e-3, solver="nsgs", tolerance=1e-6, mu=0.3)
    scene.add_body(nsdyn.ground_plane())
    scene.add_body(nsdyn.make_body(nsdyn.SphereShape(0.1), density=1000.0, position=[0, 0, 0.15]))
    scene.add_body(nsdyn.make_body(nsdyn.BoxShape([0.1, 0.1, 0.1]), density=1000.0, position=[1, 0, 0.2]))
    n = scene.run()
    assert n == 300 and abs(scene.time - 0.3) < 1e-12
    pos, vel = scene.positions(), scene.velocities()
    assert pos.shape == (2, 7) and vel.shape == (2, 6)
    np.testing.assert_allclose(pos[:, 2], [0.1, 0.1], atol=2e-3)  # resting on the ground
    np.testing.assert_allclose(np.linalg.norm(pos[:, 3:], axis=1), 1.0, atol=1e-12)
    c = scene.contacts()
    assert len(c["gap"]) >= 2
    assert c["frame"].shape == (len(c["gap"]), 3, 3) and c["force"].shape == (len(c["gap"]), 3)
    weight = sum(b.ds.scalarMass() for b in scene.bodies() if not b.is_static) * 9.81
    assert abs(c["force"][c["active"], 0].sum() - weight) < 0.05 * weight
    assert scene.last_statistics()["status"] == "converged"
    with pytest.raises(ValueError, match="initialised"):
        scene.add_body(nsdyn.make_body(nsdyn.SphereShape(0.1)))
    with pytest.raises(TypeError, match="nsdyn.Body"):
        nsdyn.Scene(1.0).add_bodies([nsdyn.SphereShape(0.1)])


def test_newton_euler_force_callable_in_scene():
    # a Body's f_ext / m_ext, set before the first step, are its applied load (read every step)
    scene = nsdyn.Scene(0.05, 1e-3, gravity=0.0)
    body = nsdyn.make_body(nsdyn.SphereShape(0.1), mass=1.0, position=[0, 0, 1])
    scene.add_body(body)
    body.ds.setFExt(lambda t: [1.0, 0.0, 0.0])
    scene.run()
    np.testing.assert_allclose(scene.velocities()[0, 0], 0.05, rtol=1e-9)
    # a load set before add_body counts once (not twice: the store's copy of it is replaced)
    scene = nsdyn.Scene(0.05, 1e-3, gravity=9.81)
    body = nsdyn.make_body(nsdyn.SphereShape(0.1), mass=2.0, position=[0, 0, 1])
    body.ds.setFExt([0.0, 0.0, 2.0 * 9.81])  # cancels the weight
    scene.add_body(body)
    scene.run()
    np.testing.assert_allclose(scene.velocities()[0], 0.0, atol=1e-12)
    assert abs(scene.positions()[0, 2] - 1.0) < 1e-12


def test_scene_is_a_scene_engine():
    scene = nsdyn.Scene(0.02, 1e-3, solver="nsgs", tolerance=1e-8, max_iterations=500, mu=0.2)
    e = scene.engine
    assert isinstance(e, nsdyn.SceneEngine) and scene.engine is e
    assert e.solver == "nsgs" and e.h == scene.h == 1e-3 and scene.T == 0.02
    np.testing.assert_array_equal(e.gravity, [0.0, 0.0, -9.81])
    assert e.material(0, 0) == (0.2, 0.0)
    assert scene.add_body(nsdyn.ground_plane()) == 0
    # the angular velocity is in the body frame (as NewtonEulerDS): a sphere turned by 90 deg
    # about z spinning about its own x axis
    c, s = np.cos(np.pi / 4), np.sin(np.pi / 4)
    ball = nsdyn.make_body(nsdyn.SphereShape(0.1), density=1000.0, position=[0, 0, 0.5],
                           orientation=[c, 0, 0, s], velocity=[0.1, 0, 0, 3.0, 0, 0])
    assert scene.add_body(ball) == 1 and scene.body_count == 1 and len(e) == 2
    assert scene.step() and scene.time == e.time == 1e-3 and e.steps == 1
    assert scene.last_report["step"] == 1 and scene.last_statistics()["contacts"] == 0
    np.testing.assert_allclose(scene.velocities()[0, 3:], [3.0, 0, 0], atol=1e-12)
    np.testing.assert_array_equal(scene.positions(), e.q[1:])
    np.testing.assert_array_equal(scene.velocities(), e.v[1:])
    # bodies(): snapshots of the engine's state, static ones included
    ground, snap = scene.bodies()
    assert ground.is_static and not snap.is_static
    np.testing.assert_array_equal(snap.ds.q(), e.q[1])
    np.testing.assert_array_equal(snap.ds.velocity(), e.v[1])
    assert abs(snap.ds.scalarMass() - e.mass[1]) == 0.0
    np.testing.assert_allclose(ball.position(), [0, 0, 0.5])  # the Body given is a description
    # the engine is shared: a state set on it is the scene's
    q = e.q
    q[1, 2] = 0.7
    e.q = q
    assert scene.positions()[0, 2] == 0.7
    assert scene.run() == 19 and not scene.step() and abs(scene.time - 0.02) < 1e-15
    # the Kernel objects of the old Scene are gone, and the error says what replaced them
    for name, instead in (("model", "engine"), ("simulation", "scene.time"), ("problem", "max_iterations")):
        with pytest.raises(AttributeError, match=instead):
            getattr(scene, name)
        assert not hasattr(scene, name)


def test_scene_arguments_and_callback():
    with pytest.raises(ValueError, match="Scene: T: expected a finite final time > 0, found 0.0"):
        nsdyn.Scene(0.0)
    with pytest.raises(ValueError, match="tolerance"):
        nsdyn.Scene(1.0, tolerance=-1.0)
    with pytest.raises(ValueError, match="max_iterations"):
        nsdyn.Scene(1.0, max_iterations=0)
    with pytest.raises(ValueError, match="solver"):
        nsdyn.Scene(1.0, solver="no_such_solver")
    scene = nsdyn.Scene(0.01, 1e-3, gravity=0.0)
    scene.add_body(nsdyn.make_body(nsdyn.SphereShape(0.1), position=[0, 0, 1], velocity=[1, 0, 0, 0, 0, 0]))
    times = []

    def stop_at_three():
        times.append(scene.time)
        if len(times) == 3:
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        scene.run(callback=stop_at_three)
    assert scene.engine.steps == 3  # the step is finished before the exception goes up
    np.testing.assert_allclose(times, [1e-3, 2e-3, 3e-3], rtol=1e-12)
    np.testing.assert_allclose(scene.positions()[0, 0], 3e-3, rtol=1e-12)
    with pytest.raises(ValueError, match="add_body: the scene is initialised"):
        scene.add_bodies([nsdyn.make_body(nsdyn.SphereShape(0.1))])
