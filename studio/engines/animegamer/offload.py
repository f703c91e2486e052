"""A module's weights kept in (pinned) RAM, copied to a GPU while a stage runs.

Moving a 14 GB model with ``module.to("cuda")`` and back with ``module.to("cpu")`` copies
from and to pageable memory, both ways, every turn. The weights never change, so the RAM
copy is made once (pinned, so the upload runs at the bus's speed and asynchronously) and a
visit only uploads; leaving points the parameters back at the RAM copy and frees the GPU's.

Every copy is made in the parameters' own mode: weights loaded under ``torch.inference_mode``
are inference tensors, and a parameter whose data is swapped for a normal tensor (a visit from
code outside inference mode) fails at its next use ("Inference tensors do not track version
counter"); the reverse holds for weights loaded normally.
"""

from __future__ import annotations

import torch
from torch import nn

from studio.engines.animegamer.buffers import move_buffers


class HostCopy:
    """``module``'s parameters in RAM; :meth:`visit` puts copies on a device, :meth:`leave` drops them."""

    def __init__(self, module: nn.Module, *, pin: bool) -> None:
        self.module = module
        self._host: list[tuple[nn.Parameter, torch.Tensor]] = []
        first = next(module.parameters(), None)
        self._inference = bool(first is not None and first.is_inference())
        with torch.inference_mode(self._inference):
            for parameter in module.parameters():
                host = parameter.data if parameter.device.type == "cpu" else parameter.data.cpu()
                if pin and not host.is_pinned():
                    host = host.pin_memory()
                parameter.data = host
                self._host.append((parameter, host))
            move_buffers(module, torch.device("cpu"))
        self.device = torch.device("cpu")

    @property
    def nbytes(self) -> int:
        return sum(host.numel() * host.element_size() for _, host in self._host)

    def visit(self, device: torch.device) -> None:
        if self.device == device:
            return
        with torch.inference_mode(self._inference):
            for parameter, host in self._host:
                parameter.data = host.to(device, non_blocking=host.is_pinned())
            move_buffers(self.module, device)
        self.device = device

    def leave(self) -> None:
        if self.device.type == "cpu":
            return
        with torch.inference_mode(self._inference):
            for parameter, host in self._host:
                parameter.data = host
            move_buffers(self.module, torch.device("cpu"))
        self.device = torch.device("cpu")
