"""How an engine is set up on this machine: checkpoints, placement per stage, dtype, threads.

Placement is per stage so that a big engine can put its two models on two GPUs
(``predict=cuda:0,decode=cuda:1``), or keep its weights in RAM and move them to the GPU
module by module (``decode=cuda:0+offload``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType

from studio.core.errors import StudioError
from studio.engines.capabilities import DeviceKind, Stage


class ConfigError(StudioError):
    """A device or placement string that can't be read."""


class DType(StrEnum):
    AUTO = "auto"
    FLOAT32 = "float32"
    FLOAT16 = "float16"
    BFLOAT16 = "bfloat16"


_DEVICE = re.compile(r"^(cpu|cuda)(?::(\d+))?$")

DEVICE_FORMS = "cpu, cuda or cuda:N (N is the GPU's index), or cuda:N+offload"
"""How one device is written, for the messages that refuse one."""

_SEPARATOR_NAMES = {",": "comma", ";": "semicolon"}


@dataclass(frozen=True, slots=True)
class Placement:
    """Where one stage runs. ``offload``: weights live in RAM and visit ``device`` per module."""

    device: str = "cpu"
    offload: bool = False

    def __post_init__(self) -> None:
        if not _DEVICE.match(self.device):
            raise ConfigError(f"Unknown device {self.device!r}.",
                              hint="Use cpu, cuda or cuda:N (N is the GPU's index).")
        if self.offload and self.kind is DeviceKind.CPU:
            raise ConfigError("Offloading only makes sense onto a GPU.", hint="Use cuda:N+offload.")

    @property
    def kind(self) -> DeviceKind:
        return DeviceKind(self.device.split(":", 1)[0])

    @property
    def index(self) -> int | None:
        """The GPU index (cuda alone is GPU 0); None on the CPU."""
        if self.kind is DeviceKind.CPU:
            return None
        _, _, number = self.device.partition(":")
        return int(number) if number else 0

    @classmethod
    def parse(cls, text: str) -> Placement:
        """``cpu``, ``cuda``, ``cuda:N`` or ``cuda:N+offload``, in any case and with spaces
        around ``:`` and ``+``. A text that names no device (empty, or ``+offload`` alone: an
        unset shell variable) is refused rather than read as the CPU, which sent the work there
        without a word. Every refusal quotes ``text`` as typed and names the part that is wrong."""
        typed = text.strip()
        if not typed:
            raise ConfigError("No device given.", hint=f"Use {DEVICE_FORMS}.")
        written, *options = (part.strip() for part in typed.split("+"))
        device = re.sub(r"\s*:\s*", ":", written.lower())
        if not device:
            raise ConfigError(f"{typed!r} names no device.", hint=f"Use {DEVICE_FORMS}.")
        for option in options:
            if option.lower() != "offload":
                wrong = f"Unknown option {'+' + option!r}" if option else "A '+' with no option after it"
                raise ConfigError(f"{wrong} in the device {typed!r}.",
                                  hint=f"The one option is +offload: {device}+offload, or {device} alone.")
        if len(options) > 1:
            raise ConfigError(f"The device {typed!r} gives +offload {len(options)} times.",
                              hint=f"Give it once: {device}+offload.")
        found = _DEVICE.match(device)
        if found is None:
            if device == "cuda:":
                raise ConfigError(f"No GPU index after the colon in the device {typed!r}.",
                                  hint="Write the GPU's index (cuda:0 is the first GPU), or cuda alone.")
            where = "" if written == typed else f" in {typed!r}"
            no_colon = re.fullmatch(r"cuda\s*(\d+)", device)  # cuda 1, cuda1
            hint = f"Write a colon before the GPU's index: cuda:{int(no_colon[1])}." if no_colon else \
                f"Use {DEVICE_FORMS}."
            raise ConfigError(f"Unknown device {written!r}{where}.", hint=hint)
        if found[1] == "cuda" and found[2] is not None:
            device = f"cuda:{int(found[2])}"  # cuda:01 is GPU 1, shown as cuda:1
        offload = bool(options)
        if offload and found[1] == "cpu":
            raise ConfigError(f"Offloading only makes sense onto a GPU: {typed!r} offloads onto the CPU.",
                              hint=f"Use cuda:N+offload, or {device} alone.")
        return cls(device=device, offload=offload)

    def __str__(self) -> str:
        return self.device + ("+offload" if self.offload else "")


def usable_cores() -> int:
    """The CPU cores this process may run on: its affinity where the system keeps one
    (a container or ``taskset`` may allow fewer than the machine has)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def check_threads(threads: int, cores: int | None = None) -> int:
    """``threads`` if an engine can use that many CPU threads here: from 1 to the usable
    cores (``cores``, default :func:`usable_cores`); raises :class:`ConfigError` otherwise."""
    limit = cores if cores is not None else usable_cores()
    if not 1 <= threads <= limit:
        raise ConfigError(f"CPU threads must be from 1 to {limit} (the cores this computer lets the studio use), "
                          f"not {threads}.", hint="Or leave it on Automatic: all cores but one.")
    return threads


def _empty_placement() -> Mapping[Stage, Placement]:
    return MappingProxyType({})


PLACEHOLDERS = frozenset({".gitkeep", "README.md"})
"""Files an engine folder may hold without holding any weights (the repository keeps
``checkpoints/animegamer/.gitkeep`` so that the folder is there to convert into)."""


def holds_weights(folder: Path) -> bool:
    """Whether ``folder`` (one engine's folder) holds anything but placeholders."""
    try:
        return folder.is_dir() and any(entry.name not in PLACEHOLDERS for entry in folder.iterdir())
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """Given to an engine's constructor. ``checkpoints`` is the folder that holds one
    sub-folder per engine (``<checkpoints>/<engine name>/``)."""

    checkpoints: Path = Path("checkpoints")
    more_checkpoints: tuple[Path, ...] = ()
    """Further folders looked in, in order, for an engine folder ``checkpoints`` lacks."""
    device: Placement = Placement()
    """The placement of every stage not named in ``placement``."""
    placement: Mapping[Stage, Placement] = field(default_factory=_empty_placement)
    dtype: DType = DType.AUTO
    threads: int | None = None
    """CPU threads for inference (None: the engine chooses; all cores but one in the window)."""

    def place(self, stage: Stage) -> Placement:
        return self.placement.get(stage, self.device)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled as plain values (a mapping proxy doesn't pickle): the configuration
        travels to the engine process of its device."""
        return (_rebuild_config, (self.checkpoints, self.more_checkpoints, self.device, dict(self.placement),
                                  self.dtype, self.threads))

    def placements(self) -> dict[Stage, Placement]:
        return {stage: self.place(stage) for stage in Stage}

    def engine_folder(self, name: str) -> Path:
        """``<checkpoints>/<name>`` when it is there; else the first further folder's whose
        ``<name>`` holds weights (a folder holding only the repository's ``.gitkeep`` is passed
        over: the app's own checkpoints folder, looked in after a chosen one, keeps an empty
        ``animegamer/``); else ``<checkpoints>/<name>``, where its weights are asked for."""
        first = self.checkpoints / name
        if first.is_dir() or first.exists() or first.is_symlink():  # a file or a broken link there is reported
            return first
        for folder in self.more_checkpoints:
            if holds_weights(folder / name):
                return folder / name
        return first

    def uses_a_further_copy(self, name: str) -> bool:
        """Whether ``name``'s weights come from a further folder, not from :attr:`checkpoints`
        (the app's own mini, when the chosen folder has no ``mini/``)."""
        return self.engine_folder(name).parent != self.checkpoints

    @classmethod
    def parse(cls, spec: str = "cpu", *, checkpoints: str | os.PathLike[str] | Sequence[Path] = "checkpoints",
              dtype: str = "auto", threads: int | None = None, separator: str = ",") -> EngineConfig:
        """From a command-line spec: ``cuda:0``, or ``predict=cuda:0,decode=cuda:1+offload``.
        ``checkpoints``: one folder, or several looked in in order. ``separator`` is what parts
        the stages: ``;`` for one worker of ``--devices``, where commas part the workers (the
        messages then quote the spec as written and show the stages written that way)."""
        default = Placement()
        per_stage: dict[Stage, Placement] = {}
        parts = [p.strip() for p in (spec or "cpu").split(separator)]
        example = separator.join(("predict=cuda:0", "decode=cuda:1"))
        if len(parts) > 1 and not all(parts):
            raise ConfigError(f"An empty entry in the device {spec!r}.",
                              hint=f"Separate a worker's stages with one {_SEPARATOR_NAMES.get(separator, separator)}, "
                                   f"e.g. {example}.")
        bare = [part for part in parts if part and "=" not in part]
        if len(bare) > 1:
            raise ConfigError(f"{spec!r} names {len(bare)} devices for one worker.",
                              hint=f"One device (cuda:0), or one per stage ({example}); "
                                   "several workers are --devices cpu,cuda:0.")
        for part in (p for p in parts if p):
            if "=" in part:
                name, _, where = part.partition("=")
                try:
                    stage = Stage(name.strip().lower())
                except ValueError:
                    known = ", ".join(s.value for s in Stage)
                    raise ConfigError(f"Unknown stage {name.strip()!r} in {spec!r}.",
                                      hint=f"Stages: {known}.") from None
                if stage in per_stage:
                    raise ConfigError(f"{spec!r} places the {stage.value} stage twice.",
                                      hint=f"Give each stage one device, e.g. {example}.")
                if not where.strip():
                    raise ConfigError(f"{name.strip()}= names no device in {spec!r}.", hint=f"Use {DEVICE_FORMS}.")
                per_stage[stage] = Placement.parse(where)
            else:
                default = Placement.parse(part)
        try:
            chosen_dtype = DType(dtype.strip().lower())
        except ValueError:
            known = ", ".join(d.value for d in DType)
            raise ConfigError(f"Unknown dtype {dtype!r}.", hint=f"Use one of: {known}.") from None
        if threads is not None and threads < 1:
            raise ConfigError(f"CPU threads must be at least 1, got {threads}.")
        folders = [Path(checkpoints)] if isinstance(checkpoints, (str, os.PathLike)) else list(checkpoints)
        if not folders:
            raise ConfigError("No checkpoints folder given.")
        return cls(checkpoints=folders[0], more_checkpoints=tuple(folders[1:]), device=default,
                   placement=MappingProxyType(per_stage), dtype=chosen_dtype, threads=threads)

    def adapted_to(self, devices: tuple[DeviceKind, ...]) -> EngineConfig:
        """This configuration for an engine that runs only on ``devices``: a stage placed on
        a kind of device the engine can't use runs on the CPU instead, when the engine can
        (so choosing a GPU for the big engines leaves the CPU engines working)."""
        if DeviceKind.CPU not in devices:
            return self
        cpu = Placement()
        default = self.device if self.device.kind in devices else cpu
        stages = {stage: (place if place.kind in devices else cpu) for stage, place in self.placement.items()}
        if default == self.device and stages == dict(self.placement):
            return self
        return EngineConfig(checkpoints=self.checkpoints, more_checkpoints=self.more_checkpoints, device=default,
                            placement=MappingProxyType(stages), dtype=self.dtype, threads=self.threads)

    def describe(self) -> str:
        places = self.placements()
        if len({str(p) for p in places.values()}) == 1:
            return str(self.device if not self.placement else next(iter(places.values())))
        return ",".join(f"{stage.value}={place}" for stage, place in places.items())


def _rebuild_config(checkpoints: Path, more_checkpoints: tuple[Path, ...], device: Placement,
                    placement: dict[Stage, Placement], dtype: DType, threads: int | None) -> EngineConfig:
    return EngineConfig(checkpoints=checkpoints, more_checkpoints=more_checkpoints, device=device,
                        placement=MappingProxyType(placement), dtype=dtype, threads=threads)
