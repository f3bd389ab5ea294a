"""Classification measures from labels (西瓜书 §2.3.1-2.3.2, §2.3.4)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._results import Result
from .._validation import Interval, Options, as_finite_array, check_nonnegative, validate_params
from ._checks import _binary_pair, _labels_pair, _ratio


# ------------------------------------------------------------------------------- classification
@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
def error_rate(y_true, y_pred) -> float:
    """Fraction of samples predicted wrongly: E(f; D) = (1/m) Σ I(f(x_i) ≠ y_i) (式(2.4)).

    Works for any labels (binary or multiclass).

    >>> error_rate([1, 0, 1, 1], [1, 1, 1, 0])
    0.5
    """
    yt, yp = _labels_pair(y_true, y_pred)
    return float(np.mean(yt != yp))


@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
def accuracy(y_true, y_pred) -> float:
    """Fraction of samples predicted rightly: acc(f; D) = 1 - E(f; D) (式(2.5)).

    >>> accuracy([1, 0, 1, 1], [1, 1, 1, 0])
    0.5
    """
    yt, yp = _labels_pair(y_true, y_pred)
    return float(np.mean(yt == yp))


@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"], "pos_label": [None, "label"]})
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


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "pos_label": [None, "label"],
        "zero_division": [Options("raise"), Options(0.0, 1.0)],
    }
)
def precision(y_true, y_pred, *, pos_label=None, zero_division="raise") -> float:
    """Precision (查准率) P = TP / (TP + FP) (式(2.8)): the share of predicted positives that are positive.

    ``zero_division`` (0.0 or 1.0) is returned when nothing is predicted positive; by default that raises.

    scikit-learn: ``precision_score`` returns 0.0 with a warning there (``zero_division="warn"``).

    >>> precision([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    (tp, _), (fp, _) = confusion_matrix(y_true, y_pred, pos_label=pos_label)
    return _ratio(tp, tp + fp, zero_division, "precision is undefined: no sample is predicted positive (TP + FP = 0)")


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "pos_label": [None, "label"],
        "zero_division": [Options("raise"), Options(0.0, 1.0)],
    }
)
def recall(y_true, y_pred, *, pos_label=None, zero_division="raise") -> float:
    """Recall (查全率) R = TP / (TP + FN) (式(2.9)): the share of positives that are found. Equals TPR.

    scikit-learn: ``recall_score`` returns 0.0 with a warning when there is no positive; here that raises
    unless ``zero_division`` (0.0 or 1.0) is given.

    >>> recall([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    (tp, fn), _ = confusion_matrix(y_true, y_pred, pos_label=pos_label)
    return _ratio(tp, tp + fn, zero_division, "recall is undefined: y_true holds no positive sample (TP + FN = 0)")


def _check_beta(beta) -> float:
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real):
        raise TypeError(f"beta must be a real number, got {type(beta).__name__}")
    beta = float(beta)
    if not np.isfinite(beta) or beta <= 0:
        raise ValueError(f"beta must be a finite number > 0, got {beta}")
    if not 0 < beta * beta < np.inf:
        raise ValueError(
            f"beta: beta² over- or underflows float64 (F-beta would be NaN); got {beta}, use 1e-150 <= beta <= 1e150"
        )
    return beta


def _fbeta_from_counts(tp, fn, fp, beta, zero_division):
    # (1+β²)PR/(β²P + R) with P, R written in counts: defined even when P or R is 0/0 but TP = 0.
    b2 = beta * beta
    return _ratio(
        (1 + b2) * tp,
        (1 + b2) * tp + b2 * fn + fp,
        zero_division,
        "F-score is undefined: there is no positive sample and none is predicted positive",
    )


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "beta": [Interval(numbers.Real, 0, None, closed="neither")],
        "pos_label": [None, "label"],
        "zero_division": [Options("raise"), Options(0.0, 1.0)],
    }
)
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


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "pos_label": [None, "label"],
        "zero_division": [Options("raise"), Options(0.0, 1.0)],
    }
)
def f1_score(y_true, y_pred, *, pos_label=None, zero_division="raise") -> float:
    """F1 (式(2.10)): the harmonic mean of P and R, 2PR/(P+R) = 2TP / (m + TP - TN).

    scikit-learn: ``f1_score`` agrees, except with no positive and none predicted (0.0 and a warning;
    here an error unless ``zero_division`` is given).

    >>> f1_score([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    (tp, fn), (fp, _) = confusion_matrix(y_true, y_pred, pos_label=pos_label)
    return _fbeta_from_counts(tp, fn, fp, 1.0, zero_division)


@dataclass(frozen=True, repr=False)
class AveragedScores(Result):
    """Averaged precision, recall and F1 over several confusion matrices (macro- or micro-)."""

    kind: str
    precision: float
    recall: float
    f1: float

    def __iter__(self):
        """Unpack as ``P, R, F1 = macro_average(cms)``."""
        return iter((self.precision, self.recall, self.f1))

    _repr_format = "AveragedScores({kind}: precision={precision:.4f}, recall={recall:.4f}, f1={f1:.4f})"


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
        raise ValueError(
            f"confusion_matrices holds non-integer counts (first: {cms[cms != np.round(cms)][0]!r}); "
            "a confusion matrix counts samples"
        )
    return cms


def _harmonic(p, r):
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


@validate_params({"confusion_matrices": ["array-like"]})
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


@validate_params({"confusion_matrices": ["array-like"]})
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


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "cost_fn": [Interval(numbers.Real, 0, None, closed="left")],
        "cost_fp": [Interval(numbers.Real, 0, None, closed="left")],
        "pos_label": [None, "label"],
    }
)
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
