"""evallib.plots.selection: the heat map shows the grid's scores; the cells above the ROC staircase are
ℓ_rank (式(2.21)), counted against a brute-force pair count and evallib.curves.rank_loss."""

import itertools

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402

import evallib as el  # noqa: E402


def _cells(ax):
    gids = [p.get_gid() for p in ax.patches]
    return gids.count("above"), gids.count("tie")


@pytest.mark.parametrize("seed", range(6))
def test_rank_cells_count_the_misordered_pairs(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 25))
    y = np.r_[0, 1, rng.integers(0, 2, n)]
    s = rng.integers(0, 6, len(y)) / 5  # coarse scores: many ties
    fig, ax = plt.subplots()
    el.plots.plot_rank_cells(y, s, ax=ax)
    above, tie = _cells(ax)
    pairs = list(itertools.product(s[y == 1], s[y == 0]))  # brute force over every (positive, negative) pair
    assert above == sum(n_ > p_ for p_, n_ in pairs) and tie == sum(n_ == p_ for p_, n_ in pairs)
    m = len(pairs)
    assert (above + tie / 2) / m == pytest.approx(el.curves.rank_loss(y, s), abs=1e-15)
    assert 1 - (above + tie / 2) / m == pytest.approx(roc_auc_score(y, s), abs=1e-12)  # 式(2.22), oracle
    plt.close(fig)


def test_rank_cells_lie_left_of_the_staircase():
    y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.3, 0.2, 0.1]
    fig, ax = plt.subplots()
    el.plots.plot_rank_cells(y, s, ax=ax)
    cells = [p for p in ax.patches if p.get_gid() == "above"]
    # one misordered pair: the negative 0.8 above the positives 0.7 and 0.3 -> two cells, first column
    assert len(cells) == 2 and {round(p.get_x(), 6) for p in cells} == {0.0}
    assert sorted(round(p.get_y(), 6) for p in cells) == [round(1 / 3, 6), round(2 / 3, 6)]
    plt.close(fig)


def test_rank_cells_validates():
    with pytest.raises(ValueError, match="y_true"):
        el.plots.plot_rank_cells([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="10000"):
        el.plots.plot_rank_cells(np.r_[np.zeros(101), np.ones(101)], np.arange(202.0))


def test_grid_scores_heat_map_shows_every_score_and_frames_the_best():
    s = np.array([[0.9, 0.8, 0.95], [0.95, 0.7, 0.6]])
    fig, ax = plt.subplots()
    el.plots.plot_grid_scores(s, [1, None], ["a", "b", "c"], ax=ax)
    assert np.array_equal(ax.images[0].get_array(), s)
    assert sorted(t.get_text() for t in ax.texts) == sorted(f"{v:.3f}" for v in s.ravel())
    best = sorted((p.get_x() + 0.5, p.get_y() + 0.5) for p in ax.patches if p.get_gid() == "best")
    assert best == [(0.0, 1.0), (2.0, 0.0)]  # (column, row) of both maxima
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1", "None"]
    plt.close(fig)


def test_grid_scores_validates():
    with pytest.raises(ValueError, match="row_values"):
        el.plots.plot_grid_scores(np.zeros((2, 2)), [1], [1, 2])
    with pytest.raises(ValueError, match="finite"):
        el.plots.plot_grid_scores([[np.nan]], [1], [1])
    with pytest.raises(ValueError, match="2-D"):
        el.plots.plot_grid_scores([1, 2], [1], [1, 2])


# --- evallib.plots.regression (notebook 07) ---------------------------------------------------------------


def test_outlier_effect_curves_match_the_measures_recomputed():
    rng = np.random.default_rng(3)
    t = rng.uniform(50, 300, 40)
    p = t + rng.normal(0, 20, 40)
    shifts = np.array([0.0, 100.0, 400.0])
    fig, ax = plt.subplots()
    el.plots.plot_outlier_effect(t, p, shifts, index=5, ax=ax)
    lines = {ln.get_gid(): ln.get_ydata() for ln in ax.lines if ln.get_gid()}
    q = p.copy()
    q[5] += 400
    from sklearn import metrics as skm  # oracle

    assert lines["MAE"][0] == 1 and lines["MAE"][2] == pytest.approx(
        skm.mean_absolute_error(t, q) / skm.mean_absolute_error(t, p)
    )
    assert lines["RMSE"][2] == pytest.approx(np.sqrt(skm.mean_squared_error(t, q) / skm.mean_squared_error(t, p)))
    assert lines["MAPE"][2] == pytest.approx(
        skm.mean_absolute_percentage_error(t, q) / skm.mean_absolute_percentage_error(t, p)
    )
    assert lines["RMSE"][2] > lines["MAE"][2] > 1  # squaring reacts most
    plt.close(fig)


def test_dcg_discount_bars_are_the_discount():
    fig, ax = plt.subplots()
    el.plots.plot_dcg_discount(6, ax=ax)
    heights = [b.get_height() for b in ax.patches]
    assert heights == pytest.approx([1, 1 / np.log2(3), 0.5, 1 / np.log2(5), 1 / np.log2(6), 1 / np.log2(7)])
    # the weights reproduce evallib's DCG of a 0/1 list with one relevant item at position i (linear gain)
    for i in range(6):
        rel = np.zeros(6)
        rel[i] = 1
        assert el.metrics.dcg(rel, gain="linear") == pytest.approx(heights[i])
    plt.close(fig)


def test_residual_plot_and_validation():
    fig, ax = plt.subplots()
    el.plots.plot_residuals([1.0, 2.0, 4.0], [1.5, 2.0, 3.0], highlight=2, ax=ax)
    assert np.allclose(ax.collections[0].get_offsets(), [[1.5, 0.5], [2.0, 0.0], [3.0, -1.0]])
    plt.close(fig)
    with pytest.raises(ValueError, match="highlight"):
        el.plots.plot_residuals([1.0, 2.0], [1.0, 2.0], highlight=5)
    with pytest.raises(ValueError, match="k must"):
        el.plots.plot_dcg_discount(0)
    with pytest.raises(ValueError, match="index"):
        el.plots.plot_outlier_effect([1.0, 2.0], [1.0, 2.0], [0.0, 1.0], index=2)
