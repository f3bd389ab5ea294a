#!/usr/bin/env python
"""Write notebooks/08_hypothesis_tests.ipynb and notebooks/09_friedman_nemenyi.ipynb (text and code only).

    .venv/bin/python scripts/make_nb_08_09.py [08|09]
    make regen NB=notebooks/09_friedman_nemenyi.ipynb     # then execute and store the outputs

This script is the editable source of both notebooks.
"""
import sys
from pathlib import Path

from nbgen import SETUP, code, md, write  # shared notebook-writing helpers

ROOT = Path(__file__).resolve().parent.parent



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

    is approximately $\chi^2$ with $k-1$ degrees of freedom when N and k are large enough. Iman and Davenport showed
    that this original form is undesirably conservative, so the book (like Demšar) uses

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
    2.4595 (the book prints 2.459). The book's 表 2.6 of F critical values is regenerated the same way:
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
    assert len(ne_real.significant_pairs()) == 4 and ne_real.groups == (("5-NN", "tree", "logistic", "naive Bayes"),)
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
NB08 = [
    md(r"""
    # 08 · Hypothesis tests for comparing learners（假设检验与比较检验）

    **Goal:** decide whether a measured error rate, or a measured difference between two learners, is real or
    luck: the binomial test, t-tests over repeated estimates, cross-validated and 5×2cv paired t-tests, McNemar's
    test — and then measure how often each of them cries wolf when there is nothing to find.

    西瓜书 §2.4.1–2.4.3, 式(2.26)–(2.33), 表 2.4. Source notes: `000` (比较检验), `003` (二项检验, t 检验, 交叉验证 t 检验,
    McNemar), `004` §4.1–4.2, `002`. Further reading: T. G. Dietterich, *Approximate statistical tests for comparing
    supervised classification learning algorithms*, Neural Computation 10 (1998); E. Alpaydın (1999);
    C. Nadeau & Y. Bengio (2003). Next: [09 · Friedman and Nemenyi](09_friedman_nemenyi.ipynb).
    Library: `el.compare` (`binomial_test`, `ttest`, `paired_ttest`, `ttest_5x2cv`, `combined_ftest_5x2cv`,
    `corrected_resampled_ttest`, `mcnemar_table`, `mcnemar`, `null_rejection_rates`), `el.plots.plot_binomial_test`,
    `plot_null_distribution`, `plot_rejection_rates`, `el.widgets.binomial_test_explorer`.
    """),
    code(SETUP),
    code("""
    from math import comb
    from scipy import stats
    from evallib import compare as cmp
    """),
    md(r"""
    A test error rate is measured on a finite test set, the test set could have been different, and many learners
    are themselves random. A **hypothesis test**（假设检验）turns "learner A had the lower error" into a statement with
    a known chance of being wrong. Its parts: a null hypothesis H0, a statistic whose distribution under H0 we know,
    a **significance level**（显著度）α, and a **critical region** where we reject H0. If H0 is true, we reject
    with probability (at most) α. If the statistic falls outside the region we *fail to reject*: that is not proof
    that H0 holds.

    ## 1. The binomial test 式(2.26)–(2.27)

    A learner with generalisation error ε misclassifies each of m independent test samples with probability ε, so
    the number of errors is $X \sim \mathrm{Binomial}(m, \varepsilon)$ (式(2.26)):
    $P(X = i) = \binom{m}{i}\varepsilon^i(1-\varepsilon)^{m-i}$.

    H0: ε ≤ ε0. The more errors we see, the less H0 is believable. The **critical count** C is the smallest count
    with $P(X > C \mid \varepsilon_0) < \alpha$; the **critical error rate**（临界值）is $\bar\varepsilon = C/m$,
    and we reject H0 when the test error rate exceeds it. This is 式(2.27) stated for the count it is about; the
    same decision reads "reject when the p-value $P(X \ge \text{observed} \mid \varepsilon_0)$ is below α".
    The notes' example (`000`): m = 10, ε0 = 0.3.
    """),
    code("""
    m, eps0, alpha = 10, 0.3, 0.05
    pmf = np.array([comb(m, i) * eps0**i * (1 - eps0) ** (m - i) for i in range(m + 1)])
    tail = np.array([pmf[i + 1:].sum() for i in range(m + 1)])        # P(X > i)
    C = int(np.flatnonzero(tail < alpha)[0])
    for i in range(3, 8):
        print(f"P(X > {i}) = {tail[i]:.4f}")
    print(f"critical count C = {C}, critical error rate = {C / m:.2f}")
    assert C == cmp.binomial_critical_count(m, eps0, alpha) == 5

    for n_err in (3, 4, 6):
        r = cmp.binomial_test(n_err, m, eps0, alpha)
        assert np.isclose(r.pvalue, stats.binomtest(n_err, m, eps0, alternative="greater").pvalue)
        print(f"{n_err} errors: p = P(X >= {n_err}) = {r.pvalue:.4f} -> {'reject H0' if r.reject else 'cannot reject H0'}")
    """),
    md(r"""
    **In the notes:** `000` sums $P(X \ge 4)$ for the 3-in-10 example and then says: if that probability is
    **greater** than α, reject the hypothesis; if smaller, accept it. That reverses the test. A large tail
    probability means the observation is ordinary under H0; we reject only when it is **below** α. The exact
    computation shows what each rule does to a learner whose error is exactly ε0, so H0 is true: the right rule
    rejects it in less than α of the test sets, the reversed rule in almost all of them.
    """),
    code("""
    p_of = np.array([1.0] + [tail[x - 1] for x in range(1, m + 1)])    # p-value P(X >= x) for x = 0..m
    right = pmf[p_of < alpha].sum()
    reversed_rule = pmf[p_of > alpha].sum()
    print(f"H0 true (eps = eps0 = {eps0}): right rule rejects with probability {right:.4f}, "
          f"the note's reversed rule with probability {reversed_rule:.4f}")
    print(f"3 errors in 10 is exactly eps0, P(X >= 4) = {tail[3]:.4f} > 0.05: the reversed rule would call the learner worse than 0.3")
    assert right < alpha < 1 - alpha < reversed_rule
    """),
    md(r"""
    The figure shows the distribution for a larger test set, m = 50, with the critical region in red. The explorer
    below it lets you move m, ε0, α and the observed error rate: a larger test set narrows the distribution, so the
    critical error rate moves towards ε0 and smaller excesses become significant.
    """),
    code("""
    r50 = cmp.binomial_test(20, 50, 0.3)
    print(f"m = 50, eps0 = 0.3: critical count {r50.critical_count}, critical error rate {r50.critical_value:.3f}; "
          f"20 errors -> p = {r50.pvalue:.4f}, reject: {r50.reject}")
    fig, ax = plt.subplots()
    _ = el.plots.plot_binomial_test(50, 0.3, 0.05, n_errors=20, ax=ax)
    plt.show()
    """),
    code("""
    el.widgets.binomial_test_explorer(m=50, eps0=0.3, alpha=0.05, error_rate=0.4)
    """),
    code("""
    for m_ in (50, 200, 1000):
        r = cmp.binomial_test(int(0.36 * m_), m_, 0.3)
        print(f"m = {m_:4d}: critical error rate {r.critical_value:.3f}, observed 0.36 -> p = {r.pvalue:.4f}, reject: {r.reject}")
    """),
    md(r"""
    ## 2. The t-test over repeated estimates 式(2.28)

    Repeated hold-out or cross-validation gives k test error rates $\hat\varepsilon_1, \dots, \hat\varepsilon_k$ with
    mean μ and sample variance σ² (denominator k − 1). For H0: ε = ε0,

    $$\tau_t = \frac{\sqrt{k}\,(\mu - \varepsilon_0)}{\sigma}$$

    follows a t distribution with k − 1 degrees of freedom; the two-sided test rejects when $|\tau_t| > t_{\alpha/2,\,k-1}$.
    Below: logistic regression on the breast-cancer data (569 samples, bundled with scikit-learn), ten stratified
    70/30 hold-outs, tested against ε0 = 0.03.
    """),
    code("""
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    X, y = el.data.load_bundled("breast_cancer")
    logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    errs = el.evaluation.evaluate(logreg, X, y, el.splits.HoldOut(0.3, n_repeats=10, random_state=0))
    k = len(errs)
    mu, sigma = errs.mean(), np.sqrt(((errs - errs.mean()) ** 2).sum() / (k - 1))
    tau = np.sqrt(k) * (mu - 0.03) / sigma
    print("error rates:", np.round(errs, 3))
    print(f"by hand: mu = {mu:.4f}, sigma = {sigma:.4f}, tau_t = {tau:.3f}, t_0.025,{k - 1} = {stats.t.ppf(0.975, k - 1):.3f}")
    rt = cmp.ttest(errs, 0.03)
    print(rt)
    assert np.isclose(rt.statistic, tau) and np.isclose(rt.pvalue, stats.ttest_1samp(errs, 0.03).pvalue)
    """),
    code("""
    fig, ax = plt.subplots()
    _ = el.plots.plot_null_distribution(rt, ax=ax)
    plt.show()
    """),
    md(r"""
    **In the notes:** `003` says the critical values come from "degrees of freedom k". With k estimates the t statistic
    has k − 1 degrees of freedom (one is used up by the mean), as its own formula says; for k = 10 the two
    readings give different critical values:
    """),
    code("""
    print(f"t_0.025 with 9 df: {stats.t.ppf(0.975, 9):.3f} (right)   with 10 df: {stats.t.ppf(0.975, 10):.3f}")
    assert np.isclose(rt.critical_value, stats.t.ppf(0.975, 9))
    """),
    md(r"""
    **In the notes:** `000`, `003` and `004` conclude that when $|\tau_t|$ stays inside the critical values "the
    hypothesis holds" (`000`: "此时认为 ε 等于平均值 μ"). Above we could not reject ε = 0.03, yet that does not show
    ε = 0.03. The power of this t-test — the chance it rejects when ε really differs from ε0 — comes from the
    noncentral t distribution: with k = 10 estimates spread like ours, a true gap of 0.005 is missed about two times
    in three.
    """),
    code("""
    for delta in (0.005, 0.01, 0.02):
        nc = delta * np.sqrt(k) / sigma                  # noncentrality for a true gap delta
        crit = stats.t.ppf(0.975, k - 1)
        power = stats.nct.sf(crit, k - 1, nc) + stats.nct.cdf(-crit, k - 1, nc)
        print(f"true error eps0 + {delta:.3f}: rejected with probability {power:.2f}, missed with {1 - power:.2f}")
        assert delta > 0.005 or power < 0.5
    """),
    md(r"""
    ## 3. Two learners on one data set

    ### 3.1 The k-fold cross-validated paired t-test 式(2.29)

    Run both learners on the **same** k folds and test the differences $\Delta_i = \hat\varepsilon_i^A - \hat\varepsilon_i^B$:
    $\tau_t = |\sqrt{k}\,\mu / \sigma|$ with k − 1 degrees of freedom. Below, a depth-3 decision tree (A) against
    Gaussian naive Bayes (B) on the breast-cancer data, stratified 10-fold CV.

    **In the notes:** `003` and `004` write $\Delta_i = \hat\epsilon_k^A - \hat\epsilon_k^B$. The index must be i:
    each fold's difference, not the k-th fold's k times (which would have zero variance).
    """),
    code("""
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    nb = GaussianNB()
    cv10 = el.splits.KFold(10, random_state=0)
    e_tree, e_nb = (el.evaluation.evaluate(model, X, y, cv10) for model in (tree, nb))
    d = e_tree - e_nb
    tau = np.sqrt(10) * d.mean() / d.std(ddof=1)
    rp = cmp.paired_ttest(e_tree, e_nb)
    print(f"mean errors: tree {e_tree.mean():.4f}, naive Bayes {e_nb.mean():.4f}")
    print(f"by hand: tau_t = {tau:.3f}; evallib: {rp.statistic:.3f}, p = {rp.pvalue:.4f}, "
          f"critical value {rp.critical_value:.3f} -> {'reject H0' if rp.reject else 'cannot reject H0'}")
    assert np.isclose(rp.statistic, tau) and np.isclose(rp.pvalue, stats.ttest_rel(e_tree, e_nb).pvalue)
    d_typo = np.full(10, d[-1])          # the notes' index: every Delta is the k-th fold's
    print(f"with the notes' index every Delta equals {d_typo[0]:.4f}: sample std = {d_typo.std(ddof=1):.1f}")
    """),
    md(r"""
    The k-fold paired t-test assumes the k differences are independent. They are not: any two training sets share
    (k − 2)/(k − 1) of their samples. Nadeau and Bengio's **corrected resampled t-test** inflates the variance by the
    ratio of test to training size, $t = \mu / \sqrt{(1/k + n_\text{test}/n_\text{train})\,\sigma^2}$ (for k-fold CV,
    $n_\text{test}/n_\text{train} = 1/(k-1)$):
    """),
    code("""
    rc = cmp.corrected_resampled_ttest(e_tree, e_nb, test_train_ratio=1 / 9)
    t_corr = d.mean() / np.sqrt((1 / 10 + 1 / 9) * d.var(ddof=1))
    print(f"corrected: t = {rc.statistic:.3f} (by hand {t_corr:.3f}), p = {rc.pvalue:.4f} -> "
          f"{'reject H0' if rc.reject else 'cannot reject H0'}")
    assert np.isclose(rc.statistic, t_corr)
    """),
    md(r"""
    ### 3.2 The 5×2 cross-validated t-test 式(2.31)

    Dietterich's remedy: five replicates of 2-fold CV, each on a fresh shuffle, so the two training sets of a
    replicate do not overlap. With $\Delta_i^1, \Delta_i^2$ the differences of replicate i and
    $\sigma_i^2 = (\Delta_i^1 - \bar\Delta_i)^2 + (\Delta_i^2 - \bar\Delta_i)^2$,

    $$\tau_t = \frac{\mu}{\sqrt{0.2\sum_{i=1}^5 \sigma_i^2}} \sim t_5 .$$

    Two numerators are in use. The book (and notes `000`, `002`) take $\mu = 0.5(\Delta_1^1 + \Delta_1^2)$, the mean
    of the first replicate: `variant="book"`. Dietterich's paper uses the first difference alone, $\mu = \Delta_1^1$:
    `variant="dietterich"`. Alpaydın's **combined 5×2cv F-test** uses all ten,
    $F = \sum_{i,j} (\Delta_i^j)^2 / (2\sum_i \sigma_i^2) \sim F(10, 5)$.
    """),
    code("""
    cv5x2 = el.splits.KFold(2, n_repeats=5, random_state=1)
    D = (el.evaluation.evaluate(tree, X, y, cv5x2) - el.evaluation.evaluate(nb, X, y, cv5x2)).reshape(5, 2)
    s2 = ((D - D.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    by_hand = {"book": D[0].mean() / np.sqrt(0.2 * s2.sum()), "dietterich": D[0, 0] / np.sqrt(0.2 * s2.sum())}
    for variant, t in by_hand.items():
        r = cmp.ttest_5x2cv(D, variant=variant)
        assert np.isclose(r.statistic, t)
        print(f"5x2cv t ({variant:>10}): t = {r.statistic:6.3f}, p = {r.pvalue:.4f} -> {'reject' if r.reject else 'cannot reject'}")
    rf = cmp.combined_ftest_5x2cv(D)
    assert np.isclose(rf.statistic, (D**2).sum() / (2 * s2.sum()))
    print(f"combined 5x2cv F    : F = {rf.statistic:6.3f}, p = {rf.pvalue:.4f} -> {'reject' if rf.reject else 'cannot reject'}")
    """),
    md(r"""
    ### 3.3 McNemar's test 式(2.32)–(2.33)

    With a single hold-out split, McNemar's test compares the two trained classifiers sample by sample. The
    **contingency table**（列联表, 表 2.4）counts the test samples both get right ($e_{00}$), only B gets right
    ($e_{01}$), only A gets right ($e_{10}$), both get wrong ($e_{11}$). Under H0 (equal error rates) $e_{01}$ and
    $e_{10}$ should be about equal, and

    $$\tau_{\chi^2} = \frac{(|e_{01} - e_{10}| - 1)^2}{e_{01} + e_{10}} \sim \chi^2_1 .$$

    **In the notes:** `000` files McNemar under "leave-one-out" (留一法); its own text, and the book, use it after a
    hold-out split: one test set on which both trained classifiers are compared sample by sample, as below.
    """),
    code("""
    train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
    pred_tree = tree.fit(X[train], y[train]).predict(X[test])
    pred_nb = nb.fit(X[train], y[train]).predict(X[test])
    a_ok, b_ok = pred_tree == y[test], pred_nb == y[test]
    table_by_hand = [[np.sum(b_ok & a_ok), np.sum(b_ok & ~a_ok)], [np.sum(~b_ok & a_ok), np.sum(~b_ok & ~a_ok)]]
    table = cmp.mcnemar_table(y[test], pred_tree, pred_nb)
    assert table.tolist() == table_by_hand
    e01, e10 = table[0, 1], table[1, 0]
    chi2 = (abs(e01 - e10) - 1) ** 2 / (e01 + e10)
    rm = cmp.mcnemar(table)
    print(f"table (rows: naive Bayes right/wrong, columns: tree right/wrong): {table.tolist()}")
    print(f"by hand: chi2 = {chi2:.3f}; evallib: {rm.statistic:.3f}, p = {rm.pvalue:.4f}, critical {rm.critical_value:.3f}")
    assert np.isclose(rm.statistic, chi2)
    re = cmp.mcnemar(table, exact=True)
    print(f"exact binomial version: p = {re.pvalue:.4f}")
    """),
    md(r"""
    On this data set only the k-fold paired t-test rejects "tree and naive Bayes are equally good" at α = 0.05; the
    corrected t-test, all three 5×2cv tests and McNemar do not. Which one should we believe? That depends on how
    often each test rejects when H0 is **true**, which we can measure.

    ## 4. How often does each test reject a true H0? (Dietterich 1998)

    A test at level α should reject a true H0 in a fraction α of experiments: its **Type-I error**. To measure it we
    need two learners that are exactly equally good. A clean construction: y ∈ {0, 1} with equal probability and
    two features $x_1, x_2 \sim N(\pm 1, 1)$, independent given y. Learner A is a decision stump on $x_1$, learner B
    the same stump on $x_2$. The two features are exchangeable, so for every training-set size A and B have the
    same expected error: H0 holds exactly. We draw 1000 data sets of 200 samples and on each run seven tests:

    - the **resampled t-test**: 30 random 2/3–1/3 hold-outs, paired t-test on the 30 differences;
    - the same differences with Nadeau and Bengio's correction;
    - the 10-fold CV paired t-test (式(2.29));
    - McNemar on one 2/3–1/3 hold-out (式(2.33));
    - the 5×2cv t-test, book and Dietterich numerators, and the combined 5×2cv F-test.

    `el.compare.null_rejection_rates` does this (vectorised stumps; every trial has its own random stream).
    """),
    code("""
    null = cmp.null_rejection_rates(1000, n_samples=200, alpha=0.05, random_state=0)
    band = 2 * np.sqrt(0.05 * 0.95 / null.n_trials)
    print(f"rejection rates under a true H0 ({null.n_trials} data sets, alpha = 0.05; a valid test lies in about "
          f"{0.05 - band:.3f}-{0.05 + band:.3f}):")
    for name, rate, se in zip(null.tests, null.rates, null.stderr):
        print(f"  {name:<28} {rate:.3f} ± {se:.3f}")
    assert np.allclose(null.rates, (null.pvalues < 0.05).mean(axis=0))
    """),
    code("""
    fig, ax = plt.subplots(figsize=(8, 4))
    _ = el.plots.plot_rejection_rates(null, ax=ax)
    plt.show()
    """),
    code("""
    rates = null.as_dict()
    assert rates["resampled t-test"] > 0.3                       # far too liberal
    assert rates["10-fold CV paired t-test"] > 0.05 + band        # too liberal
    for name in ("corrected resampled t-test", "McNemar", "5x2cv t-test (Dietterich)", "5x2cv combined F-test"):
        assert rates[name] < 0.05 + band                          # about alpha or below
    print("checked: resampled and 10-fold t-tests above alpha; corrected, McNemar and 5x2cv within the band or below")
    """),
    md(r"""
    What the experiment shows, as Dietterich found:

    - The **resampled t-test** rejects a true H0 in well over half the data sets. Its 30 estimates share one data
      set, so their spread says nothing about how a different data set would come out, and 30 of them make the
      standard error tiny. Never use it. **Nadeau and Bengio's correction** brings it back to about α.
    - The **10-fold CV paired t-test** is too liberal: its ten training sets overlap by 8/9, so the differences are
      correlated and their sample variance is too small. Its rejection above is therefore weak evidence.
    - **McNemar** (with the continuity correction, so slightly conservative) and the **5×2cv** tests stay near or
      below α. The book's numerator (mean of the first replicate) is noticeably more conservative than Dietterich's
      first difference: averaging two differences shrinks the numerator's variance while the denominator stays the
      same. The **combined F-test** does not depend on which replicate comes first and is the one to prefer.

    A Type-I error near α is only half the story: a useful test must also reject when learners *do* differ (power),
    and 5×2cv and McNemar pay for their honesty with less power. That is the price of a claim that holds up.

    ## Summary

    - Binomial test: reject ε ≤ ε0 when the error count exceeds the critical count C, i.e. when P(X ≥ observed) < α.
    - t-test: $\tau_t = \sqrt{k}(\mu - \varepsilon_0)/\sigma$ with k − 1 degrees of freedom; failing to reject is not proof.
    - Two learners: prefer 5×2cv (combined F), McNemar on one hold-out, or the corrected resampled t-test; the
      plain k-fold and resampled paired t-tests reject too often.
    """),
]


def main(which):
    if which in (None, "09"):
        write(ROOT / "notebooks" / "09_friedman_nemenyi.ipynb", NB09)
    if which in (None, "08") and NB08:
        write(ROOT / "notebooks" / "08_hypothesis_tests.ipynb", NB08)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
