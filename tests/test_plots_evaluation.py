"""Chapter 01–02 figures draw what they claim (checked through the artists, not pixels)."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import evallib as el
from evallib import plots


def test_plot_watermelon_draws_17_melons():
    fig, ax = plt.subplots()
    out = plots.plot_watermelon(ax=ax)
    assert out is ax
    n = sum(len(c.get_offsets()) for c in ax.collections)
    assert n == 17
    assert ax.get_xlabel() == "density"


def test_plot_splits_marks_test_folds():
    X = np.zeros(12)
    fig, ax = plt.subplots()
    plots.plot_splits(el.splits.KFold(3, random_state=0), X, ax=ax)
    img = ax.images[0].get_array()
    assert img.shape == (3, 12)
    assert np.array_equal((img == 4).sum(axis=0), np.ones(12))  # each sample tested once


def test_plot_train_test_curve_means_and_validation():
    fig, ax = plt.subplots()
    train = np.array([[0.3, 0.1], [0.1, 0.1]])
    plots.plot_train_test_curve([1, 2], train, train + 0.1, ax=ax)
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), [0.2, 0.1])
    with pytest.raises(ValueError, match="one row per value"):
        plots.plot_train_test_curve([1, 2, 3], train, train, ax=ax)


def test_plot_estimate_spread_and_oob():
    fig, ax = plt.subplots()
    plots.plot_estimate_spread([0.2, 0.5], np.array([[0.1, 0.2], [0.3, 0.5]]), ax=ax)
    red = ax.get_lines()[-1]
    np.testing.assert_allclose(red.get_ydata(), [0.15, 0.4])
    with pytest.raises(ValueError, match="shape"):
        plots.plot_estimate_spread([0.2], np.zeros((2, 3)), ax=ax)
    fig, ax = plt.subplots()
    plots.plot_oob_fraction([1, 10, 100], ax=ax)
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), [0.0, 0.9**10, 0.99**100])


def test_plot_polynomial_fit_and_default_axes():
    e = el.fitting.polynomial_experiment(10, random_state=0)
    ax = plots.plot_polynomial_fit(e, 2)  # ax=None uses the current Axes
    assert ax is plt.gca()
    with pytest.raises(ValueError, match="degree"):
        plots.plot_polynomial_fit(e, 99)
    with pytest.raises(TypeError, match="ax"):
        plots.plot_watermelon(ax="left")


def test_plot_cv_repeats_draws_every_fold():
    r = el.evaluation.cross_validation(
        __import__("sklearn.naive_bayes").naive_bayes.GaussianNB(),
        *el.data.load_bundled("iris"),
        n_splits=5,
        n_repeats=2,
        random_state=0,
    )
    fig, ax = plt.subplots()
    plots.plot_cv_repeats(r, ax=ax)
    assert len(ax.collections[0].get_offsets()) == 10
