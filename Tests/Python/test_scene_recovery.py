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
    with pytest.raises(ValueError, match="maxSpeed = 0"):
        stack(0.0, recovery=True, recovery_max_speed=0.0)
    with pytest.raises(TypeError, match="recovery_speed"):
        stack(0.0, recovery_speed=1.0)
