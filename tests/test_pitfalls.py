"""Chapter 14: evallib.pitfalls, plots.pitfalls and widgets.pitfalls against scikit-learn and definitions."""

import matplotlib
import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve as sk_calibration_curve
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.pipeline import make_pipeline

import evallib as el
from evallib.pitfalls import distort_probabilities, selection_leakage
from evallib.style import new_figure

matplotlib.use("Agg")


def _noise(seed=0, m=40, d=600):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(m, d)), rng.permutation(np.repeat([0, 1], m // 2))


# --------------------------------------------------------------------------------- selection_leakage
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("model", [None, NearestCentroid()])
def test_selection_leakage_equals_sklearn_pipeline_and_selection_before_cv(seed, model):
    X, y = _noise(seed)
    ks = [1, 3, 10, 50, 600]
    st = selection_leakage(X, y, ks, model=model, n_splits=4, n_repeats=2, random_state=seed)
    clf = KNeighborsClassifier(n_neighbors=1) if model is None else model
    cv = RepeatedStratifiedKFold(n_splits=4, n_repeats=2, random_state=seed)
    for i, k in enumerate(ks):
        honest = cross_val_score(make_pipeline(SelectKBest(f_classif, k=k), clf), X, y, cv=cv)
        leaky = cross_val_score(clf, SelectKBest(f_classif, k=k).fit_transform(X, y), y, cv=cv)
        np.testing.assert_allclose(st.honest_folds[i], honest, atol=1e-12)
        np.testing.assert_allclose(st.leaky_folds[i], leaky, atol=1e-12)
    np.testing.assert_allclose(st.optimism, st.leaky - st.honest)
    assert st.at(10) == (st.leaky[2], st.honest[2])


def test_selection_leakage_is_optimistic_on_noise():
    X, y = _noise(1, m=50, d=3000)
    st = selection_leakage(X, y, [100], n_repeats=2)
    assert st.leaky[0] >= 0.9 and st.honest[0] <= 0.7  # labels are independent of X: the truth is 0.5


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda X, y: selection_leakage(X, y, [0]), ValueError, "ks must hold whole numbers"),
        (lambda X, y: selection_leakage(X, y, [601]), ValueError, r"ks must hold whole numbers of features in 1..600"),
        (lambda X, y: selection_leakage(X, y, [2.5]), ValueError, "ks"),
        (lambda X, y: selection_leakage(X, y[:-1], [2]), ValueError, "X has 40, y has 39"),
        (lambda X, y: selection_leakage(X[0], y, [2]), ValueError, "X must be 2-D"),
        (lambda X, y: selection_leakage(X, np.zeros(40), [2]), ValueError, "y holds one class only"),
        (
            lambda X, y: selection_leakage(X, y, [2], model=NearestCentroid),
            TypeError,
            "model must be a scikit-learn classifier",
        ),
        (lambda X, y: selection_leakage(X, y, [2], n_splits=1), ValueError, "'n_splits' parameter"),
        (lambda X, y: selection_leakage(np.where(X > 3, np.nan, X), y, [2]), ValueError, "X contains"),
    ],
)
def test_selection_leakage_bad_input(call, exc, match):
    X, y = _noise()
    with pytest.raises(exc, match=match):
        call(X, y)


def test_study_at_unknown_k():
    X, y = _noise()
    with pytest.raises(ValueError, match="k=7 was not studied"):
        selection_leakage(X, y, [1, 5]).at(7)


# ------------------------------------------------------------------------------- distort_probabilities
@pytest.mark.parametrize("slope, shift", [(1.0, 0.0), (0.25, 0.0), (3.0, 0.0), (1.0, -1.5), (2.0, 0.7)])
def test_distortion_keeps_the_order_and_auc(slope, shift):
    rng = np.random.default_rng(3)
    p = np.round(rng.random(300), 2)  # ties
    p[:3] = [0.0, 1.0, 0.5]
    y = (rng.random(300) < p).astype(int)
    q = distort_probabilities(p, slope=slope, shift=shift)
    inner = (p > 0) & (p < 1)
    np.testing.assert_allclose(
        np.log(q[inner] / (1 - q[inner])), slope * np.log(p[inner] / (1 - p[inner])) + shift, atol=1e-9
    )
    assert q[0] == 0.0 and q[1] == 1.0
    assert skm.roc_auc_score(y, q) == pytest.approx(skm.roc_auc_score(y, p), abs=1e-15)
    # the same ties: equal inputs give equal outputs, a strict order stays strict
    o = np.argsort(p, kind="stable")
    assert np.all(np.diff(q[o]) >= 0) and np.array_equal(np.diff(p[o]) == 0, np.diff(q[o]) == 0)
    if (slope, shift) != (1.0, 0.0):
        assert skm.brier_score_loss(y, q) != pytest.approx(skm.brier_score_loss(y, p), abs=1e-6)


@pytest.mark.parametrize(
    "kw, exc, match",
    [
        (dict(proba=[0.2, 1.2]), ValueError, r"proba must hold probabilities in \[0, 1\]"),
        (dict(proba=[0.2, np.nan]), ValueError, "proba contains"),
        (dict(proba=[0.2], slope=0), ValueError, "slope must be > 0"),
        (dict(proba=[0.2], slope=-1), ValueError, "slope"),
        (dict(proba=[0.2], slope="2"), TypeError, "slope"),
        (dict(proba=[0.2], shift=np.inf), ValueError, "shift"),
    ],
)
def test_distortion_bad_input(kw, exc, match):
    proba = kw.pop("proba")
    with pytest.raises(exc, match=match):
        distort_probabilities(proba, **kw)


# -------------------------------------------------------------------------------------------- plots
def test_plot_calibration_draws_sklearns_points():
    rng = np.random.default_rng(0)
    p = rng.beta(2, 3, 400)
    y = (rng.random(400) < p**2).astype(int)
    fig, ax = new_figure()
    el.plots.plot_calibration(y, p, n_bins=8, ax=ax)
    frac, mean = sk_calibration_curve(y, p, n_bins=8)
    line = ax.lines[1]
    np.testing.assert_allclose(line.get_xdata(), mean)
    np.testing.assert_allclose(line.get_ydata(), frac)
    assert f"Brier {skm.brier_score_loss(y, p):.3f}" in ax.get_legend().texts[1].get_text()


def test_plot_multiclass_confusion_counts_like_sklearn():
    rng = np.random.default_rng(1)
    yt, yp = rng.choice(["a", "b", "c", "d"], 200), rng.choice(["a", "b", "c", "d"], 200)
    fig, ax = new_figure()
    el.plots.plot_multiclass_confusion(yt, yp, ax=ax)
    np.testing.assert_array_equal(ax.images[0].get_array(), skm.confusion_matrix(yt, yp))
    fig, ax = new_figure()
    el.plots.plot_multiclass_confusion(yt, yp, ax=ax, normalize=True)
    np.testing.assert_allclose(ax.images[0].get_array(), skm.confusion_matrix(yt, yp, normalize="true"))
    fig, ax = new_figure()
    el.plots.plot_multiclass_confusion(yt, yp, labels=["d", "b", "a", "c"], ax=ax)
    np.testing.assert_array_equal(ax.images[0].get_array(), skm.confusion_matrix(yt, yp, labels=["d", "b", "a", "c"]))
    with pytest.raises(ValueError, match="labels lacks the class 'd'"):
        el.plots.plot_multiclass_confusion(yt, yp, labels=["a", "b", "c"], ax=ax)
    with pytest.raises(TypeError, match="labels of different types"):
        el.plots.plot_multiclass_confusion([0, 1], ["0", "1"], ax=ax)


def test_plot_leakage_and_optimism():
    X, y = _noise()
    st = selection_leakage(X, y, [1, 10, 100])
    fig, ax = new_figure()
    el.plots.plot_leakage(st, ax=ax, mark=10, chance=0.5)
    np.testing.assert_allclose(ax.lines[0].get_ydata(), st.leaky)
    np.testing.assert_allclose(ax.lines[1].get_ydata(), st.honest)
    with pytest.raises(TypeError, match="study must be a LeakageStudy"):
        el.plots.plot_leakage({"ks": [1]}, ax=ax)
    fig, ax = new_figure()
    el.plots.plot_optimism(["a", "b"], [0.9, 0.8], [0.5, 0.7], ax=ax)
    np.testing.assert_allclose(ax.lines[0].get_xdata(), [0.9, 0.8])
    with pytest.raises(ValueError, match="same length"):
        el.plots.plot_optimism(["a"], [0.9, 0.8], [0.5, 0.7], ax=ax)
    with pytest.raises(ValueError, match="finite"):
        el.plots.plot_optimism(["a"], [np.nan], [0.5], ax=ax)


# ------------------------------------------------------------------------------------------ explorers
def _calibration_data():
    rng = np.random.default_rng(5)
    p = np.round(rng.beta(2, 2, 300), 3)
    return (rng.random(300) < p).astype(int), p


def _check_spec(ex, params):
    spec = ex.spec()  # validated against the Vega-Lite 5 schema
    bound = {p["name"] for p in spec["params"] if "bind" in p}
    assert set(params) <= bound
    assert ex.nbytes() < 1_000_000
    return spec


def test_leakage_explorer_data_are_the_study_and_its_text_the_readout():
    X, y = _noise(2)
    st = selection_leakage(X, y, [1, 4, 16, 64, 256])
    ex = el.widgets.leakage_explorer(st, chance=0.5)
    assert ex.values == {"k": 16}
    d = ex.data
    for i, k in enumerate(st.ks):  # oracle: the study itself (tested above against scikit-learn)
        leaky, honest = st.at(k)
        curve = d["curve"][d["curve"].k == k].set_index("way")["accuracy"]
        assert curve["leaky"] == leaky and curve["honest"] == honest
        folds = d["folds"][d["folds"].k == k]
        np.testing.assert_array_equal(folds[folds.way == "leaky"].accuracy, st.leaky_folds[i])
        np.testing.assert_array_equal(folds[folds.way == "honest"].accuracy, st.honest_folds[i])
        text = d["readout"].set_index("k").loc[k, "text"]
        assert text == (
            f"{k} features selected | selected on all data, then CV: {leaky:.3f} | "
            f"selected inside each fold: {honest:.3f} | optimism {leaky - honest:+.3f}"
        )
        assert text == el.widgets.leakage_update(st, k, chance=0.5)[0]
    assert ex.text == d["readout"].set_index("k").loc[16, "text"]
    _check_spec(ex, ["k"])
    with el.i18n.language("zh"):
        zh = el.widgets.leakage_explorer(st, chance=0.5)
    assert zh.text.startswith("选择了 16 个特征")
    with pytest.raises(ValueError, match="k must be one of the studied ks"):
        el.widgets.leakage_explorer(st, k=5)
    with pytest.raises(TypeError, match="study must be a LeakageStudy"):
        el.widgets.leakage_explorer([1, 2])


def test_calibration_explorer_data_equal_scikit_learn_at_grid_points():
    y, p = _calibration_data()
    ex = el.widgets.calibration_explorer(y, p, slope=2.0)
    auc = skm.roc_auc_score(y, p)
    bins, rd = ex.data["bins"], ex.data["readout"]
    assert len(rd) == 17 * 21
    for slope, shift in ((4.0, 0.0), (0.25, -2.0), (1.0, 1.4), (2.0, -1.0), (2**0.75, 2.0)):
        q = distort_probabilities(p, slope=slope, shift=shift)
        at = lambda t: np.isclose(t.log2_slope, np.log2(slope)) & np.isclose(t["shift"], shift)  # noqa: E731
        text = rd[at(rd)].text.iloc[0]
        assert f"ROC AUC {skm.roc_auc_score(y, q):.4f} (original {auc:.4f})" in text
        assert f"Brier {skm.brier_score_loss(y, q):.4f}" in text
        assert f"log loss {skm.log_loss(y, q):.4f}" in text
        assert text == el.widgets.calibration_update(y, p, slope, shift)[0]
        prob_true, prob_pred = sk_calibration_curve(y, q, n_bins=10)
        b = bins[at(bins)]
        np.testing.assert_allclose(b.fraction_positive, prob_true, rtol=1e-12)
        np.testing.assert_allclose(b.mean_predicted, prob_pred, rtol=5e-6)  # stored to 6 digits (widgets._digits)
    assert ex.text == el.widgets.calibration_update(y, p, 2.0, 0.0)[0]
    fpr, tpr, _ = skm.roc_curve(y, p, drop_intermediate=False)
    assert np.trapezoid(ex.data["roc"].tpr, ex.data["roc"].fpr) == pytest.approx(auc)
    _check_spec(ex, ["log2_slope", "shift"])
    with pytest.raises(ValueError, match="proba must hold probabilities"):
        el.widgets.calibration_explorer(y, p + 1)
    with pytest.raises(ValueError, match="slope must be 2 \\*\\* k"):
        el.widgets.calibration_explorer(y, p, slope=1.5)
    with pytest.raises(ValueError, match="shift must be a multiple of 0.2"):
        el.widgets.calibration_explorer(y, p, shift=0.15)


def test_plot_splits_draws_groups_for_a_splitter_that_ignores_them_without_a_warning():
    import warnings

    from sklearn.model_selection import KFold

    groups = np.repeat(np.arange(5), 4)
    fig, ax = new_figure()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        el.plots.plot_splits(KFold(5, shuffle=True, random_state=0), np.zeros((20, 1)), groups=groups, ax=ax)
    test_rows = ax.images[0].get_array()[:5] == 4  # one row per split, test cells coded 4
    expected = np.zeros((5, 20), bool)
    for i, (_, te) in enumerate(KFold(5, shuffle=True, random_state=0).split(np.zeros((20, 1)))):
        expected[i, te] = True
    np.testing.assert_array_equal(test_rows, expected)
