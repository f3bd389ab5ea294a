#!/usr/bin/env python
"""Write notebooks/11_roofline.ipynb (text and code only).

    .venv/bin/python scripts/make_nb_11.py
    make regen NB=notebooks/11_roofline.ipynb     # then execute and store the outputs

This script is the editable source of the notebook.
"""
from pathlib import Path

from nbgen import SETUP, code, md, write  # shared notebook-writing helpers

ROOT = Path(__file__).resolve().parent.parent



CELLS = [
    md(r"""
    # 11 · Model compute and the roofline（模型计算需求与 Roofline 模型）

    **Goal:** count what a forward pass of a CNN costs — operations, bytes moved, parameters — and use the
    roofline model to tell whether a model on a given device is limited by arithmetic or by memory; then measure
    your own machine and put NumPy kernels on its roofline.

    Not in 西瓜书 chapter 2 itself: this is the last section of source note 004 (§5 模型计算需求指标: 计算量, 访存量,
    参数量, 计算强度, 理论性能), which follows the Zhihu article "Roofline Model与深度学习模型的性能分析"
    (zhuanlan 34204282) and Williams, Waterman & Patterson, *Roofline*, CACM 52(4), 2009.
    Library: `evallib.roofline`, `el.plots.plot_roofline`, `el.widgets.roofline_explorer`.
    """),
    code(SETUP),
    code("""
    from evallib import roofline as rl
    """),
    md(r"""
    ## 1. Four numbers per model

    | term | book/notes term | what it counts | unit |
    |---|---|---|---|
    | compute | 计算量 | floating-point operations of one forward pass | FLOPs (a count) |
    | memory traffic | 访存量 | bytes moved between memory and the processor in that pass | bytes |
    | parameters | 参数量 | trainable weights and biases | (a count) |
    | arithmetic intensity | 计算强度 | compute / traffic, $I = F / Q$ | FLOP/byte |
    | attainable performance | 理论性能 | operations per second the device can sustain for this $I$ | FLOP/s |

    A **multiply-add** (MAC, 乘加) $a \leftarrow a + w \cdot x$ is one multiplication and one addition: 2 FLOPs.
    Convolution and fully connected layers are almost all multiply-adds, so their cost is usually quoted in MACs.
    """),
    md(r"""
    **In the notes:** note 004 gives the unit of 计算量 as **FLOPS**. FLOPS (FLOP/s) is a *rate*, operations per
    second — the unit of 理论性能 and of a device's peak. 计算量 is a *count*: **FLOPs** (lower-case s, a plural),
    or MACs. Its two examples also count multiply-adds, not FLOPs: `1*2+3` is one multiplication and one addition
    (2 FLOPs = 1 MAC, not "1 flop"), and `1*2 + 3*4 + 4*5` is 3 multiplications and 2 additions (5 FLOPs; 3 MACs if
    the sum starts from an accumulator at 0), not "3 flop". A counting number makes the point:
    """),
    code("""
    class Counted:
        \"\"\"A number that counts the multiplications and additions done with it.\"\"\"
        ops = {"mul": 0, "add": 0}

        def __init__(self, v):
            self.v = v

        def __mul__(self, other):
            Counted.ops["mul"] += 1
            return Counted(self.v * other.v)

        def __add__(self, other):
            Counted.ops["add"] += 1
            return Counted(self.v + other.v)


    def count(expr):
        Counted.ops = {"mul": 0, "add": 0}
        value = expr(*map(Counted, (1, 2, 3, 4, 5)))
        return value.v, Counted.ops["mul"], Counted.ops["add"]


    for text, expr in [("1*2+3", lambda a, b, c, d, e: a * b + c),
                       ("1*2 + 3*4 + 4*5", lambda a, b, c, d, e: a * b + c * d + d * e)]:
        v, mul, add = count(expr)
        print(f"{text:16s} = {v:2d}: {mul} multiplications + {add} additions = {mul + add} FLOPs ({mul} MACs)")
    assert count(lambda a, b, c, d, e: a * b + c * d + d * e)[1:] == (3, 2)
    """),
    md(r"""
    A dot product of length $n$ is $n$ multiplications and $n-1$ additions: $2n-1 \approx 2n$ FLOPs, $n$ MACs.
    Vendors quote peaks with a fused multiply-add (FMA) counted as **2** FLOPs; torchvision's "GFLOPS" column,
    fvcore, ptflops and thop report **MACs** (1 per multiply-add) under the name "FLOPs". Keep the two apart:
    `evallib` makes the choice explicit (`mac_flops=2` by default, `mac_flops=1` for the MAC convention).

    ## 2. One layer by hand: VGG16's first convolution

    A 2-D convolution with $K \times K$ kernels, $C_\text{in} \to C_\text{out}$ channels, groups $g$ and an output of
    $H \times W$ has $C_\text{out} \cdot \frac{C_\text{in}}{g} K^2$ weights (+ $C_\text{out}$ biases) and performs
    $H W \cdot C_\text{out} \cdot \frac{C_\text{in}}{g} K^2$ multiply-adds; the output size per axis is
    $\lfloor (H_\text{in} + 2p - K)/s \rfloor + 1$. VGG16's conv1_1: 3 → 64 channels, 3×3, stride 1, padding 1,
    on a 224×224×3 image.
    """),
    code("""
    c_in, c_out, k, h = 3, 64, 3, 224
    h_out = (h + 2 * 1 - k) // 1 + 1
    params = c_out * c_in * k * k + c_out
    macs = h_out * h_out * c_out * c_in * k * k
    traffic = 4 * (params + c_out * h_out * h_out)          # float32 weights + the output feature map
    print(f"output {c_out}x{h_out}x{h_out} | params {params:,} | MACs {macs:,} | FLOPs {2 * macs:,}")
    print(f"traffic {traffic:,} bytes | intensity {2 * macs / traffic:.2f} FLOP/B")

    layer = rl.conv2d((3, 224, 224), 64, 3, padding=1)
    assert (layer.out_shape, layer.params, layer.macs) == ((c_out, h_out, h_out), params, macs)
    assert layer.memory_bytes() == traffic and layer.flops() == 2 * macs
    """),
    md(r"""
    Its theoretical performance (理论性能) on a GTX 1080 Ti (11.3 TFLOP/s, 484 GB/s; the roofline behind this
    formula is section 4): at most $\min(\pi, eta I)$ FLOP/s, so the layer needs at least
    $\max(F/\pi, Q/eta)$ seconds.
    """),
    code("""
    pi, beta = 11.3e12, 484e9
    i = 2 * macs / traffic
    perf = min(pi, beta * i)
    t = max(2 * macs / pi, traffic / beta)
    print(f"attainable {perf / 1e12:.2f} TFLOP/s of {pi / 1e12:.1f} -> "
          f"{'memory' if beta * i < pi else 'compute'}-bound; time >= {t * 1e6:.1f} us")
    assert np.isclose(rl.attainable(i, pi, beta), perf) and np.isclose(rl.time_bound(2 * macs, traffic, pi, beta), t)
    """),
    md(r"""
    ### Depthwise-separable convolutions

    MobileNet replaces a dense $K \times K$ convolution by a **depthwise** one (one $K\times K$ filter per channel,
    $g = C_\text{in}$) followed by a **pointwise** 1×1 convolution. Per output position the depthwise part costs
    $C_\text{in} K^2$ and the pointwise part $C_\text{in} C_\text{out}$ multiply-adds, against
    $C_\text{in} C_\text{out} K^2$ for the dense layer, so the ratio is
    $\dfrac{C_\text{in} K^2 + C_\text{in} C_\text{out}}{C_\text{in} C_\text{out} K^2} = \dfrac{1}{C_\text{out}} + \dfrac{1}{K^2}$.
    For 512 channels and 3×3 kernels, about 8.8 times fewer operations.
    """),
    code("""
    c, k, hw = 512, 3, 14
    ratio_formula = 1 / c + 1 / k**2
    dense = rl.conv2d((c, hw, hw), c, k, padding=1, bias=False)
    dw = rl.depthwise_conv2d((c, hw, hw), k, padding=1)
    pw = rl.conv2d(dw.out_shape, c, 1, bias=False)
    ratio = (dw.macs + pw.macs) / dense.macs
    print(f"dense {dense.macs:,} MACs | depthwise {dw.macs:,} + pointwise {pw.macs:,} MACs")
    print(f"ratio {ratio:.6f} = 1/{c} + 1/{k**2} = {ratio_formula:.6f} -> {1 / ratio:.2f}x fewer operations")
    assert np.isclose(ratio, ratio_formula, rtol=1e-12) and np.isclose(rl.separable_cost_ratio(c, k), ratio)
    """),
    md(r"""
    ## 3. Whole models

    `evallib.roofline` writes six classic ImageNet networks (224×224×3 input, 1000 classes) down as layer specs —
    no deep-learning framework — and adds them up. Parameters follow PyTorch's count (batch-norm's $\gamma, \beta$
    are parameters, its running mean and variance are not). The published figures: torchvision's model cards
    (`num_params`, and "GFLOPS", which are really G-MACs of the conv and linear layers); for MobileNetV1 the
    paper (4.2 M parameters, 569 M mult-adds).
    """),
    code("""
    published = {  # name: (parameters, G-MACs as published, decimals published)
        "AlexNet": (61_100_840, 0.714, 3), "VGG16": (138_357_544, 15.47, 2), "ResNet-18": (11_689_512, 1.814, 3),
        "ResNet-50": (25_557_032, 4.089, 3), "MobileNetV1": (4_231_976, 0.569, 3),
        "MobileNetV2": (3_504_872, 0.301, 3),
    }
    print(f"{'model':12s} {'params':>12s} {'published':>12s} {'G-MACs':>8s} {'published':>9s}")
    for name, (p, g, d) in published.items():
        m = rl.get_model(name)
        print(f"{name:12s} {m.params:12,d} {p:12,d} {m.macs / 1e9:8.3f} {g:9.3f}")
        assert m.params == p and round(m.macs / 1e9, d) == g
    """),
    md(r"""
    All four numbers per model (default convention: 1 MAC = 2 FLOPs, float32, weights + conv/linear outputs,
    batch 1):
    """),
    code("""
    for name in rl.MODELS:
        print(rl.get_model(name).summary())
    """),
    md(r"""
    The parameter count from scratch, for VGG16: thirteen 3×3 convolutions with biases and three fully connected
    layers.
    """),
    code("""
    widths = [64, 64, 128, 128, 256, 256, 256, 512, 512, 512, 512, 512, 512]
    conv_params = sum(9 * ci * co + co for ci, co in zip([3] + widths[:-1], widths))
    fc_params = sum(fi * fo + fo for fi, fo in [(512 * 7 * 7, 4096), (4096, 4096), (4096, 1000)])
    print(f"conv {conv_params:,} + fully connected {fc_params:,} = {conv_params + fc_params:,}")
    print(f"the fully connected layers hold {fc_params / (conv_params + fc_params):.1%} of VGG16's parameters")
    assert conv_params + fc_params == rl.vgg16().params
    """),
    md(r"""
    Every model has a per-layer table (it renders as HTML in JupyterLab; `print(...)` gives plain text). AlexNet's
    conv and linear layers, with the default convention (1 MAC = 2 FLOPs, float32, traffic = weights + the output
    of each conv/linear layer, batch 1):
    """),
    code("""
    rl.alexnet().table()
    """),
    code("""
    alex = rl.alexnet()
    fc = [layer for layer in alex.layers if layer.kind == "linear"]
    fc_bytes = sum(layer.memory_bytes(alex.convention) for layer in fc) / alex.memory_bytes
    fc_macs = sum(layer.macs for layer in fc) / alex.macs
    print(f"AlexNet's fully connected layers: {fc_macs:.1%} of the MACs, {fc_bytes:.1%} of the bytes moved")
    """),
    md(r"""
    A fully connected layer uses each weight once per image, so its intensity is about 0.5 FLOP/B at batch 1
    (2 FLOPs per 4-byte weight), while convolutions reuse each weight at every output position and reach hundreds.

    ## 4. The roofline（Roofline 模型）

    A device has a peak $\pi$ (FLOP/s) and a memory bandwidth $\beta$ (bytes/s). A kernel with intensity $I$ cannot
    run faster than
    $$P = \min(\pi,\ \beta \cdot I), \qquad\text{equivalently}\qquad t \ \ge\ \max\!\left(\frac{F}{\pi},\ \frac{Q}{\beta}\right).$$
    Below the **ridge point** $I^* = \pi / \beta$ it is **memory-bound** (the slanted roof), above it **compute-bound**
    (the flat roof). It is a bound, not a prediction.

    ### The article's case: VGG16 on a GTX 1080 Ti

    The article takes the GTX 1080 Ti's 11.3 TFLOP/s and 484 GB/s (ridge ≈ 23.4 FLOP/B) and counts VGG16's
    operations as 15.5 G — multiply-adds — and its traffic as float32 weights plus the output of every conv and
    fully connected layer, about 600 MB. `rl.ARTICLE` is that convention.
    """),
    code("""
    gtx = rl.get_device("GTX 1080 Ti")
    peak, bw = gtx.peak(), gtx.bandwidth
    outputs = [224 * 224 * 64] * 2 + [112 * 112 * 128] * 2 + [56 * 56 * 256] * 3 + [28 * 28 * 512] * 3 \\
        + [14 * 14 * 512] * 3 + [4096, 4096, 1000]
    q_hand = 4 * (138_357_544 + sum(outputs))
    i_hand = 15_470_264_320 / q_hand
    print(f"ridge {peak / bw:.2f} FLOP/B | VGG16: {15.47:.2f} G 'FLOPs' (MACs), {q_hand / 1e6:.1f} MB, I = {i_hand:.2f}")
    print(f"attainable min(pi, beta*I) = {min(peak, bw * i_hand) / 1e12:.2f} TFLOP/s")

    vgg_a = rl.vgg16(rl.ARTICLE)
    assert vgg_a.memory_bytes == q_hand and np.isclose(vgg_a.intensity, i_hand)
    assert rl.attainable(i_hand, peak, bw) == min(peak, bw * i_hand)
    for m in (vgg_a, rl.mobilenet_v1(rl.ARTICLE), rl.mobilenet_v2(rl.ARTICLE)):
        print(rl.analyze(m, peak, bw))
    """),
    code("""
    fig, ax = plt.subplots()
    models = [rl.vgg16(rl.ARTICLE), rl.mobilenet_v1(rl.ARTICLE), rl.mobilenet_v2(rl.ARTICLE)]
    _ = el.plots.plot_roofline(peak, bw, models=models, ax=ax)
    ax.set_title("GTX 1080 Ti, article's convention (1 MAC counted as 1 FLOP)")
    ax.legend(loc="lower right")
    plt.show()
    """),
    md(r"""
    So under the article's counting VGG16 sits just right of the ridge (compute-bound) and the MobileNets sit left
    of it (memory-bound): MobileNetV1 does 27 times fewer operations than VGG16, but it cannot use the GPU's
    arithmetic fully, so its speed-up is smaller than 27 times.

    ### FLOPs ≠ FLOPs: the verdict depends on the counting

    The article divides a **MAC** count by bytes and compares it with a peak that counts an FMA as **2** FLOPs.
    Counted consistently (1 MAC = 2 FLOPs), every intensity doubles. And which feature maps count as traffic is a
    choice too: if batch-norm and ReLU outputs are written to memory (no fusion), traffic grows. The article's
    "I ≈ 7" for MobileNet matches counting *every* layer's output — but then VGG16, counted the same way, falls
    just below the ridge.
    """),
    code("""
    conventions = {
        "article (MAC=1, conv/linear outputs)": rl.ARTICLE,
        "MAC=2, conv/linear outputs": rl.Convention(mac_flops=2),
        "MAC=1, every layer's output": rl.Convention(mac_flops=1, outputs="all"),
        "MAC=2, every layer's output": rl.Convention(mac_flops=2, outputs="all"),
    }
    print(f"ridge of the GTX 1080 Ti: {peak / bw:.2f} FLOP/B")
    print(f"{'convention':38s} {'VGG16':>16s} {'MobileNetV1':>16s} {'MobileNetV2':>16s}")
    verdicts = {}
    for label, conv in conventions.items():
        cells = []
        for build in (rl.vgg16, rl.mobilenet_v1, rl.mobilenet_v2):
            r = rl.analyze(build(conv), peak, bw)
            verdicts[label, r.model] = r.bound
            cells.append(f"{r.intensity:6.2f} {r.bound:>7s}")
        print(f"{label:38s} " + " ".join(f"{c:>16s}" for c in cells))
    assert verdicts["article (MAC=1, conv/linear outputs)", "VGG16"] == "compute"
    assert verdicts["MAC=1, every layer's output", "VGG16"] == "memory"
    assert verdicts["MAC=2, conv/linear outputs", "MobileNetV1"] == "compute"
    """),
    code("""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, (label, conv) in zip(axes, [("article: MAC=1, conv/linear outputs", rl.ARTICLE),
                                        ("MAC=2, every layer's output", rl.Convention(mac_flops=2, outputs="all"))]):
        ms = [rl.vgg16(conv), rl.mobilenet_v1(conv), rl.mobilenet_v2(conv)]
        _ = el.plots.plot_roofline(peak, bw, models=ms, ax=ax, intensity_range=(0.5, 500))
        ax.set_title(label, fontsize=10)
        ax.legend(loc="lower right", fontsize=8)
    plt.show()
    """),
    md(r"""
    The lesson: before comparing a model's intensity with a ridge point, make both use the same FLOP (2 per
    multiply-add, as the peak does) and say which traffic you counted.

    **In the notes:** note 004 puts a *memory footprint* formula under 访存量: "显存占用 = 模型显存占用 + batch_size × 每个
    样本的显存占用", with weights, their gradients and momentum. That is how much memory **training** must *hold*
    (capacity, in bytes), not how many bytes an **inference** pass *moves* (traffic, the 访存量 of the roofline);
    for the same reason 访存量 is not the model's "space complexity" (空间复杂度), as the note calls it.
    The two differ in size and in how they grow with the batch:
    """),
    code("""
    vgg = rl.vgg16()
    w = vgg.weight_bytes
    act = vgg.memory_bytes - w            # feature-map bytes per image (conv/linear outputs, float32)
    for n in (1, 32):
        footprint = 3 * w + n * act           # weights + gradients + momentum + activations kept for backprop
        traffic = vgg.with_convention(batch=n).memory_bytes
        print(f"batch {n:2d}: training footprint (lower bound) {footprint / 1e9:6.2f} GB | "
              f"inference traffic {traffic / 1e9:6.2f} GB")
    assert vgg.with_convention(batch=32).memory_bytes == w + 32 * act
    """),
    md(r"""
    ### Per layer: a stricter bound

    Summing $\max(F_l/\pi,\ Q_l/\beta)$ over the layers is never smaller than $\max(F/\pi,\ Q/\beta)$ for the whole
    model: a memory-bound layer cannot borrow arithmetic from a compute-bound one.
    """),
    code("""
    for build in (rl.vgg16, rl.resnet50, rl.mobilenet_v2):
        m = build()
        r = rl.analyze(m, peak, bw)
        print(f"{m.name:12s} whole model {r.time_model * 1e3:7.3f} ms | layer by layer {r.time_layers * 1e3:7.3f} ms"
              f" | share of that time in memory-bound layers {r.memory_bound_share:6.1%}")
        assert r.time_layers >= r.time_model
    m = rl.mobilenet_v2()
    t = m.layer_time_bounds(peak, bw)
    fig, ax = plt.subplots(figsize=(10, 3.6))
    _ = el.plots.plot_layer_times(m, peak, bw, ax=ax, top=25)
    ax.set_title("MobileNetV2 on a GTX 1080 Ti: the 25 slowest layers (1 MAC = 2 FLOPs)")
    plt.show()
    """),
    md(r"""
    ### Batch size

    Weights are read once per batch, feature maps once per image, so with per-image FLOPs $F$, weight bytes $W$
    and feature-map bytes $A$:
    $$I(N) = \frac{N F}{W + N A} \ \nearrow\ \frac{F}{A}\quad (N \to \infty).$$
    Batching lifts a model towards $F/A$ — a ceiling set by its feature maps, not its weights.
    """),
    code("""
    for build in (rl.vgg16, rl.mobilenet_v2):
        m1 = build()
        f, w, a = m1.flops, m1.weight_bytes, m1.memory_bytes - m1.weight_bytes
        row = []
        for n in (1, 4, 16, 64, 256):
            i_hand = n * f / (w + n * a)
            assert np.isclose(m1.with_convention(batch=n).intensity, i_hand)
            row.append(f"N={n}: {i_hand:6.2f}")
        print(f"{m1.name:12s} " + " | ".join(row) + f" | limit F/A = {f / a:6.2f}")
    fig, ax = plt.subplots()
    for build in (rl.vgg16, rl.mobilenet_v2):
        _ = el.plots.plot_batch_intensity(build(), ax=ax)
    ax.axhline(peak / bw, color="red", ls=":", label=f"GTX 1080 Ti ridge {peak / bw:.1f}")
    ax.set_yscale("log")
    ax.legend(fontsize=8)
    plt.show()
    """),
    md(r"""
    ## 5. Devices

    Documented figures (dense, no sparsity; FMA = 2 FLOPs). A GPU's 16-bit peak needs tensor cores; a GTX 1080 Ti
    runs float16 at 1/64 of its float32 rate.
    """),
    code("""
    for name, dev in rl.DEVICES.items():
        peaks = ", ".join(f"{k} {v / 1e12:.3g}" for k, v in dev.peaks.items())
        print(f"{name}: bandwidth {dev.bandwidth / 1e9:,.0f} GB/s | peak TFLOP/s {peaks} | "
              f"float32 ridge {dev.ridge():.1f} FLOP/B")
        print(f"    source: {dev.source}")
    """),
    md(r"""
    ## 6. The roofline explorer

    Pick a device (or move its peak and bandwidth on log sliders), choose models, the batch size, the dtype and the
    counting conventions. Each model sits on the roof at its intensity; the text gives its bound, the whole-model
    and layer-by-layer time bounds and the best images per second those allow. Things to try: switch "counting"
    between 1 and 2 FLOPs per MAC with VGG16 on the GTX 1080 Ti; raise the batch size for MobileNetV2; switch the
    H100 to float16 and watch the ridge move past every model.
    """),
    code("""
    explorer = el.widgets.roofline_explorer(models=("VGG16", "MobileNetV1", "MobileNetV2"))
    print(explorer.text)
    explorer
    """),
    md(r"""
    ## 7. Your machine（测量本机）

    `measure_machine` measures the peak with a float64 matrix multiply (2n³ FLOPs; n = 2048 by default, 1536
    here) and the bandwidth with
    a STREAM-style triad $a = b + s\,c$ on arrays of 256 MiB each, written with `out=` in two passes so no temporary
    array doubles the traffic (the two passes move 5 arrays' worth, 40 bytes per element, and that is what is
    counted); each is the best of several repeats (5 by default, 3 here: the notebook stays quick). The numbers depend on the machine, the BLAS
    library and how many threads it may use, so the measurement reports them; nothing here is asserted.
    These notebooks run with `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1` (one thread) so that stored outputs are
    reproducible; run the cell in your own kernel to see all cores.
    """),
    code("""
    # NBVAL_IGNORE_OUTPUT
    machine = rl.measure_machine(repeats=3, matmul_size=1536)
    print(f"CPU: {machine.cpu}")
    print(f"peak (float64 matmul, n={machine.matmul_size}): {machine.peak_flops / 1e9:.1f} GFLOP/s")
    print(f"bandwidth (triad, {machine.stream_bytes / 2**20:.0f} MiB per array): {machine.bandwidth / 1e9:.1f} GB/s")
    print(f"ridge: {machine.ridge:.2f} FLOP/B | BLAS: {machine.blas}, {machine.threads} thread(s)")
    print(f"environment: {machine.env}" + (f" | {machine.note}" if machine.note else ""))
    """),
    md(r"""
    Now NumPy kernels on float64 data. Their intensities follow from the minimum traffic (every operand read once,
    the result written once), independent of the machine:
    """),
    code("""
    n = 200
    kernels = {"dot x @ y": (2 * n, 2 * 8 * n), "add x + y": (n, 3 * 8 * n),
               "matvec A @ x": (2 * n * n, 8 * (n * n + 2 * n)), "matmul A @ B": (2 * n**3, 3 * 8 * n * n)}
    for name, (f, q) in kernels.items():
        print(f"{name:13s} n={n}: {f:>13,d} FLOPs / {q:>10,d} bytes = {f / q:8.3f} FLOP/B")
    got = rl.measure_kernels([("dot", n), ("add", n), ("matvec", n), ("matmul", n)], repeats=1, min_time=1e-3)
    assert [k.intensity for k in got] == [f / q for f, q in kernels.values()]
    """),
    md(r"""
    Vector dot, element-wise add and matrix-vector products stay below 1 FLOP/B at every size: memory-bound by
    construction. A matrix product's intensity grows as $n/12$, so large ones are compute-bound. Timed on this
    machine. Small arrays fit in cache and may beat the DRAM roof; tiny calls are dominated by Python overhead; and
    on a machine shared with other work a kernel can land above a peak measured in a busier moment — the roofline
    is a bound for the conditions it was measured under. (Arrays of 2^12 elements are 32 KiB and stay in cache;
    2^23 elements are 64 MiB each.)
    """),
    code("""
    # NBVAL_IGNORE_OUTPUT
    measured = rl.measure_kernels(repeats=3, min_time=0.01)
    print(f"{'kernel':16s} {'I (FLOP/B)':>10s} {'GFLOP/s':>9s} {'roof':>9s} {'of roof':>8s}  bound")
    for k in measured:
        roof = rl.attainable(k.intensity, machine.peak_flops, machine.bandwidth)
        bound = "memory" if k.intensity < machine.ridge else "compute"
        print(f"{k.label:16s} {k.intensity:10.3f} {k.flop_rate / 1e9:9.2f} {roof / 1e9:9.2f} "
              f"{k.flop_rate / roof:8.0%}  {bound}")
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    _ = el.plots.plot_roofline(machine.peak_flops, machine.bandwidth, points=measured, ax=ax,
                               label="this machine (measured)")
    ax.legend(loc="lower right", fontsize=7, ncols=2)
    ax.set_title("NumPy kernels on this machine's roofline")
    plt.show()
    """),
    md(r"""
    The same explorer with this machine among the devices (its peak is the float64 matmul peak, so use dtype
    float64 to compare like with like):
    """),
    code("""
    # NBVAL_IGNORE_OUTPUT
    el.widgets.roofline_explorer(machine, device="this machine", models=("ResNet-18", "MobileNetV2"))
    """),
    md(r"""
    ## Summary

    - 计算量 is a count (FLOPs or MACs); FLOPS or FLOP/s is a rate. One multiply-add = 2 FLOPs = 1 MAC.
    - 访存量 depends on what you assume stays on chip; 参数量 is the weights; 计算强度 = FLOPs / bytes.
    - The roofline $P = \min(\pi, \beta I)$ bounds what a device can do for a given intensity; the ridge $\pi/\beta$
      separates memory-bound from compute-bound.
    - Verdicts flip with the counting convention: compare like with like (2 FLOPs per MAC on both sides).
    - Batching raises intensity towards $F/A$; depthwise-separable layers cut operations by $1/C_\text{out} + 1/K^2$
      but also lower intensity.
    """),
]


def main():
    path = ROOT / "notebooks" / "11_roofline.ipynb"
    write(path, CELLS)
    print("wrote", path.relative_to(ROOT))

if __name__ == "__main__":
    main()
