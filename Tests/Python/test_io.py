"""IO bindings: XML models loaded and run, tables and result files, HDF5 read back."""
import numpy as np
import pytest

import nsdyn
from conftest import SOURCE


def test_xml_bouncing_ball_equals_the_python_model(shared, tmp_path):
    run = nsdyn.load_xml(str(SOURCE / "Examples" / "BouncingBallTS" / "BouncingBallTS.xml"))
    assert run.name == "BouncingBallTS" and run.simulation_type == "TimeStepping" and run.steps == 2000
    assert set(run.systems) == {"ball"} and set(run.interactions) == {"floor"}
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
    with pytest.raises(nsdyn.Error):
        nsdyn.read_hdf5_dataset(path, "data/nope")
    with pytest.raises(nsdyn.Error):
        nsdyn.read_hdf5_dataset(str(tmp_path / "missing.hdf5"), "data/dynamic")
