#!/usr/bin/env python
"""Write notebooks/08_hypothesis_tests.ipynb and notebooks/09_friedman_nemenyi.ipynb (text and code only).

    .venv/bin/python scripts/make_nb_08_09.py [08|09]
    make regen NB=notebooks/09_friedman_nemenyi.ipynb     # then execute and store the outputs

This script is the editable source of both notebooks.
"""
import sys
import textwrap
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent

SETUP = """import numpy as np
import matplotlib.pyplot as plt
import evallib as el
rng = el.setup_notebook(seed=0)"""


def md(text):
    return nbformat.v4.new_markdown_cell(textwrap.dedent(text).strip("\n"))


def code(text):
    return nbformat.v4.new_code_cell(textwrap.dedent(text).strip("\n"))


def write(path, cells):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = cells
    nbformat.write(nb, path)


# ====================================================================================================
# 09 · Friedman and Nemenyi
# ====================================================================================================
NB09 = [
    md(r"""
    # 09 · Friedman and Nemenyi tests（Friedman 检验与 Nemenyi 后续检验）

    **Goal:** compare several learners over several data sets at once: rank them, test whether they differ at all
    (Friedman), and if they do, find which pairs differ (Nemenyi) and draw it as a critical-difference diagram.

    西瓜书 §2.4.4, 式(2.34)–(2.36), 表 2.5–2.7, 图 2.8. Source notes: `003` (Friedman with the worked rank table,
    Nemenyi), `002`, `004` §4.2.4–4.2.5, `000`. Further reading: J. Demšar, *Statistical comparisons of
    classifiers over multiple data sets*, JMLR 7 (2006). Previous: [08 · Hypothesis tests](08_hypothesis_tests.ipynb).
    Library: `el.compare.rank_matrix`, `friedman`, `q_alpha`, `critical_difference`, `nemenyi`;
    `el.plots.plot_cd_diagram`, `plot_friedman_graph`; `el.widgets.cd_explorer`.
    """),
    code(SETUP),
    code("""
    import itertools
    from scipy import stats
    from evallib import compare as cmp
    """),
    md(r"""
    ## 1. Ranks instead of error rates（序值）

    With k algorithms on N data sets, a t-test per pair would multiply the chances of a false alarm, and error
    rates on different data sets are not on one scale. The **Friedman test**（Friedman 检验）uses only the order:
    on every data set rank the algorithms 1 (best) to k, ties sharing the average of their ranks, then average each
    algorithm's ranks over the data sets. The book's worked example (表 2.5) has N = 4 data sets and k = 3
    algorithms A, B, C; on D2, B and C tie for places 2 and 3 and both get 2.5.

    Below: error rates that produce exactly the book's ranks, ranked by hand (1 + number of better algorithms +
    half the number of ties) and through `el.compare.rank_matrix`.
    """),
    code("""
    errors = np.array([[0.10, 0.20, 0.30],    # D1
                       [0.12, 0.25, 0.25],    # D2: B and C tie
                       [0.08, 0.15, 0.21],    # D3
                       [0.20, 0.22, 0.24]])   # D4
    names = ("A", "B", "C")
    N, k = errors.shape

    better = (errors[:, None, :] < errors[:, :, None]).sum(axis=2)       # how many beat each entry
    ties = (errors[:, None, :] == errors[:, :, None]).sum(axis=2) - 1     # how many tie with it
    ranks_by_hand = 1 + better + ties / 2
    ranks = cmp.rank_matrix(errors)                                      # lower error = better
    assert np.array_equal(ranks, ranks_by_hand)
    for d, row in enumerate(ranks):
        print(f"D{d + 1}: " + "  ".join(f"{n} {r:.1f}" for n, r in zip(names, row)))
    mean_ranks = ranks.mean(axis=0)
    print("mean ranks: " + "  ".join(f"{n} {r:.3f}" for n, r in zip(names, mean_ranks)))
    assert np.allclose(mean_ranks, [1, 2.125, 2.875])     # the book's 表 2.5
    """),
    md(r"""
    ## 2. The Friedman test: χ² form 式(2.34) and F form 式(2.35)

    H0: all k algorithms perform the same, so every ordering on a data set is equally likely and each mean rank
    $r_i$ has mean $(k+1)/2$ and variance $(k^2-1)/12$ over the $N$ data sets' draws. Then

    $$\tau_{\chi^2} = \frac{12N}{k(k+1)}\left(\sum_{i=1}^k r_i^2 - \frac{k(k+1)^2}{4}\right)$$

    is approximately $\chi^2$ with $k-1$ degrees of freedom when N and k are large enough. The original χ² form is
    too conservative for small N, so the book (after Iman and Davenport, and Demšar) uses

    $$\tau_F = \frac{(N-1)\,\tau_{\chi^2}}{N(k-1) - \tau_{\chi^2}},$$

    which follows the F distribution with $k-1$ and $(k-1)(N-1)$ degrees of freedom. Reject H0 when $\tau_F$
    exceeds the upper-α quantile (表 2.6).
    """),
    code("""
    tau_chi2 = 12 * N / (k * (k + 1)) * (np.sum(mean_ranks**2) - k * (k + 1) ** 2 / 4)
    tau_F = (N - 1) * tau_chi2 / (N * (k - 1) - tau_chi2)
    F_crit = stats.f.ppf(0.95, k - 1, (k - 1) * (N - 1))
    print(f"by hand: tau_chi2 = {tau_chi2:.3f}, tau_F = {tau_F:.3f}, F_0.05({k - 1}, {(k - 1) * (N - 1)}) = {F_crit:.3f}")

    fr = cmp.friedman(errors)
    print(fr)
    assert np.isclose(fr.chi2, tau_chi2) and np.isclose(fr.F, tau_F) and np.isclose(fr.critical_value, F_crit)
    assert (round(fr.chi2, 3), round(fr.F, 3), round(fr.critical_value, 3)) == (7.125, 24.429, 5.143)
    print(f"tau_F = {fr.F:.3f} > {fr.critical_value:.3f}: reject H0 (p = {fr.pvalue:.4f}); "
          f"the algorithms do not all perform the same")
    """),
    code("""
    fig, ax = plt.subplots()
    _ = el.plots.plot_null_distribution(fr, ax=ax)
    plt.show()
    """),
    md(r"""
    **Ties and SciPy.** The book and Demšar use the formula above even when ranks tie. `scipy.stats.friedmanchisquare`
    divides by a tie correction $1 - \sum (t^3 - t) / (N k (k^2-1))$ ($t$: sizes of tied groups), so on the book's
    table it gives 7.6, not 7.125. `friedman(..., tie_correction=True)` reproduces SciPy; the default follows the book.
    """),
    code("""
    sp = stats.friedmanchisquare(*errors.T)
    corrected = cmp.friedman(errors, tie_correction=True)
    correction = 1 - (2**3 - 2) / (N * k * (k**2 - 1))          # one tie of size 2 (D2)
    print(f"book: {fr.chi2:.3f}   SciPy: {sp.statistic:.3f}   tie-corrected: {corrected.chi2:.3f}   "
          f"by hand: {tau_chi2 / correction:.3f}")
    assert np.isclose(corrected.chi2, sp.statistic) and np.isclose(corrected.chi2, tau_chi2 / correction)
    """),
    md(r"""
    **In the notes:** `003` and `004` say $\tau_F$ follows an F distribution with "$k-1$ **or** $(k-1)(N-1)$"
    degrees of freedom. An F distribution always has two: $k-1$ for the numerator **and** $(k-1)(N-1)$ for the
    denominator. The book's 5.143 for N = 4, k = 3 is $F_{0.05}(2, 6)$; either single number alone, or the two
    swapped, gives a different critical value:
    """),
    code("""
    for d1, d2 in [(2, 6), (6, 2), (2, 1000)]:
        print(f"F_0.05({d1}, {d2}) = {stats.f.ppf(0.95, d1, d2):7.3f}")
    assert round(stats.f.ppf(0.95, 2, 6), 3) == 5.143 == round(fr.critical_value, 3)
    """),
    md(r"""
    **In the notes:** `002` and `003` say the χ² form "needs k > 30". Nothing like that is required: the usual rule of
    thumb (Demšar 2006) is N > 10 data sets and k > 5 algorithms. The proof is the exact null distribution. Under H0
    all $(k!)^N$ rank tables are equally likely, so for the book's N = 4, k = 3 we can enumerate all $6^4 = 1296$
    and count how often each form rejects at α = 0.05; for N = 12, k = 6 (far from k > 30) we draw 20 000 random
    rank tables. A test is accurate when its actual rejection rate is close to α.
    """),
    code("""
    def friedman_forms(R):                      # R: (draws, N, k) rank tables -> tau_chi2, tau_F per draw
        n, kk = R.shape[1:]
        r = R.mean(axis=1)
        chi2 = 12 * n / (kk * (kk + 1)) * ((r**2).sum(axis=1) - kk * (kk + 1) ** 2 / 4)
        with np.errstate(divide="ignore"):
            F = np.where(chi2 < n * (kk - 1), (n - 1) * chi2 / (n * (kk - 1) - chi2), np.inf)
        return chi2, F

    perms = np.array(list(itertools.permutations(range(1, 4))))                 # the 6 orderings of 3
    R_all = perms[np.array(list(itertools.product(range(6), repeat=4)))]       # all 1296 tables, N=4, k=3
    R_big = np.argsort(rng.random((20_000, 12, 6)), axis=2).argsort(axis=2) + 1.0   # N=12, k=6
    for label, R in (("N = 4,  k = 3 (exact)", R_all), ("N = 12, k = 6 (20 000 draws)", R_big)):
        n, kk = R.shape[1:]
        chi2, F = friedman_forms(R)
        size_chi2 = np.mean(chi2 > stats.chi2.ppf(0.95, kk - 1))
        size_F = np.mean(F > stats.f.ppf(0.95, kk - 1, (kk - 1) * (n - 1)))
        print(f"{label}: chi2 form rejects {size_chi2:.3f}, F form rejects {size_F:.3f} (alpha = 0.05)")
    assert np.isclose(np.mean(friedman_forms(R_all)[0] >= 6), 0.069, atol=5e-4)
    assert abs(size_F - 0.05) < 0.01 and size_chi2 < size_F
    """),
    md(r"""
    With N = 4 and k = 3 the statistic takes only a handful of values (multiples of 0.5), so no approximation can
    hit 0.05 exactly: both forms reject whenever τ_χ² ≥ 6, which happens with probability 0.069. With N = 12 and
    k = 6 — k nowhere near 30 — the χ² form is a little conservative and the F form is close to 0.05, as Iman and
    Davenport's argument for the F form predicts.

    ## 3. The Nemenyi post-hoc test 式(2.36)

    Once the Friedman test rejects, the **Nemenyi post-hoc test**（Nemenyi 后续检验）asks which pairs differ. Two
    algorithms differ significantly when their mean ranks differ by more than the **critical difference**
    （临界值域）

    $$CD = q_\alpha \sqrt{\frac{k(k+1)}{6N}},$$

    where $q_\alpha$ (表 2.7) is the upper-α quantile of the studentized range of k independent standard normals,
    divided by √2. SciPy has that distribution (`scipy.stats.studentized_range` with infinite degrees of freedom),
    so the whole table is one line of code: no copying.
    """),
    code("""
    print("k          " + "".join(f"{kk:>7d}" for kk in range(2, 11)))
    for a in (0.05, 0.10):
        row = [stats.studentized_range.isf(a, kk, np.inf) / np.sqrt(2) for kk in range(2, 11)]
        assert np.allclose(row, [cmp.q_alpha(kk, a) for kk in range(2, 11)])
        print(f"alpha = {a:.2f}" + "".join(f"{q:7.3f}" for q in row))
    """),
    md(r"""
    These agree with the book's 表 2.7 except in two cells, where the printed table is one unit off in the third
    decimal: for α = 0.05, k = 7 the exact value is 2.9483 (the book prints 2.949), and for α = 0.10, k = 5 it is
    2.4595 (the book prints 2.459). The same goes for the book's 表 2.6 of F critical values, regenerated here:
    """),
    code("""
    print(f"alpha = 0.05, rows: N data sets, columns: k algorithms")
    print("N \\\\ k " + "".join(f"{kk:>7d}" for kk in range(2, 11)))
    for n in (4, 5, 8, 10, 15, 20):
        print(f"{n:>6d} " + "".join(f"{stats.f.ppf(0.95, kk - 1, (kk - 1) * (n - 1)):7.3f}" for kk in range(2, 11)))
    """),
    code("""
    q = cmp.q_alpha(k, 0.05)
    cd_by_hand = q * np.sqrt(k * (k + 1) / (6 * N))
    ne = cmp.nemenyi(errors, names=names)
    print(f"q_0.05 = {q:.3f}, CD = {q:.3f} * sqrt({k}*{k + 1}/(6*{N})) = {cd_by_hand:.3f}")
    assert np.isclose(ne.cd, cd_by_hand) and round(ne.cd, 3) == 1.657
    for i, j in itertools.combinations(range(k), 2):
        d = abs(mean_ranks[i] - mean_ranks[j])
        print(f"{names[i]} vs {names[j]}: |{mean_ranks[i]:.3f} - {mean_ranks[j]:.3f}| = {d:.3f} "
              f"{'>' if d > ne.cd else '<='} CD -> {'different' if d > ne.cd else 'not shown different'}"
              f" (p = {ne.pvalue[i, j]:.3f})")
    print("pairs that differ:", ne.significant_pairs(), "  bars in the CD diagram:", ne.groups)
    assert ne.significant_pairs() == [("A", "C")]
    """),
    md(r"""
    The book draws this as its 图 2.8 (the **Friedman test graph**, Friedman 检验图): one row per algorithm, a dot at the
    mean rank and a segment of length CD around it; two algorithms differ when their segments do not overlap.
    Demšar's **critical-difference diagram** shows the same on one rank axis: the CD as a scale bar, and thick bars
    joining the groups of algorithms that cannot be told apart.
    """),
    code("""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.6))
    _ = el.plots.plot_friedman_graph(ne, ax=ax1)
    _ = el.plots.plot_cd_diagram(ne, ax=ax2)
    plt.show()
    """),
    md(r"""
    **In the notes:** `003` and `004` conclude that when the statistic stays below the critical value "the hypothesis
    holds" and the algorithms "have no significant difference in performance" (假设成立). Not rejecting is not
    evidence for H0: it may only mean the data are too few to show a difference. A and B above are "not shown
    different" with N = 4. Suppose the same mean ranks came from N = 10 data sets: CD shrinks with √N and the
    same gap between A and B becomes significant.
    """),
    code("""
    for n in (4, 10):
        cd_n = cmp.critical_difference(k, n)
        gap = mean_ranks[1] - mean_ranks[0]
        print(f"N = {n:2d}: CD = {cd_n:.3f}; A vs B gap {gap:.3f} -> {'significant' if gap > cd_n else 'not significant'}")
    assert cmp.critical_difference(k, 4) > 1.125 > cmp.critical_difference(k, 10)
    """),
    md(r"""
    ## 4. A real comparison: five learners on ten data sets

    Five scikit-learn learners — a majority-class baseline, a depth-3 decision tree, Gaussian naive Bayes, 5-nearest
    neighbours and logistic regression (both on standardised features) — on ten data sets: four that ship with
    scikit-learn (breast cancer, iris, wine, digits), the book's watermelon data 3.0α, and five generated ones
    (moons, circles, three random classification problems). Each entry is the mean error of stratified 5-fold
    cross-validation with the same folds for every learner (`el.evaluation.evaluate`).
    """),
    code("""
    from sklearn.datasets import make_circles, make_classification, make_moons
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    learners = {
        "majority": DummyClassifier(),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
        "naive Bayes": GaussianNB(),
        "5-NN": make_pipeline(StandardScaler(), KNeighborsClassifier(5)),
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    }
    datasets = {name: el.data.load_bundled(name) for name in ("breast_cancer", "iris", "wine", "digits")}
    melon = el.data.load_watermelon()
    datasets["watermelon"] = (melon.X, melon.y)
    datasets["moons"] = make_moons(300, noise=0.3, random_state=0)
    datasets["circles"] = make_circles(300, noise=0.1, factor=0.5, random_state=0)
    for s in range(3):
        datasets[f"synthetic {s + 1}"] = make_classification(200, n_features=8, n_informative=3, random_state=s)

    cv = el.splits.KFold(5, random_state=0)
    E = np.array([[el.evaluation.evaluate(model, X, y, cv).mean() for model in learners.values()]
                  for X, y in datasets.values()])
    print(f"{'data set':<14}" + "".join(f"{n:>12}" for n in learners))
    for name, row in zip(datasets, E):
        print(f"{name:<14}" + "".join(f"{e:12.3f}" for e in row))
    """),
    code("""
    fr_real = cmp.friedman(E)
    ne_real = cmp.nemenyi(E, names=list(learners))
    print("mean ranks: " + ", ".join(f"{n} {r:.2f}" for n, r in zip(learners, fr_real.mean_ranks)))
    print(f"Friedman: tau_chi2 = {fr_real.chi2:.3f}, tau_F = {fr_real.F:.3f}, "
          f"F_0.05{fr_real.df} = {fr_real.critical_value:.3f}, p = {fr_real.pvalue:.5f} -> "
          f"{'reject H0' if fr_real.reject else 'cannot reject H0'}")
    print(f"Nemenyi: q_0.05 = {ne_real.q_alpha:.3f}, CD = {ne_real.cd:.3f}")
    print("pairs that differ:", ne_real.significant_pairs())
    print("groups joined by a bar:", ne_real.groups)
    assert fr_real.reject and all(pair[1] == "majority" for pair in ne_real.significant_pairs())
    """),
    code("""
    fig, ax = plt.subplots(figsize=(8, 3.4))
    _ = el.plots.plot_cd_diagram(ne_real, ax=ax)
    plt.show()
    """),
    md(r"""
    The Friedman test rejects "all five are the same", and the Nemenyi test attributes that to the baseline: every
    real learner ranks significantly better than predicting the majority class. The four real learners are joined
    by one bar: ten data sets are not enough to order them, which is not the same as saying they are equally good.

    ## 5. Explorer: how α and N move the critical difference

    Keep the five mean ranks above and change α or the number of data sets N. CD grows as α shrinks (a stricter
    test) and falls like $1/\sqrt{N}$: with the same mean ranks on more data sets, more pairs separate.
    """),
    code("""
    el.widgets.cd_explorer(fr_real.mean_ranks, list(learners), n_datasets=len(datasets), alpha=0.05)
    """),
    code("""
    for n in (10, 30, 100):
        text, fig = el.widgets.cd_view(fr_real.mean_ranks, list(learners), 0.05, n)
        print(text.splitlines()[0], "|", text.splitlines()[1])
    """),
    md(r"""
    ## Summary

    - Rank the algorithms on every data set (ties share ranks), average the ranks, and test with the F form of the
      Friedman statistic, df $(k-1, (k-1)(N-1))$; the χ² form is too conservative for small N.
    - After a rejection, the Nemenyi test separates two algorithms when their mean ranks differ by more than
      $CD = q_\alpha\sqrt{k(k+1)/(6N)}$; $q_\alpha$ comes from the studentized range distribution.
    - A CD diagram shows every conclusion at once. A bar means "not shown different", never "equal".
    """),
]


# ====================================================================================================
# 08 · Hypothesis tests
# ====================================================================================================
NB08 = []  # filled below


def main(which):
    if which in (None, "09"):
        write(ROOT / "notebooks" / "09_friedman_nemenyi.ipynb", NB09)
    if which in (None, "08") and NB08:
        write(ROOT / "notebooks" / "08_hypothesis_tests.ipynb", NB08)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
