"""A one-line description of the device generation runs on (for the engine picker).

Never imports torch: GPU figures are shown only if an engine already loaded it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _meminfo() -> dict[str, int]:
    values: dict[str, int] = {}
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            key, _, rest = line.partition(":")
            values[key] = int(rest.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return values


def describe_device(device: str) -> str:
    if device.startswith("cuda"):
        torch = sys.modules.get("torch")
        if torch is not None:
            try:
                index = int(device.split(":")[1]) if ":" in device else 0
                free, total = torch.cuda.mem_get_info(index)
                name = torch.cuda.get_device_name(index)
                return f"GPU {name} · {free / 2**30:.1f} of {total / 2**30:.0f} GiB free"
            except Exception:
                pass
        return f"GPU ({device})"
    info = _meminfo()
    cores = os.cpu_count() or 1
    if "MemTotal" in info:
        available = info.get("MemAvailable", info["MemTotal"])
        return f"CPU · {cores} cores · {available / 2**30:.1f} of {info['MemTotal'] / 2**30:.0f} GiB free"
    return f"CPU · {cores} cores"
