"""Shared fixtures of the Python tests (run by ctest with PYTHONPATH=build/python)."""
import os
import pathlib

import pytest

SHARED = pathlib.Path(os.environ.get("NSDYN_SHARED_DIR", pathlib.Path(__file__).resolve().parents[3] / "shared"))
SOURCE = pathlib.Path(os.environ.get("NSDYN_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
BIN = pathlib.Path(os.environ.get("NSDYN_BIN_DIR", SOURCE / "build" / "bin"))


@pytest.fixture
def shared():
    if not SHARED.is_dir():
        pytest.skip("shared data folder %s missing" % SHARED)
    return SHARED
