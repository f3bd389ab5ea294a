"""Source of notebooks 01 and 02. Run: .venv/bin/python scripts/make_nb_01_02.py && make regen"""
from pathlib import Path

from nbgen import SETUP, code, md, write

NB = Path(__file__).resolve().parent.parent / "notebooks"

nb01 = [
    md("""
    # 01 · Error and over-fitting（经验误差与过拟合）

    **Goal:** measure how often a learner is wrong, and see why driving the training error to zero is not the aim.

    西瓜书 §2.1 (error rate E = a/m, accuracy 1 − a/m; the general forms are 式(2.4)–(2.5) in §2.3.1, and the
    mean squared error used for regression is 式(2.2)). Source notes: `000` (经验误差与过拟合), `004` §1.1.
    Next: [02 · Evaluation methods](02_evaluation_methods.ipynb).
    """),
    code(SETUP),
    md("""
    ## 1. Error rate and accuracy

    A classifier that gets *a* of *m* samples wrong has **error rate**（错误率）E = a/m and **accuracy**（精度）
    1 − E. More generally, the gap between what a learner outputs and the truth is its **error**（误差）: on the
    data it was trained on, the **training error**（训练误差, also *empirical error* 经验误差）; on new samples,
    the **generalisation error**（泛化误差）, which is what we actually care about and can never observe directly.

    The notes' example: a model trained on 700 melons misclassifies 90 of the 300 held-out ones.
    """),
    code("""
    m, a = 300, 90
    y_true = np.ones(m, dtype=int)
    y_pred = y_true.copy()
    y_pred[:a] = 0                      # 90 wrong predictions
    E = a / m                           # by hand: E = a / m
    print(f"error rate E = {a}/{m} = {E:.2f},  accuracy = 1 - E = {1 - E:.2f}")
    assert el.metrics.error_rate(y_true, y_pred) == E
    assert el.metrics.accuracy(y_true, y_pred) == 1 - E
    """),
    md("""
    **In the notes:** `000` writes "精度 = 1 − 分类错误率 = 分类错误率 = (1/m) Σ I(f(xᵢ) = yᵢ)": the middle term is a
    slip. Accuracy is 1 − E and equals (1/m) Σ I(f(xᵢ) = yᵢ) (式(2.5)); it equals the error rate only when both are
    0.5. In the example above they are 0.70 and 0.30:
    """),
    code("""
    acc = np.mean(y_true == y_pred)     # (1/m) Σ I(f(x_i) = y_i), 式(2.5)
    print(f"accuracy {acc:.2f} vs error rate {np.mean(y_true != y_pred):.2f}")
    assert acc == 1 - E and acc != E
    """),
    md("""
    ## 2. Training error on the watermelon data

    The book's watermelon data set 3.0α（西瓜数据集 3.0α）has 17 melons with two features, density（密度）and
    sugar content（含糖率）, 8 good and 9 bad.
    """),
    code("""
    wm = el.data.load_watermelon()
    print(wm)
    for i in (0, 1, 8, 16):
        print(f"melon {i + 1:2d}: density {wm.X[i, 0]:.3f}, sugar {wm.X[i, 1]:.3f}, good = {wm.y[i]}")
    ax = el.plots.plot_watermelon(wm)
    plt.show()
    """),
    md("""
    The simplest rule learns one cut on one feature: "good if sugar > t". From scratch: try every cut halfway
    between neighbouring sugar values and count the training mistakes.
    """),
    code("""
    sugar = np.sort(wm.X[:, 1])
    cuts = (sugar[:-1] + sugar[1:]) / 2
    train_err = [(np.where(wm.X[:, 1] > t, 1, 0) != wm.y).mean() for t in cuts]   # 16 candidate rules
    best = cuts[np.argmin(train_err)]
    print(f"best cut: sugar > {best:.4f}  ->  training error {min(train_err):.4f} ({round(min(train_err) * 17)} of 17 wrong)")
    """),
    md("""
    A decision stump from scikit-learn finds the same cut (it optimises Gini impurity, which here agrees with the
    error count). A deeper tree keeps splitting until every training melon is right: its training error reaches 0.
    To see how it does on melons it has *not* seen, we leave each melon out in turn, train on the other 16 and
    test on the one left out (leave-one-out, the subject of [02](02_evaluation_methods.ipynb)).
    """),
    code("""
    from sklearn.tree import DecisionTreeClassifier

    stump = DecisionTreeClassifier(max_depth=1).fit(wm.X[:, [1]], wm.y)
    assert abs(stump.tree_.threshold[0] - best) < 1e-6
    loo = el.splits.LeaveOneOut()
    print("depth | training error | leave-one-out error")
    for depth in (1, 2, 3):
        tree = DecisionTreeClassifier(max_depth=depth, random_state=0)
        tr = el.metrics.error_rate(wm.y, tree.fit(wm.X, wm.y).predict(wm.X))
        te = el.evaluation.evaluate(tree, wm.X, wm.y, loo).mean()
        print(f"{depth:5d} | {tr:14.4f} | {te:18.4f}")
    """),
    md("""
    The depth-3 tree makes no training mistakes, yet about one melon in six is misclassified when it is new.
    A training error of zero says the learner has memorised the data, not that it has learned the concept.

    **In the notes:** `000` says that since new samples are unknown, "we can only make the training error as small
    as possible". That is the trap this chapter exists to avoid: minimising the training error is exactly how a
    learner over-fits. We want the smallest *generalisation* error, and estimate it on data the learner did not
    train on (§2.2); the table above is the proof on 17 melons.

    ## 3. Over-fitting and under-fitting（过拟合与欠拟合）

    **Over-fitting**: the learner takes quirks of the training sample (its noise) for properties of all data, so
    the training error is small and the generalisation error large. **Under-fitting**: the learner is too simple
    to capture even the general pattern, so both errors are large. Over-fitting can be relieved but never
    removed: a learner that could always avoid it would solve an NP-hard problem in polynomial time (西瓜书 §2.1).

    We fit polynomials of increasing degree to 20 noisy samples of y = sin(2πx) + ε, ε ~ N(0, 0.25²), and
    measure the mean squared error（均方误差）E = (1/m) Σ (f(xᵢ) − yᵢ)² (式(2.2)) on the 20 training points and on
    1000 fresh test points.
    """),
    code("""
    exp = el.fitting.polynomial_experiment(20, noise_std=0.25, random_state=rng)
    coef = np.polyfit(exp.x_train, exp.y_train, 3)                     # from scratch: numpy's least squares
    mse3 = np.mean((np.polyval(coef, exp.x_train) - exp.y_train) ** 2)
    print(f"degree 3 training MSE: numpy {mse3:.6f}, evallib {exp.train_mse[3]:.6f}")
    assert np.isclose(mse3, exp.train_mse[3], rtol=1e-8)
    """),
    code("""
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), sharey=True)
    for ax, d in zip(axes, (1, 3, 12)):
        el.plots.plot_polynomial_fit(exp, d, ax=ax)
        ax.set_title(f"degree {d}")
        print(f"degree {d:2d}: training MSE {exp.train_mse[d]:.4f}, test MSE {exp.test_mse[d]:.4f}")
    plt.show()
    """),
    md("""
    Degree 1 under-fits (both errors high), degree 3 follows the sine, degree 12 chases the noise: lowest training
    error, worst test error. Across all degrees the training error only falls, because every polynomial of degree
    d is also one of degree d + 1; the test error falls, bottoms out near the noise variance 0.0625 (no model can
    beat the noise), and then rises.
    """),
    code("""
    print("degree | train MSE | test MSE")
    for d in range(0, 16, 3):
        print(f"{d:6d} | {exp.train_mse[d]:9.4f} | {exp.test_mse[d]:9.4f}")
    print(f"lowest test error at degree {exp.best_degree}")
    assert np.all(np.diff(exp.train_mse) <= 1e-12)   # training error never rises with the degree
    ax = el.plots.plot_train_test_curve(exp.degrees, exp.train_mse, exp.test_mse, logy=True, floor=0.25 ** 2,
                                        xlabel="polynomial degree", ylabel="mean squared error")
    plt.show()
    """),
    md("""
    ## 4. The same on real data

    The breast-cancer data bundled with scikit-learn (569 tumours, 30 features). We grow decision trees of
    depth 1 to 12, and for each depth average the training and test error rates over 20 stratified hold-out
    splits (70 % / 30 %, see [02](02_evaluation_methods.ipynb)); the band is ± one standard deviation.
    """),
    code("""
    X, y = el.data.load_bundled("breast_cancer")
    depths = list(range(1, 13))
    curve = el.evaluation.complexity_curve(DecisionTreeClassifier(random_state=0), "max_depth", depths, X, y,
                                           el.splits.HoldOut(0.3, n_repeats=20, random_state=0))
    for d, tr, te in zip(depths, curve.train_mean, curve.test_mean):
        if d in (1, 2, 4, 8, 12):
            print(f"depth {d:2d}: training error {tr:.4f}, test error {te:.4f}")
    print(f"lowest mean test error at depth {depths[int(np.argmin(curve.test_mean))]}")
    ax = el.plots.plot_train_test_curve(depths, curve.train, curve.test, xlabel="tree depth", ylabel="error rate")
    plt.show()
    """),
    md("""
    From depth 7 on, the trees classify every training tumour correctly, while the test error is higher than at
    depth 4. The gap between the two curves is the over-fitting.

    ## 5. Explorer: model complexity

    Move the degree, the number of training samples and the noise. Things to try: at degree 12, raise the
    training samples from 20 to 100 (more data tames a complex model); set the noise to 0 (the test error can then
    approach 0); at noise 1.0, notice how early the test error starts to rise.
    """),
    code("""
    el.widgets.fitting_explorer(seed=0)
    """),
    md("""
    ## Summary

    - Error rate E = a/m and accuracy 1 − E; the error on the training data is not the error we care about.
    - Training error falls with complexity; generalisation error is U-shaped: under-fitting on the left,
      over-fitting on the right.
    - So we need data the learner has not seen to estimate the generalisation error: the evaluation methods of
      [02 · Evaluation methods](02_evaluation_methods.ipynb).
    """),
]

nb02 = [
    md("""
    # 02 · Evaluation methods（评估方法）

    **Goal:** estimate the generalisation error from one data set: hold-out, cross-validation, leave-one-out and
    the bootstrap, and what each costs.

    西瓜书 §2.2.1–2.2.3, 式(2.1) (the bootstrap's (1 − 1/m)^m → 1/e), exercises 2.1 and 2.2. Source notes: `000`
    (评估方法), `004` §2.1–2.3, `002`. Previous: [01](01_error_and_fitting.ipynb) · next:
    [03 · Tuning and the final model](03_tuning_and_final_model.ipynb).
    """),
    code(SETUP),
    md("""
    We need a **test set**（测试集）: samples drawn from the same distribution as the training set but disjoint from
    it, so that the **testing error**（测试误差）approximates the generalisation error. With a single data set D of m
    samples, the methods below decide which samples train and which test.

    ## 1. Hold-out（留出法）

    Split D into two disjoint parts, train on S and test on T. Keep the class proportions equal in both parts:
    **stratified sampling**（分层采样）. The notes' example: 100 samples, half positive, 70 for training → 35/35 in
    training and 15/15 in testing. From scratch, per class, then through `el.splits.HoldOut`:
    """),
    code("""
    y = np.repeat([1, 0], 50)
    test = np.concatenate([rng.choice(np.flatnonzero(y == c), size=15, replace=False) for c in (1, 0)])
    train = np.setdiff1d(np.arange(100), test)
    print(f"by hand: train {len(train)} ({y[train].sum()} positive), test {len(test)} ({y[test].sum()} positive)")

    ho = el.splits.HoldOut(test_size=0.3, random_state=0)
    tr, te = next(ho.split(np.zeros(100), y))
    print(f"HoldOut: train {len(tr)} ({y[tr].sum()} positive), test {len(te)} ({y[te].sum()} positive)")
    assert (len(tr), y[tr].sum(), len(te), y[te].sum()) == (len(train), y[train].sum(), len(test), y[test].sum())
    """),
    md("""
    **Exercise 2.1** asks how many different ways there are to split 1000 samples (500 positive, 500 negative) into
    70 % training and 30 % test with stratification: choose 150 of each class for the test set, C(500, 150)².
    """),
    code("""
    from math import comb, log10
    n = comb(500, 150) ** 2
    print(f"C(500, 150)^2 = {str(n)[:6]}... x 10^{int(log10(n))} ({len(str(n))} digits)")
    """),
    md("""
    One split is one draw of a random quantity, so the book repeats the random split (say 100 times) and reports
    the mean. How much the estimate moves depends on the test-set size: a small T gives a noisy estimate; a large
    T leaves a small S, so the model we evaluate is worse than the one we would train on all of D (a pessimistic
    bias). The book's rule of thumb: use 2/3 to 4/5 of the data for training.

    The breast-cancer data (569 samples), a decision tree, 50 stratified hold-out repeats for each test fraction:
    """),
    code("""
    from sklearn.tree import DecisionTreeClassifier

    X, y = el.data.load_bundled("breast_cancer")
    fractions = np.round(np.arange(0.1, 0.95, 0.1), 1)
    tree = DecisionTreeClassifier(random_state=0)
    spread = np.array([el.evaluation.evaluate(tree, X, y, el.splits.HoldOut(f, n_repeats=50, random_state=1))
                       for f in fractions])
    print("test fraction | training samples | mean error | std over 50 splits")
    for f, s in zip(fractions, spread):
        print(f"{f:13.1f} | {569 - int(np.ceil(f * 569)):16d} | {s.mean():10.4f} | {s.std(ddof=1):.4f}")
    ax = el.plots.plot_estimate_spread(fractions, spread, ylabel="hold-out error estimate")
    plt.show()
    """),
    md("""
    Two effects show. The mean error rises (from about 0.067 to 0.100) as the training set shrinks: with 56 training samples the tree
    we evaluate is much worse than one trained on all 569 (a pessimistic bias). The spread is largest at the
    extremes: tiny test sets give noisy estimates, and tiny training sets give unstable trees.

    ## 2. k-fold cross-validation（交叉验证法）

    Split D into k disjoint folds of (nearly) equal size, stratified. Each fold serves once as the test set while
    the other k − 1 train; the estimate is the mean of the k test errors. Because the result depends on the
    random partition, it is repeated p times with new partitions: "p 次 k 折交叉验证", p·k fits in all
    (10 × 10-fold: 100 fits). From scratch on the watermelons (k = 5): deal each class's shuffled melons to the
    folds in turn.
    """),
    code("""
    wm = el.data.load_watermelon()
    order = np.concatenate([rng.permutation(np.flatnonzero(wm.y == c)) for c in (1, 0)])
    folds_by_hand = [np.sort(order[i::5]) for i in range(5)]        # deal to 5 folds
    print("by hand, fold sizes:", [len(f) for f in folds_by_hand], "good melons per fold:",
          [int(wm.y[f].sum()) for f in folds_by_hand])

    kf = el.splits.KFold(5, random_state=0)
    folds = [te for _, te in kf.split(wm.X, wm.y)]
    print("KFold,   fold sizes:", [len(f) for f in folds], "good melons per fold:", [int(wm.y[f].sum()) for f in folds])
    assert sorted(np.concatenate(folds).tolist()) == list(range(17))          # a partition of the 17 melons
    assert sorted(map(len, folds)) == sorted(map(len, folds_by_hand))
    assert sorted(int(wm.y[f].sum()) for f in folds) == sorted(int(wm.y[f].sum()) for f in folds_by_hand)
    """),
    code("""
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.2))
    el.plots.plot_splits(el.splits.KFold(5, random_state=0), wm.X, wm.y, ax=axes[0])
    el.plots.plot_splits(el.splits.HoldOut(0.3, n_repeats=5, random_state=0), wm.X, wm.y, ax=axes[1])
    plt.show()
    """),
    md("""
    From here on, a Gaussian naive Bayes classifier (fast to fit). Every evallib splitter follows scikit-learn's splitter protocol, so it can be handed to `cross_val_score`
    (or `GridSearchCV`) unchanged, and the two agree to the last digit:
    """),
    md("""
    **In the notes:** `000` says cross-validation splits D into k parts "with k > 2". The smallest valid choice is
    k = 2 (two folds, each training on one half and testing on the other), and it is not a curiosity: the 5 × 2-fold
    test of [08](08_hypothesis_tests.ipynb) is built on it. The rule is 2 ≤ k ≤ m:
    """),
    code("""
    two = [te for _, te in el.splits.KFold(2, random_state=0).split(wm.X, wm.y)]
    print("2-fold on the melons: fold sizes", [len(f) for f in two], "good melons per fold", [int(wm.y[f].sum()) for f in two])
    assert sorted(np.concatenate(two).tolist()) == list(range(17))
    """),
    code("""
    from sklearn.model_selection import cross_val_score
    from sklearn.naive_bayes import GaussianNB

    kf = el.splits.KFold(10, n_repeats=10, random_state=0)
    ours = el.evaluation.evaluate(GaussianNB(), X, y, kf)                     # error rate per fold
    theirs = 1 - cross_val_score(GaussianNB(), X, y, cv=kf, scoring="accuracy")
    print(f"10 x 10-fold error: evallib {ours.mean():.6f}, scikit-learn {theirs.mean():.6f} ({len(ours)} fits)")
    assert np.allclose(ours, theirs, atol=1e-15)
    """),
    md("""
    How much does one k-fold estimate move, and what does it cost? For several k, 10 repetitions each:
    """),
    code("""
    rows = [" k | fits per estimate | mean estimate | std over 10 repeats"]
    for k in (2, 5, 10, 20):
        r = el.evaluation.cross_validation(GaussianNB(), X, y, n_splits=k, n_repeats=10, random_state=0)
        rows.append(f"{k:2d} | {k:17d} | {r.mean:13.4f} | {r.repeat_std:.4f}")
    print("\\n".join(rows))
    """),
    md("""
    ### Explorer: k and p

    Each grey dot is one fold's test error, each blue dot one complete k-fold estimate, the red line the mean of
    all p·k folds. Raise p: the blue dots scatter around a stable mean, and the cost p·k grows linearly. Raise k:
    each fold gets smaller (noisier grey dots), but the training sets get larger.
    """),
    code("""
    el.widgets.kfold_explorer(GaussianNB(), X, y, random_state=0)
    """),
    md("""
    ## 3. Leave-one-out（留一法）

    The extreme k = m: each sample is a test set on its own. There is only one way to split, so no repetition is
    needed, and each training set is almost all of D, so the evaluated model is very close to the one trained on D.
    The price is m fits, and it is not always more accurate ("no free lunch" applies to estimators too).
    """),
    code("""
    loo = list(el.splits.LeaveOneOut().split(wm.X))
    kfm = sorted(te.tolist() for _, te in el.splits.KFold(17, stratify=False).split(wm.X))
    assert [te.tolist() for _, te in loo] == kfm == [[i] for i in range(17)]   # LOO is k-fold with k = m
    err = el.evaluation.evaluate(GaussianNB(), wm.X, wm.y, el.splits.LeaveOneOut())
    print(f"{len(loo)} fits; leave-one-out error of naive Bayes on the watermelons: {err.mean():.4f} "
          f"({int(err.sum())} of 17 wrong)")
    """),
    md("""
    **In the notes:** `004` states that leave-one-out results "are generally considered accurate". The book is more
    careful: they are *often* considered fairly accurate, and the no-free-lunch argument applies to estimators too.
    Exercise 2.2 is the counterexample, with leave-one-out as wrong as an estimate can be.

    ### Exercise 2.2: when leave-one-out is badly wrong

    100 samples, half positive, half negative, and a learner that predicts the majority class of its training set
    (a tie goes to the first class). Its true error is 50 %. Stratified 10-fold: every training set holds 45 + 45,
    so the learner predicts class 0 and every test fold (5 + 5) is half wrong: 50 %. Leave-one-out: removing one
    sample makes its own class the minority of the other 99, so the learner predicts the *other* class every
    time: 100 % error.
    """),
    code("""
    from sklearn.dummy import DummyClassifier

    Xt, yt = el.data.make_majority_trap(100)
    majority = DummyClassifier(strategy="most_frequent")
    cv10 = el.evaluation.evaluate(majority, Xt, yt, el.splits.KFold(10, random_state=0)).mean()
    loo100 = el.evaluation.evaluate(majority, Xt, yt, el.splits.LeaveOneOut()).mean()
    print(f"stratified 10-fold error: {cv10:.2f}   leave-one-out error: {loo100:.2f}")
    assert (cv10, loo100) == (0.5, 1.0)
    """),
    md("""
    ## 4. The bootstrap（自助法）

    Draw m times *with replacement* from D to get a training set D′ of m samples; some are drawn several times,
    some never. A given sample is missed by all m draws with probability (1 − 1/m)^m, which tends to
    1/e ≈ 0.368 (式(2.1)). The samples never drawn form the test set: the **out-of-bag estimate**（包外估计）.
    The bootstrap is useful when data are few, but D′ does not follow D's distribution (duplicates), which biases
    the estimate; with enough data, hold-out and cross-validation are preferred.
    """),
    code("""
    m = 17
    draw = rng.integers(0, m, size=m)                       # by hand: one bootstrap sample of the melons
    oob = np.setdiff1d(np.arange(m), draw)
    print(f"drawn indices (sorted): {np.sort(draw).tolist()}")
    print(f"never drawn: {oob.tolist()} -> {len(oob)} of {m} out of bag; expected fraction "
          f"{el.splits.out_of_bag_fraction(m):.4f}")
    train, test = next(el.splits.Bootstrap(random_state=0).split(wm.X))
    assert len(train) == m and set(test).isdisjoint(train) and set(test) | set(train) == set(range(m))
    """),
    code("""
    ms = np.array([2, 5, 10, 30, 100, 1000, 10_000])
    simulated = np.array([el.splits.simulate_oob_fraction(int(m), 200, random_state=1).mean() for m in ms])
    for m_, f, s in zip(ms, [el.splits.out_of_bag_fraction(int(v)) for v in ms], simulated):
        print(f"m = {m_:6d}: (1 - 1/m)^m = {f:.4f}, simulated {s:.4f}")
    print(f"limit 1/e = {np.exp(-1):.4f}")
    ax = el.plots.plot_oob_fraction(ms, simulated=simulated)
    plt.show()
    """),
    code("""
    boot = el.evaluation.evaluate(GaussianNB(), X, y, el.splits.Bootstrap(50, random_state=0))   # out-of-bag test sets
    cv = el.evaluation.evaluate(GaussianNB(), X, y, el.splits.KFold(10, n_repeats=5, random_state=0))
    print(f"breast cancer, naive Bayes: out-of-bag error {boot.mean():.4f} (50 bootstraps), "
          f"5 x 10-fold error {cv.mean():.4f}")
    """),
    md("""
    ## Summary

    | method | training set | test set | fits | watch out for |
    |---|---|---|---|---|
    | hold-out | 2/3–4/5 of D | the rest, stratified | one per repeat | one split is noisy: repeat and average |
    | k-fold CV | (k−1)/k of D | one fold | k per repeat (p·k) | depends on the partition: repeat p times |
    | leave-one-out | m − 1 samples | one sample | m | costly; can fail badly (exercise 2.2) |
    | bootstrap | m draws with replacement | out of bag (≈ 36.8 %) | one per repeat | changes the data distribution |

    Next, [03 · Tuning and the final model](03_tuning_and_final_model.ipynb): using these estimates to choose
    parameters, and why the chosen model's score is optimistic.
    """),
]

if __name__ == "__main__":
    write(NB / "01_error_and_fitting.ipynb", nb01)
    write(NB / "02_evaluation_methods.ipynb", nb02)
    print("wrote notebooks 01 and 02")
