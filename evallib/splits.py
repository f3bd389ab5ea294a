"""Evaluation methods (评估方法): hold-out, k-fold cross-validation, leave-one-out, bootstrap.

西瓜书 §2.2.1–2.2.3; taught in ``notebooks/02_evaluation_methods.ipynb``.

Every splitter follows scikit-learn's splitter protocol: ``split(X, y=None, groups=None)`` yields
``(train_idx, test_idx)`` integer arrays and ``get_n_splits()`` counts them, so any of them can be
passed as ``cv=`` to :func:`sklearn.model_selection.cross_val_score` or ``GridSearchCV``.

Index generation is vectorised: a repeat costs one permutation and one stable sort, whatever ``m`` is.
"""

from __future__ import annotations

import numbers
import warnings
from math import ceil

import numpy as np

from ._validation import Interval, check_positive_int, check_random_state, num_samples, validate_params

__all__ = ["HoldOut", "KFold", "LeaveOneOut", "Bootstrap", "out_of_bag_fraction", "simulate_oob_fraction"]


def _class_codes(y, m: int, stratify: bool):
    """Integer class codes when stratifying makes sense (class labels), else None.

    Classes are numbered by order of first appearance in ``y`` (as scikit-learn's StratifiedKFold does), so
    every partition depends only on which samples share a class, never on the classes' names."""
    if not stratify or y is None:
        return None
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D to stratify, got shape {y.shape}")
    if len(y) != m:
        raise ValueError(f"length mismatch: X has {m} samples, y has {len(y)}")
    # Stratify only on class labels: a continuous regression target (floats that are not whole numbers)
    # is split without stratification, as scikit-learn's KFold would.
    if y.dtype.kind == "f":
        if not np.isfinite(y).all():
            raise ValueError("y contains NaN or inf")
        if not np.all(y == np.round(y)):
            return None
    codes = None
    if y.dtype.kind in "biu" and m:
        # Integer labels over a small range: codes by counting, O(m) (np.unique sorts: bench/RESULTS.md).
        lo, hi = int(y.min()), int(y.max())
        if hi - lo <= 4 * m + 1024:
            present = np.bincount(y.astype(np.intp, copy=False) - lo, minlength=hi - lo + 1) > 0
            code_of = np.cumsum(present, dtype=np.intp) - 1  # rank of each present label, as np.unique's
            codes = code_of[y.astype(np.intp, copy=False) - lo]
    if codes is None:
        if y.dtype.kind == "O":
            y = y.astype(str)
        _, codes = np.unique(y, return_inverse=True)
        codes = codes.ravel()
    # Renumber the classes by first appearance: O(m), a scatter-min and a gather.
    first = np.full(int(codes.max()) + 1 if m else 0, m, dtype=np.intp)
    np.minimum.at(first, codes, np.arange(m, dtype=np.intp))
    rank = np.empty_like(first)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[codes]


def _stratified_order(codes: np.ndarray, rng: np.random.Generator, shuffle: bool) -> np.ndarray:
    """A permutation of the samples grouped by class, random within each class when ``shuffle``."""
    perm = rng.permutation(len(codes)) if shuffle else np.arange(len(codes))
    return perm[np.argsort(_small_ints(codes[perm]), kind="stable")]


def _small_ints(a: np.ndarray) -> np.ndarray:
    """``a`` (non-negative integers) as uint16 when they fit: NumPy's stable sort is then a radix sort, O(m)."""
    return a.astype(np.uint16) if a.size and a.max() < 2**16 else a


def _check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {value!r}")
    return bool(value)


_GROUPS_HELP = (
    "scikit-learn's GroupKFold or StratifiedGroupKFold (sklearn.model_selection) keep each group in one fold, "
    "and TimeSeriesSplit keeps time order; pass one of them as cv="
)


def _check_X(X) -> int:
    m = num_samples(X, "X")
    if m == 0:
        raise ValueError("X is empty: a data set with at least one sample is needed")
    return m


class _Splitter:
    """Shared repr and protocol checks."""

    _params: tuple[str, ...] = ()

    def __repr__(self) -> str:
        args = ", ".join(f"{p}={getattr(self, p)!r}" for p in self._params)
        return f"{type(self).__name__}({args})"

    def _refuse_groups(self, groups):
        if groups is not None:
            raise ValueError(
                f"groups: {type(self).__name__} cannot honour groups, it splits samples as if they were "
                f"independent (samples of one group would land on both sides of a split). {_GROUPS_HELP}."
            )

    def split(self, X, y=None, groups=None):
        """Yield ``(train_idx, test_idx)`` integer arrays, split by split.

        ``groups`` must be None: these splitters treat samples as independent, and passing groups is an
        error (checked at once, before any split) that names scikit-learn's group-aware splitters."""
        self._refuse_groups(groups)
        return self._split(X, y)

    def _prepare(self, X, y):
        m = _check_X(X)
        if y is not None and num_samples(y, "y") != m:
            raise ValueError(f"length mismatch: X has {m} samples, y has {num_samples(y, 'y')}")
        return m


class HoldOut(_Splitter):
    """Repeated, stratified hold-out (留出法, 西瓜书 §2.2.1).

    Each repeat puts ``test_size`` of the data in the test set and the rest in the training set. With
    ``stratify=True`` and class labels ``y``, every class keeps its proportion in both parts (分层采样):
    the test count of each class is its share of the test set, rounded by largest remainder.

    Parameters
    ----------
    test_size : float in (0, 1) or int
        Fraction (rounded up, as scikit-learn does) or absolute number of test samples.
    n_repeats : int
        How many random splits; the book averages the estimates of, e.g., 100 of them.
    stratify : bool
        Keep class proportions (needs ``y`` of class labels; without ``y`` the split is simple random).
    random_state : None, int or numpy.random.Generator

    scikit-learn: ``train_test_split(stratify=y)`` / ``StratifiedShuffleSplit`` take the same test size
    (fractions rounded up); a tie between classes for the last test places is broken by order of first
    appearance here, at random there. ``groups`` is refused: see scikit-learn's ``GroupShuffleSplit``.

    Example
    -------
    >>> ho = HoldOut(test_size=0.3, random_state=0)
    >>> train, test = next(ho.split(np.zeros(10), [0] * 5 + [1] * 5))
    >>> len(train), len(test)
    (7, 3)
    """

    _params = ("test_size", "n_repeats", "stratify", "random_state")

    def __init__(self, test_size=0.3, *, n_repeats=1, stratify=True, random_state=None):
        if isinstance(test_size, (bool, np.bool_)) or not isinstance(test_size, numbers.Real):
            raise TypeError(f"test_size must be a float in (0, 1) or an int, got {test_size!r}")
        if isinstance(test_size, numbers.Integral):
            check_positive_int(test_size, "test_size")
        elif not 0 < test_size < 1:
            raise ValueError(f"test_size must lie in (0, 1) as a fraction, got {test_size}")
        self.test_size = test_size
        self.n_repeats = check_positive_int(n_repeats, "n_repeats")
        self.stratify = _check_bool(stratify, "stratify")
        self.random_state = random_state
        check_random_state(random_state)  # fail early on a bad seed

    def _n_test(self, m: int) -> int:
        if isinstance(self.test_size, numbers.Integral):
            n_test = int(self.test_size)
        else:
            n_test = ceil(self.test_size * m)
        if not 1 <= n_test <= m - 1:
            raise ValueError(
                f"test_size={self.test_size!r} leaves {n_test} of {m} samples for testing; "
                "both the training and the test set need at least one sample"
            )
        return n_test

    def test_masks(self, X, y=None) -> np.ndarray:
        """Boolean array of shape (n_repeats, m): True where a sample is in that repeat's test set."""
        m = self._prepare(X, y)
        n_test = self._n_test(m)
        rng = check_random_state(self.random_state)
        codes = _class_codes(y, m, self.stratify)
        masks = np.zeros((self.n_repeats, m), dtype=bool)
        if codes is None:
            for r in range(self.n_repeats):
                masks[r, rng.permutation(m)[:n_test]] = True
            return masks
        counts = np.bincount(codes)
        # Largest-remainder apportionment of n_test over the classes.
        quota = n_test * counts / m
        per_class = np.floor(quota).astype(int)
        short = n_test - per_class.sum()
        per_class[np.argsort(-(quota - per_class), kind="stable")[:short]] += 1
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        for r in range(self.n_repeats):
            order = _stratified_order(codes, rng, shuffle=True)
            cls = codes[order]
            rank_in_class = np.arange(m) - starts[cls]
            masks[r, order[rank_in_class < per_class[cls]]] = True
        return masks

    def _split(self, X, y):
        for mask in self.test_masks(X, y):
            yield np.flatnonzero(~mask), np.flatnonzero(mask)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        self._refuse_groups(groups)
        return self.n_repeats


class KFold(_Splitter):
    """p-times repeated, stratified k-fold cross-validation (交叉验证法, 西瓜书 §2.2.2).

    The data are cut into ``n_splits`` folds; each fold is the test set once while the other k - 1
    train the model. Every sample is in exactly one test fold per repeat; fold sizes differ by at
    most one and, stratified, so do the per-class counts of any two folds. ``n_repeats=p`` repeats the
    whole procedure with new random folds ("10 次 10 折交叉验证": 100 fits).

    Parameters
    ----------
    n_splits : int, k >= 2 and at most the number of samples.
    n_repeats : int, p >= 1.
    stratify : bool
        Balance classes across folds when ``y`` holds class labels (a continuous target is not stratified).
        A class with fewer than k members gives a warning; if every class is smaller than k, an error.
    shuffle : bool
        Shuffle before cutting folds. Unshuffled, each fold is a contiguous block of each class, so samples
        that are neighbours in the data stay together (dependent neighbours then show in the estimate).
        ``shuffle=False`` with ``n_repeats > 1`` or with a ``random_state`` is refused.
    random_state : None, int or numpy.random.Generator (only with ``shuffle=True``)

    scikit-learn: unshuffled, the test folds equal ``StratifiedKFold(k)``'s (stratified, class labels) or
    ``KFold(k)``'s (unstratified or continuous ``y``), in the same order; shuffled, the same sizes and per-class
    counts from another random stream. Differences: ``shuffle=True`` is the default (the book's random
    partitions), ``n_repeats`` is built in (``RepeatedStratifiedKFold``), and a continuous ``y`` is split
    unstratified instead of refused. ``groups`` is refused: see scikit-learn's ``GroupKFold``.

    Example
    -------
    >>> kf = KFold(n_splits=5, random_state=0)
    >>> [len(test) for _, test in kf.split(np.zeros(12))]
    [3, 3, 2, 2, 2]
    >>> [test.tolist() for _, test in KFold(3, shuffle=False).split(np.zeros(8), [0, 1] * 4)]
    [[0, 1, 2], [3, 4, 5], [6, 7]]
    """

    _params = ("n_splits", "n_repeats", "stratify", "shuffle", "random_state")

    def __init__(self, n_splits=10, *, n_repeats=1, stratify=True, shuffle=True, random_state=None):
        self.n_splits = check_positive_int(n_splits, "n_splits", minimum=2)
        self.n_repeats = check_positive_int(n_repeats, "n_repeats")
        self.stratify = _check_bool(stratify, "stratify")
        self.shuffle = _check_bool(shuffle, "shuffle")
        if not self.shuffle and self.n_repeats > 1:
            raise ValueError("n_repeats > 1 needs shuffle=True: unshuffled repeats would all be the same split")
        if not self.shuffle and random_state is not None:
            raise ValueError(
                f"random_state={random_state!r} has no effect since shuffle is False: leave random_state "
                "to its default (None), or set shuffle=True"
            )
        self.random_state = random_state
        check_random_state(random_state)

    def fold_ids(self, X, y=None) -> np.ndarray:
        """Integer array of shape (n_repeats, m): the test fold (0..k-1) of every sample in every repeat.

        Stratified: the classes (numbered by first appearance) are laid end to end and dealt to the folds in
        turn (position mod k), which fixes how many samples of each class each fold gets; each class then
        fills its folds in contiguous blocks, in data order (shuffled within the class when ``shuffle``).
        Both the fold sizes and every class's per-fold counts differ by at most one.
        Unstratified: the (shuffled) samples are cut into k contiguous blocks, as scikit-learn does.
        """
        m = self._prepare(X, y)
        k = self.n_splits
        if k > m:
            raise ValueError(f"n_splits={k} is larger than the number of samples ({m}); use at most {m} folds")
        codes = _class_codes(y, m, self.stratify)
        rng = check_random_state(self.random_state)
        ids = np.empty((self.n_repeats, m), dtype=np.intp)
        if codes is None:
            sizes = np.full(k, m // k)
            sizes[: m % k] += 1
            block = np.repeat(np.arange(k), sizes)
            for r in range(self.n_repeats):
                order = rng.permutation(m) if self.shuffle else np.arange(m)
                ids[r, order] = block
            return ids
        counts = np.bincount(codes)
        if (counts < k).all():
            raise ValueError(
                f"n_splits={k} cannot be greater than the number of members in each class "
                f"(the largest class of y has {counts.max()})"
            )
        if counts.min() < k:
            warnings.warn(
                f"The least populated class in y has only {counts.min()} members, which is less than n_splits={k}.",
                UserWarning,
                stacklevel=3,
            )
        # Class c occupies positions starts[c] .. starts[c] + counts[c] - 1 of the classes laid end to end; fold f
        # gets the positions p with p mod k == f: counts[c] // k of them, one more for the first counts[c] % k folds
        # counted cyclically from starts[c] mod k (scikit-learn's round-robin allocation, computed directly).
        starts = np.cumsum(counts) - counts
        f = np.arange(k)
        per_fold = counts[:, None] // k + ((f - starts[:, None]) % k < (counts % k)[:, None])
        blocks = np.repeat(np.tile(f, len(counts)), per_fold.ravel())
        for r in range(self.n_repeats):
            ids[r, _stratified_order(codes, rng, self.shuffle)] = blocks
        return ids

    def _split(self, X, y):
        # repeat by repeat, fold by fold (k * p splits)
        for fold_of in self.fold_ids(X, y):
            fold_of = _small_ints(fold_of)  # 2-byte compares below read a quarter of the memory
            order = np.argsort(fold_of, kind="stable")
            bounds = np.searchsorted(fold_of[order], np.arange(self.n_splits + 1))
            for f in range(self.n_splits):
                test = order[bounds[f] : bounds[f + 1]]
                yield np.flatnonzero(fold_of != f), test

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        self._refuse_groups(groups)
        return self.n_splits * self.n_repeats


class LeaveOneOut(_Splitter):
    """Leave-one-out (留一法, 西瓜书 §2.2.2): k-fold with k = m, one test sample per split.

    It is unaffected by random partitioning (there is only one way to split) and its training sets are
    almost the whole data set, but it costs m fits.

    scikit-learn: ``LeaveOneOut`` gives the same splits; ``groups`` is refused here (``LeaveOneGroupOut``).

    Example
    -------
    >>> [test.tolist() for _, test in LeaveOneOut().split(np.zeros(3))]
    [[0], [1], [2]]
    """

    def _split(self, X, y):
        m = self._prepare(X, y)
        if m < 2:
            raise ValueError(f"X has {m} sample; leave-one-out needs at least 2")
        idx = np.arange(m)
        for i in range(m):
            yield np.delete(idx, i), idx[i : i + 1]

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        self._refuse_groups(groups)
        if X is None:
            raise ValueError("X is needed: leave-one-out makes one split per sample")
        return _check_X(X)


class Bootstrap(_Splitter):
    """Bootstrap with out-of-bag testing (自助法, 西瓜书 §2.2.3, 式(2.1)).

    Training set: m draws with replacement from the m samples (indices may repeat). Test set: the
    samples never drawn, on average a fraction (1 - 1/m)^m -> 1/e ≈ 36.8 % of the data (包外估计).
    In the rare draw where every sample is picked (probability m!/m^m), the draw is repeated so the
    test set is never empty.

    scikit-learn: no splitter does this (``sklearn.utils.resample`` draws one sample); ``groups`` is refused.

    Example
    -------
    >>> train, test = next(Bootstrap(random_state=0).split(np.zeros(1000)))
    >>> len(train), 300 < len(test) < 440
    (1000, True)
    """

    _params = ("n_repeats", "random_state")

    def __init__(self, n_repeats=1, *, random_state=None):
        self.n_repeats = check_positive_int(n_repeats, "n_repeats")
        self.random_state = random_state
        check_random_state(random_state)

    def _sorted_draws(self, X, y):
        """Yield, repeat by repeat, the sorted draws (a row of one (n_repeats, m) array) and how often each
        sample was drawn; a draw that picked every sample is repeated."""
        m = self._prepare(X, y)
        if m < 2:
            raise ValueError(f"X has {m} sample; the bootstrap needs at least 2 to leave any out of the bag")
        rng = check_random_state(self.random_state)
        draws = rng.integers(0, m, size=(self.n_repeats, m))
        idx = np.arange(m)
        # Counting, not sorting: O(m) per repeat (np.unique on integers hashes, ~50x slower: bench/RESULTS.md).
        for r in range(self.n_repeats):
            counts = np.bincount(draws[r], minlength=m)
            while np.count_nonzero(counts) == m:  # no out-of-bag sample: draw again
                draws[r] = rng.integers(0, m, size=m)
                counts = np.bincount(draws[r], minlength=m)
            draws[r] = np.repeat(idx, counts)  # the same draws, sorted
            yield draws, r, counts

    def draws(self, X, y=None) -> np.ndarray:
        """Integer array of shape (n_repeats, m): the training indices of every repeat, sorted."""
        out = None
        for out, _, _ in self._sorted_draws(X, y):
            pass
        return out

    def _split(self, X, y):
        for draws, r, counts in self._sorted_draws(X, y):
            yield draws[r], np.flatnonzero(counts == 0)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        self._refuse_groups(groups)
        return self.n_repeats


@validate_params({"m": [Interval(numbers.Integral, 1, None, closed="left")]})
def out_of_bag_fraction(m) -> float:
    """Probability that a given sample is never drawn in m bootstrap draws: (1 - 1/m)^m (式(2.1)).

    Tends to 1/e ≈ 0.368 as m grows.

    >>> round(out_of_bag_fraction(10), 4)
    0.3487
    """
    m = check_positive_int(m, "m")
    if m >= 2**53:  # (1 - 1/m)^m = e^-1 (1 - 1/(2m) + ...): the correction is below double precision (and
        return float(np.exp(-1.0))  # 1/m of an int beyond 1e308 would overflow)
    return float(np.exp(m * np.log1p(-1.0 / m))) if m > 1 else 0.0


@validate_params(
    {
        "m": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_repeats": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }
)
def simulate_oob_fraction(m, n_repeats=200, *, random_state=None) -> np.ndarray:
    """Monte Carlo check of 式(2.1): the fraction of m samples never drawn in m draws with replacement,
    for each of ``n_repeats`` independent bootstrap samples (raw draws, no redrawing).

    The mean tends to (1 - 1/m)^m.

    >>> f = simulate_oob_fraction(100, 2000, random_state=0)
    >>> round(float(f.mean()), 3), round(out_of_bag_fraction(100), 3)
    (0.365, 0.366)
    """
    m = check_positive_int(m, "m")
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    rng = check_random_state(random_state)
    draws = np.sort(rng.integers(0, m, size=(n_repeats, m)), axis=1)
    distinct = 1 + np.count_nonzero(np.diff(draws, axis=1), axis=1)
    return 1.0 - distinct / m
