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
    scene = nsdyn.Scene(0.05, 1e-3, gravity=0.0)
    body = nsdyn.make_body(nsdyn.SphereShape(0.1), mass=1.0, position=[0, 0, 1])
    scene.add_body(body)
    body.ds.setFExt(lambda t: [1.0, 0.0, 0.0])
    scene.run()
    np.testing.assert_allclose(scene.velocities()[0, 0], 0.05, rtol=1e-9)
