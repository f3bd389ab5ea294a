"""evallib.splits: partitions, sizes, stratification, reproducibility, scikit-learn interoperability."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import LeaveOneOut as SkLOO
from sklearn.model_selection import cross_val_score
from sklearn.naive_bayes import GaussianNB

import evallib as el
from evallib.splits import Bootstrap, HoldOut, KFold, LeaveOneOut, out_of_bag_fraction


def labels(counts):
    return np.repeat(np.arange(len(counts)), counts)


# ---------------------------------------------------------------- k-fold
@settings(max_examples=80, deadline=None)
@given(
    counts=st.lists(st.integers(1, 40), min_size=1, max_size=4),
    k=st.integers(2, 12),
    seed=st.integers(0, 10_000),
    stratify=st.booleans(),
    shuffle=st.booleans(),
    p=st.integers(1, 3),
)
def test_kfold_partitions_and_balances(counts, k, seed, stratify, shuffle, p):
    y = labels(counts)
    m = len(y)
    seed, p = (seed, p) if shuffle else (None, 1)
    kf = KFold(k, n_repeats=p, stratify=stratify, shuffle=shuffle, random_state=seed)
    if k > m:
        with pytest.raises(ValueError, match="n_splits"):
            list(kf.split(np.zeros(m), y))
        return
    if stratify and max(counts) < k:
        with pytest.raises(ValueError, match="n_splits=.* cannot be greater than the number of members in each class"):
            list(kf.split(np.zeros(m), y))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # classes smaller than k: tested below
        splits = list(kf.split(np.zeros(m), y))
    assert len(splits) == k * p
    for r in range(p):
        rep = splits[r * k : (r + 1) * k]
        tests = np.concatenate([te for _, te in rep])
        # every sample in exactly one test fold per repeat
        assert np.array_equal(np.sort(tests), np.arange(m))
        for train, test in rep:
            assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(m))
            assert np.intersect1d(train, test).size == 0
        sizes = [len(te) for _, te in rep]
        assert max(sizes) - min(sizes) <= 1
        if stratify:
            per_class = np.array([np.bincount(y[te], minlength=len(counts)) for _, te in rep])
            assert (per_class.max(axis=0) - per_class.min(axis=0) <= 1).all()


def test_kfold_sizes_match_sklearn_unstratified_unshuffled():
    from sklearn.model_selection import KFold as SkKFold

    X = np.zeros(23)
    ours = [te.tolist() for _, te in KFold(5, stratify=False, shuffle=False).split(X)]
    theirs = [te.tolist() for _, te in SkKFold(5).split(X)]
    assert ours == theirs


def test_kfold_reproducible_and_seed_sensitive():
    X, y = np.zeros(50), labels([20, 30])
    a = [te.tolist() for _, te in KFold(5, random_state=3).split(X, y)]
    b = [te.tolist() for _, te in KFold(5, random_state=3).split(X, y)]
    c = [te.tolist() for _, te in KFold(5, random_state=4).split(X, y)]
    assert a == b and a != c
    # a Generator is consumed: two calls give different folds, a fresh one with the same seed the same
    g = np.random.default_rng(3)
    assert KFold(5, random_state=g).fold_ids(X, y).tolist() != KFold(5, random_state=g).fold_ids(X, y).tolist()


def test_kfold_repeats_differ():
    ids = KFold(5, n_repeats=3, random_state=0).fold_ids(np.zeros(40), labels([20, 20]))
    assert ids.shape == (3, 40)
    assert not np.array_equal(ids[0], ids[1])


def test_kfold_continuous_target_is_not_stratified_but_partitions():
    y = np.linspace(0, 1, 30) + 0.001
    splits = list(KFold(3, random_state=0).split(np.zeros(30), y))
    assert sorted(np.concatenate([te for _, te in splits]).tolist()) == list(range(30))


def test_kfold_get_n_splits_and_repr():
    kf = KFold(10, n_repeats=5)
    assert kf.get_n_splits() == 50
    assert repr(kf).startswith("KFold(n_splits=10, n_repeats=5")


def test_kfold_works_as_sklearn_cv():
    X, y = el.data.load_bundled("breast_cancer")
    kf = KFold(5, n_repeats=2, random_state=0)
    sk = cross_val_score(GaussianNB(), X, y, cv=kf, scoring="accuracy")
    ours = 1 - el.evaluation.evaluate(GaussianNB(), X, y, kf)
    np.testing.assert_allclose(sk, ours, rtol=0, atol=1e-15)
    assert len(sk) == 10


# ---------------------------------------------------------------- hold-out
@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(2, 60), min_size=2, max_size=4), frac=st.floats(0.05, 0.95), seed=st.integers(0, 10_000)
)
def test_holdout_stratified_proportions(counts, frac, seed):
    y = labels(counts)
    m = len(y)
    n_test = math.ceil(frac * m)
    if not 1 <= n_test <= m - 1:
        return
    train, test = next(HoldOut(frac, random_state=seed).split(np.zeros(m), y))
    assert len(test) == n_test and len(train) == m - n_test
    assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(m))
    # each class's test count is its proportional share, rounded to a neighbouring integer
    share = n_test * np.array(counts) / m
    got = np.bincount(y[test], minlength=len(counts))
    assert (np.abs(got - share) < 1).all()


def test_holdout_book_example_sizes():
    # 1000 samples, 500 + 500: 70/30 stratified -> 350/350 train, 150/150 test (西瓜书 §2.2.1)
    y = labels([500, 500])
    train, test = next(HoldOut(0.3, random_state=0).split(np.zeros(1000), y))
    assert np.bincount(y[test]).tolist() == [150, 150]
    assert np.bincount(y[train]).tolist() == [350, 350]


def test_holdout_repeats_differ_and_reproduce():
    y = labels([30, 30])
    a = HoldOut(0.3, n_repeats=4, random_state=1).test_masks(np.zeros(60), y)
    b = HoldOut(0.3, n_repeats=4, random_state=1).test_masks(np.zeros(60), y)
    assert np.array_equal(a, b)
    assert len({tuple(r) for r in a}) == 4
    assert HoldOut(n_repeats=4).get_n_splits() == 4


def test_holdout_integer_test_size_and_unstratified():
    train, test = next(HoldOut(5, stratify=False, random_state=0).split(np.zeros(12)))
    assert len(test) == 5 and len(train) == 7


def test_holdout_stratified_test_sets_are_uniform_within_class():
    # each of the 10 samples of class 0 should be in the test set about 30 % of the time
    y = labels([10, 10])
    masks = HoldOut(0.3, n_repeats=4000, random_state=0).test_masks(np.zeros(20), y)
    freq = masks.mean(axis=0)
    assert np.all(np.abs(freq - 0.3) < 0.035)


# ---------------------------------------------------------------- leave-one-out
def test_loo_matches_sklearn_and_kfold_with_k_equal_m():
    X = np.zeros((7, 2))
    ours = [(tr.tolist(), te.tolist()) for tr, te in LeaveOneOut().split(X)]
    theirs = [(tr.tolist(), te.tolist()) for tr, te in SkLOO().split(X)]
    assert ours == theirs
    assert LeaveOneOut().get_n_splits(X) == 7
    k_eq_m = sorted(te.tolist() for _, te in KFold(7, stratify=False).split(X))
    assert k_eq_m == [[i] for i in range(7)]


# ---------------------------------------------------------------- bootstrap
def test_bootstrap_train_is_m_draws_and_test_is_out_of_bag():
    m = 200
    for train, test in Bootstrap(5, random_state=0).split(np.zeros(m)):
        assert len(train) == m
        assert np.intersect1d(train, test).size == 0
        assert np.array_equal(np.union1d(train, test), np.arange(m))


def test_bootstrap_oob_fraction_converges_to_formula():
    m = 50
    draws = Bootstrap(4000, random_state=1).draws(np.zeros(m))
    oob = np.mean([m - np.unique(d).size for d in draws]) / m
    # the expected out-of-bag fraction is exactly (1 - 1/m)^m; Monte Carlo error here is ~0.001
    assert abs(oob - (1 - 1 / m) ** m) < 0.004


def test_out_of_bag_fraction_formula_and_limit():
    assert out_of_bag_fraction(1) == 0.0
    assert out_of_bag_fraction(2) == pytest.approx(0.25, abs=1e-15)
    assert out_of_bag_fraction(10) == pytest.approx(0.9**10, rel=1e-14)
    assert out_of_bag_fraction(10**9) == pytest.approx(math.exp(-1), rel=1e-8)
    values = [out_of_bag_fraction(m) for m in (2, 5, 10, 100, 1000)]
    assert values == sorted(values)  # increases towards 1/e


def test_bootstrap_never_returns_empty_test_set():
    # m = 2: both samples drawn with probability 1/2; the splitter must redraw
    for _, test in Bootstrap(200, random_state=0).split(np.zeros(2)):
        assert len(test) >= 1


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "make, exc, match",
    [
        (lambda: KFold(1), ValueError, "n_splits"),
        (lambda: KFold(2.5), TypeError, "n_splits"),
        (lambda: KFold(5, n_repeats=0), ValueError, "n_repeats"),
        (lambda: KFold(5, n_repeats=2, shuffle=False), ValueError, "shuffle"),
        (lambda: HoldOut(0.0), ValueError, "test_size"),
        (lambda: HoldOut(1.0), ValueError, "test_size"),
        (lambda: HoldOut(-3), ValueError, "test_size"),
        (lambda: HoldOut("0.3"), TypeError, "test_size"),
        (lambda: HoldOut(0.3, n_repeats=0), ValueError, "n_repeats"),
        (lambda: Bootstrap(0), ValueError, "n_repeats"),
        (lambda: KFold(5, random_state="seed"), TypeError, "random_state"),
        (lambda: KFold(5, random_state=-1), ValueError, "random_state"),
    ],
)
def test_bad_constructor_arguments(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


@pytest.mark.parametrize("splitter", [KFold(3), HoldOut(0.3), LeaveOneOut(), Bootstrap()])
def test_bad_data(splitter):
    with pytest.raises(ValueError, match="empty"):
        list(splitter.split(np.zeros((0, 2))))
    with pytest.raises(ValueError, match="length mismatch"):
        list(splitter.split(np.zeros(10), np.zeros(9)))


def test_k_larger_than_m_and_tiny_sets():
    with pytest.raises(ValueError, match="n_splits=11 is larger than the number of samples"):
        list(KFold(11).split(np.zeros(10)))
    with pytest.raises(ValueError, match="test_size"):
        list(HoldOut(0.99).split(np.zeros(10)))  # ceil(9.9) = 10 test samples leave no training set
    with pytest.raises(ValueError, match="at least 2"):
        list(LeaveOneOut().split(np.zeros(1)))
    with pytest.raises(ValueError, match="at least 2"):
        list(Bootstrap().split(np.zeros(1)))
    with pytest.raises(ValueError, match="X is needed"):
        LeaveOneOut().get_n_splits()


def test_stratify_rejects_nan_labels():
    with pytest.raises(ValueError, match="NaN"):
        list(KFold(2).split(np.zeros(4), [0.0, 1.0, np.nan, 1.0]))


def test_all_stratified_splits_count_exercise_2_1():
    # Exercise 2.1: 1000 samples (500 +, 500 -), 70 % train / 30 % test, stratified:
    # the number of different test sets is C(500, 150)^2. Check the counting rule by brute force on a small case.
    y = labels([4, 4])
    seen = {
        tuple(np.flatnonzero(mask)) for mask in HoldOut(0.5, n_repeats=3000, random_state=0).test_masks(np.zeros(8), y)
    }
    assert len(seen) == math.comb(4, 2) ** 2  # every stratified split appears, no other
    assert all(sum(i < 4 for i in s) == 2 for s in seen)


def test_simulate_oob_fraction_against_formula_and_brute_force():
    from evallib.splits import simulate_oob_fraction

    for m in (2, 5, 30):
        f = simulate_oob_fraction(m, 20_000, random_state=m)
        # standard error of the mean is below 0.002 here
        assert abs(f.mean() - out_of_bag_fraction(m)) < 0.008
    # brute force for one repeat: same generator, count the never-drawn samples directly
    rng = np.random.default_rng(7)
    draws = rng.integers(0, 10, size=(1, 10))
    expected = 1 - len(set(draws[0].tolist())) / 10
    assert simulate_oob_fraction(10, 1, random_state=7)[0] == expected
    with pytest.raises(ValueError, match="m"):
        simulate_oob_fraction(0)
    with pytest.raises(ValueError, match="n_repeats"):
        simulate_oob_fraction(5, 0)


# ---------------------------------------------------------------- issue 21: behave like scikit-learn's splitters
# Class patterns: y as a list of class indices; a relabelling maps them to other names (ints in another order,
# strings, large or negative ints), which must not change any partition.
patterns = st.lists(st.integers(0, 3), min_size=2, max_size=60)
NAMINGS = [
    lambda c: 3 - c,  # reversed order of the same integers
    lambda c: ["d", "b", "a", "c"][c],  # strings in another sorted order
    lambda c: [10**6, -5, 7, 0][c],  # far apart integers (the general, sorting path)
    lambda c: [2.0, 1.0, 0.0, 3.0][c],  # whole floats
]


def _fold_ids_quiet(splitter, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return splitter.fold_ids(X, y)


@settings(max_examples=80, deadline=None)
@given(
    pattern=patterns,
    k=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    shuffle=st.booleans(),
    naming=st.sampled_from(range(len(NAMINGS))),
)
def test_kfold_invariant_to_relabelling_the_classes(pattern, k, seed, shuffle, naming):
    y = np.array(pattern)
    renamed = np.array([NAMINGS[naming](c) for c in pattern])
    X = np.zeros(len(y))
    counts = np.bincount(y)
    if k > len(y) or counts.max() < k:
        return
    state = seed if shuffle else None
    a = _fold_ids_quiet(KFold(k, n_repeats=2 if shuffle else 1, shuffle=shuffle, random_state=state), X, y)
    b = _fold_ids_quiet(KFold(k, n_repeats=2 if shuffle else 1, shuffle=shuffle, random_state=state), X, renamed)
    assert np.array_equal(a, b)


@settings(max_examples=60, deadline=None)
@given(
    pattern=patterns, frac=st.floats(0.1, 0.9), seed=st.integers(0, 10_000), naming=st.sampled_from(range(len(NAMINGS)))
)
def test_holdout_invariant_to_relabelling_the_classes(pattern, frac, seed, naming):
    y = np.array(pattern)
    renamed = np.array([NAMINGS[naming](c) for c in pattern])
    if not 1 <= math.ceil(frac * len(y)) <= len(y) - 1:
        return
    a = HoldOut(frac, n_repeats=3, random_state=seed).test_masks(np.zeros(len(y)), y)
    b = HoldOut(frac, n_repeats=3, random_state=seed).test_masks(np.zeros(len(y)), renamed)
    assert np.array_equal(a, b)


def test_issue_21_relabelling_example():
    # the issue's example: same data, classes renamed, must give the same partition (seeded and unshuffled)
    for kw in (dict(random_state=0), dict(shuffle=False)):
        a = [te.tolist() for _, te in KFold(2, **kw).split(np.zeros(6), [0, 0, 0, 1, 1, 1])]
        b = [te.tolist() for _, te in KFold(2, **kw).split(np.zeros(6), [1, 1, 1, 0, 0, 0])]
        assert a == b


@settings(max_examples=80, deadline=None)
@given(pattern=patterns, k=st.integers(2, 6))
def test_unshuffled_stratified_keeps_within_class_order(pattern, k):
    # each class fills its folds in contiguous blocks, in data order: along a class, fold numbers never decrease
    y = np.array(pattern)
    if k > len(y) or np.bincount(y).max() < k:
        return
    ids = _fold_ids_quiet(KFold(k, shuffle=False), np.zeros(len(y)), y)[0]
    for c in np.unique(y):
        assert (np.diff(ids[y == c]) >= 0).all()


@settings(max_examples=120, deadline=None)
@given(pattern=patterns, k=st.integers(2, 8), naming=st.sampled_from(range(len(NAMINGS))))
def test_unshuffled_stratified_equals_sklearn_stratified_kfold(pattern, k, naming):
    """Oracle: scikit-learn's StratifiedKFold. For class labels y (binary or multi-class), 2 <= k <= m and at least
    one class with k or more members, KFold(k, shuffle=False) gives exactly StratifiedKFold(k)'s test folds, in
    the same order, including its small-class warning; when every class is smaller than k both refuse. The two
    allocate per-class counts by the same deal, so the book's balance rule never forces a difference."""
    from sklearn.model_selection import StratifiedKFold

    y = np.array([NAMINGS[naming](c) for c in pattern])
    X = np.zeros(len(y))
    if k > len(y):
        return
    with warnings.catch_warnings(record=True) as w_sk:
        warnings.simplefilter("always")
        try:
            theirs = [te.tolist() for _, te in StratifiedKFold(k).split(X, y)]
        except ValueError as e:
            theirs = e
    with warnings.catch_warnings(record=True) as w_el:
        warnings.simplefilter("always")
        try:
            ours = [te.tolist() for _, te in KFold(k, shuffle=False).split(X, y)]
        except ValueError as e:
            ours = e
    if isinstance(theirs, ValueError):
        assert isinstance(ours, ValueError) and str(ours).startswith(str(theirs).rstrip("."))
        return
    assert ours == theirs
    assert [str(x.message) for x in w_el] == [str(x.message) for x in w_sk]


@settings(max_examples=60, deadline=None)
@given(pattern=patterns, k=st.integers(2, 8), seed=st.integers(0, 10_000))
def test_shuffled_stratified_counts_equal_sklearn(pattern, k, seed):
    # shuffled: another random stream than scikit-learn's, but the same per-fold, per-class counts
    from sklearn.model_selection import StratifiedKFold

    y = np.array(pattern)
    if k > len(y) or np.bincount(y).max() < k:
        return
    X = np.zeros(len(y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = [np.bincount(y[te], minlength=4) for _, te in KFold(k, random_state=seed).split(X, y)]
        theirs = [
            np.bincount(y[te], minlength=4) for _, te in StratifiedKFold(k, shuffle=True, random_state=seed).split(X, y)
        ]
    assert np.array_equal(ours, theirs)


@settings(max_examples=60, deadline=None)
@given(m=st.integers(2, 80), k=st.integers(2, 10), continuous=st.booleans())
def test_unstratified_unshuffled_equals_sklearn_kfold(m, k, continuous):
    from sklearn.model_selection import KFold as SkKFold

    if k > m:
        return
    X = np.zeros(m)
    y = np.linspace(0, 1, m) + 0.001 if continuous else None  # a continuous y is not stratified
    ours = [te.tolist() for _, te in KFold(k, stratify=continuous, shuffle=False).split(X, y)]
    assert ours == [te.tolist() for _, te in SkKFold(k).split(X)]


def test_issue_21_unshuffled_stratified_example():
    from sklearn.model_selection import StratifiedKFold

    X, y = np.ones(8), [0, 1] * 4
    ours = [t.tolist() for _, t in KFold(3, shuffle=False).split(X, y)]
    assert ours == [[0, 1, 2], [3, 4, 5], [6, 7]]
    assert ours == [t.tolist() for _, t in StratifiedKFold(3).split(X, y)]


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(shuffle=None), TypeError, "shuffle must be True or False; got None"),
        (dict(shuffle=1), TypeError, "shuffle must be True or False"),
        (dict(shuffle="no"), TypeError, "shuffle"),
        (dict(shuffle=False, random_state=0), ValueError, "random_state=0 has no effect since shuffle is False"),
        (dict(stratify=None), TypeError, "stratify must be True or False"),
    ],
)
def test_shuffle_and_seed_validation_like_sklearn(kwargs, exc, match):
    from sklearn.model_selection import KFold as SkKFold

    with pytest.raises(exc, match=match):
        KFold(4, **kwargs)
    if "shuffle" in kwargs:  # scikit-learn refuses the same arguments, with the same exception type
        with pytest.raises(exc):
            SkKFold(4, **kwargs)


def test_shuffle_false_without_seed_and_numpy_bool_accepted():
    assert KFold(4, shuffle=False).shuffle is False
    assert KFold(4, shuffle=np.bool_(True), random_state=0).shuffle is True
    with pytest.raises(TypeError, match="stratify"):
        HoldOut(0.3, stratify="yes")


def test_small_class_warning_and_error_match_sklearn():
    from sklearn.model_selection import StratifiedKFold

    X, y = np.zeros(12), [0] * 10 + [1] * 2
    with pytest.warns(UserWarning) as ours:
        list(KFold(3, random_state=0).split(X, y))
    with pytest.warns(UserWarning) as theirs:
        list(StratifiedKFold(3).split(X, y))
    assert (
        str(ours[0].message)
        == str(theirs[0].message)
        == "The least populated class in y has only 2 members, which is less than n_splits=3."
    )
    assert ours[0].filename == __file__  # points at the caller, not at evallib
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning when every class has k members or more
        list(KFold(2, random_state=0).split(X, y))
        list(KFold(3, stratify=False, random_state=0).split(X, y))
    with pytest.raises(ValueError, match=r"^n_splits=3 cannot be greater than the number of members in each class"):
        list(KFold(3, random_state=0).split(np.zeros(4), [0, 0, 1, 1]))


# ---------------------------------------------------------------- groups are refused (issue 18)
GROUPS = np.repeat(np.arange(5), 4)


@pytest.mark.parametrize(
    "splitter", [HoldOut(0.3, random_state=0), KFold(3, random_state=0), LeaveOneOut(), Bootstrap(2, random_state=0)]
)
def test_splitters_refuse_groups_naming_sklearn_group_splitters(splitter):
    X, y = np.zeros(20), labels([10, 10])
    for call in (
        lambda: splitter.split(X, y, GROUPS),
        lambda: splitter.split(X, y, groups=GROUPS),
        lambda: splitter.get_n_splits(X, y, GROUPS),
    ):
        with pytest.raises(ValueError, match="groups") as e:
            call()  # at once, not at the first split
        assert all(name in str(e.value) for name in ("GroupKFold", "StratifiedGroupKFold", "TimeSeriesSplit"))
    # through scikit-learn: with groups the error reaches the caller, without groups everything works
    with pytest.raises(ValueError, match="StratifiedGroupKFold"):
        cross_val_score(GaussianNB(), X[:, None], y, groups=GROUPS, cv=splitter)
    scores = cross_val_score(GaussianNB(), X[:, None] + y[:, None], y, cv=splitter)
    assert len(scores) == splitter.get_n_splits(X) and np.all(scores == 1.0)


def test_grid_search_accepts_evallib_splitter():
    from sklearn.model_selection import GridSearchCV

    X, y = el.data.load_bundled("breast_cancer")
    kf = KFold(3, random_state=0)
    gs = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9, 1e-3]}, cv=kf).fit(X, y)
    expected = [cross_val_score(GaussianNB(var_smoothing=v), X, y, cv=kf).mean() for v in (1e-9, 1e-3)]
    np.testing.assert_allclose(gs.cv_results_["mean_test_score"], expected, rtol=0, atol=1e-15)


def test_out_of_bag_fraction_for_huge_m():
    """(1 - 1/m)^m = exp(m log(1 - 1/m)) -> 1/e: exact fractions for small m, the limit for m past a double."""
    from fractions import Fraction

    for m in (2, 3, 10, 37):
        assert el.splits.out_of_bag_fraction(m) == pytest.approx(float((1 - Fraction(1, m)) ** m), rel=1e-14)
    assert el.splits.out_of_bag_fraction(10**12) == pytest.approx(math.exp(-1), rel=1e-11)
    for m in (2**53, 10**30, 10**400):
        assert el.splits.out_of_bag_fraction(m) == math.exp(-1)
