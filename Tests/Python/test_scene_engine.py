"""nsdyn.SceneEngine: the array-based rigid-body scene engine (nsdyn/SceneEngine.hpp) from Python."""
import math
import signal

import numpy as np
import pytest

import nsdyn

R = 0.1  # sphere radius


def drop(position=(0.0, 0.0, 0.15), **options):
    """A sphere of radius R over the plane z = 0 (static body 0, sphere body 1)."""
    e = nsdyn.SceneEngine(**options)
    assert e.add_static(nsdyn.HalfSpaceShape()) == 0
    assert e.add_body(nsdyn.SphereShape(R), density=1000.0, position=position) == 1
    return e


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


# ---- physics -------------------------------------------------------------------------------


def test_sphere_comes_to_rest_on_the_plane():
    # Moreau-Jean keeps the penetration of the impact (about h |u_n|); the position
    # correction (stabilisation) pushes it out: the sphere rests at z = r
    e = drop(h=1e-3, tolerance=1e-10, stabilisation=0.2)
    report = e.run(1500)
    q, v = e.q, e.v
    assert abs(q[1, 2] - R) < 1e-6, q[1]
    assert np.abs(v[1]).max() < 1e-6
    np.testing.assert_allclose(q[1, 3:], [1, 0, 0, 0], atol=1e-12)
    assert report["step"] == 1500 and e.steps == 1500
    assert abs(report["time"] - 1.5) < 1e-12 and abs(e.time - 1.5) < 1e-12
    assert report["contacts"] == 1 and report["active"] == 1 and report["status"] == "converged"
    assert report["kinetic_energy"] < 1e-10 and report["max_penetration"] < 1e-6
    m = 1000.0 * 4.0 / 3.0 * math.pi * R ** 3
    np.testing.assert_allclose(e.mass, [0.0, m], rtol=1e-12)
    np.testing.assert_allclose(report["potential_energy"], m * 9.81 * q[1, 2], rtol=1e-12)
    c = e.contacts()
    assert c["point_a"].shape == (1, 3) and c["point_b"].shape == (1, 3) and c["frame"].shape == (1, 3, 3)
    assert c["gap"].shape == (1,) and c["impulse"].shape == (1, 3) and c["key"].dtype == np.uint64
    assert c["active"].dtype == np.bool_ and c["active"][0] and c["warm"][0]
    assert (c["body_a"][0], c["body_b"][0]) == (0, 1)
    np.testing.assert_allclose(c["frame"][0, 0], [0, 0, -1], atol=1e-15)  # n from B (sphere) to A (plane)
    # the normal impulse carries the weight over the step
    np.testing.assert_allclose(c["impulse"][0, 0], m * 9.81 * 1e-3, rtol=1e-6)
    for key in ("iterations", "residual", "contact_work", "detect_seconds", "solve_seconds", "total_seconds"):
        assert key in report
    assert e.last_report == report


def test_sphere_placed_on_the_plane_stays_there():
    e = drop(position=(0.0, 0.0, R))
    e.run(500)
    assert abs(e.q[1, 2] - R) < 1e-9


@pytest.mark.parametrize("solver", ["nsgs", "apgd"])
def test_pile_of_50_spheres_settles(solver):
    e = nsdyn.SceneEngine(h=2e-3, solver=solver, tolerance=1e-4, max_iterations=200, stabilisation=0.2, threads=1)
    walls = e.add_bodies(nsdyn.container([0, 0, 0], [0.4, 0.4, 0.4]))
    grains = e.add_bodies(nsdyn.random_packing(50, [0, 0, 0], [0.4, 0.4, 0.4], radius=0.04, seed=7))
    assert len(grains) == 50 and e.dynamic_count == 50 and len(e) == len(walls) + 50
    assert e.is_static[walls].all() and not e.is_static[grains].any()
    pe0 = e.potential_energy()
    late = []
    for k in range(600):
        report = e.step()
        if k >= 550:
            late.append(report["kinetic_energy"])
    drop_pe = pe0 - e.potential_energy()
    assert drop_pe > 10.0
    assert max(late) < 1e-3 * drop_pe, (solver, max(late), drop_pe)
    q = e.q[grains]
    assert q[:, 2].min() > 0.04 - 1e-3 and q[:, 2].max() < 0.3
    assert q[:, :2].min() > 0.04 - 1e-3 and q[:, :2].max() < 0.36 + 1e-3
    assert report["contacts"] > 100 and report["max_penetration"] < 1e-3


@pytest.mark.parametrize("solver", ["newton_ac", "admm"])
def test_assembled_solvers(solver):
    e = drop(solver=solver, tolerance=1e-8, stabilisation=0.2)
    report = e.run(800)
    assert e.solver == solver and report["contacts"] == 1
    assert abs(e.q[1, 2] - R) < 1e-5


PLACED = [((0, 0, 0.12), (0.3, 0, 0, 0, 0, 0)), ((0.21, 0, 0.1), (0, 0.2, -0.1, 0, 0, 1)),
          ((0.5, 0.1, 0.3), (0, 0, 0, 0, 0, 0)), ((0.5, 0.1, 0.52), (-0.1, 0, 0, 0, 2, 0)),
          ((0.42, 0, 0.11), (0, 0, 0, 0, 0, 0))]


def spheres_for_comparison():
    return [nsdyn.make_body(nsdyn.SphereShape(R), density=1000.0, position=p, velocity=v) for p, v in PLACED]


def comparison_xml():
    """The spheres of spheres_for_comparison over the plane z = 0, as an XML <scene>."""
    def numbers(v):
        return " ".join(repr(float(x)) for x in v)
    bodies = "".join(
        '<RigidBody name="s%d" density="1000"><position>%s</position><velocity>%s</velocity>'
        '<angularVelocity>%s</angularVelocity><SphereShape radius="%r"/></RigidBody>'
        % (i, numbers(p), numbers(v[:3]), numbers(v[3:]), R) for i, (p, v) in enumerate(PLACED))
    return ('<nsdyn version="1" name="Comparison"><model><scene gravity="0 0 -9.81">'
            '<ContactManager><material mu="0.3" restitution="0"/></ContactManager>'
            '<StaticBody name="ground"><HalfSpaceShape normal="0 0 1" offset="0"/></StaticBody>%s'
            '</scene></model><simulation type="TimeStepping" T="1" h="1e-3"><MoreauJeanOSI theta="0.5"/>'
            '<FrictionContact dim="3" solver="nsgs"><options tolerance="1e-13" max-iterations="10000"/>'
            '</FrictionContact></simulation></nsdyn>' % bodies)


def test_same_positions_as_the_kernel_scene_step():
    # the Kernel's step of a <scene> (TimeStepping + ContactManager + FrictionContact(3) +
    # MoreauJeanOSI(0.5), one pass, stepped here through LoadedModel.simulation) against the
    # engine three ways: nsdyn.SceneEngine, nsdyn.Scene and LoadedModel.run. NSGS on W there, in
    # body-velocity form here (both to 1e-13, so the answers agree to round-off)
    kernel = nsdyn.load_xml_string(comparison_xml())
    assert kernel.simulation.run(steps=400) == 400
    kq = np.array([kernel.system("s%d" % i).q() for i in range(len(PLACED))])
    kv = np.array([kernel.system("s%d" % i).velocity() for i in range(len(PLACED))])
    assert kernel.simulation.lastStatistics()["detected_contacts"] == 5
    e = nsdyn.SceneEngine(h=1e-3, tolerance=1e-13, max_iterations=10000, mu=0.3)
    e.add_body(nsdyn.ground_plane())
    for b in spheres_for_comparison():
        e.add_body(b)
    report = e.run(400)
    scene = nsdyn.Scene(1.0, 1e-3, solver="nsgs", tolerance=1e-13, max_iterations=10000, mu=0.3)
    scene.add_body(nsdyn.ground_plane())
    for b in spheres_for_comparison():
        scene.add_body(b)
    assert scene.run(400) == 400
    loaded = nsdyn.load_xml_string(comparison_xml())
    assert loaded.run(steps=400) == 400
    assert report["contacts"] == scene.last_statistics()["contacts"] == loaded.engine.contact_count == 5
    assert abs(e.time - scene.time) < 1e-12 and abs(loaded.engine.time - e.time) < 1e-12
    assert np.abs(e.q[1:] - kq).max() < 1e-9 and np.abs(e.v[1:] - kv).max() < 1e-9
    # nsdyn.Scene is the engine: the same bits
    np.testing.assert_array_equal(scene.positions(), e.q[1:])
    np.testing.assert_array_equal(scene.velocities(), e.v[1:])
    # LoadedModel.run steps the engine of io::makeSceneEngine (options from the file)
    assert np.abs(loaded.engine.q[1:] - kq).max() < 1e-9 and np.abs(loaded.engine.v[1:] - kv).max() < 1e-9
    np.testing.assert_array_equal(loaded.system("s1").q(), loaded.engine.q[2])


def test_applied_force_and_materials():
    e = drop(position=(0.0, 0.0, 0.5), gravity=(0.0, 0.0, -9.81))
    m = e.mass[1]
    e.set_force(1, [0.0, 0.0, m * 9.81])  # cancels the weight: the sphere floats
    np.testing.assert_allclose(e.force[1], [0, 0, m * 9.81])
    e.run(100)
    assert abs(e.q[1, 2] - 0.5) < 1e-12
    e.set_default_material(0.2, 0.1)
    e.set_material(0, 3, 0.7)
    assert e.material(0, 0) == (0.2, 0.1) and e.material(3, 0) == (0.7, 0.0)
    np.testing.assert_allclose(e.gravity, [0, 0, -9.81])
    assert e.h == 1e-3 and e.group.tolist() == [0, 0] and e.id.tolist() == [0, 1]
    assert e.inertia.shape == (2, 3, 3) and e.torque.shape == (2, 3)


def test_arrays_are_copies_and_setters():
    e = drop()
    q = e.q
    assert q.shape == (2, 7) and e.v.shape == (2, 6) and q.dtype == np.float64
    q[1, 2] = 7.0
    assert e.q[1, 2] == 0.15  # a copy
    e.q = q  # property setter
    assert e.q[1, 2] == 7.0
    v = np.zeros((2, 6))
    v[1] = [1, 0, 0, 0, 0, 2]
    e.set_v(v)
    np.testing.assert_array_equal(e.v, v)
    half = math.sqrt(0.5)
    q[1, 3:] = [half, half, 0, 0]
    e.set_q(q)
    np.testing.assert_array_equal(e.q, q)
    e.step()
    assert e.q[1, 0] > 0.0


# ---- bad input -----------------------------------------------------------------------------


def test_bad_constructor_keywords():
    for h, shown in ((0.0, "0"), (-1e-3, "-0.001"), (float("nan"), "nan")):
        with pytest.raises(ValueError, match="h: expected a finite time step > 0, found " + shown):
            nsdyn.SceneEngine(h=h)
    with pytest.raises(ValueError, match="solver.*nsgs.*apgd.*found 'simplex'"):
        nsdyn.SceneEngine(solver="simplex")
    with pytest.raises(ValueError, match=r"theta.*found 1\.5"):
        nsdyn.SceneEngine(theta=1.5)
    with pytest.raises(ValueError, match="gravity"):
        nsdyn.SceneEngine(gravity=[0.0, -9.81])
    with pytest.raises(TypeError, match="margin"):
        nsdyn.SceneEngine(margin="wide")
    with pytest.raises(ValueError, match="margin.*-0.5"):
        nsdyn.SceneEngine(margin=-0.5)
    with pytest.raises(ValueError, match="breaking_distance"):
        nsdyn.SceneEngine(margin=0.01, breaking_distance=0.001)
    with pytest.raises(ValueError, match="stabilisation.*found 2"):
        nsdyn.SceneEngine(stabilisation=2.0)
    with pytest.raises(ValueError, match="threads.*-1"):
        nsdyn.SceneEngine(threads=-1)
    with pytest.raises(nsdyn.BadInputError, match="tolerance.*-1"):
        nsdyn.SceneEngine(tolerance=-1.0)
    with pytest.raises(nsdyn.BadInputError, match="max_iterations.*0"):
        nsdyn.SceneEngine(max_iterations=0)
    with pytest.raises(nsdyn.BadInputError, match="no_such_option"):
        nsdyn.SceneEngine(no_such_option=1)
    with pytest.raises(ValueError, match="mu = -1"):
        nsdyn.SceneEngine(mu=-1.0)
    # a solver option of the table, as nsdyn.solve takes them
    nsdyn.SceneEngine(nsgs__local_tolerance=1e-12)


def test_bad_arrays():
    e = drop()
    with pytest.raises(ValueError, match=r"q: expected shape \(2, 7\).*found shape \(2, 6\)"):
        e.set_q(np.zeros((2, 6)))
    with pytest.raises(ValueError, match=r"v: expected shape \(2, 6\).*found shape \(6,\)"):
        e.set_v(np.zeros(6))
    with pytest.raises(TypeError, match="q: .*complex"):
        e.set_q(np.zeros((2, 7), dtype=complex))
    with pytest.raises(TypeError, match="v: "):
        e.set_v(np.full((2, 6), "x"))
    q = e.q
    q[1, 0] = np.nan
    with pytest.raises(ValueError, match="q: expected finite values, found nan"):
        e.set_q(q)
    q = e.q
    q[1, 3] = 2.0
    with pytest.raises(ValueError, match=r"unit quaternion.*norm 2 in row 1"):
        e.q = q
    v = np.zeros((2, 6))
    v[0, 2] = 1.0
    with pytest.raises(ValueError, match="static .*row 0"):
        e.set_v(v)
    v = np.zeros((2, 6))
    v[1, 4] = np.inf
    with pytest.raises(ValueError, match="v: expected finite values, found inf"):
        e.set_v(v)
    assert e.q[1, 2] == 0.15 and not e.v.any()  # nothing was changed


def test_bad_indices_and_calls():
    e = drop()
    with pytest.raises(IndexError, match="body index 5 out of range for a scene of 2 bodies"):
        e.set_force(5, [0, 0, 1])
    with pytest.raises(IndexError, match="body index -1 out of range for a scene of 2 bodies"):
        e.set_force(-1, [0, 0, 1])
    with pytest.raises(nsdyn.Error, match="static"):
        e.set_force(0, [0, 0, 1])
    with pytest.raises(ValueError, match="force"):
        e.set_force(1, [0, 0])
    with pytest.raises(ValueError, match="torque: expected finite values"):
        e.set_force(1, [0, 0, 1], [0, np.nan, 0])
    with pytest.raises(TypeError, match="shapes"):
        e.add_body("sphere")
    with pytest.raises(TypeError, match="density"):
        e.add_body(nsdyn.SphereShape(R), density="heavy")
    with pytest.raises(nsdyn.Error, match="mass finite and > 0"):
        e.add_body(nsdyn.SphereShape(R), mass=-1.0)
    with pytest.raises(TypeError, match="go with shapes"):
        e.add_body(nsdyn.make_body(nsdyn.SphereShape(R)), position=[0, 0, 1])
    with pytest.raises(nsdyn.Error, match="HalfSpaceShape"):
        e.add_body(nsdyn.HalfSpaceShape())
    with pytest.raises(ValueError, match="steps.*-1"):
        e.run(-1)
    e.step()
    with pytest.raises(nsdyn.Error, match="before the first step"):
        e.add_body(nsdyn.SphereShape(R), position=[1, 0, 1])
    with pytest.raises(nsdyn.Error, match="at least one body"):
        nsdyn.SceneEngine().step()
    with pytest.raises(nsdyn.Error, match=r"material \(0, 1\).*mu = -0.5"):
        e.set_material(0, 1, -0.5)


# ---- run loop ------------------------------------------------------------------------------


def test_run_memory_stays_flat():
    e = drop(position=(0.0, 0.0, R), h=1e-3)
    e.run(1000)  # arrays grown, allocator warm
    before = rss_bytes()
    for _ in range(20):
        report = e.run(1000)
    growth = rss_bytes() - before
    assert report["step"] == 21000
    assert growth < 2 * 1024 * 1024, growth


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs signal.setitimer")
def test_run_stops_on_ctrl_c():
    e = drop(position=(0.0, 0.0, R))

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(KeyboardInterrupt):
            e.run(10 ** 12)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    done = e.steps
    assert done > 0 and e.last_report["step"] == done  # the step finished
    assert e.step()["step"] == done + 1  # and the scene goes on


# ---- budget mode (issue 24, item 4) --------------------------------------------------------


def stack_engine(**options):
    """27 touching spheres in a 3x3x3 stack on a floor: NSGS with 3 sweeps stays above 1e-8."""
    e = nsdyn.SceneEngine(h=1e-3, solver="nsgs", tolerance=1e-8, max_iterations=3, threads=1, **options)
    e.add_bodies(nsdyn.container([0, 0, 0], [0.3, 0.3, 1.0]))
    e.add_bodies(nsdyn.lattice_packing(27, [0, 0, 0], [0.3, 0.3, 1.0], radius=0.05, density=2500.0))
    return e


def test_budget_mode_accepts_every_step_and_reports_the_residual():
    e = stack_engine(mode="budget")
    reports = [e.step() for _ in range(30)]
    assert all(r["accepted"] for r in reports)
    above = [r for r in reports if r["above_tolerance"]]
    assert len(above) >= 10
    for r in above:
        assert r["iterations"] == 3 and r["residual"] > 1e-8
        assert r["status"] == "max_iterations" and not r["converged"]
    for r in reports:
        assert r["iterations"] <= 3 and not r["cold_restart"]
    # the same steps in tolerance mode (the default): the first one fails
    t = stack_engine()
    r = t.step()
    assert not r["accepted"] and r["above_tolerance"] and r["status"] == "max_iterations"
    assert r["residual"] == reports[0]["residual"]


def test_scene_budget_mode_keyword():
    def stack(**options):
        s = nsdyn.Scene(0.01, 1e-3, tolerance=1e-8, max_iterations=3, **options)
        s.add_bodies(nsdyn.container([0, 0, 0], [0.3, 0.3, 1.0]))
        s.add_bodies(nsdyn.lattice_packing(27, [0, 0, 0], [0.3, 0.3, 1.0], radius=0.05, density=2500.0))
        s.step()
        return s.last_statistics()
    b = stack(mode="budget", time_limit=10.0)
    assert b["accepted"] and b["above_tolerance"] and b["residual"] > 1e-8 and b["iterations"] == 3
    t = stack()
    assert not t["accepted"] and t["above_tolerance"] and t["status"] == "max_iterations"


def test_budget_mode_bad_values():
    with pytest.raises(ValueError, match="mode: expected 'tolerance' or 'budget', found 'fast'"):
        nsdyn.SceneEngine(mode="fast")
    with pytest.raises(ValueError, match="mode: expected 'tolerance' or 'budget', found 'fixed'"):
        nsdyn.Scene(1.0, mode="fixed")
    with pytest.raises(ValueError, match="time_limit"):
        nsdyn.Scene(1.0, mode="budget", time_limit=-1.0)
    with pytest.raises(ValueError, match="max_iterations"):
        nsdyn.SceneEngine(mode="budget", max_iterations=0)
    with pytest.raises(TypeError, match="mode"):
        nsdyn.SceneEngine(mode=3)


def test_auto_is_accelerated_nsgs():
    # solver="auto": the body-velocity NSGS with Anderson acceleration (5 differences, or
    # nsgs__anderson=m); on 4 resting columns of 25 spheres at 1e-6 every step converges in a
    # fraction of plain nsgs's sweeps, the same bits as nsgs with the memory set by hand
    def columns(**options):
        e = nsdyn.SceneEngine(h=1e-3, tolerance=1e-6, max_iterations=20000, threads=1, **options)
        e.add_static(nsdyn.HalfSpaceShape())
        r = 0.01
        for k in range(25):
            for j in range(2):
                for i in range(2):
                    e.add_body(nsdyn.SphereShape(r), density=2500.0, position=(3 * r * i, 3 * r * j, r + 2 * r * k))
        reports = [e.step() for _ in range(3)]
        return e, reports
    auto, ra = columns(solver="auto")
    plain, rp = columns(solver="nsgs")
    by_hand, rh = columns(solver="nsgs", nsgs__anderson=5)
    assert auto.solver == "auto"
    assert all(r["converged"] and r["residual"] <= 1e-6 for r in ra)
    sweeps_auto = sum(r["iterations"] for r in ra)
    sweeps_plain = sum(r["iterations"] for r in rp)
    assert 4 * sweeps_auto < sweeps_plain, (sweeps_auto, sweeps_plain)
    assert [r["iterations"] for r in ra] == [r["iterations"] for r in rh]
    assert np.array_equal(auto.q, by_hand.q) and np.array_equal(auto.v, by_hand.v)
    assert np.abs(auto.v).max() < 1e-5  # the columns at rest
    # Scene takes it too
    s = nsdyn.Scene(0.003, 1e-3, solver="auto", tolerance=1e-6)
    s.add_bodies(nsdyn.container([0, 0, 0], [0.3, 0.3, 1.0]))
    s.add_bodies(nsdyn.lattice_packing(27, [0, 0, 0], [0.3, 0.3, 1.0], radius=0.05, density=2500.0))
    s.step()
    assert s.last_statistics()["accepted"]


def test_keep_loaded_contacts_keyword():
    # 2 x 2 columns of 20 spheres touching at gap 0 in a box, APGD at 1e-6: within its
    # tolerance APGD leaves loaded contacts opening at round-off speed, and without the rule
    # bodies fall for a step; keep_loaded_contacts=True keeps them in the problem
    def lattice(**options):
        e = nsdyn.SceneEngine(h=1e-3, solver="apgd", tolerance=1e-6, max_iterations=20000, threads=1, **options)
        for n, d in (((0, 0, 1), 0.0), ((1, 0, 0), 0.0), ((-1, 0, 0), -0.2), ((0, 1, 0), 0.0), ((0, -1, 0), -0.2)):
            e.add_static(nsdyn.HalfSpaceShape(n, d))
        r = 0.05
        for k in range(20):
            for j in range(2):
                for i in range(2):
                    e.add_body(nsdyn.SphereShape(r), density=2500.0, position=(r + 2 * r * i, r + 2 * r * j, r + 2 * r * k))
        return max(e.step()["kinetic_energy"] for _ in range(6))
    assert lattice(keep_loaded_contacts=True) < 1e-8
    assert lattice() > 1e-3
    assert lattice(keep_loaded_contacts=None) == lattice(keep_loaded_contacts=False)


def test_drift_jumps_reported():
    # a capsule lying across a plane, pushed obliquely, loaded contacts kept, NSGS at 1e-14:
    # its two contacts make W singular and a warm start leaves the sweeps drifting along that
    # direction; the jump (nsgs.drift, on by default) ends it, every step converges and the
    # report counts the jumps; without it a step stops at the 1,000-sweep cap
    def roll(**options):
        e = nsdyn.SceneEngine(h=0.005, solver="nsgs", tolerance=1e-14, max_iterations=1000, threads=1,
                              mu=0.3, keep_loaded_contacts=True, **options)
        e.add_static(nsdyn.HalfSpaceShape((0, 0, 1), 0.0))
        c, s = math.cos(math.pi / 4), math.sin(math.pi / 4)
        e.add_body(nsdyn.CapsuleShape(0.04, 0.12), density=1000.0, position=(0.05, -0.3, 0.04),
                   orientation=(c, 0.5 * s, math.sqrt(0.75) * s, 0.0), velocity=(0.2, 0.9, 0, 0, 0, 0))
        reports = [e.step() for _ in range(200)]
        return sum(not r["converged"] for r in reports), sum(r["drift_jumps"] for r in reports)
    failed, jumps = roll()
    assert failed == 0 and jumps >= 1
    failed, jumps = roll(nsgs__drift=False)
    assert failed >= 1 and jumps == 0
