"""Performance measures (性能度量): 西瓜书 §2.3, plus the regression and ranking measures of the notes.

Classification metrics take ``(y_true, y_pred)``; taught in ``notebooks/01_error_and_fitting.ipynb``
(error rate, accuracy) and ``notebooks/04_classification_metrics.ipynb`` (confusion matrix, P, R, F1,
F-beta, macro/micro averages). The cost-sensitive error rate (式(2.23)) is taught in
``notebooks/06_cost_sensitive.ipynb``; regression and ranking measures in
``notebooks/07_regression_ranking_metrics.ipynb``.

Conventions
-----------
* Binary labels: ``pos_label`` marks the positive class (正例); the other label is negative (反例).
* The confusion matrix uses the book's layout (表2.1): rows are the true class (+, -), columns the
  predicted class (+, -), i.e. ``[[TP, FN], [FP, TN]]``. scikit-learn's ``confusion_matrix`` sorts the
  labels, so for labels {0, 1} it gives ``[[TN, FP], [FN, TP]]``: the same numbers, mirrored.
* A ratio whose denominator is zero (precision with no predicted positive, recall with no true positive)
  raises ``ValueError`` unless ``zero_division`` gives the value to use: never a silent NaN.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ._validation import (
    as_1d_array,
    as_finite_array,
    check_binary_labels,
    check_consistent_length,
    check_nonnegative,
    check_positive_int,
)

__all__ = [
    "error_rate", "accuracy",
    "confusion_matrix", "precision", "recall", "f1_score", "fbeta_score",
    "AveragedScores", "macro_average", "micro_average",
    "cost_sensitive_error",
    "mae", "mse", "rmse", "mape", "mdape", "r2",
    "average_precision", "mean_average_precision", "dcg", "ndcg", "mrr",
]


# ----------------------------------------------------------------------------------------- helpers
def _labels_pair(y_true, y_pred):
    yt = as_1d_array(y_true, "y_true")
    yp = as_1d_array(y_pred, "y_pred")
    check_consistent_length(y_true=yt, y_pred=yp)
    for name, a in (("y_true", yt), ("y_pred", yp)):
        if a.dtype.kind in "fc" and not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf; labels must be finite")
    return yt, yp


def _binary_pair(y_true, y_pred, pos_label):
    """Boolean masks (true positive class, predicted positive class) of two binary label arrays."""
    yt, yp = _labels_pair(y_true, y_pred)
    t = check_binary_labels(yt, "y_true", pos_label=pos_label, need_both=False)
    p = check_binary_labels(yp, "y_pred", pos_label=pos_label, need_both=False)
    union = np.unique(np.concatenate([np.unique(yt), np.unique(yp)]))
    if len(union) > 2:
        raise ValueError(
            f"y_true and y_pred together hold {len(union)} labels {union.tolist()}; a binary confusion "
            "matrix needs at most two (the positive label and one negative label)"
        )
    if len(union) == 2 and pos_label not in union:
        raise ValueError(f"pos_label={pos_label!r} is not among the labels {union.tolist()}")
    return t, p


def _check_zero_division(zero_division):
    if isinstance(zero_division, str):
        if zero_division != "raise":
            raise ValueError(f"zero_division must be 'raise', 0.0 or 1.0, got {zero_division!r}")
        return zero_division
    if isinstance(zero_division, (bool, np.bool_)) or not isinstance(zero_division, numbers.Real) \
            or float(zero_division) not in (0.0, 1.0):
        raise ValueError(f"zero_division must be 'raise', 0.0 or 1.0, got {zero_division!r}")
    return float(zero_division)


def _ratio(num, den, zero_division, what):
    zd = _check_zero_division(zero_division)
    if den == 0:
        if zd == "raise":
            raise ValueError(f"{what}; pass zero_division=0.0 or 1.0 to choose a value")
        return zd
    return float(num / den)


# ------------------------------------------------------------------------------- classification
def error_rate(y_true, y_pred) -> float:
    """Fraction of samples predicted wrongly: E(f; D) = (1/m) Σ I(f(x_i) ≠ y_i) (式(2.4)).

    Works for any labels (binary or multiclass).

    >>> error_rate([1, 0, 1, 1], [1, 1, 1, 0])
    0.5
    """
    yt, yp = _labels_pair(y_true, y_pred)
    return float(np.mean(yt != yp))


def accuracy(y_true, y_pred) -> float:
    """Fraction of samples predicted rightly: acc(f; D) = 1 - E(f; D) (式(2.5)).

    >>> accuracy([1, 0, 1, 1], [1, 1, 1, 0])
    0.5
    """
    yt, yp = _labels_pair(y_true, y_pred)
    return float(np.mean(yt == yp))


def confusion_matrix(y_true, y_pred, *, pos_label=1) -> np.ndarray:
    """The binary confusion matrix (混淆矩阵) in the book's layout (表2.1): ``[[TP, FN], [FP, TN]]``.

    Rows: true positive / true negative class; columns: predicted positive / predicted negative.

    scikit-learn: ``confusion_matrix(y_true, y_pred)`` orders the labels ascending, so for {0, 1} it
    returns ``[[TN, FP], [FN, TP]]``: ``np.rot90(sk, 2)`` is this matrix (docs/sklearn-differences.md).

    Parameters
    ----------
    y_true, y_pred : 1-D array-likes of the same length holding at most two labels between them.
    pos_label : the label of the positive class (正例).

    >>> confusion_matrix([1, 1, 0, 0, 1], [1, 0, 1, 0, 1]).tolist()
    [[2, 1], [1, 1]]
    """
    t, p = _binary_pair(y_true, y_pred, pos_label)
    tp = int(np.count_nonzero(t & p))
    fn = int(np.count_nonzero(t & ~p))
    fp = int(np.count_nonzero(~t & p))
    tn = int(t.size - tp - fn - fp)
    return np.array([[tp, fn], [fp, tn]], dtype=np.int64)


def precision(y_true, y_pred, *, pos_label=1, zero_division="raise") -> float:
    """Precision (查准率) P = TP / (TP + FP) (式(2.8)): the share of predicted positives that are positive.

    ``zero_division`` (0.0 or 1.0) is returned when nothing is predicted positive; by default that raises.

    scikit-learn: ``precision_score`` returns 0.0 with a warning there (``zero_division="warn"``).

    >>> precision([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    (tp, _), (fp, _) = confusion_matrix(y_true, y_pred, pos_label=pos_label)
    return _ratio(tp, tp + fp, zero_division,
                  "precision is undefined: no sample is predicted positive (TP + FP = 0)")


def recall(y_true, y_pred, *, pos_label=1, zero_division="raise") -> float:
    """Recall (查全率) R = TP / (TP + FN) (式(2.9)): the share of positives that are found. Equals TPR.

    scikit-learn: ``recall_score`` returns 0.0 with a warning when there is no positive; here that raises
    unless ``zero_division`` (0.0 or 1.0) is given.

    >>> recall([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    (tp, fn), _ = confusion_matrix(y_true, y_pred, pos_label=pos_label)
    return _ratio(tp, tp + fn, zero_division,
                  "recall is undefined: y_true holds no positive sample (TP + FN = 0)")


def _check_beta(beta) -> float:
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real):
        raise TypeError(f"beta must be a real number, got {type(beta).__name__}")
    beta = float(beta)
    if not np.isfinite(beta) or beta <= 0:
        raise ValueError(f"beta must be a finite number > 0, got {beta}")
    return beta


def _fbeta_from_counts(tp, fn, fp, beta, zero_division):
    # (1+β²)PR/(β²P + R) with P, R written in counts: defined even when P or R is 0/0 but TP = 0.
    b2 = beta * beta
    return _ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp, zero_division,
                  "F-score is undefined: there is no positive sample and none is predicted positive")


def fbeta_score(y_true, y_pred, beta, *, pos_label=1, zero_division="raise") -> float:
    """F-beta (式(2.11)): F_β = (1+β²)·P·R / (β²·P + R), the weighted harmonic mean
    1/F_β = (1/P + β²/R) / (1+β²).

    β > 1 weighs recall more, β < 1 precision more; β = 1 is F1. Computed from counts,
    (1+β²)TP / ((1+β²)TP + β²FN + FP), so it is 0 (not undefined) when TP = 0 but FP + FN > 0.

    scikit-learn: ``fbeta_score`` agrees, except with no positive and none predicted (0.0 and a warning;
    here an error unless ``zero_division`` is given).

    >>> round(fbeta_score([1, 1, 0, 0, 1], [1, 0, 0, 0, 1], beta=2), 4)
    0.7143
    """
    beta = _check_beta(beta)
    (tp, fn), (fp, _) = confusion_matrix(y_true, y_pred, pos_label=pos_label)
    return _fbeta_from_counts(tp, fn, fp, beta, zero_division)


def f1_score(y_true, y_pred, *, pos_label=1, zero_division="raise") -> float:
    """F1 (式(2.10)): the harmonic mean of P and R, 2PR/(P+R) = 2TP / (m + TP - TN).

    scikit-learn: ``f1_score`` agrees, except with no positive and none predicted (0.0 and a warning;
    here an error unless ``zero_division`` is given).

    >>> f1_score([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    (tp, fn), (fp, _) = confusion_matrix(y_true, y_pred, pos_label=pos_label)
    return _fbeta_from_counts(tp, fn, fp, 1.0, zero_division)


@dataclass(frozen=True)
class AveragedScores:
    """Averaged precision, recall and F1 over several confusion matrices (macro- or micro-)."""

    kind: str
    precision: float
    recall: float
    f1: float

    def __iter__(self):
        """Unpack as ``P, R, F1 = macro_average(cms)``."""
        return iter((self.precision, self.recall, self.f1))

    def __repr__(self) -> str:
        return (f"AveragedScores({self.kind}: precision={self.precision:.4f}, recall={self.recall:.4f}, "
                f"f1={self.f1:.4f})")


def _as_confusion_matrices(confusion_matrices) -> np.ndarray:
    cms = as_finite_array(confusion_matrices, "confusion_matrices", ndim=None)
    if cms.ndim == 2 and cms.shape == (2, 2):
        cms = cms[None]
    if cms.ndim != 3 or cms.shape[1:] != (2, 2):
        raise ValueError(
            f"confusion_matrices must have shape (k, 2, 2) (k matrices [[TP, FN], [FP, TN]]), got {cms.shape}"
        )
    if (cms < 0).any():
        raise ValueError("confusion_matrices holds negative counts")
    return cms


def _harmonic(p, r):
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def macro_average(confusion_matrices) -> AveragedScores:
    """Macro-P, macro-R and macro-F1 over k confusion matrices, as the book defines them (式(2.12)–(2.14)).

    macro-P and macro-R are the plain means of each matrix's P and R; macro-F1 is the harmonic mean of
    macro-P and macro-R.

    scikit-learn: ``f1_score(average="macro")`` instead averages the per-class F1 values; the two differ in
    general (macro-P and macro-R agree with ``average="macro"``). Each matrix is ``[[TP, FN], [FP, TN]]``; a matrix whose P or R
    is undefined (no predicted positive / no positive) raises.

    >>> macro_average([[[1, 1], [0, 2]], [[2, 0], [2, 0]]])
    AveragedScores(macro: precision=0.7500, recall=0.7500, f1=0.7500)
    """
    cms = _as_confusion_matrices(confusion_matrices)
    tp, fn, fp = cms[:, 0, 0], cms[:, 0, 1], cms[:, 1, 0]
    for name, den in (("precision", tp + fp), ("recall", tp + fn)):
        if (den == 0).any():
            i = int(np.flatnonzero(den == 0)[0])
            raise ValueError(f"confusion_matrices[{i}]: {name} is undefined (its denominator is 0)")
    p = float(np.mean(tp / (tp + fp)))
    r = float(np.mean(tp / (tp + fn)))
    return AveragedScores("macro", p, r, _harmonic(p, r))


def micro_average(confusion_matrices) -> AveragedScores:
    """Micro-P, micro-R and micro-F1 (式(2.15)–(2.17)): average TP, FP, TN, FN first, then compute P, R, F1.

    >>> micro_average([[[1, 1], [0, 2]], [[2, 0], [2, 0]]])
    AveragedScores(micro: precision=0.6000, recall=0.7500, f1=0.6667)
    """
    cms = _as_confusion_matrices(confusion_matrices)
    (tp, fn), (fp, _) = cms.mean(axis=0)
    if tp + fp == 0 or tp + fn == 0:
        raise ValueError("confusion_matrices: micro precision or recall is undefined (a denominator is 0)")
    p, r = float(tp / (tp + fp)), float(tp / (tp + fn))
    return AveragedScores("micro", p, r, _harmonic(p, r))


def cost_sensitive_error(y_true, y_pred, *, cost_fn, cost_fp, pos_label=1) -> float:
    """Cost-sensitive error rate (代价敏感错误率, 式(2.23)): (FN·cost_fn + FP·cost_fp) / m.

    ``cost_fn`` is the cost of a positive predicted negative (the book's cost01: its class 0 is the
    positive class), ``cost_fp`` that of a negative predicted positive (cost10). With both costs 1 this
    is the error rate.

    >>> cost_sensitive_error([1, 1, 0, 0], [0, 1, 1, 0], cost_fn=5, cost_fp=1)
    1.5
    """
    cost_fn = check_nonnegative(cost_fn, "cost_fn")
    cost_fp = check_nonnegative(cost_fp, "cost_fp")
    cm = confusion_matrix(y_true, y_pred, pos_label=pos_label)
    return float((cm[0, 1] * cost_fn + cm[1, 0] * cost_fp) / cm.sum())


# ----------------------------------------------------------------------------------- regression
def _regression_pair(y_true, y_pred):
    yt = as_finite_array(y_true, "y_true")
    yp = as_finite_array(y_pred, "y_pred")
    check_consistent_length(y_true=yt, y_pred=yp)
    return yt, yp


def mae(y_true, y_pred) -> float:
    """Mean absolute error (1/m) Σ |f(x_i) - y_i| (the L1 loss).

    >>> mae([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    0.6666666666666666
    """
    yt, yp = _regression_pair(y_true, y_pred)
    return float(np.mean(np.abs(yp - yt)))


def mse(y_true, y_pred) -> float:
    """Mean squared error E(f; D) = (1/m) Σ (f(x_i) - y_i)^2 (式(2.2)).

    >>> mse([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    1.3333333333333333
    """
    yt, yp = _regression_pair(y_true, y_pred)
    return float(np.mean((yp - yt) ** 2))


def rmse(y_true, y_pred) -> float:
    """Root mean squared error sqrt((1/m) Σ (f(x_i) - y_i)^2): the square root of MSE, in y's units.

    >>> round(rmse([1.0, 2.0, 3.0], [1.0, 2.0, 5.0]), 4)
    1.1547
    """
    return float(np.sqrt(mse(y_true, y_pred)))


def _relative_errors(y_true, y_pred):
    yt, yp = _regression_pair(y_true, y_pred)
    if (yt == 0).any():
        i = int(np.flatnonzero(yt == 0)[0])
        raise ValueError(
            f"y_true contains {int((yt == 0).sum())} zero(s) (first at index {i}): the relative error "
            "|y - f(x)| / |y| is undefined there; use mae/rmse, or drop or shift those targets"
        )
    return np.abs(yp - yt) / np.abs(yt)


def mape(y_true, y_pred) -> float:
    """Mean absolute percentage error (1/m) Σ |y_i - f(x_i)| / |y_i|, as a fraction (0.1 = 10 %).

    scikit-learn: like ``mean_absolute_percentage_error`` it returns a fraction, but a zero in
    ``y_true`` raises instead of dividing by machine epsilon (which gives numbers like 2.25e15).

    >>> mape([100.0, 200.0], [110.0, 150.0])
    0.175
    """
    return float(np.mean(_relative_errors(y_true, y_pred)))


def mdape(y_true, y_pred) -> float:
    """Median absolute percentage error: the median of |y_i - f(x_i)| / |y_i| (robust to a few outliers).

    >>> mdape([100.0, 200.0, 50.0], [110.0, 150.0, 50.0])
    0.1
    """
    return float(np.median(_relative_errors(y_true, y_pred)))


def r2(y_true, y_pred) -> float:
    """Coefficient of determination R² = 1 - Σ(y - f(x))² / Σ(y - ȳ)².

    1 is perfect, 0 is "no better than predicting the mean", negative is worse than that. Undefined
    (raises) when ``y_true`` is constant.

    scikit-learn: ``r2_score`` agrees, but returns 0.0 (or 1.0 for a perfect fit) for a constant ``y_true``.

    >>> r2([1.0, 2.0, 3.0], [1.0, 2.0, 4.0])
    0.5
    """
    yt, yp = _regression_pair(y_true, y_pred)
    ss_tot = float(np.sum((yt - yt.mean()) ** 2))
    if ss_tot == 0:
        raise ValueError("y_true is constant (at least two different values are needed): R² is undefined")
    return 1.0 - float(np.sum((yt - yp) ** 2)) / ss_tot


# -------------------------------------------------------------------------------------- ranking
def _check_ranks(ranks, name, *, allow_inf=False, allow_empty=False):
    r = as_1d_array(ranks, name, allow_empty=allow_empty)
    if r.size == 0:
        return r.astype(float)
    if r.dtype == bool or not np.issubdtype(r.dtype, np.number):
        raise ValueError(f"{name} must hold numeric 1-based ranks, got dtype {r.dtype}")
    r = r.astype(float)
    if np.isnan(r).any() or (np.isinf(r) & ((r < 0) | (not allow_inf))).any():
        raise ValueError(f"{name} contains NaN or inf" + (" (only +inf, 'not found', is allowed)" if allow_inf else ""))
    fin = r[np.isfinite(r)]
    if (fin != np.round(fin)).any() or (fin < 1).any():
        raise ValueError(f"{name} must hold whole 1-based ranks (>= 1), got {r[:5].tolist()}"
                         + ("..." if r.size > 5 else ""))
    return r


def average_precision(relevant_ranks, n_relevant) -> float:
    """Average precision of one query: (1/n_relevant) Σ_j j / rank_j over the retrieved relevant items.

    ``relevant_ranks`` are the 1-based positions at which relevant items appear (any order, no repeats);
    ``n_relevant`` is how many relevant items exist. Relevant items never retrieved add precision 0,
    which is why the sum is divided by ``n_relevant`` and not by ``len(relevant_ranks)``.

    >>> round(average_precision([1, 3, 5], 5), 4)
    0.4533
    """
    r = np.sort(_check_ranks(relevant_ranks, "relevant_ranks", allow_empty=True))
    n = check_positive_int(n_relevant, "n_relevant")
    if len(r) > n:
        raise ValueError(f"relevant_ranks has {len(r)} ranks but n_relevant is {n}; n_relevant counts all relevant items")
    if len(np.unique(r)) != len(r):
        raise ValueError("relevant_ranks contains a repeated rank; each position holds one item")
    return float(np.sum(np.arange(1, len(r) + 1) / r) / n)


def mean_average_precision(list_of_relevant_ranks, list_of_n_relevant) -> float:
    """MAP: the mean of :func:`average_precision` over queries.

    >>> round(mean_average_precision([[1, 2, 4, 7], [1, 3, 5]], [4, 5]), 4)
    0.6418
    """
    if isinstance(list_of_relevant_ranks, (str, bytes)) or not hasattr(list_of_relevant_ranks, "__len__"):
        raise ValueError("list_of_relevant_ranks must be a list with one array of ranks per query")
    ns = as_1d_array(list_of_n_relevant, "list_of_n_relevant")
    if len(list_of_relevant_ranks) != len(ns):
        raise ValueError(f"length mismatch: list_of_relevant_ranks has {len(list_of_relevant_ranks)} queries, "
                         f"list_of_n_relevant has {len(ns)}")
    if len(ns) == 0:
        raise ValueError("list_of_relevant_ranks is empty: at least one query is needed")
    aps = [average_precision(r, n) for r, n in zip(list_of_relevant_ranks, ns)]
    return float(np.mean(aps))


_GAINS = ("exponential", "linear")


def _check_relevances(relevances, name):
    rel = as_finite_array(relevances, name)
    if (rel < 0).any():
        raise ValueError(f"{name} must be >= 0 (relevance grades), got a minimum of {rel.min()}")
    return rel


def _gain(rel, gain):
    if gain not in _GAINS:
        raise ValueError(f"gain must be one of {_GAINS}, got {gain!r}")
    return np.expm1(rel * np.log(2.0)) if gain == "exponential" else rel


def _dcg_sorted(rel, k, gain):
    g = _gain(rel[:k], gain)
    return float(np.sum(g / np.log2(np.arange(2, len(g) + 2))))


def _check_k(k, m):
    if k is None:
        return m
    k = check_positive_int(k, "k")
    if k > m:
        raise ValueError(f"k={k} is larger than the number of ranked items ({m})")
    return k


def dcg(relevances, k=None, *, gain="exponential") -> float:
    """Discounted cumulative gain DCG@k = Σ_{i=1..k} g(rel_i) / log2(i + 1).

    ``relevances`` are the grades of the items in the order shown; ``gain`` is "exponential"
    (g = 2^rel - 1, the notes' form) or "linear" (g = rel).

    scikit-learn: ``dcg_score`` uses the linear gain: it equals ``dcg(..., gain="linear")``.

    >>> round(dcg([5, 3, 2, 1, 2]), 2)
    38.51
    """
    rel = _check_relevances(relevances, "relevances")
    return _dcg_sorted(rel, _check_k(k, len(rel)), gain)


def ndcg(relevances, k=None, *, ideal=None, gain="exponential") -> float:
    """Normalised DCG: DCG@k / IDCG@k, where IDCG@k is the DCG of the best possible order.

    ``ideal`` is the pool of all relevance grades the ideal list may draw from (for example every
    relevant item in the collection, also those not shown); by default ``relevances`` itself.

    scikit-learn: ``ndcg_score`` uses the linear gain: it equals ``ndcg(..., gain="linear")``.

    >>> round(ndcg([5, 3, 2, 1, 2], ideal=[5, 3, 2, 1, 2, 4, 0]), 4)
    0.8296
    """
    rel = _check_relevances(relevances, "relevances")
    k = _check_k(k, len(rel))
    pool = rel if ideal is None else _check_relevances(ideal, "ideal")
    idcg = _dcg_sorted(np.sort(pool)[::-1], k, gain)
    if idcg == 0:
        raise ValueError("NDCG is undefined: the ideal DCG is 0 (no relevant item in the pool)")
    value = _dcg_sorted(rel, k, gain) / idcg
    if value > 1 + 1e-12:
        raise ValueError("ideal must contain every relevance grade shown (its ideal DCG is below the DCG)")
    return float(value)


def mrr(first_relevant_ranks) -> float:
    """Mean reciprocal rank (1/n) Σ 1/r_q over queries, r_q the 1-based rank of the first relevant answer.

    Pass ``np.inf`` for a query whose answers hold no relevant item (it adds 0).

    >>> mrr([1, 2, 4])
    0.5833333333333334
    """
    r = _check_ranks(first_relevant_ranks, "first_relevant_ranks", allow_inf=True)
    return float(np.mean(1.0 / r))
