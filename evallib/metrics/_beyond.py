"""Measures for rare classes, probabilities and more than two classes (notebooks/14_pitfalls.ipynb)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._results import Result
from .._validation import (
    Interval,
    Options,
    _label_kind,
    as_1d_array,
    as_finite_array,
    check_binary_labels,
    check_consistent_length,
    check_positive_int,
    validate_params,
)
from .._validation import check_label_types as _same_label_kind
from ._checks import _labels_pair

# ================================================================ beyond the book (chapter 14)
# Taught in notebooks/14_pitfalls.ipynb: measures for rare classes, probabilities and more than two classes.


def _check_label_value(label, y: np.ndarray, name: str, yname: str = "y_true") -> None:
    kind = (
        "string"
        if isinstance(label, (str, bytes))
        else "number"
        if isinstance(label, (numbers.Real, np.bool_))
        else type(label).__name__
    )
    if kind != _label_kind(y, yname):
        raise TypeError(f"{name}={label!r} is a {kind} but {yname} holds {_label_kind(y, yname)}s")


def _multiclass_pair(y_true, y_pred):
    """Labels as integer codes over the sorted union of classes: (classes, codes_true, codes_pred)."""
    yt, yp = _labels_pair(y_true, y_pred)
    _same_label_kind(y_true=yt, y_pred=yp)
    classes, codes = np.unique(np.concatenate([yt, yp]), return_inverse=True)
    return classes, codes[: yt.size], codes[yt.size :]


def _counts_matrix(ct, cp, k) -> np.ndarray:
    """K × K counts, rows = true class, columns = predicted class (scikit-learn's orientation)."""
    return np.bincount(ct * k + cp, minlength=k * k).reshape(k, k)


@validate_params({"y_true": ["array-like"], "y_pred": ["array-like"]})
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
        raise ValueError(
            f"y_true holds one class only ({classes[present].tolist()}); balanced accuracy "
            "averages the recall of at least two classes"
        )
    cm = _counts_matrix(ct, cp, classes.size)[present]
    return float(np.mean(cm[np.arange(present.size), present] / cm.sum(axis=1)))


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "zero_division": [Options("raise"), Interval(numbers.Real, -1, 1, closed="both")],
    }
)
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
        if (
            isinstance(zero_division, (bool, np.bool_))
            or not isinstance(zero_division, numbers.Real)
            or not -1 <= float(zero_division) <= 1
        ):
            raise ValueError(f"zero_division must be 'raise' or a number in [-1, 1], got {zero_division!r}")
    classes, ct, cp = _multiclass_pair(y_true, y_pred)
    cm = _counts_matrix(ct, cp, classes.size).astype(float)
    t, p = cm.sum(axis=1), cm.sum(axis=0)
    m, c = cm.sum(), np.trace(cm)
    den = (m * m - p @ p) * (m * m - t @ t)
    if den == 0:
        if isinstance(zero_division, str):
            which = "y_true" if (t > 0).sum() < 2 else "y_pred"
            raise ValueError(
                f"MCC is undefined: {which} holds one class only (a 0/0); "
                "pass zero_division=0.0 to score it as chance, as scikit-learn does"
            )
        return float(zero_division)
    return float((c * m - p @ t) / np.sqrt(den))


def _check_proba_1d(proba, n, name="proba"):
    pr = as_finite_array(proba, name, ndim=None)
    if pr.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D (the probability of the positive class per sample), got shape "
            f"{pr.shape}" + ("; for K classes use log_loss or roc_auc_multiclass" if pr.ndim == 2 else "")
        )
    check_consistent_length(y_true=np.empty(n), **{name: pr})
    _check_unit_interval(pr, name)
    return pr


def _check_unit_interval(pr, name):
    bad = (pr < 0) | (pr > 1)
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise ValueError(
            f"{name} must hold probabilities in [0, 1]; {int(bad.sum())} value(s) outside "
            f"(first: {pr.ravel()[i]!r} at flat index {i}). Scores that are not probabilities "
            "(decision_function, logits) must be turned into probabilities first"
        )


def _binary_targets(y_true, pos_label):
    yt = as_1d_array(y_true, "y_true")
    if pos_label is not None:
        _check_label_value(pos_label, yt, "pos_label")
    return check_binary_labels(yt, "y_true", pos_label=pos_label, need_both=False)


@validate_params({"y_true": ["array-like"], "proba": ["array-like"], "pos_label": [None, "label"]})
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


@validate_params(
    {
        "y_true": ["array-like"],
        "proba": ["array-like"],
        "eps": [None, Interval(numbers.Real, 0, 0.5, closed="left")],
        "pos_label": [None, "label"],
        "labels": [None, "array-like"],
    }
)
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
        raise ValueError(
            f"proba has {pr.shape[1]} columns but there are {classes.size} classes "
            f"{classes.tolist()[:10]}; pass labels=... when y_true lacks a class"
        )
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


@dataclass(frozen=True, repr=False)
class CalibrationCurve(Result):
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

    _repr_format = "CalibrationCurve({n_nonempty} non-empty bins of {n_bins}, ece={ece:.4f})"

    def _repr_values(self) -> dict:
        return {"n_nonempty": len(self.counts), "n_bins": len(self.bin_edges) - 1}


@validate_params(
    {
        "y_true": ["array-like"],
        "proba": ["array-like"],
        "n_bins": [Interval(numbers.Integral, 1, None, closed="left")],
        "strategy": [Options("uniform", "quantile")],
        "pos_label": [None, "label"],
    }
)
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


@validate_params(
    {
        "y_true": ["array-like"],
        "proba": ["array-like"],
        "method": [Options("ovr", "ovo")],
        "labels": [None, "array-like"],
    }
)
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
    from ..curves import roc_auc

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
