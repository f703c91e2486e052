"""Ways to run a diffusers transformer faster on a CUDA GPU, shared by the video engines.

- ``set_attention``: which fused attention kernel PyTorch runs (cuDNN's, flash attention's,
  or PyTorch's own choice). The same attention; only rounding differs.
- ``to_fp8``: FP8 linear layers through torchao (weights stored in float8, activations scaled
  at run time; one scale per row where the GPU's libraries allow it, else per tensor). Half the weight memory and faster
  matrix products on GPUs of compute capability 8.9 or newer; the numbers change slightly,
  so presets that use it are labeled as changing the output.
- ``compile_blocks``: ``torch.compile`` of the model's repeated blocks only (regional
  compilation): compiling takes tens of seconds on the first call of each input shape, and
  the compiled blocks fuse the small element-wise operations around the matrix products.

Everything here imports torch, torchao and diffusers lazily: the catalog and the app import
this module without them.
"""

from __future__ import annotations

from typing import Any

ATTENTION_KERNELS = ("auto", "cudnn", "flash")
"""``auto``: PyTorch's own choice; the others force one kernel (an error if it can't run)."""

_DIFFUSERS_BACKENDS = {"auto": "native", "cudnn": "_native_cudnn", "flash": "_native_flash"}
"""diffusers' names; setting one also makes it diffusers' process-wide default, so ``auto`` is
set as ``native`` (PyTorch's choice) rather than reset."""

FP8_MIN_CAPABILITY = (8, 9)


class AccelerationError(RuntimeError):
    """A speed-up that can't be used here (the message says why)."""


def set_attention(model: Any, kernel: str) -> None:
    """Run ``model``'s attention layers (a diffusers model) with ``kernel``."""
    if kernel not in ATTENTION_KERNELS:
        raise AccelerationError(f"Unknown attention kernel {kernel!r}; choose one of {', '.join(ATTENTION_KERNELS)}.")
    import logging

    quiet = logging.getLogger("diffusers.models.modeling_utils")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # "attention backends are experimental", on every call
    try:
        model.set_attention_backend(_DIFFUSERS_BACKENDS[kernel])
    finally:
        quiet.setLevel(level)


def fp8_problem(device: Any) -> str:
    """Why FP8 layers can't run on ``device`` (a torch device), or "" when they can."""
    import torch

    if device.type != "cuda":
        return f"FP8 layers need a CUDA GPU; the model is on {device}."
    capability = torch.cuda.get_device_capability(device)
    if tuple(capability) < FP8_MIN_CAPABILITY:
        return (f"FP8 layers need a GPU of compute capability {FP8_MIN_CAPABILITY[0]}.{FP8_MIN_CAPABILITY[1]} or "
                f"newer (Ada, Hopper, Blackwell); {torch.cuda.get_device_name(device)} has "
                f"{capability[0]}.{capability[1]}.")
    try:
        import torchao  # noqa: F401
    except ImportError:
        return "FP8 layers need the torchao package (pip install torchao, built for the installed torch)."
    return ""


def fp8_layers(model: Any, within: tuple[str, ...], skip: tuple[str, ...] = (), multiple: int = 16,
               smallest: int = 1024) -> list[str]:
    """Names of the ``nn.Linear`` layers to run in FP8: under one of the ``within`` prefixes,
    with no name part in ``skip``, both sizes a multiple of ``multiple`` (the FP8 matrix
    product's rule) and at least ``smallest`` (small layers gain nothing)."""
    from torch import nn

    chosen = []
    for name, module in model.named_modules():
        if not isinstance(module, nn.Linear) or not name.startswith(within):
            continue
        if set(name.split(".")) & set(skip):
            continue
        sizes = (module.in_features, module.out_features)
        if all(n % multiple == 0 and n >= smallest for n in sizes):
            chosen.append(name)
    return chosen


FP8_SCALINGS = ("auto", "rowwise", "tensorwise")


def to_fp8(model: Any, names: list[str], scaling: str = "auto") -> str:
    """Turn the named linear layers of ``model`` into FP8 layers in place.

    ``rowwise``: activations and weights get one scale per row (the more exact); ``tensorwise``:
    one scale per tensor; ``auto``: row-wise where this GPU's libraries run such products for
    every layer shape (tried first on small inputs: some CUDA builds refuse them), else
    tensor-wise. Returns the scaling used ("" when ``names`` is empty)."""
    if scaling not in FP8_SCALINGS:
        raise AccelerationError(f"Unknown FP8 scaling {scaling!r}; choose one of {', '.join(FP8_SCALINGS)}.")
    device = next(model.parameters()).device
    problem = fp8_problem(device)
    if problem:
        raise AccelerationError(problem)
    if not names:
        return ""
    from torchao.quantization import Float8DynamicActivationFloat8WeightConfig, PerRow, PerTensor, quantize_

    layers = dict(model.named_modules())
    if scaling == "auto":
        shapes = {(layers[n].in_features, layers[n].out_features, layers[n].bias is not None) for n in names}
        scaling = "rowwise" if all(_rowwise_runs(device, *shape) for shape in sorted(shapes)) else "tensorwise"
    scale = PerRow() if scaling == "rowwise" else PerTensor()
    config = Float8DynamicActivationFloat8WeightConfig(granularity=scale)
    wanted = set(names)
    quantize_(model, config, filter_fn=lambda _module, name: name in wanted)
    return scaling


def _rowwise_runs(device: Any, features_in: int, features_out: int, bias: bool) -> bool:
    import torch
    from torch import nn
    from torchao.quantization import Float8DynamicActivationFloat8WeightConfig, PerRow, quantize_

    probe = nn.Sequential(nn.Linear(features_in, features_out, bias=bias, device=device, dtype=torch.bfloat16))
    quantize_(probe, Float8DynamicActivationFloat8WeightConfig(granularity=PerRow()))
    try:
        with torch.inference_mode():
            for rows in (37, 8200):
                probe(torch.randn(1, rows, features_in, device=device, dtype=torch.bfloat16))
        torch.cuda.synchronize(device)
    except RuntimeError:  # e.g. CUBLAS_STATUS_NOT_SUPPORTED: a returned status, the GPU stays usable
        return False
    return True


def compile_problem(device: Any) -> str:
    """Why ``torch.compile`` can't build kernels for ``device`` (a torch device), or "" when it
    can. On a CUDA GPU its kernels are written in Triton, which PyTorch's Linux wheels bring
    and others may not; without it the first clip would fail deep inside the compiler."""
    if device.type != "cuda":
        return ""
    try:
        from torch.utils._triton import has_triton
    except ImportError:  # another PyTorch layout: let the compiler speak for itself
        return ""
    if has_triton():
        return ""
    return ("Compile needs Triton to build CUDA kernels, and this PyTorch installation has none (PyTorch's "
            "Linux wheels bring it; elsewhere install a Triton build for this PyTorch).")


def compile_blocks(model: Any, classes: tuple[str, ...] = (), **options: Any) -> int:
    """``torch.compile`` each sub-module whose class is named in ``classes`` (by default the
    model's ``_repeated_blocks``, diffusers' list); returns how many were compiled. Raises
    :class:`AccelerationError` when the model's device can't compile (:func:`compile_problem`)."""
    names = set(classes or getattr(model, "_repeated_blocks", ()))
    if not names:
        raise AccelerationError(f"{type(model).__name__} names no repeated blocks to compile.")
    parameter = next(iter(model.parameters()), None)
    problem = compile_problem(parameter.device) if parameter is not None else ""
    if problem:
        raise AccelerationError(problem)
    count = 0
    for module in model.modules():
        if type(module).__name__ in names:
            module.compile(**options)
            count += 1
    return count


def is_compiled(model: Any) -> bool:
    return any(getattr(m, "_compiled_call_impl", None) is not None for m in model.modules())


def uncompile(model: Any) -> None:
    """Undo ``compile_blocks`` (the blocks run eagerly again)."""
    for module in model.modules():
        if getattr(module, "_compiled_call_impl", None) is not None:
            module._compiled_call_impl = None
