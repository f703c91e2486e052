"""Opt-in ways to run the decoder faster on a CUDA GPU: attention kernel, FP8, compile.

- ``attention``: which fused attention kernel PyTorch's ``scaled_dot_product_attention``
  runs. ``auto`` prefers cuDNN's, then flash attention (on Hopper cuDNN's is usually the
  fastest); the others force one. The same attention, only the rounding differs.
- FP8 through torchao: the transformer blocks' linear layers with float8 weights and
  activations scaled at run time (per row for bf16 weights, per tensor for fp16 ones); fast matrix products on GPUs of
  compute capability 8.9 or newer. Changes the numbers slightly (presets say so).
- ``compile_blocks``: ``torch.compile`` of the repeated transformer blocks (regional
  compilation: one block's code serves all 30). The first clip pays the compilation.

FP8 and compilation go through :mod:`studio.engines.acceleration` (shared with CustomX).
Imports of torch and torchao stay inside the functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from studio.engines.catalog.animegamer import ATTENTION


@contextmanager
def attention_kernel(name: str, device: Any) -> Iterator[None]:
    """Within the block, SDPA on ``device`` uses the kernel(s) ``name`` picks (CPU: no change)."""
    if name not in ATTENTION:
        raise ValueError(f"unknown attention kernel {name!r}; choose one of {', '.join(ATTENTION)}")
    if device.type != "cuda":
        yield
        return
    from torch.nn.attention import SDPBackend, sdpa_kernel

    kernels = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
               "efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH}
    if name == "auto":
        order = [kernels["cudnn"], kernels["flash"], kernels["efficient"], kernels["math"]]
        try:
            chosen = sdpa_kernel(order, set_priority=True)
        except TypeError:  # a torch without priorities: its own order among these
            chosen = sdpa_kernel(order)
        with chosen:
            yield
    else:
        with sdpa_kernel([kernels[name]]):
            yield


@contextmanager
def cudnn_autotune(enabled: bool) -> Iterator[None]:
    """Within the block, cuDNN times its convolution algorithms per new shape and keeps the
    fastest (``torch.backends.cudnn.benchmark``); the previous value comes back after."""
    import torch

    previous = torch.backends.cudnn.benchmark
    torch.backends.cudnn.benchmark = enabled
    try:
        yield
    finally:
        torch.backends.cudnn.benchmark = previous


def fp8_problem(device: Any) -> str:
    """Why FP8 layers can't run on ``device``, or "" when they can."""
    from studio.engines.acceleration import fp8_problem as problem

    return problem(device)


def fp8_layer_names(model: Any) -> list[str]:
    """The linear layers worth FP8: inside the transformer blocks, both sizes multiples of 16
    and at least 1,024 (the CogVideoX blocks' attention and feed-forward layers)."""
    from studio.engines.acceleration import fp8_layers

    return fp8_layers(model, within=("transformer_blocks.",))


def to_fp8(model: Any) -> int:
    """Quantise ``model``'s chosen linear layers in place; returns how many. torchao scales per
    row only from bf16 weights: the release's fp16 decoder gets one scale per tensor."""
    import torch

    from studio.engines.acceleration import to_fp8 as quantise

    names = fp8_layer_names(model)
    layers = dict(model.named_modules())
    bf16 = all(layers[name].weight.dtype == torch.bfloat16 for name in names)
    quantise(model, names, scaling="auto" if bf16 else "tensorwise")
    return len(names)


def compile_blocks(model: Any) -> int:
    """``torch.compile`` each CogVideoX block in place (they share one compiled code)."""
    from studio.engines.acceleration import compile_blocks as compile_each

    return compile_each(model, classes=("CogVideoXBlock",))


def forget_compiled() -> None:
    """Drop compiled code (it keeps references to the weights it was traced with)."""
    import torch

    torch._dynamo.reset()
