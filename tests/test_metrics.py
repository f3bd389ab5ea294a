"""Tests for evallib.metrics against scikit-learn, the notes' worked examples and definitions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from evallib import metrics as M


def _random_labels(seed, n=200):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, n), rng.integers(0, 2, n)


# ------------------------------------------------------------------------------ classification
@pytest.mark.parametrize("seed", range(5))
def test_confusion_matrix_is_sklearn_rotated(seed):
    yt, yp = _random_labels(seed)
    sk = skm.confusion_matrix(yt, yp, labels=[0, 1])  # [[TN, FP], [FN, TP]]
    assert M.confusion_matrix(yt, yp).tolist() == np.rot90(sk, 2).tolist()


def test_confusion_matrix_by_hand_and_pos_label():
    yt = ["good", "good", "bad", "bad", "good"]
    yp = ["good", "bad", "good", "bad", "good"]
    assert M.confusion_matrix(yt, yp, pos_label="good").tolist() == [[2, 1], [1, 1]]
    assert M.confusion_matrix(yt, yp, pos_label="bad").tolist() == [[1, 1], [1, 2]]
    # one class only in y_true is fine for a confusion matrix
    assert M.confusion_matrix([1, 1, 1], [1, 0, 1]).tolist() == [[2, 1], [0, 0]]


@pytest.mark.parametrize("seed", range(5))
def test_prf_against_sklearn(seed):
    yt, yp = _random_labels(seed)
    assert M.precision(yt, yp) == pytest.approx(skm.precision_score(yt, yp))
    assert M.recall(yt, yp) == pytest.approx(skm.recall_score(yt, yp))
    assert M.f1_score(yt, yp) == pytest.approx(skm.f1_score(yt, yp))
    for beta in (0.25, 0.5, 2.0, 3.0):
        assert M.fbeta_score(yt, yp, beta) == pytest.approx(skm.fbeta_score(yt, yp, beta=beta))
    assert M.precision(yt, yp, pos_label=0) == pytest.approx(skm.precision_score(yt, yp, pos_label=0))
    assert M.error_rate(yt, yp) == pytest.approx(1 - skm.accuracy_score(yt, yp))
    assert M.accuracy(yt, yp) == pytest.approx(skm.accuracy_score(yt, yp))


def test_f1_count_form_of_the_book():
    # 式(2.10): F1 = 2TP / (m + TP - TN)
    yt, yp = _random_labels(7, 57)
    (tp, fn), (fp, tn) = M.confusion_matrix(yt, yp)
    assert M.f1_score(yt, yp) == pytest.approx(2 * tp / (len(yt) + tp - tn))


def test_fbeta_zero_when_no_true_positive():
    assert M.f1_score([1, 0, 0], [0, 1, 0]) == 0.0
    assert M.fbeta_score([1, 0], [0, 1], 2) == 0.0


def test_zero_division():
    with pytest.raises(ValueError, match="no sample is predicted positive"):
        M.precision([1, 0], [0, 0])
    assert M.precision([1, 0], [0, 0], zero_division=0.0) == 0.0
    with pytest.raises(ValueError, match="no positive"):
        M.recall([0, 0], [1, 0])
    assert M.recall([0, 0], [1, 0], zero_division=1.0) == 1.0
    with pytest.raises(ValueError, match="undefined"):
        M.f1_score([0, 0], [0, 0])
    with pytest.raises(ValueError, match="zero_division"):
        M.precision([1, 0], [1, 0], zero_division=0.5)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=40))
def test_f1_between_min_and_max_of_p_and_r(pairs):
    yt = np.array([a for a, _ in pairs])
    yp = np.array([b for _, b in pairs])
    (tp, fn), (fp, _) = M.confusion_matrix(yt, yp)
    if tp + fp == 0 or tp + fn == 0:
        return
    p, r, f = M.precision(yt, yp), M.recall(yt, yp), M.f1_score(yt, yp)
    assert min(p, r) - 1e-12 <= f <= max(p, r) + 1e-12
    # F-beta moves from P (beta -> 0) to R (beta -> inf): it lies between them for every beta
    for beta in (0.1, 0.5, 2, 10):
        assert min(p, r) - 1e-12 <= M.fbeta_score(yt, yp, beta) <= max(p, r) + 1e-12


def _one_vs_rest(yt, yp, classes):
    return np.array([M.confusion_matrix(yt == c, yp == c, pos_label=True) for c in classes])


@pytest.mark.parametrize("seed", range(3))
def test_macro_micro_against_sklearn_one_vs_rest(seed):
    rng = np.random.default_rng(seed)
    yt = rng.integers(0, 3, 300)
    yp = np.where(rng.random(300) < 0.6, yt, rng.integers(0, 3, 300))
    cms = _one_vs_rest(yt, yp, [0, 1, 2])
    mac, mic = M.macro_average(cms), M.micro_average(cms)
    assert mac.precision == pytest.approx(skm.precision_score(yt, yp, average="macro"))
    assert mac.recall == pytest.approx(skm.recall_score(yt, yp, average="macro"))
    # the book's macro-F1 is the harmonic mean of macro-P and macro-R (not sklearn's mean of F1s)
    assert mac.f1 == pytest.approx(2 * mac.precision * mac.recall / (mac.precision + mac.recall))
    assert mac.f1 != pytest.approx(skm.f1_score(yt, yp, average="macro"), abs=1e-9)
    # micro over one-vs-rest: P = R = F1 = accuracy, as sklearn's micro average
    assert mic.f1 == pytest.approx(skm.f1_score(yt, yp, average="micro"))
    assert mic.precision == pytest.approx(skm.accuracy_score(yt, yp))


def test_macro_micro_by_hand():
    cms = [[[1, 1], [0, 2]], [[2, 0], [2, 0]]]
    mac = M.macro_average(cms)  # P: 1 and 0.5; R: 0.5 and 1
    assert (mac.precision, mac.recall, mac.f1) == pytest.approx((0.75, 0.75, 0.75))
    mic = M.micro_average(cms)  # mean TP 1.5, FN 0.5, FP 1
    assert (mic.precision, mic.recall) == pytest.approx((1.5 / 2.5, 1.5 / 2.0))
    assert mic.f1 == pytest.approx(2 * 0.6 * 0.75 / 1.35)
    assert "macro" in repr(mac) and "precision=0.7500" in repr(mac)
    p, r, f = mic
    assert (p, r, f) == (mic.precision, mic.recall, mic.f1)


def test_cost_sensitive_error_by_definition():
    yt, yp = _random_labels(3, 100)
    cm = M.confusion_matrix(yt, yp)
    assert M.cost_sensitive_error(yt, yp, cost_fn=5, cost_fp=1) == pytest.approx((5 * cm[0, 1] + cm[1, 0]) / 100)
    assert M.cost_sensitive_error(yt, yp, cost_fn=1, cost_fp=1) == pytest.approx(M.error_rate(yt, yp))
    # sklearn's sample weights give the same: weight each error by its cost
    w = np.where(yt == 1, 5.0, 1.0)
    assert M.cost_sensitive_error(yt, yp, cost_fn=5, cost_fp=1) == pytest.approx(np.sum(w * (yt != yp)) / len(yt))


@pytest.mark.parametrize(
    "call",
    [
        lambda: M.confusion_matrix([], []),
        lambda: M.confusion_matrix([1, 0], [1]),
        lambda: M.confusion_matrix([0, 1, 2], [0, 1, 1]),
        lambda: M.confusion_matrix([0, 1], [0.3, 0.7]),
        lambda: M.confusion_matrix([0, 1], [1, 2]),
        lambda: M.confusion_matrix([0.0, np.nan], [0, 1]),
        lambda: M.confusion_matrix(["a", "b"], ["a", "b"], pos_label=1),
        lambda: M.confusion_matrix([[0, 1]], [[0, 1]]),
        lambda: M.precision([1, 0], [1]),
        lambda: M.recall([1, 0, 2], [1, 0, 1]),
        lambda: M.f1_score([], []),
        lambda: M.fbeta_score([1, 0], [1, 0], 0),
        lambda: M.fbeta_score([1, 0], [1, 0], -1.0),
        lambda: M.fbeta_score([1, 0], [1, 0], np.inf),
        lambda: M.error_rate([1, 0], [1]),
        lambda: M.accuracy([], []),
        lambda: M.error_rate([np.nan, 1], [1, 1]),
        lambda: M.macro_average(np.zeros((2, 3, 3))),
        lambda: M.macro_average([[[1, -1], [0, 2]]]),
        lambda: M.macro_average([[[0, 1], [0, 2]], [[0, 0], [0, 1]]]),
        lambda: M.micro_average([[[0, 0], [0, 3]]]),
        lambda: M.micro_average([[[np.nan, 1], [0, 2]]]),
        lambda: M.macro_average([]),
        lambda: M.cost_sensitive_error([1, 0], [0, 1], cost_fn=-1, cost_fp=1),
        lambda: M.cost_sensitive_error([1, 0], [0, 1], cost_fn=1, cost_fp=np.nan),
        lambda: M.cost_sensitive_error([1, 0], [0], cost_fn=1, cost_fp=1),
    ],
)
def test_classification_bad_input(call):
    with pytest.raises((ValueError, TypeError)):
        call()


def test_error_messages_name_the_argument():
    with pytest.raises(ValueError, match="y_pred"):
        M.confusion_matrix([0, 1], [0.3, 0.7])
    with pytest.raises(ValueError, match="length mismatch"):
        M.precision([1, 0, 1], [1, 0])
    with pytest.raises(ValueError, match="beta"):
        M.fbeta_score([1, 0], [1, 0], 0)
    with pytest.raises(ValueError, match="cost_fn"):
        M.cost_sensitive_error([1, 0], [1, 0], cost_fn=-2, cost_fp=1)
    with pytest.raises(TypeError, match="beta"):
        M.fbeta_score([1, 0], [1, 0], "2")


# ---------------------------------------------------------------------------------- regression
@pytest.mark.parametrize("seed", range(4))
def test_regression_against_sklearn(seed):
    rng = np.random.default_rng(seed)
    yt = rng.normal(10, 3, 50)
    yp = yt + rng.normal(0, 1, 50)
    assert M.mae(yt, yp) == pytest.approx(skm.mean_absolute_error(yt, yp))
    assert M.mse(yt, yp) == pytest.approx(skm.mean_squared_error(yt, yp))
    assert M.rmse(yt, yp) == pytest.approx(np.sqrt(skm.mean_squared_error(yt, yp)))
    assert M.mape(yt, yp) == pytest.approx(skm.mean_absolute_percentage_error(yt, yp))
    assert M.r2(yt, yp) == pytest.approx(skm.r2_score(yt, yp))
    assert M.mdape(yt, yp) == pytest.approx(np.median(np.abs(yt - yp) / np.abs(yt)))


def test_regression_by_hand():
    yt, yp = [100.0, 200.0, 50.0, 400.0], [110.0, 150.0, 50.0, 400.0]
    assert M.mape(yt, yp) == pytest.approx((0.1 + 0.25 + 0 + 0) / 4)
    assert M.mdape(yt, yp) == pytest.approx(0.05)  # median of 0, 0, 0.1, 0.25
    assert M.rmse([0, 0], [3, 4]) == pytest.approx(np.sqrt(12.5))
    # the notes' form (1/N)·sqrt(Σ e²) is not RMSE: it shrinks as N grows
    assert M.rmse([0, 0], [3, 4]) != pytest.approx(np.sqrt(25) / 2)
    assert M.r2([1.0, 2.0, 3.0], [2.0, 2.0, 2.0]) == pytest.approx(0.0)


@pytest.mark.parametrize("f", [M.mae, M.mse, M.rmse, M.mape, M.mdape, M.r2])
def test_regression_bad_input(f):
    for yt, yp in [
        ([], []),
        ([1.0, 2.0], [1.0]),
        ([1.0, np.nan], [1.0, 2.0]),
        ([1.0, 2.0], [np.inf, 2.0]),
        (np.ones((2, 2)), np.ones((2, 2))),
        (["a", "b"], [1.0, 2.0]),
    ]:
        with pytest.raises(ValueError):
            f(yt, yp)


def test_mape_with_zero_raises_and_r2_constant_raises():
    with pytest.raises(ValueError, match="y_true contains 1 zero"):
        M.mape([0.0, 1.0], [0.1, 1.0])
    with pytest.raises(ValueError, match="zero"):
        M.mdape([0.0, 1.0], [0.1, 1.0])
    with pytest.raises(ValueError, match="constant"):
        M.r2([2.0, 2.0], [1.0, 3.0])


# ------------------------------------------------------------------------------------- ranking
def test_map_example_of_the_notes():
    # note 004: topic 1 has 4 relevant pages at ranks 1, 2, 4, 7; topic 2 has 5 relevant, 3 found at 1, 3, 5
    ap1 = M.average_precision([1, 2, 4, 7], 4)
    ap2 = M.average_precision([1, 3, 5], 5)
    assert ap1 == pytest.approx((1 / 1 + 2 / 2 + 3 / 4 + 4 / 7) / 4)
    assert round(ap1, 2) == 0.83
    assert ap2 == pytest.approx((1 + 2 / 3 + 3 / 5) / 5)  # the notes' 0.45 divides by 5, not 3
    assert round(ap2, 2) == 0.45
    assert (1 + 2 / 3 + 3 / 5) / 3 == pytest.approx(0.7556, abs=1e-4)  # what the notes' formula says
    assert M.mean_average_precision([[1, 2, 4, 7], [1, 3, 5]], [4, 5]) == pytest.approx((ap1 + ap2) / 2)
    assert round(M.mean_average_precision([[7, 4, 2, 1], [5, 3, 1]], [4, 5]), 2) == 0.64  # order of ranks is free


@pytest.mark.parametrize("seed", range(5))
def test_average_precision_equals_sklearn_when_all_relevant_are_ranked(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 30)
    y[0] = 1
    scores = rng.permutation(30).astype(float)  # no ties
    ranks = np.argsort(np.argsort(-scores)) + 1
    assert M.average_precision(ranks[y == 1], int(y.sum())) == pytest.approx(skm.average_precision_score(y, scores))


def test_dcg_ndcg_example_of_the_notes():
    shown = [5, 3, 2, 1, 2]
    pool = [5, 3, 2, 1, 2, 4, 0]
    by_hand = sum((2**r - 1) / np.log2(i + 2) for i, r in enumerate(shown))
    assert M.dcg(shown) == pytest.approx(by_hand)
    assert round(M.dcg(shown), 1) == 38.5
    ideal = sorted(pool, reverse=True)[:5]
    idcg = sum((2**r - 1) / np.log2(i + 2) for i, r in enumerate(ideal))
    assert idcg == pytest.approx(46.417, abs=1e-3)  # the notes round each term and get 46.5
    assert M.ndcg(shown, ideal=pool) == pytest.approx(by_hand / idcg)
    assert round(M.ndcg(shown, ideal=pool), 3) == 0.830  # the notes say 0.827 (38.5 / 46.5 is 0.828)
    assert M.ndcg(shown, 5, ideal=pool) == M.ndcg(shown, ideal=pool)
    assert sum(shown) == 13  # CG^<5>


@pytest.mark.parametrize("seed", range(5))
def test_linear_gain_against_sklearn(seed):
    rng = np.random.default_rng(seed)
    rel = rng.integers(0, 4, 12).astype(float)
    rel[0] = 3
    order_scores = np.arange(12, 0, -1, dtype=float)  # shown in the given order
    for k in (None, 1, 5, 12):
        assert M.dcg(rel, k, gain="linear") == pytest.approx(skm.dcg_score([rel], [order_scores], k=k))
        assert M.ndcg(rel, k, gain="linear") == pytest.approx(skm.ndcg_score([rel], [order_scores], k=k))


def test_ndcg_perfect_and_mrr():
    assert M.ndcg([3, 2, 1, 0]) == pytest.approx(1.0)
    assert M.ndcg([0, 1, 2, 3]) < 1
    assert M.mrr([1, 2, 4]) == pytest.approx((1 + 1 / 2 + 1 / 4) / 3)
    assert M.mrr([1, np.inf]) == pytest.approx(0.5)


@pytest.mark.parametrize(
    "call",
    [
        lambda: M.average_precision([0, 2], 3),
        lambda: M.average_precision([1.5, 2], 3),
        lambda: M.average_precision([1, 2, 3], 2),
        lambda: M.average_precision([1, 1], 3),
        lambda: M.average_precision([1, 2], 0),
        lambda: M.average_precision([1, np.nan], 2),
        lambda: M.mean_average_precision([[1, 2]], [2, 3]),
        lambda: M.mean_average_precision([], []),
        lambda: M.dcg([]),
        lambda: M.dcg([1, -1]),
        lambda: M.dcg([1, 2], k=3),
        lambda: M.dcg([1, 2], k=0),
        lambda: M.dcg([1, np.nan]),
        lambda: M.dcg([1, 2], gain="square"),
        lambda: M.ndcg([0, 0, 0]),
        lambda: M.ndcg([3, 1], ideal=[1, 1]),
        lambda: M.ndcg([1, 2], k=5),
        lambda: M.mrr([]),
        lambda: M.mrr([0, 1]),
        lambda: M.mrr([1, -np.inf]),
        lambda: M.mrr([1, np.nan]),
    ],
)
def test_ranking_bad_input(call):
    with pytest.raises((ValueError, TypeError)):
        call()
