#!/usr/bin/env python
"""Write notebooks/03_tuning_and_final_model.ipynb and notebooks/10_bias_variance.ipynb (text and code only).

    .venv/bin/python scripts/make_nb_03_10.py [03|10 ...]
    make regen NB=notebooks/10_bias_variance.ipynb     # then execute and store the outputs

This script is the editable source of both notebooks.
"""
import sys
from pathlib import Path

import nbgen  # shared notebook-writing helpers
from nbgen import SETUP, code, md

ROOT = Path(__file__).resolve().parent.parent



def write(name, cells):
    nbgen.write(ROOT / "notebooks" / name, cells)
    print("wrote", name)


# ------------------------------------------------------------------------------------------------ 10
NB10 = [
    md(r"""
    # 10 · Bias and variance（偏差与方差）

    **Goal:** see *why* a learner has the error it has, by splitting its expected error into bias², variance and
    noise — and feel the trade-off between them with an explorer.

    西瓜书 §2.5, 式(2.37)–(2.42). Source notes: 000 (偏差与方差), 003 and 004 (§4.3 偏差与方差, learning curves).
    """),
    code(SETUP),
    md(r"""
    ## 1. The decomposition（偏差-方差分解）

    A learning algorithm does not produce one model: it produces a different model $f(x; D)$ for every
    training set $D$ it might be given. Fix a test point $x$, let $y$ be its true value and $y_D$ the (noisy)
    label a data set carries. Averaging over training sets of the same size:

    | | formula | book |
    |---|---|---|
    | expected prediction | $\bar f(x) = \mathbb{E}_D[f(x; D)]$ | 式(2.37) |
    | **variance（方差）** | $\operatorname{var}(x) = \mathbb{E}_D\big[(f(x; D) - \bar f(x))^2\big]$ | 式(2.38) |
    | **noise（噪声）** | $\varepsilon^2 = \mathbb{E}_D\big[(y_D - y)^2\big]$ | 式(2.39) |
    | **bias（偏差）**, squared | $\operatorname{bias}^2(x) = (\bar f(x) - y)^2$ | 式(2.40) |
    | expected error | $E(f; D) = \mathbb{E}_D\big[(f(x; D) - y_D)^2\big]$ | 式(2.41) |

    and, if the noise has mean zero and is independent of the training set, the cross terms vanish:

    $$E(f; D) = \operatorname{bias}^2(x) + \operatorname{var}(x) + \varepsilon^2 \qquad \text{式(2.42)}$$

    Bias measures how far the *average* model is from the truth (the algorithm's fitting ability), variance how
    much the model moves when the training set changes (sensitivity to the particular sample), noise the error
    no learner can avoid (the difficulty of the task itself).

    The expectations are over all possible training sets, which we never have in practice. In a simulation we
    do: we choose the true function $f(x) = \sin(2\pi x)$ and Gaussian noise with standard deviation 0.3, draw
    many training sets, fit a polynomial to each, and average.
    """),
    md(r"""
    ### From scratch on a tiny example

    Five training sets of eight points, straight lines fitted with `np.polyfit`, three test points. Each line
    below is one of the definitions above, applied to the simulated data that `el.biasvar.bias_variance` returns.
    """),
    code(r"""
    def f(x):
        return np.sin(2 * np.pi * x)

    small = el.biasvar.bias_variance(el.fitting.PolynomialRegression(1), f, noise_std=0.3, n_train=8,
                                     n_datasets=5, x_test=[0.1, 0.5, 0.9], random_state=rng)
    x_t, y_t = small.x_test, f(small.x_test)
    pred = np.array([np.polyval(np.polyfit(xs, ys, 1), x_t) for xs, ys in zip(small.x_train, small.y_train)])
    f_bar = pred.mean(axis=0)                           # 式(2.37)
    var = ((pred - f_bar) ** 2).mean(axis=0)            # 式(2.38)
    noise = ((small.y_test - y_t) ** 2).mean(axis=0)    # 式(2.39): one noisy label per data set
    bias2 = (f_bar - y_t) ** 2                          # 式(2.40)
    err = ((pred - small.y_test) ** 2).mean(axis=0)     # 式(2.41)
    print("   x    f(x)   f_bar   bias2    var   noise  bias2+var+noise  E(f;D)")
    for row in zip(x_t, y_t, f_bar, bias2, var, noise, bias2 + var + noise, err):
        print("{:5.2f} {:6.3f} {:7.3f} {:7.4f} {:6.4f} {:7.4f} {:16.4f} {:7.4f}".format(*row))
    """),
    code(r"""
    assert np.allclose(pred, small.predictions)
    assert np.allclose(bias2, small.bias2_per_point) and np.allclose(var, small.variance_per_point)
    assert np.allclose(noise, small.noise_per_point) and np.allclose(err, small.expected_error_per_point)
    print(small)
    """),
    md(r"""
    With five data sets the last two columns do not agree well: the cross terms of the derivation are zero
    only *on average*. With 200 data sets and 101 test points they nearly vanish, and the identity 式(2.42)
    holds to about 1 %. `residual` is what is left over.
    """),
    code(r"""
    results = {}
    for degree in (1, 3, 12):
        results[degree] = el.biasvar.bias_variance(el.fitting.PolynomialRegression(degree), f, noise_std=0.3,
                                                   n_train=30, n_datasets=200, random_state=0)
    print("degree     bias2   variance    noise   sum      E(f;D)   residual")
    for degree, r in results.items():
        print(f"{degree:6d} {r.bias2:9.4f} {r.variance:10.4f} {r.noise:8.4f} "
              f"{r.bias2 + r.variance + r.noise:8.4f} {r.expected_error:8.4f} {r.residual:+9.4f}")
    assert abs(results[3].residual) < 0.02 * results[3].expected_error
    assert abs(results[3].noise - 0.3**2) < 0.005   # the noise term recovers the noise we put in
    """),
    md(r"""
    A straight line (degree 1) cannot bend like a sine: its error is mostly **bias** — under-fitting（欠拟合）.
    A cubic is about right. A degree-12 polynomial through 30 points follows the noise of each training set:
    its error is mostly **variance** — over-fitting（过拟合）. The noise term is the same 0.09 ≈ 0.3² for all three:
    no model choice removes it.

    The figures show this directly. Left: 40 of the 200 fitted curves (blue), their mean $\bar f(x)$ (dashed)
    and the truth (black). The gap between dashed and black is the bias; the width of the blue fan is the variance.
    """),
    code(r"""
    fig, axes = plt.subplots(2, 2, figsize=(9.6, 7.0), layout="constrained")
    for row, degree in zip(axes, (1, 12)):
        el.plots.plot_prediction_fan(results[degree], row[0])
        row[0].set_title(f"Degree {degree}: fitted curves of 40 data sets")
        el.plots.plot_decomposition(results[degree], row[1])
        row[1].set_title(f"Degree {degree}: decomposition (mean over x)")
    plt.show()
    """),
    md(r"""
    The degree-12 bars use a logarithmic axis: its variance is about fifty times its bias². Most of that
    variance sits near the ends of the interval, where a training set of 30 uniform points often has no point
    and a high-degree polynomial swings far out:
    """),
    code(r"""
    r12 = results[12]
    for x0 in (0.0, 0.05, 0.5, 0.95, 1.0):
        i = int(np.argmin(abs(r12.x_test - x0)))
        print(f"x = {x0:4.2f}: variance {r12.variance_per_point[i]:11.4g}   bias2 {r12.bias2_per_point[i]:10.4g}")
    """),
    md(r"""
    Even $\bar f(x)$ is pulled away from the truth there by a few wild fits, so the degree-12 bias² is not small
    either: an average over 200 heavy-tailed predictions. In the middle of the interval, where every training
    set has data, its bias² is close to zero and the variance is what hurts.

    ## 2. The bias–variance explorer

    Every slider change re-runs the whole simulation — 200 training sets, 200 least-squares fits, predictions
    at 101 points — in a few milliseconds: `PolynomialRegression` is fitted on all data sets at once in one
    batched least-squares solve. The same `random_state` is used for every setting, so moving one slider
    changes only what that slider controls.

    Things to try:
    * **degree** from 0 to 15 with the other sliders fixed: bias² falls, variance rises (the dilemma below).
    * **training-set size** up at degree 9: the variance collapses; at degree 1 nothing much changes — more data
      does not cure bias.
    * **noise_std** to 0: the noise bar disappears, and over-fitting becomes much milder; then to 1.0.
    * **data sets** down to 10: the estimates themselves become noisy (the residual of 式(2.42) grows).
    """),
    code(r"""
    explorer = el.widgets.bias_variance_explorer(degree=3, noise_std=0.3, n_train=30, n_datasets=200)
    print(explorer.text)
    explorer
    """),
    md(r"""
    How fast is an update? The first number is the simulation alone; the second the whole update (simulation,
    figure and the PNG the browser receives), which matplotlib's drawing dominates. (Timings depend on the
    machine, so this cell's output is not checked.)
    """),
    code(r"""
    # NBVAL_IGNORE_OUTPUT
    import time

    def median_ms(fn, repeats=7):
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return 1e3 * float(np.median(times))

    sim = median_ms(lambda: el.biasvar.bias_variance(el.fitting.PolynomialRegression(9), f, noise_std=0.3,
                                                     n_train=30, n_datasets=200, random_state=0))
    full = median_ms(explorer.refresh)
    print(f"simulation: {sim:.1f} ms   whole update with the figure: {full:.0f} ms")
    """),
    md(r"""
    ## 3. The bias–variance dilemma（偏差-方差窘境）

    Sweep the degree from 0 to 12 with the same 200 training sets of 30 points for every degree. Bias² falls as
    the model becomes flexible enough to follow the sine; variance rises as it becomes flexible enough to follow
    the noise. Their sum plus the noise — the expected error — is U-shaped, and the best complexity sits where
    neither term dominates. The training error (green) only ever falls, which is why it cannot choose the degree.
    Beyond degree 9 even the estimated bias² climbs again: with 30 points, a few training sets produce wild
    polynomials near the ends of the interval, and they drag the average prediction $\bar f(x)$ along (section 1).
    """),
    code(r"""
    curve = el.biasvar.bias_variance_curve(el.fitting.PolynomialRegression(), "degree", range(13), f,
                                           noise_std=0.3, n_train=30, n_datasets=200, random_state=0)
    print(curve)
    print("degree      bias2    variance   E(f;D)   training")
    for d, b, v, e, t in zip(curve.values, curve.bias2, curve.variance, curve.expected_error, curve.train_error):
        print(f"{d:6d} {b:10.4g} {v:10.4g} {e:10.4g} {t:9.4f}")
    """),
    code(r"""
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    el.plots.plot_bias_variance_curve(curve, ax)
    ax.set_title("Expected error over complexity: 200 data sets of 30 points")
    plt.show()
    """),
    md(r"""
    The same U appears when training goes on longer rather than when the model grows (the notes' example is the
    depth of a decision tree): early on the learner cannot yet fit the data and bias dominates; later it fits
    every quirk of its sample and variance dominates.

    ## 4. Learning curves（学习曲线）

    A learning curve plots the training and the validation error against the size of the training set. It needs
    only one data set — no known truth — so it is the practical way to tell which side of the U a model is on.
    `el.biasvar.learning_curve` fits a clone on the first *n* training indices of each split of an evallib
    splitter; it agrees with scikit-learn's `learning_curve`.
    """),
    code(r"""
    from sklearn.model_selection import learning_curve as sk_learning_curve

    X, y = el.data.make_sine(200, noise_std=0.3, random_state=1)
    sizes = [20, 30, 45, 60, 90, 120, 160]
    cv = el.splits.KFold(5, random_state=0)
    curves = {d: el.biasvar.learning_curve(el.fitting.PolynomialRegression(d), X, y, sizes, cv) for d in (1, 12)}

    _, tr, te = sk_learning_curve(el.fitting.PolynomialRegression(12), X, y, train_sizes=sizes, cv=cv,
                                  scoring="neg_mean_squared_error", shuffle=False)
    assert np.allclose(curves[12].train_scores, -tr) and np.allclose(curves[12].test_scores, -te)
    for d, lc in curves.items():
        print(f"degree {d}:")
        print("     n  " + " ".join(f"{n:8d}" for n in lc.train_sizes))
        print("  train " + " ".join(f"{v:8.4g}" for v in lc.train_mean))
        print("  valid " + " ".join(f"{v:8.4g}" for v in lc.test_mean))
    """),
    code(r"""
    fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.8), layout="constrained")
    el.plots.plot_learning_curve(curves[1], axes[0], title="Degree 1: under-fitting")
    el.plots.plot_learning_curve(curves[12], axes[1], title="Degree 12: over-fitting")
    for ax in axes:
        ax.axhline(0.3**2, color="grey", ls=":", lw=1)
    axes[0].set_ylim(0, 0.45)
    axes[1].set_yscale("log")
    plt.show()
    """),
    md(r"""
    * **Under-fitting (degree 1):** the two curves meet quickly, and both stay high, far above the noise level
      (dotted). More data does not help; a more flexible model (or better features) does.
    * **Over-fitting (degree 12):** a large gap — training error below the noise, validation error huge for small
      training sets — that closes as the data grow. More data is exactly the cure, and so is a simpler model or
      regularisation.

    The simulation says the same in terms of bias and variance. For the line, ten times more data divides the
    variance by about ten and leaves the bias where it was (0.204). For degree 9, 20 points are barely more than
    its 10 coefficients and the fits are wild (even their average is off); with 200 points both terms almost
    vanish — a flexible model needs data in proportion to its flexibility.
    """),
    code(r"""
    print("degree    n     bias2   variance")
    for degree in (1, 9):
        for n in (20, 200):
            r = el.biasvar.bias_variance(el.fitting.PolynomialRegression(degree), f, noise_std=0.3, n_train=n,
                                         random_state=0)
            print(f"{degree:6d} {n:4d} {r.bias2:9.4g} {r.variance:10.4g}")
    """),
    md(r"""
    ## 5. Beyond squared loss: the 0-1 loss（0-1 损失）

    The notes remark that the clean split into three terms is derived for squared loss in regression, and that
    for classification it is hard to derive one. There *is* a decomposition for the 0-1 loss (Domingos 2000),
    but it is not a sum. For two classes, with $y^*$ the Bayes-optimal label, $y_m$ the **main prediction**
    (the majority vote of the models over training sets), noise $N(x) = P(t \ne y^*)$, bias
    $B(x) = [y_m \ne y^*]$ and variance $V(x) = P_D(f(x; D) \ne y_m)$:

    $$\mathbb{E}_{D,t}\big[L(t, f(x; D))\big] = c_1 N(x) + B(x) + c_2 V(x), \quad
      c_1 = 2P_D(f = y^*) - 1,\quad c_2 = \begin{cases} +1 & B(x) = 0 \\ -1 & B(x) = 1\end{cases}$$

    Where the main prediction is right, variance adds to the error; where it is wrong, variance *reduces* it
    (a model that is usually wrong is helped by sometimes changing its mind). So "bias + variance + noise" is
    not the expected 0-1 loss, and a learner can lower its error by *raising* its variance on biased points —
    the reason the squared-loss picture does not carry over. `el.biasvar.bias_variance_01` is this Domingos
    decomposition, clearly not 式(2.42).

    Below: $P(y = 1 \mid x) = 0.5 + 0.4 \sin(6\pi x)$ (three periods), decision trees of depth 1 (a stump:
    biased on about a third of the interval) and unlimited depth (low bias, high variance), 200 training sets of 60 points.
    """),
    code(r"""
    from sklearn.tree import DecisionTreeClassifier

    def p1(x):
        return 0.5 + 0.4 * np.sin(6 * np.pi * x)

    zo = {depth: el.biasvar.bias_variance_01(DecisionTreeClassifier(max_depth=depth, random_state=0), p1,
                                            n_train=60, n_datasets=200, random_state=0)
          for depth in (1, None)}
    print("depth   E[0-1]   noise    bias  variance  +V(unbiased)  -V(biased)  naive sum")
    for depth, z in zo.items():
        print(f"{str(depth):>5} {z.expected_loss:8.4f} {z.noise:7.4f} {z.bias:7.4f} {z.variance:9.4f} "
              f"{z.unbiased_variance:13.4f} {z.biased_variance:11.4f} {z.naive_sum:10.4f}")
        rhs = z.c1 * z.noise_per_point + z.bias_per_point + z.c2 * z.variance_per_point
        assert np.allclose(z.expected_loss_per_point, rhs)        # Domingos' identity holds at every x
        assert not np.isclose(z.expected_loss, z.naive_sum)      # the plain sum does not
    """),
    code(r"""
    fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.6), layout="constrained", sharey=True)
    for ax, (depth, z) in zip(axes, zo.items()):
        el.plots.plot_zero_one_decomposition(z, ax)
        ax.set_title(f"Decision tree, max_depth={depth}")
    plt.show()
    """),
    md(r"""
    On the shaded (biased) stretches the stump's variance is subtracted, not added. Its variance there is part
    of why its error is below "bias + variance + noise". The fully grown tree is rarely biased, so nearly all
    its variance adds to its error.

    ## Summary

    * 式(2.42): expected squared error = bias² + variance + noise, and a simulation with a known truth measures
      each term; the identity holds up to Monte-Carlo error.
    * Simple models are bias-dominated, flexible ones variance-dominated; the total error is U-shaped in
      complexity (the bias–variance dilemma).
    * Learning curves diagnose the side of the U from one data set: more data fixes variance, not bias.
    * For the 0-1 loss the terms interact (Domingos 2000): variance can lower the error where the main prediction
      is wrong, so the additive picture belongs to squared loss.
    """),
]


# ------------------------------------------------------------------------------------------------ 03
NB03 = [
    md(r"""
    # 03 · Tuning and the final model（调参与最终模型）

    **Goal:** choose a learner's parameters on a validation set, report its performance on a test set it has
    never seen, know why the winner's validation score is too good to report, and train the final model on all
    the data.

    西瓜书 §2.2.4 (调参与最终模型). Source notes: 000 (调参与最终模型), 004 (§1.2 调参和最终模型, validation
    vs test set).
    """),
    code(SETUP),
    md(r"""
    ## 1. A range and a step

    Most learners have settings that are not learned from the data but fixed before training: the depth of a
    tree, the strength of a penalty. Choosing them is **parameter tuning（调参）**. Most of them are real numbers,
    so we cannot try every value: we choose a range and a step and try the grid of values. The notes' example:
    the range $[0, 0.2]$ with step $0.05$ gives five candidates.

    The number of values is $(\text{high} - \text{low}) / \text{step} + 1$. Compute it, round it, and let
    `np.linspace` place the values: `np.arange` with a float step sometimes includes the end and sometimes not.
    """),
    code(r"""
    low, high, step = 0.0, 0.2, 0.05
    n_values = round((high - low) / step) + 1
    values = np.linspace(low, high, n_values)
    print(f"{n_values} candidates: {values}")
    assert np.allclose(values, [0.0, 0.05, 0.10, 0.15, 0.20])
    print("np.arange(0, 0.2, 0.05) ->", np.arange(0, 0.2, 0.05), " (the end is left out)")
    print("np.arange(1, 1.3, 0.1)  ->", np.arange(1, 1.3, 0.1), " (here the end is in: rounding)")
    """),
    md(r"""
    ### Grids grow as a power

    Every parameter multiplies the number of candidates: $n$ values for each of $p$ parameters make $n^p$
    configurations (the notes: three parameters with five values each are $5^3 = 125$), and with $k$-fold
    cross-validation each is trained $k$ times. Halving the step roughly doubles $n$, so it multiplies the work
    by about $2^p$. This is why tuning settles for a coarse grid: a compromise between cost and the chance of
    missing the best value. scikit-learn's `ParameterGrid` enumerates the same grids.
    """),
    code(r"""
    from sklearn.model_selection import ParameterGrid

    print(" step  values  1 parameter  2 parameters  3 parameters  3 parameters, 10-fold CV fits")
    for s in (0.05, 0.02, 0.01):
        n = round(0.2 / s) + 1
        grid_values = list(np.linspace(0, 0.2, n))
        sizes = [len(ParameterGrid({f"p{i}": grid_values for i in range(p)})) for p in (1, 2, 3)]
        assert sizes == [n, n**2, n**3]
        print(f"{s:5.2f} {n:7d} {sizes[0]:12d} {sizes[1]:13d} {sizes[2]:13d} {10 * sizes[2]:29d}")
    """),
    md(r"""
    ## 2. Training, validation and test sets

    Our example: the breast-cancer data that ships with scikit-learn (569 tumours, 30 measurements, benign or
    malignant) and a decision tree with two parameters:

    * `min_weight_fraction_leaf` on the notes' grid $0, 0.05, \dots, 0.2$: the smallest fraction of the training
      data a leaf must hold (0 lets the tree grow fully; 0.2 allows at most five leaves);
    * `max_depth` in $\{1, 2, 3, 4, \text{None}\}$.

    That is $5^2 = 25$ configurations. Three disjoint parts of the data play three roles:

    * the **training set（训练集）** fits each configuration;
    * the **validation set（验证集）** compares the configurations and picks one;
    * the **test set（测试集）** is touched once, at the end, to estimate how well the chosen model does.

    Both splits below are stratified hold-out splits from `el.splits`.
    """),
    code(r"""
    from sklearn.base import clone
    from sklearn.tree import DecisionTreeClassifier

    X, y = el.data.load_bundled("breast_cancer")
    grid = {"max_depth": [1, 2, 3, 4, None], "min_weight_fraction_leaf": list(values)}
    candidates = list(ParameterGrid(grid))
    tree = DecisionTreeClassifier(random_state=0)

    dev, test = next(el.splits.HoldOut(0.25, random_state=0).split(X, y))          # test: set aside
    tr, va = next(el.splits.HoldOut(1 / 3, random_state=0).split(X[dev], y[dev]))  # dev = train + validation
    train, val = dev[tr], dev[va]
    print(f"{len(candidates)} configurations; training {len(train)}, validation {len(val)}, test {len(test)} samples")
    """),
    code(r"""
    val_acc = np.array([clone(tree).set_params(**c).fit(X[train], y[train]).score(X[val], y[val])
                        for c in candidates])
    order = np.argsort(-val_acc, kind="stable")
    print("rank  max_depth  min_weight_fraction_leaf  validation accuracy")
    for rank, i in enumerate(order[:5], 1):
        c = candidates[i]
        print(f"{rank:4d} {str(c['max_depth']):>10} {c['min_weight_fraction_leaf']:25.2f} {val_acc[i]:20.4f}")
    best = candidates[order[0]]
    """),
    md(r"""
    The same search through scikit-learn: `GridSearchCV` accepts any evallib splitter as `cv=`. Given the
    development data and the same hold-out splitter, it fits the same 25 trees on the same training part and
    scores them on the same validation part — then, by default, refits the winner on training + validation.
    """),
    code(r"""
    from sklearn.model_selection import GridSearchCV

    search_ho = GridSearchCV(tree, grid, cv=el.splits.HoldOut(1 / 3, random_state=0)).fit(X[dev], y[dev])
    assert np.allclose(search_ho.cv_results_["mean_test_score"], val_acc)
    assert search_ho.best_params_ == best

    winner = clone(tree).set_params(**best).fit(X[train], y[train])
    print(f"winner: {best}")
    print(f"  validation accuracy (used to choose it):       {val_acc[order[0]]:.4f}")
    print(f"  test accuracy, trained on the training part:   {winner.score(X[test], y[test]):.4f}")
    print(f"  test accuracy, retrained on train + validation: {search_ho.score(X[test], y[test]):.4f}")
    """),
    md(r"""
    Two things to notice. Several configurations tie: with 142 validation samples accuracy moves in steps of
    1/142, and `GridSearchCV`, like our `argsort`, takes the first. And one test set of 143 samples is a noisy
    judge — here the tree retrained on more data happens to score lower (a depth-2 tree can change its splits
    completely when the 142 validation samples join the training data). Single numbers from single splits deserve little trust; the
    repeated experiment below averages over 20 splits.

    ## 3. Why the winner's validation score is optimistic

    The validation accuracy of each configuration is an estimate with some noise. Choosing the largest of 25
    noisy estimates picks, in part, the one whose noise happened to be favourable — so the winner's validation
    score is biased upwards even when no configuration is truly better than another. This **selection bias**
    is the reason the validation score of the chosen model is not reported as its performance.

    A from-scratch check of the size of the effect: $k$ configurations that are all exactly 90 % accurate,
    scored on a validation set of 142 samples (ours). Simulate their validation accuracies and take the best;
    `el.biasvar.expected_best_accuracy` computes the same expectation exactly from the binomial distribution
    ($P(\max \le t) = F(t)^k$).
    """),
    code(r"""
    m_val, true_acc = len(val), 0.90
    sims = rng.binomial(m_val, true_acc, size=(20000, 125)) / m_val
    print("  k  simulated best  exact (SciPy)  optimism")
    for k in (1, 5, 25, 125):
        simulated = sims[:, :k].max(axis=1).mean()
        exact = el.biasvar.expected_best_accuracy(k, m_val, true_acc)
        assert abs(simulated - exact) < 0.001
        print(f"{k:3d} {simulated:15.4f} {exact:14.4f} {exact - true_acc:+9.4f}")
    """),
    md(r"""
    With 25 configurations, the "best" looks between four and five points better than it is, and the 125 of a $5^3$ grid
    make it worse. On the real data, repeat the whole procedure — new split, tune on validation, test the
    winner (as trained on the training part) — 20 times:
    """),
    code(r"""
    def tune_once(seed):
        dev, test = next(el.splits.HoldOut(0.25, random_state=seed).split(X, y))
        tr, va = next(el.splits.HoldOut(1 / 3, random_state=seed).split(X[dev], y[dev]))
        fits = [clone(tree).set_params(**c).fit(X[dev[tr]], y[dev[tr]]) for c in candidates]
        scores = [f.score(X[dev[va]], y[dev[va]]) for f in fits]
        win = int(np.argmax(scores))
        return scores[win], fits[win].score(X[test], y[test])

    runs = np.array([tune_once(seed) for seed in range(20)])
    gap = runs[:, 0] - runs[:, 1]
    print(f"winner's validation accuracy: mean {runs[:, 0].mean():.4f}")
    print(f"winner's test accuracy:       mean {runs[:, 1].mean():.4f}")
    print(f"optimism: {gap.mean():+.4f} (standard error {gap.std(ddof=1) / np.sqrt(len(gap)):.4f}); "
          f"validation above test in {np.sum(gap > 0)} of {len(gap)} repeats")
    assert gap.mean() > 0
    """),
    code(r"""
    fig, ax = plt.subplots(figsize=(5.2, 4.2))
    el.plots.plot_winner_optimism(runs[:, 0], runs[:, 1], ax)
    ax.set_title("Tuned decision tree, 20 repeats")
    plt.show()
    """),
    md(r"""
    ## 4. Nested cross-validation: an honest estimate of "tune, then train"

    A test set used once gives an unbiased estimate, but from one small split. When the data are too few to
    spare a test set, **nested cross-validation** estimates the whole procedure: an outer $k$-fold loop holds
    out each fold in turn; on the remaining data an inner cross-validation tunes the parameters
    (`GridSearchCV`), the winner is refitted, and only then is it scored on the outer fold, which took no part in
    the choice. The inner `best_score_` of a single search on all the data is the winner's validation score again:
    optimistic. (Three inner folds keep the cost at 25 × 3 × 5 = 375 fits.)
    """),
    code(r"""
    from sklearn.model_selection import cross_val_score

    search = GridSearchCV(tree, grid, cv=el.splits.KFold(3, random_state=1))
    nested = cross_val_score(search, X, y, cv=el.splits.KFold(5, random_state=2))
    search.fit(X, y)
    print(f"non-nested: inner 3-fold CV accuracy of the winner {search.best_score_:.4f}  {search.best_params_}")
    print(f"nested CV accuracy (3 inner, 5 outer folds): {nested.mean():.4f}   folds: {np.round(nested, 4)}")
    print(f"fits: {len(candidates)} x 3 inner x 5 outer + 5 refits = {len(candidates) * 15 + 5} for the nested estimate")
    """),
    md(r"""
    On this data the two numbers agree to within their noise: the configurations differ genuinely,
    and cross-validation averages away much of the noise a winner could exploit. The bias is plain when we *know* the truth. Give
    the same search 300 samples whose labels are coin flips, independent of the five features: no model can be
    right more than 50 % of the time on new data.
    """),
    code(r"""
    X_noise = rng.normal(size=(300, 5))
    y_noise = rng.integers(0, 2, size=300)
    search_noise = GridSearchCV(tree, grid, cv=el.splits.KFold(5, random_state=1))
    nested_noise = cross_val_score(search_noise, X_noise, y_noise, cv=el.splits.KFold(5, random_state=2))
    search_noise.fit(X_noise, y_noise)
    print("true accuracy of every model:   0.5000")
    print(f"non-nested best_score_:         {search_noise.best_score_:.4f}  {search_noise.best_params_}")
    print(f"nested CV accuracy:             {nested_noise.mean():.4f}  "
          f"(standard error {nested_noise.std(ddof=1) / np.sqrt(5):.4f})")
    """),
    md(r"""
    The winner of 25 coin-flip models "looks" almost three points better than chance; the nested estimate does not
    fall for it. The optimism grows with the size of the grid and shrinks with the size of the data.

    ## 5. The final model（最终模型）

    Tuning chose the *algorithm and its parameters* using part of the data. The model we hand over should
    learn from all of it: retrain the chosen configuration on the whole data set $D$ of $m$ samples. With
    `refit=True` (the default), `GridSearchCV` does exactly that after the search; `best_estimator_` is the final
    model. The number to report with it is the nested estimate (or the test-set estimate): it comes from models
    trained on a little less data, so if anything it is slightly pessimistic for the final model.
    """),
    code(r"""
    final = search.best_estimator_
    assert final.tree_.n_node_samples[0] == len(y)   # the root saw all 569 samples
    params = final.get_params()
    print(f"final model: max_depth={params['max_depth']}, min_weight_fraction_leaf={params['min_weight_fraction_leaf']}, "
          f"{final.get_n_leaves()} leaves, trained on {len(y)} samples")
    print(f"estimate to report: nested CV accuracy {nested.mean():.4f}")
    """),
    md(r"""
    ## Summary

    * Tuning tries a grid: a range and a step per parameter; the grid grows as $n^p$ ($5^3 = 125$).
    * Training set to fit, validation set to choose, test set to report — each used for one job.
    * The winner's validation score is optimistic (selection bias), more so with more candidates and smaller
      validation sets; nested cross-validation estimates the whole tune-then-train procedure honestly.
    * The final model is the chosen configuration retrained on all the data.
    """),
]

if __name__ == "__main__":
    which = sys.argv[1:] or ["03", "10"]
    if "10" in which:
        write("10_bias_variance.ipynb", NB10)
    if "03" in which and NB03:
        write("03_tuning_and_final_model.ipynb", NB03)
