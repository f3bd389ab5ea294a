"""Figures for chapters 01–02: the watermelon data, fitted curves, training vs test error, how
splitters partition the data, and how estimates spread."""

from __future__ import annotations

import itertools
import numbers
import warnings

import numpy as np
from matplotlib import colormaps
from matplotlib import colors as mpl_colors
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from .._validation import (
    Interval,
    as_finite_array,
    check_bool,
    check_labels,
    check_positive_int,
    check_real,
    validate_params,
)
from ..data import Dataset
from ..evaluation import CVResult
from ..fitting import PolynomialExperiment
from ._base import AX, COLORS, DOT, POSITIVE_INT, get_ax

_REAL = Interval(numbers.Real, None, None)

__all__ = [
    "plot_watermelon",
    "plot_polynomial_fit",
    "plot_train_test_curve",
    "plot_splits",
    "plot_estimate_spread",
    "plot_oob_fraction",
    "plot_cv_repeats",
]


@validate_params({"data": [None, Dataset], "ax": AX, "annotate": ["boolean"]})
def plot_watermelon(data=None, *, ax=None, annotate=True):
    """Scatter of the watermelon data 3.0α: density vs sugar, good melons ● and bad ones ×."""
    annotate = check_bool(annotate, "annotate")
    from ..data import load_watermelon

    ax = get_ax(ax)
    d = data if data is not None else load_watermelon()
    for label, marker, color, name in ((1, "o", COLORS["green"], "good (1)"), (0, "x", COLORS["red"], "bad (0)")):
        sel = d.y == label
        ax.scatter(d.X[sel, 0], d.X[sel, 1], marker=marker, color=color, label=name, s=40)
    if annotate:
        for i, (x0, x1) in enumerate(d.X, start=1):
            ax.annotate(str(i), (x0, x1), textcoords="offset points", xytext=(4, 3), fontsize=7, color=COLORS["grey"])
    ax.set(xlabel=d.feature_names[0], ylabel=d.feature_names[1], title="Watermelon data set 3.0α")
    ax.legend(loc="upper left")
    return ax


@validate_params(
    {
        "experiment": [PolynomialExperiment],
        "degree": [Interval(numbers.Integral, 0, None, closed="left")],
        "ax": AX,
        "ylim": ["range"],
    }
)
def plot_polynomial_fit(experiment, degree, *, ax=None, ylim=(-2.0, 2.0)):
    """Training points, the true curve sin(2πx) and the degree-``degree`` fit of a PolynomialExperiment."""
    degree = check_positive_int(degree, "degree", minimum=0)
    ax = get_ax(ax)
    e = experiment
    if not 0 <= degree <= int(e.degrees[-1]):
        raise ValueError(f"degree must lie in 0..{int(e.degrees[-1])}, got {degree}")
    ax.plot(e.grid, e.truth, color=COLORS["grey"], ls="--", label="true f(x) = sin(2πx)")
    ax.plot(e.grid, np.clip(e.curves[degree], *ylim), color=COLORS["blue"], label=f"degree {degree} fit")
    ax.scatter(e.x_train, e.y_train, color=COLORS["orange"], zorder=3, s=25, label="training samples")
    ax.set(
        xlim=(0, 1),
        ylim=ylim,
        xlabel="x",
        ylabel="y",
        title=f"degree {degree}: train MSE {e.train_mse[degree]:.3f}, test MSE {e.test_mse[degree]:.3f}",
    )
    ax.legend(loc="lower left")
    return ax


@validate_params(
    {
        "values": ["array-like"],
        "train": ["array-like"],
        "test": ["array-like"],
        "ax": AX,
        "mark": [None, _REAL],
        "logy": ["boolean"],
        "floor": [None, _REAL],
    }
)
def plot_train_test_curve(
    values, train, test, *, ax=None, mark=None, xlabel="model complexity", ylabel="error", logy=False, floor=None
):
    """Training and test error against complexity. 2-D inputs (values × splits) show mean ± 1 std bands."""
    logy = check_bool(logy, "logy")
    values = as_finite_array(values, "values")
    arrays = {}
    for arg, arr in (("train", train), ("test", test)):
        arr = as_finite_array(arr, arg, ndim=None)
        if arr.ndim not in (1, 2) or arr.shape[0] != len(values):
            raise ValueError(
                f"{arg} must have one row per value ({len(values)} rows, 1-D or values × splits); got shape {arr.shape}"
            )
        arrays[arg] = arr
    floor = None if floor is None else check_real(floor, "floor")
    mark = None if mark is None else check_real(mark, "mark")
    ax = get_ax(ax)
    for arr, color, name in (
        (arrays["train"], COLORS["blue"], "training error"),
        (arrays["test"], COLORS["red"], "test error"),
    ):
        mean = arr.mean(axis=1) if arr.ndim == 2 else arr
        ax.plot(values, mean, "o-", color=color, label=name, ms=4)
        if arr.ndim == 2 and arr.shape[1] > 1:
            sd = arr.std(axis=1, ddof=1)
            ax.fill_between(values, mean - sd, mean + sd, color=color, alpha=0.15, lw=0)
    if floor is not None:
        ax.axhline(floor, color=COLORS["grey"], ls=":", label="noise level")
    if mark is not None:
        ax.axvline(mark, color=COLORS["black"], lw=1, alpha=0.6)
    if logy:
        ax.set_yscale("log")
    ax.set(xlabel=xlabel, ylabel=ylabel)
    ax.legend()
    return ax


def _band_codes(values, m: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values in order of first appearance and each sample's code, for a class or group band."""
    values = np.asarray(values)
    if values.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one entry per sample), got shape {values.shape}")
    if len(values) != m:
        raise ValueError(f"length mismatch: X has {m} samples, {name} has {len(values)}")
    if values.dtype.kind == "f" and not np.isfinite(values).all():
        raise ValueError(f"{name} contains NaN or inf")
    _, first, inverse = np.unique(
        values if values.dtype.kind != "O" else values.astype(str), return_index=True, return_inverse=True
    )
    rank = np.argsort(np.argsort(first, kind="stable"), kind="stable")  # number by first appearance
    return values[np.sort(first)], rank[inverse.ravel()]


@validate_params(
    {
        "X": ["array-like"],
        "y": [None, "array-like"],
        "groups": [None, "array-like"],
        "ax": AX,
        "max_splits": POSITIVE_INT,
    }
)
def plot_splits(splitter, X, y=None, groups=None, *, ax=None, max_splits=12):
    """The mglearn-style picture of any splitter that follows scikit-learn's protocol (evallib's, or
    scikit-learn's ``KFold``, ``StratifiedKFold``, ``GroupKFold``, ``StratifiedGroupKFold``, ``TimeSeriesSplit`` ...).

    One row per split (at most ``max_splits``), one column per sample: test (red), train (blue; for the
    bootstrap, darker = drawn more often), not used (white, e.g. the future in ``TimeSeriesSplit``). Bands
    below show each sample's class (``y``) and group (``groups``), coloured by order of first appearance.
    ``y`` and ``groups`` are passed to ``splitter.split(X, y, groups)``; evallib's splitters refuse groups.

    Returns the Axes; ``ax.images[0]`` holds the split matrix (0 unused, 1-3 in training once, twice, 3+
    times, 4 test).

    >>> from sklearn.model_selection import GroupKFold
    >>> ax = plot_splits(GroupKFold(3), np.zeros(9), groups=[0, 0, 1, 1, 2, 2, 3, 3, 3])
    """
    check_labels(y, "y")
    from .._validation import check_positive_int, num_samples

    if isinstance(splitter, (str, bytes)) or not all(
        callable(getattr(splitter, a, None)) for a in ("split", "get_n_splits")
    ):
        raise TypeError(
            "splitter must follow scikit-learn's splitter protocol (split(X, y, groups) and "
            f"get_n_splits methods), got {type(splitter).__name__}"
        )
    max_splits = check_positive_int(max_splits, "max_splits")
    m = num_samples(X, "X")
    if m == 0:
        raise ValueError("X is empty: a data set with at least one sample is needed")
    bands = [
        (label, _band_codes(v, m, arg))
        for label, arg, v in (("class", "y", y), ("group", "groups", groups))
        if v is not None
    ]
    ax = get_ax(ax)
    with warnings.catch_warnings():  # the group band is drawn for any splitter; those that ignore groups warn
        warnings.filterwarnings("ignore", message="The groups parameter is ignored")
        split_iter = iter(list(itertools.islice(splitter.split(X, y, groups), max_splits + 1)))
    splits, more = [], False
    for i, (train, test) in enumerate(split_iter):
        if i == max_splits:
            more = True
            break
        train, test = np.asarray(train), np.asarray(test)
        for part, idx in (("train", train), ("test", test)):
            if idx.ndim != 1 or (idx.size and (idx.dtype.kind not in "iu" or idx.min() < 0 or idx.max() >= m)):
                raise ValueError(f"splitter yielded {part} indices that are not integers in [0, {m}) in split {i + 1}")
        splits.append((train, test))
    if not splits:
        raise ValueError(f"splitter {type(splitter).__name__} yielded no split for these {m} samples")
    n = len(splits)
    # 0: unused, 1-3: in the training set once, twice, 3+ times (bootstrap), 4: test
    cat = np.zeros((n, m), dtype=int)
    for r, (train, test) in enumerate(splits):
        cat[r] = np.minimum(np.bincount(train, minlength=m), 3)
        cat[r, test] = 4
    train_blues = ["#9cc7e8", "#5a9fd4", "#2a6fb0"]
    cmap = ListedColormap(["white", *train_blues, COLORS["red"]])
    img = ax.imshow(
        cat, aspect="auto", cmap=cmap, vmin=0, vmax=4, interpolation="nearest", extent=(-0.5, m - 0.5, n - 0.5, -0.5)
    )
    img.set_label("splits")
    handles = [Patch(color=COLORS["red"], label="test"), Patch(color=train_blues[0], label="train")]
    if (cat == 2).any() or (cat == 3).any():
        handles += [
            Patch(color=train_blues[1], label="train, drawn twice"),
            Patch(color=train_blues[2], label="train, drawn 3+ times"),
        ]
    if (cat == 0).any():
        handles.append(Patch(facecolor="white", edgecolor=COLORS["grey"], label="not used"))
    palette = [COLORS[c] for c in ("orange", "green", "purple", "yellow", "black", "grey", "sky")]  # not train blues
    row_labels = [str(i + 1) for i in range(n)]
    for j, (name, (values, codes)) in enumerate(bands):
        row = n + 0.2 + j
        colors = palette if name == "class" else [mpl_colors.to_hex(c) for c in colormaps["tab20"].colors]
        band = ax.imshow(
            codes[None, :] % len(colors),
            aspect="auto",
            interpolation="nearest",
            cmap=ListedColormap(colors),
            vmin=0,
            vmax=len(colors) - 1,
            extent=(-0.5, m - 0.5, row + 0.4, row - 0.4),
        )
        band.set_label(name)
        row_labels.append(name)
        if name == "class" and len(values) <= len(palette):
            handles += [Patch(color=palette[c], label=f"class {v}") for c, v in enumerate(values)]
    ax.set_xlim(-0.5, m - 0.5)
    ax.set_ylim(n - 0.3 + len(bands), -0.5)
    ax.set_yticks([*range(n), *(n + 0.2 + j for j in range(len(bands)))])
    ax.set_yticklabels(row_labels)
    title = type(splitter).__name__ + (f" (first {n} splits)" if more else "")
    ax.set(xlabel="sample index", ylabel="split", title=title)
    ax.grid(False)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return ax


@validate_params({"test_sizes": ["array-like"], "scores": ["array-like"], "ax": AX})
def plot_estimate_spread(test_sizes, scores, *, ax=None, ylabel="estimated error"):
    """Hold-out estimates per test-set fraction: one box per fraction (scores: fractions × repeats)."""
    test_sizes = as_finite_array(test_sizes, "test_sizes")
    scores = as_finite_array(scores, "scores", ndim=None)
    if scores.ndim != 2 or scores.shape[0] != len(test_sizes):
        raise ValueError(
            f"scores must have shape (len(test_sizes), n_repeats) = ({len(test_sizes)}, ...); got {scores.shape}"
        )
    if ((test_sizes <= 0) | (test_sizes >= 1)).any():
        raise ValueError(f"test_sizes must be fractions in (0, 1); got {test_sizes.tolist()}")
    ax = get_ax(ax)
    ax.boxplot(scores.T, positions=test_sizes, widths=0.05, showfliers=False, manage_ticks=False)
    ax.plot(test_sizes, scores.mean(axis=1), "o-", color=COLORS["red"], label="mean of the repeats")
    ax.set(xlabel="fraction of the data used for testing", ylabel=ylabel, xlim=(0, 1))
    ax.legend()
    return ax


@validate_params({"ms": ["array-like"], "simulated": [None, "array-like"], "ax": AX})
def plot_oob_fraction(ms, *, simulated=None, ax=None):
    """(1 - 1/m)^m against m on a log axis with its limit 1/e; optional simulated fractions as dots."""
    from ..splits import out_of_bag_fraction

    ms = as_finite_array(ms, "ms")
    if (ms < 1).any() or (ms != np.round(ms)).any():
        raise ValueError(f"ms must hold data set sizes (integers >= 1); got {ms.tolist()[:5]}")
    if simulated is not None:
        simulated = as_finite_array(simulated, "simulated")
        if simulated.size != ms.size or ((simulated < 0) | (simulated > 1)).any():
            raise ValueError(
                f"simulated must hold {ms.size} fractions in [0, 1], one per m; got {simulated.tolist()[:5]}"
            )
    ax = get_ax(ax)
    ax.plot(ms, [out_of_bag_fraction(int(m)) for m in ms], "-", color=COLORS["blue"], label="(1 - 1/m)^m")
    ax.axhline(np.exp(-1), color=COLORS["grey"], ls="--", label="1/e ≈ 0.368")
    if simulated is not None:
        ax.plot(ms, simulated, "o", color=COLORS["orange"], label="simulated out-of-bag fraction")
    ax.set_xscale("log")
    ax.set(xlabel="m (data set size)", ylabel="fraction never drawn", ylim=(0, 0.4))
    ax.legend(loc="lower right")
    return ax


@validate_params({"result": [CVResult], "ax": AX, "ylim": [None, "range"]})
def plot_cv_repeats(result, *, ax=None, ylabel="error", ylim=None):
    """p-times k-fold CV: each fold's score (grey), each repeat's k-fold estimate (blue), the overall mean."""
    ax = get_ax(ax)
    p, k = result.scores.shape
    reps = np.repeat(np.arange(1, p + 1), k)
    jitter = (np.tile(np.arange(k), p) - (k - 1) / 2) / max(k, 1) * 0.5
    ax.scatter(
        reps + jitter, result.scores.ravel(), s=8, color=COLORS["grey"], alpha=0.6, label="single fold", marker=DOT
    )
    ax.plot(np.arange(1, p + 1), result.repeat_means, "o", color=COLORS["blue"], ms=7, label="k-fold estimate")
    ax.axhline(result.mean, color=COLORS["red"], lw=1.2, label=f"mean of all {p * k} folds")
    ax.set(xlabel="repeat", ylabel=ylabel, xlim=(0.4, p + 0.6), title=f"{p} × {k}-fold: {p * k} fits")
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_xticks(range(1, p + 1))
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return ax
