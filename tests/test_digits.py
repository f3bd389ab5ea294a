"""Explorer numbers rounded to what a chart or readout shows (evallib.widgets._digits): Python and Vega print a
readout number alike, the rounding keeps what is shown, and the explorers' data come out the same whichever BLAS
kernel computed them (a notebook's stored output must not depend on the CPU)."""

import os
import platform
import subprocess
import sys
from pathlib import Path

import altair as alt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evallib.widgets._chart import inline
from evallib.widgets._digits import LARGE, Shown, plotted, quadratic, shown_expr, significant

ROOT = Path(__file__).resolve().parent.parent
# (exact binary ties such as 0.03125 are left out: Python rounds them to even, JavaScript's toFixed up)
VALUES = [0.0, 1.23456e-9, 0.12345678, 1.0, 42.424242, 99.99994, 99.99996, 100.0, 123.456, 9999.5, 12345.678]
VALUES += [7.3465639733e8, 5.2463558e14, 2.5e16]


def test_python_and_vega_print_a_readout_number_alike():
    import vega_eval

    rows = [{"i": i, "v": v} for i, v in enumerate(VALUES)]
    chart = (
        alt.Chart(inline(rows))
        .transform_calculate(t=shown_expr("datum.v"))
        .mark_text()
        .encode(text="t:N", y=alt.Y("i:O", axis=None))
    )
    texts = vega_eval.run(chart.to_dict(), [{}])[0]["texts"]
    assert texts == [f"{Shown(v):.4f}" for v in VALUES]
    assert f"{Shown(99.5):.4f}" == "99.5000" and f"{Shown(LARGE):.4f}" == "1.000e+2"
    assert f"{Shown(1234.5):.2f} {Shown(1234.5):.3g}" == "1.234e+3 1.23e+03"  # only fixed-point specs switch


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-16, 16), st.floats(-16, 16), st.floats(-16, 16), st.sampled_from([-1.0, 1.0])),
        min_size=1,
        max_size=5,
    )
)
def test_quadratic_keeps_every_value_on_the_grid_to_what_is_shown(rows):
    grid = np.round(0.05 * np.arange(41), 10)
    c = np.array([[10.0**a, sign * 10.0**b, 10.0**e] for a, b, e, sign in rows])
    q = quadratic(c, grid)
    x = c[:, :1] + c[:, 1:2] * grid + c[:, 2:3] * grid**2
    xq = q[:, :1] + q[:, 1:2] * grid + q[:, 2:3] * grid**2
    tol = np.where(np.abs(x) < LARGE, 1e-6, 1e-4 * np.abs(x))  # the defaults: absolute 1e-6, relative 1e-4
    assert (np.abs(xq - x) <= tol / 2 * (1 + 1e-9) + 1e-12 * np.abs(x)).all()


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.just(0.0), st.floats(1e-200, 1e12), st.floats(-1e12, -1e-200)), st.integers(2, 8))
def test_significant_and_plotted_round_to_the_stated_digits(v, digits):
    (s,) = significant([v], digits)
    (p,) = plotted([v], 3, digits, clip=1e15)
    if v == 0:
        assert s == p == 0.0
        return
    ulp = 10.0 ** (np.floor(np.log10(abs(v))) - digits + 1)  # one unit of the last significant digit
    assert abs(s - v) <= 0.5 * ulp * (1 + 1e-9)
    assert abs(p - v) <= 0.5 * max(ulp, 1e-3) * (1 + 1e-9) + 1e-12


def test_worked_examples():
    # an interpolating fit's training error (noise, exactly 0) and a value below the floor; -0.0 is written 0.0
    assert significant([1e-31, -2e-13, 0.1453002337593231], 4, floor=1e-12) == [0.0, 0.0, 0.1453]
    assert str(significant([-1e-13], 4, floor=1e-12)[0]) == "0.0"
    # on the axes 3 decimals; far off them (an exploded fit) 5 significant digits; past ±clip, clipped
    assert plotted([0.12345, -5666.2045, 3e6], 3, 5) == [0.123, -5666.2, 100000.0]


_DATA = """
import hashlib, json
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from evallib.widgets.biasvar import bias_variance_data
from evallib.widgets.evaluation import fitting_data
from evallib.widgets.pitfalls import calibration_data
X, y = make_classification(n_samples=600, n_features=8, random_state=0)
p = LogisticRegression(max_iter=1000).fit(X[:300], y[:300]).predict_proba(X[300:])[:, 1]
out = {"fitting": fitting_data(seed=0), "biasvar": bias_variance_data(), "calibration": calibration_data(y[300:], p)}
for name, parts in out.items():
    text = json.dumps({k: v.to_dict(orient="records") if hasattr(v, "to_dict") else v for k, v in parts.items()},
                      sort_keys=True, default=str)
    print(name, hashlib.sha256(text.encode()).hexdigest())
"""


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="OpenBLAS core types named for x86-64")
def test_explorer_data_do_not_depend_on_the_blas_kernel():
    """The fitting, bias–variance and calibration explorers' data (least squares, an SVD, a model's predict_proba,
    all through BLAS) with the kernel OpenBLAS picks for this CPU and with its Sandy Bridge kernel (no FMA: other
    roundings than any CPU of the last decade): the same to the last stored digit. Full precision differed."""
    runs = []
    for core in (None, "Sandybridge"):
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        env.pop("OPENBLAS_CORETYPE", None)
        if core:
            env["OPENBLAS_CORETYPE"] = core
        r = subprocess.run([sys.executable, "-c", _DATA], cwd=ROOT, env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-2000:]
        runs.append(dict(line.split() for line in r.stdout.splitlines()))
    assert len(runs[0]) == 3 and runs[0] == runs[1]
