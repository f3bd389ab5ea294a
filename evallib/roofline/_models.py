"""Models as tables of layers, and the model zoo (AlexNet, VGG16, ResNet, MobileNet)."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field, replace
from typing import ClassVar

import numpy as np

from .._results import Result
from .._validation import Options, validate_params
from ._bound import time_bound
from ._layers import (
    Convention,
    Layer,
    _check_shape,
    activation,
    adaptive_avgpool2d,
    batchnorm2d,
    conv2d,
    flatten,
    linear,
    maxpool2d,
    residual_add,
)

# --------------------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class LayerTable(Result):
    """A per-layer table (shape, parameters, MACs, FLOPs, bytes, intensity) for a notebook (:meth:`Model.table`).

    Renders as HTML in Jupyter (``_repr_html_``) and as aligned text in ``repr``/``str`` (its ``_repr_format``).
    ``rows`` holds one dict per layer; ``columns`` names their keys.
    """

    title: str
    rows: list
    total: dict

    columns: ClassVar[tuple] = ("name", "kind", "detail", "output", "params", "macs", "flops", "bytes", "intensity")
    _repr_format = "{text}"

    def __len__(self):
        return len(self.rows)

    @staticmethod
    def _fmt(key, v):
        if v is None or v == "":
            return "" if v == "" else "-"
        if key == "intensity":
            return f"{v:.2f}"
        if isinstance(v, (int, np.integer)):
            return f"{v:,}"
        return str(v)

    def _cells(self, row):
        return [self._fmt(k, row.get(k)) for k in self.columns]

    def _repr_values(self) -> dict:
        """The aligned text table: a title line, the header, one line per layer and the total."""
        head = ["layer", "kind", "spec", "output", "params", "MACs", "FLOPs", "bytes", "FLOP/B"]
        body = [self._cells(r) for r in self.rows] + [self._cells(self.total)]
        widths = [max(len(x) for x in col) for col in zip(head, *body)]
        left = {0, 1, 2, 3}

        def line(cells):
            return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

        sep = "-" * len(line(head))
        lines = [self.title, line(head), sep, *(line(b) for b in body[:-1]), sep, line(body[-1])]
        return {"text": "\n".join(lines)}

    def _repr_html_(self):
        head = ["layer", "kind", "spec", "output", "params", "MACs", "FLOPs", "bytes", "FLOP/B"]
        th = "".join(f"<th>{h}</th>" for h in head)

        def tr(row, bold=False):
            tds = []
            for i, c in enumerate(self._cells(row)):
                align = "left" if i < 4 else "right"
                c = html.escape(c)
                tds.append(f'<td style="text-align:{align}">{f"<b>{c}</b>" if bold else c}</td>')
            return "<tr>" + "".join(tds) + "</tr>"

        body = "".join(tr(r) for r in self.rows) + tr(self.total, bold=True)
        return (
            f'<div style="max-height:420px;overflow:auto"><table><caption>{html.escape(self.title)}'
            f"</caption><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>"
        )


@dataclass(frozen=True, repr=False)
class Model(Result):
    """A network as a sequence of :class:`Layer` specs, counted under a :class:`Convention`.

    ``params`` and ``macs`` are per sample and do not depend on the convention (``macs``: multiply-adds
    of conv and linear layers, the figure torchvision publishes as "GFLOPS"). ``flops``,
    ``memory_bytes`` and ``intensity`` are for one forward pass of a batch under ``convention``.
    """

    name: str
    layers: tuple
    input_shape: tuple = (3, 224, 224)
    convention: Convention = field(default_factory=Convention)

    def __post_init__(self):
        if not self.layers or not all(isinstance(layer, Layer) for layer in self.layers):
            raise ValueError("layers must be a non-empty sequence of Layer specs")
        if not isinstance(self.convention, Convention):
            raise TypeError(f"convention must be a Convention, got {type(self.convention).__name__}")

    # -- conventions -----------------------------------------------------------------------------
    def with_convention(self, convention: Convention | None = None, **changes) -> Model:
        """The same model under another convention (a Convention, and/or fields of one to change).

        >>> vgg16().with_convention(mac_flops=1, batch=8).convention.batch
        8
        """
        conv = self.convention if convention is None else convention
        if not isinstance(conv, Convention):
            raise TypeError(f"convention must be a Convention, got {type(conv).__name__}")
        unknown = set(changes) - {"mac_flops", "outputs", "dtype", "batch", "elementwise"}
        if unknown:
            raise ValueError(f"unknown convention field(s) {sorted(unknown)}")
        return replace(self, convention=replace(conv, **changes))

    # -- totals ----------------------------------------------------------------------------------
    @property
    def params(self) -> int:
        """参数量: trainable parameters."""
        return sum(layer.params for layer in self.layers)

    @property
    def macs(self) -> int:
        """Multiply-adds of conv and linear layers for one sample (torchvision's "GFLOPS" × 1e9)."""
        return sum(layer.macs for layer in self.layers)

    @property
    def flops(self) -> int:
        """计算量 for one batch: mac_flops × MACs (plus element-wise ops if the convention says so) × batch."""
        return sum(layer.flops(self.convention) for layer in self.layers)

    @property
    def memory_bytes(self) -> int:
        """访存量 for one batch: weights once plus the counted feature maps of every sample, in bytes."""
        return sum(layer.memory_bytes(self.convention) for layer in self.layers)

    @property
    def weight_bytes(self) -> int:
        return self.params * self.convention.bytes_per_element

    @property
    def intensity(self) -> float:
        """计算强度: FLOPs per byte moved."""
        return self.flops / self.memory_bytes

    # -- per layer -------------------------------------------------------------------------------
    @property
    def layer_flops(self) -> np.ndarray:
        return np.array([layer.flops(self.convention) for layer in self.layers], dtype=float)

    @property
    def layer_bytes(self) -> np.ndarray:
        return np.array([layer.memory_bytes(self.convention) for layer in self.layers], dtype=float)

    def layer_time_bounds(self, peak_flops, bandwidth) -> np.ndarray:
        """max(F_l/π, Q_l/β) for every layer, in seconds."""
        return time_bound(self.layer_flops, self.layer_bytes, peak_flops, bandwidth)

    def time_bound(self, peak_flops, bandwidth, *, per_layer=False) -> float:
        """Lower bound on the time of one batch: max(F/π, Q/β) for the whole model, or (``per_layer=True``)
        the sum of the layers' bounds, which is never smaller."""
        if per_layer:
            return float(self.layer_time_bounds(peak_flops, bandwidth).sum())
        return float(time_bound(self.flops, self.memory_bytes, peak_flops, bandwidth))

    def counted_layers(self, kinds=None) -> list:
        """Layers of the given kinds (default: those that do arithmetic or move counted bytes)."""
        if kinds is None:
            return [
                layer
                for layer in self.layers
                if layer.flops(self.convention) > 0 or layer.memory_bytes(self.convention) > 0
            ]
        if isinstance(kinds, str):
            kinds = (kinds,)
        known = {"conv", "linear", "maxpool", "avgpool", "bn", "relu", "relu6", "add", "flatten"}
        bad = set(kinds) - known
        if bad:
            raise ValueError(f"kinds must be among {sorted(known)}, got {sorted(bad)}")
        return [layer for layer in self.layers if layer.kind in kinds]

    def table(self, kinds=None) -> LayerTable:
        """The per-layer table (default: every layer that counts under the convention), with a total row."""
        conv = self.convention
        rows = []
        for layer in self.counted_layers(kinds):
            f, b = layer.flops(conv), layer.memory_bytes(conv)
            rows.append(
                {
                    "name": layer.name,
                    "kind": layer.kind,
                    "detail": layer.detail,
                    "output": "x".join(map(str, layer.out_shape)),
                    "params": layer.params,
                    "macs": layer.macs,
                    "flops": f,
                    "bytes": b,
                    "intensity": f / b if b else None,
                }
            )
        total = {
            "name": "total",
            "kind": "",
            "detail": f"{len(self.layers)} layers",
            "output": "",
            "params": self.params,
            "macs": self.macs,
            "flops": self.flops,
            "bytes": self.memory_bytes,
            "intensity": self.intensity,
        }
        return LayerTable(f"{self.name}: {conv.describe()}", rows, total)

    def summary(self) -> str:
        """One line: parameters, MACs, FLOPs, bytes and intensity."""
        return (
            f"{self.name:<13s} params {self.params / 1e6:8.3f} M | MACs {self.macs / 1e9:7.3f} G | "
            f"FLOPs {self.flops / 1e9:8.3f} G | traffic {self.memory_bytes / 1e6:8.1f} MB | "
            f"intensity {self.intensity:7.2f} FLOP/B"
        )

    _repr_format = "Model({name!r}, {n_layers} layers, params={params:,}, macs={macs:,}, convention: {convention_text})"

    def _repr_values(self) -> dict:
        return {"n_layers": len(self.layers), "convention_text": self.convention.describe()}


class _Builder:
    """Tracks the current feature-map shape while a model is written down layer by layer."""

    def __init__(self, shape=(3, 224, 224)):
        self.shape = tuple(shape)
        self.layers = []

    def add(self, layer):
        self.layers.append(layer)
        self.shape = layer.out_shape
        return layer

    def conv(self, cout, k, s=1, p=0, *, g=1, bias=False, name="conv"):
        return self.add(conv2d(self.shape, cout, k, s, p, groups=g, bias=bias, name=name))

    def bn(self, name="bn"):
        return self.add(batchnorm2d(self.shape, name=name))

    def act(self, kind="relu", name=None):
        return self.add(activation(self.shape, kind, name=name))

    def conv_bn_act(self, cout, k, s=1, p=0, *, g=1, act="relu", name="conv"):
        self.conv(cout, k, s, p, g=g, name=name)
        self.bn(f"{name}.bn")
        if act:
            self.act(act, f"{name}.{act}")

    def fc(self, fout, name="fc"):
        if len(self.shape) == 3:
            self.add(flatten(self.shape, name=f"{name}.flatten"))
        return self.add(linear(self.shape[0], fout, name=name))


@validate_params({"name": ["str"], "input_shape": ["array-like"], "convention": [None, Convention]})
def sequential(name, layers, *, input_shape=(3, 224, 224), convention=None, **conventions) -> Model:
    """A :class:`Model` from a list of Layer specs (shapes must chain: each layer's input is the last output).

    >>> m = sequential("tiny", [conv2d((3, 8, 8), 4, 3, padding=1), flatten((4, 8, 8)), linear(256, 2)],
    ...                input_shape=(3, 8, 8))
    >>> m.params, m.macs
    (626, 7424)
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty str, got {name!r}")
    layers = tuple(layers)
    if not layers or not all(isinstance(layer, Layer) for layer in layers):
        raise ValueError("layers must be a non-empty sequence of Layer specs")
    one_d = isinstance(input_shape, (tuple, list)) and len(input_shape) == 1
    in_shape = shape = _check_shape(input_shape, "input_shape", ndim=1 if one_d else 3)
    seen = {shape}  # a branch (a residual shortcut) may start from any earlier feature map
    for layer in layers:
        if (
            layer.in_shape != shape
            and layer.in_shape not in seen
            and not (layer.kind in ("linear", "flatten") and math.prod(layer.in_shape) == math.prod(shape))
        ):
            raise ValueError(
                f"layers: {layer.name!r} expects input {layer.in_shape}, but the previous output is {shape}"
            )
        shape = layer.out_shape
        seen.add(shape)
    conv = Convention() if convention is None else convention
    if not isinstance(conv, Convention):
        raise TypeError(f"convention must be a Convention, got {type(conv).__name__}")
    return Model(name, layers, in_shape, replace(conv, **conventions))


def _finish(name, b, convention, conventions):
    return sequential(name, b.layers, convention=convention, **conventions)


@validate_params({"convention": [None, Convention]})
def alexnet(convention=None, **conventions) -> Model:
    """AlexNet as in torchvision (the "one weird trick" variant, 64 filters in conv1): 61,100,840 parameters,
    0.714 G multiply-adds. Keyword arguments set the :class:`Convention` (``mac_flops``, ``outputs``, ``dtype``,
    ``batch``, ``elementwise``)."""
    b = _Builder()
    b.conv(64, 11, 4, 2, bias=True, name="conv1")
    b.act(name="relu1")
    b.add(maxpool2d(b.shape, 3, 2, name="pool1"))
    b.conv(192, 5, 1, 2, bias=True, name="conv2")
    b.act(name="relu2")
    b.add(maxpool2d(b.shape, 3, 2, name="pool2"))
    b.conv(384, 3, 1, 1, bias=True, name="conv3")
    b.act(name="relu3")
    b.conv(256, 3, 1, 1, bias=True, name="conv4")
    b.act(name="relu4")
    b.conv(256, 3, 1, 1, bias=True, name="conv5")
    b.act(name="relu5")
    b.add(maxpool2d(b.shape, 3, 2, name="pool5"))
    b.add(adaptive_avgpool2d(b.shape, 6, name="avgpool"))
    b.fc(4096, "fc6")
    b.act(name="fc6.relu")
    b.fc(4096, "fc7")
    b.act(name="fc7.relu")
    b.fc(1000, "fc8")
    return _finish("AlexNet", b, convention, conventions)


@validate_params({"convention": [None, Convention]})
def vgg16(convention=None, **conventions) -> Model:
    """VGG16 (configuration D, no batch-norm) as in torchvision: 138,357,544 parameters, 15.47 G multiply-adds."""
    b = _Builder()
    for stage, (width, n) in enumerate([(64, 2), (128, 2), (256, 3), (512, 3), (512, 3)], start=1):
        for i in range(1, n + 1):
            b.conv(width, 3, 1, 1, bias=True, name=f"conv{stage}_{i}")
            b.act(name=f"relu{stage}_{i}")
        b.add(maxpool2d(b.shape, 2, 2, name=f"pool{stage}"))
    b.add(adaptive_avgpool2d(b.shape, 7, name="avgpool"))
    b.fc(4096, "fc6")
    b.act(name="fc6.relu")
    b.fc(4096, "fc7")
    b.act(name="fc7.relu")
    b.fc(1000, "fc8")
    return _finish("VGG16", b, convention, conventions)


def _resnet_stem(b):
    b.conv_bn_act(64, 7, 2, 3, name="conv1")
    b.add(maxpool2d(b.shape, 3, 2, 1, name="maxpool"))


def _resnet_head(b):
    b.add(adaptive_avgpool2d(b.shape, 1, name="avgpool"))
    b.fc(1000, "fc")


def _shortcut(x_shape, cout, stride, name):
    """Projection shortcut (1×1 conv + BN) when the shape changes; returns its layers."""
    if stride == 1 and x_shape[0] == cout:
        return []
    conv = conv2d(x_shape, cout, 1, stride, bias=False, name=f"{name}.downsample")
    return [conv, batchnorm2d(conv.out_shape, name=f"{name}.downsample.bn")]


@validate_params({"convention": [None, Convention]})
def resnet18(convention=None, **conventions) -> Model:
    """ResNet-18 as in torchvision (basic blocks [2, 2, 2, 2]): 11,689,512 parameters, 1.814 G multiply-adds."""
    b = _Builder()
    _resnet_stem(b)
    for stage, (width, n) in enumerate([(64, 2), (128, 2), (256, 2), (512, 2)], start=1):
        for i in range(n):
            s = 2 if (i == 0 and stage > 1) else 1
            name, x = f"layer{stage}.{i}", b.shape
            b.conv_bn_act(width, 3, s, 1, name=f"{name}.conv1")
            b.conv(width, 3, 1, 1, name=f"{name}.conv2")
            b.bn(f"{name}.conv2.bn")
            for layer in _shortcut(x, width, s, name):
                b.layers.append(layer)
            b.add(residual_add(b.shape, name=f"{name}.add"))
            b.act(name=f"{name}.relu")
    _resnet_head(b)
    return _finish("ResNet-18", b, convention, conventions)


@validate_params({"convention": [None, Convention], "version": [Options("1", "1.5")]})
def resnet50(convention=None, *, version="1.5", **conventions) -> Model:
    """ResNet-50 with bottleneck blocks [3, 4, 6, 3]: 25,557,032 parameters; torchvision's v1.5 (stride 2 in the
    3×3 conv) has 4.089 G multiply-adds, ``version="1"`` (stride 2 in the first 1×1 conv, the paper's) 3.8 G."""
    b = _Builder()
    _resnet_stem(b)
    for stage, (width, n) in enumerate([(64, 3), (128, 4), (256, 6), (512, 3)], start=1):
        for i in range(n):
            s = 2 if (i == 0 and stage > 1) else 1
            s1, s3 = (1, s) if version == "1.5" else (s, 1)
            name, x = f"layer{stage}.{i}", b.shape
            b.conv_bn_act(width, 1, s1, 0, name=f"{name}.conv1")
            b.conv_bn_act(width, 3, s3, 1, name=f"{name}.conv2")
            b.conv(4 * width, 1, name=f"{name}.conv3")
            b.bn(f"{name}.conv3.bn")
            for layer in _shortcut(x, 4 * width, s, name):
                b.layers.append(layer)
            b.add(residual_add(b.shape, name=f"{name}.add"))
            b.act(name=f"{name}.relu")
    _resnet_head(b)
    return _finish("ResNet-50" if version == "1.5" else "ResNet-50 v1", b, convention, conventions)


@validate_params({"convention": [None, Convention]})
def mobilenet_v1(convention=None, **conventions) -> Model:
    """MobileNetV1 1.0-224 (Howard et al. 2017, Table 1): 4,231,976 parameters (4.2 M in the paper),
    0.569 G multiply-adds. Depthwise 3×3 + pointwise 1×1 pairs, each conv followed by batch-norm and ReLU."""
    b = _Builder()
    b.conv_bn_act(32, 3, 2, 1, name="conv1")
    cfg = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + [(1024, 2), (1024, 1)]
    for i, (cout, s) in enumerate(cfg, start=1):
        b.conv_bn_act(b.shape[0], 3, s, 1, g=b.shape[0], name=f"block{i}.dw")
        b.conv_bn_act(cout, 1, name=f"block{i}.pw")
    b.add(adaptive_avgpool2d(b.shape, 1, name="avgpool"))
    b.fc(1000, "fc")
    return _finish("MobileNetV1", b, convention, conventions)


@validate_params({"convention": [None, Convention]})
def mobilenet_v2(convention=None, **conventions) -> Model:
    """MobileNetV2 1.0 as in torchvision (inverted residuals, ReLU6): 3,504,872 parameters, 0.301 G multiply-adds."""
    b = _Builder()
    b.conv_bn_act(32, 3, 2, 1, act="relu6", name="conv1")
    blk = 0
    for t, c, n, s in [
        (1, 16, 1, 1),
        (6, 24, 2, 2),
        (6, 32, 3, 2),
        (6, 64, 4, 2),
        (6, 96, 3, 1),
        (6, 160, 3, 2),
        (6, 320, 1, 1),
    ]:
        for i in range(n):
            blk += 1
            stride, x, name = (s if i == 0 else 1), b.shape, f"block{blk}"
            hidden = x[0] * t
            if t != 1:
                b.conv_bn_act(hidden, 1, act="relu6", name=f"{name}.expand")
            b.conv_bn_act(hidden, 3, stride, 1, g=hidden, act="relu6", name=f"{name}.dw")
            b.conv(c, 1, name=f"{name}.project")
            b.bn(f"{name}.project.bn")
            if stride == 1 and x[0] == c:
                b.add(residual_add(b.shape, name=f"{name}.add"))
    b.conv_bn_act(1280, 1, act="relu6", name="conv_last")
    b.add(adaptive_avgpool2d(b.shape, 1, name="avgpool"))
    b.fc(1000, "fc")
    return _finish("MobileNetV2", b, convention, conventions)


#: The model builders by name (the explorer's multi-select).
MODELS = {
    "AlexNet": alexnet,
    "VGG16": vgg16,
    "ResNet-18": resnet18,
    "ResNet-50": resnet50,
    "MobileNetV1": mobilenet_v1,
    "MobileNetV2": mobilenet_v2,
}


@validate_params({"name": ["str"], "convention": [None, Convention]})
def get_model(name, convention=None, **conventions) -> Model:
    """A model by name (see :data:`MODELS`; case and '-'/'_' ignored), e.g. ``get_model("resnet50", batch=8)``."""
    key = {k.lower().replace("-", "").replace("_", ""): k for k in MODELS}
    k = name.lower().replace("-", "").replace("_", "")
    if k not in key:
        raise ValueError(f"name must be one of {list(MODELS)}, got {name!r}")
    return MODELS[key[k]](convention, **conventions)
