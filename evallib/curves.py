"""P-R, ROC and cost curves (西瓜书 §2.3.2–2.3.4, 式(2.18)–(2.25)).

Taught in ``notebooks/05_roc_pr_curves.ipynb`` (P-R curve, BEP, ROC, AUC, ℓ_rank, the threshold
explorer) and ``notebooks/06_cost_sensitive.ipynb`` (cost curves, expected total cost).

Conventions: ``scores`` are "higher = more positive" and a sample is predicted positive when its score
is ``>= threshold``. Curves have one point per *distinct* score (a group of tied scores enters in one
step, so on the ROC curve it is one diagonal segment), plus the starting point "nothing predicted
positive" with threshold ``+inf``. Thresholds are returned in decreasing order.

Speed: every curve costs two sorts (positives' and negatives' scores), a linear merge of the two and
O(n) passes (or binary searches when there are few distinct scores), O(n log n) with no Python loop
over samples or thresholds. ``roc_auc`` is the Mann–Whitney count of ordered
pairs from the two sorted score arrays (see ``bench/RESULTS.md`` for timings against scikit-learn, made by ``make bench``).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ._results import Result
from ._validation import (
    Interval,
    as_1d_array,
    as_finite_array,
    check_binary_labels,
    check_consistent_length,
    check_nonnegative,
    check_probability,
    validate_params,
)

_LABELS_SCORES = {"y_true": ["array-like"], "scores": ["array-like"], "pos_label": [None, "label"]}
_COST = Interval(numbers.Real, 0, None, closed="left")
_COSTS = {"p": [Interval(numbers.Real, 0, 1)], "cost_fn": [_COST], "cost_fp": [_COST]}

__all__ = [
    "roc_curve",
    "pr_curve",
    "break_even_point",
    "auc",
    "roc_auc",
    "rank_loss",
    "CostCurve",
    "cost_curve",
    "expected_total_cost",
    "probability_cost",
    "normalized_cost",
    "OperatingPoint",
    "cost_operating_point",
    "ThresholdSummary",
    "threshold_summary",
]


# ----------------------------------------------------------------------------------------- helpers
def _positive_mask(y_true, pos_label=None, name="y_true", need_negatives=True) -> np.ndarray:
    """Boolean mask of positives; both classes required (only positives with ``need_negatives=False``).
    Fast O(n) path for numeric labels; every problem is reported by
    :func:`evallib._validation.check_binary_labels` (same messages)."""
    y = as_1d_array(y_true, name)
    if pos_label is None and y.dtype.kind in "biuf" and y.size and (y.dtype.kind != "f" or np.isfinite(y).all()):
        lo, hi = y.min(), y.max()
        if lo in (0, 1) and hi in (0, 1):
            pos_label = True if y.dtype.kind == "b" else 1
    if y.dtype.kind in "biuf" and isinstance(pos_label, (numbers.Real, np.bool_)):
        if y.dtype.kind != "f" or np.isfinite(y).all():
            lo, hi = y.min(), y.max()
            if lo != hi and (pos_label == lo or pos_label == hi) and np.count_nonzero((y == lo) | (y == hi)) == y.size:
                return y == pos_label
    pos = check_binary_labels(y, name, pos_label=pos_label, need_both=need_negatives)
    if not pos.any():
        raise ValueError(
            f"{name} contains one class only ({np.unique(y).tolist()}) and no positives "
            f"(pos_label={pos_label!r}): recall TP / m+ is undefined"
        )
    return pos


def _split_scores(y_true, scores, pos_label, need_negatives=True):
    """Sorted scores of the positives and of the negatives (ascending)."""
    s = as_finite_array(scores, "scores")
    y = as_1d_array(y_true, "y_true")
    check_consistent_length(y_true=y, scores=s)
    pos = _positive_mask(y, pos_label, need_negatives=need_negatives)
    return np.sort(s[pos]), np.sort(s[~pos])


def _counts(y_true, scores, pos_label, need_negatives=True):
    """Distinct thresholds (decreasing) and the cumulative TP, FP counts at each (score >= threshold)."""
    sp, sn = _split_scores(y_true, scores, pos_label, need_negatives)
    n_pos, n = len(sp), len(sp) + len(sn)
    n_distinct = np.count_nonzero(sp[1:] != sp[:-1]) + np.count_nonzero(sn[1:] != sn[:-1]) + 2  # upper bound
    if n_distinct * 16 < n:  # many ties: sorting few distinct values is cheap, binary searches of them too
        thr = np.unique(np.concatenate([sp, sn]))
        tps = n_pos - np.searchsorted(sp, thr, "left")
        starts = n - (len(sn) - np.searchsorted(sn, thr, "left")) - tps  # first position of each score, merged
    else:
        # A stable argsort of two sorted runs is a linear-time merge (timsort); np.unique would sort again.
        both = np.concatenate([sp, sn])
        del sp, sn
        order = np.argsort(both, kind="stable")
        merged = both[order]
        del both
        is_new = np.empty(n, dtype=bool)
        is_new[0] = True
        np.not_equal(merged[1:], merged[:-1], out=is_new[1:])
        starts = np.flatnonzero(is_new)  # first position of each distinct score, ascending
        del is_new
        thr = merged[starts]
        del merged
        is_pos = order < n_pos
        del order
        # positives scored >= thr: all positives less those merged before the score's first position
        tps = n_pos - (np.cumsum(is_pos, dtype=np.intp)[starts] - is_pos[starts])
    fps = (n - starts) - tps
    return thr[::-1], tps[::-1], fps[::-1], n_pos, n - n_pos


# ------------------------------------------------------------------------------------ the curves
@validate_params(_LABELS_SCORES)
def roc_curve(y_true, scores, *, pos_label=None):
    """ROC curve (受试者工作特征, 式(2.18)–(2.19)): FPR = FP/(FP+TN) against TPR = TP/(TP+FN).

    Sweeping the threshold down through the sorted scores, the curve starts at (0, 0) (threshold
    +inf: nothing predicted positive) and ends at (1, 1). Each distinct score is one point: tied scores
    of positives and negatives make one diagonal step, as in the book.

    scikit-learn: ``roc_curve`` (same order, ``thresholds[0] = inf``) drops collinear points by default
    (``drop_intermediate=True``); here every distinct threshold is kept, as with ``drop_intermediate=False``.

    Returns
    -------
    fpr, tpr, thresholds : arrays of equal length; ``thresholds`` decreasing, ``thresholds[0] = inf``.

    >>> fpr, tpr, thr = roc_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0])
    """
    thr, tps, fps, n_pos, n_neg = _counts(y_true, scores, pos_label)
    fpr = np.concatenate([[0.0], fps / n_neg])
    tpr = np.concatenate([[0.0], tps / n_pos])
    return fpr, tpr, np.concatenate([[np.inf], thr])


@validate_params(_LABELS_SCORES)
def pr_curve(y_true, scores, *, pos_label=None):
    """P-R curve (P-R 曲线, 西瓜书 §2.3.2): precision and recall at every distinct threshold.

    The first point is (recall 0, precision 1) at threshold +inf (nothing predicted positive; precision
    is 0/0 there and taken as 1 by convention, as scikit-learn does). Arrays run from the highest
    threshold to the lowest; the last point predicts everything positive (recall 1, precision m+/m).
    Negatives are not needed (an all-positive test fold has precision 1 everywhere); positives are.

    scikit-learn: ``precision_recall_curve`` gives the same points in the opposite order (increasing
    thresholds, the (R 0, P 1) point last and without a threshold); here every array has one entry per point
    and ``thresholds[0] = inf``. With no positives it warns and sets recall to 1; here it is an error.

    Returns
    -------
    precision, recall, thresholds : arrays of equal length; ``thresholds`` decreasing.

    >>> p, r, thr = pr_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> p.round(3).tolist(), r.tolist()
    ([1.0, 1.0, 0.5, 0.667, 0.5], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> p, r, thr = pr_curve([1, 1], [0.25, 0.75])
    >>> p.tolist(), r.tolist(), thr.tolist()
    ([1.0, 1.0, 1.0], [0.0, 0.5, 1.0], [inf, 0.75, 0.25])
    """
    thr, tps, fps, n_pos, _ = _counts(y_true, scores, pos_label, need_negatives=False)
    precision = np.concatenate([[1.0], tps / (tps + fps)])
    recall = np.concatenate([[0.0], tps / n_pos])
    return precision, recall, np.concatenate([[np.inf], thr])


@validate_params(_LABELS_SCORES)
def break_even_point(y_true, scores, *, pos_label=None) -> float:
    """Break-even point (平衡点, BEP): the value where precision equals recall.

    P = TP/(TP+FP) and R = TP/m+ are equal exactly when TP + FP = m+, i.e. when as many samples are
    predicted positive as there are positives: BEP is the precision of the top m+ scores ("R-precision").
    When a group of tied scores straddles position m+, its positives are counted pro rata (the expected
    value under a random order of the ties), which is where the P-R curve's segment through the group
    meets the line P = R.

    >>> break_even_point([1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.3, 0.1])
    0.5
    """
    thr, tps, fps, n_pos, _ = _counts(y_true, scores, pos_label)
    n_pred = tps + fps
    j = int(np.searchsorted(n_pred, n_pos, "left"))  # first distinct threshold with >= m+ predicted
    n0, t0 = (0, 0) if j == 0 else (int(n_pred[j - 1]), int(tps[j - 1]))
    tp_at = t0 + (n_pos - n0) * (int(tps[j]) - t0) / (int(n_pred[j]) - n0)
    return float(tp_at / n_pos)


@validate_params({"x": ["array-like"], "y": ["array-like"]})
def auc(x, y) -> float:
    """Area under a curve by the trapezoidal rule (式(2.20)): ½ Σ (x_{i+1} - x_i)(y_i + y_{i+1}).

    ``x`` must be monotone (increasing or decreasing); the area is then positive either way.

    >>> auc([0, 0, 0.5, 1], [0, 0.5, 1, 1])
    0.875
    """
    xa = as_finite_array(x, "x")
    ya = as_finite_array(y, "y")
    check_consistent_length(x=xa, y=ya)
    if xa.size < 2:
        raise ValueError(f"x must hold at least 2 points to enclose an area, got {xa.size}")
    dx = np.diff(xa)
    if (dx < 0).any() and (dx > 0).any():
        raise ValueError("x is neither increasing nor decreasing: the points do not trace a curve over x")
    area = float(np.sum(np.abs(dx) * (ya[:-1] + ya[1:])) / 2)
    return area


def _misordered_twice(y_true, scores, pos_label):
    """2·#{(x+, x-): f(x+) < f(x-)} + #{ties}, and m+·m-, as exact Python ints (Mann–Whitney count)."""
    sp, sn = _split_scores(y_true, scores, pos_label)
    left = np.searchsorted(sn, sp, "left")  # negatives scored below each positive
    right = np.searchsorted(sn, sp, "right")  # ... below or tied
    n_pos, n_neg = len(sp), len(sn)
    return 2 * n_pos * n_neg - int(left.sum(dtype=np.int64)) - int(right.sum(dtype=np.int64)), n_pos * n_neg


@validate_params(_LABELS_SCORES)
def rank_loss(y_true, scores, *, pos_label=None) -> float:
    """The book's ranking loss ℓ_rank (式(2.21)): the share of (positive, negative) pairs ranked in the
    wrong order, a tie counting ½. It is the area *above* the ROC curve.

    scikit-learn: ``label_ranking_loss`` counts a tied pair as 1, not ½; this equals ``1 - roc_auc_score``.

    >>> rank_loss([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    0.125
    """
    k2, pairs = _misordered_twice(y_true, scores, pos_label)
    return k2 / (2 * pairs)  # Python ints: correctly rounded


@validate_params(_LABELS_SCORES)
def roc_auc(y_true, scores, *, pos_label=None) -> float:
    """Area under the ROC curve (式(2.20)), computed as 1 - ℓ_rank (式(2.22)).

    Equal to the probability that a random positive scores above a random negative (ties ½), and to
    the trapezoidal area under :func:`roc_curve`. ``roc_auc(y, s) == 1 - rank_loss(y, s)`` exactly.

    scikit-learn: ``roc_auc_score`` agrees (ties ½), but returns NaN with a warning for one class; here
    that is an error naming ``y_true``.

    >>> roc_auc([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    0.875
    """
    return 1.0 - rank_loss(y_true, scores, pos_label=pos_label)


# ------------------------------------------------------------------------------------ cost curves
def _check_costs(p, cost_fn, cost_fp):
    p = check_probability(p, "p")
    cost_fn = check_nonnegative(cost_fn, "cost_fn")
    cost_fp = check_nonnegative(cost_fp, "cost_fp")
    if p * cost_fn + (1 - p) * cost_fp == 0:
        raise ValueError(
            "p * cost_fn + (1 - p) * cost_fp is 0: no error costs anything, the costs cannot be normalised"
        )
    return p, cost_fn, cost_fp


@validate_params(_COSTS)
def probability_cost(p, cost_fn, cost_fp) -> float:
    """The cost curve's x-axis, the probability cost P(+)cost = p·cost01 / (p·cost01 + (1-p)·cost10) (式(2.24)).

    ``p`` is the prior probability of the positive class; ``cost_fn`` = cost01, ``cost_fp`` = cost10.

    >>> probability_cost(0.5, 3, 1)
    0.75
    """
    p, cfn, cfp = _check_costs(p, cost_fn, cost_fp)
    return p * cfn / (p * cfn + (1 - p) * cfp)


@validate_params(
    {"fpr": ["array-like", Interval(numbers.Real, 0, 1)], "fnr": ["array-like", Interval(numbers.Real, 0, 1)], **_COSTS}
)
def normalized_cost(fpr, fnr, p, cost_fn, cost_fp):
    """Normalised cost cost_norm (式(2.25)): (FNR·p·cost01 + FPR·(1-p)·cost10) / (p·cost01 + (1-p)·cost10).

    Equal to FNR·x + FPR·(1-x) with x = :func:`probability_cost`: a straight line from (0, FPR) to
    (1, FNR). ``fpr``, ``fnr`` may be arrays (one value per ROC point).

    >>> round(float(normalized_cost(0.2, 0.4, 0.5, 3, 1)), 4)
    0.35
    """
    x = probability_cost(p, cost_fn, cost_fp)
    rates = []
    for name, a in (("fpr", fpr), ("fnr", fnr)):
        a = np.asarray(a)
        if a.dtype.kind not in "iuf":
            raise TypeError(
                f"{name} must hold numbers (rates in [0, 1]); got dtype {a.dtype} ({fpr if name == 'fpr' else fnr!r})"
            )
        a = a.astype(float)
        if a.size == 0 or not np.isfinite(a).all() or (a < 0).any() or (a > 1).any():
            raise ValueError(f"{name} must hold rates in [0, 1]; got {a.ravel()[:5].tolist()}")
        rates.append(a)
    f, n = rates
    if f.shape != n.shape and f.ndim and n.ndim:
        raise ValueError(f"fpr and fnr must have the same shape; got {f.shape} and {n.shape}")
    return n * x + f * (1 - x)


@dataclass(frozen=True, repr=False)
class CostCurve(Result):
    """Cost curve of a scorer (代价曲线, 西瓜书 §2.3.4).

    Every ROC point (FPR, TPR) gives the line from (0, FPR) to (1, FNR), FNR = 1 - TPR: its normalised
    cost at each probability cost x. ``envelope_x``/``envelope_y`` are the corners of the lower envelope
    of all lines (the vertices of the ROC convex hull, in dual form) and ``expected_total_cost`` the area
    under it.
    """

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray
    envelope_x: np.ndarray
    envelope_y: np.ndarray
    hull_index: np.ndarray  # indices of the ROC points whose lines make the envelope, by increasing FPR
    expected_total_cost: float

    _repr_format = (
        "CostCurve(n_lines={n_lines}, n_envelope_lines={n_envelope}, expected_total_cost={expected_total_cost:.4f})"
    )

    def _repr_values(self) -> dict:
        return {"n_lines": len(self.fpr), "n_envelope": len(self.hull_index)}


def _upper_hull(fpr, tpr):
    """Indices of the ROC points on the upper convex hull from (0, 0) to (1, 1), by increasing FPR.

    Qhull (scipy.spatial.ConvexHull, O(n log n)) on the ROC points plus the corner (1, 0), which keeps the
    point set two-dimensional; the upper chain is (0, 0), (1, 1) and every hull vertex above the diagonal.
    """
    from scipy.spatial import ConvexHull

    pts = np.column_stack([np.concatenate([fpr, [1.0]]), np.concatenate([tpr, [0.0]])])
    v = ConvexHull(pts).vertices
    v = v[(v < len(fpr)) & (tpr[np.minimum(v, len(fpr) - 1)] > fpr[np.minimum(v, len(fpr) - 1)])]
    idx = np.unique(np.concatenate([[0, len(fpr) - 1], v]))
    return idx[np.lexsort((tpr[idx], fpr[idx]))]


@validate_params(_LABELS_SCORES)
def cost_curve(y_true, scores, *, pos_label=None) -> CostCurve:
    """Cost curve: one line per ROC point, their lower envelope and the expected total cost (期望总体代价).

    The envelope's area is the cost a learner with these scores incurs when, for every probability cost
    x in [0, 1], it picks its best threshold. It is 0 for a perfect ranking and 1/4 for a random one.

    >>> cc = cost_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    >>> cc.envelope_x.tolist(), cc.envelope_y.tolist(), cc.expected_total_cost
    ([0.0, 0.5, 1.0], [0.0, 0.25, 0.0], 0.125)
    """
    fpr, tpr, thr = roc_curve(y_true, scores, pos_label=pos_label)
    h = _upper_hull(fpr, tpr)
    f, t = fpr[h], tpr[h]
    df, dt = np.diff(f), np.diff(t)
    # consecutive hull lines meet at x = Δfpr / (Δfpr + Δtpr); the hull is concave so these increase
    xb = df / (df + dt)
    yb = f[:-1] * (1 - xb) + (1 - t[:-1]) * xb
    ex = np.concatenate([[0.0], xb, [1.0]])
    ey = np.concatenate([[0.0], yb, [0.0]])
    keep = np.concatenate([[True], (np.diff(ex) != 0) | (np.diff(ey) != 0)])  # drop repeated corners
    ex, ey = ex[keep], ey[keep]
    area = float(np.sum(np.diff(ex) * (ey[:-1] + ey[1:])) / 2)
    return CostCurve(
        fpr=fpr, fnr=1 - tpr, thresholds=thr, envelope_x=ex, envelope_y=ey, hull_index=h, expected_total_cost=area
    )


@validate_params(_LABELS_SCORES)
def expected_total_cost(y_true, scores, *, pos_label=None) -> float:
    """Area under the lower envelope of the cost curve (the expected total cost, 西瓜书 §2.3.4).

    >>> expected_total_cost([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    0.125
    """
    return cost_curve(y_true, scores, pos_label=pos_label).expected_total_cost


@dataclass(frozen=True, repr=False)
class OperatingPoint(Result):
    """The best ROC point (threshold) of a scorer for one class prior and cost pair."""

    threshold: float
    fpr: float
    fnr: float
    probability_cost: float
    normalized_cost: float
    expected_cost: float  # cost per sample: normalized_cost · (p·cost_fn + (1-p)·cost_fp)

    _repr_format = "OperatingPoint(threshold={threshold:.4g}, fpr={fpr:.4f}, fnr={fnr:.4f}, probability_cost={probability_cost:.4f}, normalized_cost={normalized_cost:.4f}, expected_cost={expected_cost:.4f})"


@validate_params({"curve": [CostCurve], **_COSTS})
def cost_operating_point(curve: CostCurve, *, p, cost_fn, cost_fp) -> OperatingPoint:
    """The threshold minimising the normalised cost at prior ``p`` and costs ``cost_fn``, ``cost_fp``.

    Reading the cost curve vertically at x = P(+)cost: the lowest line there is the best ROC point, and
    its height is the envelope. Ties go to the highest threshold.

    >>> op = cost_operating_point(cost_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1]), p=0.5, cost_fn=1, cost_fp=1)
    >>> op.threshold, op.normalized_cost
    (0.9, 0.25)
    """
    p, cfn, cfp = _check_costs(p, cost_fn, cost_fp)
    x = p * cfn / (p * cfn + (1 - p) * cfp)
    nc = curve.fnr * x + curve.fpr * (1 - x)
    i = int(np.argmin(nc))
    return OperatingPoint(
        float(curve.thresholds[i]),
        float(curve.fpr[i]),
        float(curve.fnr[i]),
        x,
        float(nc[i]),
        float(nc[i] * (p * cfn + (1 - p) * cfp)),
    )


# ----------------------------------------------------------------------------- one cut point
@dataclass(frozen=True, repr=False)
class ThresholdSummary(Result):
    """Everything about one cut point: the confusion matrix and the rates it gives."""

    threshold: float
    tp: int
    fn: int
    fp: int
    tn: int
    precision: float  # 1 by convention when nothing is predicted positive (as on the P-R curve)
    recall: float
    f1: float
    tpr: float
    fpr: float

    @property
    def confusion_matrix(self) -> np.ndarray:
        """``[[TP, FN], [FP, TN]]`` (the book's layout)."""
        return np.array([[self.tp, self.fn], [self.fp, self.tn]])

    _repr_format = "ThresholdSummary(threshold={threshold:.4g}, TP={tp}, FN={fn}, FP={fp}, TN={tn}, precision={precision:.4f}, recall={recall:.4f}, f1={f1:.4f}, tpr={tpr:.4f}, fpr={fpr:.4f})"


@validate_params({**_LABELS_SCORES, "threshold": [Interval(numbers.Real, None, None, allow_inf=True)]})
def threshold_summary(y_true, scores, threshold, *, pos_label=None) -> ThresholdSummary:
    """Predict positive where ``scores >= threshold`` and report TP, FN, FP, TN, P, R, F1, TPR, FPR.

    This is the computation behind the threshold explorer of notebook 05.

    >>> threshold_summary([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], 0.5)
    ThresholdSummary(threshold=0.5, TP=2, FN=0, FP=1, TN=1, precision=0.6667, recall=1.0000, f1=0.8000, tpr=1.0000, fpr=0.5000)
    """
    s = as_finite_array(scores, "scores")
    y = as_1d_array(y_true, "y_true")
    check_consistent_length(y_true=y, scores=s)
    pos = _positive_mask(y, pos_label)
    pred = s >= threshold
    tp = int(np.count_nonzero(pos & pred))
    fp = int(np.count_nonzero(~pos & pred))
    n_pos = int(np.count_nonzero(pos))
    fn, tn = n_pos - tp, (s.size - n_pos) - fp
    prec = tp / (tp + fp) if tp + fp else 1.0
    return ThresholdSummary(
        float(threshold), tp, fn, fp, tn, prec, tp / n_pos, 2 * tp / (2 * tp + fp + fn), tp / n_pos, fp / (fp + tn)
    )
