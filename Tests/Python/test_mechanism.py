"""Terrains and mechanisms in contact (issue 26) from Python: TriangleMeshShape and
HeightfieldShape as static shapes of a SceneEngine, GenericMechanical with a ContactManager,
JointAxisR motors, limits and a Python torque callable (a PD controller)."""
import math

import numpy as np
import pytest

import nsdyn

R = 0.1


def roll(floor, position=(-0.4, 0.2, 0.15), steps=200):
    """A sphere dropped with a sliding velocity and a spin on the static shape @p floor."""
    e = nsdyn.SceneEngine(h=0.005, solver="nsgs", tolerance=1e-12, max_iterations=1000, mu=0.3)
    e.add_static(floor)
    e.add_body(nsdyn.SphereShape(R), density=1000.0, position=position,
               velocity=[1.5, 0.2, 0.0, 0.0, 0.0, 5.0])
    path = []
    for _ in range(steps):
        e.step()
        path.append(e.q[1].copy())
    return np.array(path)


def square_mesh():
    vertices = np.array([[-5, -5, 0], [5, -5, 0], [5, 5, 0], [-5, 5, 0]], dtype=float)
    triangles = np.array([[0, 1, 2], [0, 2, 3]])
    return vertices, triangles


def test_sphere_on_a_heightfield_and_a_mesh_equals_the_plane(tmp_path):
    plane = roll(nsdyn.HalfSpaceShape())
    # it lands, crosses the mesh diagonal y = x and the heightfield's cells
    assert abs(plane[-1, 2] - R) < 5e-3
    assert plane[0, 1] > plane[0, 0] and plane[-1, 1] < plane[-1, 0] - 0.1
    hills = nsdyn.HeightfieldShape(np.zeros((11, 11)), 1.0)
    assert (hills.nx(), hills.ny(), hills.dx(), hills.dy()) == (11, 11, 1.0, 1.0)
    assert hills.triangleCount() == 200
    np.testing.assert_allclose(roll(hills), plane, rtol=0, atol=1e-12)
    vertices, triangles = square_mesh()
    mesh = nsdyn.TriangleMeshShape(vertices, triangles)
    assert mesh.vertexCount() == 4 and mesh.triangleCount() == 2
    np.testing.assert_allclose(mesh.faceNormal(1), [0, 0, 1], atol=1e-15)
    np.testing.assert_allclose(roll(mesh), plane, rtol=0, atol=1e-12)
    obj = tmp_path / "floor.obj"
    obj.write_text("v -5 -5 0\nv 5 -5 0\nv 5 5 0\nv -5 5 0\nf 1 2 3\nf 1 3 4\n")
    from_file = nsdyn.TriangleMeshShape.fromFile(obj)
    np.testing.assert_allclose(from_file.vertices(), vertices)
    np.testing.assert_allclose(roll(from_file), plane, rtol=0, atol=1e-12)
    # a static body of the Kernel's ContactManager too
    assert nsdyn.make_static_body(mesh).is_static


def test_heightfield_from_an_image(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # a 3 x 2 image (matplotlib writes it RGBA, 8 bits): grey levels, the top row the far edge
    grey = np.array([[0, 51, 255], [102, 204, 153]], dtype=np.uint8)
    png = tmp_path / "hills.png"
    plt.imsave(png, np.repeat(grey[:, :, None], 3, axis=2))
    h = nsdyn.HeightfieldShape.fromImage(png, 0.5, dy=0.25, height_scale=2.0, z_offset=-1.0)
    assert (h.nx(), h.ny(), h.dx(), h.dy()) == (3, 2, 0.5, 0.25)
    np.testing.assert_allclose(h.heights(), -1.0 + 2.0 * grey[::-1] / 255.0, rtol=0, atol=1e-15)
    # a flat image: the sphere rolls as on the plane
    flat = tmp_path / "flat.png"
    plt.imsave(flat, np.zeros((11, 11, 3), dtype=np.uint8))
    floor = nsdyn.HeightfieldShape.fromImage(flat, 1.0, height_scale=0.5)
    np.testing.assert_allclose(roll(floor), roll(nsdyn.HalfSpaceShape()), rtol=0, atol=1e-12)
    with pytest.raises(Exception, match="not a PNG file"):
        bad = tmp_path / "bad.png"
        bad.write_text("not an image")
        nsdyn.HeightfieldShape.fromImage(bad, 1.0, height_scale=1.0)


def body(x, z, m, inertia):
    b = nsdyn.NewtonEulerDS([x, 0, z, 1, 0, 0, 0], [0] * 6, m, [inertia] * 3)
    b.setFExt([0, 0, -9.81 * m])
    return b


def equality(joint):
    return nsdyn.Interaction(nsdyn.EqualityConditionNSL(joint.rows()), joint)


def motored_wheel(mu=0.8, target=lambda t: 2.0 * t, max_torque=20.0, T=1.0):
    """Tests/Kernel/readme/ApiMotoredWheel.cpp in Python: a wheel on a plane, hinged to a
    carrier sliding vertically in a chassis sliding along x, driven by a velocity motor."""
    model = nsdyn.Model(0.0, T)
    nsds = model.nonSmoothDynamicalSystem()
    problem = nsdyn.GenericMechanical()
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, 1e-3), nsdyn.MoreauJeanOSI(0.5), problem)
    contacts = nsdyn.ContactManager()
    contacts.setDefaultMaterial(mu, 0.0)
    sim.insertInteractionManager(contacts)
    contacts.addBody(nsdyn.make_static_body(nsdyn.HalfSpaceShape()))
    chassis, carrier = body(0, 1, 10.0, 1.0), body(0, 0.3, 0.5, 0.01)
    nsds.insertDynamicalSystem(chassis)
    nsds.insertDynamicalSystem(carrier)
    w = nsdyn.make_body(nsdyn.SphereShape(0.3), mass=1.0, position=(0, 0, 0.3))
    wheel = w.ds
    wheel.setFExt([0, 0, -9.81])
    contacts.addBody(w, nsds)
    nsds.link(equality(nsdyn.PrismaticJointR([1, 0, 0], True, chassis)), chassis)
    nsds.link(equality(nsdyn.PrismaticJointR([0, 0, 1], True, chassis, carrier)), chassis, carrier)
    hinge = nsdyn.PivotJointR([0, 0, 0.3], [0, 1, 0], True, carrier, wheel)
    nsds.link(equality(hinge), carrier, wheel)
    motor = nsdyn.JointAxisR.motor(hinge, target, max_torque)
    nsds.link(motor, carrier, wheel)
    model.initialize(sim)
    work = 0.0
    stats = {"motors": 0.0, "joints": 0.0, "total": 0.0}
    while sim.hasNextEvent():
        sim.computeOneStep()
        work += nsdyn.JointAxisR.work(motor)
        for key in stats:
            stats[key] += sim.lastStatistics()["work"][key]
        sim.nextStep()
    motored_wheel.last_work_statistics = stats
    return wheel, problem.reaction(motor)[0], work


def test_motored_wheel_rolls_without_slipping():
    wheel, torque, work = motored_wheel()
    v = wheel.velocity()
    assert abs(v[0] - 0.6) < 1e-8 and abs(v[4] * 0.3 - v[0]) < 1e-8
    # the C++ driver's figures (Kernel/API.md): torque and work 2.1420
    assert abs(torque - 2.1420) < 5e-5 and abs(work - 2.1420) < 5e-5
    # kinetic energy gained = the motor's work
    assert abs(work - (0.5 * 11.5 * 0.6 ** 2 + 0.5 * 0.036 * 2.0 ** 2)) < 1e-6
    # the step statistics' works by kind: the motor's is the same, the joints do none
    # (to the 1e-8 solver tolerance, over 1,000 steps), all together the energy gained
    stats = motored_wheel.last_work_statistics
    assert abs(stats["motors"] - work) < 1e-12
    assert abs(stats["joints"]) < 1e-7 * work
    assert abs(stats["total"] - work) < 1e-7 * work


def test_motor_with_a_constant_target_and_a_limit_object():
    wheel, torque, _ = motored_wheel(target=1.0, T=0.2)
    assert abs(wheel.velocity()[4] - 1.0) < 1e-8


def pd_bar(limit=None):
    """A bar on a hinge about y at the world origin, no gravity, driven to 0.5 rad by a PD
    torque (a Python callable), optionally against an upper limit."""
    bar = nsdyn.NewtonEulerDS([0.5, 0, 0, 1, 0, 0, 0], [0] * 6, 1.0, [0.01, 1.0 / 12.0 + 0.25, 1.0])
    hinge = nsdyn.PivotJointR([0, 0, 0], [0, 1, 0], True, bar)
    calls = []

    def pd(t, angle, rate):
        calls.append(t)
        return 20.0 * (0.5 - angle) - 4.0 * rate

    nsdyn.JointAxisR.applyTorque(hinge, pd)
    model = nsdyn.Model(0.0, 4.0)
    nsds = model.nonSmoothDynamicalSystem()
    nsds.insertDynamicalSystem(bar)
    nsds.link(equality(hinge), bar)
    upper = None
    if limit is not None:
        upper = nsdyn.JointAxisR.upperLimit(hinge, limit)
        nsds.link(upper, bar)
    problem = nsdyn.GenericMechanical("nsgs")
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, 1e-3), nsdyn.MoreauJeanOSI(0.5), problem)
    model.initialize(sim)
    sim.run()
    assert calls and calls[-1] > 3.99
    return bar, upper, problem


def test_pd_controller_from_python():
    bar, _, _ = pd_bar()
    # the angle about y: the bar's x axis turned towards -z
    angle = math.atan2(-bar.rotationMatrix()[2, 0], bar.rotationMatrix()[0, 0])
    assert abs(angle - 0.5) < 1e-6, angle
    # against a limit at 0.45 rad: the bar rests on it (within the Moreau-Jean impact
    # penetration), the limit carrying the controller's torque
    bar, upper, problem = pd_bar(limit=0.45)
    angle = upper.relation().coordinate(bar.q())
    assert abs(angle - 0.45) < 1e-3 and abs(bar.velocity()[4]) < 1e-6, angle
    assert abs(abs(problem.reaction(upper)[0]) - 20.0 * (0.5 - angle)) < 1e-6


def test_errors_name_the_object_and_value(tmp_path):
    carrier, wheel = body(0, 0.3, 0.5, 0.01), body(0, 0.3, 1.0, 0.036)
    hinge = nsdyn.PivotJointR([0, 0, 0.3], [0, 1, 0], True, carrier, wheel)
    with pytest.raises(nsdyn.Error, match=r"-2"):
        nsdyn.JointAxisR.motor(hinge, 1.0, -2.0)
    slider = nsdyn.PrismaticJointR([1, 0, 0], True, carrier)
    with pytest.raises(nsdyn.Error, match="applyTorque"):
        nsdyn.JointAxisR.applyTorque(slider, lambda t, x, v: 0.0)
    with pytest.raises(TypeError, match="callable"):
        nsdyn.JointAxisR.applyTorque(hinge, 3.0)
    with pytest.raises(TypeError, match="PivotJointR"):
        nsdyn.JointAxisR.motor(carrier, 1.0, 1.0)
    heights = np.zeros((3, 3))
    heights[1, 2] = np.nan
    with pytest.raises(nsdyn.Error, match="no hole"):
        nsdyn.HeightfieldShape(heights, 1.0)
    with pytest.raises(ValueError, match="2-D"):
        nsdyn.HeightfieldShape(np.zeros(4), 1.0)
    with pytest.raises(nsdyn.Error, match="missing.obj"):
        nsdyn.TriangleMeshShape.fromFile(tmp_path / "missing.obj")
    vertices, triangles = square_mesh()
    with pytest.raises(nsdyn.Error):
        nsdyn.TriangleMeshShape(vertices, np.array([[0, 1, 7]]))
    bad = vertices.copy()
    bad[2, 2] = np.nan
    with pytest.raises(nsdyn.Error):
        nsdyn.TriangleMeshShape(bad, triangles)
    with pytest.raises(ValueError, match=r"\(n, 3\)"):
        nsdyn.TriangleMeshShape(np.ascontiguousarray(vertices[:, :2]), triangles)
    with pytest.raises(ValueError, match="no GMP solver"):
        nsdyn.GenericMechanical("lemke")
    # a terrain on a dynamic body
    with pytest.raises(nsdyn.Error):
        nsdyn.make_body(nsdyn.HeightfieldShape(np.zeros((2, 2)), 1.0), mass=1.0)
