"""Counting conventions and layer specs: the MACs, parameters and bytes of one layer."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .._validation import Interval, Options, check_positive_int, validate_params
from ..i18n import N_, gettext, say

# --------------------------------------------------------------------------------------------------
# Conventions
# --------------------------------------------------------------------------------------------------

#: Bytes per element of the data types a convention may name.
DTYPE_BYTES = {"float64": 8, "float32": 4, "tf32": 4, "bfloat16": 2, "float16": 2, "int8": 1}

_OUTPUTS = ("conv_linear", "all", "io")
_POS_INT = Interval(numbers.Integral, 1, None, closed="left")
_NONNEG_INT = Interval(numbers.Integral, 0, None, closed="left")


@validate_params({"dtype": [Options(*DTYPE_BYTES), _POS_INT]})
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
        return dtype_bytes.__wrapped__(self.dtype)  # checked in __post_init__; read once per layer: no re-check

    def describe(self) -> str:
        """The convention in one line, in the learner's language (evallib.i18n): what a FLOP and a byte count."""
        text = say(
            DESCRIBE,
            flops=gettext(MAC_WORDS[self.mac_flops]),
            traffic=gettext(TRAFFIC_WORDS[self.outputs]),
            dtype=self.dtype if isinstance(self.dtype, str) else say("{n}-byte", n=self.dtype),
            batch=self.batch,
        )
        return text + (gettext(N_(", element-wise ops counted")) if self.elementwise else "")


#: Convention.describe's wording (English msgids of evallib's catalog; the roofline explorer fills the same
#: template in the browser)
DESCRIBE = N_("{flops}, traffic = {traffic}, {dtype} elements, batch {batch}")
MAC_WORDS = {1: N_("1 MAC = 1 FLOP"), 2: N_("1 MAC = 2 FLOPs")}
TRAFFIC_WORDS = {
    "conv_linear": N_("weights + conv/linear outputs"),
    "all": N_("weights + every layer's output"),
    "io": N_("weights + every layer's inputs and output"),
}


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
                raise TypeError(
                    f"{arg}: must be a str; got {type(getattr(self, arg)).__name__} ({getattr(self, arg)!r})"
                )
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


@validate_params(
    {
        "in_shape": ["array-like"],
        "out_channels": [_POS_INT],
        "kernel_size": [_POS_INT, "array-like"],
        "stride": [_POS_INT, "array-like"],
        "padding": [_NONNEG_INT, "array-like"],
        "groups": [_POS_INT],
        "dilation": [_POS_INT, "array-like"],
        "bias": ["boolean"],
        "name": ["str"],
    }
)
def conv2d(
    in_shape, out_channels, kernel_size, stride=1, padding=0, *, groups=1, dilation=1, bias=True, name="conv"
) -> Layer:
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
    ho = _out_size(h, kh, sh, ph, dh, "kernel_size")
    wo = _out_size(w, kw, sw, pw, dw, "kernel_size")
    per_filter = (c // groups) * kh * kw
    params = out_channels * per_filter + (out_channels if bias else 0)
    macs = ho * wo * out_channels * per_filter
    kind_txt = "dw " if groups == c == out_channels and groups > 1 else ""
    detail = f"{kind_txt}{kh}x{kw}/{sh}" + (f" p{ph}" if ph else "") + (f" g{groups}" if groups > 1 else "")
    return Layer(
        name, "conv", (c, h, w), (out_channels, ho, wo), params, macs, ho * wo * out_channels if bias else 0, detail
    )


@validate_params(
    {
        "in_shape": ["array-like"],
        "kernel_size": [_POS_INT, "array-like"],
        "stride": [_POS_INT, "array-like"],
        "padding": [_NONNEG_INT, "array-like"],
        "bias": ["boolean"],
        "name": ["str"],
    }
)
def depthwise_conv2d(in_shape, kernel_size, stride=1, padding=0, *, bias=False, name="dwconv") -> Layer:
    """A depthwise convolution: one K×K filter per channel (``conv2d`` with groups = C_in = C_out)."""
    c = _check_shape(in_shape)[0]
    return conv2d(in_shape, c, kernel_size, stride, padding, groups=c, bias=bias, name=name)


@validate_params(
    {"in_features": [_POS_INT, "array-like"], "out_features": [_POS_INT], "bias": ["boolean"], "name": ["str"]}
)
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
    return Layer(
        name,
        "linear",
        (fin,),
        (fout,),
        fin * fout + (fout if bias else 0),
        fin * fout,
        fout if bias else 0,
        f"{fin}->{fout}",
    )


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
    return Layer(name, kind, (c, h, w), (c, ho, wo), 0, 0, ops, f"{kh}x{kw}/{sh}" + (f" p{ph}" if ph else ""))


_POOL = {
    "in_shape": ["array-like"],
    "kernel_size": [_POS_INT, "array-like"],
    "stride": [None, _POS_INT, "array-like"],
    "padding": [_NONNEG_INT, "array-like"],
    "ceil_mode": ["boolean"],
    "name": ["str"],
}


@validate_params(_POOL)
def maxpool2d(in_shape, kernel_size, stride=None, padding=0, *, ceil_mode=False, name="maxpool") -> Layer:
    """Max pooling (stride defaults to the kernel size): no parameters, no MACs, K²−1 comparisons per output."""
    return _pool("maxpool", in_shape, kernel_size, stride, padding, ceil_mode, name)


@validate_params(_POOL)
def avgpool2d(in_shape, kernel_size, stride=None, padding=0, *, ceil_mode=False, name="avgpool") -> Layer:
    """Average pooling: no parameters, no MACs, K² operations per output (adds and a divide)."""
    return _pool("avgpool", in_shape, kernel_size, stride, padding, ceil_mode, name)


@validate_params({"in_shape": ["array-like"], "output_size": [_POS_INT, "array-like"], "name": ["str"]})
def adaptive_avgpool2d(in_shape, output_size=1, *, name="avgpool") -> Layer:
    """Adaptive average pooling to ``output_size`` (input sizes must be multiples of it; 1 = global pooling)."""
    c, h, w = _check_shape(in_shape)
    oh, ow = _pair(output_size, "output_size", minimum=1)
    if h % oh or w % ow:
        raise ValueError(f"output_size {output_size} must divide the input size {h}x{w}")
    return avgpool2d((c, h, w), (h // oh, w // ow), name=name)


@validate_params({"in_shape": ["array-like"], "name": ["str"]})
def batchnorm2d(in_shape, *, name="bn") -> Layer:
    """Batch normalisation at inference: 2·C parameters (γ, β; running statistics are buffers), y = a·x + b."""
    c, h, w = _check_shape(in_shape)
    return Layer(name, "bn", (c, h, w), (c, h, w), 2 * c, 0, 2 * c * h * w)


@validate_params({"in_shape": ["array-like"], "kind": [Options("relu", "relu6")], "name": [None, "str"]})
def activation(in_shape, kind="relu", *, name=None) -> Layer:
    """An element-wise activation (``"relu"``: one comparison per element, ``"relu6"``: two)."""
    one_d = isinstance(in_shape, (tuple, list)) and len(in_shape) == 1
    shape = _check_shape(in_shape, ndim=1 if one_d else 3)
    n = math.prod(shape)
    return Layer(name or kind, kind, shape, shape, 0, 0, n * (1 if kind == "relu" else 2))


@validate_params({"in_shape": ["array-like"], "name": ["str"]})
def residual_add(in_shape, *, name="add") -> Layer:
    """The residual (shortcut) addition of two feature maps of ``in_shape``: one add per element."""
    shape = _check_shape(in_shape)
    return Layer(name, "add", shape, shape, 0, 0, math.prod(shape), n_inputs=2)


@validate_params({"in_shape": ["array-like"], "name": ["str"]})
def flatten(in_shape, *, name="flatten") -> Layer:
    """Flatten (C, H, W) to (C·H·W,): a view, no arithmetic and no traffic."""
    shape = _check_shape(in_shape)
    return Layer(name, "flatten", shape, (math.prod(shape),), 0, 0, 0)


@validate_params({"out_channels": [_POS_INT], "kernel_size": [_POS_INT]})
def separable_cost_ratio(out_channels, kernel_size) -> float:
    """MACs of a depthwise-separable conv (K×K depthwise + 1×1 pointwise) over a dense K×K conv: 1/C_out + 1/K².

    >>> round(separable_cost_ratio(512, 3), 4)
    0.1131
    """
    c = check_positive_int(out_channels, "out_channels")
    k = check_positive_int(kernel_size, "kernel_size")
    return 1 / c + 1 / k**2
