"""Running a learner over a splitter: one score per split (西瓜书 §2.2).

Taught in ``notebooks/02_evaluation_methods.ipynb``. Also the curves of a learner against one of its
parameters (:func:`complexity_curve`) and against the training-set size (:func:`learning_curve`, notebook 10). The selection bias of tuning
(``expected_best_accuracy``, notebook 03) lives in :mod:`evallib.tuning`; its name stays importable here.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone

from ._results import Result
from ._validation import (
    Interval,
    Options,
    check_consistent_length,
    check_labels,
    num_samples,
    validate_params,
)
from .metrics import error_rate

__all__ = [
    "evaluate",
    "cross_validation",
    "CVResult",
    "score_table",
    "ScoreTable",
    "complexity_curve",
    "ComplexityCurve",
    "learning_curve",
    "LearningCurve",
    "expected_best_accuracy",
]


_RESPONSES = ("predict", "predict_proba", "decision_function")
_N_JOBS = [None, Interval(numbers.Integral, None, None)]  # joblib's: None, -1 (every core), 1, 2, ...
_RUN = {
    "X": ["array-like"],
    "y": ["array-like"],
    "metric": ["callable"],
    "response": [Options(*_RESPONSES)],
    "n_jobs": _N_JOBS,
}


def _fit_and_score(model, X, y, train, test, metric, response):
    est = clone(model)
    est.fit(_take(X, train), _take(y, train))
    out = getattr(est, response)(_take(X, test))
    if response == "predict_proba":
        out = out[:, 1]  # score of the positive (second) class
    return metric(_take(y, test), out)


def _take(a, idx):
    return a.iloc[idx] if hasattr(a, "iloc") else a[idx]


def _check_model(model, response, name="model"):
    if not (hasattr(model, "fit") and hasattr(model, "get_params")):
        raise TypeError(f"{name} must be a scikit-learn estimator with fit/get_params, got {type(model).__name__}")
    if response not in _RESPONSES:
        raise ValueError(f"response must be one of {_RESPONSES}, got {response!r}")
    if not hasattr(model, response):
        raise TypeError(f"{name} {type(model).__name__} has no method {response}()")


def _check_run(model, X, y, splitter, metric, response, name="model"):
    """evaluate()'s input checks; returns X and y as arrays (data frames kept) and the list of splits."""
    _check_model(model, response, name)
    if not callable(metric):
        raise TypeError(f"metric must be callable as metric(y_true, y_pred), got {type(metric).__name__}")
    for arg, v in (("X", X), ("y", y)):
        if v is None:
            raise ValueError(f"{arg} must be an array-like, got None")
    m = check_consistent_length(X=X, y=y)
    if m == 0:
        raise ValueError("X is empty: a data set with at least one sample is needed")
    X = X if hasattr(X, "iloc") else np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (samples × features), got shape {X.shape}")
    y = y if hasattr(y, "iloc") else np.asarray(y)
    if hasattr(splitter, "split"):
        splits = list(splitter.split(X, y))
    else:
        try:
            splits = list(splitter)
        except TypeError:
            raise TypeError(
                f"splitter must have a split(X, y) method or be an iterable of (train, test), got {type(splitter).__name__}"
            ) from None
    if not splits:
        raise ValueError("splitter produced no splits")
    for train, test in splits:
        if len(train) == 0 or len(test) == 0:
            raise ValueError("splitter produced an empty training or test set")
        if max(np.max(train), np.max(test)) >= num_samples(X):
            raise ValueError("splitter produced an index beyond the number of samples")
    return X, y, splits


@validate_params(_RUN)
def evaluate(model, X, y, splitter, metric=error_rate, *, response="predict", n_jobs=None) -> np.ndarray:
    """Score a fresh clone of ``model`` on every split of ``splitter``: one value per split.

    For each ``(train, test)`` the estimator is cloned (so no state leaks between splits), fitted on the
    training part and scored with ``metric(y_test, output)`` on the test part. Hold-out repeats, k × p
    cross-validation folds and bootstrap out-of-bag estimates (西瓜书 §2.2.1–2.2.3) are all this loop.

    Parameters
    ----------
    model : scikit-learn estimator (anything with ``fit`` and the method named by ``response``).
    X, y : data with the same number of samples.
    splitter : an evallib or scikit-learn splitter (``split(X, y)``) or an iterable of (train, test) pairs.
    metric : callable ``(y_true, y_pred_or_scores) -> float``; default :func:`evallib.metrics.error_rate`.
    response : "predict" (labels), "predict_proba" (positive-class probability) or "decision_function".
    n_jobs : joblib's ``n_jobs``: None runs splits one after another, -1 uses every core. Any joblib
        backend works, e.g. ``with joblib.parallel_config(backend="dask"):`` runs them on a Dask cluster.

    Returns
    -------
    numpy.ndarray of floats, one per split, in the splitter's order.

    Example
    -------
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from evallib.splits import KFold
    >>> X, y = np.arange(20.0).reshape(-1, 1), np.repeat([0, 1], 10)
    >>> evaluate(DecisionTreeClassifier(), X, y, KFold(5, random_state=0)).tolist()  # fold 3 trains without 10
    [0.0, 0.0, 0.25, 0.0, 0.0]
    """
    check_labels(y, "y")
    X, y, splits = _check_run(model, X, y, splitter, metric, response)
    scores = Parallel(n_jobs=n_jobs)(
        delayed(_fit_and_score)(model, X, y, train, test, metric, response) for train, test in splits
    )
    return np.asarray(scores, dtype=float)


@dataclass(frozen=True, repr=False)
class CVResult(Result):
    """Scores of p-times k-fold cross-validation (西瓜书 §2.2.2), with the summaries the book reports.

    Fields: ``scores`` (p × k, one per fold), ``mean`` (the estimate: mean over all p·k folds),
    ``repeat_means`` (one k-fold estimate per repeat), ``repeat_std`` (spread of those estimates, ddof=1;
    0 for p = 1), ``fold_std`` (spread of single-fold scores, ddof=1) and ``n_fits`` (= p·k).
    """

    scores: np.ndarray
    mean: float
    repeat_means: np.ndarray
    repeat_std: float
    fold_std: float
    n_fits: int

    _repr_format = "CVResult(p={scores.shape[0]}, k={scores.shape[1]}, mean={mean:.4f}, repeat_std={repeat_std:.4f}, fold_std={fold_std:.4f}, n_fits={n_fits})"


@validate_params(
    {
        **_RUN,
        "n_splits": [Interval(numbers.Integral, 2, None, closed="left")],
        "n_repeats": [Interval(numbers.Integral, 1, None, closed="left")],
        "stratify": ["boolean"],
        "random_state": ["random_state"],
    }
)
def cross_validation(
    model,
    X,
    y,
    *,
    n_splits=10,
    n_repeats=1,
    stratify=True,
    metric=error_rate,
    response="predict",
    random_state=None,
    n_jobs=None,
) -> CVResult:
    """p-times k-fold cross-validation ("p 次 k 折交叉验证") summarised as a :class:`CVResult`.

    The estimate is the mean of all p·k fold scores (西瓜书 §2.2.2); ``repeat_std`` shows how much a
    single k-fold estimate moves when the data are re-partitioned.

    >>> from sklearn.dummy import DummyClassifier
    >>> X, y = np.zeros((20, 1)), np.repeat([0, 1], 10)
    >>> cross_validation(DummyClassifier(), X, y, n_splits=5, random_state=0).mean
    0.5
    """
    check_labels(y, "y")
    from .splits import KFold

    splitter = KFold(n_splits, n_repeats=n_repeats, stratify=stratify, random_state=random_state)
    scores = evaluate(model, X, y, splitter, metric, response=response, n_jobs=n_jobs)
    return _cv_summary(scores.reshape(splitter.n_repeats, splitter.n_splits))


def _cv_summary(scores: np.ndarray) -> CVResult:
    """The :class:`CVResult` of a p × k array of fold scores."""
    repeat_means = scores.mean(axis=1)
    return CVResult(
        scores=scores,
        mean=float(scores.mean()),
        repeat_means=repeat_means,
        repeat_std=float(repeat_means.std(ddof=1)) if len(repeat_means) > 1 else 0.0,
        fold_std=float(scores.std(ddof=1)) if scores.size > 1 else 0.0,
        n_fits=int(scores.size),
    )


@dataclass(frozen=True, repr=False)
class ScoreTable(Result):
    """Mean score of every learner on every data set: the N × k table of 西瓜书 §2.4.4 (表 2.5's input).

    ``scores[i, j]`` is learner ``learners[j]``'s mean over the splits of data set ``datasets[i]`` (pass it
    to :func:`evallib.compare.friedman` / :func:`~evallib.compare.nemenyi`); ``split_scores[i]`` holds
    that data set's per-split scores, shape (k, n_splits).
    """

    scores: np.ndarray
    learners: tuple
    datasets: tuple
    split_scores: tuple = field(repr=False)

    _repr_format = "ScoreTable({scores.shape[0]} data sets × {scores.shape[1]} learners: {learner_list})"

    def _repr_values(self) -> dict:
        return {"learner_list": ", ".join(self.learners)}


def _named(items, name):
    if isinstance(items, dict):
        pairs = list(items.items())
    else:
        try:
            pairs = [tuple(p) for p in items]
        except TypeError:
            raise TypeError(
                f"{name} must be a dict {{name: ...}} or a list of (name, ...) pairs, got {type(items).__name__}"
            ) from None
    if not pairs:
        raise ValueError(f"{name} is empty: give at least one")
    if any(len(p) != 2 or not isinstance(p[0], str) for p in pairs):
        raise TypeError(f"{name} must map names (str) to values")
    names = [p[0] for p in pairs]
    if len(set(names)) != len(names):
        raise ValueError(f"{name} has repeated names: {names}")
    return pairs


@validate_params({"metric": ["callable"], "response": [Options(*_RESPONSES)], "n_jobs": _N_JOBS})
def score_table(learners, datasets, splitter, metric=error_rate, *, response="predict", n_jobs=None) -> ScoreTable:
    """Score k learners on N data sets with the same splits for every learner (西瓜书 §2.4.4, 表 2.5).

    For each data set the splits of ``splitter`` are drawn once and every learner is scored on them with
    :func:`evaluate`'s loop; each entry is the mean over the splits. All N·k·splits fits go to joblib in one
    call, so ``n_jobs`` and any joblib backend (``joblib.parallel_config(backend="dask")`` on a Dask
    cluster) spread them; the result does not depend on either. Taught in
    ``notebooks/09_friedman_nemenyi.ipynb`` (five learners on ten data sets).

    Parameters
    ----------
    learners : dict {name: scikit-learn estimator} (or a list of (name, estimator) pairs), k ≥ 1.
    datasets : dict {name: (X, y)} (or a list of (name, (X, y)) pairs), N ≥ 1.
    splitter : an evallib or scikit-learn splitter, as for :func:`evaluate`.
    metric, response, n_jobs : as for :func:`evaluate`.

    Example
    -------
    >>> from sklearn.dummy import DummyClassifier
    >>> from evallib.splits import KFold
    >>> data = {"even": (np.zeros((20, 1)), np.repeat([0, 1], 10))}
    >>> score_table({"majority": DummyClassifier()}, data, KFold(5, random_state=0)).scores.tolist()
    [[0.5]]
    """
    models = _named(learners, "learners")
    data = _named(datasets, "datasets")
    if not callable(metric):
        raise TypeError(f"metric must be callable as metric(y_true, y_pred), got {type(metric).__name__}")
    prepared = []
    for dname, Xy in data:
        if not (isinstance(Xy, (tuple, list)) and len(Xy) == 2):
            raise TypeError(f"datasets[{dname!r}] must be a pair (X, y), got {type(Xy).__name__}")
        for lname, model in models:
            _check_model(model, response, name=f"learners[{lname!r}]")
        # the splits are drawn once per data set: every learner sees the same ones
        prepared.append(_check_run(models[0][1], Xy[0], Xy[1], splitter, metric, response))
    out = Parallel(n_jobs=n_jobs)(
        delayed(_fit_and_score)(model, X, y, train, test, metric, response)
        for X, y, splits in prepared
        for _, model in models
        for train, test in splits
    )
    per_split, start = [], 0
    for X, y, splits in prepared:
        n = len(models) * len(splits)
        per_split.append(np.asarray(out[start : start + n], dtype=float).reshape(len(models), len(splits)))
        start += n
    scores = np.array([[np.mean(row) for row in arr] for arr in per_split])  # as evaluate(...).mean()
    return ScoreTable(scores, tuple(n for n, _ in models), tuple(n for n, _ in data), tuple(per_split))


@dataclass(frozen=True, repr=False)
class ComplexityCurve(Result):
    """Training and test scores of a model as one parameter (its complexity) varies.

    ``train`` and ``test`` have shape (len(values), n_splits); ``train_mean``/``test_mean`` average the splits.
    """

    param_name: str
    values: tuple
    train: np.ndarray
    test: np.ndarray

    @property
    def train_mean(self) -> np.ndarray:
        return self.train.mean(axis=1)

    @property
    def test_mean(self) -> np.ndarray:
        return self.test.mean(axis=1)

    _repr_format = (
        "ComplexityCurve({param_name}: {n_values} values × {train.shape[1]} splits, best test at {param_name}={best!r})"
    )

    def _repr_values(self) -> dict:
        return {"n_values": len(self.values), "best": self.values[int(np.argmin(self.test_mean))]}


def _fit_train_test(model, X, y, train, test, metric):
    est = clone(model).fit(_take(X, train), _take(y, train))
    return (metric(_take(y, train), est.predict(_take(X, train))), metric(_take(y, test), est.predict(_take(X, test))))


@validate_params(
    {"param_name": ["str"], "X": ["array-like"], "y": ["array-like"], "metric": ["callable"], "n_jobs": _N_JOBS}
)
def complexity_curve(model, param_name, values, X, y, splitter, metric=error_rate, *, n_jobs=None) -> ComplexityCurve:
    """Training vs test error for each value of one parameter: over- and under-fitting (西瓜书 §2.1).

    For every value, ``model`` with ``param_name=value`` is cloned, fitted on each training split and scored
    on both the training part (training error, 训练误差) and the test part (an estimate of the generalisation
    error, 泛化误差). Lower-is-better metrics (the default error rate) make the classic picture: the
    training error keeps falling with complexity while the test error turns up again.

    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from evallib.splits import HoldOut
    >>> X, y = np.arange(40.0).reshape(-1, 1), np.tile([0, 1], 20)
    >>> c = complexity_curve(DecisionTreeClassifier(random_state=0), "max_depth", [1, 20], X, y, HoldOut(random_state=0))
    >>> c.train_mean.tolist()
    [0.4642857142857143, 0.03571428571428571]
    """
    check_labels(y, "y")
    if not isinstance(param_name, str) or param_name not in model.get_params():
        raise ValueError(f"param_name must be a parameter of {type(model).__name__}, got {param_name!r}")
    values = tuple(values)
    if not values:
        raise ValueError("values is empty: give at least one parameter value")
    m = check_consistent_length(X=X, y=y)
    if m == 0:
        raise ValueError("X is empty: a data set with at least one sample is needed")
    X = X if hasattr(X, "iloc") else np.asarray(X)
    y = y if hasattr(y, "iloc") else np.asarray(y)
    splits = list(splitter.split(X, y))
    jobs = [(v, tr, te) for v in values for tr, te in splits]
    out = Parallel(n_jobs=n_jobs)(
        delayed(_fit_train_test)(clone(model).set_params(**{param_name: v}), X, y, tr, te, metric) for v, tr, te in jobs
    )
    arr = np.asarray(out, dtype=float).reshape(len(values), len(splits), 2)
    return ComplexityCurve(param_name, values, arr[:, :, 0], arr[:, :, 1])


# ------------------------------------------------------------------------------------ learning curves
@dataclass(frozen=True, repr=False)
class LearningCurve(Result):
    """Training and validation scores against the training-set size (学习曲线).

    ``train_sizes`` (n_sizes,); ``train_scores`` and ``test_scores`` (n_sizes, n_splits);
    ``train_mean``/``test_mean`` average over the splits.
    """

    train_sizes: np.ndarray
    train_scores: np.ndarray
    test_scores: np.ndarray

    @property
    def train_mean(self) -> np.ndarray:
        return self.train_scores.mean(axis=1)

    @property
    def test_mean(self) -> np.ndarray:
        return self.test_scores.mean(axis=1)

    _repr_format = "LearningCurve({n_sizes} sizes from {first} to {last}, {train_scores.shape[1]} splits; final train={final_train:.4f}, test={final_test:.4f})"

    def _repr_values(self) -> dict:
        return {
            "n_sizes": len(self.train_sizes),
            "first": self.train_sizes[0],
            "last": self.train_sizes[-1],
            "final_train": self.train_mean[-1],
            "final_test": self.test_mean[-1],
        }


def _check_estimator(model, name="model"):
    if isinstance(model, type):
        raise TypeError(f"{name} must be an estimator instance, got the class {model.__name__}; add ()")
    for attr in ("fit", "predict", "get_params"):
        if not callable(getattr(model, attr, None)):
            raise TypeError(f"{name} must be a scikit-learn estimator with fit/predict, got {type(model).__name__}")
    return model


def _mse(y_true, y_pred) -> float:
    return float(np.mean((np.asarray(y_true, dtype=float) - np.asarray(y_pred, dtype=float)) ** 2))


@validate_params(
    {
        "X": ["array-like"],
        "y": ["array-like"],
        "train_sizes": ["array-like", Interval(numbers.Integral, 1, None, closed="left")],
        "metric": [None, "callable"],
    }
)
def learning_curve(model, X, y, train_sizes, splitter, metric=None) -> LearningCurve:
    """Training and validation error of ``model`` as the training set grows (学习曲线, notebook 10).

    The twin of :func:`complexity_curve`: there the x-axis is a parameter, here the training-set size.

    For every split of ``splitter`` and every size n in ``train_sizes``, a clone of ``model`` is fitted on the
    first n training indices of the split and scored with ``metric(y_true, y_pred)`` (default: mean squared
    error) on those n samples and on the split's test part. This is what
    ``sklearn.model_selection.learning_curve(..., shuffle=False)`` does, with an error metric (lower is better).

    >>> from evallib.fitting import PolynomialRegression
    >>> from evallib.splits import KFold
    >>> X = np.linspace(0, 1, 40).reshape(-1, 1); y = 2 * X[:, 0]
    >>> lc = learning_curve(PolynomialRegression(1), X, y, [5, 20], KFold(4, random_state=0))
    >>> bool(np.all(lc.test_mean < 1e-20))
    True
    """
    check_labels(y, "y")
    _check_estimator(model)
    metric = _mse if metric is None else metric
    if not callable(metric):
        raise TypeError(f"metric must be callable as metric(y_true, y_pred), got {type(metric).__name__}")
    if not (callable(getattr(splitter, "split", None)) and callable(getattr(splitter, "get_n_splits", None))):
        raise TypeError(f"splitter must have split() and get_n_splits(), got {type(splitter).__name__}")
    m = num_samples(X, "X")
    if m == 0:
        raise ValueError("X is empty: a data set with at least one sample is needed")
    if num_samples(y, "y") != m:
        raise ValueError(f"length mismatch: X has {m} samples, y has {num_samples(y, 'y')}")
    X, y = np.asarray(X), np.asarray(y)
    sizes = np.atleast_1d(np.asarray(train_sizes))
    if sizes.size == 0:
        raise ValueError("train_sizes is empty: give at least one training-set size")
    if sizes.ndim != 1 or sizes.dtype.kind not in "iu":
        raise ValueError(f"train_sizes must be a 1-D sequence of ints, got {train_sizes!r}")
    if sizes.min() < 1:
        raise ValueError(f"train_sizes must be >= 1, got {sizes.min()}")
    splits = list(splitter.split(X, y))
    if not splits:
        raise ValueError("splitter produced no splits")
    smallest = min(len(tr) for tr, _ in splits)
    if sizes.max() > smallest:
        raise ValueError(f"train_sizes must be <= {smallest} (the smallest training split), got {sizes.max()}")
    train = np.empty((len(sizes), len(splits)))
    test = np.empty_like(train)
    for j, (tr, te) in enumerate(splits):
        for i, n in enumerate(sizes):
            idx = tr[:n]
            est = clone(model).fit(X[idx], y[idx])
            train[i, j] = metric(y[idx], est.predict(X[idx]))
            test[i, j] = metric(y[te], est.predict(X[te]))
    return LearningCurve(sizes.astype(int), train, test)


# The selection bias of tuning lives in evallib.tuning (beside nested CV); its name stays here too.
from .tuning import expected_best_accuracy  # noqa: E402
