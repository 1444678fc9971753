"""Reference counting and lifetimes: parts outliving the script's names, no leak over 10^4
model constructions (RSS), and the GC seeing no cycles kept by the bindings."""
import gc
import weakref

import numpy as np

import nsdyn


def build():
    ball = nsdyn.LagrangianLinearTIDS([1.0, 0.0, 0.0], [0.0, 0.0, 0.0], np.diag([1.0, 1.0, 0.004]))
    ball.setFExt([-9.81, 0.0, 0.0])
    inter = nsdyn.Interaction(nsdyn.NewtonImpactNSL(0.9), nsdyn.LagrangianLinearTIR([[1.0, 0.0, 0.0]]))
    model = nsdyn.Model(0.0, 1.0)
    model.nonSmoothDynamicalSystem().insertDynamicalSystem(ball)
    model.nonSmoothDynamicalSystem().link(inter, ball)
    sim = nsdyn.TimeStepping(nsdyn.TimeDiscretisation(0.0, 0.005), nsdyn.MoreauJeanOSI(0.5), nsdyn.LCP())
    model.initialize(sim)
    return model, sim, ball, inter


def test_simulation_outlives_model_name():
    model, sim, ball, inter = build()
    del model, ball, inter
    gc.collect()
    assert sim.run() == 200  # the model (kept alive by the simulation) still runs


def test_model_outlives_its_parts_names():
    model, sim, ball, inter = build()
    del sim, ball, inter
    gc.collect()
    nsds = model.nonSmoothDynamicalSystem()
    ds = nsds.dynamicalSystems()[0]
    model.simulation().run(steps=5)
    assert ds.q()[0] < 1.0 and nsds.interactions()[0].lambda_(1).shape == (1,)


def test_simulation_from_model_keeps_it_alive():
    model, sim, _, _ = build()
    del sim
    s2 = model.simulation()
    del model
    gc.collect()
    assert s2.run(steps=3) == 3


def test_objects_are_freed():
    model, sim, ball, inter = build()
    refs = [weakref.ref(o) for o in (model, sim, ball, inter)]
    del model, sim, ball, inter
    gc.collect()
    assert all(r() is None for r in refs)


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def test_no_leak_over_ten_thousand_models():
    for _ in range(500):  # warm-up: allocator pools, pybind11 type caches
        build()[1].run(steps=2)
    gc.collect()
    before = rss_kib()
    for _ in range(10000):
        model, sim, ball, inter = build()
        sim.run(steps=2)
    del model, sim, ball, inter
    gc.collect()
    grown = rss_kib() - before
    # a leaked model (a few kB each) would grow RSS by tens of MB
    assert grown < 8 * 1024, "RSS grew by %d KiB over 10^4 models" % grown


def test_problems_and_solves_do_not_leak():
    M = np.eye(50) * 4 - np.eye(50, k=1) - np.eye(50, k=-1)
    q = -np.ones(50)
    for _ in range(200):
        nsdyn.solve(nsdyn.lcp(M, q), "lemke")
    gc.collect()
    before = rss_kib()
    for _ in range(3000):
        nsdyn.solve(nsdyn.lcp(M, q), "lemke")
    gc.collect()
    assert rss_kib() - before < 8 * 1024
