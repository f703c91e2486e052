"""``kamishibai checkpoints doctor``: which of our files are there, which are missing, and
what the release folder holds. Exact paths and sizes; no weights read, no torch."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from studio.engines.animegamer.base_config import TOKENIZER_PLACES, base_config_problem, base_hint, find_tokenizer
from studio.engines.animegamer.release_steps import latest_hint, latest_problem
from studio.engines.animegamer.shards import find_index, missing_shards
from studio.engines.animegamer.sizes import FULL
from studio.engines.catalog import animegamer_layout as layout
from studio.engines.requirements import safetensors_size_problem


@dataclass(frozen=True, slots=True)
class FileStatus:
    path: Path
    description: str
    present: bool
    size: int | None
    """Actual size in bytes when present."""
    expected: int | None
    """Size recorded at conversion, else the released scale's approximate size."""
    exact: bool


SHARD = "a shard of Mistral-7B-Instruct-v0.1"
TOKENIZER = "AnimeGamer's tokenizer"


@dataclass(frozen=True, slots=True)
class ReleaseFile:
    """One file (or folder) of the release under ``--source``, as the converter will need it."""

    what: str
    path: Path
    found: bool
    problem: str | None = None
    """Why it won't convert as it is (cut short, another model), or None."""


@dataclass(frozen=True, slots=True)
class CheckpointReport:
    folder: Path
    files: tuple[FileStatus, ...]
    complete: tuple[str, ...]
    release: tuple[ReleaseFile, ...] = ()

    @property
    def ok(self) -> bool:
        return bool(self.complete)


def _recorded_sizes(folder: Path) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for character in layout.CHARACTERS:
        try:
            files = layout.read_model_json(folder, character).get("files", {})
        except (OSError, ValueError):
            continue
        if isinstance(files, dict):
            sizes.update({str(k): int(v) for k, v in files.items() if isinstance(v, int)})
    return sizes


def inspect(checkpoints: Path, source: Path | None = None) -> CheckpointReport:
    folder = layout.engine_folder(checkpoints)
    recorded = _recorded_sizes(folder)
    statuses = []
    for item in layout.all_files():
        path = folder / item.path
        present = path.is_file()
        exact = item.path in recorded
        statuses.append(FileStatus(path, item.description, present, path.stat().st_size if present else None,
                                   recorded.get(item.path, item.approx_bytes), exact))
    release = _release_files(source, folder) if source is not None else []
    return CheckpointReport(folder, tuple(statuses), tuple(layout.complete_characters(folder)), tuple(release))


def _release_files(source: Path, folder: Path) -> list[ReleaseFile]:
    """What the converter will read under ``source``, each found or not, and why a found one
    won't convert (checked from names, sizes and small files only)."""
    release: list[ReleaseFile] = []
    for character in layout.CHARACTERS:
        name = layout.DISPLAY[character]
        mllm = source / layout.RELEASE_MLLM.format(name=name)
        release.append(ReleaseFile(f"{name}'s MLLM", mllm, mllm.is_file(), _torch_problem(mllm)))
        problem = latest_problem(source, character)
        if problem is not None:  # the converter would stop on it
            release.append(ReleaseFile(f"{name}'s decoder: {problem[1]}. {latest_hint()}", problem[0], False))
            continue
        decoder = layout.release_decoder_file(source, character)
        release.append(ReleaseFile(f"{name}'s decoder", decoder or source / layout.RELEASE_DECODER_DIR.format(
            name=name) / "<step>" / layout.DEEPSPEED_FILE, decoder is not None,
            _torch_problem(decoder) if decoder is not None else None))
    vae = source / layout.RELEASE_VAE
    release.append(ReleaseFile("the VAE", vae, vae.is_file(), _torch_problem(vae)))
    release.extend(_base_files(source / layout.RELEASE_BASE_DIR))
    tokenizer = find_tokenizer(source)
    converted = all((folder / "tokenizer" / name).is_file() for name in layout.TOKENIZER_FILES)
    release.append(ReleaseFile(
        f"{TOKENIZER} (from the code release)" + (
            "" if tokenizer or converted else "; give --tokenizer MLLM/VisualAR/animegamer_tokenizer to convert"),
        tokenizer or source / TOKENIZER_PLACES[0], tokenizer is not None or converted))
    return release


def _torch_problem(path: Path) -> str | None:
    """Why the released PyTorch file ``path`` won't convert, from its bytes only (a zip archive
    cut short, a web page saved in its place); None when it looks whole or is not there. The
    doctor called them "found" and recommended a conversion that then failed."""
    from studio.engines.file_kinds import torch_archive_problem

    return torch_archive_problem(path) if path.is_file() else None


def _base_files(base: Path) -> list[ReleaseFile]:
    """Mistral's folder, its config.json checked, and each shard missing or cut short."""
    what = "Mistral-7B-Instruct-v0.1 (needed when the MLLM file holds only trained weights)"
    if not base.is_dir():
        return [ReleaseFile(what, base, False)]
    problem = base_config_problem(base, FULL)
    rows = [ReleaseFile(what, base, True, f"{problem}. {base_hint(base)}" if problem else None)]
    named_by = "its index names" if find_index(base) is not None else "the other shards' names count"
    rows.extend(ReleaseFile(f"{SHARD} that {named_by}", path, False)
                for path in missing_shards(base))
    for path in sorted(base.glob("*.safetensors")):
        cut = safetensors_size_problem(path)
        if cut is not None:
            rows.append(ReleaseFile("a file of Mistral-7B-Instruct-v0.1", path, True, f"{cut} Download it again."))
    return rows


def convert_command(report: CheckpointReport, source: str, checkpoints: str | None) -> list[str] | None:
    """The ``convert`` command for the release the report lists (``source`` and
    ``checkpoints`` as the user gave them, so that it writes where the engine will look), or
    None when no character can be converted from it as it is."""
    if any(row.problem for row in report.release) or any(
            not row.found and row.what.startswith(SHARD) for row in report.release):
        return None
    found = {row.what for row in report.release if row.found}
    ready = [c for c in layout.CHARACTERS
             if f"{layout.DISPLAY[c]}'s MLLM" in found and f"{layout.DISPLAY[c]}'s decoder" in found]
    if not ready:
        return None
    line = ["kamishibai", "checkpoints", "convert", source]
    if checkpoints:
        line += ["--checkpoints", checkpoints]
    if len(ready) < sum(f"{layout.DISPLAY[c]}'s MLLM" in found for c in layout.CHARACTERS):
        for character in ready:  # every character with an MLLM file is converted, and one stops them all
            line += ["--character", character]
    if any(not row.found and row.what.startswith(TOKENIZER) for row in report.release):  # neither there nor converted
        line += ["--tokenizer", "PATH/TO/MLLM/VisualAR/animegamer_tokenizer"]
    return line


def _gb(count: int | None) -> str:
    return "?" if count is None else f"{count / layout.GB:.2f} GB"


def format_report(report: CheckpointReport, shown: Callable[[str], str] = str, command: list[str] | None = None,
                  checkpoints: str | None = None, damaged: Collection[str] = ()) -> str:
    """The report as lines of text; ``shown`` renders each path (a terminal's caller escapes
    control characters with it, so that a line break in a folder name can't split a line).
    ``command``: the convert command for the release listed (:func:`convert_command`);
    ``checkpoints``: the ``--checkpoints`` folder as given, added to the command otherwise
    suggested (without it the conversion wrote where the engine did not look); ``damaged``: the
    paths of files there that can't be loaded, marked DAMAGED rather than "ok" (a pickle under a
    .safetensors name read "ok ... (1,556 bytes, expected 8,303,152 (incomplete copy?))")."""
    checkpoints = f" --checkpoints {shown(shlex.quote(checkpoints))}" if checkpoints else ""
    lines = [f"AnimeGamer checkpoints in {shown(str(report.folder))}"]
    for status in report.files:
        if status.present:
            size = f"{status.size:,} bytes"
            bad = str(status.path) in damaged  # said why below, among the damaged files
            if not bad and status.exact and status.expected is not None and status.size != status.expected:
                size += f", expected {status.expected:,} (incomplete copy?)"
            label = "DAMAGED" if bad else "ok     "
            lines.append(f"  {label} {shown(str(status.path))} ({size}) — {status.description}")
        else:
            expected = "" if status.expected is None else \
                f" (expected {'' if status.exact else 'about '}{_gb(status.expected)})"
            lines.append(f"  MISSING {shown(str(status.path))}{expected} — {status.description}")
    if report.release:
        lines.append("Release files:")
        for row in report.release:
            label = "DAMAGED" if row.problem else "found  " if row.found else "MISSING"
            lines.append(f"  {label} {shown(str(row.path))} — {row.what}")
            if row.problem:
                lines.append(f"          {shown(row.problem)}")
    if report.complete:
        lines.append("Ready: " + ", ".join(layout.DISPLAY[c] for c in report.complete) + ".")
    elif command is not None:
        lines.append("No character is complete: convert the release with `" + shown(shlex.join(command)) + "`.")
    elif report.release:
        lines.append("No character is complete, and the release can't be converted as it is: get the files marked "
                     "MISSING or DAMAGED above, then run this check again.")
    else:
        lines.append("No character is complete: convert the release with `kamishibai checkpoints convert "
                     f"PATH/TO/AnimeGamer/checkpoints{checkpoints}`.")
    return "\n".join(lines)
