"""nsdyn.peridynamics (issue 28): peridynamic bodies from Python, thin over the Kernel.

Bodies built from Python equal the Kernel's figures (points, bonds against a brute-force search,
volumes); their arrays are views of the body's storage; one step from Python is the Kernel's step
(Verlet against its formula, the implicit step against its discrete equation, the same step through
PeridynamicSimulation, free_step and a SceneEngine); a PMB bar pulled to equilibrium gives E back;
a block dropped on a plane in an nsdyn.Scene settles; the writers; bad input raises nsdyn.Error
with the Kernel's message (TypeError / ValueError for arguments of the wrong type or shape).
"""
import gc
import math

import numpy as np
import pytest

import nsdyn
import nsdyn.peridynamics as pd

DX = 0.01


def pmb(E=1e9, **kw):
    return pd.BondBasedMaterial(E=E, **kw)


def block(half=(0.04, 0.03, 0.025), material=None, **kw):
    kw.setdefault("name", "block")
    return pd.box([0, 0, 0], half, material or pmb(), spacing=DX, density=1000.0, **kw)


def brute_force_bonds(X, horizon):
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    np.fill_diagonal(d2, np.inf)
    return d2 <= horizon * horizon * (1 + 1e-10)


# ---- bodies and generators ----------------------------------------------------------------------

def test_box_points_bonds_and_volumes_equal_the_kernel_figures():
    b = block()
    # the Kernel's figures (Tests/Kernel/peridynamics/PeridynamicBodyTest.cpp): 8 x 6 x 5 points,
    # bonds = the brute-force neighbours within delta = 3 dx, CSR sorted by neighbour
    assert len(b) == b.size == 8 * 6 * 5
    assert b.horizon == pytest.approx(3 * DX) and b.spacing == DX and b.density == 1000.0
    near = brute_force_bonds(b.X, 3 * DX)
    assert b.bond_count == near.sum() == len(b.neighbour) == len(b.bond_length)
    assert b.bond_start.shape == (241,) and b.bond_start[-1] == b.bond_count
    for i in range(len(b)):
        got = b.neighbour[b.bond_start[i]:b.bond_start[i + 1]]
        assert np.array_equal(got, np.flatnonzero(near[i]))
    pairs = b.bond_pairs()
    xi = np.linalg.norm(b.X[pairs[:, 1]] - b.X[pairs[:, 0]], axis=1)
    assert np.allclose(b.bond_length, xi, rtol=1e-6)
    # volumes fill the box exactly, mass = rho V
    assert b.volume.sum() == pytest.approx(0.08 * 0.06 * 0.05, rel=1e-12)
    assert np.allclose(b.mass, 1000.0 * b.volume, rtol=0, atol=0)
    assert b.total_mass() == pytest.approx(1000.0 * 0.08 * 0.06 * 0.05, rel=1e-12)
    assert np.all(b.damage == 0) and not b.prescribed.any() and not b.bond_broken.any()
    assert b.broken_bonds == 0 and b.memory_per_bond <= 24
    assert b.contact_radius == pytest.approx(DX / 2)
    # the bulk point of a 9^3 lattice has its 122 neighbours; the surface correction stiffens
    # the bonds of a corner more than those of the bulk (its values are the Kernel's business)
    c = pd.box([0, 0, 0], [0.045] * 3, pmb(), spacing=DX, density=1000.0)
    centre = (4 * 9 + 4) * 9 + 4
    assert c.bond_start[centre + 1] - c.bond_start[centre] == 122
    bulk = c.bond_factor[c.bond_start[centre]:c.bond_start[centre + 1]]
    assert np.all(c.bond_factor > 0) and c.bond_factor[c.bond_start[0]:c.bond_start[1]].mean() > bulk.mean()
    plain = pd.box([0, 0, 0], [0.045] * 3, pmb(), spacing=DX, density=1000.0, surface_correction=False)
    assert np.all(plain.bond_factor == 1.0)
    assert "block" in repr(b) and "240 points" in repr(b)


def test_arrays_are_views_of_the_body():
    b = block()
    x = b.x
    assert x.shape == (240, 3) and x.dtype == np.float64 and x.flags.writeable
    assert not x.flags.owndata and np.shares_memory(x, b.x)  # the same storage at every access
    x[0, 0] += 1e-3  # writes into the body: its energy and forces see it
    assert b.x[0, 0] == b.X[0, 0] + 1e-3
    assert b.elastic_energy() > 0 and b.energy() == b.elastic_energy()
    b.x = b.X  # assignment copies into the same storage
    assert np.shares_memory(x, b.x) and x[0, 0] == b.X[0, 0]
    assert b.elastic_energy() == 0.0
    b.prescribed[:10] = True
    assert b.prescribed.sum() == 10 and b.prescribed.dtype == np.bool_
    b.v[:] = 2.0
    assert b.kinetic_energy() == pytest.approx(0.5 * b.total_mass() * 12.0, rel=1e-12)
    for name in ("X", "volume", "mass", "damage", "bond_start", "neighbour", "bond_length",
                 "bond_factor", "bond_broken"):
        a = getattr(b, name)
        assert not a.flags.writeable, name
        with pytest.raises(ValueError):
            a[0] = 0
    assert b.bond_length.dtype == np.float32 and b.neighbour.dtype == np.uint32
    # a view keeps its body alive
    X0 = b.X.copy()
    X = b.X
    del b
    gc.collect()
    assert np.array_equal(X, X0)


def test_prescribe_by_box_and_forces():
    b = block()
    n = b.prescribe([-1, -1, -1], [-0.025, 1, 1])
    assert n == (b.X[:, 0] <= -0.025).sum() == 2 * 6 * 5
    assert np.array_equal(b.prescribed, b.X[:, 0] <= -0.025)
    assert b.prescribe([-1, -1, -1], [-0.035, 1, 1], on=False) == 30
    assert b.prescribed.sum() == 30
    rng = np.random.default_rng(3)
    b.x = b.X + 1e-5 * rng.standard_normal(b.X.shape)
    f = b.forces()
    assert f.shape == (240, 3) and np.all(f[b.prescribed] == 0)
    # f = -dW/dx by a central difference on a free coordinate
    i, k, e = 100, 1, 1e-9
    xp, xm = b.x.copy(), b.x.copy()
    xp[i, k] += e
    xm[i, k] -= e
    assert -(b.energy(xp) - b.energy(xm)) / (2 * e) == pytest.approx(f[i, k], rel=1e-5)
    assert b.stress().shape == (240, 6)
    assert b.point_energies().sum() == pytest.approx(b.energy(), rel=1e-10)


def test_generators():
    s = pd.sphere([0, 0, 0], 0.1, pmb(), spacing=DX, density=1000.0, name="ball")
    assert s.name == "ball"
    assert s.volume.sum() / (4 / 3 * math.pi * 1e-3) == pytest.approx(1.0, abs=0.03)
    c = pd.cylinder([0, 0, 0], 0.1, 0.04, pmb(), axis=2, spacing=DX, density=1000.0)
    assert c.volume.sum() / (math.pi * 0.01 * 0.04) == pytest.approx(1.0, abs=0.03)
    # a closed cube mesh gives the box's points and bonds
    vtx = np.array([[0.03 if (k >> a) & 1 else -0.03 for a in range(3)] for k in range(8)])
    tri = np.array([0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                    2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5]).reshape(-1, 3)
    m = pd.mesh(vtx, tri, pmb(), spacing=DX, density=1000.0)
    bx = pd.box([0, 0, 0], [0.03] * 3, pmb(), spacing=DX, density=1000.0)
    assert len(m) == len(bx) and m.bond_count == bx.bond_count
    with pytest.raises(nsdyn.Error, match="closed mesh"):
        pd.mesh(vtx, tri[:-1], pmb(), spacing=DX, density=1000.0)
    sheet_pmb = pmb(E=1e6, nu=1 / 3)
    sh = pd.sheet([0, 0, 0.5], [1, 0, 0], [0, 1, 0], 0.05, 0.05, sheet_pmb, spacing=DX,
                  density=1000.0, thickness=0.001)
    assert len(sh) == 100 and sh.thickness == 0.001
    assert np.allclose(sh.volume, 1e-7, rtol=1e-12)
    cloth = pd.sheet([0, 0, 0.5], [1, 0, 0], [0, 1, 0], 0.05, 0.05, pd.SheetMaterial(E=1e6),
                     spacing=DX, density=1000.0, thickness=0.001)
    assert cloth.material.kind == "sheet" and cloth.material.nu == pytest.approx(1 / 3)
    # a body from arrays: the box's points give the box's bonds
    own = pd.Body(bx.X, bx.volume, pmb(), spacing=DX, density=1000.0, name="own")
    assert own.name == "own" and np.array_equal(own.neighbour, bx.neighbour)


def test_precrack_breaking_and_damage():
    b = pd.box([0, 0, 0], [0.05, 0.05, 0.005], pmb(critical_stretch=0.01), spacing=DX,
               density=1000.0, name="plate")
    removed = b.precrack([0, -0.06, 0], [0, 0.001, 0], [0, 0, 1])
    p = b.bond_pairs()
    xi, xj = b.X[p[:, 0], 0], b.X[p[:, 1], 0]
    cross = (xi < 0) != (xj < 0)
    w = np.where(cross, xi / np.where(cross, xi - xj, 1), 0)
    y = b.X[p[:, 0], 1] + w * (b.X[p[:, 1], 1] - b.X[p[:, 0], 1])
    assert removed == (cross & (y <= 0.001)).sum() == b.broken_bonds == b.bond_broken.sum()
    assert 0.3 < b.damage.max() < 0.7
    b.x[b.X[:, 0] > 0, 0] += 0.002  # 2 % stretch across x = 0: bonds past 1 % break
    assert b.break_bonds() > 0
    stretch = (np.linalg.norm(b.x[p[:, 1]] - b.x[p[:, 0]], axis=1) - b.bond_length) / b.bond_length
    assert np.all(b.bond_broken[stretch > 0.01])
    assert b.break_bonds() == 0


# ---- materials ------------------------------------------------------------------------------------

def test_materials():
    m = pd.BondBasedMaterial(E=2e9, critical_stretch=0.02)
    assert (m.kind, m.E, m.nu, m.critical_stretch) == ("bond-based", 2e9, 0.25, 0.02)
    assert math.isinf(pmb().critical_stretch)
    K = 2e9 / (3 * (1 - 2 * 0.25))
    assert pd.critical_stretch_from_energy(100.0, 0.003, 2e9) == pytest.approx(
        math.sqrt(5 * 100.0 / (9 * K * 0.003)), rel=1e-14)
    assert pd.BondBasedMaterial.criticalStretchFromEnergy(100.0, 0.003, 2e9, 2) == pytest.approx(
        math.sqrt(4 * math.pi * 100.0 / (9 * 2e9 * 0.003)), rel=1e-14)
    with pytest.raises(nsdyn.Error, match="G0 = -1"):
        pd.critical_stretch_from_energy(-1.0, 0.003, 2e9)
    assert m.wave_speed(2000.0) > 0
    lps = pd.LinearPeridynamicSolid(E=1e9, nu=0.3)
    nh = pd.NeoHookeanMaterial(E=1e6, nu=0.3, stabilisation=0.5)
    svk = pd.StVenantKirchhoffMaterial(E=1e6, nu=0.3)
    assert (lps.kind, nh.kind, svk.kind) == ("lps", "neo-hookean", "saint-venant-kirchhoff")
    assert nh.shear_modulus == pytest.approx(1e6 / 2.6) and nh.stabilisation == 0.5
    assert isinstance(nh, pd.HyperelasticMaterial) and isinstance(nh, pd.Material)
    rng = np.random.default_rng(5)
    for mat in (lps, nh, svk):
        b = pd.box([0, 0, 0], [0.02] * 3, mat, spacing=DX, density=1000.0)
        assert b.material.kind == mat.kind
        b.x = b.X + 1e-4 * rng.standard_normal(b.X.shape)
        f = b.forces()
        i, k, e = 20, 2, 1e-8
        xp, xm = b.x.copy(), b.x.copy()
        xp[i, k] += e
        xm[i, k] -= e
        assert -(b.energy(xp) - b.energy(xm)) / (2 * e) == pytest.approx(f[i, k], rel=1e-4)
    F = nh.deformation_gradients(b, b.X * 1.1)
    assert F.shape == (len(b), 3, 3) and np.allclose(F, 1.1 * np.eye(3), atol=1e-12)
    assert "NeoHookeanMaterial" in repr(nh)


# ---- steps ----------------------------------------------------------------------------------------

def moving_block(**kw):
    b = pd.box([0, 0, 0], [0.03] * 3, pmb(E=1e7), spacing=DX, density=1000.0, name="block", **kw)
    rng = np.random.default_rng(7)
    b.v = rng.uniform(-1, 1, size=b.X.shape)
    return b


def test_verlet_step_is_the_kernel_formula():
    b = moving_block()
    b.force[:, 0] = 1e-3
    g = np.array([0.0, 0.0, -9.81])
    h = 0.5 * pd.stable_step(b)
    x0, v0 = b.x.copy(), b.v.copy()
    x, v, r = pd.free_step(b, method="verlet", h=h, gravity=g)
    assert np.array_equal(b.x, x0) and np.array_equal(b.v, v0)  # the body is unchanged
    m = b.mass[:, None]
    vh = v0 + 0.5 * h * ((b.forces() + b.force) / m + g)
    assert np.allclose(x, x0 + h * vh, rtol=0, atol=1e-15)
    assert np.allclose(v, vh + 0.5 * h * ((b.forces(x) + b.force) / m + g), rtol=0, atol=1e-12)
    assert r["iterations"] == 1 and r["stable_step"] == pytest.approx(2 * h)
    with pytest.raises(nsdyn.Error, match="verlet"):
        pd.free_step(b, method="verlet", h=0.0)


def test_implicit_step_solves_the_theta_equation_and_is_the_same_everywhere():
    b = moving_block()
    g = np.array([0.0, 0.0, -9.81])
    h, theta = 10 * pd.stable_step(b), 0.5
    f0 = b.forces()
    steps = {}
    for method in ("newton", "substitution"):
        x, v, r = pd.free_step(b, method=method, h=h, theta=theta, gravity=g, tolerance=1e-10,
                               iterations=5000, threads=1)
        assert r["converged"] and r["monotone"] and r["energy_end"] <= r["energy_start"]
        # m (v1 - v0) = h ((1 - theta) f0 + theta f1 + m g), x1 = x0 + h ((1 - theta) v0 + theta v1)
        m = b.mass[:, None]
        lhs = m * (v - b.v)
        rhs = h * ((1 - theta) * f0 + theta * b.forces(x) + m * g)
        assert np.abs(lhs - rhs).max() <= 1e-6 * np.abs(m * b.v).max()
        assert np.allclose(x, b.x + h * ((1 - theta) * b.v + theta * v), rtol=0, atol=1e-15)
        steps[method] = x
    assert np.abs(steps["newton"] - steps["substitution"]).max() < 1e-9
    # the same step through PeridynamicSimulation: the same bits
    x, v, r = pd.free_step(b, h=h, theta=theta, gravity=g, threads=1)
    sim = pd.Simulation(h=h, theta=theta, gravity=g, threads=1)
    assert sim.add(b) == 0 and sim.body(0) is b and len(sim) == 1
    rep = sim.step()
    assert np.array_equal(b.x, x) and np.array_equal(b.v, v)
    assert rep["step"] == 1 and rep["time"] == h and rep["iterations"] == r["iterations"]
    assert rep["kinetic_energy"] == pytest.approx(b.kinetic_energy(), rel=1e-14)
    assert sim.time == h and sim.steps == 1 and sim.method == "substitution"
    last = sim.run(3)
    assert sim.steps == 4 and last == sim.last_report and last["step"] == 4


def test_scene_engine_step_without_contact_is_the_free_step():
    b = moving_block(threads=1)
    e = nsdyn.SceneEngine(h=1e-4, gravity=(0, 0, -9.81))
    system = e.add_peridynamic_body(b, tolerance=1e-12, iterations=5000, threads=1)
    assert e.body_count == len(b) and system.store_index(5) == 5 and system.body is b
    x, v, r = pd.free_step(b, h=1e-4, theta=0.5, gravity=(0, 0, -9.81), tolerance=1e-12,
                           iterations=5000, threads=1)
    e.step()
    assert np.allclose(b.x, x, rtol=0, atol=1e-15)
    assert np.allclose(e.q[:, :3], x, rtol=0, atol=1e-15)
    assert np.allclose(b.v, v, rtol=0, atol=1e-10)
    assert system.last_report["contact_points"] == 0
    with pytest.raises(nsdyn.Error):
        e.add_peridynamic_body(moving_block())  # after the first step


def test_pmb_bar_in_tension_recovers_youngs_modulus():
    # Tests/Kernel/peridynamics/PeridynamicChecksTest.cpp: a 30 x 8 x 8 bar (dx = 1 mm, delta =
    # 3 dx) held by 3 prescribed layers, an end load on its last layer, Newton statics: the strain
    # between the sections at L/3 and 2L/3 gives E
    dx, E, nl, nw = 1e-3, 1e9, 30, 8
    L, w = nl * dx, nw * dx
    bar = pd.box([L / 2, 0, 0], [L / 2, w / 2, w / 2], pmb(E=E), spacing=dx, density=2000.0,
                 name="bar")
    assert bar.prescribe([-1, -1, -1], [2.9 * dx, 1, 1]) == 3 * nw * nw
    F = 1e-4 * E * w * w
    end = bar.X[:, 0] > L - dx
    bar.force[end, 0] = F / end.sum()
    sim = pd.Simulation(method="newton", tolerance=1e-8)
    sim.add(bar)
    r = sim.equilibrium()
    assert r["converged"] and np.all(bar.v == 0) and sim.steps == 0

    def section(xs):
        sel = np.abs(bar.X[:, 0] - xs) < 0.4 * dx
        return (bar.x[sel, 0] - bar.X[sel, 0]).mean()

    xa, xb = dx * (nl // 3 + 0.5), dx * (2 * nl // 3 + 0.5)
    strain = (section(xb) - section(xa)) / (xb - xa)
    print("bar: E / E_input = %.4f (%d Newton iterations)" % (F / (w * w) / strain / E, r["iterations"]))
    assert F / (w * w) / strain / E == pytest.approx(1.0, abs=0.05)


# ---- contact --------------------------------------------------------------------------------------

def test_block_dropped_on_a_plane_settles_in_a_scene():
    # 6 x 6 x 3 points (PMB, E = 1 MPa) dropped from 2 mm onto z = 0 in an nsdyn.Scene (e = 0):
    # it comes to rest on the plane, still ringing by its own elasticity (theta = 1/2 keeps it)
    dx = 0.01
    b = pd.box([0, 0, 1.5 * dx + 0.002], [3 * dx, 3 * dx, 1.5 * dx], pmb(E=1e6), spacing=dx,
               density=1000.0, name="block", threads=1)
    # the contact solve to 1e-12: with the body's exact response, the undamped vertical ringing
    # (theta = 1/2) feeds a rocking mode seeded by the round-off of the solve, which grows about
    # tenfold every 55 steps here (from 2e-15 to 8e-12 kg m/s in 200 steps; from 2e-11 to 4e-7
    # with a solve to 1e-8); theta > 1/2 damps both
    scene = nsdyn.Scene(T=0.3, h=1e-3, tolerance=1e-12, max_iterations=20000, mu=0.5)
    scene.add_bodies([nsdyn.ground_plane(0.0)])
    system = scene.add_peridynamic_body(b, tolerance=1e-6, iterations=2000, threads=1)
    assert isinstance(system, pd.SceneSystem) and system.name == "peridynamic body 'block'"
    z, vz = [], []

    def record():
        z.append(b.centre_of_mass()[2])
        vz.append(b.momentum()[2] / b.total_mass())

    scene.run(callback=record)
    assert scene.time == pytest.approx(0.3) and len(z) == 300
    assert scene.engine.body_count == 1 + len(b)  # the plane and one sphere per point
    assert system.last_report["converged"] and 0 < system.last_report["contact_points"] <= 36
    bottom = b.X[:, 2] < 0.002 + dx
    assert np.allclose(b.x[bottom, 2], b.contact_radius, atol=2e-5)  # resting on the plane
    fall = math.sqrt(2 * 9.81 * 0.002)  # speed at the impact
    assert min(vz) < -0.5 * fall
    last = slice(200, 300)
    assert abs(np.mean(z[last]) - 1.5 * dx) < 2e-5
    assert abs(np.mean(vz[last])) < 0.005 * fall and np.abs(vz[last]).max() < 0.1 * fall
    assert np.abs(b.momentum()[:2]).max() < 1e-8  # no sideways motion (1.2e-9: the rocking above)
    assert scene.engine.last_report["status"] == "converged"
    assert system.total_iterations > 0 and system.total_bonds_broken == 0


SCENE_XML = """<?xml version="1.0"?>
<nsdyn version="1" name="pd">
  <parameters><parameter name="dx" value="0.01"/></parameters>
  <model>
    <scene gravity="0 0 -9.81">
      <StaticBody name="floor"><HalfSpaceShape normal="0 0 1" offset="0"/></StaticBody>
      <PeridynamicBody name="block" spacing="dx" density="1000" threads="1">
        <box centre="0 0 0.017" half-extents="0.03 0.03 0.015"/>
        <peridynamicMaterial model="bond-based" E="1e6"/>
      </PeridynamicBody>
    </scene>
  </model>
  <simulation type="TimeStepping" T="0.05" h="1e-3">
    <MoreauJeanOSI theta="0.5"/>
    <FrictionContact dim="3"/>
  </simulation>
</nsdyn>
"""


def test_peridynamic_body_of_an_xml_scene(tmp_path):
    path = tmp_path / "pd.xml"
    path.write_text(SCENE_XML)
    run = nsdyn.load_xml(str(path))
    systems = run.engine.peridynamic_systems()
    assert len(systems) == 1 and isinstance(systems[0], pd.SceneSystem)
    b = systems[0].body
    assert (b.name, len(b), b.material.kind, b.material.E) == ("block", 108, "bond-based", 1e6)
    assert run.engine.body_count == 1 + len(b)
    run.run(steps=30)
    assert run.engine.time == pytest.approx(0.03)
    index = [systems[0].store_index(i) for i in range(len(b))]
    assert np.array_equal(run.engine.q[index, :3], b.x)  # the body holds the engine's state
    # fallen onto the floor (2 mm above it at t = 0, in contact from about t = 0.02 s)
    assert b.centre_of_mass()[2] < 0.0165 and b.x[:, 2].min() > b.contact_radius - 1e-4
    assert systems[0].total_iterations > 0
    seen = 0  # the block lands at t = 0.034 s: the body's response in the contact problem
    for _ in range(10):
        run.run(steps=1)
        seen = max(seen, systems[0].last_report["response_points"])
    assert systems[0].exact_response and seen > 0
    # exact-response="false": the points' masses only; an explicit method has no other response
    assert not systems[0].self_contact and systems[0].family > 0
    for attribute, exact in (('exact-response="false"', False), ('method="verlet"', False)):
        path.write_text(SCENE_XML.replace('threads="1"', 'threads="1" ' + attribute))
        other = nsdyn.load_xml(str(path)).engine.peridynamic_systems()[0]
        assert other.exact_response == exact
    # self-contact="true": the points in no collision family, the bonded pairs dropped
    path.write_text(SCENE_XML.replace('threads="1"', 'threads="1" self-contact="true"'))
    touching = nsdyn.load_xml(str(path))
    other = touching.engine.peridynamic_systems()[0]
    assert other.self_contact and other.family == 0
    touching.run(steps=2)  # the lattice's touching neighbours are bonded: no contact among them
    assert touching.engine.last_report["contacts"] == 0


def test_exact_response_keywords():
    # the block of the test above on the incline of slope 0.4 (mu = 0.5), put in its static
    # equilibrium (bottom layer held), then 50 steps: with the body's iteration matrix in the
    # contact problem its bottom layer stays put at theta = 1/2; with the points' masses only the
    # contact stops the touching points alone, the body rings on them and they slip
    dx, alpha = 0.01, math.atan(0.4)
    g = (9.81 * math.sin(alpha), 0, -9.81 * math.cos(alpha))
    moved = {}
    for exact in (True, False):
        b = pd.box([0, 0, 1.5 * dx], [3 * dx, 3 * dx, 1.5 * dx], pmb(E=1e7), spacing=dx,
                   density=1000.0, name="block", threads=1)
        b.prescribe([-1, -1, -1], [1, 1, dx])
        b.x, _, r = pd.free_step(b, method="newton", h=0.0, gravity=g, tolerance=1e-8, threads=1)
        assert r["converged"]
        b.prescribe([-1, -1, -1], [1, 1, 1], on=False)
        engine = nsdyn.SceneEngine(h=1e-3, theta=0.5, tolerance=1e-10, max_iterations=20000,
                                   gravity=g, recovery=False)
        engine.set_default_material(mu=0.5, restitution=0.0)
        engine.add_bodies([nsdyn.ground_plane(0.0)])
        system = engine.add_peridynamic_body(b, tolerance=1e-6, iterations=2000, threads=1,
                                             exact_response=exact)
        assert system.exact_response == exact
        bottom = b.X[:, 2] < dx
        x0 = b.x[bottom, 0].mean()
        for _ in range(50):
            engine.step()
        assert system.last_report["lumped_response"] is False
        assert (system.last_report["response_points"] > 0) == exact
        moved[exact] = abs(b.x[bottom, 0].mean() - x0)
    print("incline, 50 steps: bottom layer slip %.2e m (exact response), %.2e m (lumped)"
          % (moved[True], moved[False]))
    assert moved[True] < 1e-8 and moved[False] > 1e-6
    with pytest.raises((TypeError, nsdyn.Error)):
        nsdyn.SceneEngine().add_peridynamic_body(b, exact_response="yes")
    with pytest.raises((TypeError, nsdyn.Error)):
        nsdyn.SceneEngine().add_peridynamic_body(b, self_contact=2)


# ---- writers --------------------------------------------------------------------------------------

def test_vtk_and_hdf5_writers(tmp_path):
    b = moving_block()
    vtk = pd.VtkWriter(tmp_path / "vtk", "block")
    vtk.write_frame(0.0, b)
    b.x = b.X + 1e-4
    vtk.write_frame(0.1, b)
    pvd = vtk.finish()
    assert vtk.frame_count == 2 and pvd == vtk.pvd_path and pvd.endswith("block.pvd")
    assert all((tmp_path / "vtk" / name).exists() for name in [pvd] + vtk.files)
    text = open(vtk.files[1]).read()
    assert "displacement" in text and "damage" in text
    path = tmp_path / "pd.h5"
    with pd.Hdf5Writer(path) as h5:
        h5.write_step(0.0, b)
        b.x = b.X + 2e-4
        h5.write_step(0.5, [b])
        assert h5.steps == 2 and not path.exists()  # written as path.part until closed
    assert path.exists()
    assert np.array_equal(pd.read_hdf5(path, "time"), [0.0, 0.5])
    positions = pd.read_hdf5(path, "peridynamics/block/positions")
    assert positions.shape == (2, len(b), 3) and np.array_equal(positions[1], b.x)
    assert np.array_equal(pd.read_hdf5(path, "peridynamics/block/reference"), b.X)
    # an exception inside the block discards the file
    bad = tmp_path / "bad.h5"
    with pytest.raises(RuntimeError, match="stop"):
        with pd.Hdf5Writer(bad) as h5:
            h5.write_step(0.0, b)
            raise RuntimeError("stop")
    assert not bad.exists() and not (tmp_path / "bad.h5.part").exists()
    with pytest.raises(nsdyn.Error):
        pd.read_hdf5(path, "peridynamics/none")


# ---- bad input ------------------------------------------------------------------------------------

def error_of(f, kind=nsdyn.Error):
    with pytest.raises(kind) as info:
        f()
    return str(info.value)


def test_bad_input_raises_the_kernel_message():
    # nsdyn.Error (a RuntimeError) with the Kernel's message: the body and the value named
    msg = error_of(lambda: block(half=(0.02, 0.02, 0.02), horizon=0.005))
    assert "block" in msg and "horizon = 0.005" in msg
    assert issubclass(nsdyn.Error, RuntimeError)
    assert "density = -1" in error_of(
        lambda: pd.box([0, 0, 0], [0.02] * 3, pmb(), spacing=DX, density=-1.0))
    assert "multiple of the spacing" in error_of(
        lambda: pd.box([0, 0, 0], [0.0255, 0.02, 0.02], pmb(), spacing=DX, density=1000.0))
    msg = error_of(lambda: block(half=(0.02, 0.02, 0.02), material=pmb(nu=0.3)))
    assert "block" in msg and "nu = 0.3" in msg
    assert "E = -1" in error_of(lambda: block(material=pmb(E=-1.0)))
    X = np.array([[0, 0, 0], [0.01, 0, 0], [1, 1, 1]], dtype=float)
    msg = error_of(lambda: pd.Body(X, [1e-6] * 3, pmb(), spacing=DX, density=1000.0, name="iso"))
    assert "iso" in msg and "point 2" in msg
    assert "volume[1] = 0" in error_of(
        lambda: pd.Body(X, [1e-6, 0, 1e-6], pmb(), spacing=DX, density=1000.0))
    b = block()
    msg = error_of(lambda: b.precrack([1, 1, 1], [1, 2, 1]))
    assert "block" in msg and "crosses none" in msg
    assert "ssor" in error_of(lambda: pd.Simulation(method="ssor"))
    engine = nsdyn.SceneEngine()
    assert "ssor" in error_of(lambda: engine.add_peridynamic_body(b, stepper="ssor"))
    sim = pd.Simulation(h=-1.0)
    sim.add(b)
    assert "h = -1" in error_of(sim.step)
    assert "theta" in error_of(lambda: pd.free_step(b, theta=0.2))
    # arguments of the wrong type or shape: TypeError / ValueError naming them
    assert "spacing" in error_of(lambda: pd.box([0, 0, 0], [0.02] * 3, pmb(), density=1.0), TypeError)
    assert "spacing: expected a real number, found str" in error_of(
        lambda: pd.box([0, 0, 0], [0.02] * 3, pmb(), spacing="x", density=1.0), TypeError)
    assert "unexpected keyword argument 'spacnig'" in error_of(
        lambda: pd.box([0, 0, 0], [0.02] * 3, pmb(), spacnig=0.01, density=1.0), TypeError)
    assert "material" in error_of(
        lambda: pd.box([0, 0, 0], [0.02] * 3, "steel", spacing=DX, density=1.0), TypeError)
    assert "E: expected a real number" in error_of(lambda: pd.BondBasedMaterial(E="hard"), TypeError)
    assert "expected shape (240, 3)" in error_of(lambda: setattr(b, "x", np.zeros((3, 3))), ValueError)
    assert "finite" in error_of(lambda: setattr(b, "v", np.full((240, 3), np.nan)), ValueError)
    assert "Body" in error_of(lambda: pd.Simulation().add("block"), TypeError)
    assert "fracture: expected True or False, found int 1" in error_of(
        lambda: pd.Simulation(fracture=1), TypeError)
    assert "free_step: iterations: expected an integer in [0, 2147483647], found -3" in error_of(
        lambda: pd.free_step(b, iterations=-3), ValueError)
    assert "centre" in error_of(lambda: pd.sphere([0, 0], 0.1, pmb(), spacing=DX, density=1.0),
                                ValueError)
