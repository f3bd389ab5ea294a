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
    check_finite_result,
    check_label_types,
    check_nonnegative,
    check_positive_int,
    resolve_pos_label,
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
    check_label_types(y_true=yt, y_pred=yp)
    return yt, yp


def _binary_pair(y_true, y_pred, pos_label):
    """Boolean masks (true positive class, predicted positive class) of two binary label arrays."""
    yt, yp = _labels_pair(y_true, y_pred)
    pos_label = resolve_pos_label(np.unique(np.concatenate([np.unique(yt), np.unique(yp)])), pos_label,
                                  "y_true and y_pred")
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


def confusion_matrix(y_true, y_pred, *, pos_label=None) -> np.ndarray:
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


def precision(y_true, y_pred, *, pos_label=None, zero_division="raise") -> float:
    """Precision (查准率) P = TP / (TP + FP) (式(2.8)): the share of predicted positives that are positive.

    ``zero_division`` (0.0 or 1.0) is returned when nothing is predicted positive; by default that raises.

    scikit-learn: ``precision_score`` returns 0.0 with a warning there (``zero_division="warn"``).

    >>> precision([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    (tp, _), (fp, _) = confusion_matrix(y_true, y_pred, pos_label=pos_label)
    return _ratio(tp, tp + fp, zero_division,
                  "precision is undefined: no sample is predicted positive (TP + FP = 0)")


def recall(y_true, y_pred, *, pos_label=None, zero_division="raise") -> float:
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
    if not 0 < beta * beta < np.inf:
        raise ValueError(f"beta: beta² over- or underflows float64 (F-beta would be NaN); got {beta}, "
                         "use 1e-150 <= beta <= 1e150")
    return beta


def _fbeta_from_counts(tp, fn, fp, beta, zero_division):
    # (1+β²)PR/(β²P + R) with P, R written in counts: defined even when P or R is 0/0 but TP = 0.
    b2 = beta * beta
    return _ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp, zero_division,
                  "F-score is undefined: there is no positive sample and none is predicted positive")


def fbeta_score(y_true, y_pred, beta, *, pos_label=None, zero_division="raise") -> float:
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


def f1_score(y_true, y_pred, *, pos_label=None, zero_division="raise") -> float:
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
    if (cms != np.round(cms)).any():
        raise ValueError(f"confusion_matrices holds non-integer counts (first: {cms[cms != np.round(cms)][0]!r}); "
                         "a confusion matrix counts samples")
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


def cost_sensitive_error(y_true, y_pred, *, cost_fn, cost_fp, pos_label=None) -> float:
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
def _finite_result(func):
    """Run a regression metric without NumPy overflow warnings and raise, naming the inputs, when the result
    is not finite (|y_pred - y_true| near 1e308 squares to inf)."""
    import functools

    @functools.wraps(func)
    def wrapper(y_true, y_pred):
        with np.errstate(over="ignore", invalid="ignore"):
            value = func(y_true, y_pred)
        return check_finite_result(value, func.__name__, "y_true, y_pred")

    return wrapper


def _regression_pair(y_true, y_pred):
    yt = as_finite_array(y_true, "y_true")
    yp = as_finite_array(y_pred, "y_pred")
    check_consistent_length(y_true=yt, y_pred=yp)
    return yt, yp


@_finite_result
def mae(y_true, y_pred) -> float:
    """Mean absolute error (1/m) Σ |f(x_i) - y_i| (the L1 loss).

    >>> mae([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    0.6666666666666666
    """
    yt, yp = _regression_pair(y_true, y_pred)
    return float(np.mean(np.abs(yp - yt)))


@_finite_result
def mse(y_true, y_pred) -> float:
    """Mean squared error E(f; D) = (1/m) Σ (f(x_i) - y_i)^2 (式(2.2)).

    >>> mse([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])
    1.3333333333333333
    """
    yt, yp = _regression_pair(y_true, y_pred)
    return float(np.mean((yp - yt) ** 2))


@_finite_result
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
    err = np.abs(yp - yt) / np.abs(yt)
    if not np.isfinite(err).all():   # a median would hide it
        i = int(np.flatnonzero(~np.isfinite(err))[0])
        raise ValueError(f"y_true, y_pred: the relative error overflows at index {i} "
                         f"(|{yp[i]!r} - {yt[i]!r}| / |{yt[i]!r}|); rescale the targets")
    return err


@_finite_result
def mape(y_true, y_pred) -> float:
    """Mean absolute percentage error (1/m) Σ |y_i - f(x_i)| / |y_i|, as a fraction (0.1 = 10 %).

    scikit-learn: like ``mean_absolute_percentage_error`` it returns a fraction, but a zero in
    ``y_true`` raises instead of dividing by machine epsilon (which gives numbers like 2.25e15).

    >>> mape([100.0, 200.0], [110.0, 150.0])
    0.175
    """
    return float(np.mean(_relative_errors(y_true, y_pred)))


@_finite_result
def mdape(y_true, y_pred) -> float:
    """Median absolute percentage error: the median of |y_i - f(x_i)| / |y_i| (robust to a few outliers).

    >>> mdape([100.0, 200.0, 50.0], [110.0, 150.0, 50.0])
    0.1
    """
    return float(np.median(_relative_errors(y_true, y_pred)))


@_finite_result
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
    if gain == "exponential" and rel.size and rel.max() > 1000:   # 2^1024 is past the largest double
        raise ValueError(f"relevances: the exponential gain 2^rel - 1 overflows for a grade of {rel.max()!r} "
                         "(grades are small integers such as 0-5); use gain='linear' for large scores")
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


# ================================================================ beyond the book (chapter 14)
# Taught in notebooks/14_pitfalls.ipynb: measures for rare classes, probabilities and more than two classes.
__all__ += [
    "balanced_accuracy", "matthews_corrcoef", "brier_score", "log_loss",
    "CalibrationCurve", "calibration_curve", "roc_auc_multiclass",
]


from ._validation import _label_kind, check_label_types as _same_label_kind  # noqa: E402  (one checker)


def _check_label_value(label, y: np.ndarray, name: str, yname: str = "y_true") -> None:
    kind = "string" if isinstance(label, (str, bytes)) else "number" if isinstance(label, (numbers.Real, np.bool_)) \
        else type(label).__name__
    if kind != _label_kind(y, yname):
        raise TypeError(f"{name}={label!r} is a {kind} but {yname} holds {_label_kind(y, yname)}s")


def _multiclass_pair(y_true, y_pred):
    """Labels as integer codes over the sorted union of classes: (classes, codes_true, codes_pred)."""
    yt, yp = _labels_pair(y_true, y_pred)
    _same_label_kind(y_true=yt, y_pred=yp)
    classes, codes = np.unique(np.concatenate([yt, yp]), return_inverse=True)
    return classes, codes[: yt.size], codes[yt.size:]


def _counts_matrix(ct, cp, k) -> np.ndarray:
    """K × K counts, rows = true class, columns = predicted class (scikit-learn's orientation)."""
    return np.bincount(ct * k + cp, minlength=k * k).reshape(k, k)


def balanced_accuracy(y_true, y_pred) -> float:
    """Balanced accuracy: the mean over the classes of y_true of each class's recall (1/K) Σ_k TP_k / m_k.

    For two classes it is (TPR + TNR) / 2; always guessing the majority class scores 1/K whatever the
    class shares, where accuracy would reward it with the majority's share. Labels of any one type.

    scikit-learn: ``balanced_accuracy_score`` agrees; with one class in ``y_true`` it returns that class's
    recall, here that raises (there is nothing to balance). Classes only predicted (absent from ``y_true``)
    have no recall and are left out, as in scikit-learn.

    >>> balanced_accuracy([0, 0, 0, 0, 1], [0, 0, 0, 0, 0])
    0.5
    """
    classes, ct, cp = _multiclass_pair(y_true, y_pred)
    present = np.unique(ct)
    if present.size < 2:
        raise ValueError(f"y_true holds one class only ({classes[present].tolist()}); balanced accuracy "
                         "averages the recall of at least two classes")
    cm = _counts_matrix(ct, cp, classes.size)[present]
    return float(np.mean(cm[np.arange(present.size), present] / cm.sum(axis=1)))


def matthews_corrcoef(y_true, y_pred, *, zero_division="raise") -> float:
    """Matthews correlation coefficient, binary (TP·TN − FP·FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)) and its
    K-class form (Gorodkin 2004) (c·m − Σ_k p_k t_k) / sqrt((m² − Σ_k p_k²)(m² − Σ_k t_k²)), where c is the
    number of right predictions, t_k and p_k how often class k occurs and is predicted.

    +1 is perfect, 0 no better than chance, −1 total disagreement. It is the correlation of the true and the
    predicted one-hot labels, so it uses all four cells of the confusion matrix and cannot be inflated by
    a majority class. Undefined (0/0) when y_true or y_pred holds one class only: that raises unless
    ``zero_division`` (0.0 or 1.0, or any value in [-1, 1]) gives the value to return.

    scikit-learn: ``matthews_corrcoef`` agrees; it returns 0.0 where the value is undefined
    (``zero_division=0.0`` here).

    >>> round(matthews_corrcoef([1, 1, 1, 0, 0, 0], [1, 1, 0, 0, 0, 1]), 4)
    0.3333
    """
    if not (isinstance(zero_division, str) and zero_division == "raise"):
        if isinstance(zero_division, (bool, np.bool_)) or not isinstance(zero_division, numbers.Real) \
                or not -1 <= float(zero_division) <= 1:
            raise ValueError(f"zero_division must be 'raise' or a number in [-1, 1], got {zero_division!r}")
    classes, ct, cp = _multiclass_pair(y_true, y_pred)
    cm = _counts_matrix(ct, cp, classes.size).astype(float)
    t, p = cm.sum(axis=1), cm.sum(axis=0)
    m, c = cm.sum(), np.trace(cm)
    den = (m * m - p @ p) * (m * m - t @ t)
    if den == 0:
        if isinstance(zero_division, str):
            which = "y_true" if (t > 0).sum() < 2 else "y_pred"
            raise ValueError(f"MCC is undefined: {which} holds one class only (a 0/0); "
                             "pass zero_division=0.0 to score it as chance, as scikit-learn does")
        return float(zero_division)
    return float((c * m - p @ t) / np.sqrt(den))


def _check_proba_1d(proba, n, name="proba"):
    pr = as_finite_array(proba, name, ndim=None)
    if pr.ndim != 1:
        raise ValueError(f"{name} must be 1-D (the probability of the positive class per sample), got shape "
                         f"{pr.shape}" + ("; for K classes use log_loss or roc_auc_multiclass" if pr.ndim == 2 else ""))
    check_consistent_length(y_true=np.empty(n), **{name: pr})
    _check_unit_interval(pr, name)
    return pr


def _check_unit_interval(pr, name):
    bad = (pr < 0) | (pr > 1)
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise ValueError(f"{name} must hold probabilities in [0, 1]; {int(bad.sum())} value(s) outside "
                         f"(first: {pr.ravel()[i]!r} at flat index {i}). Scores that are not probabilities "
                         "(decision_function, logits) must be turned into probabilities first")


def _binary_targets(y_true, pos_label):
    yt = as_1d_array(y_true, "y_true")
    if pos_label is not None:
        _check_label_value(pos_label, yt, "pos_label")
    return check_binary_labels(yt, "y_true", pos_label=pos_label, need_both=False)


def brier_score(y_true, proba, *, pos_label=None) -> float:
    """Brier score (1/m) Σ (p_i − y_i)², y_i = 1 for a positive: the mean squared error of the probabilities.

    0 is perfect; predicting the base rate π for everyone scores π(1 − π). A proper scoring rule: it is
    smallest in expectation when ``proba`` is the true probability, so it punishes miscalibration that AUC
    (which only sees the order) cannot see. ``proba`` is the probability of ``pos_label``, in [0, 1].

    scikit-learn: ``brier_score_loss(y_true, proba, pos_label=...)`` agrees.

    >>> round(brier_score([1, 0, 1, 1], [0.9, 0.2, 0.6, 1.0]), 4)
    0.0525
    """
    pos = _binary_targets(y_true, pos_label)
    pr = _check_proba_1d(proba, pos.size)
    return float(np.mean((pr - pos) ** 2))


def log_loss(y_true, proba, *, eps=None, pos_label=None, labels=None) -> float:
    """Log loss (cross-entropy) −(1/m) Σ_i ln p_i(y_i): minus the mean log-probability given to the true class.

    ``proba`` is either 1-D, the probability of ``pos_label`` (two classes), or of shape (m, K), column k
    the probability of ``labels[k]`` (default: the sorted classes of ``y_true``, the column order of
    ``predict_proba``); rows must sum to 1. A probability 0 on the true class costs ln 0 = −∞: ``eps``
    clips to [eps, 1 − eps] first (default: NumPy's float64 machine epsilon, as scikit-learn; ``eps=0``
    keeps the exact value, which may be ``inf``).

    scikit-learn: ``log_loss`` agrees (it clips at the machine epsilon too); rows not summing to 1 are an
    error here.

    >>> round(log_loss([1, 0, 1], [0.8, 0.3, 0.6]), 4)
    0.3635
    """
    if eps is None:
        eps = float(np.finfo(float).eps)
    elif isinstance(eps, (bool, np.bool_)) or not isinstance(eps, numbers.Real) or not 0 <= eps < 0.5:
        raise ValueError(f"eps must be None or a number in [0, 0.5), got {eps!r}")
    yt = as_1d_array(y_true, "y_true")
    pr = as_finite_array(proba, "proba", ndim=None)
    check_consistent_length(y_true=yt, proba=pr)
    _check_unit_interval(pr, "proba")
    if pr.ndim == 1:
        p_true = np.where(_binary_targets(yt, pos_label), pr, 1 - pr)
    elif pr.ndim == 2:
        classes, pr = _class_columns(yt, pr, labels)
        p_true = pr[np.arange(yt.size), np.searchsorted(classes, yt)]
    else:
        raise ValueError(f"proba must be 1-D (two classes) or 2-D (m, K), got shape {pr.shape}")
    p_true = np.clip(p_true, eps, 1 - eps)
    with np.errstate(divide="ignore"):
        return float(-np.mean(np.log(p_true)))


def _class_columns(yt, pr, labels):
    """(classes, proba with columns in sorted class order) for a (m, K) probability matrix; checks K, y_true and
    the row sums. Never writes into ``pr`` (it may be the caller's array)."""
    if labels is None:
        classes = np.unique(yt)
    else:
        classes = as_1d_array(labels, "labels")
        _same_label_kind(y_true=yt, labels=classes)
        if np.unique(classes).size != classes.size:
            raise ValueError("labels contains a repeated class")
        order = np.argsort(classes, kind="stable")
        classes, pr = classes[order], pr[:, order]
    _same_label_kind(y_true=yt, labels=classes)
    if pr.shape[1] != classes.size:
        raise ValueError(f"proba has {pr.shape[1]} columns but there are {classes.size} classes "
                         f"{classes.tolist()[:10]}; pass labels=... when y_true lacks a class")
    if classes.size < 2:
        raise ValueError(f"y_true holds one class only ({classes.tolist()}); at least two classes are needed")
    missing = ~np.isin(yt, classes)
    if missing.any():
        raise ValueError(f"y_true holds a label not in labels: {yt[missing][0].item()!r}")
    sums = pr.sum(axis=1)
    bad = np.abs(sums - 1) > 1e-6
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"each row of proba must sum to 1 (a probability per class); row {i} sums to {sums[i]!r}")
    return classes, pr


@dataclass(frozen=True)
class CalibrationCurve:
    """A reliability diagram's points: per non-empty bin, the fraction of positives and the mean predicted
    probability, with the bin's count; ``ece`` = Σ_b (n_b / m) |fraction_b − mean_b| (expected calibration
    error); ``bin_edges`` the n_bins + 1 edges. Unpacks as ``frac, mean, counts = calibration_curve(...)``."""

    fraction_positive: np.ndarray
    mean_predicted: np.ndarray
    counts: np.ndarray
    bin_edges: np.ndarray
    ece: float

    def __iter__(self):
        return iter((self.fraction_positive, self.mean_predicted, self.counts))

    def __repr__(self) -> str:
        return f"CalibrationCurve({len(self.counts)} non-empty bins of {len(self.bin_edges) - 1}, ece={self.ece:.4f})"


def calibration_curve(y_true, proba, *, n_bins=10, strategy="uniform", pos_label=None) -> CalibrationCurve:
    """Calibration (reliability) curve: bin the predicted probabilities and compare each bin's mean
    prediction with the fraction of positives in it. Calibrated probabilities lie on the diagonal.

    ``strategy="uniform"``: n_bins equal-width bins on [0, 1]; ``"quantile"``: edges at the quantiles of
    ``proba`` (about equal counts). Bins are closed on the right, (a, b], the first also on the left; empty
    bins are left out. Returns a :class:`CalibrationCurve` (unpacks as fraction, mean, counts; has ``ece``).

    scikit-learn: ``sklearn.calibration.calibration_curve`` returns the same two arrays (prob_true,
    prob_pred) for the same bins; counts and the expected calibration error are added here.

    >>> frac, mean, counts = calibration_curve([0, 0, 1, 1, 1], [0.1, 0.3, 0.35, 0.8, 0.9], n_bins=2)
    >>> np.round(frac, 4).tolist(), np.round(mean, 4).tolist(), counts.tolist()
    ([0.3333, 1.0], [0.25, 0.85], [3, 2])
    """
    pos = _binary_targets(y_true, pos_label)
    pr = _check_proba_1d(proba, pos.size)
    n_bins = check_positive_int(n_bins, "n_bins")
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    elif strategy == "quantile":
        edges = np.percentile(pr, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        raise ValueError(f"strategy must be 'uniform' or 'quantile', got {strategy!r}")
    ids = np.searchsorted(edges[1:-1], pr)
    total = np.bincount(ids, minlength=n_bins)
    sums = np.bincount(ids, weights=pr, minlength=n_bins)
    hits = np.bincount(ids, weights=pos, minlength=n_bins)
    keep = total > 0
    frac, mean = hits[keep] / total[keep], sums[keep] / total[keep]
    ece = float(np.sum(total[keep] * np.abs(frac - mean)) / pos.size)
    return CalibrationCurve(frac, mean, total[keep].astype(np.int64), edges, ece)


def roc_auc_multiclass(y_true, proba, *, method="ovr", labels=None) -> float:
    """Area under the ROC curve for K classes from a (m, K) probability matrix (column k: class ``labels[k]``,
    by default the sorted classes of ``y_true``).

    ``method="ovr"``: the unweighted mean over k of the binary AUC of "class k against the rest" scored by
    column k. ``method="ovo"`` (Hand & Till 2001): for every pair j < k, Â(j, k) = (A(j|k) + A(k|j)) / 2,
    where A(j|k) is the AUC of class j against class k on their samples only, scored by column j; the mean
    over the K(K−1)/2 pairs. One-vs-one does not depend on the class shares; one-vs-rest does, through "the rest".
    Each binary AUC is :func:`evallib.curves.roc_auc` (式(2.22): 1 − ℓ_rank, ties ½).

    scikit-learn: ``roc_auc_score(y_true, proba, multi_class="ovr" or "ovo", average="macro")`` agrees.

    >>> y = [0, 0, 1, 1, 2, 2]
    >>> P = [[.8, .1, .1], [.3, .4, .3], [.3, .6, .1], [.5, .2, .3], [.1, .2, .7], [.2, .5, .3]]
    >>> round(roc_auc_multiclass(y, P), 4), round(roc_auc_multiclass(y, P, method="ovo"), 4)
    (0.7917, 0.7917)
    """
    from .curves import roc_auc

    if method not in ("ovr", "ovo"):
        raise ValueError(f"method must be 'ovr' (one-vs-rest) or 'ovo' (one-vs-one, Hand & Till), got {method!r}")
    yt = as_1d_array(y_true, "y_true")
    pr = as_finite_array(proba, "proba", ndim=None)
    if pr.ndim != 2:
        raise ValueError(f"proba must be 2-D (m samples, K classes), got shape {pr.shape}")
    check_consistent_length(y_true=yt, proba=pr)
    _check_unit_interval(pr, "proba")
    classes, pr = _class_columns(yt, pr, labels)
    codes = np.searchsorted(classes, yt)
    absent = np.setdiff1d(np.arange(classes.size), codes)
    if absent.size:
        raise ValueError(f"y_true holds no sample of class {classes[absent[0]].item()!r}: its AUC is undefined")
    k = classes.size
    if method == "ovr":
        return float(np.mean([roc_auc(codes == j, pr[:, j], pos_label=True) for j in range(k)]))
    pair_aucs = []
    for j in range(k):
        for i in range(j + 1, k):
            both = (codes == j) | (codes == i)
            a_ji = roc_auc(codes[both] == j, pr[both, j], pos_label=True)
            a_ij = roc_auc(codes[both] == i, pr[both, i], pos_label=True)
            pair_aucs.append((a_ji + a_ij) / 2)
    return float(np.mean(pair_aucs))
