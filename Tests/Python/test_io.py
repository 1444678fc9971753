"""IO bindings: XML models loaded and run, tables and result files, HDF5 read back."""
import subprocess

import numpy as np
import pytest

import nsdyn
from conftest import BIN, SOURCE


def test_xml_bouncing_ball_equals_the_python_model(shared, tmp_path):
    run = nsdyn.load_xml(str(SOURCE / "Examples" / "BouncingBallTS" / "BouncingBallTS.xml"))
    assert run.name == "BouncingBallTS" and run.simulation_type == "TimeStepping" and run.steps == 2000
    assert set(run.systems) == {"ball"} and set(run.interactions) == {"floor"}
    assert run.engine is None  # no <scene>: the Kernel simulation runs it
    assert run.run(steps=100) == 100 and run.step == 100
    assert run.run() == 1900
    table = run.tables()["BouncingBallTS"]
    assert table["columns"] == ["t", "z", "zdot", "p_z", "lambda"]
    ref = np.loadtxt(shared / "reference" / "BouncingBallTS.ref", skiprows=1)
    assert np.max(np.abs(table["data"] - ref)) < 1e-11
    written = run.write_results(str(tmp_path), "csv")
    data = np.loadtxt(written[0], delimiter=",", skiprows=1)
    np.testing.assert_array_equal(data, table["data"])
    h5 = run.write_results(str(tmp_path), "hdf5")
    assert h5[0].endswith(".h5")
    with pytest.raises(ValueError, match="format"):
        run.write_results(str(tmp_path), "xlsx")


def test_xml_errors(tmp_path):
    with pytest.raises(nsdyn.Error):
        nsdyn.load_xml(str(tmp_path / "missing.xml"))
    with pytest.raises(nsdyn.Error):
        nsdyn.load_xml_string("<nsdyn version='1'><model></nsdyn>")


def test_parts_outlive_the_loaded_model():
    run = nsdyn.load_xml(str(SOURCE / "Examples" / "BouncingBallTS" / "BouncingBallTS.xml"))
    ball = run.system("ball")
    sim = run.simulation
    del run
    sim.run(steps=10)
    assert ball.q()[0] < 1.0


def test_scene_hdf5_read_back(tmp_path):
    scene = nsdyn.Scene(0.02, 1e-3)
    scene.add_body(nsdyn.ground_plane())
    scene.add_body(nsdyn.make_body(nsdyn.SphereShape(0.1), mass=1.0, position=[0, 0, 0.1]))
    path = str(tmp_path / "drop.hdf5")
    scene.open_hdf5(path)
    scene.run()
    final = scene.positions()
    scene.close_hdf5()
    dyn = nsdyn.read_hdf5_dataset(path, "data/dynamic")
    assert dyn.ndim == 2 and dyn.shape[0] == 21
    # last row: time, body id, position (3), quaternion (4)
    np.testing.assert_allclose(dyn[-1, 2:9], final[0], atol=1e-12)
    # the frames of `nsdyn run`'s scene files: solver and energy rows at t0 and every step
    solv, energy = nsdyn.read_hdf5_dataset(path, "data/solv"), nsdyn.read_hdf5_dataset(path, "data/energy")
    assert solv.shape == (21, 4) and energy.shape == (21, 5)
    np.testing.assert_allclose(energy[:, 0], np.arange(21) * 1e-3, atol=1e-15)
    assert abs(energy[-1, 1] - scene.kinetic_energy()) < 1e-15
    with pytest.raises(nsdyn.Error):
        nsdyn.read_hdf5_dataset(path, "data/nope")
    with pytest.raises(nsdyn.Error):
        nsdyn.read_hdf5_dataset(str(tmp_path / "missing.hdf5"), "data/dynamic")


INCLINE = SOURCE / "Examples" / "InclineRolling" / "InclineRolling.xml"


def test_xml_scene_runs_on_the_scene_engine():
    run = nsdyn.load_xml(str(INCLINE))
    e = run.engine
    assert isinstance(e, nsdyn.SceneEngine) and len(e) == 2 and not e.is_static[1]
    assert e.solver == "nsgs" and e.h == 1e-3 and e.initialized
    assert run.run(steps=250) == 250 and e.steps == run.step == 250
    assert run.run() == 750 and abs(e.time - 1.0) < 1e-12
    # system(name) reads the engine's state after run()
    np.testing.assert_array_equal(run.system("ball").q(), e.q[1])
    np.testing.assert_array_equal(run.system("ball").velocity(), e.v[1])
    table = run.tables()["InclineRolling"]
    data = dict(zip(table["columns"], table["data"].T))
    assert table["data"].shape == (1001, 14)
    # rolling without slip: v = 5/7 g sin(theta) t; the scene's figures are the engine's
    np.testing.assert_allclose(data["v_slope"][1:], data["v_analytic"][1:], rtol=1e-3)
    np.testing.assert_allclose(data["r_omega"][-1], data["v_slope"][-1], rtol=1e-3)
    assert data["contacts"][-1] == 1 and data["active"][-1] == 1 and data["iterations"][-1] > 0
    assert abs(data["kinetic"][-1] - e.kinetic_energy()) == 0.0


def test_xml_scene_the_engine_cannot_step():
    xml = """<nsdyn version="1" name="Mixed"><model>
      <systems><LagrangianLinearTIDS name="osc"><q0>1</q0><v0>0</v0><mass>1</mass></LagrangianLinearTIDS></systems>
      <scene gravity="0 0 -9.81"><ContactManager><material mu="0.3" restitution="0"/></ContactManager>
        <RigidBody name="ball" density="1000"><SphereShape radius="0.1"/></RigidBody></scene></model>
      <simulation type="TimeStepping" T="0.01" h="1e-3"><MoreauJeanOSI theta="0.5"/>
        <FrictionContact dim="3" solver="nsgs"/></simulation></nsdyn>"""
    with pytest.raises(nsdyn.Error, match="scene engine: expected the scene's bodies as the only systems"):
        nsdyn.load_xml_string(xml)


def _nsdyn_run(model, fmt, out):
    exe = BIN / "nsdyn"
    if not exe.exists():
        pytest.skip("%s not built" % exe)
    subprocess.run([str(exe), "run", str(model), "--format", fmt, "--output", str(out), "--no-plot", "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)


def test_read_results_of_nsdyn_run_hdf5_equals_csv(tmp_path):
    model = SOURCE / "Examples" / "BouncingBallTS" / "BouncingBallTS.xml"
    _nsdyn_run(model, "hdf5", tmp_path / "h5")
    _nsdyn_run(model, "csv", tmp_path / "csv")
    files = sorted((tmp_path / "h5").glob("*.h5"))
    assert len(files) == 1
    h5 = nsdyn.read_results(files[0])
    csv = nsdyn.read_results(tmp_path / "csv")
    assert set(h5) == set(csv) == {"BouncingBallTS"}
    for name, table in h5.items():
        assert table["columns"] == csv[name]["columns"] == ["t", "z", "zdot", "p_z", "lambda"]
        assert table["data"].dtype == np.float64 and table["data"].shape == (2001, 5)
        # the CSV holds %.17g values: the same doubles
        np.testing.assert_allclose(table["data"], csv[name]["data"], rtol=1e-15, atol=1e-300)
    # a folder holding one HDF5 file reads as that file; one CSV file reads as one table
    np.testing.assert_array_equal(nsdyn.read_results(tmp_path / "h5")["BouncingBallTS"]["data"],
                                  h5["BouncingBallTS"]["data"])
    one = nsdyn.read_results(str(tmp_path / "csv" / "BouncingBallTS.csv"))
    np.testing.assert_array_equal(one["BouncingBallTS"]["data"], csv["BouncingBallTS"]["data"])


def test_read_results_round_trip_and_errors(tmp_path):
    run = nsdyn.load_xml(str(SOURCE / "Examples" / "BouncingBallTS" / "BouncingBallTS.xml"))
    run.run(steps=50)
    tables = run.tables()
    [h5] = run.write_results(str(tmp_path / "h5"), "hdf5")
    run.write_results(str(tmp_path / "csv"), "csv")
    for got in (nsdyn.read_results(h5), nsdyn.read_results(tmp_path / "csv")):
        assert set(got) == set(tables)
        for name, table in tables.items():
            assert got[name]["columns"] == table["columns"]
            np.testing.assert_array_equal(got[name]["data"], table["data"])
    with pytest.raises(FileNotFoundError):
        nsdyn.read_results(tmp_path / "missing.h5")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError):
        nsdyn.read_results(tmp_path / "empty")
    (tmp_path / "text.h5").write_text("not an HDF5 file")
    with pytest.raises(nsdyn.Error, match="HDF5"):
        nsdyn.read_results(tmp_path / "text.h5")


def test_xml_scene_tables_equal_nsdyn_run(tmp_path):
    # LoadedModel.run of a <scene> is `nsdyn run`'s loop: the same engine, the same figures
    _nsdyn_run(INCLINE, "csv", tmp_path / "csv")
    ref = nsdyn.read_results(tmp_path / "csv")["InclineRolling"]
    run = nsdyn.load_xml(str(INCLINE))
    run.run(steps=400)
    run.run()
    table = run.tables()["InclineRolling"]
    assert table["columns"] == ref["columns"]
    np.testing.assert_array_equal(table["data"], ref["data"])
