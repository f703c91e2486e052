"""Opt-in ways to run the decoder faster on a CUDA GPU: attention kernel, FP8, compile.

- ``attention``: which fused attention kernel PyTorch's ``scaled_dot_product_attention``
  runs. ``auto`` prefers cuDNN's, then flash attention (on Hopper cuDNN's is usually the
  fastest); the others force one. The same attention, only the rounding differs.
- FP8 through torchao: the transformer blocks' linear layers with float8 weights and
  activations scaled at run time (per row for bf16 weights, per tensor for fp16 ones); fast matrix products on GPUs of
  compute capability 8.9 or newer. Changes the numbers slightly (presets say so).
- ``compile_blocks``: ``torch.compile`` of the repeated transformer blocks (regional
  compilation: one block's code serves all 30). The first clip pays the compilation.

Imports of torch and torchao stay inside the functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

ATTENTION = ("auto", "cudnn", "flash", "efficient", "math")
FP8_MIN_CAPABILITY = (8, 9)


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
    import torch

    if device.type != "cuda":
        return f"FP8 layers need a CUDA GPU; the decoder is on {device}."
    capability = tuple(torch.cuda.get_device_capability(device))
    if capability < FP8_MIN_CAPABILITY:
        return (f"FP8 layers need a GPU of compute capability 8.9 or newer; {torch.cuda.get_device_name(device)} "
                f"has {capability[0]}.{capability[1]}.")
    try:
        import torchao  # noqa: F401
    except ImportError:
        return "FP8 layers need the torchao package (pip install torchao)."
    return ""


def fp8_filter(name: str, module: Any) -> bool:
    """The linear layers worth FP8: inside the transformer blocks, both sizes multiples of 16."""
    from torch import nn

    if not isinstance(module, nn.Linear) or not name.startswith("transformer_blocks."):
        return False
    return module.in_features % 16 == 0 and module.out_features % 16 == 0 and module.in_features >= 1024


def to_fp8(model: Any) -> int:
    """Quantise ``model``'s chosen linear layers in place; returns how many."""
    import torch
    from torchao.quantization import Float8DynamicActivationFloat8WeightConfig, PerRow, PerTensor, quantize_

    chosen = {name: module for name, module in model.named_modules() if fp8_filter(name, module)}
    if not chosen:
        return 0
    # torchao scales per row only from bf16 weights; fp16 ones (the release's) get one scale per tensor.
    bf16 = all(module.weight.dtype == torch.bfloat16 for module in chosen.values())
    config = Float8DynamicActivationFloat8WeightConfig(granularity=PerRow() if bf16 else PerTensor())
    quantize_(model, config, filter_fn=lambda module, name: name in chosen)
    return len(chosen)


def compile_blocks(blocks: Any, mode: str | None = None) -> None:
    """``torch.compile`` each block in place (they share one compiled code)."""
    for block in blocks:
        block.compile(mode=mode)


def forget_compiled() -> None:
    """Drop compiled code (it keeps references to the weights it was traced with)."""
    import torch

    torch._dynamo.reset()
