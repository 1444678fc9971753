"""nsdyn.SceneEngine's overlap recovery from Python (keywords recovery, recovery_max_speed, ...)."""
import pytest

import nsdyn

R = 0.1


def stack(overlap, **options):
    """A floor and 3 spheres of radius R at rest, each contact overlapping by `overlap`."""
    e = nsdyn.SceneEngine(tolerance=1e-12, max_iterations=10000, threads=1, **options)
    e.add_static(nsdyn.HalfSpaceShape())
    for k in range(3):
        e.add_body(nsdyn.SphereShape(R), mass=1.0,
                   position=(0.0, 0.0, R - overlap + k * (2 * R - overlap)))
    return e


def test_recovery_removes_a_planted_overlap_without_kinetic_energy():
    e = stack(0.3 * R, recovery=True, recovery_max_speed=1.0)
    worst = max(e.step()["kinetic_energy"] for _ in range(80))
    assert worst <= 1e-6
    report = e.step()
    assert report["max_penetration"] <= 0.01 * R * (1 + 1e-6)
    assert abs(e.q[3, 2] - 5 * R) <= 3 * 0.01 * R + 1e-9


def test_recovery_off_keeps_the_overlap():
    e = stack(0.3 * R, recovery=False)
    for _ in range(50):
        report = e.step()
    assert abs(report["max_penetration"] - 0.3 * R) < 1e-9


def test_bad_recovery_keywords():
    with pytest.raises(ValueError, match="maxSpeed = -1"):
        stack(0.0, recovery=True, recovery_max_speed=-1.0)
    with pytest.raises(ValueError, match="slopsPerStep = 0"):
        stack(0.0, recovery=True, recovery_slops_per_step=0.0)
    with pytest.raises(TypeError, match="recovery_speed"):
        stack(0.0, recovery_speed=1.0)


def test_recovery_is_on_by_default():
    # the default engine pushes the planted overlap out like recovery=True (the same bits)
    d, on = stack(0.3 * R), stack(0.3 * R, recovery=True)
    for _ in range(30):
        rd, ro = d.step(), on.step()
        assert rd["recovered"] == ro["recovered"] > 0
    assert (d.q == on.q).all()
    # the default cap, one slop (1 mm) per step: the 30 mm are out to the slop in 29 steps
    assert abs(rd["max_penetration"] - 0.01 * R) < 1e-9


def test_stabilisation_sets_the_recovery_aside():
    # Baumgarte on: the recovery does not run (its report counts no contact), same bits as off
    a, b = stack(0.3 * R, stabilisation=0.2, recovery=True), stack(0.3 * R, stabilisation=0.2)
    for _ in range(20):
        ra, rb = a.step(), b.step()
        assert ra["recovered"] == 0
    assert (a.q == b.q).all()


def landing(**options):
    """A sphere of radius R 13 mm over the floor at 10 m/s down (h = 1e-3), recovery off."""
    e = nsdyn.SceneEngine(h=1e-3, tolerance=1e-10, threads=1, recovery=False, **options)
    e.add_static(nsdyn.HalfSpaceShape())
    e.add_body(nsdyn.SphereShape(R), density=1000.0, position=(0.0, 0.0, R + 0.013),
               velocity=(0.0, 0.0, -10.0, 0.0, 0.0, 0.0))
    return e


def test_speculative_contacts_stop_a_landing():
    lowest = {}
    for spec in (False, True):
        e = landing(speculative_contacts=spec)
        low = 1.0
        for _ in range(40):
            report = e.step()
            low = min(low, e.q[1, 2])
        lowest[spec] = low
        assert report["speculative"] == 0  # at rest: no contact taken early
    assert lowest[False] < R - 0.002  # sinks about h U / 2 = 5 mm
    assert lowest[True] > R - 1e-4


def test_scene_keywords():
    def planted(**options):
        """The sphere's height after 50 steps, planted 0.3 R into the ground."""
        s = nsdyn.Scene(0.05, 1e-3, tolerance=1e-10, max_iterations=10000, **options)
        s.add_body(nsdyn.ground_plane(0.0))
        s.add_body(nsdyn.make_body(nsdyn.SphereShape(R), density=1000.0, position=(0, 0, 0.7 * R)))
        s.run()
        return s.positions()[0, 2]
    # on by default: pushed out by one slop (1 mm) per step, to the slop within 50 steps
    assert abs(planted() - (R - 0.01 * R)) < 1e-9
    assert planted() == planted(recovery=True)
    assert abs(planted(recovery=False) - 0.7 * R) < 1e-9
    assert abs(planted(recovery=False, speculative_contacts=True) - 0.7 * R) < 1e-9
    with pytest.raises(TypeError, match="recovery: expected True or False, found 'yes'"):
        nsdyn.Scene(1.0, recovery="yes")
    with pytest.raises(TypeError, match="speculative_contacts"):
        nsdyn.Scene(1.0, speculative_contacts=1)
