"""What the catalogue's checks share: the order of their reasons
(:func:`~studio.engines.requirements.hardest_first`), and a CUDA-only engine's placement said
in words that fit it.
"""

from __future__ import annotations

import os
from pathlib import Path

from studio.engines import devices, requirements
from studio.engines.capabilities import DeviceKind, EngineCapabilities
from studio.engines.config import EngineConfig
from studio.engines.requirements import Requirement, RequirementKind, hardest_first

__all__ = ["check_cuda_only", "folder_reason", "hardest_first", "not_a_folder"]

def not_a_folder(folder: Path) -> str | None:
    """Why ``folder``, an engine's weights folder, is something else that is there (a file, a
    link to nothing), or None (a folder, or nothing yet)."""
    if folder.is_dir() or not os.path.lexists(folder):
        return None
    if folder.is_symlink() and not folder.exists():
        return f"{folder} is a link to {os.readlink(folder)}, which is not there"
    return f"{folder} is {'a file' if folder.is_file() else 'a device or other special file'}, not a folder"


def folder_reason(folder: Path, label: str) -> Requirement | None:
    """The one reason to give when the engine's weights ``folder`` is not a folder: its files
    can't be put there until it is moved. QA: ``doctor`` listed each file "Missing
    .../animegamer/tokenizer/tokenizer.model" under an ``animegamer`` that was a file, and
    said to put the weights there."""
    problem = not_a_folder(folder)
    if problem is None:
        return None
    fix = (f"Point the link {folder} at the folder that holds the {label} weights, or remove it and put them there."
           if folder.is_symlink() else f"Move or rename {folder}, then put the {label} weights there.")
    return Requirement(RequirementKind.FILE, f"{problem}: the {label} weights go in a folder of that name.",
                       hint=fix, path=str(folder))


def check_cuda_only(config: EngineConfig, capabilities: EngineCapabilities, *, engine: str, label: str,
                    gpu_hint: str) -> list[Requirement]:
    """:func:`~studio.engines.requirements.check_cuda_placement` for an engine that runs on
    CUDA only; when a stage is placed on a GPU and this machine has no CUDA device at all, one
    reason that says the engine needs one and ``gpu_hint`` (what GPU, how much memory), not
    "Choose another device" once per stage: no other device runs it. QA: ``doctor --device
    cuda:0`` without a GPU told the user to choose another device for AnimeGamer."""
    found = requirements.check_cuda_placement(config, capabilities, engine=engine, label=label, gpu_hint=gpu_hint)
    if DeviceKind.CPU in capabilities.devices or not any(r.kind is RequirementKind.DEVICE for r in found):
        return found
    if not any(place.kind is DeviceKind.CUDA for place in config.placements().values()):
        return found
    if devices.cuda_devices():  # asked again only here, when a device reason was found
        return found  # a GPU exists: a stage placed on cuda:3 of a one-GPU machine may move to cuda:0
    if requirements.nvidia_driver_visible():
        none = Requirement(RequirementKind.DEVICE,
                           f"The {label} engine needs a CUDA GPU, and torch sees none on this machine, which shows "
                           "an NVIDIA driver (is torch a CPU-only build?).",
                           hint=f"Install a CUDA build of torch (pip install --force-reinstall torch), or: {gpu_hint}")
    else:
        none = Requirement(RequirementKind.DEVICE,
                           f"The {label} engine needs a CUDA GPU, and this machine shows none (no NVIDIA driver).",
                           hint=gpu_hint)
    return [none, *(reason for reason in found if reason.kind is not RequirementKind.DEVICE)]
