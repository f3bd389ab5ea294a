"""The course's long experiments as library calls with n_jobs: evaluation.score_table (chapter 09's learners ×
data sets study) and compare.null_rejection_rates (chapter 08's Type-I simulation). Oracles: scikit-learn's
cross_val_score on the same splits, the chapter's own nested evaluate() loop, and the sequential run.
(The same on a Dask cluster: tests/test_dask.py.)"""

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import evallib as el


def _study():
    learners = {
        "majority": DummyClassifier(),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
        "naive Bayes": GaussianNB(),
        "3-NN": KNeighborsClassifier(3),
    }
    datasets = {name: el.data.load_bundled(name) for name in ("iris", "wine")}
    rng = np.random.default_rng(1)
    X = rng.normal(size=(90, 3))
    datasets["noise"] = (X, (X[:, 0] + rng.normal(size=90) > 0).astype(int))
    return learners, datasets


def test_score_table_is_the_chapters_nested_loop_and_matches_scikit_learn():
    learners, datasets = _study()
    cv = el.splits.KFold(5, random_state=0)
    table = el.evaluation.score_table(learners, datasets, cv)
    loop = np.array(
        [[el.evaluation.evaluate(m, X, y, cv).mean() for m in learners.values()] for X, y in datasets.values()]
    )
    assert np.array_equal(table.scores, loop)  # chapter 09's code, bit for bit
    for i, (X, y) in enumerate(datasets.values()):
        splits = list(cv.split(X, y))
        for j, m in enumerate(learners.values()):
            acc = cross_val_score(m, X, y, cv=splits)
            np.testing.assert_allclose(table.split_scores[i][j], 1 - acc, rtol=0, atol=1e-12)
            assert table.scores[i, j] == pytest.approx(1 - acc.mean(), abs=1e-12)
    assert table.learners == tuple(learners) and table.datasets == tuple(datasets)
    assert table.scores.shape == (3, 4) and "3 data sets × 4 learners" in repr(table)


def test_score_table_draws_the_splits_once_per_data_set():
    """A stateful splitter (RandomState instance) would give each learner other folds if drawn per learner."""
    learners, datasets = _study()
    X, y = datasets["wine"]
    table = el.evaluation.score_table(
        learners, {"wine": (X, y)}, el.splits.KFold(5, random_state=np.random.RandomState(3))
    )
    splits = list(el.splits.KFold(5, random_state=np.random.RandomState(3)).split(X, y))
    for j, m in enumerate(learners.values()):
        assert np.array_equal(table.split_scores[0][j], el.evaluation.evaluate(m, X, y, splits))


def test_score_table_with_n_jobs_equals_the_sequential_run():
    learners, datasets = _study()
    cv = el.splits.KFold(5, n_repeats=2, random_state=0)
    seq = el.evaluation.score_table(learners, datasets, cv)
    par = el.evaluation.score_table(learners, datasets, cv, n_jobs=2)
    assert np.array_equal(seq.scores, par.scores)
    assert all(np.array_equal(a, b) for a, b in zip(seq.split_scores, par.split_scores))
    friedman = el.compare.friedman(par.scores)  # the table is compare.friedman's input
    assert friedman.mean_ranks.shape == (4,)


def test_null_rejection_rates_with_n_jobs_equals_the_sequential_run():
    seq = el.compare.null_rejection_rates(60, n_samples=60, n_resamples=5, n_folds=5, random_state=0)
    par = el.compare.null_rejection_rates(60, n_samples=60, n_resamples=5, n_folds=5, random_state=0, n_jobs=2)
    assert np.array_equal(seq.pvalues, par.pvalues) and np.array_equal(seq.rates, par.rates)


@pytest.mark.parametrize(
    "learners, datasets, match, exc",
    [
        ({}, {"d": (np.zeros((4, 1)), [0, 1, 0, 1])}, "learners is empty", ValueError),
        (
            {"x": object()},
            {"d": (np.zeros((4, 1)), [0, 1, 0, 1])},
            r"learners\['x'\] must be a scikit-learn",
            TypeError,
        ),
        ({"nb": GaussianNB()}, {}, "datasets is empty", ValueError),
        ({"nb": GaussianNB()}, {"d": np.zeros((4, 1))}, r"datasets\['d'\] must be a pair", TypeError),
        (
            {"nb": GaussianNB()},
            [("d", (np.zeros((4, 1)), [0, 1, 0, 1])), ("d", (np.zeros((4, 1)), [0, 1, 0, 1]))],
            "repeated names",
            ValueError,
        ),
        ({"nb": GaussianNB()}, 3, "datasets must be a dict", TypeError),
        ({"nb": GaussianNB()}, {"d": (np.zeros((4, 1)), [0, 1, 0])}, "X has 4, y has 3", ValueError),
    ],
)
def test_score_table_refuses_bad_input(learners, datasets, match, exc):
    with pytest.raises(exc, match=match):
        el.evaluation.score_table(learners, datasets, el.splits.KFold(2, random_state=0))
