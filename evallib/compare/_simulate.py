"""How often each test rejects: Type-I error and power on simulated data sets (Dietterich 1998)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from .._results import Result
from .._validation import check_positive_int, check_random_state, validate_params
from ._bayes import bayesian_signed_rank, correlated_bayesian_ttest
from ._book import paired_ttest
from ._checks import ALPHA, N_JOBS, NONNEGATIVE, _check_alpha, _check_real, at_least
from ._demsar import critical_difference, friedman, posthoc_vs_control, sign_test, wilcoxon

# ----------------------------------------------------------------------------------------------------
# How often does each test reject a true null? (notebook 08; Dietterich 1998)
# ----------------------------------------------------------------------------------------------------
# ----------------------------------------------------------------------------------------------------
# How often does each test reject a true null? (notebook 08; Dietterich 1998)
# ----------------------------------------------------------------------------------------------------
NULL_TESTS = (
    "resampled t-test",
    "corrected resampled t-test",
    "10-fold CV paired t-test",
    "McNemar",
    "5x2cv t-test (book)",
    "5x2cv t-test (Dietterich)",
    "5x2cv combined F-test",
)


@dataclass(frozen=True, repr=False)
class NullRejectionRates(Result):
    """How often each test rejected a true H0 over ``n_trials`` fresh data sets (its Type-I error rate).

    ``rates[i]`` belongs to ``tests[i]``; ``pvalues`` and ``rejections`` have shape (n_trials, n_tests).
    ``stderr`` is the binomial standard error of each rate.
    """

    tests: tuple
    rates: np.ndarray
    stderr: np.ndarray
    n_trials: int
    n_samples: int
    alpha: float
    pvalues: np.ndarray = field(repr=False)
    rejections: np.ndarray = field(repr=False)

    def as_dict(self) -> dict:
        """``{test name: rejection rate}`` in the order of ``tests``."""
        return {t: float(r) for t, r in zip(self.tests, self.rates)}


def _stump_wrong(x: np.ndarray, y: np.ndarray, train: np.ndarray) -> np.ndarray:
    """A decision stump on one feature ("x > t → class 1"), fitted on every row of ``train`` at once.

    ``train`` is a boolean (S, m) mask of S training sets. The threshold minimises the training error
    (halfway between the two training values it separates); returns the (S, m) boolean matrix of which
    of the m samples each of the S stumps misclassifies. Vectorised: one sort, cumulative sums.
    """
    m = x.size
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    tr = train[:, order]
    pos = np.cumsum(tr & (ys == 1), axis=1)  # training positives at or below sorted position i
    neg = np.cumsum(tr & (ys == 0), axis=1)
    err = pos + (neg[:, -1:] - neg)  # training errors with the threshold just above position i
    err = np.where(tr, err, np.iinfo(np.int64).max)  # thresholds only right above a training value
    err_below_all = neg[:, -1]  # threshold below every value: everything predicted 1
    i = err.argmin(axis=1)
    best = err[np.arange(len(i)), i]
    # next training value above position i (m if none): reverse running minimum of training positions
    pos_idx = np.where(tr, np.arange(m), m)
    nxt = np.minimum.accumulate(pos_idx[:, ::-1], axis=1)[:, ::-1]
    nxt = np.concatenate([nxt[:, 1:], np.full((len(i), 1), m)], axis=1)[np.arange(len(i)), i]
    upper = np.where(nxt < m, xs[np.minimum(nxt, m - 1)], np.inf)
    t = np.where(np.isfinite(upper), (xs[i] + upper) / 2, xs[i])
    t = np.where(err_below_all <= best, -np.inf, t)
    pred = x[None, :] > t[:, None]
    return pred != (y[None, :] == 1)


def _null_trial(seed, m, separation, n_resamples, n_folds):
    """One data set from the symmetric population; the error differences (A - B) every test needs.

    Returns ``(d_resampled (J,), d_cv (k,), d_5x2 (5, 2), e01, e10)``: the differences over the J random
    2/3-1/3 hold-outs, over the k folds of one k-fold CV, over 5 × 2-fold CV, and McNemar's discordant
    counts on the first hold-out. All splits are fitted in one vectorised stump call per feature.
    """
    return _trial(seed, m, separation, separation, n_resamples, n_folds, third=False)[:5]


def _trial(seed, m, separation, separation_b, n_resamples, n_folds, *, third):
    """:func:`_null_trial` with feature x2 (learner B) at ``separation_b`` and, when ``third``, a third
    learner C (a stump on a fresh feature x3 at ``separation``, drawn after everything else so the
    first five outputs are those of :func:`_null_trial` whenever ``separation_b == separation``).

    Returns the five outputs of :func:`_null_trial` and the (k, 3) fold error rates of A, B, C (C's
    column is zero when ``third`` is False).
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    X = rng.normal(size=(m, 2)) + separation * (2 * y - 1)[:, None]
    if separation_b != separation:
        X[:, 1] += (separation_b - separation) * (2 * y - 1)
    n_test = m // 3
    holdout = np.argsort(rng.random((n_resamples, m)), axis=1).argsort(axis=1) < n_test
    fold = np.empty(m, dtype=int)
    fold[rng.permutation(m)] = np.arange(m) % n_folds
    kfold = fold[None, :] == np.arange(n_folds)[:, None]
    half = np.argsort(rng.random((5, m)), axis=1).argsort(axis=1) < m // 2
    test = np.concatenate([holdout, kfold, half, ~half])  # rows of 5x2: 0-4 first halves, 5-9 second halves
    wa, wb = _stump_wrong(X[:, 0], y, ~test), _stump_wrong(X[:, 1], y, ~test)
    d = ((wa & test).sum(axis=1) - (wb & test).sum(axis=1)) / test.sum(axis=1)
    j, k = n_resamples, n_folds
    t0 = holdout[0]
    e01 = int(np.sum(wa[0] & ~wb[0] & t0))  # B right, A wrong
    e10 = int(np.sum(~wa[0] & wb[0] & t0))
    folds = np.zeros((k, 3))
    n_fold = kfold.sum(axis=1)
    folds[:, 0] = (wa[j : j + k] & kfold).sum(axis=1) / n_fold
    folds[:, 1] = (wb[j : j + k] & kfold).sum(axis=1) / n_fold
    if third:
        x3 = rng.normal(size=m) + separation * (2 * y - 1)
        folds[:, 2] = (_stump_wrong(x3, y, ~kfold) & kfold).sum(axis=1) / n_fold
    return d[:j], d[j : j + k], d[j + k :].reshape(2, 5).T, e01, e10, folds


def _mean_std_rows(d: np.ndarray):
    """Row-wise mean and sample std, exactly (value, 0) for constant rows (as :func:`_mean_std`)."""
    const = np.ptp(d, axis=1) == 0
    mean = np.where(const, d[:, 0], d.mean(axis=1))
    sd = np.where(const, 0.0, d.std(axis=1, ddof=1))
    return mean, sd


def _t_rows(mean, denom):
    """mean / denom row-wise, with 0 (no difference) or ±inf where denom is 0, as _t_from_mean_std."""
    out = np.where(mean == 0, 0.0, np.copysign(np.inf, mean))
    np.divide(mean, denom, out=out, where=denom > 0)
    return out


def _null_pvalues(diffs, test_train_ratio):
    """p-values of the seven NULL_TESTS for many trials at once (one SciPy call per test).

    The formulas are those of paired_ttest, corrected_resampled_ttest, mcnemar, ttest_5x2cv and
    combined_ftest_5x2cv; tests/test_compare.py checks that they agree trial by trial.
    """
    d_res = np.array([t[0] for t in diffs])
    d_cv = np.array([t[1] for t in diffs])
    d52 = np.array([t[2] for t in diffs])
    e01 = np.array([t[3] for t in diffs], dtype=float)
    e10 = np.array([t[4] for t in diffs], dtype=float)
    p = np.empty((len(diffs), len(NULL_TESTS)))
    j, k = d_res.shape[1], d_cv.shape[1]
    mu, sd = _mean_std_rows(d_res)
    p[:, 0] = 2 * stats.t.sf(np.abs(_t_rows(mu, sd / np.sqrt(j))), j - 1)
    p[:, 1] = 2 * stats.t.sf(np.abs(_t_rows(mu, sd * np.sqrt(1 / j + test_train_ratio))), j - 1)
    mu, sd = _mean_std_rows(d_cv)
    p[:, 2] = 2 * stats.t.sf(np.abs(_t_rows(mu, sd / np.sqrt(k))), k - 1)
    n = e01 + e10
    chi2 = np.where(n > 0, np.maximum(np.abs(e01 - e10) - 1, 0) ** 2 / np.maximum(n, 1), 0.0)
    p[:, 3] = np.where(n > 0, stats.chi2.sf(chi2, 1), 1.0)
    var = ((d52 - d52.mean(axis=2, keepdims=True)) ** 2).sum(axis=2)  # (trials, 5)
    s = np.sqrt(var.mean(axis=1))
    p[:, 4] = 2 * stats.t.sf(np.abs(_t_rows(d52[:, 0].mean(axis=1), s)), 5)
    p[:, 5] = 2 * stats.t.sf(np.abs(_t_rows(d52[:, 0, 0], s)), 5)
    f_stat = _t_rows((d52**2).sum(axis=(1, 2)), 2 * var.sum(axis=1))
    p[:, 6] = stats.f.sf(f_stat, 10, 5)
    return np.minimum(p, 1.0)


@validate_params(
    {
        "n_trials": at_least(1),
        "n_samples": at_least(20),
        "separation": NONNEGATIVE,
        "alpha": ALPHA,
        "n_resamples": at_least(2),
        "n_folds": at_least(2),
        "random_state": ["random_state"],
        "n_jobs": N_JOBS,
    }
)
def null_rejection_rates(
    n_trials=1000,
    *,
    n_samples=200,
    separation=1.0,
    alpha=0.05,
    n_resamples=30,
    n_folds=10,
    random_state=None,
    n_jobs=None,
) -> NullRejectionRates:
    """Measure each comparison test's Type-I error: how often it rejects when H0 is true (Dietterich 1998).

    Each trial draws a fresh data set of ``n_samples`` points: y ∈ {0, 1} with equal probability and two
    features x1, x2 ~ N(±``separation``, 1), independent given y. Learner A is a decision stump on x1,
    learner B the same stump on x2. The two features are exchangeable, so A and B have exactly the same
    expected error for every training-set size: H0 is true. On every data set, seven tests compare them
    (``NULL_TESTS``): the resampled t-test over ``n_resamples`` random 2/3–1/3 hold-outs, the same with
    Nadeau & Bengio's correction, the ``n_folds``-fold paired t-test, McNemar on one hold-out, the 5×2cv
    t-test in the book's and Dietterich's form and the combined 5×2cv F-test. A valid test rejects in
    about ``alpha`` of the trials.

    Trials are independent streams spawned from ``random_state``, so the result does not depend on
    ``n_jobs`` or the joblib backend: ``with joblib.parallel_config(backend="dask"):`` and ``n_jobs=-1``
    spread the trials over a Dask cluster. Taught in ``notebooks/08_hypothesis_tests.ipynb``.

    Example
    -------
    >>> r = null_rejection_rates(20, random_state=0)
    >>> r.rates.shape, r.tests[0]
    ((7,), 'resampled t-test')
    """
    n_trials = check_positive_int(n_trials, "n_trials")
    m = check_positive_int(n_samples, "n_samples", minimum=20)
    alpha = _check_alpha(alpha)
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    if n_folds > m // 2:
        raise ValueError(f"n_folds={n_folds} is too large for n_samples={m}; use at most {m // 2}")
    rng = check_random_state(random_state)
    seeds = np.random.SeedSequence(int(rng.integers(0, 2**63 - 1))).spawn(n_trials)
    args = (m, float(separation), n_resamples, n_folds)
    from joblib import Parallel, delayed, effective_n_jobs

    workers = effective_n_jobs(n_jobs)  # under parallel_config(backend="dask"): the cluster's worker threads
    if workers == 1:
        diffs = [_null_trial(s, *args) for s in seeds]
    else:
        chunks = np.array_split(np.arange(n_trials), max(1, min(n_trials, 4 * workers)))
        parts = Parallel(n_jobs=n_jobs)(delayed(_null_chunk)([seeds[i] for i in c], args) for c in chunks if len(c))
        diffs = [row for part in parts for row in part]
    n_test = m // 3
    pvals = _null_pvalues(diffs, n_test / (m - n_test))
    rej = pvals < alpha
    rates = rej.mean(axis=0)
    return NullRejectionRates(
        tests=NULL_TESTS,
        rates=rates,
        stderr=np.sqrt(rates * (1 - rates) / n_trials),
        n_trials=n_trials,
        n_samples=m,
        alpha=alpha,
        pvalues=pvals,
        rejections=rej,
    )


def _null_chunk(seeds, args):
    return [_null_trial(s, *args) for s in seeds]


# ----------------------------------------------------------------------------------------------------
# Every test of the course on the same simulated data sets: Type-I error and power (notebook 13)
# ----------------------------------------------------------------------------------------------------
ALL_TESTS = NULL_TESTS + (
    "correlated Bayesian t-test",
    "t-test over data sets",
    "sign test",
    "Wilcoxon signed-rank",
    "Bayesian signed-rank",
    "Friedman (k = 3)",
    "Friedman + Nemenyi",
    "Friedman + Holm vs control",
    "Friedman + Bonferroni-Dunn vs control",
)
_ONE_DATA_SET = len(NULL_TESTS) + 1  # the first eight tests look at one data set, the others at N


@dataclass(frozen=True, repr=False)
class RejectionRates(Result):
    """How often each test of ``ALL_TESTS`` rejected H0 ("A and B are equally good"): its Type-I error
    when ``difference`` is 0, its power otherwise.

    ``rates[i]`` belongs to ``tests[i]`` and comes from ``n_runs[i]`` runs: ``n_trials`` data sets for
    the tests on one data set, ``n_trials // n_datasets`` groups of data sets for the tests over data
    sets. ``stderr`` is each rate's binomial standard error; ``rejections[i]`` the run-by-run decisions.
    """

    tests: tuple
    rates: np.ndarray
    stderr: np.ndarray
    n_runs: np.ndarray
    difference: float
    n_datasets: int
    alpha: float
    n_trials: int = field(repr=False)
    n_samples: int = field(repr=False)
    rejections: tuple = field(repr=False)

    def as_dict(self) -> dict:
        """``{test name: rejection rate}`` in the order of ``tests``."""
        return {t: float(r) for t, r in zip(self.tests, self.rates)}


def _trial_chunk(seeds, args):
    return [_trial(s, *args, third=True) for s in seeds]


@validate_params(
    {
        "n_trials": at_least(1),
        "n_samples": at_least(20),
        "separation": NONNEGATIVE,
        "alpha": ALPHA,
        "n_resamples": at_least(2),
        "n_folds": at_least(2),
        "random_state": ["random_state"],
        "n_jobs": N_JOBS,
        "difference": NONNEGATIVE,
        "n_datasets": at_least(5),
        "bayes_samples": at_least(1),
    }
)
def rejection_rates(
    n_trials=1000,
    *,
    difference=0.0,
    n_datasets=10,
    n_samples=200,
    separation=1.0,
    alpha=0.05,
    n_resamples=30,
    n_folds=10,
    bayes_samples=4000,
    random_state=None,
    n_jobs=None,
) -> RejectionRates:
    """Type-I error (``difference=0``) or power (``difference > 0``) of every comparison test in the course,
    on the simulated data sets of :func:`null_rejection_rates` (Dietterich 1998; Demšar 2006).

    Each of the ``n_trials`` data sets is drawn as in :func:`null_rejection_rates` with the same seeds, so
    with ``difference=0`` the first seven tests give exactly its rates. Learner B's feature x2 may be
    more informative: its Bayes error Φ(-s_B) is Φ(-``separation``) − ``difference``. A third learner C
    (a stump on a fresh feature like x1) joins for the tests of k = 3 algorithms. The tests:

    - on each data set: the seven of ``NULL_TESTS`` and the correlated Bayesian t-test on the
      ``n_folds``-fold differences (ρ = 1/k, ROPE 0);
    - on each group of ``n_datasets`` consecutive data sets, with each learner's k-fold mean error as its
      score: the paired t-test over data sets, the sign test, the Wilcoxon signed-rank test and the
      Bayesian signed-rank test (ROPE 0, ``bayes_samples`` posterior draws) for A against B; and for A, B, C
      the Friedman test, then (only after Friedman rejects, as Demšar prescribes) Nemenyi, Holm and
      Bonferroni–Dunn against the control B. These count a run as rejecting when any pair differs.

    A Bayesian test "rejects" when P(left) or P(right) exceeds 1 − α/2: the two-sided error budget of
    the frequentist tests. Every decision comes from the public functions of this module.

    Example
    -------
    >>> r = rejection_rates(20, n_datasets=10, random_state=0)
    >>> len(r.tests), int(r.n_runs[0]), int(r.n_runs[-1])
    (16, 20, 2)
    """
    n_trials = check_positive_int(n_trials, "n_trials")
    n_datasets = check_positive_int(n_datasets, "n_datasets", minimum=5)
    if n_trials < n_datasets:
        raise ValueError(f"n_trials={n_trials} is smaller than n_datasets={n_datasets}: no group of data sets to test")
    m = check_positive_int(n_samples, "n_samples", minimum=20)
    separation = _check_real(separation, "separation")
    base = float(stats.norm.cdf(-separation))
    difference = _check_real(difference, "difference", below=base)
    alpha = _check_alpha(alpha)
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    if n_folds > m // 2:
        raise ValueError(f"n_folds={n_folds} is too large for n_samples={m}; use at most {m // 2}")
    bayes_samples = check_positive_int(bayes_samples, "bayes_samples")
    rng = check_random_state(random_state)
    seeds = np.random.SeedSequence(int(rng.integers(0, 2**63 - 1))).spawn(n_trials)
    sep_b = float(-stats.norm.ppf(base - difference)) if difference > 0 else separation
    args = (m, separation, sep_b, n_resamples, n_folds)
    if n_jobs in (None, 1):
        trials = _trial_chunk(seeds, args)
    else:
        from joblib import Parallel, delayed

        chunks = np.array_split(np.arange(n_trials), max(1, min(n_trials, 4 * abs(int(n_jobs)))))
        parts = Parallel(n_jobs=n_jobs)(delayed(_trial_chunk)([seeds[i] for i in c], args) for c in chunks if len(c))
        trials = [row for part in parts for row in part]
    n_test = m // 3
    rej = [(_null_pvalues([t[:5] for t in trials], n_test / (m - n_test)) < alpha).T]
    folds = np.array([t[5] for t in trials])  # (n_trials, k, 3): fold errors of A, B, C
    cut = 1 - alpha / 2
    bayes_t = np.array([max(correlated_bayesian_ttest(f[:, 0], f[:, 1], rho=1 / n_folds).probs) > cut for f in folds])
    means = folds.mean(axis=1)
    groups = means[: (n_trials // n_datasets) * n_datasets].reshape(-1, n_datasets, 3)
    over = []
    cd = critical_difference(3, n_datasets, alpha)  # Nemenyi separates some pair iff max - min mean rank > CD
    for g in groups:
        a, b = g[:, 0], g[:, 1]
        fr = friedman(g, alpha=alpha)
        post = [posthoc_vs_control(g, 1, method=mt, alpha=alpha).reject.any() for mt in ("holm", "bonferroni-dunn")]
        over.append(
            [
                paired_ttest(a, b, alpha=alpha).reject,
                sign_test(a, b, alpha=alpha).reject,
                wilcoxon(a, b, alpha=alpha).reject,
                max(bayesian_signed_rank(a, b, n_samples=bayes_samples, random_state=rng).probs) > cut,
                fr.reject,
                fr.reject and bool(np.ptp(fr.mean_ranks) > cd),
                fr.reject and post[0],
                fr.reject and post[1],
            ]
        )
    over = np.array(over, dtype=bool).T
    rejections = tuple(rej[0]) + (bayes_t,) + tuple(over)
    rates = np.array([r.mean() for r in rejections])
    n_runs = np.array([r.size for r in rejections])
    return RejectionRates(
        tests=ALL_TESTS,
        rates=rates,
        stderr=np.sqrt(rates * (1 - rates) / n_runs),
        n_runs=n_runs,
        difference=difference,
        n_datasets=n_datasets,
        alpha=alpha,
        n_trials=n_trials,
        n_samples=m,
        rejections=rejections,
    )
