"""Chapter 14's measures (evallib.metrics, "beyond the book") against scikit-learn, definitions and properties."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve as sk_calibration_curve

from evallib import metrics as M


def _labels(seed, n=300, k=2, p=None):
    rng = np.random.default_rng(seed)
    return rng.choice(k, size=n, p=p), rng.choice(k, size=n)


def _proba(seed, n=300, k=3, ties=False):
    """Labels and a (n, k) probability matrix, rounded to one decimal (many ties) when asked."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y]
    P = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    if ties:
        P = np.round(P, 1)
        P[:, -1] = 1 - P[:, :-1].sum(axis=1)
        P = np.clip(P, 0, 1)
        P /= P.sum(axis=1, keepdims=True)
    return y, P


# ------------------------------------------------------------------------------ against scikit-learn
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k, p", [(2, None), (2, [0.95, 0.05]), (3, None), (5, [0.5, 0.2, 0.1, 0.1, 0.1])])
def test_balanced_accuracy_and_mcc_agree_with_sklearn(seed, k, p):
    yt, yp = _labels(seed, k=k, p=p)
    assert M.balanced_accuracy(yt, yp) == pytest.approx(skm.balanced_accuracy_score(yt, yp), abs=1e-12)
    assert M.matthews_corrcoef(yt, yp) == pytest.approx(skm.matthews_corrcoef(yt, yp), abs=1e-12)


def test_string_labels_and_binary_formula():
    yt = np.array(["good", "good", "bad", "bad", "good", "bad", "good"])
    yp = np.array(["good", "bad", "bad", "good", "good", "bad", "good"])
    assert M.balanced_accuracy(yt, yp) == pytest.approx(skm.balanced_accuracy_score(yt, yp))
    (tp, fn), (fp, tn) = M.confusion_matrix(yt, yp, pos_label="good")
    by_hand = (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert M.matthews_corrcoef(yt, yp) == pytest.approx(by_hand, abs=1e-15)
    assert M.balanced_accuracy(yt, yp) == pytest.approx((tp / (tp + fn) + tn / (tn + fp)) / 2, abs=1e-15)


def test_classes_only_predicted_are_left_out_like_sklearn():
    yt, yp = [0, 0, 1, 1], [0, 2, 1, 1]
    with pytest.warns(UserWarning):
        sk = skm.balanced_accuracy_score(yt, yp)
    assert M.balanced_accuracy(yt, yp) == pytest.approx(sk)
    assert M.matthews_corrcoef(yt, yp) == pytest.approx(skm.matthews_corrcoef(yt, yp))


def test_mcc_undefined_raises_or_takes_zero_division():
    yt, yp = [0] * 99 + [1], [0] * 100  # the majority guess on 1 % positives
    with pytest.raises(ValueError, match="y_pred holds one class only"):
        M.matthews_corrcoef(yt, yp)
    assert M.matthews_corrcoef(yt, yp, zero_division=0.0) == skm.matthews_corrcoef(yt, yp) == 0.0
    with pytest.raises(ValueError, match="y_true holds one class only"):
        M.matthews_corrcoef([1, 1, 1], [1, 0, 1])
    with pytest.raises(ValueError, match="zero_division"):
        M.matthews_corrcoef(yt, yp, zero_division=2)
    assert M.balanced_accuracy(yt, yp) == 0.5
    assert M.accuracy(yt, yp) == 0.99


@pytest.mark.parametrize("seed", range(5))
def test_brier_and_log_loss_agree_with_sklearn(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 200)
    p = np.round(rng.random(200), 1)  # ties, and exact 0 and 1
    assert M.brier_score(y, p) == pytest.approx(skm.brier_score_loss(y, p), abs=1e-15)
    assert M.brier_score(1 - y, p, pos_label=0) == pytest.approx(M.brier_score(y, p), abs=1e-15)
    assert M.brier_score(y, 1 - p, pos_label=0) == pytest.approx(M.brier_score(y, p), abs=1e-15)
    assert M.log_loss(y, p) == pytest.approx(skm.log_loss(y, p), rel=1e-12)
    assert M.log_loss(y, np.column_stack([1 - p, p])) == pytest.approx(M.log_loss(y, p), rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_multiclass_log_loss_agrees_with_sklearn(seed):
    y, P = _proba(seed, k=4)
    assert M.log_loss(y, P) == pytest.approx(skm.log_loss(y, P), rel=1e-12)
    names = np.array(["d", "c", "b", "a"])[y]  # sorted classes a, b, c, d = columns 3, 2, 1, 0 of P
    assert M.log_loss(names, P[:, ::-1]) == pytest.approx(skm.log_loss(y, P), rel=1e-12)
    assert M.log_loss(names, P, labels=["d", "c", "b", "a"]) == pytest.approx(skm.log_loss(y, P), rel=1e-12)


def test_log_loss_by_hand_and_eps():
    # −(ln 0.8 + ln 0.7 + ln 0.6) / 3
    assert M.log_loss([1, 0, 1], [0.8, 0.3, 0.6]) == pytest.approx(-(np.log(0.8) + np.log(0.7) + np.log(0.6)) / 3)
    assert M.log_loss([1, 0], [0.0, 0.0], eps=0) == np.inf
    assert M.log_loss([1, 0], [0.0, 0.0]) == pytest.approx(skm.log_loss([1, 0], [0.0, 0.0]))
    assert M.log_loss([1, 0], [0.0, 0.0], eps=0.01) == pytest.approx(-(np.log(0.01) + np.log(0.99)) / 2)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 5, 10, 17])
def test_calibration_curve_agrees_with_sklearn(seed, strategy, n_bins):
    rng = np.random.default_rng(seed)
    p = rng.beta(0.5, 2, 400)
    p[:40] = np.round(p[:40], 1)  # values on the bin edges
    y = (rng.random(400) < p).astype(int)
    frac, mean, counts = cc = M.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    sk_frac, sk_mean = sk_calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    np.testing.assert_allclose(frac, sk_frac, atol=1e-14)
    np.testing.assert_allclose(mean, sk_mean, atol=1e-14)
    assert counts.sum() == 400 and (counts > 0).all()
    # ECE by its definition, bin by bin with Python loops
    edges = cc.bin_edges
    ece = 0.0
    for b in range(n_bins):
        lo, hi = edges[b], edges[b + 1]
        inside = (p <= hi) & ((p > lo) if b > 0 else (p >= lo)) if b < n_bins - 1 else (p > lo if b > 0 else p >= lo)
        if inside.any():
            ece += inside.sum() / 400 * abs(y[inside].mean() - p[inside].mean())
    assert cc.ece == pytest.approx(ece, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [3, 4, 6])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("method", ["ovr", "ovo"])
def test_roc_auc_multiclass_agrees_with_sklearn(seed, k, ties, method):
    y, P = _proba(seed, k=k, ties=ties)
    sk = skm.roc_auc_score(y, P, multi_class=method, average="macro")
    assert M.roc_auc_multiclass(y, P, method=method) == pytest.approx(sk, abs=1e-12)


def test_roc_auc_multiclass_hand_till_by_brute_force():
    # Hand & Till's Â(j, k) from the pairs of samples directly (ties ½), on imbalanced classes.
    rng = np.random.default_rng(7)
    y = rng.choice(3, 60, p=[0.6, 0.3, 0.1])
    P = rng.dirichlet(np.ones(3), 60)
    P[y == 2, 2] += 0.3
    P /= P.sum(axis=1, keepdims=True)

    def a(j, k):  # P(score_j of a class-j sample > score_j of a class-k sample)
        sj, sk = P[y == j, j], P[y == k, j]
        return np.mean((sj[:, None] > sk[None, :]) + 0.5 * (sj[:, None] == sk[None, :]))

    pairs = [(a(j, k) + a(k, j)) / 2 for j in range(3) for k in range(j + 1, 3)]
    assert M.roc_auc_multiclass(y, P, method="ovo") == pytest.approx(np.mean(pairs), abs=1e-15)
    ovr = [
        np.mean(
            (P[y == j, j][:, None] > P[y != j, j][None, :]) + 0.5 * (P[y == j, j][:, None] == P[y != j, j][None, :])
        )
        for j in range(3)
    ]
    assert M.roc_auc_multiclass(y, P) == pytest.approx(np.mean(ovr), abs=1e-15)


# ------------------------------------------------------------------------------------- properties
@pytest.mark.filterwarnings("ignore:y_pred contains classes not in y_true")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=40))
def test_mcc_balanced_accuracy_properties(pairs):
    yt, yp = np.array(pairs).T
    if np.unique(yt).size < 2:
        return
    ba = M.balanced_accuracy(yt, yp)
    assert 0 <= ba <= 1
    assert ba == pytest.approx(skm.balanced_accuracy_score(yt, yp), abs=1e-12)
    mcc = M.matthews_corrcoef(yt, yp, zero_division=0.0)
    assert -1 - 1e-12 <= mcc <= 1 + 1e-12
    assert mcc == pytest.approx(skm.matthews_corrcoef(yt, yp), abs=1e-12)
    assert M.matthews_corrcoef(yt, yt) == pytest.approx(1.0)
    # renaming the classes changes nothing
    assert M.matthews_corrcoef(yt + 10, yp + 10, zero_division=0.0) == pytest.approx(mcc, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.floats(0, 1)), min_size=1, max_size=40))
def test_brier_log_loss_properties(pairs):
    y = np.array([int(b) for b, _ in pairs])
    p = np.array([q for _, q in pairs])
    b = M.brier_score(y, p)
    assert 0 <= b <= 1
    assert b == pytest.approx(np.mean((p - y) ** 2))
    assert M.brier_score(y, y.astype(float)) == 0.0
    assert M.log_loss(y, p) >= 0
    # a proper scoring rule: the base rate as a constant forecast beats every other constant
    pi = y.mean()
    assert M.brier_score(y, np.full(y.size, pi)) <= M.brier_score(y, np.full(y.size, min(pi + 0.1, 1.0))) + 1e-12


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.2, 5.0))
def test_auc_unchanged_by_a_monotone_bend_but_calibration_changes(seed, gamma):
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.ones(3), 50)
    y = np.array([rng.choice(3, p=row) for row in P])
    if np.unique(y).size < 3:
        return
    bent = P**gamma
    bent /= bent.sum(axis=1, keepdims=True)
    # OvR uses one column at a time: a monotone map of each column keeps every binary AUC
    col = P[:, 0]
    assert M.roc_auc_multiclass(y, P) == pytest.approx(skm.roc_auc_score(y, P, multi_class="ovr"), abs=1e-12)
    y0 = (y == 0).astype(int)
    if 0 < y0.sum() < 50:
        from evallib.curves import roc_auc

        assert roc_auc(y0, col**gamma) == roc_auc(y0, col)


# -------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: M.brier_score([0, 1], [0.5, 1.2]), ValueError, r"proba must hold probabilities in \[0, 1\]"),
        (lambda: M.brier_score([0, 1], [-0.1, 0.5]), ValueError, "proba"),
        (lambda: M.brier_score([0, 1], [0.5, np.nan]), ValueError, "proba contains"),
        (lambda: M.brier_score([0, 1, 1], [0.5, 0.2]), ValueError, "y_true has 3, proba has 2"),
        (lambda: M.brier_score([0, 1], [[0.5, 0.5], [0.2, 0.8]]), ValueError, "proba must be 1-D"),
        (lambda: M.brier_score([0, 1, 2], [0.1, 0.2, 0.3]), ValueError, "y_true must be binary"),
        (
            lambda: M.brier_score(["a", "b"], [0.1, 0.2]),
            ValueError,
            r"pos_label: the labels of y_true are \['a', 'b'\]",
        ),
        (
            lambda: M.brier_score(["a", "b"], [0.1, 0.2], pos_label=1),
            TypeError,
            "pos_label=1 is a number but y_true holds strings",
        ),
        (lambda: M.brier_score([0, 2], [0.1, 0.2]), ValueError, "pos_label"),
        (lambda: M.log_loss([0, 1], [0.5, 1.5]), ValueError, "proba must hold probabilities"),
        (
            lambda: M.log_loss([0, 1, 2], [[0.5, 0.5], [0.2, 0.8], [0.1, 0.9]]),
            ValueError,
            "proba has 2 columns but there are 3",
        ),
        (lambda: M.log_loss([0, 1], [[0.5, 0.6], [0.2, 0.8]]), ValueError, "row 0 sums to"),
        (lambda: M.log_loss([0, 0], [[0.5, 0.5], [0.2, 0.8]]), ValueError, "proba has 2 columns but there are 1"),
        (lambda: M.log_loss([0, 1], [0.5, 0.5], eps=0.7), ValueError, "eps"),
        (
            lambda: M.log_loss([0, 1], [[0.5, 0.5], [0.2, 0.8]], labels=["a", "b"]),
            TypeError,
            "labels of different types",
        ),
        (lambda: M.log_loss([0, 3], [[0.5, 0.5], [0.2, 0.8]], labels=[0, 1]), ValueError, "not in labels"),
        (lambda: M.balanced_accuracy([1, 1, 1], [1, 0, 1]), ValueError, "y_true holds one class only"),
        (lambda: M.balanced_accuracy([0, 1], ["0", "1"]), TypeError, "y_true holds numbers, y_pred holds strings"),
        (lambda: M.matthews_corrcoef(["a", "b"], [0, 1]), TypeError, "labels of different types"),
        (lambda: M.matthews_corrcoef(np.array([1, "a"], dtype=object), [1, 1]), TypeError, "y_true mixes label types"),
        (lambda: M.balanced_accuracy([0, 1, 1], [0, 1]), ValueError, "y_true has 3, y_pred has 2"),
        (lambda: M.balanced_accuracy([0, np.nan], [0, 1]), ValueError, "y_true contains NaN"),
        (lambda: M.calibration_curve([0, 1], [0.2, 1.1]), ValueError, "proba must hold probabilities"),
        (
            lambda: M.calibration_curve([0, 1], [0.2, 0.4], n_bins=0),
            ValueError,
            r"^The 'n_bins' parameter of calibration_curve must be an int in \[1, inf\); got 0\.$",
        ),
        (lambda: M.calibration_curve([0, 1], [0.2, 0.4], n_bins=2.5), TypeError, "n_bins"),
        (lambda: M.calibration_curve([0, 1], [0.2, 0.4], strategy="kmeans"), ValueError, "strategy"),
        (lambda: M.roc_auc_multiclass([0, 1, 2], [0.2, 0.4, 0.5]), ValueError, r"proba must be 2-D"),
        (lambda: M.roc_auc_multiclass([0, 1, 2], np.full((3, 3), 1 / 3), method="micro"), ValueError, "method"),
        (lambda: M.roc_auc_multiclass([0, 1, 2], np.full((3, 3), 0.5)), ValueError, "sums to"),
        (lambda: M.roc_auc_multiclass([0, 0, 0], np.full((3, 1), 1.0)), ValueError, "one class only"),
        (
            lambda: M.roc_auc_multiclass([0, 1, 1], np.full((3, 3), 1 / 3), labels=[0, 1, 2]),
            ValueError,
            "no sample of class 2",
        ),
        (lambda: M.roc_auc_multiclass([0, 1, 2], np.full((2, 3), 1 / 3)), ValueError, "y_true has 3, proba has 2"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_inputs_are_not_modified():
    y, P = _proba(0, k=3)
    P0 = P.copy()
    M.log_loss(y, P, labels=[2, 1, 0])
    M.roc_auc_multiclass(y, P, labels=[2, 1, 0])
    np.testing.assert_array_equal(P, P0)
