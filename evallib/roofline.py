"""Model compute requirements and the roofline model (notes 004 §5, 模型计算需求指标).

Taught in ``notebooks/11_roofline.ipynb``. What a forward pass costs, counted exactly from layer specs
(no deep-learning framework):

* 计算量 (compute): multiply-adds (MACs) of the conv and linear layers, turned into FLOPs by a convention
  (1 MAC = 2 FLOPs, as a vendor's peak counts an FMA, or 1, the MAC count torchvision, fvcore,
  ptflops and thop report);
* 访存量 (memory traffic): the bytes a pass moves, weights plus the feature maps a convention counts;
* 参数量 (parameters): trainable weights and biases (batch-norm's running statistics are buffers, not
  parameters, as in PyTorch's ``sum(p.numel() for p in model.parameters())``);
* 计算强度 (arithmetic intensity) I = FLOPs / bytes, and the roofline bound
  P = min(π, β·I) (Williams, Waterman & Patterson 2009), or in time t ≥ max(F/π, Q/β).

Every count is per forward pass of one batch; weights are read once per batch, feature maps once per
sample, so intensity I(N) = N·F / (W + N·A) rises towards F/A as the batch size N grows.

>>> from evallib import roofline
>>> m = roofline.vgg16()
>>> m.params, round(m.macs / 1e9, 2)
(138357544, 15.47)
"""
from __future__ import annotations

import html
import math
import numbers
import os
import platform
import time
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

import numpy as np

from ._validation import as_finite_array, check_positive_int

__all__ = [
    # conventions
    "Convention", "ARTICLE", "DTYPE_BYTES", "dtype_bytes",
    # layer specs
    "Layer", "conv2d", "depthwise_conv2d", "linear", "maxpool2d", "avgpool2d", "adaptive_avgpool2d",
    "batchnorm2d", "activation", "residual_add", "flatten",
    # models
    "Model", "LayerTable", "sequential", "alexnet", "vgg16", "resnet18", "resnet50", "mobilenet_v1",
    "mobilenet_v2", "MODELS", "get_model",
    # roofline
    "attainable", "ridge_point", "time_bound", "RooflineResult", "analyze", "separable_cost_ratio",
    # devices and measurement
    "Device", "DEVICES", "get_device", "MachineMeasurement", "measure_machine", "machine_device",
    "KernelMeasurement", "measure_kernels",
]

# --------------------------------------------------------------------------------------------------
# Conventions
# --------------------------------------------------------------------------------------------------

#: Bytes per element of the data types a convention may name.
DTYPE_BYTES = {"float64": 8, "float32": 4, "tf32": 4, "bfloat16": 2, "float16": 2, "int8": 1}

_OUTPUTS = ("conv_linear", "all", "io")


def dtype_bytes(dtype) -> int:
    """Bytes per element of ``dtype``: a name in :data:`DTYPE_BYTES` or a positive int (bytes).

    >>> dtype_bytes("float16"), dtype_bytes(4)
    (2, 4)
    """
    if isinstance(dtype, str):
        if dtype not in DTYPE_BYTES:
            raise ValueError(f"dtype must be one of {sorted(DTYPE_BYTES)} or a number of bytes, got {dtype!r}")
        return DTYPE_BYTES[dtype]
    if isinstance(dtype, (bool, np.bool_)) or not isinstance(dtype, numbers.Integral):
        raise TypeError(f"dtype must be a name such as 'float32' or an int number of bytes, got {dtype!r}")
    dtype = check_positive_int(dtype, "dtype")
    if dtype not in (1, 2, 4, 8):
        raise ValueError(f"dtype: a number of bytes per element must be 1, 2, 4 or 8; got {dtype}")
    return dtype


@dataclass(frozen=True)
class Convention:
    """How compute and traffic are counted (the numbers differ between tools: make the choice explicit).

    Parameters
    ----------
    mac_flops : 1 or 2
        FLOPs per multiply-add. 2 is a true FLOP count and matches how peaks are quoted (FMA = 2 FLOPs);
        1 is the MAC count the model counters report: fvcore and torchvision's "GFLOPS" call it flops,
        ptflops reports it as GMac and thop returns it as ``macs``.
    outputs : {"conv_linear", "all", "io"}
        Which feature maps count as traffic: the outputs of conv and linear layers only (the article's
        convention: activations, pooling and batch-norm fused away), every layer's output, or every
        layer reading its inputs and writing its output (unfused execution).
    dtype : str or int
        Element type of weights and feature maps (bytes per element, see :data:`DTYPE_BYTES`).
    batch : int
        Batch size N: FLOPs and feature maps scale with N, weights are read once per batch.
    elementwise : bool
        Also count the arithmetic of batch-norm, activations, pooling, bias and residual adds as FLOPs
        (torchvision's figure counts only conv and linear multiply-adds).
    """

    mac_flops: int = 2
    outputs: str = "conv_linear"
    dtype: object = "float32"
    batch: int = 1
    elementwise: bool = False

    def __post_init__(self):
        if isinstance(self.mac_flops, (bool, np.bool_)) or self.mac_flops not in (1, 2):
            raise ValueError(f"mac_flops must be 1 or 2 (FLOPs per multiply-add), got {self.mac_flops!r}")
        if self.outputs not in _OUTPUTS:
            raise ValueError(f"outputs must be one of {_OUTPUTS}, got {self.outputs!r}")
        dtype_bytes(self.dtype)
        check_positive_int(self.batch, "batch")
        if not isinstance(self.elementwise, (bool, np.bool_)):
            raise TypeError(f"elementwise must be True or False, got {self.elementwise!r}")

    @property
    def bytes_per_element(self) -> int:
        return dtype_bytes(self.dtype)

    def describe(self) -> str:
        out = {"conv_linear": "weights + conv/linear outputs", "all": "weights + every layer's output",
               "io": "weights + every layer's inputs and output"}[self.outputs]
        return (f"1 MAC = {self.mac_flops} FLOP{'s' if self.mac_flops == 2 else ''}, traffic = {out}, "
                f"{self.dtype if isinstance(self.dtype, str) else f'{self.dtype}-byte'} elements, "
                f"batch {self.batch}" + (", element-wise ops counted" if self.elementwise else ""))


#: The convention of the article the notes follow: 1 MAC counted as 1 "FLOP", float32 weights plus the
#: outputs of conv and linear layers. (Comparing that count with an FMA = 2 peak is the notes' slip.)
ARTICLE = Convention(mac_flops=1, outputs="conv_linear", dtype="float32", batch=1)


def _check_convention(convention):
    if not isinstance(convention, Convention):
        raise TypeError(f"convention must be an evallib.roofline.Convention, got {type(convention).__name__}")
    return convention


# --------------------------------------------------------------------------------------------------
# Layer specs
# --------------------------------------------------------------------------------------------------

_COMPUTE_KINDS = ("conv", "linear")
# Every kind the layer builders make.
_LAYER_KINDS = ("conv", "linear", "bn", "relu", "relu6", "maxpool", "avgpool", "add", "flatten")


@dataclass(frozen=True)
class Layer:
    """One layer of a forward pass, counted per sample.

    ``params`` trainable parameters; ``macs`` multiply-adds (conv and linear only); ``ops`` other
    arithmetic (bias adds, batch-norm, activations, pooling, residual adds) in FLOPs;
    ``in_shape`` / ``out_shape`` are (C, H, W) or (features,); ``n_inputs`` how many tensors of
    ``in_shape`` the layer reads (2 for a residual add).
    """

    name: str
    kind: str
    in_shape: tuple
    out_shape: tuple
    params: int
    macs: int
    ops: int
    detail: str = ""
    n_inputs: int = 1

    def __post_init__(self):
        for arg in ("name", "detail"):
            if not isinstance(getattr(self, arg), str):
                raise TypeError(f"{arg}: must be a str; got {type(getattr(self, arg)).__name__} ({getattr(self, arg)!r})")
        if not isinstance(self.kind, str) or self.kind not in _LAYER_KINDS:
            raise ValueError(f"kind: must be one of {_LAYER_KINDS}; got {self.kind!r}")
        for arg in ("params", "macs", "ops"):
            check_positive_int(getattr(self, arg), arg, minimum=0)
        check_positive_int(self.n_inputs, "n_inputs")

    @property
    def in_elements(self) -> int:
        return self.n_inputs * math.prod(self.in_shape)

    @property
    def out_elements(self) -> int:
        return math.prod(self.out_shape)

    @property
    def is_compute(self) -> bool:
        """True for conv and linear layers (the ones whose multiply-adds torchvision counts)."""
        return self.kind in _COMPUTE_KINDS

    def flops(self, convention: Convention = Convention()) -> int:
        """FLOPs of this layer for one batch under ``convention``."""
        _check_convention(convention)
        per = convention.mac_flops * self.macs + (self.ops if convention.elementwise else 0)
        return convention.batch * per

    def memory_bytes(self, convention: Convention = Convention()) -> int:
        """Bytes this layer moves for one batch under ``convention`` (weights once, feature maps per sample)."""
        _check_convention(convention)
        if self.kind == "flatten":  # a view: no data moves
            acts = 0
        elif convention.outputs == "conv_linear":
            acts = self.out_elements if self.is_compute else 0
        elif convention.outputs == "all":
            acts = self.out_elements
        else:  # "io"
            acts = self.in_elements + self.out_elements
        return convention.bytes_per_element * (self.params + convention.batch * acts)


def _pair(v, name, *, minimum):
    if isinstance(v, (tuple, list)):
        if len(v) != 2:
            raise ValueError(f"{name} must be an int or a pair of ints, got {v!r}")
        return tuple(check_positive_int(x, name, minimum=minimum) for x in v)
    x = check_positive_int(v, name, minimum=minimum)
    return (x, x)


def _check_shape(shape, name="in_shape", ndim=3):
    if isinstance(shape, numbers.Integral) and not isinstance(shape, (bool, np.bool_)) and ndim == 1:
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or len(shape) != ndim:
        want = "(C, H, W)" if ndim == 3 else "(features,)"
        raise ValueError(f"{name} must be a shape {want}, got {shape!r}")
    return tuple(check_positive_int(s, name) for s in shape)


def _out_size(n, k, s, p, d, name, ceil_mode=False):
    span = n + 2 * p - d * (k - 1) - 1
    if span < 0:
        raise ValueError(f"{name}: kernel {k} (dilation {d}) does not fit an input of size {n} with padding {p}")
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= n + p:  # PyTorch: the last window must start inside input or left padding
        out -= 1
    return out


def conv2d(in_shape, out_channels, kernel_size, stride=1, padding=0, *, groups=1, dilation=1, bias=True,
           name="conv") -> Layer:
    """A 2-D convolution: parameters C_out·(C_in/g)·K_h·K_w (+ C_out bias), MACs H_out·W_out·C_out·(C_in/g)·K_h·K_w.

    Output size per axis: ⌊(H + 2p − d(K−1) − 1)/s⌋ + 1, as in PyTorch. Padded taps count as
    multiply-adds (frameworks and published figures count them). ``groups=C_in=C_out`` is depthwise.

    >>> layer = conv2d((3, 224, 224), 64, 3, padding=1)     # VGG16 conv1_1
    >>> layer.out_shape, layer.params, layer.macs
    ((64, 224, 224), 1792, 86704128)
    """
    c, h, w = _check_shape(in_shape)
    out_channels = check_positive_int(out_channels, "out_channels")
    kh, kw = _pair(kernel_size, "kernel_size", minimum=1)
    sh, sw = _pair(stride, "stride", minimum=1)
    ph, pw = _pair(padding, "padding", minimum=0)
    dh, dw = _pair(dilation, "dilation", minimum=1)
    groups = check_positive_int(groups, "groups")
    if c % groups or out_channels % groups:
        raise ValueError(f"groups={groups} must divide both in_channels={c} and out_channels={out_channels}")
    if not isinstance(bias, (bool, np.bool_)):
        raise TypeError(f"bias must be True or False, got {bias!r}")
    ho = _out_size(h, kh, sh, ph, dh, "kernel_size")
    wo = _out_size(w, kw, sw, pw, dw, "kernel_size")
    per_filter = (c // groups) * kh * kw
    params = out_channels * per_filter + (out_channels if bias else 0)
    macs = ho * wo * out_channels * per_filter
    kind_txt = "dw " if groups == c == out_channels and groups > 1 else ""
    detail = f"{kind_txt}{kh}x{kw}/{sh}" + (f" p{ph}" if ph else "") + (f" g{groups}" if groups > 1 else "")
    return Layer(name, "conv", (c, h, w), (out_channels, ho, wo), params, macs,
                 ho * wo * out_channels if bias else 0, detail)


def depthwise_conv2d(in_shape, kernel_size, stride=1, padding=0, *, bias=False, name="dwconv") -> Layer:
    """A depthwise convolution: one K×K filter per channel (``conv2d`` with groups = C_in = C_out)."""
    c = _check_shape(in_shape)[0]
    return conv2d(in_shape, c, kernel_size, stride, padding, groups=c, bias=bias, name=name)


def linear(in_features, out_features, *, bias=True, name="fc") -> Layer:
    """A fully connected layer: MACs F_in·F_out, parameters F_in·F_out (+ F_out bias).

    ``in_features`` is an int or a shape whose elements are flattened.

    >>> linear(4096, 1000).params
    4097000
    """
    if isinstance(in_features, (tuple, list)):
        shape = tuple(check_positive_int(s, "in_features") for s in in_features)
        if not shape:
            raise ValueError("in_features must be a positive int or a non-empty shape")
        fin = math.prod(shape)
    else:
        fin = check_positive_int(in_features, "in_features")
    fout = check_positive_int(out_features, "out_features")
    if not isinstance(bias, (bool, np.bool_)):
        raise TypeError(f"bias must be True or False, got {bias!r}")
    return Layer(name, "linear", (fin,), (fout,), fin * fout + (fout if bias else 0), fin * fout,
                 fout if bias else 0, f"{fin}->{fout}")


def _pool(kind, in_shape, kernel_size, stride, padding, ceil_mode, name):
    if not isinstance(ceil_mode, (bool, np.bool_)):
        raise TypeError(f"ceil_mode: must be True or False; got {type(ceil_mode).__name__} ({ceil_mode!r})")
    c, h, w = _check_shape(in_shape)
    kh, kw = _pair(kernel_size, "kernel_size", minimum=1)
    sh, sw = _pair(kernel_size if stride is None else stride, "stride", minimum=1)
    ph, pw = _pair(padding, "padding", minimum=0)
    if 2 * ph > kh or 2 * pw > kw:
        raise ValueError(f"padding must be at most half of kernel_size, got padding {padding} for kernel {kernel_size}")
    ho = _out_size(h, kh, sh, ph, 1, "kernel_size", ceil_mode)
    wo = _out_size(w, kw, sw, pw, 1, "kernel_size", ceil_mode)
    out = c * ho * wo
    # max: K²−1 comparisons per output; average: K²−1 adds and one divide.
    ops = out * (kh * kw - 1) if kind == "maxpool" else out * kh * kw
    return Layer(name, kind, (c, h, w), (c, ho, wo), 0, 0, ops,
                 f"{kh}x{kw}/{sh}" + (f" p{ph}" if ph else ""))


def maxpool2d(in_shape, kernel_size, stride=None, padding=0, *, ceil_mode=False, name="maxpool") -> Layer:
    """Max pooling (stride defaults to the kernel size): no parameters, no MACs, K²−1 comparisons per output."""
    return _pool("maxpool", in_shape, kernel_size, stride, padding, ceil_mode, name)


def avgpool2d(in_shape, kernel_size, stride=None, padding=0, *, ceil_mode=False, name="avgpool") -> Layer:
    """Average pooling: no parameters, no MACs, K² operations per output (adds and a divide)."""
    return _pool("avgpool", in_shape, kernel_size, stride, padding, ceil_mode, name)


def adaptive_avgpool2d(in_shape, output_size=1, *, name="avgpool") -> Layer:
    """Adaptive average pooling to ``output_size`` (input sizes must be multiples of it; 1 = global pooling)."""
    c, h, w = _check_shape(in_shape)
    oh, ow = _pair(output_size, "output_size", minimum=1)
    if h % oh or w % ow:
        raise ValueError(f"output_size {output_size} must divide the input size {h}x{w}")
    return avgpool2d((c, h, w), (h // oh, w // ow), name=name)


def batchnorm2d(in_shape, *, name="bn") -> Layer:
    """Batch normalisation at inference: 2·C parameters (γ, β; running statistics are buffers), y = a·x + b."""
    c, h, w = _check_shape(in_shape)
    return Layer(name, "bn", (c, h, w), (c, h, w), 2 * c, 0, 2 * c * h * w)


def activation(in_shape, kind="relu", *, name=None) -> Layer:
    """An element-wise activation (``"relu"``: one comparison per element, ``"relu6"``: two)."""
    if kind not in ("relu", "relu6"):
        raise ValueError(f"kind must be 'relu' or 'relu6', got {kind!r}")
    one_d = isinstance(in_shape, (tuple, list)) and len(in_shape) == 1
    shape = _check_shape(in_shape, ndim=1 if one_d else 3)
    n = math.prod(shape)
    return Layer(name or kind, kind, shape, shape, 0, 0, n * (1 if kind == "relu" else 2))


def residual_add(in_shape, *, name="add") -> Layer:
    """The residual (shortcut) addition of two feature maps of ``in_shape``: one add per element."""
    shape = _check_shape(in_shape)
    return Layer(name, "add", shape, shape, 0, 0, math.prod(shape), n_inputs=2)


def flatten(in_shape, *, name="flatten") -> Layer:
    """Flatten (C, H, W) to (C·H·W,): a view, no arithmetic and no traffic."""
    shape = _check_shape(in_shape)
    return Layer(name, "flatten", shape, (math.prod(shape),), 0, 0, 0)


def separable_cost_ratio(out_channels, kernel_size) -> float:
    """MACs of a depthwise-separable conv (K×K depthwise + 1×1 pointwise) over a dense K×K conv: 1/C_out + 1/K².

    >>> round(separable_cost_ratio(512, 3), 4)
    0.1131
    """
    c = check_positive_int(out_channels, "out_channels")
    k = check_positive_int(kernel_size, "kernel_size")
    return 1 / c + 1 / k**2


# --------------------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------------------


class LayerTable:
    """A per-layer table (shape, parameters, MACs, FLOPs, bytes, intensity) for a notebook.

    Renders as HTML in Jupyter (``_repr_html_``) and as aligned text in ``repr``/``str``.
    ``rows`` holds one dict per layer; ``columns`` names their keys.
    """

    columns = ("name", "kind", "detail", "output", "params", "macs", "flops", "bytes", "intensity")

    def __init__(self, title: str, rows: list, total: dict):
        self.title = title
        self.rows = rows
        self.total = total

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

    def __repr__(self):
        head = ["layer", "kind", "spec", "output", "params", "MACs", "FLOPs", "bytes", "FLOP/B"]
        body = [self._cells(r) for r in self.rows] + [self._cells(self.total)]
        widths = [max(len(x) for x in col) for col in zip(head, *body)]
        left = {0, 1, 2, 3}

        def line(cells):
            return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

        sep = "-" * len(line(head))
        return "\n".join([self.title, line(head), sep, *(line(b) for b in body[:-1]), sep, line(body[-1])])

    __str__ = __repr__

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
        return (f'<div style="max-height:420px;overflow:auto"><table><caption>{html.escape(self.title)}'
                f"</caption><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>")


@dataclass(frozen=True)
class Model:
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
    def with_convention(self, convention: Convention | None = None, **changes) -> "Model":
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
            return [layer for layer in self.layers
                    if layer.flops(self.convention) > 0 or layer.memory_bytes(self.convention) > 0]
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
            rows.append({"name": layer.name, "kind": layer.kind, "detail": layer.detail,
                         "output": "x".join(map(str, layer.out_shape)), "params": layer.params,
                         "macs": layer.macs, "flops": f, "bytes": b, "intensity": f / b if b else None})
        total = {"name": "total", "kind": "", "detail": f"{len(self.layers)} layers", "output": "",
                 "params": self.params, "macs": self.macs, "flops": self.flops, "bytes": self.memory_bytes,
                 "intensity": self.intensity}
        return LayerTable(f"{self.name}: {conv.describe()}", rows, total)

    def summary(self) -> str:
        """One line: parameters, MACs, FLOPs, bytes and intensity."""
        return (f"{self.name:<13s} params {self.params / 1e6:8.3f} M | MACs {self.macs / 1e9:7.3f} G | "
                f"FLOPs {self.flops / 1e9:8.3f} G | traffic {self.memory_bytes / 1e6:8.1f} MB | "
                f"intensity {self.intensity:7.2f} FLOP/B")

    def __repr__(self):
        return (f"Model({self.name!r}, {len(self.layers)} layers, params={self.params:,}, "
                f"macs={self.macs:,}, convention: {self.convention.describe()})")


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
        if layer.in_shape != shape and layer.in_shape not in seen and not (
                layer.kind in ("linear", "flatten") and math.prod(layer.in_shape) == math.prod(shape)):
            raise ValueError(f"layers: {layer.name!r} expects input {layer.in_shape}, but the previous output is {shape}")
        shape = layer.out_shape
        seen.add(shape)
    conv = Convention() if convention is None else convention
    if not isinstance(conv, Convention):
        raise TypeError(f"convention must be a Convention, got {type(conv).__name__}")
    return Model(name, layers, in_shape, replace(conv, **conventions))


def _finish(name, b, convention, conventions):
    return sequential(name, b.layers, convention=convention, **conventions)


def alexnet(convention=None, **conventions) -> Model:
    """AlexNet as in torchvision (the "one weird trick" variant, 64 filters in conv1): 61,100,840 parameters,
    0.714 G multiply-adds. Keyword arguments set the :class:`Convention` (``mac_flops``, ``outputs``, ``dtype``,
    ``batch``, ``elementwise``)."""
    b = _Builder()
    b.conv(64, 11, 4, 2, bias=True, name="conv1"); b.act(name="relu1")
    b.add(maxpool2d(b.shape, 3, 2, name="pool1"))
    b.conv(192, 5, 1, 2, bias=True, name="conv2"); b.act(name="relu2")
    b.add(maxpool2d(b.shape, 3, 2, name="pool2"))
    b.conv(384, 3, 1, 1, bias=True, name="conv3"); b.act(name="relu3")
    b.conv(256, 3, 1, 1, bias=True, name="conv4"); b.act(name="relu4")
    b.conv(256, 3, 1, 1, bias=True, name="conv5"); b.act(name="relu5")
    b.add(maxpool2d(b.shape, 3, 2, name="pool5"))
    b.add(adaptive_avgpool2d(b.shape, 6, name="avgpool"))
    b.fc(4096, "fc6"); b.act(name="fc6.relu")
    b.fc(4096, "fc7"); b.act(name="fc7.relu")
    b.fc(1000, "fc8")
    return _finish("AlexNet", b, convention, conventions)


def vgg16(convention=None, **conventions) -> Model:
    """VGG16 (configuration D, no batch-norm) as in torchvision: 138,357,544 parameters, 15.47 G multiply-adds."""
    b = _Builder()
    for stage, (width, n) in enumerate([(64, 2), (128, 2), (256, 3), (512, 3), (512, 3)], start=1):
        for i in range(1, n + 1):
            b.conv(width, 3, 1, 1, bias=True, name=f"conv{stage}_{i}"); b.act(name=f"relu{stage}_{i}")
        b.add(maxpool2d(b.shape, 2, 2, name=f"pool{stage}"))
    b.add(adaptive_avgpool2d(b.shape, 7, name="avgpool"))
    b.fc(4096, "fc6"); b.act(name="fc6.relu")
    b.fc(4096, "fc7"); b.act(name="fc7.relu")
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


def resnet18(convention=None, **conventions) -> Model:
    """ResNet-18 as in torchvision (basic blocks [2, 2, 2, 2]): 11,689,512 parameters, 1.814 G multiply-adds."""
    b = _Builder()
    _resnet_stem(b)
    for stage, (width, n) in enumerate([(64, 2), (128, 2), (256, 2), (512, 2)], start=1):
        for i in range(n):
            s = 2 if (i == 0 and stage > 1) else 1
            name, x = f"layer{stage}.{i}", b.shape
            b.conv_bn_act(width, 3, s, 1, name=f"{name}.conv1")
            b.conv(width, 3, 1, 1, name=f"{name}.conv2"); b.bn(f"{name}.conv2.bn")
            for layer in _shortcut(x, width, s, name):
                b.layers.append(layer)
            b.add(residual_add(b.shape, name=f"{name}.add")); b.act(name=f"{name}.relu")
    _resnet_head(b)
    return _finish("ResNet-18", b, convention, conventions)


def resnet50(convention=None, *, version="1.5", **conventions) -> Model:
    """ResNet-50 with bottleneck blocks [3, 4, 6, 3]: 25,557,032 parameters; torchvision's v1.5 (stride 2 in the
    3×3 conv) has 4.089 G multiply-adds, ``version="1"`` (stride 2 in the first 1×1 conv, the paper's) 3.8 G."""
    if version not in ("1", "1.5"):
        raise ValueError(f"version must be '1' or '1.5', got {version!r}")
    b = _Builder()
    _resnet_stem(b)
    for stage, (width, n) in enumerate([(64, 3), (128, 4), (256, 6), (512, 3)], start=1):
        for i in range(n):
            s = 2 if (i == 0 and stage > 1) else 1
            s1, s3 = (1, s) if version == "1.5" else (s, 1)
            name, x = f"layer{stage}.{i}", b.shape
            b.conv_bn_act(width, 1, s1, 0, name=f"{name}.conv1")
            b.conv_bn_act(width, 3, s3, 1, name=f"{name}.conv2")
            b.conv(4 * width, 1, name=f"{name}.conv3"); b.bn(f"{name}.conv3.bn")
            for layer in _shortcut(x, 4 * width, s, name):
                b.layers.append(layer)
            b.add(residual_add(b.shape, name=f"{name}.add")); b.act(name=f"{name}.relu")
    _resnet_head(b)
    return _finish("ResNet-50" if version == "1.5" else "ResNet-50 v1", b, convention, conventions)


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


def mobilenet_v2(convention=None, **conventions) -> Model:
    """MobileNetV2 1.0 as in torchvision (inverted residuals, ReLU6): 3,504,872 parameters, 0.301 G multiply-adds."""
    b = _Builder()
    b.conv_bn_act(32, 3, 2, 1, act="relu6", name="conv1")
    blk = 0
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                       (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(n):
            blk += 1
            stride, x, name = (s if i == 0 else 1), b.shape, f"block{blk}"
            hidden = x[0] * t
            if t != 1:
                b.conv_bn_act(hidden, 1, act="relu6", name=f"{name}.expand")
            b.conv_bn_act(hidden, 3, stride, 1, g=hidden, act="relu6", name=f"{name}.dw")
            b.conv(c, 1, name=f"{name}.project"); b.bn(f"{name}.project.bn")
            if stride == 1 and x[0] == c:
                b.add(residual_add(b.shape, name=f"{name}.add"))
    b.conv_bn_act(1280, 1, act="relu6", name="conv_last")
    b.add(adaptive_avgpool2d(b.shape, 1, name="avgpool"))
    b.fc(1000, "fc")
    return _finish("MobileNetV2", b, convention, conventions)


#: The model builders by name (the explorer's multi-select).
MODELS = {"AlexNet": alexnet, "VGG16": vgg16, "ResNet-18": resnet18, "ResNet-50": resnet50,
          "MobileNetV1": mobilenet_v1, "MobileNetV2": mobilenet_v2}


def get_model(name, convention=None, **conventions) -> Model:
    """A model by name (see :data:`MODELS`; case and '-'/'_' ignored), e.g. ``get_model("resnet50", batch=8)``."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    key = {k.lower().replace("-", "").replace("_", ""): k for k in MODELS}
    k = name.lower().replace("-", "").replace("_", "")
    if k not in key:
        raise ValueError(f"name must be one of {list(MODELS)}, got {name!r}")
    return MODELS[key[k]](convention, **conventions)


# --------------------------------------------------------------------------------------------------
# The roofline
# --------------------------------------------------------------------------------------------------


def _positive(x, name) -> float:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(x).__name__}")
    x = float(x)
    if not np.isfinite(x) or x <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {x}")
    return x


def _nonneg_array(x, name):
    scalar = np.ndim(x) == 0
    if scalar and isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name}: must be a number, not a bool; got {x!r}")
    arr = as_finite_array(np.atleast_1d(x) if scalar else x, name, ndim=None)
    if (arr < 0).any():
        raise ValueError(f"{name} must be >= 0, got {arr[arr < 0].ravel()[0]}")
    return arr, scalar


def ridge_point(peak_flops, bandwidth) -> float:
    """The ridge point I* = π/β (FLOP/byte): below it a kernel is memory-bound, at or above compute-bound.

    >>> round(ridge_point(11.3e12, 484e9), 2)    # GTX 1080 Ti, as in the article
    23.35
    """
    return _positive(peak_flops, "peak_flops") / _positive(bandwidth, "bandwidth")


def attainable(intensity, peak_flops, bandwidth):
    """Attainable performance min(π, β·I) in FLOP/s (scalar in, float out; array in, array of the same shape out).

    >>> attainable([1.0, 100.0], 11.3e12, 484e9) / 1e12
    array([ 0.484, 11.3  ])
    """
    i, scalar = _nonneg_array(intensity, "intensity")
    p, b = _positive(peak_flops, "peak_flops"), _positive(bandwidth, "bandwidth")
    out = np.minimum(p, b * i)
    return float(out[0]) if scalar else out


def time_bound(flops, memory_bytes, peak_flops, bandwidth):
    """Lower bound on run time max(F/π, Q/β) in seconds (vectorised over ``flops`` and ``memory_bytes``).

    >>> time_bound(2e9, 1e6, 1e11, 1e10)     # compute-bound: 2e9 / 1e11
    0.02
    """
    f, s1 = _nonneg_array(flops, "flops")
    q, s2 = _nonneg_array(memory_bytes, "memory_bytes")
    if f.shape != q.shape and not (s1 or s2):
        raise ValueError(f"flops and memory_bytes must have the same shape, got {f.shape} and {q.shape}")
    p, b = _positive(peak_flops, "peak_flops"), _positive(bandwidth, "bandwidth")
    out = np.maximum(f / p, q / b)
    return float(out[0]) if (s1 and s2) else out


@dataclass(frozen=True)
class RooflineResult:
    """A model on a device's roofline: intensity, attainable FLOP/s, which roof bounds it, and time bounds.

    ``time_model`` = max(F/π, Q/β) for the whole pass; ``time_layers`` = the sum of the per-layer bounds
    (≥ time_model); ``memory_bound_layers`` is the share of the per-layer time spent in memory-bound layers.
    """

    model: str
    flops: float
    memory_bytes: float
    intensity: float
    ridge: float
    attainable: float
    bound: str
    time_model: float
    time_layers: float
    memory_bound_share: float

    def __repr__(self):
        return (f"RooflineResult({self.model}: I={self.intensity:.2f} FLOP/B vs ridge {self.ridge:.2f} -> "
                f"{self.bound}-bound, attainable {self.attainable / 1e12:.3f} TFLOP/s, "
                f"time >= {self.time_model * 1e3:.3f} ms (per layer {self.time_layers * 1e3:.3f} ms))")


def analyze(model, peak_flops, bandwidth) -> RooflineResult:
    """Place ``model`` (a :class:`Model`, under its convention) on the roofline of (π, β).

    >>> r = analyze(vgg16(ARTICLE), 11.3e12, 484e9)
    >>> r.bound, round(r.intensity, 1)
    ('compute', 25.5)
    """
    if not isinstance(model, Model):
        raise TypeError(f"model must be an evallib.roofline.Model, got {type(model).__name__}")
    p, b = _positive(peak_flops, "peak_flops"), _positive(bandwidth, "bandwidth")
    i = model.intensity
    lt = model.layer_time_bounds(p, b)
    mem = model.layer_bytes / b > model.layer_flops / p
    share = float(lt[mem].sum() / lt.sum()) if lt.sum() > 0 else 0.0
    return RooflineResult(model.name, float(model.flops), float(model.memory_bytes), i, p / b,
                          attainable(i, p, b), "compute" if i >= p / b else "memory",
                          model.time_bound(p, b), float(lt.sum()), share)


# --------------------------------------------------------------------------------------------------
# Devices
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Device:
    """A computing platform: documented peak FLOP/s per dtype, memory bandwidth (bytes/s) and their source."""

    name: str
    peaks: Mapping
    bandwidth: float
    source: str
    note: str = ""

    def __post_init__(self):
        if not self.peaks:
            raise ValueError("peaks must name at least one dtype")
        for k, v in self.peaks.items():
            dtype_bytes(k)
            _positive(v, f"peaks[{k!r}]")
        _positive(self.bandwidth, "bandwidth")
        for arg in ("name", "source", "note"):
            if not isinstance(getattr(self, arg), str):
                raise TypeError(f"{arg}: must be a str; got {type(getattr(self, arg)).__name__} ({getattr(self, arg)!r})")

    def peak(self, dtype="float32") -> float:
        """Peak FLOP/s for ``dtype``; if none is documented, the float32 peak (or the only one given)."""
        if isinstance(dtype, str):
            dtype_bytes(dtype)
        if dtype in self.peaks:
            return float(self.peaks[dtype])
        fallback = "float32" if "float32" in self.peaks else next(iter(self.peaks))
        return float(self.peaks[fallback])

    def peak_dtype(self, dtype="float32") -> str:
        """The dtype whose documented peak :meth:`peak` returns for ``dtype``."""
        if dtype in self.peaks:
            return dtype
        return "float32" if "float32" in self.peaks else next(iter(self.peaks))

    def ridge(self, dtype="float32") -> float:
        return ridge_point(self.peak(dtype), self.bandwidth)

    def __repr__(self):
        pk = ", ".join(f"{k} {v / 1e12:g}" for k, v in self.peaks.items())
        return f"Device({self.name!r}: peak TFLOP/s {pk}; bandwidth {self.bandwidth / 1e9:g} GB/s)"


#: Documented figures. Peaks are dense (no sparsity); FMA = 2 FLOPs.
DEVICES = {
    "GTX 1080 Ti": Device(
        "GTX 1080 Ti",
        # 3584 CUDA cores x 1.582 GHz boost x 2 = 11.34 TFLOP/s; the article rounds to 11.3.
        # GP102 runs float64 at 1/32 and float16 at 1/64 of the float32 rate.
        {"float32": 11.3e12, "float64": 11.34e12 / 32, "float16": 11.34e12 / 64},
        484e9,
        "NVIDIA GeForce GTX 1080 Ti specifications (3584 CUDA cores, 1582 MHz boost, 11 Gbps GDDR5X on a "
        "352-bit bus = 484 GB/s); figures as used by the Zhihu article zhuanlan 34204282",
    ),
    "H100 SXM": Device(
        "H100 SXM",
        {"float64": 34e12, "float32": 67e12, "tf32": 494.7e12, "bfloat16": 989.4e12, "float16": 989.4e12,
         "int8": 1978.9e12},
        3.35e12,
        "NVIDIA H100 Tensor Core GPU datasheet, SXM5 column (FP64 34, FP32 67 TFLOP/s; TF32/BF16/FP16/INT8 "
        "tensor-core figures without sparsity; HBM3 3.35 TB/s)",
        "16-bit and int8 peaks need tensor cores",
    ),
    "Ryzen 7 7840U (laptop)": Device(
        "Ryzen 7 7840U (laptop)",
        # 8 Zen 4 cores x 3.3 GHz base x (2 FMA pipes x 256 bit) = 32 float32 / 16 float64 FLOPs per cycle.
        {"float32": 8 * 3.3e9 * 32, "float64": 8 * 3.3e9 * 16},
        7500e6 * 16,
        "AMD product page for the Ryzen 7 7840U (8 cores, 3.3 GHz base clock, LPDDR5x-7500 on a 128-bit bus "
        "= 120 GB/s) and AMD's Zen 4 core (two 256-bit FMA pipes); peak derived at base clock",
        "peak derived from the vendor's core count, clock and vector width, not a published FLOP/s figure",
    ),
}


def get_device(name) -> Device:
    """A preset from :data:`DEVICES` by name."""
    if isinstance(name, Device):
        return name
    if name not in DEVICES:
        raise ValueError(f"name must be one of {list(DEVICES)}, got {name!r}")
    return DEVICES[name]


# --------------------------------------------------------------------------------------------------
# Measuring this machine
# --------------------------------------------------------------------------------------------------

_BLAS_ENV_PREFIXES = ("OPENBLAS_", "OMP_", "MKL_", "BLIS_", "GOTO", "VECLIB_", "NVPL_", "NUMEXPR_")


@dataclass(frozen=True)
class MachineMeasurement:
    """Measured peak (float64 matmul, FLOP/s) and bandwidth (triad, bytes/s), each the best of ``repeats``.

    ``threads`` is the BLAS thread count (None when threadpoolctl is missing, see ``note``); ``blas`` the
    BLAS library; ``env`` the BLAS/OpenMP environment variables the measurement ran under.
    """

    peak_flops: float
    bandwidth: float
    repeats: int
    matmul_size: int
    stream_bytes: int
    matmul_times: tuple
    triad_times: tuple
    threads: object
    blas: str
    env: dict
    cpu: str
    note: str = ""
    llc_bytes: object = None

    @property
    def ridge(self) -> float:
        return self.peak_flops / self.bandwidth

    def __repr__(self):
        return (f"MachineMeasurement(peak {self.peak_flops / 1e9:.1f} GFLOP/s (float64 matmul n={self.matmul_size}), "
                f"bandwidth {self.bandwidth / 1e9:.1f} GB/s (triad, {self.stream_bytes / 2**20:.0f} MiB per array), "
                f"ridge {self.ridge:.2f} FLOP/B, best of {self.repeats}, BLAS threads {self.threads}, {self.blas})")


def _blas_info():
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None, "unknown BLAS", "threadpoolctl is not installed: BLAS thread count unknown"
    blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    if not blas:
        return None, "no BLAS found by threadpoolctl", ""
    i = blas[0]
    desc = f"{i.get('internal_api', '?')} {i.get('version', '')} ({i.get('architecture', '?')})".replace("  ", " ")
    return int(i.get("num_threads", 0)) or None, desc, ""


def _llc_bytes():
    """Size of the last-level cache the OS reports (None if unknown). On a virtual machine this is often the
    host's whole shared cache, of which the guest gets only a part."""
    best = None
    try:
        import glob

        for d in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*"):
            with open(os.path.join(d, "type")) as fh:
                if fh.read().strip() == "Instruction":
                    continue
            with open(os.path.join(d, "level")) as fh:
                level = int(fh.read())
            with open(os.path.join(d, "size")) as fh:
                txt = fh.read().strip()
            mult = {"K": 2**10, "M": 2**20, "G": 2**30}.get(txt[-1:], 1)
            size = int(txt.rstrip("KMG")) * mult
            if best is None or level > best[0]:
                best = (level, size)
    except (OSError, ValueError):
        best = None
    return best[1] if best else None


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def measure_machine(repeats=5, *, matmul_size=2048, stream_mib=256) -> MachineMeasurement:
    """Measure this machine's peak FLOP/s and memory bandwidth from Python (best of ``repeats`` after a warm-up).

    Peak: ``np.matmul(A, B, out=C)`` on float64 ``matmul_size``² matrices, 2n³ FLOPs. Bandwidth: the
    STREAM triad a = b + s·c on three float64 arrays of ``stream_mib`` MiB each (far beyond the caches),
    written with ``out=`` in two passes (``multiply(c, s, out=a)``, ``add(a, b, out=a)``) so no temporary is
    made; the bytes counted are those the passes move: 5 arrays (read c, write a; read a and b, write a).
    Runs under whatever BLAS threads and environment the process has; both are reported, never changed.
    Measured numbers vary from run to run: never assert them.
    """
    repeats = check_positive_int(repeats, "repeats")
    n = check_positive_int(matmul_size, "matmul_size", minimum=16)
    mib = check_positive_int(stream_mib, "stream_mib")
    rng = np.random.default_rng(0)
    a, b_ = rng.random((n, n)), rng.random((n, n))
    c = np.empty((n, n))
    np.matmul(a, b_, out=c)  # warm-up: thread start, page faults
    mm = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        np.matmul(a, b_, out=c)
        mm.append(time.perf_counter() - t0)
    del a, b_, c
    m = mib * 2**20 // 8
    x, y, z = np.zeros(m), np.full(m, 1.0), np.full(m, 2.0)
    tri = []
    for r in range(repeats + 1):
        t0 = time.perf_counter()
        np.multiply(z, 3.0, out=x)
        np.add(x, y, out=x)
        dt = time.perf_counter() - t0
        if r:  # the first pass is the warm-up
            tri.append(dt)
    del x, y, z
    threads, blas, note = _blas_info()
    env = {k: v for k, v in sorted(os.environ.items()) if k.startswith(_BLAS_ENV_PREFIXES)}
    llc = _llc_bytes()
    if llc is not None and 3 * 8 * m < 4 * llc:
        note = "; ".join(filter(None, [note, (
            f"the triad's arrays ({3 * 8 * m / 2**20:.0f} MiB) are not far beyond the reported last-level cache "
            f"({llc / 2**20:.0f} MiB; on a virtual machine often the host's whole cache): raise stream_mib to check")]))
    return MachineMeasurement(2 * n**3 / min(mm), 5 * 8 * m / min(tri), repeats, n, 8 * m,
                              tuple(mm), tuple(tri), threads, blas, env, _cpu_name(), note, llc)


def machine_device(measurement, name="this machine") -> Device:
    """A :class:`Device` for this machine from :func:`measure_machine` (float64 peak only)."""
    if not isinstance(measurement, MachineMeasurement):
        raise TypeError(f"measurement must be a MachineMeasurement, got {type(measurement).__name__}")
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty str, got {name!r}")
    return Device(name, {"float64": measurement.peak_flops}, measurement.bandwidth,
                  f"measured: {measurement!r}", "float64 matmul peak; other dtypes use it too")


@dataclass(frozen=True)
class KernelMeasurement:
    """One NumPy kernel timed on this machine: its FLOPs, compulsory bytes, best time and the FLOP/s reached."""

    kernel: str
    size: int
    flops: int
    memory_bytes: int
    seconds: float

    @property
    def intensity(self) -> float:
        return self.flops / self.memory_bytes

    @property
    def flop_rate(self) -> float:
        return self.flops / self.seconds

    @property
    def label(self) -> str:
        return f"{self.kernel} n={self.size}"


#: FLOPs and compulsory float64 traffic of the kernels :func:`measure_kernels` times (n = vector length or
#: matrix side). Intensities: dot 1/8, add 1/24, matvec ≈ 1/4, matmul n/12 FLOP/byte.
_KERNELS = {
    "dot": (lambda n: 2 * n, lambda n: 16 * n),
    "add": (lambda n: n, lambda n: 24 * n),
    "matvec": (lambda n: 2 * n * n, lambda n: 8 * (n * n + 2 * n)),
    "matmul": (lambda n: 2 * n**3, lambda n: 8 * 3 * n * n),
}


def measure_kernels(kernels=None, *, repeats=5, min_time=0.02) -> list:
    """Time NumPy kernels (float64) and return :class:`KernelMeasurement`s to place on a roofline.

    ``kernels`` is a list of (name, n) with name in "dot" (``x @ y``), "add" (``np.add(x, y, out=z)``),
    "matvec" (``A @ x``), "matmul" (``np.matmul(A, B, out=C)``); the default covers small (cache-resident)
    and large sizes. Each time is the best of ``repeats``; a repeat runs the kernel in a loop lasting about
    ``min_time`` seconds (at least one call).
    Traffic is the compulsory minimum (every operand read once, the result written once).
    """
    if kernels is None:
        kernels = [("add", 2**12), ("add", 2**23), ("dot", 2**12), ("dot", 2**23), ("matvec", 256),
                   ("matvec", 3072), ("matmul", 64), ("matmul", 256), ("matmul", 1024)]
    repeats = check_positive_int(repeats, "repeats")
    min_time = _positive(min_time, "min_time")
    if isinstance(kernels, (str, bytes)) or not isinstance(kernels, Sequence) or not kernels:
        raise ValueError("kernels must be a non-empty list of (name, n) pairs")
    out = []
    for item in kernels:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ValueError(f"kernels must hold (name, n) pairs, got {item!r}")
        name, n = item
        if name not in _KERNELS:
            raise ValueError(f"kernel name must be one of {list(_KERNELS)}, got {name!r}")
        n = check_positive_int(n, "n")
        # constant operands: their values do not change the speed, and filling is cheaper than random numbers
        if name in ("dot", "add"):
            x, y, z = np.full(n, 1.5), np.full(n, 0.5), np.empty(n)
            fn = (lambda: x @ y) if name == "dot" else (lambda: np.add(x, y, out=z))
        elif name == "matvec":
            a, x = np.full((n, n), 1.5), np.full(n, 0.5)
            fn = lambda: a @ x  # noqa: E731
        else:
            a, b_, c = np.full((n, n), 1.5), np.full((n, n), 0.5), np.empty((n, n))
            fn = lambda: np.matmul(a, b_, out=c)  # noqa: E731
        fn()  # warm-up
        t0 = time.perf_counter()
        fn()
        per_call = time.perf_counter() - t0
        loops = max(1, int(min_time / max(per_call, 1e-9)))  # each repeat lasts about min_time (at least one call)
        best = math.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(loops):
                fn()
            best = min(best, (time.perf_counter() - t0) / loops)
        f, q = _KERNELS[name]
        out.append(KernelMeasurement(name, n, f(n), q(n), best))
    return out
