"""Explorers of chapters 01–02 (issue 26: drawn in the browser from precomputed data). The oracles: evallib's own
polynomial_experiment and cross_validation, called directly; the spec is validated against the Vega-Lite 5
schema (Altair)."""

import json
import re

import numpy as np
import pytest
from sklearn.naive_bayes import GaussianNB

import evallib as el
from evallib.i18n import language, say
from evallib.widgets import Explorer, fitting_explorer, fitting_update, kfold_explorer, kfold_update, menu, slider
from evallib.widgets._chart import VEGALITE_MIME, readout_expr, readout_fields, wrap
from evallib.widgets.evaluation import FITTING_TEXT, N_CURVE


def _eval_expr(expr, row):
    """Evaluate a readout_expr (string literals and datum fields joined by +) for one row: an independent
    reading of what the browser computes."""
    terms = expr.split(" + ")
    out = []
    for t in terms:
        m = re.fullmatch(r'datum\[(".*")\]', t)
        out.append(row[json.loads(m.group(1))] if m else json.loads(t))
    return "".join(out)


@pytest.fixture(scope="module")
def fitting():
    return fitting_explorer(seed=0)


@pytest.fixture(scope="module")
def melon():
    d = el.data.load_watermelon()
    return d.X, d.y


@pytest.fixture(scope="module")
def kfold(melon):
    return kfold_explorer(GaussianNB(), *melon, random_state=0)


def test_fitting_data_equals_polynomial_experiment_at_grid_points(fitting):
    data = fitting.data
    pick = np.round(np.linspace(0, 199, N_CURVE)).astype(int)
    for n, s, d in [(10, 0.0, 0), (20, 0.25, 3), (55, 0.6, 9), (100, 1.0, 15), (35, 0.05, 12)]:
        e = el.fitting.polynomial_experiment(n, noise_std=s, random_state=0)
        c = data["curves"].query("n == @n and d == @d").iloc[0]
        curve = np.clip(np.asarray(c.fit0) + s * np.asarray(c.fit1), -2, 2)  # what the chart's calculate does
        assert np.allclose(curve, np.clip(e.curves[d][pick], -2, 2), atol=1e-4, rtol=0), (n, s, d)
        pts = data["points"].query("n == @n")
        assert np.allclose(pts.x, e.x_train, atol=1e-5) and np.allclose(pts.y0 + s * pts.z, e.y_train, atol=2e-5)
        row = data["errors"].query("n == @n and abs(s - @s) < 1e-9").iloc[0]
        assert np.allclose(row.train, e.train_mse, rtol=1e-3) and np.allclose(row.test, e.test_mse, rtol=1e-3)
        assert row.best == e.best_degree
        # the readout the browser writes for this state is say()'s sentence, to the last digit
        flat = {
            "f_d": row.f_d[d],
            "f_train": row.f_train[d],
            "f_test": row.f_test[d],
            "f_noise": row.f_noise,
            "f_best": row.f_best,
        }
        want = say(FITTING_TEXT, d=d, train=e.train_mse[d], test=e.test_mse[d], noise=s**2, best=e.best_degree)
        assert _eval_expr(readout_expr(FITTING_TEXT, "f_"), flat) == want
    assert len(data["errors"]) == 19 * 21 and len(data["curves"]) == 19 * 16


def test_fitting_explorer_initial_readout_is_todays_text(fitting):
    e = el.fitting.polynomial_experiment(20, noise_std=0.25, random_state=0)
    assert fitting.text == (
        f"degree  3 | training MSE {e.train_mse[3]:.4f} | test MSE {e.test_mse[3]:.4f} | "
        f"noise variance {0.25**2:.4f} | best degree on test: {e.best_degree}"
    )
    bundle, meta = fitting._repr_mimebundle_()
    assert bundle["text/plain"] == fitting.text and bundle[VEGALITE_MIME] == fitting.spec()
    assert meta[VEGALITE_MIME]["embed_options"]["renderer"] == "svg"
    assert repr(fitting) == "Explorer('Over- and under-fitting': degree=3, n_train=20, noise_std=0.25)"


def _params(spec):
    return {p["name"]: p for p in spec["params"]}


def test_fitting_spec_validates_is_bounded_and_binds_its_controls(fitting):
    spec = fitting.spec()  # validated against Altair's Vega-Lite 5 schema
    assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/v5")
    params = _params(spec)
    assert {n: (p["value"], p["bind"]["min"], p["bind"]["max"], p["bind"]["step"]) for n, p in params.items()} == {
        "degree": (3, 0, 15, 1),
        "n_train": (20, 10, 100, 5),
        "noise_std": (0.25, 0.0, 1.0, 0.05),
    }
    assert all(p["bind"]["input"] == "range" for p in params.values())
    used = set(re.findall(r"\b(degree|n_train|noise_std)\b", json.dumps(spec.get("vconcat"))))
    assert used == set(params)
    assert fitting.nbytes() < 1_000_000


def test_fitting_update_figure_marks_degree():
    text, fig = fitting_update(degree=5, n_train=30, noise_std=0.1)
    ax_fit, ax_err = fig.axes[:2]
    assert "degree 5" in ax_fit.get_title()
    assert [ln for ln in ax_err.get_lines() if list(ln.get_xdata()) == [5, 5]], "the current degree is marked"
    e = el.fitting.polynomial_experiment(30, noise_std=0.1, random_state=0)
    assert f"test MSE {e.test_mse[5]:.4f}" in text


def test_kfold_data_equals_cross_validation(kfold, melon):
    X, y = melon
    data = kfold.data
    for k, p in [(2, 1), (4, 3), (8, 10), (5, 2), (7, 7)]:
        r = el.evaluation.cross_validation(GaussianNB(), X, y, n_splits=k, n_repeats=p, random_state=0)
        st = data["states"].query("k == @k and p == @p").iloc[0]
        assert st["mean"] == r.mean
        spread = f"{r.repeat_std:.4f}" if p > 1 else "n/a (needs p >= 2)"
        want = (
            f"k = {k:2d}, p = {p:2d}: {k * p:3d} fits | estimate {r.mean:.4f} | std of the p k-fold estimates "
            f"{spread} | single folds range {r.scores.min():.3f}–{r.scores.max():.3f}"
        )
        assert st.text == want
        assert st.readout.replace("\n", " | ") == want or st.readout.replace("\n", " ") == want
        folds = data["folds"].query("k == @k and r <= @p").sort_values("r")
        assert np.array_equal(np.stack(folds.error.to_numpy()), r.scores)
        assert np.allclose(folds.estimate, r.repeat_means)
    lo, hi = data["ylim"]
    every = np.concatenate(data["folds"].error.to_numpy())
    assert lo < 0 <= every.min() and every.max() <= hi <= 1.05
    # stratified: k cannot exceed the smallest class (8 bad melons), as scikit-learn's StratifiedKFold warns
    assert data["states"].k.max() == 8 == min(np.bincount(y)) and data["states"].p.max() == 10
    assert len(data["states"]) == 7 * 10 and len(data["folds"]) == 7 * 10


def test_kfold_explorer_initial_state_spec_and_size(kfold, melon):
    r = el.evaluation.cross_validation(GaussianNB(), *melon, n_splits=8, n_repeats=1, random_state=0)
    assert kfold.text.startswith(f"k =  8, p =  1:   8 fits | estimate {r.mean:.4f} | ")
    params = _params(kfold.spec())
    assert {n: (p["value"], p["bind"]["min"], p["bind"]["max"]) for n, p in params.items()} == {
        "n_splits": (8, 2, 8),
        "n_repeats": (1, 1, 10),
    }
    assert kfold.nbytes() < 1_000_000


def test_kfold_update_single_repeat_says_spread_needs_repeats(melon):
    text, fig = kfold_update(GaussianNB(), *melon, 5, 1)
    assert "needs p >= 2" in text
    assert fig.axes[0].get_title() == "1 × 5-fold: 5 fits"


def test_labels_follow_the_language(melon):
    with language("zh"):
        e = kfold_explorer(GaussianNB(), *melon, random_state=0, max_k=3, max_p=2)
    names = {p["name"]: p["bind"]["name"] for p in e.spec()["params"]}
    assert names == {"n_splits": "k（折数） ", "n_repeats": "p（重复次数） "}
    assert e.title == "p 次 k 折交叉验证"


def test_readouts_never_break_inside_a_word_or_number(kfold):
    for text, wrapped in zip(kfold.data["states"].text, kfold.data["states"].readout):

        def tokens(t):  # words and numbers (a line break replaces a " | ")
            return [w for w in t.split() if w != "|"]

        assert tokens(text) == tokens(" ".join(wrapped.split("\n")))  # every word and number whole, in order
        assert max(map(len, wrapped.split("\n"))) <= 84
    assert wrap("log loss 0.4969 (original 0.4969)", 20) == "log loss 0.4969\n(original 0.4969)"
    assert wrap("一二三四五六七八九十 | 一二三四五六七八九十", 20) == "一二三四五六七八九十\n一二三四五六七八九十"


def test_readout_fields_format_as_say():
    t = "estimate {mean:.4f} from {n:3d} fits, {name}"
    f = readout_fields(t, mean=2 / 3, n=7, name="NB")
    assert f == {"mean": "0.6667", "n": "  7", "name": "NB"}
    assert _eval_expr(readout_expr(t), f) == say(t, mean=2 / 3, n=7, name="NB")
    with pytest.raises(ValueError, match="field 'n'"):
        readout_fields(t, mean=1.0, name="x")


def test_controls_and_explorer_bad_input():
    with pytest.raises(ValueError, match="value"):
        slider(5, 0, 2, name="a")
    with pytest.raises(ValueError, match="step"):
        slider(1, 0, 2, 0, name="a")
    with pytest.raises(ValueError, match="name"):
        slider(1, 0, 2, name="param 1")
    with pytest.raises(ValueError, match="value"):
        menu(0.2, [0.05, 0.1], name="alpha")
    with pytest.raises(ValueError, match="labels"):
        menu(0.05, [0.05, 0.1], labels=["a"], name="alpha")
    assert menu(0.05, [0.05, 0.1], name="alpha", radio=False).param.bind.input == "select"
    with pytest.raises(TypeError, match="chart"):
        Explorer("not a chart", data=None, text="")
    with pytest.raises(TypeError, match="text"):
        Explorer(slider_chart(), data=None, text=None)


def slider_chart():
    import altair as alt
    import pandas as pd

    return alt.Chart(pd.DataFrame({"x": [1]})).mark_point().encode(x="x:Q")
