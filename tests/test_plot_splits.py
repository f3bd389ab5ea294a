"""plots.plot_splits draws any scikit-learn-protocol splitter: the drawn cells are the split indices
(checked through the image arrays, against the splitters' own output), bands show classes and groups."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.model_selection import GroupKFold, StratifiedGroupKFold, StratifiedKFold, TimeSeriesSplit

import evallib as el
from evallib import plots

M = 30
RNG = np.random.default_rng(0)
Y = RNG.integers(0, 3, M)
GROUPS = np.repeat(np.arange(10), 3)


def _expected(splits, m):
    cat = np.zeros((len(splits), m), dtype=int)
    for r, (train, test) in enumerate(splits):
        np.add.at(cat[r], train, 1)
        cat[r] = np.minimum(cat[r], 3)
        cat[r, test] = 4
    return cat


def _image(ax, label):
    return next(im for im in ax.images if im.get_label() == label).get_array()


@pytest.mark.parametrize(
    "splitter, use_groups",
    [
        (GroupKFold(4), True),
        (StratifiedGroupKFold(3, shuffle=True, random_state=0), True),
        (TimeSeriesSplit(4), False),
        (StratifiedKFold(5), False),
        (el.splits.KFold(5, random_state=0), False),
        (el.splits.KFold(3, n_repeats=2, shuffle=True, random_state=1), False),
        (el.splits.HoldOut(0.3, n_repeats=4, random_state=0), False),
        (el.splits.Bootstrap(3, random_state=0), False),
        (el.splits.LeaveOneOut(), False),
    ],
)
def test_drawn_cells_are_the_split_indices(splitter, use_groups):
    groups = GROUPS if use_groups else None
    fig, ax = plt.subplots()
    out = plots.plot_splits(splitter, np.zeros((M, 2)), Y, groups, ax=ax)
    assert out is ax
    splits = list(splitter.split(np.zeros((M, 2)), Y, groups))[:12]
    assert np.array_equal(_image(ax, "splits"), _expected(splits, M))
    # the class band: equal codes exactly where the classes are equal, numbered by first appearance
    band = _image(ax, "class")[0]
    assert np.array_equal(band[:, None] == band[None, :], Y[:, None] == Y[None, :])
    assert band[0] == 0
    if use_groups:
        gband = _image(ax, "group")[0]
        assert np.array_equal(gband[:, None] == gband[None, :], GROUPS[:, None] == GROUPS[None, :])
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[-1] == ("group" if use_groups else "class")
    plt.close(fig)


def test_time_series_split_shows_unused_future_and_truncation_in_title():
    fig, ax = plt.subplots()
    plots.plot_splits(TimeSeriesSplit(5), np.zeros(12), ax=ax, max_splits=3)
    img = _image(ax, "splits")
    assert img.shape == (3, 12) and (img == 0).any()  # the future is not used
    assert ax.get_title() == "TimeSeriesSplit (first 3 splits)"
    assert "not used" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda ax: plots.plot_splits("KFold", np.zeros(5), ax=ax), TypeError, "splitter"),
        (lambda ax: plots.plot_splits(GroupKFold(2), np.zeros(5), ax=ax), ValueError, "groups"),
        (
            lambda ax: plots.plot_splits(el.splits.KFold(2), np.zeros(6), groups=np.arange(6), ax=ax),
            ValueError,
            "GroupKFold",
        ),
        (lambda ax: plots.plot_splits(el.splits.KFold(2), np.zeros(6), [0, 1], ax=ax), ValueError, "y has 2"),
        (lambda ax: plots.plot_splits(GroupKFold(2), np.zeros(6), groups=[0, 1, 2], ax=ax), ValueError, "groups has 3"),
        (lambda ax: plots.plot_splits(el.splits.KFold(2), np.zeros((0, 2)), ax=ax), ValueError, "empty"),
        (lambda ax: plots.plot_splits(el.splits.KFold(2), np.zeros(6), ax=ax, max_splits=0), ValueError, "max_splits"),
        (lambda ax: plots.plot_splits(el.splits.KFold(2), np.zeros(6), ax="ax"), TypeError, "ax"),
        (
            lambda ax: plots.plot_splits(el.splits.KFold(2), np.zeros(6), [0, 1, np.nan, 1, 0, 1], ax=ax),
            ValueError,
            "NaN",
        ),
    ],
)
def test_bad_input(call, exc, match):
    fig, ax = plt.subplots()
    with pytest.raises(exc, match=match):
        call(ax)
    plt.close(fig)


def test_bad_splitter_output_is_reported():
    class Broken:
        def split(self, X, y=None, groups=None):
            yield np.array([0, 1]), np.array([7])

        def get_n_splits(self, X=None, y=None, groups=None):
            return 1

    class Empty(Broken):
        def split(self, X, y=None, groups=None):
            return iter(())

    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match=r"test indices .* \[0, 3\)"):
        plots.plot_splits(Broken(), np.zeros(3), ax=ax)
    with pytest.raises(ValueError, match="no split"):
        plots.plot_splits(Empty(), np.zeros(3), ax=ax)
    plt.close(fig)
