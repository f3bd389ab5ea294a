"""Bayesian comparison with a ROPE (Benavoli et al. 2017): correlated t-test, signed-rank test."""

from __future__ import annotations

import numbers

import numpy as np
from scipy import stats

from .._validation import Interval, check_positive_int, check_random_state, validate_params
from ._checks import NONNEGATIVE, _check_pair, _check_real, _mean_std, at_least
from ._results import CorrelatedTTestResult, SignedRankResult


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "rho": [Interval(numbers.Real, 0, 1, closed="left")],
        "rope": NONNEGATIVE,
    }
)
def correlated_bayesian_ttest(scores_a, scores_b, *, rho, rope=0.0) -> CorrelatedTTestResult:
    """Correlated Bayesian t-test on one data set's k-fold scores (Corani & Benavoli 2015; Benavoli et al. 2017).

    The posterior of the mean of d = scores_b - scores_a is a Student t with n - 1 degrees of freedom,
    location mean(d) and squared scale var(d) (1/n + ρ/(1 - ρ)) — the Nadeau–Bengio correction of
    chapter 08 (ρ = 1/k for one run of k-fold CV, ρ = n_test / n_total for repeated hold-outs).
    p_left = P(d < -rope), p_rope = P(|d| <= rope), p_right = P(d > rope): the region of practical
    equivalence (ROPE) is the difference too small to matter. With ``rope=0`` p_right is one minus the
    one-sided p-value of the corrected t-test. Zero variance: the posterior is a point mass at mean(d)
    (p = 0.5/0.5 when it sits exactly at a boundary with rope 0), as in baycomp.

    Example
    -------
    >>> r = correlated_bayesian_ttest([.80, .82, .79, .81, .80], [.83, .84, .80, .84, .82], rho=0.2, rope=0.01)
    >>> round(r.p_left, 3), round(r.p_rope, 3), round(r.p_right, 3)
    (0.002, 0.047, 0.95)
    """
    a, b = _check_pair(scores_a, scores_b, minimum=2)
    rho = _check_real(rho, "rho", minimum=0.0, below=1.0)
    rope = _check_real(rope, "rope")
    d = b - a
    n = d.size
    mean, sd = _mean_std(d)
    scale = sd * float(np.sqrt(1 / n + rho / (1 - rho)))
    if scale == 0:
        if rope == 0:
            pr = float(mean > 0) + 0.5 * float(mean == 0)
            pl, pe = 1.0 - pr, 0.0
        else:
            pl, pr = float(mean < -rope), float(mean > rope)
            pe = 1.0 - pl - pr
    else:
        if rope == 0:
            pr = float(stats.t.sf(-mean / scale, n - 1))
            pl, pe = 1.0 - pr, 0.0
        else:
            pl, pr = float(stats.t.cdf((-rope - mean) / scale, n - 1)), float(stats.t.sf((rope - mean) / scale, n - 1))
            pe = max(0.0, 1.0 - pl - pr)
    return CorrelatedTTestResult(p_left=pl, p_rope=pe, p_right=pr, rope=rope, rho=rho, mean=mean, scale=scale, df=n - 1)


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "rope": NONNEGATIVE,
        "n_samples": at_least(1),
        "random_state": ["random_state"],
        "prior": [Interval(numbers.Real, 0, None, closed="neither")],
    }
)
def bayesian_signed_rank(
    scores_a, scores_b, *, rope=0.0, n_samples=50000, random_state=None, prior=0.5
) -> SignedRankResult:
    """Bayesian signed-rank test over N data sets (Benavoli, Corani, Mangili, Zaffalon & Ruggeri 2014;
    Benavoli et al. 2017).

    A Dirichlet process posterior on the distribution of d = scores_b - scores_a: weights
    w ~ Dirichlet(prior, 1, ..., 1) on the pseudo-observation z_0 = 0 and the N differences. Each draw gives
    θ_right = Σ_ij w_i w_j [z_i + z_j > 2 rope], θ_left likewise below -2 rope (a pair exactly on the
    boundary counts half), θ_rope = 1 - θ_left - θ_right; p_left, p_rope, p_right are the fractions of
    the ``n_samples`` draws in which that θ is the largest (Monte Carlo: standard error at most
    0.5/sqrt(n_samples)). ``prior`` is the weight of the pseudo-observation: 0.5 by default, the field's
    default (Benavoli et al.'s code, baycomp's ``SignedRankTest``, scmamp); the same posterior as
    ``baycomp.SignedRankTest(x, y, rope, prior=prior)``.
    Vectorised: one Dirichlet draw matrix, pair sums through a matrix product.

    Example
    -------
    >>> a = [.80, .75, .90, .85, .70, .82, .78, .88]
    >>> b = [.83, .77, .91, .86, .74, .81, .80, .90]
    >>> r = bayesian_signed_rank(a, b, rope=0.01, random_state=0)
    >>> r.p_right > 0.5 > r.p_left
    True
    """
    a, b = _check_pair(scores_a, scores_b)
    rope = _check_real(rope, "rope")
    n_samples = check_positive_int(n_samples, "n_samples")
    prior = _check_real(prior, "prior")
    if prior == 0:
        raise ValueError("prior must be > 0 (the weight of the pseudo-observation at 0), got 0.0")
    rng = check_random_state(random_state)
    z = np.concatenate([[0.0], b - a])
    sums = z[:, None] + z[None, :]
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    below = (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope)
    weights = np.ones(z.size)
    weights[0] = prior
    samples = np.empty((n_samples, 3))
    step = max(1, 2_000_000 // z.size**2)  # bounded memory for many data sets
    for start in range(0, n_samples, step):
        w = rng.dirichlet(weights, size=min(step, n_samples - start))
        sl = slice(start, start + w.shape[0])
        samples[sl, 2] = ((w @ above) * w).sum(axis=1)
        samples[sl, 0] = 1.0 - samples[sl, 2] if rope == 0 else ((w @ below) * w).sum(axis=1)
    samples[:, 1] = 0.0 if rope == 0 else 1.0 - samples[:, 0] - samples[:, 2]
    pl, pe, pr = np.bincount(samples.argmax(axis=1), minlength=3) / n_samples
    return SignedRankResult(
        p_left=float(pl),
        p_rope=float(pe),
        p_right=float(pr),
        rope=rope,
        n=int(z.size - 1),
        n_samples=n_samples,
        prior=prior,
        samples=samples,
    )
