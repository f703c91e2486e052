"""What this machine can run: Python, torch and its GPUs, ffmpeg, Qt, and every engine.

``collect_report`` gathers it without opening a window or loading any model; the
``kamishibai doctor`` command prints it (or writes JSON), and the window's welcome page
shows the engine part. An engine's reasons come from its own ``check``.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from studio import __version__
from studio.engines import devices
from studio.engines.capabilities import DeviceKind
from studio.engines.checkpoints_folder import copy_note
from studio.engines.config import EngineConfig
from studio.engines.devices import DeviceInfo, format_bytes
from studio.engines.install_hints import ENGINES_INSTALL
from studio.engines.registry import EngineRegistry
from studio.engines.requirements import Requirement, without_see_doctor
from studio.shipped import is_frozen

MIN_PYTHON = (3, 11)


@dataclass(frozen=True, slots=True)
class Component:
    """One thing the app uses: found or not, its version or path, and what to do if not."""

    name: str
    ok: bool
    detail: str
    hint: str = ""


@dataclass(frozen=True, slots=True)
class EngineReport:
    name: str
    label: str
    version: str
    available: bool
    reasons: tuple[Requirement, ...]
    folder: str
    files: tuple[str, ...]
    license: str = ""
    copy: str = ""
    """Which copy of the weights it uses, when not the checkpoints folder's (the app's own mini)."""
    runs_on_cpu: bool = True
    """Whether the engine can run on the CPU (placed on a GPU that isn't there, it still could)."""


@dataclass(frozen=True, slots=True)
class DoctorReport:
    version: str
    components: tuple[Component, ...]
    gpus: tuple[DeviceInfo, ...]
    placement: str
    checkpoints: str
    engines: tuple[EngineReport, ...] = field(default_factory=tuple)
    checkpoints_given: str = ""
    """``--checkpoints`` as given, when it is not :attr:`checkpoints` (a relative path)."""

    @property
    def ok(self) -> bool:
        """The app can run: every component is fine and at least one engine is available."""
        return all(c.ok for c in self.components) and any(e.available for e in self.engines)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["ok"] = self.ok
        for engine in data["engines"]:
            for reason in engine["reasons"]:
                reason["kind"] = str(reason["kind"])
        return data


_NO_TORCH_FROZEN = ("The built app carries no torch, and nothing can be added to it: for the engines with "
                    "trained models, install the studio with Python instead, from its checkout (`make run "
                    "ENGINES=1`, or pip install '.[engines]' in a virtual environment).")
"""torch's hint in the one-folder app, where ``pip install`` can't reach (PyInstaller left it out)."""


def _python() -> Component:
    version = platform.python_version()
    ok = sys.version_info[:2] >= MIN_PYTHON
    return Component("python", ok, f"{version} ({sys.executable})",
                     "" if ok else f"Kamishibai Studio needs Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer.")


def _torch_and_gpus() -> tuple[Component, list[DeviceInfo]]:
    """torch's line and the GPUs it sees. A torch that is installed but does not import (a
    CUDA library missing, a broken wheel) is a NO line saying why, never a crash of the doctor."""
    if importlib.util.find_spec("torch") is None:
        return Component("torch", True, "not installed (the sketch engine needs none)", _NO_TORCH_FROZEN
                         if is_frozen() else f"Engines with trained models need it: install it {ENGINES_INSTALL}."), []
    try:
        version = importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown version"
    try:
        gpus = devices.cuda_devices()
    except Exception as error:  # ImportError, OSError (libcudnn...), a CUDA runtime error
        first = (str(error).strip().splitlines() or [""])[0][:300]
        return Component("torch", False, f"{version}, does not work: {type(error).__name__}: {first}",
                         "Nothing can be reinstalled inside the built app: build it again (make dist)." if is_frozen()
                         else "Reinstall it: pip install --force-reinstall torch (the README says which build), "
                         "or uninstall it to run the sketch engine only."), []
    cuda = f"CUDA: {len(gpus)} GPU(s)" if gpus else "CUDA: not available"
    return Component("torch", True, f"{version}, {cuda}"), gpus


def _ffmpeg() -> Component:
    chosen = os.environ.get("IMAGEIO_FFMPEG_EXE", "")
    reinstall = (f"The app's own ffmpeg is missing or damaged: copy the app ({Path(sys.executable).parent}) again "
                 "from its build, or set IMAGEIO_FFMPEG_EXE to a working ffmpeg." if is_frozen()
                 else "Reinstall it: pip install --force-reinstall imageio-ffmpeg.")
    fix = (f"IMAGEIO_FFMPEG_EXE={chosen} names it: point it at a working ffmpeg, or unset it to use "
           "imageio-ffmpeg's own." if chosen else reinstall)
    try:
        from studio.storage.media import ffmpeg_exe

        exe = ffmpeg_exe()
    except Exception as error:  # a missing or broken imageio-ffmpeg
        return Component("ffmpeg", False, f"not found ({type(error).__name__}: {error})", fix)
    try:
        done = subprocess.run([exe, "-version"], capture_output=True, text=True, errors="replace", timeout=20)
    except (OSError, subprocess.SubprocessError) as error:
        return Component("ffmpeg", False, f"{exe} does not run: {error}", fix)
    first = done.stdout.splitlines()[0] if done.stdout.strip() else ""
    words = first.split(" ")
    if done.returncode != 0 or words[:2] != ["ffmpeg", "version"]:
        said = [line.strip() for line in (done.stderr + "\n" + done.stdout).splitlines() if line.strip()]
        why = f"exit status {done.returncode}" if done.returncode != 0 else "it does not print ffmpeg's version"
        return Component("ffmpeg", False, f"{exe} does not work ({why}" + (f": {said[-1][:300]}" if said else "")
                         + ")", fix)
    version = words[2] if len(words) > 2 else "unknown version"
    return Component("ffmpeg", True, f"{version} ({exe})")


def _missing_libraries(plugin: Path) -> list[str]:
    ldd = shutil.which("ldd")
    if ldd is None or not plugin.is_file():
        return []
    try:
        out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted({line.split("=>")[0].strip() for line in out.splitlines() if "not found" in line})


def _qt() -> Component:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return Component("qt", False, "PySide6 is not installed", "The app was built without it: build it again "
                         "(make dist) in a checkout where PySide6 is installed." if is_frozen()
                         else "pip install PySide6-Essentials")
    root = Path(next(iter(spec.submodule_search_locations)))
    platforms = root / "Qt" / "plugins" / "platforms"
    plugins = sorted(p.name.removeprefix("libq").removesuffix(".so") for p in platforms.glob("libq*.so"))
    version = importlib.metadata.version("PySide6-Essentials") if _has_dist("PySide6-Essentials") else "?"
    chosen = os.environ.get("QT_QPA_PLATFORM", "")
    detail = f"PySide6 {version}, platforms: {', '.join(plugins) or 'none'}"
    if chosen:
        detail += f", QT_QPA_PLATFORM={chosen}"
    missing = _missing_libraries(platforms / "libqxcb.so") if "xcb" in plugins else []
    if missing and chosen.split(":")[0] not in ("offscreen", "minimal", "wayland", "vnc"):
        return Component("qt", False, f"{detail}; the X11 (xcb) plugin misses {', '.join(missing)}",
                         _install_libraries(missing))
    return Component("qt", True, detail)


def _install_libraries(sonames: list[str]) -> str:
    """The apt-get line that installs the packages of ``sonames``, from the studio's list of
    system packages (a wheel user has no ``make run`` to do it)."""
    from studio import system_check

    try:
        listed = system_check.read_requirements(system_check.LIST)
    except (OSError, ValueError):
        listed = []
    packages = system_check.unique_packages(r for r in listed if r.kind == "lib" and r.target in sonames)
    if not packages:
        return "Install the packages that provide these libraries with your system's package manager."
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    return f"Install them: {system_check.command_text(packages, as_root=root)}"


def _has_dist(name: str) -> bool:
    try:
        importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def engine_reports(registry: EngineRegistry, config: EngineConfig) -> tuple[EngineReport, ...]:
    """Every registered engine with the reasons it can't run here ([] when it can): its own
    check's, through the registry, as the window and the generating commands see them (a
    weights file the loader would refuse is one: see ``requirements.check_files``)."""
    found: list[EngineReport] = []
    for info in registry.infos():
        reasons = tuple(registry.check(info.name, config))
        folder = config.engine_folder(info.name)
        found.append(EngineReport(
            name=info.name, label=info.label, version=info.version, available=not reasons, reasons=reasons,
            folder=str(folder), files=tuple(str(folder / f.path) for f in info.checkpoints), license=info.license,
            copy=copy_note(config, info.name), runs_on_cpu=DeviceKind.CPU in info.capabilities.devices,
        ))
    return tuple(found)


def collect_report(registry: EngineRegistry, config: EngineConfig, *, given: str = "") -> DoctorReport:
    """The report on this machine; ``given``: the checkpoints folder as the user typed it. The
    engines' reasons leave out their "(see `kamishibai doctor`)": this is the doctor."""
    torch, gpus = _torch_and_gpus()
    components = (_python(), torch, _ffmpeg(), _qt())
    engines = tuple(dataclasses.replace(engine, reasons=tuple(map(without_see_doctor, engine.reasons)))
                    for engine in engine_reports(registry, config))
    folder = str(config.checkpoints)
    return DoctorReport(version=__version__, components=components, gpus=tuple(gpus), placement=config.describe(),
                        checkpoints=folder, engines=engines, checkpoints_given=given if given != folder else "")


def _by_hint(reasons: tuple[Requirement, ...]) -> list[tuple[str, list[str]]]:
    """``reasons``' messages grouped under their hint, hints in the order they first come: the
    fix is said once after the lines it fixes. QA: an engine without its weights printed the
    same "Convert the released weights: ..." line under each of its 7 to 12 missing files."""
    groups: dict[str, list[str]] = {}
    for reason in reasons:
        groups.setdefault(reason.hint, []).append(reason.message)
    return list(groups.items())


def _without_gpu(engines: tuple[EngineReport, ...]) -> str:
    """What having no CUDA device means here: which engines run on the CPU and which need a GPU
    (those refused for their device; "engines run on the CPU" misled where two of them can't)."""
    # by what the engine runs on, not by its reasons: mini placed on a missing cuda:0 still runs on the CPU
    need_gpu = [e.name for e in engines if not e.runs_on_cpu]
    on_cpu = [e.name for e in engines if e.name not in need_gpu]
    said = ["no CUDA device"]
    if on_cpu:
        said.append(f"{_names(on_cpu)} {'runs' if len(on_cpu) == 1 else 'run'} on the CPU")
    if need_gpu:
        said.append(f"{_names(need_gpu)} {'needs' if len(need_gpu) == 1 else 'need'} a CUDA GPU")
    return "; ".join(said)


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def format_report(report: DoctorReport, shown: Callable[[str], str] = str) -> str:
    """The report as text, one line each; ``shown`` makes each line safe to print (the
    command line passes ``printable``: a checkpoints folder's name, which many lines quote,
    may hold control characters such as ESC, or a line break)."""
    lines = [f"Kamishibai Studio {report.version}"]
    for component in report.components:
        mark = "ok " if component.ok else "NO "
        lines.append(f"  {mark} {component.name:<8} {component.detail}")
        if component.hint:
            lines.append(f"      {'':<8} {component.hint}")
    if report.gpus:
        for gpu in report.gpus:
            lines.append(f"  gpu  {gpu.device:<8} {gpu.name}: {format_bytes(gpu.free_bytes)} free of "
                         f"{format_bytes(gpu.total_bytes)}")
    else:
        lines.append(f"  gpu  none     ({_without_gpu(report.engines)})")
    lines.append(f"  placement    {report.placement}")
    given = f" (given as {report.checkpoints_given})" if report.checkpoints_given else ""
    lines.append(f"  checkpoints  {report.checkpoints}{given}")
    lines.append("Engines:")
    for engine in report.engines:
        state = "available" if engine.available else "not available"
        lines.append(f"  {engine.name:<12} {state:<14} {engine.label} {engine.version}")
        if engine.copy:
            lines.append(f"      {engine.copy}")
        for hint, messages in _by_hint(engine.reasons):
            lines.extend(f"      - {message}" for message in messages)
            if hint:
                lines.append(f"        {hint}")
        if engine.license:
            lines.append(f"      weights license: {engine.license}")
    verdict = "The studio can run here." if report.ok else "The studio can't run here yet: see the NO lines above."
    lines.append(verdict)
    return "\n".join(shown(line) for line in lines)
