"""The accelerators this machine has, read through torch when it is installed.

``cuda_devices()`` is the one place that asks; checks and the doctor take a
:data:`DeviceProbe` so that tests can hand them a faked device list.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """One CUDA device: ``cuda:N``, its name and memory in bytes."""

    device: str
    name: str
    total_bytes: int
    free_bytes: int


DeviceProbe = Callable[[], list[DeviceInfo]]


def torch_installed() -> bool:
    return importlib.util.find_spec("torch") is not None


def cuda_devices() -> list[DeviceInfo]:
    """Every CUDA device torch can see, with its free memory now ([] without torch or CUDA)."""
    if not torch_installed():
        return []
    import torch

    if not torch.cuda.is_available():
        return []
    found: list[DeviceInfo] = []
    for index in range(torch.cuda.device_count()):
        free, total = torch.cuda.mem_get_info(index)
        found.append(DeviceInfo(f"cuda:{index}", torch.cuda.get_device_name(index), int(total), int(free)))
    return found


def format_bytes(count: int) -> str:
    for unit, size in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} B"
