"""Source of notebooks 04–07 (performance measures). Run:

    .venv/bin/python scripts/make_nb_04_07.py [04 05 06 07]
    make regen NB=notebooks/05_roc_pr_curves.ipynb
"""
import sys
from pathlib import Path

from nbgen import SETUP, code, md, write

NB = Path(__file__).resolve().parent.parent / "notebooks"

# Shared data cell: the breast-cancer data with malignant tumours as the positive class, one stratified hold-out.
CANCER = """
X, target = el.data.load_bundled("breast_cancer")
y = 1 - target                      # scikit-learn codes malignant as 0; here malignant = 1 = positive (正例)
X = X[:, [1, 4, 9]]                 # three weak features only: mean texture, smoothness, fractal dimension
train, test = next(el.splits.HoldOut(0.3, random_state=0).split(X, y))
print(f"{len(y)} tumours, {y.sum()} malignant; training set {len(train)}, test set {len(test)} ({y[test].sum()} malignant)")
"""

MODELS = """
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

models = {
    "logistic regression": make_pipeline(StandardScaler(), LogisticRegression()),
    "decision tree (depth 3)": DecisionTreeClassifier(max_depth=3, random_state=0),
}
scores = {name: m.fit(X[train], y[train]).predict_proba(X[test])[:, 1] for name, m in models.items()}
y_test = y[test]
for name, s in scores.items():
    print(f"{name:>24}: {len(np.unique(s)):3d} distinct scores on {len(s)} test tumours")
"""

# ===================================================================================================== 04
nb04 = [
    md("""
    # 04 · Classification metrics（错误率、查准率、查全率与 F1）

    **Goal:** read a classifier's mistakes off its confusion matrix, and choose between precision, recall, F1 and
    F-beta for the task at hand; average them over several confusion matrices the way the book does.

    西瓜书 §2.3.1–2.3.2, 式(2.4)–(2.17) (error rate, accuracy, precision 式(2.8), recall 式(2.9), F1 式(2.10),
    F-beta 式(2.11), macro and micro averages 式(2.12)–(2.17)). Source notes: `000` (查准率、查全率与F1),
    `001` §2.3, `002` (性能度量), `004` §3.1. Previous: [03](03_tuning_and_final_model.ipynb);
    next: [05 · ROC and P-R curves](05_roc_pr_curves.ipynb).
    """),
    code(SETUP),
    md("""
    ## 1. A real task: finding malignant tumours

    scikit-learn ships the Wisconsin breast-cancer data (569 tumours, 30 features). The class we are looking
    for, a malignant tumour, is the **positive class**（正例）; benign is the **negative class**（反例）. With all
    30 features a classifier makes only a handful of mistakes on the test set; to see the trade-offs we keep three
    weak features (mean texture, smoothness and fractal dimension). We train a logistic regression on a
    stratified 70 % hold-out split and predict the other 30 %.
    """),
    code(CANCER),
    code("""
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.linear_model import LogisticRegression

    clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[train], y[train])
    y_test, y_pred = y[test], clf.predict(X[test])
    E = np.mean(y_pred != y_test)                       # 式(2.4)
    print(f"error rate {E:.4f}, accuracy {1 - E:.4f}")
    assert el.metrics.error_rate(y_test, y_pred) == E and el.metrics.accuracy(y_test, y_pred) == 1 - E
    """),
    md("""
    The error rate treats every mistake alike. A missed cancer and a false alarm are very different mistakes;
    the **confusion matrix**（混淆矩阵）keeps them apart.

    ## 2. The confusion matrix（表2.1）

    | true class \\ predicted | positive | negative |
    |---|---|---|
    | positive | TP（真正例） | FN（假反例） |
    | negative | FP（假正例） | TN（真反例） |

    Rows are the **true** class, columns the **prediction**; TP + FN + FP + TN = m.
    """),
    code("""
    TP = np.sum((y_test == 1) & (y_pred == 1))
    FN = np.sum((y_test == 1) & (y_pred == 0))
    FP = np.sum((y_test == 0) & (y_pred == 1))
    TN = np.sum((y_test == 0) & (y_pred == 0))
    cm = el.metrics.confusion_matrix(y_test, y_pred)
    print(f"by hand: TP={TP}, FN={FN}, FP={FP}, TN={TN}")
    print("evallib [[TP, FN], [FP, TN]] =", cm.tolist())
    assert cm.tolist() == [[TP, FN], [FP, TN]] and cm.sum() == len(y_test)
    ax = el.plots.plot_confusion_matrix(cm, title="Logistic regression, test set")
    plt.show()
    """),
    md("""
    scikit-learn lays the same four numbers out differently: it sorts the labels, so with 0 = negative and
    1 = positive its matrix is `[[TN, FP], [FN, TP]]`, the book's matrix turned by 180°. Always check which
    layout a table uses before reading "the top-left cell".
    """),
    code("""
    from sklearn.metrics import confusion_matrix as sk_confusion_matrix

    sk = sk_confusion_matrix(y_test, y_pred)
    print("scikit-learn [[TN, FP], [FN, TP]] =", sk.tolist())
    assert np.array_equal(np.rot90(sk, 2), cm)
    """),
    md("""
    **In the notes:** `001` heads its confusion-matrix table "预测类别 \\ 真实类别" (rows = predicted class) but fills
    the cells as rows = *true* class: its first row holds TP and FN, and FN is a *true positive* predicted
    negative. With rows = predicted the first row would be TP, FP. The cells are right, the header is not; the
    check: a row of the book's layout sums to the number of samples of that *true* class.
    """),
    code("""
    print(f"row sums {cm.sum(axis=1).tolist()} = true class sizes {[int(y_test.sum()), int((1 - y_test).sum())]}")
    print(f"column sums {cm.sum(axis=0).tolist()} = predicted class sizes {[int(y_pred.sum()), int((1 - y_pred).sum())]}")
    assert cm.sum(axis=1).tolist() == [y_test.sum(), (1 - y_test).sum()]
    """),
    md("""
    ## 3. Precision, recall and F1

    * **Precision**（查准率）P = TP / (TP + FP) (式(2.8)): of the tumours we flag, how many are malignant?
    * **Recall**（查全率）R = TP / (TP + FN) (式(2.9)): of the malignant tumours, how many do we flag?
    * **F1** (式(2.10)) is their harmonic mean, 2PR / (P + R), which in counts is 2TP / (m + TP − TN).
      The harmonic mean sits close to the *smaller* of the two: a classifier cannot hide a bad recall behind a
      perfect precision.
    """),
    code("""
    P, R = TP / (TP + FP), TP / (TP + FN)
    F1 = 2 * P * R / (P + R)
    m = len(y_test)
    print(f"P = {P:.4f}, R = {R:.4f}, F1 = {F1:.4f}, 2TP/(m+TP-TN) = {2 * TP / (m + TP - TN):.4f}")
    assert np.isclose(el.metrics.precision(y_test, y_pred), P) and np.isclose(el.metrics.recall(y_test, y_pred), R)
    assert np.isclose(el.metrics.f1_score(y_test, y_pred), F1) and np.isclose(F1, 2 * TP / (m + TP - TN))

    from sklearn import metrics as skm
    assert np.isclose(skm.f1_score(y_test, y_pred), F1)
    print(f"arithmetic mean {(P + R) / 2:.4f} >= geometric {np.sqrt(P * R):.4f} >= harmonic (F1) {F1:.4f}")
    """),
    md("""
    **In the notes:** `004` glosses precision as TP/(TP + FP) = 正例数/(正例数 + 假正例数) and recall as
    正例数/(正例数 + 假负例数), reading TP as "the number of positives". TP is the number of *true* positives —
    positives that were also predicted positive. With all positives in the numerator both "rates" come out wrong:
    """),
    code("""
    n_pos = int(y_test.sum())                         # 正例数: every malignant tumour in the test set
    print(f"TP = {TP}, positives = {n_pos}")
    print(f"precision {TP / (TP + FP):.4f} vs positives/(positives+FP) {n_pos / (n_pos + FP):.4f}")
    print(f"recall    {TP / (TP + FN):.4f} vs positives/(positives+FN) {n_pos / (n_pos + FN):.4f}")
    assert n_pos != TP and not np.isclose(n_pos / (n_pos + FP), P)
    """),
    md("""
    A ratio with a zero denominator has no value. If nothing is predicted positive, precision is 0/0: evallib
    says so instead of returning a silent NaN, and `zero_division` chooses a value when you want one.
    """),
    code("""
    nothing = np.zeros_like(y_test)
    try:
        el.metrics.precision(y_test, nothing)
    except ValueError as err:
        print("ValueError:", err)
    print(f"with zero_division=0.0: {el.metrics.precision(y_test, nothing, zero_division=0.0):.1f}")
    """),
    md("""
    ## 4. F-beta: when precision matters, when recall does

    F-beta (式(2.11)) is the weighted harmonic mean 1/F_β = (1/P + β²/R) / (1 + β²), so
    F_β = (1 + β²)·P·R / (β²·P + R). β > 1 leans towards recall, β < 1 towards precision, β = 1 is F1.

    * Screening for cancer: a missed malignant tumour is worse than a second look at a benign one — recall
      matters, use β = 2.
    * A recommender that must not annoy its users, or flagging e-mail as spam: a false alarm is the costly
      mistake — precision matters, use β = 0.5.
    """),
    code("""
    for beta in (0.5, 1.0, 2.0):
        by_hand = (1 + beta**2) * P * R / (beta**2 * P + R)
        ours = el.metrics.fbeta_score(y_test, y_pred, beta)
        assert np.isclose(ours, by_hand) and np.isclose(ours, skm.fbeta_score(y_test, y_pred, beta=beta))
        print(f"F_{beta:<3} = {ours:.4f}")
    """),
    md("""
    The predicted probability gives a whole family of classifiers: "malignant if p ≥ t". Each β picks a
    different best threshold: F2 wants a low threshold (find every cancer), F0.5 a higher one.
    """),
    code("""
    proba = clf.predict_proba(X[test])[:, 1]
    ts = np.round(np.arange(0.05, 0.96, 0.05), 2)
    table = {beta: [el.metrics.fbeta_score(y_test, (proba >= t).astype(int), beta) for t in ts] for beta in (0.5, 1, 2)}
    fig, ax = plt.subplots()
    for beta, vals in table.items():
        best = ts[int(np.argmax(vals))]
        print(f"beta = {beta:<3}: best threshold {best:.2f}, F = {max(vals):.4f}")
        _ = ax.plot(ts, vals, marker=".", label=f"F-beta, beta = {beta} (best t = {best:.2f})")
    _ = ax.set(xlabel="threshold t (malignant if p >= t)", ylabel="F-beta on the test set", title="F-beta against the threshold")
    _ = ax.legend()
    plt.show()
    """),
    md("""
    **In the notes:** `004` says that in F_β "recall's weight is β times precision's" and that F2 counts recall
    "twice as important". In the weighted harmonic mean the weight of 1/R is **β²** against 1 for 1/P, so F2
    weights recall 4 : 1. The "β times as important" reading is van Rijsbergen's: F_β is equally sensitive to a
    small change of P and of R exactly where R/P = β. Both checked numerically for β = 2:
    """),
    code("""
    beta = 2.0
    F = lambda p, r: (1 + beta**2) * p * r / (beta**2 * p + r)
    p0, r0 = 0.6, 0.9
    weighted = 1 / ((1 / p0 + beta**2 / r0) / (1 + beta**2))   # weights 1 and beta^2 = 4
    print(f"F_2({p0}, {r0}) = {F(p0, r0):.6f}; harmonic mean with weights 1 : beta^2 = {weighted:.6f}")
    assert np.isclose(F(p0, r0), weighted)

    h, p1 = 1e-6, 0.4
    r1 = beta * p1                                              # R / P = beta
    dF_dP = (F(p1 + h, r1) - F(p1 - h, r1)) / (2 * h)
    dF_dR = (F(p1, r1 + h) - F(p1, r1 - h)) / (2 * h)
    print(f"at R/P = beta: dF/dP = {dF_dP:.6f}, dF/dR = {dF_dR:.6f}")
    assert np.isclose(dF_dP, dF_dR)
    """),
    md("""
    ## 5. Many confusion matrices: macro and micro averages

    Repeated splits, several data sets, or the classes of a multi-class task (one against the rest) give *k*
    confusion matrices. The book offers two ways to summarise them:

    * **macro**（宏）: compute P_i and R_i on each matrix and average them: macro-P, macro-R (式(2.12)–(2.13)),
      and macro-F1 = 2·macro-P·macro-R / (macro-P + macro-R) (式(2.14));
    * **micro**（微）: average TP, FP, TN, FN over the matrices first, then compute micro-P, micro-R, micro-F1 from
      the averages (式(2.15)–(2.17)).

    Here: 5-fold cross-validation repeated twice (10 matrices) of the logistic regression on the whole data.
    """),
    code("""
    cms = el.evaluation.evaluate(clf, X, y, el.splits.KFold(5, n_repeats=2, random_state=0),
                                 metric=el.metrics.confusion_matrix)
    print(f"{len(cms)} confusion matrices, e.g. fold 1: {cms[0].astype(int).tolist()}")
    tp, fn, fp = cms[:, 0, 0], cms[:, 0, 1], cms[:, 1, 0]
    macro_P, macro_R = np.mean(tp / (tp + fp)), np.mean(tp / (tp + fn))
    macro_F1 = 2 * macro_P * macro_R / (macro_P + macro_R)
    TPm, FNm, FPm = tp.mean(), fn.mean(), fp.mean()
    micro_P, micro_R = TPm / (TPm + FPm), TPm / (TPm + FNm)
    micro_F1 = 2 * micro_P * micro_R / (micro_P + micro_R)
    mac, mic = el.metrics.macro_average(cms), el.metrics.micro_average(cms)
    print(mac)
    print(mic)
    assert np.allclose([mac.precision, mac.recall, mac.f1], [macro_P, macro_R, macro_F1])
    assert np.allclose([mic.precision, mic.recall, mic.f1], [micro_P, micro_R, micro_F1])
    """),
    md("""
    With folds of equal size the two averages are close. They part ways when the matrices differ in size or in
    class balance — typically the classes of a multi-class task. The wine data (3 cultivars) with a naive Bayes
    classifier, one confusion matrix per class (that class against the rest):
    """),
    code("""
    from sklearn.naive_bayes import GaussianNB

    Xw, yw = el.data.load_bundled("wine")
    tr, te = next(el.splits.HoldOut(0.5, random_state=1).split(Xw, yw))
    yw_pred = GaussianNB().fit(Xw[tr], yw[tr]).predict(Xw[te])
    per_class = np.array([el.metrics.confusion_matrix(yw[te] == c, yw_pred == c, pos_label=True) for c in range(3)])
    for c in range(3):
        print(f"class {c} vs rest: {per_class[c].tolist()}")
    book_macro, book_micro = el.metrics.macro_average(per_class), el.metrics.micro_average(per_class)
    print(book_macro)
    print(book_micro)
    """),
    md("""
    scikit-learn's `average="macro"` agrees with the book on macro-P and macro-R, but its macro-F1 is the mean of
    the per-class F1 values, not the harmonic mean of macro-P and macro-R (式(2.14)). Micro-averaging over all
    classes of a single-label task gives micro-P = micro-R = micro-F1 = accuracy: every mistake is a false
    positive for one class and a false negative for another.
    """),
    code("""
    yt_w = yw[te]
    sk_P = skm.precision_score(yt_w, yw_pred, average="macro")
    sk_R = skm.recall_score(yt_w, yw_pred, average="macro")
    sk_F1 = skm.f1_score(yt_w, yw_pred, average="macro")
    print(f"macro-P  book {book_macro.precision:.6f}  scikit-learn {sk_P:.6f}")
    print(f"macro-R  book {book_macro.recall:.6f}  scikit-learn {sk_R:.6f}")
    print(f"macro-F1 book {book_macro.f1:.6f}  scikit-learn {sk_F1:.6f}  (mean of per-class F1)")
    print(f"micro-F1 book {book_micro.f1:.6f}  scikit-learn {skm.f1_score(yt_w, yw_pred, average='micro'):.6f}"
          f"  accuracy {skm.accuracy_score(yt_w, yw_pred):.6f}")
    assert np.isclose(book_macro.precision, sk_P) and np.isclose(book_macro.recall, sk_R)
    assert np.isclose(book_micro.f1, skm.accuracy_score(yt_w, yw_pred))
    """),
    md("""
    ## Summary

    | measure | formula | answers |
    |---|---|---|
    | error rate / accuracy | (FP + FN)/m, (TP + TN)/m | how often is it wrong? |
    | precision P | TP/(TP + FP) | how trustworthy is a positive prediction? |
    | recall R | TP/(TP + FN) | how many positives are found? |
    | F1 | 2PR/(P + R) = 2TP/(m + TP − TN) | one number, dominated by the weaker of P and R |
    | F-beta | (1 + β²)PR/(β²P + R) | β > 1: recall matters more; β < 1: precision |
    | macro / micro | average P, R / average the counts | summaries of several confusion matrices |

    All of these fix one threshold. Next, [05 · ROC and P-R curves](05_roc_pr_curves.ipynb), sweeps it.
    """),
]

# ===================================================================================================== 05
TINY = """
# ten melons, sorted by the model's score (higher = more likely good); 1 = good melon (positive)
melon = np.arange(1, 11)
score = np.array([0.95, 0.86, 0.78, 0.70, 0.70, 0.62, 0.55, 0.47, 0.40, 0.31])
label = np.array([1,    1,    0,    1,    0,    1,    0,    1,    0,    0])
m_pos, m_neg = label.sum(), (1 - label).sum()
print(f"{m_pos} good and {m_neg} bad melons; melons 4 and 5 share the score 0.70")
"""

nb05 = [
    md("""
    # 05 · ROC and P-R curves（P-R 曲线、ROC 与 AUC）

    **Goal:** stop judging a scorer at one threshold: sweep the cut point through the sorted scores, draw the
    P-R and ROC curves, and summarise a ranking by its break-even point and its AUC — which is also a
    probability and one minus a ranking loss.

    西瓜书 §2.3.2–2.3.3, 式(2.18)–(2.22) (TPR, FPR, AUC by trapezoids, ranking loss ℓ_rank, AUC = 1 − ℓ_rank).
    Source notes: `000` (ROC与AUC), `001` §2.3, `002` (ROC与AUC), `004` §3.1.0.5–3.1.0.6.
    Previous: [04 · Classification metrics](04_classification_metrics.ipynb); next:
    [06 · Cost-sensitive evaluation](06_cost_sensitive.ipynb).
    """),
    code(SETUP),
    md("""
    ## 1. Sorting by score and sweeping the cut point

    Many learners output a **score**（预测值）, not a label: a probability, a distance from a boundary. Sort the
    samples by score; a **cut point**（截断点）splits the list: everything above is predicted positive. Moving the
    cut from the top to the bottom turns the samples into positives one by one — or, for tied scores, a whole
    group at once. A tiny example: ten melons scored by some model.
    """),
    code(TINY),
    md("""
    From scratch: for every distinct score t (highest first), predict "good" where score ≥ t and count.
    """),
    code("""
    print(" cut at  TP FP   P      R      TPR    FPR")
    rows = []
    for t in np.unique(score)[::-1]:
        pred = score >= t
        TP, FP = np.sum(pred & (label == 1)), np.sum(pred & (label == 0))
        rows.append((t, TP, FP, TP / (TP + FP), TP / m_pos, TP / m_pos, FP / m_neg))
        print(f"  {t:.2f}  {TP:3d} {FP:2d}  {rows[-1][3]:.3f}  {rows[-1][4]:.3f}  {rows[-1][5]:.3f}  {rows[-1][6]:.3f}")
    rows = np.array(rows)
    """),
    code("""
    P, R, thr = el.curves.pr_curve(label, score)
    fpr, tpr, thr_roc = el.curves.roc_curve(label, score)
    print("thresholds:", thr[1:].tolist())
    assert np.allclose(P[1:], rows[:, 3]) and np.allclose(R[1:], rows[:, 4])
    assert np.allclose(tpr[1:], rows[:, 5]) and np.allclose(fpr[1:], rows[:, 6])
    print(f"first point (threshold {thr[0]}): nothing predicted positive, R = {R[0]:.0f}, P = {P[0]:.0f} by convention")
    """),
    md("""
    Both curves start at the "predict nothing" end (threshold +∞) and end at "predict everything". There are
    nine distinct scores for ten melons, so nine cut points: melons 4 and 5 enter together.

    **In the notes:** `004` says precision and recall conflict so that "raising one must lower the other"
    (提高其中一者则另一者必然会有所降低). They usually trade off, but not necessarily: when the cut moves past a
    good melon, recall rises and precision can rise too. In the table, moving the cut from 0.70 to 0.62:
    """),
    code("""
    i, j = list(thr[1:]).index(0.70) + 1, list(thr[1:]).index(0.62) + 1
    print(f"cut 0.70: P = {P[i]:.3f}, R = {R[i]:.3f}  ->  cut 0.62: P = {P[j]:.3f}, R = {R[j]:.3f}")
    assert P[j] > P[i] and R[j] > R[i]
    """),
    md("""
    ## 2. The P-R curve and the break-even point

    Plotting precision against recall gives the **P-R curve**（P-R 曲线）. If one curve encloses another, its
    learner is better at every recall; when curves cross, a single number helps. The **break-even point**
    （平衡点, BEP）is where P = R. Since P = TP/(TP + FP) and R = TP/m⁺, they are equal exactly when
    TP + FP = m⁺: the BEP is the precision of the top m⁺ scores. Here m⁺ = 5 and the top five (with the tie)
    hold three good melons.
    """),
    code("""
    top = np.argsort(-score, kind="stable")[:m_pos]
    bep_by_hand = label[top].sum() / m_pos
    bep = el.curves.break_even_point(label, score)
    print(f"BEP by hand {bep_by_hand:.3f}, evallib {bep:.3f}")
    assert np.isclose(bep, bep_by_hand)
    ax = el.plots.plot_pr(label, score, label="tiny example")
    plt.show()
    """),
    md("""
    (When a group of tied scores straddles position m⁺, evallib counts its positives pro rata: the expected
    precision of the top m⁺ under a random order of the ties, which is where the curve crosses P = R.)

    **In the notes:** `000` writes that F1 "is in essence still the break-even point" (本质上还是平衡点). It is
    not: the BEP is one point of the curve (where P = R), while F1 is a harmonic mean that can be computed at
    every cut point, and its best value is generally elsewhere and different:
    """),
    code("""
    f1_per_cut = 2 * P[1:] * R[1:] / (P[1:] + R[1:])
    k = int(np.argmax(f1_per_cut))
    print(f"BEP = {bep:.3f}; best F1 = {f1_per_cut[k]:.3f} at cut {thr[1:][k]:.2f} (P = {P[1:][k]:.3f}, R = {R[1:][k]:.3f})")
    assert not np.isclose(f1_per_cut.max(), bep)
    """),
    md("""
    ## 3. The ROC curve

    The **ROC curve**（受试者工作特征曲线）plots the **true positive rate** TPR = TP/(TP + FN) (式(2.18), the same
    as recall) against the **false positive rate** FPR = FP/(FP + TN) (式(2.19)): the share of positives caught
    against the share of negatives falsely caught. Both axes are rates within one class, so the curve does not
    change when one class becomes more frequent. The diagonal is random guessing; the top-left corner (0, 1) a
    perfect ranking.
    """),
    code("""
    ax = el.plots.plot_roc(label, score, label="tiny example")
    plt.show()
    for f, t, th in zip(fpr, tpr, thr_roc):
        print(f"threshold {th:>5.2f}: FPR {f:.1f}, TPR {t:.1f}")
    """),
    md("""
    The tied melons 4 (good) and 5 (bad) enter together: TP and FP both grow by one, and the curve takes **one
    diagonal step** from (0.2, 0.4) to (0.4, 0.6) instead of a staircase whose shape would depend on an
    arbitrary order of the ties.

    **In the notes:** `004` writes FPR = FP/(TP + FN), and `002` labels the FPR formula "TPR". The denominator of
    FPR is the number of **negatives**, FP + TN; divided by the positives TP + FN, "FPR" is not even a rate — on
    the 17 melons of the book's data set (8 good, 9 bad), predicting every melon good gives 9/8 > 1:
    """),
    code("""
    wm = el.data.load_watermelon()
    all_good = np.ones_like(wm.y)
    FP_all = np.sum((all_good == 1) & (wm.y == 0))
    TP_all, FN_all, TN_all = np.sum(wm.y == 1), 0, 0
    print(f"FP/(FP+TN) = {FP_all / (FP_all + TN_all):.3f}   the notes' FP/(TP+FN) = {FP_all / (TP_all + FN_all):.3f}")
    assert FP_all / (TP_all + FN_all) > 1
    """),
    md("""
    ## 4. AUC: trapezoids and the ranking loss

    The **AUC**（ROC 曲线下的面积）adds up trapezoids between consecutive ROC points (式(2.20)):
    AUC = ½ Σᵢ (xᵢ₊₁ − xᵢ)(yᵢ + yᵢ₊₁).

    The **ranking loss** ℓ_rank (式(2.21)) counts, over all m⁺·m⁻ (positive, negative) pairs, those the scorer
    orders wrongly (the negative scores higher), a tie counting ½. The book's result (式(2.22)) is
    AUC = 1 − ℓ_rank: each wrongly ordered pair removes a 1/m⁺ × 1/m⁻ cell above the curve, each tie half a cell.
    """),
    code("""
    auc_trapezoids = 0.5 * np.sum(np.diff(fpr) * (tpr[:-1] + tpr[1:]))     # 式(2.20)
    pos, neg = score[label == 1], score[label == 0]
    wrong = (pos[:, None] < neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    l_rank = wrong / (m_pos * m_neg)                                      # 式(2.21)
    print(f"AUC by trapezoids {auc_trapezoids:.4f}; l_rank = {wrong}/{m_pos * m_neg} = {l_rank:.4f}; 1 - l_rank = {1 - l_rank:.4f}")
    from sklearn.metrics import roc_auc_score
    assert np.isclose(auc_trapezoids, 1 - l_rank)
    assert np.isclose(el.curves.roc_auc(label, score), auc_trapezoids) and np.isclose(roc_auc_score(label, score), auc_trapezoids)
    assert np.isclose(el.curves.rank_loss(label, score), l_rank) and np.isclose(el.curves.auc(fpr, tpr), auc_trapezoids)
    """),
    md("""
    **In the notes:** three slips around the AUC.

    * `004` says "the area under the ROC curve equals the ranking loss" (ROC曲线上的面积等于排序损失). ℓ_rank is the
      area **above** the curve; the area under it is AUC = 1 − ℓ_rank.
    * `004`'s pairwise loss is averaged with 1/(n₊ × n₊); there are n₊ × n₋ pairs, so it must be 1/(n₊ × n₋).
    * `002` writes "AUC = ½ = ½ Σ …": the stray "= ½" would make every AUC one half; only the sum is the AUC.
    """),
    code("""
    print(f"area above the curve = 1 - AUC = {1 - auc_trapezoids:.4f} = l_rank {l_rank:.4f}; area under = {auc_trapezoids:.4f}")
    print(f"pairs: n+ * n- = {m_pos * m_neg}; the notes' n+ * n+ = {m_pos ** 2} (equal here only because n+ = n- = 5)")
    n_pos_c, n_neg_c = 212, 357                                          # the breast-cancer data
    print(f"breast-cancer data: n+ * n- = {n_pos_c * n_neg_c}, n+ * n+ = {n_pos_c ** 2}")
    assert np.isclose(1 - auc_trapezoids, l_rank) and auc_trapezoids != 0.5
    """),
    md("""
    ## 5. AUC as a ranking probability

    Dividing by m⁺·m⁻ makes ℓ_rank a probability: AUC is the chance that a randomly drawn positive scores above
    a randomly drawn negative (a tie counting ½). Two consequences: the AUC only depends on the **order** of the
    scores (any strictly increasing transformation leaves it unchanged), and it does not change if one class is
    sub-sampled. Checked on real learners: logistic regression and a depth-3 decision tree, trained on 70 % of
    the breast-cancer data (malignant = positive; three weak features, as in notebook 04) and scored on the rest.
    """),
    code(CANCER),
    code(MODELS),
    code("""
    s = scores["logistic regression"]
    sp, sn = s[y_test == 1], s[y_test == 0]
    a, b = rng.choice(sp, 200_000), rng.choice(sn, 200_000)            # random (positive, negative) pairs
    p_hat = np.mean(a > b) + 0.5 * np.mean(a == b)
    auc_lr = el.curves.roc_auc(y_test, s)
    print(f"AUC {auc_lr:.4f}; Monte Carlo P(s+ > s-) + P(s+ = s-)/2 = {p_hat:.4f}")
    assert abs(p_hat - auc_lr) < 0.005
    logit = np.log(s) - np.log1p(-s)                                    # strictly increasing in s
    assert el.curves.roc_auc(y_test, logit) == auc_lr == el.curves.roc_auc(y_test, s ** 3)
    """),
    md("""
    Because TPR and FPR are each computed within one class, keeping only a random third of the negatives leaves
    the ROC curve and its AUC nearly unchanged (exactly so in expectation), while precision, which mixes the two
    classes, moves — the remark in `004` on sub-sampling negatives is right:
    """),
    code("""
    aucs, precs = [], []
    for _ in range(200):                                                # 200 random sub-samples
        keep = (y_test == 1) | (rng.random(len(y_test)) < 1 / 3)        # all positives, a third of the negatives
        aucs.append(el.curves.roc_auc(y_test[keep], s[keep]))
        precs.append(el.metrics.precision(y_test[keep], (s[keep] >= 0.5).astype(int)))
    p_full = el.metrics.precision(y_test, (s >= 0.5).astype(int))
    print(f"AUC: all data {auc_lr:.3f}, sub-samples {np.mean(aucs):.3f} on average (sd {np.std(aucs):.3f})")
    print(f"precision at 0.5: all data {p_full:.3f}, sub-samples {np.mean(precs):.3f} on average")
    assert abs(np.mean(aucs) - auc_lr) < 0.01 and np.mean(precs) > p_full + 0.1
    """),
    md("""
    A learner's speed matters too: `el.curves.roc_auc` sorts the positives' and the negatives' scores separately
    and counts ordered pairs with binary searches; on a million scores it is several times faster than
    scikit-learn (timings depend on the machine, so this cell's output is not checked):
    """),
    code("""
    # NBVAL_IGNORE_OUTPUT
    import time
    big_y = (rng.random(1_000_000) < 0.3).astype(int)
    big_s = rng.random(1_000_000) + 0.3 * big_y
    t0 = time.perf_counter(); a_el = el.curves.roc_auc(big_y, big_s); t1 = time.perf_counter()
    a_sk = roc_auc_score(big_y, big_s); t2 = time.perf_counter()
    print(f"evallib {t1 - t0:.3f} s, scikit-learn {t2 - t1:.3f} s, same AUC: {np.isclose(a_el, a_sk)}")
    """),
    md("""
    ## 6. Ties in real scores, and two learners on one plot

    A depth-3 tree has at most 8 leaves, so it gives at most 8 distinct scores: its ROC curve is a few long
    diagonal steps. Counting ties as ½ (ℓ_rank) and drawing them as diagonals (the trapezoids) agree; a
    staircase that broke ties in some order would give another area.
    """),
    code("""
    s_tree = scores["decision tree (depth 3)"]
    f_t, t_t, _ = el.curves.roc_curve(y_test, s_tree)
    print(f"tree: {len(f_t) - 1} distinct scores; AUC trapezoids {el.curves.auc(f_t, t_t):.4f}, "
          f"1 - l_rank {1 - el.curves.rank_loss(y_test, s_tree):.4f}, scikit-learn {roc_auc_score(y_test, s_tree):.4f}")
    order = np.lexsort((-y_test, -s_tree))                             # ties broken positives-first: optimistic
    stair = np.concatenate([[0], np.cumsum(y_test[order] == 0) / (y_test == 0).sum()]), \\
            np.concatenate([[0], np.cumsum(y_test[order] == 1) / (y_test == 1).sum()])
    print(f"optimistic staircase: {el.curves.auc(*stair):.4f}")

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.5))
    for name, s_m in scores.items():
        _ = el.plots.plot_roc(y_test, s_m, ax=ax1, label=name, chance=(name == "decision tree (depth 3)"))
        _ = el.plots.plot_pr(y_test, s_m, ax=ax2, label=name)
    plt.show()
    for name, s_m in scores.items():
        print(f"{name:>24}: AUC {el.curves.roc_auc(y_test, s_m):.4f}, BEP {el.curves.break_even_point(y_test, s_m):.4f}")
    """),
    md("""
    The curves **cross**: the logistic regression ranks better overall (larger AUC), but around P = R the tree is
    better (larger BEP). Whole-curve summaries can disagree; what counts is the part of the curve where the
    classifier will operate.

    **In the notes:** `000` compares two P-R curves and says the green curve's BEP is smaller "(at that point the
    green curve's precision and recall are both higher than the blue one's)", then concludes that blue is better.
    The bracket contradicts the rest: at a curve's BEP, P = R = BEP, so the curve with the *smaller* BEP has the
    smaller P and R there. By this criterion the learner with the higher BEP is the better one:
    """),
    code("""
    beps = {k: el.curves.break_even_point(y_test, scores[k]) for k in models}
    hi, lo = sorted(beps, key=beps.get, reverse=True)
    for k in (hi, lo):
        P_k, R_k, _ = el.curves.pr_curve(y_test, scores[k])
        at = np.argmin(np.abs(P_k - R_k) + (R_k == 0))            # the curve's point nearest P = R
        print(f"{k:>24}: BEP {beps[k]:.3f}; nearest curve point P = {P_k[at]:.3f}, R = {R_k[at]:.3f}")
    print(f"higher BEP: {hi}")
    assert beps[hi] > beps[lo]
    """),
    md("""
    ## 7. The threshold explorer

    Move the cut point: the confusion matrix, P, R, F1, TPR and FPR, and the marked points on the ROC and P-R
    curves (logistic regression on the test set) change together. Things to try: where is F1 highest? At which
    threshold are P and R equal (the BEP)? What happens above the highest score, and at the lowest?
    """),
    code("""
    explorer = el.widgets.threshold_explorer(y_test, scores["logistic regression"], threshold=0.5)
    print(explorer.text)
    explorer
    """),
    md("""
    ## Summary

    * A scorer gives a family of classifiers, one per cut point; the P-R and ROC curves show them all.
    * BEP = the precision (= recall) of the top m⁺ scores. AUC = trapezoids under ROC = 1 − ℓ_rank =
      P(positive scores above negative), ties ½.
    * Tied scores make one diagonal step; AUC depends only on the order of the scores.
    * `el.curves.roc_auc` is one sort per class and a binary search, faster than scikit-learn on millions of
      scores (`bench/bench_curves.py`).

    Next, [06 · Cost-sensitive evaluation](06_cost_sensitive.ipynb): when the two kinds of mistakes cost different
    amounts, which point of the ROC curve should we use?
    """),
]

# ===================================================================================================== 06
nb06 = [
    md("""
    # 06 · Cost-sensitive evaluation（代价敏感错误率与代价曲线）

    **Goal:** give the two kinds of mistake their own costs, measure a classifier by its cost, and read the best
    threshold for any class prior and cost ratio off a **cost curve**（代价曲线）.

    西瓜书 §2.3.4, 式(2.23)–(2.25) (cost-sensitive error rate, probability cost, normalised cost; 表2.2 cost matrix,
    图2.5 cost curve). Source notes: `000` (代价敏感错误率与代价曲线), `001` §2.3, `002` (代价敏感错误率),
    `004` §3.1.0.7. Previous: [05](05_roc_pr_curves.ipynb); next: [07](07_regression_ranking_metrics.ipynb).
    """),
    code(SETUP),
    md("""
    ## 1. The cost matrix（代价矩阵, 表2.2）

    cost_ij is the cost of predicting a class-i sample as class j; a right prediction costs 0. In the book's
    binary table **class 0 is the positive class**:

    | true \\ predicted | class 0 (+) | class 1 (−) |
    |---|---|---|
    | class 0 (+) | 0 | cost01 |
    | class 1 (−) | cost10 | 0 |

    so cost01 is the cost of a **false negative** and cost10 of a **false positive**. evallib names them
    `cost_fn` and `cost_fp`, so nobody has to remember which class is "0". The **cost-sensitive error rate**
    （代价敏感错误率, 式(2.23)) averages the costs over the m samples:
    E(f; D; cost) = (1/m)(Σ_{D⁺} I(f(x) ≠ y)·cost01 + Σ_{D⁻} I(f(x) ≠ y)·cost10).

    Screening for cancer again: missing a malignant tumour (FN) costs, say, 5 times as much as a needless biopsy (FP).
    """),
    code(CANCER),
    code(MODELS),
    code("""
    cost_fn, cost_fp = 5.0, 1.0
    y_pred = (scores["logistic regression"] >= 0.5).astype(int)
    FN = np.sum((y_test == 1) & (y_pred == 0))
    FP = np.sum((y_test == 0) & (y_pred == 1))
    by_hand = (FN * cost_fn + FP * cost_fp) / len(y_test)                     # 式(2.23)
    ours = el.metrics.cost_sensitive_error(y_test, y_pred, cost_fn=cost_fn, cost_fp=cost_fp)
    print(f"FN = {FN}, FP = {FP}: cost-sensitive error {by_hand:.4f} (error rate {np.mean(y_pred != y_test):.4f})")
    assert np.isclose(ours, by_hand)
    """),
    md("""
    **In the notes:** `000` sets "class 0 = bad melon, class 1 = good melon" (so cost01, calling a bad melon good,
    is the big cost) and then copies 式(2.23), which charges cost01 to the mistakes on D⁺, the **good** melons.
    With its own labelling the formula charges the hospital bill to throwing away a good melon. In the book class 0
    is the positive class; with "positive = good melon" the expensive mistake (a bad melon eaten) is a false
    positive, cost10. Mixing the two conventions changes the number:
    """),
    code("""
    wm = el.data.load_watermelon()
    pred_wm = (wm.X[:, 1] > 0.2).astype(int)                # "good if sugar > 0.2"
    eat_bad, throw_good = 10.0, 1.0                          # eating a bad melon costs 10, discarding a good one 1
    right = el.metrics.cost_sensitive_error(wm.y, pred_wm, cost_fn=throw_good, cost_fp=eat_bad)
    mixed = el.metrics.cost_sensitive_error(wm.y, pred_wm, cost_fn=eat_bad, cost_fp=throw_good)
    print(f"consistent costs: {right:.4f}   the notes' mixed convention: {mixed:.4f}")
    assert not np.isclose(right, mixed)
    """),
    md("""
    ## 2. The threshold depends on the costs — through their ratio only

    Sweeping the threshold of the logistic regression: with cost_fn = 5 the cheapest threshold moves well below
    0.5. (For perfectly calibrated probabilities decision theory puts it at cost_fp / (cost_fp + cost_fn) = 1/6;
    on a finite test set the empirical optimum is near, not at, that value.)
    """),
    code("""
    s = scores["logistic regression"]
    ts = np.unique(s)
    costs = np.array([el.metrics.cost_sensitive_error(y_test, (s >= t).astype(int), cost_fn=5, cost_fp=1) for t in ts])
    best_t = ts[np.argmin(costs)]
    print(f"cheapest threshold {best_t:.3f}: cost {costs.min():.4f} (threshold 0.5: {by_hand:.4f}; 1/6 = {1 / 6:.3f})")
    fig, ax = plt.subplots()
    _ = ax.plot(ts, costs, drawstyle="steps-post")
    _ = ax.axvline(best_t, ls="--", color="grey")
    _ = ax.set(xlabel="threshold", ylabel="cost-sensitive error", title="cost_fn = 5, cost_fp = 1")
    plt.show()
    """),
    md("""
    **In the notes:** `001` says the degree of loss is proportional to |cost_ij − cost_ji|. What matters is the
    **ratio** of the costs (as `004` says): multiplying both by 10 multiplies every cost by 10 and leaves the best
    threshold alone, while two pairs with the same difference but different ratios choose different thresholds.
    """),
    code("""
    def best_threshold(c_fn, c_fp):
        c = [el.metrics.cost_sensitive_error(y_test, (s >= t).astype(int), cost_fn=c_fn, cost_fp=c_fp) for t in ts]
        return ts[int(np.argmin(c))]

    for c_fn, c_fp in [(5, 1), (50, 10), (14, 10)]:
        print(f"cost_fn = {c_fn:2d}, cost_fp = {c_fp:2d} (difference {c_fn - c_fp:2d}, ratio {c_fn / c_fp:.1f}): "
              f"best threshold {best_threshold(c_fn, c_fp):.3f}")
    assert best_threshold(5, 1) == best_threshold(50, 10) != best_threshold(14, 10)
    """),
    md("""
    ## 3. Cost curves

    An ROC curve cannot show the cost. The cost curve can: its x-axis is the **probability cost**（正例概率代价,
    式(2.24)) x = p·cost01 / (p·cost01 + (1 − p)·cost10), with p the probability of the positive class; its
    y-axis the **normalised cost**（归一化代价, 式(2.25)):

    cost_norm = (FNR·p·cost01 + FPR·(1 − p)·cost10) / (p·cost01 + (1 − p)·cost10) = FNR·x + FPR·(1 − x).

    So each ROC point (FPR, TPR), FNR = 1 − TPR, becomes the **straight line from (0, FPR) to (1, FNR)**. For a
    given x the best classifier is the lowest line; the **lower envelope** of all lines is the scorer's cost at
    its best threshold, and the area under it is the **expected total cost**（期望总体代价）. The ten melons of
    notebook 05, from scratch (envelope on a fine grid) and with evallib (exact corners):
    """),
    code("""
    score = np.array([0.95, 0.86, 0.78, 0.70, 0.70, 0.62, 0.55, 0.47, 0.40, 0.31])
    label = np.array([1, 1, 0, 1, 0, 1, 0, 1, 0, 0])
    fpr, tpr, thr = el.curves.roc_curve(label, score)
    fnr = 1 - tpr
    x = np.linspace(0, 1, 100_001)
    envelope = np.min(fpr[None, :] * (1 - x[:, None]) + fnr[None, :] * x[:, None], axis=1)
    area_grid = np.sum(np.diff(x) * (envelope[:-1] + envelope[1:])) / 2
    cc = el.curves.cost_curve(label, score)
    print(cc)
    print(f"area on a grid {area_grid:.6f}, exact {cc.expected_total_cost:.6f}")
    print("envelope corners:", [f"({a:.3f}, {b:.3f})" for a, b in zip(cc.envelope_x, cc.envelope_y)])
    assert np.isclose(area_grid, cc.expected_total_cost, atol=1e-8)
    ax = el.plots.plot_cost_curves(label, score, label="tiny example")
    plt.show()
    """),
    md("""
    **In the notes:** `004` says to join the points (0, FPR) and **(0, FNR)**: both ends at x = 0 would be a vertical
    segment. The line ends at (1, FNR): at x = 0 only negatives cost anything, so the normalised cost is FPR; at
    x = 1 only positives do, and it is FNR.
    """),
    code("""
    f0, n0 = fpr[3], fnr[3]
    at0 = el.curves.normalized_cost(f0, n0, p=0.0, cost_fn=1, cost_fp=1)    # x = 0
    at1 = el.curves.normalized_cost(f0, n0, p=1.0, cost_fn=1, cost_fp=1)    # x = 1
    print(f"ROC point FPR {f0:.1f}, FNR {n0:.1f}: cost {float(at0):.1f} at x = 0 and {float(at1):.1f} at x = 1")
    assert np.isclose(at0, f0) and np.isclose(at1, n0)
    """),
    md("""
    **In the notes:** `002` introduces cost_norm under the heading "代价敏感错误率" (cost-sensitive error rate) and
    describes cost01 as "true 0, predicted 1" next to "p = the probability of a positive". Two fixes: (1) cost_norm
    is the cost curve's y-axis, the cost-sensitive error **divided by** its largest possible value
    p·cost01 + (1 − p)·cost10; (2) the formula multiplies cost01 by FNR·p, so class 0 must be the positive class
    (cost01 = cost of a false negative), as in the book. With p the share of positives in the data:
    """),
    code("""
    p = y_test.mean()
    y_pred = (scores["logistic regression"] >= 0.5).astype(int)
    fpr_t = np.mean(y_pred[y_test == 0]); fnr_t = np.mean(1 - y_pred[y_test == 1])
    err = el.metrics.cost_sensitive_error(y_test, y_pred, cost_fn=5, cost_fp=1)
    norm = float(el.curves.normalized_cost(fpr_t, fnr_t, p, cost_fn=5, cost_fp=1))
    print(f"cost-sensitive error {err:.4f}; normalised cost {norm:.4f} = {err:.4f} / {p * 5 + (1 - p) * 1:.4f}")
    assert np.isclose(norm, err / (p * 5 + (1 - p) * 1))
    """),
    md("""
    ## 4. ROC and cost curves are two views of the same thing

    A line on the cost curve is a point on the ROC curve; the lines that form the lower envelope are exactly the
    corners of the ROC curve's **convex hull**. Points below the hull are never the cheapest choice, whatever
    the costs and the prior. At probability cost x, lines of equal cost in ROC space have slope (1 − x)/x.
    Two reference scorers: a perfect one has expected total cost 0, a random one (only "all positive" and
    "all negative") 1/4.
    """),
    code("""
    hull = cc.hull_index
    print("ROC points on the convex hull (FPR, TPR):", [f"({fpr[i]:.1f}, {tpr[i]:.1f})" for i in hull])
    print("ROC points never optimal:", [f"({fpr[i]:.1f}, {tpr[i]:.1f})" for i in range(len(fpr)) if i not in hull])
    perfect = el.curves.expected_total_cost([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    random_ = el.curves.expected_total_cost([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])
    print(f"perfect ranking {perfect:.3f}, random {random_:.3f}")
    assert perfect == 0 and np.isclose(random_, 0.25)
    """),
    md("""
    The two learners of notebook 05 on one cost plot. The lower envelope wins at every x it is lower; the areas
    summarise over all cost ratios and priors.
    """),
    code("""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
    for name, s_m in scores.items():
        _ = el.plots.plot_cost_curves(y_test, s_m, ax=ax1, label=name, lines=(name == "logistic regression"))
        _ = el.plots.plot_roc(y_test, s_m, ax=ax2, label=name, chance=(name == "logistic regression"))
        print(f"{name:>24}: expected total cost {el.curves.expected_total_cost(y_test, s_m):.4f}")
    plt.show()
    """),
    md("""
    ## 5. The cost explorer

    Move the class prior p and the cost ratio cost_fn/cost_fp. The dashed line marks x = P(+)cost; each model's
    best threshold is the lowest of its lines there (circled), and on the right the same choice appears as the
    ROC point touched by an iso-cost line of slope (1 − x)/x. Try: a rare disease (p = 0.05) with a high cost of
    missing it; which model wins at x near 0 and near 1?
    """),
    code("""
    explorer = el.widgets.cost_explorer(y_test, scores, log2_cost_ratio=np.log2(5))
    print(explorer.text)
    explorer
    """),
    md("""
    ## Summary

    * Cost matrix: cost01 = a positive predicted negative (`cost_fn`), cost10 = a negative predicted positive
      (`cost_fp`); only their ratio (and the prior) moves the best threshold.
    * Cost-sensitive error (式(2.23)) = (FN·cost_fn + FP·cost_fp)/m.
    * Cost curve: x = p·cost01/(p·cost01 + (1 − p)·cost10), each ROC point the line (0, FPR) → (1, FNR); its lower
      envelope is the best achievable normalised cost, its area the expected total cost (0 perfect, 1/4 random).

    Next, [07 · Regression and ranking metrics](07_regression_ranking_metrics.ipynb).
    """),
]

# ===================================================================================================== 07
nb07 = [
    md("""
    # 07 · Regression and ranking metrics（回归与排序的性能度量）

    **Goal:** measure regression errors with MAE, MSE, RMSE, MAPE, MdAPE and R², knowing when each misleads; and
    measure rankings with average precision (MAP), DCG/NDCG and MRR, recomputing the notes' worked examples.

    西瓜书 §2.3 (mean squared error 式(2.2)); the regression and ranking measures follow source note `004`
    §3.2–3.3. Previous: [06](06_cost_sensitive.ipynb); next: [08](08_hypothesis_tests.ipynb).
    """),
    code(SETUP),
    md("""
    ## 1. Regression: six measures of one set of predictions

    With targets yᵢ, predictions ŷᵢ and errors eᵢ = ŷᵢ − yᵢ:

    | measure | formula | unit |
    |---|---|---|
    | MAE, mean absolute error（平均绝对误差） | (1/m) Σ \\|eᵢ\\| | y's unit |
    | MSE, mean squared error（均方误差, 式(2.2)） | (1/m) Σ eᵢ² | y's unit squared |
    | RMSE, root mean squared error（均方根误差） | √((1/m) Σ eᵢ²) | y's unit |
    | MAPE, mean absolute percentage error | (1/m) Σ \\|eᵢ\\| / \\|yᵢ\\| | fraction (× 100 %) |
    | MdAPE, median absolute percentage error | median of \\|eᵢ\\| / \\|yᵢ\\| | fraction |
    | R², coefficient of determination（决定系数） | 1 − Σ eᵢ² / Σ (yᵢ − ȳ)² | none; 1 is perfect, 0 = predicting the mean |

    The diabetes data bundled with scikit-learn (442 patients, a disease-progression score one year on) and a
    linear regression on a 70 % hold-out split:
    """),
    code("""
    from sklearn.linear_model import LinearRegression
    from sklearn import metrics as skm

    Xd, yd = el.data.load_bundled("diabetes")
    tr, te = next(el.splits.HoldOut(0.3, stratify=False, random_state=0).split(Xd, yd))
    y_true = yd[te]
    y_hat = LinearRegression().fit(Xd[tr], yd[tr]).predict(Xd[te])
    e = y_hat - y_true
    by_hand = {
        "MAE": np.mean(np.abs(e)), "MSE": np.mean(e**2), "RMSE": np.sqrt(np.mean(e**2)),
        "MAPE": np.mean(np.abs(e) / np.abs(y_true)), "MdAPE": np.median(np.abs(e) / np.abs(y_true)),
        "R2": 1 - np.sum(e**2) / np.sum((y_true - y_true.mean())**2),
    }
    ours = {"MAE": el.metrics.mae, "MSE": el.metrics.mse, "RMSE": el.metrics.rmse,
            "MAPE": el.metrics.mape, "MdAPE": el.metrics.mdape, "R2": el.metrics.r2}
    sk = {"MAE": skm.mean_absolute_error, "MSE": skm.mean_squared_error, "MAPE": skm.mean_absolute_percentage_error,
          "R2": skm.r2_score}
    for k, f in ours.items():
        v = f(y_true, y_hat)
        assert np.isclose(v, by_hand[k]) and (k not in sk or np.isclose(v, sk[k](y_true, y_hat)))
        print(f"{k:>5} = {v:10.4f}")
    """),
    md("""
    **In the notes:** `004` writes RMSE = (1/N)·√(Σ(ŷ − y)²). The root must cover the mean: RMSE = √((1/N) Σ(ŷ − y)²).
    The notes' form shrinks like 1/√N as data are added even when the errors stay the same; the check: repeat the
    test set four times — the errors are the same, so RMSE must not move.
    """),
    code("""
    notes_form = lambda t, p: np.sqrt(np.sum((p - t) ** 2)) / len(t)
    t4, p4 = np.tile(y_true, 4), np.tile(y_hat, 4)
    print(f"RMSE:        {el.metrics.rmse(y_true, y_hat):.4f} -> {el.metrics.rmse(t4, p4):.4f} on the data repeated 4 times")
    print(f"notes' form: {notes_form(y_true, y_hat):.4f} -> {notes_form(t4, p4):.4f}")
    assert np.isclose(el.metrics.rmse(y_true, y_hat), el.metrics.rmse(t4, p4))
    assert np.isclose(notes_form(t4, p4), notes_form(y_true, y_hat) / 2)
    """),
    md("""
    **In the notes:** in the same section `004`

    * names MSE and RMSE "MRE" in their formulas (and calls MSE "平均相对误差", mean *relative* error). MRE is the
      mean relative error (1/N) Σ |ŷ − y|/|y| — that is MAPE, a different number;
    * gives as the "standard deviation" σ = Σ √((x − μ)²) / N, which is the **mean absolute deviation**
      Σ |x − μ| / N; the standard deviation is √(Σ (x − μ)² / N);
    * writes the relative error as |ŷ − y| / y: with a negative target it turns negative; divide by |y|.
    """),
    code("""
    mre = np.mean(np.abs(e) / np.abs(y_true))
    print(f"MRE {mre:.4f} = MAPE {el.metrics.mape(y_true, y_hat):.4f};  MSE {el.metrics.mse(y_true, y_hat):.1f};  RMSE {el.metrics.rmse(y_true, y_hat):.2f}")
    mu = y_true.mean()
    notes_sigma = np.sum(np.sqrt((y_true - mu) ** 2)) / len(y_true)
    print(f"notes' sigma {notes_sigma:.3f} = mean absolute deviation {np.mean(np.abs(y_true - mu)):.3f}; std {np.std(y_true):.3f}")
    assert np.isclose(notes_sigma, np.mean(np.abs(y_true - mu))) and not np.isclose(notes_sigma, np.std(y_true))
    print(f"target -2, prediction -1: |yhat - y| / y = {abs(-1 - -2) / -2:.2f}, |yhat - y| / |y| = {abs(-1 - -2) / abs(-2):.2f}")
    """),
    md("""
    **In the notes:** `004` defines "MAPE = median(|yᵢ − ŷᵢ| / yᵢ)" and calls it "a median of relative errors".
    MAPE is the **mean** absolute percentage error; the median is MdAPE, a separate, more robust measure. On these
    predictions they differ by a third:
    """),
    code("""
    print(f"MAPE (mean) {el.metrics.mape(y_true, y_hat):.4f}   MdAPE (median) {el.metrics.mdape(y_true, y_hat):.4f}")
    assert not np.isclose(el.metrics.mape(y_true, y_hat), el.metrics.mdape(y_true, y_hat))
    """),
    md("""
    ## 2. When MAE, RMSE or MAPE mislead

    **Outliers.** Squaring lets one big error dominate: spoil one prediction by 400 and watch.
    """),
    code("""
    y_bad = y_hat.copy()
    y_bad[0] += 400
    for k in ("MAE", "RMSE", "MdAPE", "R2"):
        print(f"{k:>5}: {ours[k](y_true, y_hat):9.4f} -> {ours[k](y_true, y_bad):9.4f}")
    """),
    md("""
    RMSE reacts most, MdAPE not at all. Which is right depends on the task: if one huge miss is a disaster, RMSE
    says so; if it is a data glitch, MAE or MdAPE describe the typical error.

    **MAPE is asymmetric.** The same absolute miss counts more when the target is small, so over-forecasts are
    punished more than under-forecasts of the same size, and a constant forecast that minimises MAPE sits
    *below* the median.
    """),
    code("""
    print(f"true 100, predicted 150: APE {el.metrics.mape([100.0], [150.0]):.3f};  true 150, predicted 100: APE {el.metrics.mape([150.0], [100.0]):.3f}")
    consts = np.linspace(y_true.min(), y_true.max(), 2001)
    best_c = consts[np.argmin([np.mean(np.abs(c - y_true) / y_true) for c in consts])]
    print(f"best constant forecast by MAPE {best_c:.1f}; median {np.median(y_true):.1f}; mean {y_true.mean():.1f}")
    print(f"R2 of the mean as forecast: {el.metrics.r2(y_true, np.full_like(y_true, y_true.mean())):.4f}; of the MAPE-best constant: {el.metrics.r2(y_true, np.full_like(y_true, best_c)):.4f}")
    assert best_c < np.median(y_true)
    """),
    md("""
    **MAPE with zeros.** A zero target makes the relative error infinite. evallib refuses with a message;
    scikit-learn divides by a tiny epsilon and returns an absurdly large number without complaint.
    """),
    code("""
    sales = np.array([0.0, 12.0, 8.0, 15.0])
    forecast = np.array([1.0, 11.0, 9.0, 14.0])
    try:
        el.metrics.mape(sales, forecast)
    except ValueError as err:
        print("evallib ValueError:", err)
    print(f"scikit-learn MAPE: {skm.mean_absolute_percentage_error(sales, forecast):.3g}")
    print(f"MAE {el.metrics.mae(sales, forecast):.2f} is fine")
    """),
    md("""
    ## 3. Ranking: average precision and MAP

    A search system returns a ranked list. For one query, **average precision** (AP) averages the precision at the
    rank of each relevant item: AP = (1/n_rel) Σⱼ j / rankⱼ. Relevant items that are **never retrieved** contribute
    precision 0, so the sum is divided by the number of relevant items n_rel, not by the number found.
    **MAP**（平均准确率均值）averages AP over queries.

    The notes' example: topic 1 has 4 relevant pages, retrieved at ranks 1, 2, 4, 7; topic 2 has 5 relevant
    pages, of which 3 are retrieved, at ranks 1, 3, 5.
    """),
    code("""
    ap1_by_hand = (1/1 + 2/2 + 3/4 + 4/7) / 4
    ap2_by_hand = (1/1 + 2/3 + 3/5) / 5
    ap1 = el.metrics.average_precision([1, 2, 4, 7], 4)
    ap2 = el.metrics.average_precision([1, 3, 5], 5)
    MAP = el.metrics.mean_average_precision([[1, 2, 4, 7], [1, 3, 5]], [4, 5])
    print(f"AP topic 1 = {ap1:.4f}, AP topic 2 = {ap2:.4f}, MAP = {MAP:.4f}")
    assert np.isclose(ap1, ap1_by_hand) and np.isclose(ap2, ap2_by_hand) and np.isclose(MAP, (ap1 + ap2) / 2)
    assert (round(ap1, 2), round(ap2, 2), round(MAP, 2)) == (0.83, 0.45, 0.64)       # the notes' values
    """),
    md("""
    **In the notes:** `004` writes topic 2's AP as (1/1 + 2/3 + 3/5) / **3** = 0.45. Divided by 3 the value is 0.76;
    0.45 comes from dividing by **5**, the number of relevant pages, which is the right definition (the two never
    retrieved add 0). The value is right, the formula is not. (The notes also call each topic's AP "MAP", and sum
    from i = 0 to n in MAP = (1/n) Σ; it is i = 1 … n.)
    """),
    code("""
    print(f"(1 + 2/3 + 3/5) / 3 = {(1 + 2/3 + 3/5) / 3:.4f}   (1 + 2/3 + 3/5) / 5 = {(1 + 2/3 + 3/5) / 5:.4f}")
    assert round((1 + 2/3 + 3/5) / 3, 2) != 0.45 and round((1 + 2/3 + 3/5) / 5, 2) == 0.45
    """),
    md("""
    When every relevant item is retrieved, AP is scikit-learn's `average_precision_score` of the ranking:
    """),
    code("""
    relevant = np.zeros(7, dtype=int)
    relevant[[0, 1, 3, 6]] = 1                    # topic 1: relevant at ranks 1, 2, 4, 7
    rank_scores = np.arange(7, 0, -1)             # the system's order
    print(f"scikit-learn {skm.average_precision_score(relevant, rank_scores):.4f}, evallib {ap1:.4f}")
    assert np.isclose(skm.average_precision_score(relevant, rank_scores), ap1)
    """),
    md("""
    ## 4. DCG and NDCG

    With graded relevance (a rating rather than relevant / not), the **cumulative gain** CG@k = Σ relᵢ ignores the
    order; the **discounted cumulative gain** divides the gain of position i by log₂(i + 1):
    DCG@k = Σᵢ (2^relᵢ − 1) / log₂(i + 1) (exponential gain; a "linear" variant uses relᵢ). **NDCG** divides by
    the ideal DCG, IDCG, of the best possible order of the available items, so 1 is a perfect list.

    The notes' example: five films shown with ratings [5, 3, 2, 1, 2]; the user rated seven films in all,
    [5, 3, 2, 1, 2, 4, 0], so the ideal top five is [5, 4, 3, 2, 2].
    """),
    code("""
    shown = np.array([5, 3, 2, 1, 2])
    pool = np.array([5, 3, 2, 1, 2, 4, 0])
    discount = np.log2(np.arange(2, 7))
    dcg_by_hand = np.sum((2.0 ** shown - 1) / discount)
    ideal = np.sort(pool)[::-1][:5]
    idcg_by_hand = np.sum((2.0 ** ideal - 1) / discount)
    print(f"CG = {shown.sum()}, DCG = {dcg_by_hand:.4f}, IDCG = {idcg_by_hand:.4f}, NDCG = {dcg_by_hand / idcg_by_hand:.4f}")
    print("IDCG terms:", [f"{v:.4f}" for v in (2.0 ** ideal - 1) / discount])
    assert np.isclose(el.metrics.dcg(shown), dcg_by_hand)
    assert np.isclose(el.metrics.ndcg(shown, ideal=pool), dcg_by_hand / idcg_by_hand)
    """),
    md("""
    **In the notes:** `004` gets CG = 13 and DCG = 38.5 right, but rounds each IDCG term before adding
    (31 + 9.5 + 3.5 + 1.3 + 1.2 = 46.5); the exact IDCG is 46.42. Its NDCG, "38.5 / 46.5 = 0.827", is off twice:
    38.5 / 46.5 is 0.828, and the exact NDCG is 0.830. (The IDCG line also has a stray "++".)
    """),
    code("""
    print(f"IDCG exact {idcg_by_hand:.2f} (notes 46.5); 38.5/46.5 = {38.5 / 46.5:.4f}; exact NDCG {dcg_by_hand / idcg_by_hand:.4f} (notes 0.827)")
    assert round(idcg_by_hand, 2) == 46.42 and round(38.5 / 46.5, 3) == 0.828 and round(dcg_by_hand / idcg_by_hand, 3) == 0.830
    """),
    md("""
    scikit-learn's `dcg_score` / `ndcg_score` use the linear gain relᵢ and take the ideal from the shown items
    only; evallib's `gain="linear"` without `ideal` matches them:
    """),
    code("""
    order = np.arange(5, 0, -1)                  # the displayed order as scores
    for k in (3, 5):
        ours_d, sk_d = el.metrics.dcg(shown, k, gain="linear"), skm.dcg_score([shown], [order], k=k)
        ours_n, sk_n = el.metrics.ndcg(shown, k, gain="linear"), skm.ndcg_score([shown], [order], k=k)
        print(f"k = {k}: DCG {ours_d:.4f} (scikit-learn {sk_d:.4f}), NDCG {ours_n:.4f} (scikit-learn {sk_n:.4f})")
        assert np.isclose(ours_d, sk_d) and np.isclose(ours_n, sk_n)
    """),
    md("""
    ## 5. MRR

    When only the first right answer matters (a question-answering system, a "did you mean"), the **mean
    reciprocal rank** averages 1/rank of the first relevant answer over queries; a query with no relevant answer
    adds 0 (pass `np.inf`). Three queries whose first right answers are at ranks 1 and 3, and one never answered:
    """),
    code("""
    firsts = [1, 3, np.inf]
    print(f"MRR = (1 + 1/3 + 0) / 3 = {(1 + 1/3 + 0) / 3:.4f}; evallib {el.metrics.mrr(firsts):.4f}")
    assert np.isclose(el.metrics.mrr(firsts), (1 + 1/3) / 3)
    """),
    md("""
    ## Summary

    * MAE and RMSE are in y's units; RMSE ≥ MAE, and a large gap signals a few large errors. R² compares with
      predicting the mean. MAPE (mean) and MdAPE (median) are relative, break on zero targets, and favour
      under-forecasts.
    * AP divides by the number of relevant items (missed ones count 0); MAP averages AP over queries.
    * DCG discounts gains by log₂(i + 1); NDCG divides by the ideal order of the whole pool; MRR looks only at the
      first relevant answer.

    Next, [08](08_hypothesis_tests.ipynb): is a difference in these measures real, or luck of the test set?
    """),
]

ALL = {"04": ("04_classification_metrics.ipynb", nb04), "05": ("05_roc_pr_curves.ipynb", nb05),
       "06": ("06_cost_sensitive.ipynb", nb06), "07": ("07_regression_ranking_metrics.ipynb", nb07)}

if __name__ == "__main__":
    for key in sys.argv[1:] or list(ALL):
        name, cells = ALL[key]
        write(NB / name, cells)
        print("wrote", name)
