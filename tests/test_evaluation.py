"""evallib.evaluation: the scoring loop against scikit-learn's, CV summaries, complexity curves."""

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression
from sklearn.metrics import make_scorer
from sklearn.model_selection import cross_val_score, validation_curve
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import evallib as el
from evallib.evaluation import complexity_curve, cross_validation, evaluate
from evallib.splits import Bootstrap, HoldOut, KFold, LeaveOneOut


@pytest.fixture(scope="module")
def cancer():
    return el.data.load_bundled("breast_cancer")


def test_evaluate_equals_cross_val_score(cancer):
    X, y = cancer
    kf = KFold(7, n_repeats=2, random_state=5)
    ours = evaluate(DecisionTreeClassifier(max_depth=3, random_state=0), X, y, kf, el.metrics.accuracy)
    theirs = cross_val_score(DecisionTreeClassifier(max_depth=3, random_state=0), X, y, cv=kf)
    np.testing.assert_array_equal(ours, theirs)


def test_evaluate_parallel_equals_serial(cancer):
    X, y = cancer
    kf = KFold(5, random_state=0)
    a = evaluate(GaussianNB(), X, y, kf, n_jobs=1)
    b = evaluate(GaussianNB(), X, y, kf, n_jobs=2)
    np.testing.assert_array_equal(a, b)


def test_evaluate_clones_the_model(cancer):
    X, y = cancer
    model = GaussianNB()
    evaluate(model, X, y, HoldOut(random_state=0))
    assert not hasattr(model, "classes_")  # the caller's estimator stays unfitted


def test_evaluate_scores_and_regression(cancer):
    X, y = cancer
    auc = evaluate(
        GaussianNB(),
        X,
        y,
        KFold(3, random_state=0),
        lambda t, s: float(np.mean(s[t == 1] > 0.5)),
        response="predict_proba",
    )
    assert auc.shape == (3,) and np.all((auc >= 0) & (auc <= 1))
    Xr, yr = el.data.load_bundled("diabetes")
    mse = evaluate(LinearRegression(), Xr, yr, KFold(5, random_state=0), el.metrics.mse)
    theirs = -cross_val_score(LinearRegression(), Xr, yr, cv=KFold(5, random_state=0), scoring="neg_mean_squared_error")
    np.testing.assert_allclose(mse, theirs, rtol=1e-12)


def test_exercise_2_2_majority_learner():
    # 西瓜书 exercise 2.2: 100 balanced samples, a majority-class learner.
    X, y = el.data.make_majority_trap(100)
    cv10 = evaluate(DummyClassifier(strategy="most_frequent"), X, y, KFold(10, random_state=0))
    loo = evaluate(DummyClassifier(strategy="most_frequent"), X, y, LeaveOneOut())
    # 10-fold stratified: training folds are 45/45, the tie goes to class 0, each test fold is 5/5 -> 50 %
    assert cv10.mean() == 0.5
    # leave-one-out: the held-out sample's class is the minority of the other 99 -> always wrong
    assert loo.mean() == 1.0 and len(loo) == 100


def test_cross_validation_summary(cancer):
    X, y = cancer
    r = cross_validation(GaussianNB(), X, y, n_splits=5, n_repeats=3, random_state=0)
    raw = evaluate(GaussianNB(), X, y, KFold(5, n_repeats=3, random_state=0)).reshape(3, 5)
    np.testing.assert_array_equal(r.scores, raw)
    assert r.mean == pytest.approx(raw.mean(), abs=1e-15)
    assert r.repeat_std == pytest.approx(np.std(raw.mean(axis=1), ddof=1), abs=1e-15)
    assert r.n_fits == 15
    assert "p=3, k=5" in repr(r)
    with pytest.raises(AttributeError):  # frozen (dataclasses.FrozenInstanceError)
        r.mean = 0


def test_complexity_curve_matches_validation_curve(cancer):
    X, y = cancer
    kf = KFold(4, random_state=0)
    depths = [1, 3, 8]
    c = complexity_curve(DecisionTreeClassifier(random_state=0), "max_depth", depths, X, y, kf)
    scorer = make_scorer(el.metrics.error_rate)
    tr, te = validation_curve(
        DecisionTreeClassifier(random_state=0), X, y, param_name="max_depth", param_range=depths, cv=kf, scoring=scorer
    )
    np.testing.assert_array_equal(c.train, tr)
    np.testing.assert_array_equal(c.test, te)
    assert c.train_mean[-1] < c.train_mean[0]  # training error falls with depth


def test_bootstrap_estimate_near_cv(cancer):
    X, y = cancer
    boot = evaluate(GaussianNB(), X, y, Bootstrap(30, random_state=0)).mean()
    cv = evaluate(GaussianNB(), X, y, KFold(10, random_state=0)).mean()
    assert abs(boot - cv) < 0.03


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(model="tree"), TypeError, "model"),
        (dict(metric="accuracy"), TypeError, "metric"),
        (dict(response="predict_log"), ValueError, "response"),
        (dict(splitter=5), TypeError, "splitter"),
        (dict(y=np.zeros(3)), ValueError, "length mismatch"),
        (dict(splitter=[]), ValueError, "no splits"),
        (dict(splitter=[(np.array([], dtype=int), np.array([0]))]), ValueError, "empty"),
        (dict(splitter=[(np.array([0]), np.array([99]))]), ValueError, "beyond"),
        (dict(X=np.zeros(10)), ValueError, "2-D"),
    ],
)
def test_evaluate_bad_input(kwargs, exc, match):
    args = dict(
        model=GaussianNB(), X=np.zeros((10, 2)), y=np.repeat([0, 1], 5), splitter=KFold(2), metric=el.metrics.error_rate
    )
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        evaluate(
            args["model"],
            args["X"],
            args["y"],
            args["splitter"],
            args["metric"],
            **({"response": args["response"]} if "response" in args else {}),
        )


def test_evaluate_empty_and_missing_method():
    with pytest.raises(ValueError, match="empty"):
        evaluate(GaussianNB(), np.zeros((0, 2)), np.zeros(0), KFold(2))
    with pytest.raises(TypeError, match="decision_function"):
        evaluate(GaussianNB(), np.zeros((4, 1)), [0, 1, 0, 1], KFold(2), response="decision_function")


def test_complexity_curve_bad_input():
    X, y = np.zeros((10, 1)), np.repeat([0, 1], 5)
    with pytest.raises(ValueError, match="param_name"):
        complexity_curve(GaussianNB(), "max_depth", [1], X, y, KFold(2))
    with pytest.raises(ValueError, match="values"):
        complexity_curve(DecisionTreeClassifier(), "max_depth", [], X, y, KFold(2))
    with pytest.raises(ValueError, match="length mismatch"):
        complexity_curve(DecisionTreeClassifier(), "max_depth", [1], X, y[:3], KFold(2))


def test_cross_validation_bad_input():
    with pytest.raises(ValueError, match="n_splits"):
        cross_validation(GaussianNB(), np.zeros((4, 1)), [0, 1, 0, 1], n_splits=5)
