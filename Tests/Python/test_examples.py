"""The Python examples run and plot (Matplotlib, Agg) into an output folder."""
import os
import subprocess
import sys

import pytest

from conftest import SOURCE

EXAMPLES = [
    (SOURCE / "Examples" / "BouncingBallTS" / "BouncingBallTS.py", [], ["BouncingBallTS.csv", "BouncingBallTS.png"]),
    (SOURCE / "Examples" / "python" / "rigid_bodies.py", ["--time", "0.2"], ["rigid_bodies.csv", "rigid_bodies.png"]),
    (SOURCE / "Examples" / "SpherePile" / "SpherePile.py", ["--count", "30", "--time", "0.05"],
     ["SpherePile_py.csv", "SpherePile_py.png"]),
]


@pytest.mark.parametrize("script,args,files", EXAMPLES, ids=[e[0].stem for e in EXAMPLES])
def test_example_runs_and_plots(script, args, files, tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg")
    res = subprocess.run([sys.executable, str(script), "--output", str(tmp_path)] + args, env=env,
                         capture_output=True, text=True, timeout=500)
    assert res.returncode == 0, res.stderr
    try:
        import matplotlib  # noqa: F401
        wanted = files
    except ImportError:
        wanted = [f for f in files if f.endswith(".csv")]
    for f in wanted:
        assert (tmp_path / f).stat().st_size > 0, f
        assert str(tmp_path / f) in res.stdout  # the example prints where it wrote
