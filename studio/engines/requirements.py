"""Reasons an engine cannot run here, found before any job runs.

An engine's ``check(config)`` returns every unmet :class:`Requirement` (an empty list
means it can run). The helpers here cover what most engines need: checkpoint files of
the right size (and, for safetensors files, the size their header gives), Python packages,
a device of a supported kind with enough free memory.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from studio.engines import devices
from studio.engines.capabilities import CheckpointFile, DeviceKind, EngineCapabilities
from studio.engines.config import EngineConfig
from studio.engines.devices import DeviceInfo, DeviceProbe, format_bytes
from studio.engines.file_kinds import foreign_kind, torch_file_beside
from studio.engines.install_hints import extra_install


class RequirementKind(StrEnum):
    FILE = "file"
    PACKAGE = "package"
    DEVICE = "device"
    MEMORY = "memory"
    CONFIG = "config"


@dataclass(frozen=True, slots=True)
class Requirement:
    """One unmet requirement, with what is missing and how to fix it."""

    kind: RequirementKind
    message: str
    hint: str = ""
    path: str = ""
    expected_bytes: int | None = None

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


SAFETENSORS_HEADER_LIMIT = 100 * 1024 * 1024
"""The largest header the safetensors library reads (its own limit): a bigger one is damage."""

DAMAGED_HINT = "Copy or convert the file again."
SEE_DOCTOR = " (see `kamishibai doctor`)"
"""Ends the hint of a missing weights file; ``kamishibai doctor`` leaves it out of its own
report (see :func:`without_see_doctor`), where it would send the user to what they ran."""


def without_see_doctor(reason: Requirement) -> Requirement:
    """``reason`` without :data:`SEE_DOCTOR` in its hint."""
    if SEE_DOCTOR not in reason.hint:
        return reason
    return dataclasses.replace(reason, hint=reason.hint.replace(SEE_DOCTOR, ""))


def safetensors_size_problem(path: Path) -> str | None:
    """Why ``path``, a safetensors file, can't be loaded as it is: cut short or grown (its
    size is not the one its header gives: 8 bytes, the header, then the tensors up to the
    last one's end), or a header that is no safetensors header. None when it looks whole,
    or when it is not there (its engine's check says it is missing).

    Reads the header only (kilobytes), never the tensors, and only once per version of the
    file (its path, size and modification time): the window checks every engine each time
    the picker is refreshed. Without this an engine with such a file counted as available,
    and its first turn failed while the safetensors loader refused it."""
    try:
        stat = path.stat()
        return _size_problem(path, stat.st_size, stat.st_mtime_ns)
    except FileNotFoundError:
        return None
    except OSError as error:  # not cached: a file that can't be read now may be readable later
        return f"{path} can't be read: {error.strerror or error}."


@functools.lru_cache(maxsize=256)
def _size_problem(path: Path, size: int, mtime_ns: int) -> str | None:
    """:func:`safetensors_size_problem` for one version of the file (``mtime_ns`` is part of
    the cache key only). Raises OSError, which is not cached."""
    with path.open("rb") as file:
        head = file.read(8)
        length = int.from_bytes(head, "little")
        if len(head) < 8 or not 0 < length <= SAFETENSORS_HEADER_LIMIT or 8 + length > size:
            if (kind := foreign_kind(path)) is not None:  # a pickle was "1,556 bytes: cut short"
                return not_safetensors(path, kind)
            return f"{path} is {size:,} bytes: it is cut short or not a safetensors file (incomplete copy?)."
        raw = file.read(length)
    try:
        header = json.loads(raw)
        ends = [int(entry["data_offsets"][1]) for key, entry in header.items() if key != "__metadata__"]
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):  # JSON, UTF-8, a malformed entry
        return f"{path} has a damaged header: it is not a safetensors file (incomplete copy?)."
    expected = 8 + length + max(ends, default=0)
    if size != expected:
        return f"{path} is {size:,} bytes, but its header describes {expected:,} (incomplete copy?)."
    return None


def not_safetensors(path: Path, kind: str) -> str:
    """The sentence for a file named ``.safetensors`` that is ``kind`` (see
    :func:`~studio.engines.file_kinds.foreign_kind`)."""
    return (f"{path} is not a safetensors file: it is {kind}, which the studio never loads (it never unpickles "
            "files); the released AnimeGamer and CustomX files become safetensors with `kamishibai checkpoints "
            "convert`.")


def beside_note(path: Path) -> str:
    """" (found NAME beside it: ...)" for a missing weights file with a PyTorch file of its name
    beside it (mllm.bin for mllm.safetensors), else ""."""
    found = torch_file_beside(path)
    if found is None:
        return ""
    return (f" (found {found.name} beside it: a PyTorch file, which the studio does not load; convert it first "
            "with `kamishibai checkpoints convert`)")


def json_object_problem(path: Path) -> str | None:
    """Why ``path``, a JSON config or tokenizer file, can't be loaded: not JSON, not UTF-8, or
    not a JSON object (what every config and ``tokenizer.json`` is). None when it reads, or
    when it is not there. Read once per version of the file, as :func:`safetensors_size_problem`:
    a tokenizer of several megabytes would otherwise be parsed at each refresh of the picker."""
    try:
        stat = path.stat()
        return _json_problem(path, stat.st_size, stat.st_mtime_ns)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"{path} can't be read: {error.strerror or error}."


@functools.lru_cache(maxsize=64)
def _json_problem(path: Path, size: int, mtime_ns: int) -> str | None:
    """:func:`json_object_problem` for one version of the file (``size`` and ``mtime_ns`` are
    part of the cache key only). Raises OSError, which is not cached."""
    try:
        data = json.loads(path.read_bytes())
    except ValueError as error:  # JSON or UTF-8 (UnicodeDecodeError is a ValueError)
        return f"{path} is not a readable JSON file ({error}): damaged, or another file (incomplete copy?)."
    if not isinstance(data, dict):
        return f"{path} holds JSON but not an object: damaged, or another file."
    return None


def damaged_file(path: Path) -> Requirement | None:
    """A requirement for ``path`` when it is a safetensors file the loader would refuse
    (see :func:`safetensors_size_problem`) or a JSON file that is no JSON object (see
    :func:`json_object_problem`); None for any other file, or a whole one."""
    if path.suffix == ".safetensors":
        problem = safetensors_size_problem(path)
    elif path.suffix == ".json":
        problem = json_object_problem(path)
    else:
        return None
    return Requirement(RequirementKind.FILE, problem, hint=DAMAGED_HINT, path=str(path)) if problem else None


def check_files(folder: Path, files: Sequence[CheckpointFile], *, engine: str) -> list[Requirement]:
    """Each file missing from ``folder``, of another size than expected, or (a file whose
    size is not fixed in advance) a safetensors file whose size is not the one its header
    gives."""
    unmet: list[Requirement] = []
    for item in files:
        path = folder / item.path
        expected = f" ({format_bytes(item.size)}, {item.size:,} bytes)" if item.size else ""
        what = f" — {item.description}" if item.description else ""
        if not path.is_file():
            unmet.append(Requirement(
                RequirementKind.FILE, f"Missing {path}{expected}{what}{beside_note(path)}.",
                hint=f"Put the {engine} weights in {folder}{SEE_DOCTOR}.",
                path=str(path), expected_bytes=item.size))
            continue
        if item.size is not None:
            actual = path.stat().st_size
            if actual != item.size:
                unmet.append(Requirement(
                    RequirementKind.FILE, f"{path} is {actual:,} bytes, expected {item.size:,} (incomplete copy?).",
                    hint=DAMAGED_HINT, path=str(path), expected_bytes=item.size))
        elif (damaged := damaged_file(path)) is not None:
            unmet.append(damaged)
    return unmet


def check_packages(names: Iterable[str], *, engine: str, extra: str = "engines") -> list[Requirement]:
    """Each Python package that is not installed."""
    return [
        Requirement(RequirementKind.PACKAGE, f"The Python package {name!r} is not installed (the {engine} engine "
                    f"needs it).", hint=f"Install it {extra_install(extra)}.")
        for name in names if importlib.util.find_spec(name) is None
    ]


def check_devices(config: EngineConfig, capabilities: EngineCapabilities, *, engine: str,
                  probe: DeviceProbe | None = None) -> list[Requirement]:
    """Every stage's placement: a supported kind of device that exists, with enough memory.
    ``probe`` lists the CUDA devices (default: ask torch, only when a stage is on a GPU)."""
    unmet: list[Requirement] = []
    gpus: list[DeviceInfo] | None = None
    planned: dict[str, int] = {}
    for stage, place in config.placements().items():
        if place.kind not in capabilities.devices:
            kinds = ", ".join(k.value for k in capabilities.devices)
            unmet.append(Requirement(RequirementKind.DEVICE,
                                     f"The {engine} engine can't run its {stage.value} stage on {place.device}.",
                                     hint=f"It runs on: {kinds}."))
            continue
        if place.kind is DeviceKind.CPU:
            continue
        if gpus is None:
            gpus = (probe or devices.cuda_devices)()
        index = place.index or 0
        if index >= len(gpus):
            seen = ", ".join(f"{g.device} ({g.name})" for g in gpus) or "no CUDA device"
            unmet.append(Requirement(RequirementKind.DEVICE,
                                     f"The {engine} engine's {stage.value} stage is placed on {place.device}, "
                                     f"but this machine has {seen}.",
                                     hint="Choose another device in Settings or with --device."))
            continue
        needs = capabilities.needs(stage)
        if not place.offload and needs.device_bytes:
            planned[gpus[index].device] = planned.get(gpus[index].device, 0) + needs.device_bytes
    if gpus == [] and DeviceKind.CPU in capabilities.devices:
        unmet = _no_gpu_for_a_cpu_engine(unmet, engine)
    for gpu in gpus or []:
        wanted = planned.get(gpu.device, 0)
        if wanted > gpu.free_bytes:
            unmet.append(Requirement(RequirementKind.MEMORY,
                                     f"The {engine} engine needs {format_bytes(wanted)} on {gpu.device} "
                                     f"({gpu.name}), which has {format_bytes(gpu.free_bytes)} free.",
                                     hint="Place a stage on another GPU, offload it (+offload), or close "
                                          "what else uses the GPU.",
                                     expected_bytes=wanted))
    return unmet


def _no_gpu_for_a_cpu_engine(unmet: list[Requirement], engine: str) -> list[Requirement]:
    """On a machine with no CUDA device, an engine that runs on the CPU too says so once, with
    the device that works: each stage placed on the GPU was its own near-identical sentence
    ("The mini engine's predict stage is placed on cuda:0, but …", and the same for decode)."""
    absent = [reason for reason in unmet if reason.kind is RequirementKind.DEVICE
              and reason.message.endswith("but this machine has no CUDA device.")]
    if not absent:
        return unmet
    asked = sorted({reason.message.split(" is placed on ", 1)[1].split(",", 1)[0] for reason in absent})
    were = "was" if len(asked) == 1 else "were"
    said = Requirement(RequirementKind.DEVICE,
                       f"No CUDA GPU here ({' and '.join(asked)} {were} asked for); the {engine} engine runs on the "
                       "CPU with --device cpu.",
                       hint="Choose cpu as the device in Settings, or give --device cpu.")
    return [said, *(reason for reason in unmet if reason not in absent)]


def nvidia_driver_visible() -> bool:
    """Whether this machine shows an NVIDIA driver (without importing torch)."""
    import shutil

    return Path("/proc/driver/nvidia/version").exists() or shutil.which("nvidia-smi") is not None


def check_cuda_placement(config: EngineConfig, capabilities: EngineCapabilities, *, engine: str, label: str,
                         gpu_hint: str) -> list[Requirement]:
    """A CUDA-only engine placed where no NVIDIA driver is visible says so (before the
    per-device memory checks of :func:`check_devices`, which follow)."""
    on_cpu = [stage for stage, place in config.placements().items()
              if place.kind is DeviceKind.CPU and DeviceKind.CPU not in capabilities.devices]
    unmet: list[Requirement] = []
    devices = check_devices(config, capabilities, engine=engine)
    if on_cpu and not nvidia_driver_visible():
        unmet.append(Requirement(RequirementKind.DEVICE,
                                 f"The {label} engine needs a CUDA GPU, and this machine shows none (no NVIDIA "
                                 "driver).", hint=gpu_hint))
        # that says it for every stage: "can't run its predict stage on cpu" and the same for
        # decode only repeated it (three lines for one cause in `doctor`)
        said = tuple(f"The {engine} engine can't run its {stage.value} stage on " for stage in on_cpu)
        devices = [reason for reason in devices if not reason.message.startswith(said)]
    unmet.extend(devices)
    return unmet


_RANK = {RequirementKind.DEVICE: 0, RequirementKind.MEMORY: 1, RequirementKind.PACKAGE: 2}
"""The reasons no weights file fixes come first: no (or no such) GPU, too little GPU memory,
a missing library; then the rest (files, configuration) in the order found."""


def hardest_first(reasons: Iterable[Requirement]) -> list[Requirement]:
    """``reasons`` with the ones converting or copying weights can't fix first (a stable
    sort: each group keeps its order): where reasons are cut short, the first ones said must
    be those. QA: without a GPU and without weights, "Missing .../tokenizer.model (and 12 more
    reason(s))" hid that the engine needs a CUDA GPU."""
    return sorted(reasons, key=lambda reason: _RANK.get(reason.kind, len(_RANK)))
