#!/usr/bin/python3
"""race_siconos.py: Siconos 4.4 (Debian python3-siconos: its mechanics with Bullet collision, NSGS)
in the race (issue 24). The scene comes from race_measure --dump-scene (the same scene module as
every driver), the bodies after each step go to a positions file, and race_measure measures it
with the one quality code of the race and writes the CSV row. One thread.

  race_siconos.py --scene NAME [--state FILE] [--quick] [--steps K] [--budgets 5,20,100]
                  [--mode iterations|tolerance] [--max-iterations M] [--nocheck]
                  [--csv FILE] [--series-dir DIR] [--bin DIR]

--mode iterations (default): the budget is NSGS's iteration count per step (tolerance 1e-16: the
budget is always spent); --mode tolerance: the budget is the tolerance on Siconos's own error
(at most --max-iterations, 1000; a step above it counts in failed_steps), evaluated in full after
every sweep (ERROR_EVALUATION_FULL, frequency 1), as race_nsdyn checks it: NSGS's default
(LIGHT_WITH_FULL_FINAL) first waits for the relative change of the impulses between sweeps to
fall below the tolerance, a different criterion (on the 21-cube pyramid it ran 409 sweeps a step
to an error of 5e-7 where the full error reaches 1e-4 after 3.8; measured 2026-11-29).
--nocheck: reruns itself with LD_PRELOAD=race_siconos_nocheck.so (the debug graph checks of
Debian's build stubbed: see race_siconos_nocheck.cpp); the row's solver reads "nsgs_nocheck".
--bin: the folder of race_measure and race_siconos_nocheck.so (default: build/bin).

Settings, as a competent user of siconos.mechanics sets them (the classes mechanics_run.py uses):
RigidBodyDS (Newton-Euler, explicit mass and principal inertia), MoreauJeanOSI theta 0.5,
TimeStepping with one Newton iteration per step (one contact solve: the bodies are free, the
contact law linear in the velocities), FrictionContact(3) in sparse-block storage, NSGS with
Siconos's default local solver (error evaluation: above), lambda kept between steps (warm
start), NewtonImpactFrictionNSL(e, 0, mu); SiconosBulletCollisionManager: spheres and boxes
(inside margin 0.04 m for the metre-sized cubes, as Bullet's default, 2 % of the diameter for the
grains, outside margin 0), static boxes; each plane of the scene a static box slab behind it
(wide enough for the scene, a tenth as thick, inside margin min(0.04 m, a quarter of its
thickness)): Siconos's own SiconosPlane is a shape of half-size 1000 m (box or hull with a 1000 m
margin), which Debian's single-precision Bullet resolves to 2^-14 m, so that 1 cm grains get
floor contacts 61 um off and fall through them; contact breaking threshold 0.02 m for boxes
(Bullet's default), 1 mm for the 1 cm grains (as race_bullet).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

# one thread: OpenMP and OpenBLAS read these when they load (numpy and Siconos load them)
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"
import numpy as np  # noqa: E402


def parse_scene(path):
    scene = {"planes": [], "fixed": [], "bodies": []}
    with open(path) as f:
        head = f.readline().split()
        if head[:3] != ["#", "race", "scene"]:
            raise SystemExit("race_siconos.py: %s:1: not a race scene (race_measure --dump-scene)" % path)
        scene["name"] = head[3]
        kv = head[4:]
        for k, v in zip(kv[0::2], kv[1::2]):
            scene[k] = float(v)
        for n, line in enumerate(f, 2):
            w = line.split()
            if not w:
                continue
            if w[0] == "plane":
                scene["planes"].append([float(x) for x in w[1:5]])
            elif w[0] == "fixed":
                scene["fixed"].append([float(x) for x in w[1:11]])
            elif w[0] == "body":
                scene["bodies"].append((w[1], [float(x) for x in w[2:]]))
            else:
                raise SystemExit("race_siconos.py: %s:%d: unknown item '%s'" % (path, n, w[0]))
    return scene


def rotate(q, v):
    """v rotated by the unit quaternions q (w x y z), row by row."""
    w, u = q[:, :1], q[:, 1:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def quat_z_to(n):
    """The rotation taking +z to the unit vector n (w x y z)."""
    n = np.asarray(n, float)
    c = n[2]
    if c < -1 + 1e-12:
        return [0.0, 1.0, 0.0, 0.0]
    axis = np.cross([0.0, 0.0, 1.0], n)
    q = np.array([1.0 + c, axis[0], axis[1], axis[2]])
    return list(q / np.linalg.norm(q))


def run(scene, mode, budget, max_iterations, positions):
    import siconos.kernel as sk
    import siconos.numerics as sn
    from siconos.mechanics.collision.base import (RigidBodyDS, SiconosBox, SiconosContactor,
                                                  SiconosContactorSet, SiconosSphere)
    from siconos.mechanics.collision.bullet import (SiconosBulletCollisionManager,
                                                    SiconosBulletOptions)

    spheres = scene["bodies"][0][0] == "sphere"
    h, g = scene["h"], scene["gravity"]
    steps = int(scene["steps"])
    options = SiconosBulletOptions()
    options.contactBreakingThreshold = 1e-3 if spheres else 0.02
    manager = SiconosBulletCollisionManager(options)
    manager.insertNonSmoothLaw(sk.NewtonImpactFrictionNSL(scene["e"], 0.0, scene["mu"], 3), 0, 0)
    origin = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    keep = []  # the Python-side objects SWIG does not own
    # each plane n.x = d (bodies on the side n.x >= d) as a static slab behind it, wide enough
    # to hold the scene: SiconosPlane is a shape of half-size 1000 m, and
    # Debian's Bullet computes in single precision, so its contact depths and points come
    # quantised to 2^-14 m (61 um) and 1 cm grains fall through floor contacts placed off
    # their centre (measured on the settled column: 30 of its 36 stacks in free fall)
    reach = max(float(np.linalg.norm(v[7:10])) + max(v[0:3]) for _, v in scene["bodies"])
    for nx, ny, nz, d in scene["planes"]:
        half = 2.0 * (reach + abs(d)) + scene["length_scale"]
        thick = 0.1 * half
        shape = SiconosBox(2 * half, 2 * half, 2 * thick)
        shape.setInsideMargin(min(0.04, 0.25 * thick))
        shape.setOutsideMargin(0.0)
        cset = SiconosContactorSet()
        cset.append(SiconosContactor(shape, origin, 0))
        manager.insertStaticContactorSet(
            cset, [(d - thick) * nx, (d - thick) * ny, (d - thick) * nz] + quat_z_to([nx, ny, nz]))
        keep += [shape, cset]
    for f in scene["fixed"]:
        shape = SiconosBox(2 * f[0], 2 * f[1], 2 * f[2])
        shape.setInsideMargin(min(0.04, 0.5 * min(f[:3])))
        shape.setOutsideMargin(0.0)
        cset = SiconosContactorSet()
        cset.append(SiconosContactor(shape, origin, 0))
        manager.insertStaticContactorSet(cset, list(f[3:10]))
        keep += [shape, cset]

    nsds = sk.NonSmoothDynamicalSystem(0.0, steps * h)
    bodies = []
    for kind, v in scene["bodies"]:
        half, mass, inertia = v[0:3], v[3], v[4:7]
        x, q, vel, w = v[7:10], v[10:14], v[14:17], v[17:20]
        wb = rotate(np.array([[q[0], -q[1], -q[2], -q[3]]]), np.array([w]))[0]  # body frame
        body = RigidBodyDS(list(x) + list(q), list(vel) + list(wb), mass, np.diag(inertia))
        body.setUseContactorInertia(False)
        if kind == "sphere":
            shape = SiconosSphere(half[0])
            shape.setInsideMargin(0.02 * 2 * half[0])
        else:
            shape = SiconosBox(2 * half[0], 2 * half[1], 2 * half[2])
            shape.setInsideMargin(min(0.04, 0.5 * min(half)))
        shape.setOutsideMargin(0.0)
        cset = SiconosContactorSet()
        cset.append(SiconosContactor(shape, origin, 0))
        body.setContactors(cset)
        body.setFExtPtr([0.0, 0.0, mass * g])
        nsds.insertDynamicalSystem(body)
        bodies.append(body)
        keep += [shape, cset]

    so = sk.solver_options_create(sn.SICONOS_FRICTION_3D_NSGS)
    if mode == "iterations":
        so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = int(budget)
        so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-16
    else:
        so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = max_iterations
        so.dparam[sn.SICONOS_DPARAM_TOL] = budget
        # the tolerance on the Siconos error itself, checked after every sweep as race_nsdyn
        # checks it (NSGS's default, LIGHT_WITH_FULL_FINAL, first waits for the relative
        # change of r between sweeps to fall below it: another criterion)
        so.iparam[sn.SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION] = \
            sn.SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_FULL
        so.iparam[sn.SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION_FREQUENCY] = 1
    osnspb = sk.FrictionContact(3, so)
    osnspb.setMaxSize(max(16, 16 * len(bodies)))
    osnspb.setMStorageType(sn.NM_SPARSE_BLOCK)
    osnspb.setKeepLambdaAndYState(True)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h))
    sim.insertIntegrator(sk.MoreauJeanOSI(0.5))
    sim.insertNonSmoothProblem(osnspb)
    sim.insertInteractionManager(manager)
    sim.setNewtonOptions(sk.SICONOS_TS_NONLINEAR)
    sim.setNewtonMaxIteration(1)
    sim.setNewtonTolerance(1e-10)

    # Siconos prints a warning on stdout at every step that ends above its tolerance (every
    # step of --mode iterations): sent to /dev/null while stepping (not a cost of the engine)
    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        return steps_loop(sim, osnspb, so, sn, bodies, steps, mode, budget, positions)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def steps_loop(sim, osnspb, so, sn, bodies, steps, mode, budget, positions):
    failed = 0
    with open(positions, "w") as out:
        out.write("# race positions bodies %d\n" % len(bodies))
        for k in range(1, steps + 1):
            so.dparam[sn.SICONOS_DPARAM_RESIDU] = 0.0
            so.iparam[sn.SICONOS_IPARAM_ITER_DONE] = 0
            t0 = time.perf_counter()
            sim.computeOneStep()
            sim.nextStep()
            ms = 1e3 * (time.perf_counter() - t0)
            contacts = osnspb.getSizeOutput()
            err = so.dparam[sn.SICONOS_DPARAM_RESIDU] if contacts > 0 else 0.0
            its = so.iparam[sn.SICONOS_IPARAM_ITER_DONE] if contacts > 0 else 0
            if mode == "tolerance" and err > budget:
                failed += 1
            q = np.array([b.q() for b in bodies])
            tw = np.array([b.twist() for b in bodies])
            w = rotate(q[:, 3:7] / np.linalg.norm(q[:, 3:7], axis=1)[:, None], tw[:, 3:6])
            out.write("step %d ms %.6f err %.6e iterations %d\n" % (k, ms, err, its))
            np.savetxt(out, np.hstack([q, tw[:, 0:3], w]), fmt="%.12g")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scene", required=True)
    ap.add_argument("--state", default="")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--steps", type=int, default=0)
    ap.add_argument("--budgets", default="5,10,20,50,100,200,500")
    ap.add_argument("--mode", choices=["iterations", "tolerance"], default="iterations")
    ap.add_argument("--max-iterations", type=int, default=1000)
    ap.add_argument("--nocheck", action="store_true")
    ap.add_argument("--csv", default="race.csv")
    ap.add_argument("--series-dir", default="")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "..", "build", "bin"))
    a = ap.parse_args()
    measure = os.path.join(a.bin, "race_measure")
    if not os.access(measure, os.X_OK):
        print("race_siconos.py: %s missing (cmake --build build --target race_measure)" % measure,
              file=sys.stderr)
        return 2
    if a.nocheck and "race_siconos_nocheck" not in os.environ.get("LD_PRELOAD", ""):
        lib = os.path.join(a.bin, "race_siconos_nocheck.so")
        if not os.path.exists(lib):
            print("race_siconos.py: %s missing (cmake --build build --target race_siconos_nocheck)"
                  % lib, file=sys.stderr)
            return 2
        env = dict(os.environ, LD_PRELOAD=lib)
        return subprocess.call([sys.executable] + sys.argv, env=env)
    try:
        import siconos.mechanics.collision.bullet  # noqa: F401
    except ImportError as e:
        print("race_siconos.py: Siconos not found (%s): make bench-deps installs python3-siconos"
              % e, file=sys.stderr)
        return 2
    common = ["--scene", a.scene] + (["--state", a.state] if a.state else []) + \
        (["--quick"] if a.quick else []) + (["--steps", str(a.steps)] if a.steps > 0 else [])
    solver = "nsgs_nocheck" if a.nocheck else "nsgs"
    with tempfile.TemporaryDirectory(prefix="race_siconos_") as tmp:
        scene_file = os.path.join(tmp, "scene.txt")
        rc = subprocess.call([measure] + common + ["--dump-scene", scene_file])
        if rc != 0:
            return rc
        scene = parse_scene(scene_file)
        for b in a.budgets.split(","):
            budget = float(b)
            positions = os.path.join(tmp, "positions.txt")
            failed = run(scene, a.mode, budget, a.max_iterations, positions)
            settings = ("Siconos 4.4 Debian%s; MoreauJean 0.5; 1 Newton it.; NSGS %s; warm start"
                        % ("; graph checks stubbed" if a.nocheck else "; as shipped (graph checks on)",
                           "tol 1e-16" if a.mode == "iterations"
                           else "max %d it., full error after every sweep" % a.max_iterations))
            cmd = [measure] + common + ["--positions", positions, "--engine", "siconos",
                                        "--solver", solver, "--budget-kind", a.mode,
                                        "--budget", b, "--settings", settings, "--csv", a.csv]
            if a.mode == "tolerance":
                cmd += ["--failed-steps", str(failed)]
            if a.series_dir:
                cmd += ["--series-dir", a.series_dir]
            rc = subprocess.call(cmd)
            if rc != 0:
                return rc
    return 0


if __name__ == "__main__":
    sys.exit(main())
