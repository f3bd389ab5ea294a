"""Data for the course: the book's watermelon data set 3.0α, small synthetic generators, and
scikit-learn's bundled data sets (no downloads anywhere)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from ._results import Result
from ._validation import (
    Interval,
    Options,
    as_1d_array,
    as_finite_array,
    check_consistent_length,
    check_labels,
    check_nonnegative,
    check_positive_int,
    check_random_state,
    check_range,
    validate_params,
)

__all__ = [
    "Dataset",
    "load_watermelon",
    "make_sine",
    "make_majority_trap",
    "load_bundled",
    "BUNDLED",
    "load_tumours",
    "load_tumour_scores",
    "load_ten_melons",
]


@dataclass(frozen=True, repr=False)
class Dataset(Result):
    """A small data set with named fields (like scikit-learn's Bunch, but frozen)."""

    X: np.ndarray
    y: np.ndarray
    feature_names: tuple[str, ...]
    target_names: tuple[str, ...]
    description: str = field(repr=False, default="")

    def __post_init__(self):
        X = as_finite_array(self.X, "X", ndim=2)
        check_labels(self.y, "y")
        y = as_1d_array(self.y, "y")
        if y.dtype.kind == "f" and not np.isfinite(y).all():
            raise ValueError("y holds NaN or infinite labels")
        check_consistent_length(X=X, y=y)
        names = {}
        for field_name, n in (("feature_names", X.shape[1]), ("target_names", None)):
            value = getattr(self, field_name)
            if isinstance(value, str) or not all(isinstance(v, str) for v in value):
                raise TypeError(f"{field_name} must be a sequence of strings, got {value!r}")
            if n is not None and len(value) != n:
                raise ValueError(f"{field_name} has {len(value)} names but X has {n} columns")
            names[field_name] = tuple(value)
        if not isinstance(self.description, str):
            raise TypeError(f"description must be a string, got {type(self.description).__name__}")
        for k, v in (("X", X), ("y", y), *names.items()):
            object.__setattr__(self, k, v)  # frozen: set once, here

    _repr_format = "Dataset(n_samples={X.shape[0]}, features={features}, classes={classes})"

    def _repr_values(self) -> dict:
        return {"features": list(self.feature_names), "classes": list(self.target_names)}


# 西瓜数据集 3.0α (西瓜书 表4.5): density (密度), sugar content (含糖率), good melon (好瓜: 是 = 1, 否 = 0).

_WATERMELON_3A = np.array(
    [
        [0.697, 0.460, 1],
        [0.774, 0.376, 1],
        [0.634, 0.264, 1],
        [0.608, 0.318, 1],
        [0.556, 0.215, 1],
        [0.403, 0.237, 1],
        [0.481, 0.149, 1],
        [0.437, 0.211, 1],
        [0.666, 0.091, 0],
        [0.243, 0.267, 0],
        [0.245, 0.057, 0],
        [0.343, 0.099, 0],
        [0.639, 0.161, 0],
        [0.657, 0.198, 0],
        [0.360, 0.370, 0],
        [0.593, 0.042, 0],
        [0.719, 0.103, 0],
    ]
)


def load_watermelon() -> Dataset:
    """The book's watermelon data set 3.0α (西瓜数据集 3.0α): 17 melons, 8 good and 9 bad.

    Features: density (密度) and sugar content (含糖率); target 1 = good melon (好瓜), 0 = bad.
    Row i is melon number i + 1 in the book's table.

    >>> d = load_watermelon()
    >>> d.X.shape, int(d.y.sum())
    ((17, 2), 8)
    """
    return Dataset(
        X=_WATERMELON_3A[:, :2].copy(),
        y=_WATERMELON_3A[:, 2].astype(int),
        feature_names=("density", "sugar"),
        target_names=("bad", "good"),
        description="Watermelon data set 3.0alpha (Zhou Zhihua, Machine Learning, Table 4.5): 17 melons.",
    )


@validate_params(
    {
        "n_samples": [Interval(numbers.Integral, 1, None, closed="left")],
        "noise_std": [Interval(numbers.Real, 0, None, closed="left")],
        "x_range": ["range"],
        "random_state": ["random_state"],
    }
)
def make_sine(n_samples=30, *, noise_std=0.3, x_range=(0.0, 1.0), random_state=None):
    """Noisy samples of y = sin(2πx): the classic curve for over- and under-fitting (西瓜书 §2.1).

    Returns ``X`` of shape (n_samples, 1), uniform on ``x_range``, and ``y = sin(2πx) + N(0, noise_std²)``.

    >>> X, y = make_sine(5, noise_std=0.0, random_state=0)
    >>> bool(np.allclose(y, np.sin(2 * np.pi * X[:, 0])))
    True
    """
    n = check_positive_int(n_samples, "n_samples")
    noise_std = check_nonnegative(noise_std, "noise_std")
    lo, hi = check_range(x_range, "x_range")
    rng = check_random_state(random_state)
    x = rng.uniform(lo, hi, size=n)
    y = np.sin(2 * np.pi * x) + rng.normal(0.0, noise_std, size=n) if noise_std > 0 else np.sin(2 * np.pi * x)
    return x.reshape(-1, 1), y


@validate_params({"n_samples": [Interval(numbers.Integral, 2, None, closed="left")]})
def make_majority_trap(n_samples=100):
    """The data of the book's exercise 2.2: ``n_samples`` balanced samples with labels independent of X.

    Half are class 0, half class 1 (n_samples must be even); X is a single uninformative column.
    A majority-class learner gets 50 % error under stratified 10-fold CV but 100 % under leave-one-out.

    >>> X, y = make_majority_trap(4)
    >>> y.tolist()
    [0, 0, 1, 1]
    """
    n = check_positive_int(n_samples, "n_samples", minimum=2)
    if n % 2:
        raise ValueError(f"n_samples must be even for two balanced classes, got {n}")
    return np.zeros((n, 1)), np.repeat([0, 1], n // 2)


BUNDLED = ("breast_cancer", "iris", "wine", "digits", "diabetes")


@validate_params({"name": [Options(*BUNDLED)]})
def load_bundled(name):
    """``(X, y)`` of a data set that ships inside scikit-learn (nothing is downloaded).

    ``name`` is one of ``BUNDLED``: breast_cancer (569 × 30, binary), iris (150 × 4, 3 classes),
    wine (178 × 13, 3 classes), digits (1797 × 64, 10 classes), diabetes (442 × 10, regression).

    >>> X, y = load_bundled("breast_cancer")
    >>> X.shape
    (569, 30)
    """
    from sklearn import datasets

    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    return X, y


# The three weak features of the breast-cancer data that chapters 04-06 use (all 30 leave too few mistakes).
WEAK_TUMOUR_FEATURES = (1, 4, 9)  # mean texture, mean smoothness, mean fractal dimension


@validate_params({"weak_features": ["boolean"]})
def load_tumours(*, weak_features=False):
    """``(X, y)`` of the Wisconsin breast-cancer data with **malignant = 1 = positive**（正例）.

    scikit-learn codes malignant as 0; chapters 04-06 look for the malignant tumours, so here they are the
    positive class (212 of 569). ``weak_features=True`` keeps three weak features (mean texture, mean
    smoothness, mean fractal dimension), so that a classifier makes enough mistakes to show the trade-offs
    of 西瓜书 §2.3 (``notebooks/04_classification_metrics.ipynb``).

    >>> X, y = load_tumours(weak_features=True)
    >>> X.shape, int(y.sum())
    ((569, 3), 212)
    """
    X, target = load_bundled("breast_cancer")
    y = 1 - target
    return (X[:, list(WEAK_TUMOUR_FEATURES)].copy() if weak_features else X), y


def load_tumour_scores():
    """``(y_test, scores)``: the test labels and two models' scores of chapter 05 (ROC, P-R, cost curves).

    The weak-feature tumours (:func:`load_tumours`), a stratified 70/30 hold-out split
    (``HoldOut(0.3, random_state=0)``), and on its training part a standardised logistic regression and a
    depth-3 decision tree; ``scores`` maps ``"logistic regression"`` and ``"decision tree (depth 3)"`` to
    their predicted probabilities of malignant on the 171 test tumours. Chapters 05 and 06 and the Voilà apps
    start from these (``notebooks/05_roc_pr_curves.ipynb`` builds them step by step).

    >>> y_test, scores = load_tumour_scores()
    >>> len(y_test), sorted(scores)
    (171, ['decision tree (depth 3)', 'logistic regression'])
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    from .splits import HoldOut

    X, y = load_tumours(weak_features=True)
    train, test = next(HoldOut(0.3, random_state=0).split(X, y))
    models = {
        "logistic regression": make_pipeline(StandardScaler(), LogisticRegression()),
        "decision tree (depth 3)": DecisionTreeClassifier(max_depth=3, random_state=0),
    }
    scores = {name: m.fit(X[train], y[train]).predict_proba(X[test])[:, 1] for name, m in models.items()}
    return y[test], scores


def load_ten_melons():
    """``(y, scores)``: the course's ten scored melons (chapters 05 and 06), sorted by score, 1 = good melon.

    Five good and five bad; melons 4 and 5 share the score 0.70 (a tie: the ROC curve takes a diagonal step
    there, 西瓜书 §2.3.3).

    >>> y, scores = load_ten_melons()
    >>> y.tolist()
    [1, 1, 0, 1, 0, 1, 0, 1, 0, 0]
    """
    scores = np.array([0.95, 0.86, 0.78, 0.70, 0.70, 0.62, 0.55, 0.47, 0.40, 0.31])
    y = np.array([1, 1, 0, 1, 0, 1, 0, 1, 0, 0])
    return y, scores
