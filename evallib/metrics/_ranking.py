"""Ranking measures: AP, MAP, DCG, NDCG, MRR."""

from __future__ import annotations

import numbers

import numpy as np

from .._validation import Interval, Options, as_1d_array, as_finite_array, check_positive_int, validate_params


# -------------------------------------------------------------------------------------- ranking
def _check_ranks(ranks, name, *, allow_inf=False, allow_empty=False):
    r = as_1d_array(ranks, name, allow_empty=allow_empty)
    if r.size == 0:
        return r.astype(float)
    if r.dtype == bool or not np.issubdtype(r.dtype, np.number):
        raise ValueError(f"{name} must hold numeric 1-based ranks, got dtype {r.dtype}")
    r = r.astype(float)
    if np.isnan(r).any() or (np.isinf(r) & ((r < 0) | (not allow_inf))).any():
        raise ValueError(f"{name} contains NaN or inf" + (" (only +inf, 'not found', is allowed)" if allow_inf else ""))
    fin = r[np.isfinite(r)]
    if (fin != np.round(fin)).any() or (fin < 1).any():
        raise ValueError(
            f"{name} must hold whole 1-based ranks (>= 1), got {r[:5].tolist()}" + ("..." if r.size > 5 else "")
        )
    return r


@validate_params({"relevant_ranks": ["array-like"], "n_relevant": [Interval(numbers.Integral, 1, None, closed="left")]})
def average_precision(relevant_ranks, n_relevant) -> float:
    """Average precision of one query: (1/n_relevant) Σ_j j / rank_j over the retrieved relevant items.

    ``relevant_ranks`` are the 1-based positions at which relevant items appear (any order, no repeats);
    ``n_relevant`` is how many relevant items exist. Relevant items never retrieved add precision 0,
    which is why the sum is divided by ``n_relevant`` and not by ``len(relevant_ranks)``.

    >>> round(average_precision([1, 3, 5], 5), 4)
    0.4533
    """
    r = np.sort(_check_ranks(relevant_ranks, "relevant_ranks", allow_empty=True))
    n = check_positive_int(n_relevant, "n_relevant")
    if len(r) > n:
        raise ValueError(
            f"relevant_ranks has {len(r)} ranks but n_relevant is {n}; n_relevant counts all relevant items"
        )
    if len(np.unique(r)) != len(r):
        raise ValueError("relevant_ranks contains a repeated rank; each position holds one item")
    return float(np.sum(np.arange(1, len(r) + 1) / r) / n)


@validate_params({"list_of_relevant_ranks": ["array-like"], "list_of_n_relevant": ["array-like"]})
def mean_average_precision(list_of_relevant_ranks, list_of_n_relevant) -> float:
    """MAP: the mean of :func:`average_precision` over queries.

    >>> round(mean_average_precision([[1, 2, 4, 7], [1, 3, 5]], [4, 5]), 4)
    0.6418
    """
    if isinstance(list_of_relevant_ranks, (str, bytes)) or not hasattr(list_of_relevant_ranks, "__len__"):
        raise ValueError("list_of_relevant_ranks must be a list with one array of ranks per query")
    ns = as_1d_array(list_of_n_relevant, "list_of_n_relevant")
    if len(list_of_relevant_ranks) != len(ns):
        raise ValueError(
            f"length mismatch: list_of_relevant_ranks has {len(list_of_relevant_ranks)} queries, "
            f"list_of_n_relevant has {len(ns)}"
        )
    if len(ns) == 0:
        raise ValueError("list_of_relevant_ranks is empty: at least one query is needed")
    aps = [average_precision(r, n) for r, n in zip(list_of_relevant_ranks, ns)]
    return float(np.mean(aps))


_GAINS = ("exponential", "linear")


def _check_relevances(relevances, name):
    rel = as_finite_array(relevances, name)
    if (rel < 0).any():
        raise ValueError(f"{name} must be >= 0 (relevance grades), got a minimum of {rel.min()}")
    return rel


def _gain(rel, gain):
    if gain not in _GAINS:
        raise ValueError(f"gain must be one of {_GAINS}, got {gain!r}")
    if gain == "exponential" and rel.size and rel.max() > 1000:  # 2^1024 is past the largest double
        raise ValueError(
            f"relevances: the exponential gain 2^rel - 1 overflows for a grade of {rel.max()!r} "
            "(grades are small integers such as 0-5); use gain='linear' for large scores"
        )
    return np.expm1(rel * np.log(2.0)) if gain == "exponential" else rel


def _dcg_sorted(rel, k, gain):
    g = _gain(rel[:k], gain)
    return float(np.sum(g / np.log2(np.arange(2, len(g) + 2))))


def _check_k(k, m):
    if k is None:
        return m
    k = check_positive_int(k, "k")
    if k > m:
        raise ValueError(f"k={k} is larger than the number of ranked items ({m})")
    return k


@validate_params(
    {
        "relevances": ["array-like"],
        "k": [None, Interval(numbers.Integral, 1, None, closed="left")],
        "gain": [Options("exponential", "linear")],
    }
)
def dcg(relevances, k=None, *, gain="exponential") -> float:
    """Discounted cumulative gain DCG@k = Σ_{i=1..k} g(rel_i) / log2(i + 1).

    ``relevances`` are the grades of the items in the order shown; ``gain`` is "exponential"
    (g = 2^rel - 1, the notes' form) or "linear" (g = rel).

    scikit-learn: ``dcg_score`` uses the linear gain: it equals ``dcg(..., gain="linear")``.

    >>> round(dcg([5, 3, 2, 1, 2]), 2)
    38.51
    """
    rel = _check_relevances(relevances, "relevances")
    return _dcg_sorted(rel, _check_k(k, len(rel)), gain)


@validate_params(
    {
        "relevances": ["array-like"],
        "k": [None, Interval(numbers.Integral, 1, None, closed="left")],
        "ideal": [None, "array-like"],
        "gain": [Options("exponential", "linear")],
    }
)
def ndcg(relevances, k=None, *, ideal=None, gain="exponential") -> float:
    """Normalised DCG: DCG@k / IDCG@k, where IDCG@k is the DCG of the best possible order.

    ``ideal`` is the pool of all relevance grades the ideal list may draw from (for example every
    relevant item in the collection, also those not shown); by default ``relevances`` itself.

    scikit-learn: ``ndcg_score`` uses the linear gain: it equals ``ndcg(..., gain="linear")``.

    >>> round(ndcg([5, 3, 2, 1, 2], ideal=[5, 3, 2, 1, 2, 4, 0]), 4)
    0.8296
    """
    rel = _check_relevances(relevances, "relevances")
    k = _check_k(k, len(rel))
    pool = rel if ideal is None else _check_relevances(ideal, "ideal")
    idcg = _dcg_sorted(np.sort(pool)[::-1], k, gain)
    if idcg == 0:
        raise ValueError("NDCG is undefined: the ideal DCG is 0 (no relevant item in the pool)")
    value = _dcg_sorted(rel, k, gain) / idcg
    if value > 1 + 1e-12:
        raise ValueError("ideal must contain every relevance grade shown (its ideal DCG is below the DCG)")
    return float(value)


@validate_params({"first_relevant_ranks": ["array-like"]})
def mrr(first_relevant_ranks) -> float:
    """Mean reciprocal rank (1/n) Σ 1/r_q over queries, r_q the 1-based rank of the first relevant answer.

    Pass ``np.inf`` for a query whose answers hold no relevant item (it adds 0).

    >>> mrr([1, 2, 4])
    0.5833333333333334
    """
    r = _check_ranks(first_relevant_ranks, "first_relevant_ranks", allow_inf=True)
    return float(np.mean(1.0 / r))


# ================================================================ beyond the book (chapter 14)
