"""Tests for evallib.curves against scikit-learn (random data with many ties), brute-force definitions
(式(2.21) ℓ_rank over all pairs, BEP over all cut points, the cost-curve envelope on a fine grid) and
properties (hypothesis)."""

import itertools
import math

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from evallib import curves as C


def _tied_data(seed, n=300, levels=7):
    """Labels and scores with many ties (scores take only ``levels`` values)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    scores = np.round((rng.random(n) + 0.6 * y) * (levels - 1) / 1.6) / (levels - 1)
    return y, scores


def _brute_rank_loss(y, s):
    sp, sn = s[y == 1], s[y == 0]
    pairs = [(a < b) + 0.5 * (a == b) for a in sp for b in sn]
    return sum(pairs) / (len(sp) * len(sn))


# -------------------------------------------------------------------------------------- ROC/AUC
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("levels", [3, 7, 50, None])
def test_roc_curve_and_auc_against_sklearn(seed, levels):
    if levels is None:
        rng = np.random.default_rng(seed)
        y, s = rng.integers(0, 2, 300), rng.normal(size=300)
    else:
        y, s = _tied_data(seed, levels=levels)
    fpr, tpr, thr = C.roc_curve(y, s)
    F, T, TH = skm.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(fpr, F)
    np.testing.assert_allclose(tpr, T)
    np.testing.assert_allclose(thr[1:], TH[1:])
    assert thr[0] == np.inf and fpr[0] == 0 and tpr[0] == 0 and fpr[-1] == 1 and tpr[-1] == 1
    assert C.roc_auc(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert C.auc(fpr, tpr) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)


def test_ties_make_one_diagonal_step():
    # two positives and one negative share the score 0.5: one step from (0, 1/3) to (1/2, 1)
    y = [1, 1, 1, 0, 0]
    s = [0.9, 0.5, 0.5, 0.5, 0.1]
    fpr, tpr, thr = C.roc_curve(y, s)
    assert fpr.tolist() == [0, 0, 0.5, 1]
    np.testing.assert_allclose(tpr, [0, 1 / 3, 1, 1])
    assert thr[1:].tolist() == [0.9, 0.5, 0.1]
    # the diagonal's trapezoid counts the tied pairs as one half: AUC = 1 - (2 * 1/2) / 6
    assert C.roc_auc(y, s) == pytest.approx(1 - 1 / 6)


@pytest.mark.parametrize("seed", range(8))
def test_rank_loss_brute_force(seed):
    y, s = _tied_data(seed, n=60, levels=5)
    assert C.rank_loss(y, s) == pytest.approx(_brute_rank_loss(y, s), abs=1e-15)
    assert C.roc_auc(y, s) == 1 - C.rank_loss(y, s)  # exactly, as API.md promises


def test_pos_label_and_string_labels():
    y, s = _tied_data(3, n=80)
    names = np.where(y == 1, "good", "bad")
    assert C.roc_auc(names, s, pos_label="good") == pytest.approx(C.roc_auc(y, s))
    assert C.roc_auc(y, s, pos_label=0) == pytest.approx(C.roc_auc(y, -s))
    assert C.roc_auc(y.astype(bool), s, pos_label=True) == pytest.approx(C.roc_auc(y, s))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(-5, 5)), min_size=2, max_size=40),
    st.sampled_from(["exp", "cube", "affine", "logistic"]),
)
def test_auc_invariant_under_increasing_transform(pairs, kind):
    y = np.array([a for a, _ in pairs])
    if y.min() == y.max():
        return
    s = np.array([b for _, b in pairs], dtype=float)
    g = {
        "exp": np.exp,
        "cube": lambda v: v**3 + v,
        "affine": lambda v: 3 * v - 7,
        "logistic": lambda v: 1 / (1 + np.exp(-v)),
    }[kind]
    assert C.roc_auc(y, g(s)) == C.roc_auc(y, s)
    assert C.roc_auc(y, s) + C.rank_loss(y, s) == pytest.approx(1.0, abs=1e-15)
    assert C.rank_loss(y, s) == pytest.approx(_brute_rank_loss(y, s), abs=1e-12)
    fpr, tpr, _ = C.roc_curve(y, s)
    assert C.auc(fpr, tpr) == pytest.approx(C.roc_auc(y, s), abs=1e-12)


def test_auc_probability_interpretation_by_monte_carlo():
    y, s = _tied_data(11, n=400)
    rng = np.random.default_rng(0)
    sp, sn = s[y == 1], s[y == 0]
    a, b = rng.choice(sp, 200_000), rng.choice(sn, 200_000)
    est = np.mean(a > b) + 0.5 * np.mean(a == b)
    assert C.roc_auc(y, s) == pytest.approx(est, abs=0.005)


def test_auc_trapezoid():
    assert C.auc([0, 1], [0, 1]) == pytest.approx(0.5)
    assert C.auc([1, 0.5, 0], [1, 1, 0]) == pytest.approx(0.75)  # decreasing x
    x = np.linspace(0, 2, 11)
    assert C.auc(x, x**2) == pytest.approx(np.trapezoid(x**2, x) if hasattr(np, "trapezoid") else np.trapz(x**2, x))


# --------------------------------------------------------------------------------- P-R and BEP
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("levels", [4, 20])
def test_pr_curve_against_sklearn(seed, levels):
    y, s = _tied_data(seed, levels=levels)
    p, r, thr = C.pr_curve(y, s)
    P, R, TH = skm.precision_recall_curve(y, s)  # increasing thresholds, then the (1, 0) end
    np.testing.assert_allclose(p, P[::-1])
    np.testing.assert_allclose(r, R[::-1])
    np.testing.assert_allclose(thr[1:], TH[::-1])


def test_pr_curve_by_hand():
    p, r, thr = C.pr_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    np.testing.assert_allclose(p, [1, 1, 0.5, 2 / 3, 0.5])
    np.testing.assert_allclose(r, [0, 0.5, 0.5, 1, 1])


def test_pr_curve_without_negatives_issue_21_example():
    p, r, thr = C.pr_curve([1, 1], [0.25, 0.75])
    P, R, TH = skm.precision_recall_curve([1, 1], [0.25, 0.75])
    assert (P.tolist(), R.tolist(), TH.tolist()) == ([1, 1, 1], [1, 0.5, 0], [0.25, 0.75])
    assert (p.tolist(), r.tolist(), thr.tolist()) == ([1, 1, 1], [0, 0.5, 1], [np.inf, 0.75, 0.25])


@settings(max_examples=60, deadline=None)
@given(scores=st.lists(st.integers(0, 5), min_size=1, max_size=40), label=st.sampled_from([1, 0, "yes"]))
def test_pr_curve_without_negatives_against_sklearn(scores, label):
    # an all-positive test fold: precision 1 at every threshold, recall climbing to 1; same points as
    # scikit-learn's (reversed), thresholds kept for every distinct score
    s = np.array(scores, dtype=float) / 5
    y = [label] * len(s)
    p, r, thr = C.pr_curve(y, s, pos_label=label)
    P, R, TH = skm.precision_recall_curve(y, s, pos_label=label)
    np.testing.assert_array_equal(p, P[::-1])
    np.testing.assert_array_equal(r, R[::-1])
    np.testing.assert_array_equal(thr[1:], TH[::-1])
    assert thr[0] == np.inf and len(thr) == len(np.unique(s)) + 1


@pytest.mark.parametrize("y, pos_label", [([0, 0], 1), ([1, 1], 2), (["a", "a"], 1)])
def test_pr_curve_without_positives_is_an_error_naming_y_true(y, pos_label):
    # scikit-learn warns and sets recall to 1; recall TP / m+ is 0/0 without positives, so evallib refuses
    with pytest.raises(ValueError, match=r"y_true contains one class only .* no positives"):
        C.pr_curve(y, [0.1, 0.2], pos_label=pos_label)


def _expected_bep_by_permutations(y, s):
    """Mean over every order of the tied scores of the precision of the top m+ items."""
    y, s = np.asarray(y), np.asarray(s)
    m_pos = int(y.sum())
    groups = [np.flatnonzero(s == v) for v in np.unique(s)[::-1]]
    orders = itertools.product(*[itertools.permutations(g) for g in groups])
    vals = [y[np.concatenate(o)[:m_pos]].sum() / m_pos for o in orders]
    return float(np.mean(vals))


@pytest.mark.parametrize("seed", range(10))
def test_bep_against_all_tie_orders(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 9)
    y[:2] = [0, 1]
    s = rng.integers(0, 4, 9).astype(float)
    assert C.break_even_point(y, s) == pytest.approx(_expected_bep_by_permutations(y, s))


@pytest.mark.parametrize("seed", range(5))
def test_bep_is_where_p_equals_r_without_ties(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 50)
    s = rng.permutation(50).astype(float)
    p, r, _ = C.pr_curve(y, s)
    hit = np.flatnonzero(np.isclose(p, r) & (r > 0))
    assert len(hit) >= 1
    assert C.break_even_point(y, s) == pytest.approx(p[hit[0]])


# ------------------------------------------------------------------------------------ cost curve
def _envelope_on_grid(fpr, fnr, x):
    return np.min(fpr[None, :] * (1 - x[:, None]) + fnr[None, :] * x[:, None], axis=1)


@pytest.mark.parametrize("seed", range(6))
def test_cost_curve_envelope_against_grid(seed):
    y, s = _tied_data(seed, n=120, levels=15)
    cc = C.cost_curve(y, s)
    fpr, tpr, thr = C.roc_curve(y, s)
    np.testing.assert_allclose(cc.fpr, fpr)
    np.testing.assert_allclose(cc.fnr, 1 - tpr)
    x = np.linspace(0, 1, 20001)
    env = _envelope_on_grid(cc.fpr, cc.fnr, x)
    np.testing.assert_allclose(np.interp(x, cc.envelope_x, cc.envelope_y), env, atol=1e-12)
    assert cc.expected_total_cost == pytest.approx(np.trapezoid(env, x), abs=1e-6)
    assert C.expected_total_cost(y, s) == cc.expected_total_cost


def test_cost_curve_extremes():
    perfect = C.cost_curve([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert perfect.expected_total_cost == 0
    random = C.cost_curve([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])  # only the two trivial classifiers
    assert random.expected_total_cost == pytest.approx(0.25)
    assert "expected_total_cost=0.2500" in repr(random)


def test_normalized_cost_equals_cost_sensitive_error_over_normaliser():
    from evallib.metrics import cost_sensitive_error

    y, s = _tied_data(4, n=200)
    cc = C.cost_curve(y, s)
    p = float(np.mean(y))
    for t_i in (2, 4):
        t = cc.thresholds[t_i]
        pred = (s >= t).astype(int)
        err = cost_sensitive_error(y, pred, cost_fn=4.0, cost_fp=1.5)
        norm = C.normalized_cost(cc.fpr[t_i], cc.fnr[t_i], p, 4.0, 1.5)
        assert float(norm) == pytest.approx(err / (p * 4.0 + (1 - p) * 1.5))


def test_operating_point_is_the_envelope():
    y, s = _tied_data(5, n=200)
    cc = C.cost_curve(y, s)
    q = float(np.mean(y))
    for p, cfn, cfp in [(0.5, 1, 1), (0.2, 5, 1), (0.8, 1, 3), (0.5, 0, 1), (q, 5, 1), (q, 1, 4)]:
        op = C.cost_operating_point(cc, p=p, cost_fn=cfn, cost_fp=cfp)
        x = C.probability_cost(p, cfn, cfp)
        assert op.probability_cost == pytest.approx(x)
        assert op.normalized_cost == pytest.approx(np.interp(x, cc.envelope_x, cc.envelope_y), abs=1e-12)
        # brute force over thresholds: the cost-sensitive error of the chosen cut is the smallest
        errs = [(cfn * np.sum((s < t) & (y == 1)) + cfp * np.sum((s >= t) & (y == 0))) / len(y) for t in cc.thresholds]
        if p == q:  # at the empirical prior the expected cost is the cost-sensitive error (式(2.23))
            assert op.expected_cost == pytest.approx(min(errs))
            assert op.expected_cost == pytest.approx(errs[int(np.flatnonzero(cc.thresholds == op.threshold)[0])])
    assert C.probability_cost(0.5, 3, 1) == pytest.approx(0.75)
    # scaling both costs changes nothing: only the ratio matters
    a = C.cost_operating_point(cc, p=0.3, cost_fn=2, cost_fp=1)
    b = C.cost_operating_point(cc, p=0.3, cost_fn=20, cost_fp=10)
    assert a.threshold == b.threshold and a.normalized_cost == pytest.approx(b.normalized_cost)


# ------------------------------------------------------------------------------- threshold summary
def test_threshold_summary_against_metrics():
    from evallib import metrics as M

    y, s = _tied_data(8, n=150)
    for t in (0.2, 0.5, 0.8):
        r = C.threshold_summary(y, s, t)
        pred = (s >= t).astype(int)
        assert r.confusion_matrix.tolist() == M.confusion_matrix(y, pred).tolist()
        assert r.precision == pytest.approx(skm.precision_score(y, pred))
        assert r.recall == pytest.approx(skm.recall_score(y, pred))
        assert r.f1 == pytest.approx(skm.f1_score(y, pred))
        assert r.fpr == pytest.approx(np.mean(pred[y == 0]))
    top = C.threshold_summary(y, s, 2.0)
    assert (top.tp, top.fp, top.precision, top.recall) == (0, 0, 1.0, 0.0)


# ------------------------------------------------------------------------------------ bad input
GOOD_Y, GOOD_S = [0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8]
CURVE_FUNCS = [C.roc_curve, C.pr_curve, C.break_even_point, C.roc_auc, C.rank_loss, C.cost_curve, C.expected_total_cost]


@pytest.mark.parametrize("f", CURVE_FUNCS)
@pytest.mark.parametrize(
    "y, s, match",
    [
        ([1, 1, 1], [0.1, 0.2, 0.3], "one class"),
        ([0, 0], [0.1, 0.2], "one class"),
        ([0, 1, 2], [0.1, 0.2, 0.3], "binary"),
        ([0, 1], [0.1, np.nan], "NaN"),
        ([0, 1], [0.1, np.inf], "inf"),
        ([0, 1, 1], [0.1, 0.2], "length mismatch"),
        ([], [], "empty"),
        ([0, 1], ["a", "b"], "numeric"),
        ([[0, 1]], [[0.1, 0.2]], "1-D"),
        ([0.0, np.nan], [0.1, 0.2], "NaN"),
    ],
)
def test_curves_bad_input(f, y, s, match):
    if f is C.pr_curve and y == [1, 1, 1]:
        return  # precision and recall need no negatives: test_pr_curve_without_negatives
    with pytest.raises(ValueError, match=match):
        f(y, s)


@pytest.mark.parametrize("f", CURVE_FUNCS)
def test_curves_bad_pos_label(f):
    with pytest.raises(ValueError, match="pos_label"):
        f(GOOD_Y, GOOD_S, pos_label=2)


@pytest.mark.parametrize(
    "call",
    [
        lambda: C.auc([0], [0]),
        lambda: C.auc([0, 1, 0.5], [0, 1, 1]),
        lambda: C.auc([0, 1], [0, np.nan]),
        lambda: C.auc([0, 1], [0]),
        lambda: C.probability_cost(1.5, 1, 1),
        lambda: C.probability_cost(0.5, -1, 1),
        lambda: C.probability_cost(0.5, 0, 0),
        lambda: C.normalized_cost(1.2, 0.1, 0.5, 1, 1),
        lambda: C.normalized_cost(0.2, np.nan, 0.5, 1, 1),
        lambda: C.cost_operating_point("curve", p=0.5, cost_fn=1, cost_fp=1),
        lambda: C.cost_operating_point(C.cost_curve(GOOD_Y, GOOD_S), p=-0.1, cost_fn=1, cost_fp=1),
        lambda: C.cost_operating_point(C.cost_curve(GOOD_Y, GOOD_S), p=0.5, cost_fn=1, cost_fp=-3),
        lambda: C.threshold_summary(GOOD_Y, GOOD_S, np.nan),
        lambda: C.threshold_summary(GOOD_Y, GOOD_S, "0.5"),
        lambda: C.threshold_summary([1, 1, 1, 1], GOOD_S, 0.5),
        lambda: C.threshold_summary(GOOD_Y, GOOD_S[:3], 0.5),
    ],
)
def test_other_bad_input(call):
    with pytest.raises((ValueError, TypeError)):
        call()


def test_threshold_summary_at_infinite_thresholds():
    """+inf predicts nothing positive (the ROC curve's start (0, 0), precision taken as 1, 式(2.18)'s convention),
    -inf everything (the end (1, 1), precision = the share of positives)."""
    y, s = [1, 0, 1, 0, 1], [0.9, 0.5, 0.5, 0.1, 0.3]
    top, bottom = C.threshold_summary(y, s, math.inf), C.threshold_summary(y, s, -math.inf)
    assert (top.tp, top.fp, top.fn, top.tn, top.tpr, top.fpr, top.precision) == (0, 0, 3, 2, 0.0, 0.0, 1.0)
    assert (bottom.tp, bottom.fp, bottom.tpr, bottom.fpr, bottom.recall) == (3, 2, 1.0, 1.0, 1.0)
    assert bottom.precision == 3 / 5
