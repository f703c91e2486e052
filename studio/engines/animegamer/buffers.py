"""Buffers of a model built empty: they stay on the CPU while the weights go to the device.

``init_empty_weights(include_buffers=False)`` makes buffers (positional embeddings, rotary
frequencies) on the CPU; filling parameters in place on a GPU leaves them there, and the
first forward then mixes devices. After the weights are filled, move every buffer too.
"""

from __future__ import annotations

import torch
from torch import nn


def move_buffers(model: nn.Module, device: torch.device) -> None:
    """Every registered buffer of ``model`` on ``device`` (dtypes kept)."""
    for module in model.modules():
        for name, buffer in list(module._buffers.items()):
            if buffer is not None and buffer.device != device:
                module._buffers[name] = buffer.to(device)
