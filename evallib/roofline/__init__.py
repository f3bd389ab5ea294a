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

from ._bound import (  # noqa: F401
    RooflineResult,
    _positive,  # evallib.plots.roofline checks ceilings with it
    analyze,
    attainable,
    ridge_point,
    time_bound,
)
from ._devices import (  # noqa: F401
    DEVICES,
    Device,
    get_device,
)
from ._layers import (  # noqa: F401
    ARTICLE,
    DTYPE_BYTES,
    Convention,
    Layer,
    activation,
    adaptive_avgpool2d,
    avgpool2d,
    batchnorm2d,
    conv2d,
    depthwise_conv2d,
    dtype_bytes,
    flatten,
    linear,
    maxpool2d,
    residual_add,
    separable_cost_ratio,
)
from ._measure import (  # noqa: F401
    KernelMeasurement,
    MachineMeasurement,
    machine_device,
    measure_kernels,
    measure_machine,
)
from ._models import (  # noqa: F401
    MODELS,
    LayerTable,
    Model,
    alexnet,
    get_model,
    mobilenet_v1,
    mobilenet_v2,
    resnet18,
    resnet50,
    sequential,
    vgg16,
)

__all__ = [
    # conventions
    "Convention",
    "ARTICLE",
    "DTYPE_BYTES",
    "dtype_bytes",
    # layer specs
    "Layer",
    "conv2d",
    "depthwise_conv2d",
    "linear",
    "maxpool2d",
    "avgpool2d",
    "adaptive_avgpool2d",
    "batchnorm2d",
    "activation",
    "residual_add",
    "flatten",
    # models
    "Model",
    "LayerTable",
    "sequential",
    "alexnet",
    "vgg16",
    "resnet18",
    "resnet50",
    "mobilenet_v1",
    "mobilenet_v2",
    "MODELS",
    "get_model",
    # roofline
    "attainable",
    "ridge_point",
    "time_bound",
    "RooflineResult",
    "analyze",
    "separable_cost_ratio",
    # devices and measurement
    "Device",
    "DEVICES",
    "get_device",
    "MachineMeasurement",
    "measure_machine",
    "machine_device",
    "KernelMeasurement",
    "measure_kernels",
]
