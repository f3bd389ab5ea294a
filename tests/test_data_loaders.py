"""The loaders that replace set-up code once pasted into several chapters (el.data.load_tumours, ...), checked
against scikit-learn's own data set and an independent computation."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.tree import DecisionTreeClassifier

import evallib as el


def test_load_tumours_codes_malignant_as_positive():
    raw = load_breast_cancer()
    X, y = el.data.load_tumours()
    assert np.array_equal(X, raw.data)
    assert np.array_equal(y, (raw.target_names[raw.target] == "malignant").astype(int))
    assert int(y.sum()) == 212 and len(y) == 569  # the data set's documented class counts


def test_load_tumours_weak_features_are_the_three_named_columns():
    raw = load_breast_cancer()
    X, y = el.data.load_tumours(weak_features=True)
    names = ["mean texture", "mean smoothness", "mean fractal dimension"]
    cols = [list(raw.feature_names).index(n) for n in names]
    assert np.array_equal(X, raw.data[:, cols])
    X[0, 0] = -1.0  # a copy: the next call is unchanged
    assert el.data.load_tumours(weak_features=True)[0][0, 0] == raw.data[0, cols[0]]


@pytest.mark.parametrize("bad", [1, "yes", None])
def test_load_tumours_rejects_a_non_boolean(bad):
    with pytest.raises(TypeError, match="weak_features"):
        el.data.load_tumours(weak_features=bad)


def test_load_tumour_scores_matches_a_computation_without_pipelines():
    X, y = el.data.load_tumours(weak_features=True)
    train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
    mu, sd = X[train].mean(axis=0), X[train].std(axis=0)  # StandardScaler by hand
    lr = LogisticRegression().fit((X[train] - mu) / sd, y[train]).predict_proba((X[test] - mu) / sd)[:, 1]
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X[train], y[train]).predict_proba(X[test])[:, 1]
    y_test, scores = el.data.load_tumour_scores()
    assert np.array_equal(y_test, y[test]) and len(y_test) == 171 and int(y_test.sum()) == 64
    assert np.allclose(scores["logistic regression"], lr, rtol=0, atol=1e-9)
    assert np.array_equal(scores["decision tree (depth 3)"], tree)


def test_load_ten_melons():
    y, s = el.data.load_ten_melons()
    assert y.tolist() == [1, 1, 0, 1, 0, 1, 0, 1, 0, 0]
    assert np.all(np.diff(s) <= 0) and s[3] == s[4] == 0.70 and y[3] != y[4]  # sorted; one tie, good vs bad
    pos, neg = s[y == 1], s[y == 0]
    pairs = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    assert pairs == 5 + 5 + 3.5 + 3 + 2  # counted by hand from the table of chapter 05
    assert roc_auc_score(y, s) == pytest.approx(pairs / 25) == 0.74
