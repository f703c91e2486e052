"""``kamishibai checkpoints doctor``: which of our files are there, which are missing, and
what the release folder holds. Exact paths and sizes; no weights read, no torch."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from studio.engines.animegamer.release_steps import latest_hint, latest_problem
from studio.engines.animegamer.shards import find_index, missing_shards
from studio.engines.catalog import animegamer_layout as layout


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


@dataclass(frozen=True, slots=True)
class CheckpointReport:
    folder: Path
    files: tuple[FileStatus, ...]
    complete: tuple[str, ...]
    release: tuple[tuple[str, Path, bool], ...] = ()

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
    release: list[tuple[str, Path, bool]] = []
    if source is not None:
        for character in layout.CHARACTERS:
            name = layout.DISPLAY[character]
            mllm = source / layout.RELEASE_MLLM.format(name=name)
            release.append((f"{name}'s MLLM", mllm, mllm.is_file()))
            problem = latest_problem(source, character)
            if problem is not None:  # the converter would stop on it
                release.append((f"{name}'s decoder: {problem[1]}. {latest_hint()}", problem[0], False))
                continue
            decoder = layout.release_decoder_file(source, character)
            release.append((f"{name}'s decoder", decoder or source / layout.RELEASE_DECODER_DIR.format(name=name)
                            / "<step>" / layout.DEEPSPEED_FILE, decoder is not None))
        release.append(("the VAE", source / layout.RELEASE_VAE, (source / layout.RELEASE_VAE).is_file()))
        base = source / layout.RELEASE_BASE_DIR
        what = "Mistral-7B-Instruct-v0.1 (needed when the MLLM file holds only trained weights)"
        release.append((what, base, base.is_dir()))
        if base.is_dir():  # a shard an interrupted download lacks (the converter would stop on it)
            named_by = "its index names" if find_index(base) is not None else "the other shards' names count"
            release.extend((f"a shard of Mistral-7B-Instruct-v0.1 that {named_by}", path, False)
                           for path in missing_shards(base))
    return CheckpointReport(folder, tuple(statuses), tuple(layout.complete_characters(folder)), tuple(release))


def _gb(count: int | None) -> str:
    return "?" if count is None else f"{count / layout.GB:.2f} GB"


def format_report(report: CheckpointReport, shown: Callable[[str], str] = str) -> str:
    """The report as lines of text; ``shown`` renders each path (a terminal's caller escapes
    control characters with it, so that a line break in a folder name can't split a line)."""
    lines = [f"AnimeGamer checkpoints in {shown(str(report.folder))}"]
    for status in report.files:
        if status.present:
            size = f"{status.size:,} bytes"
            if status.exact and status.expected is not None and status.size != status.expected:
                size += f", expected {status.expected:,} (incomplete copy?)"
            lines.append(f"  ok      {shown(str(status.path))} ({size}) — {status.description}")
        else:
            expected = "" if status.expected is None else \
                f" (expected {'' if status.exact else 'about '}{_gb(status.expected)})"
            lines.append(f"  MISSING {shown(str(status.path))}{expected} — {status.description}")
    if report.release:
        lines.append("Release files:")
        for what, path, found in report.release:
            lines.append(f"  {'found  ' if found else 'MISSING'} {shown(str(path))} — {what}")
    if report.complete:
        lines.append("Ready: " + ", ".join(layout.DISPLAY[c] for c in report.complete) + ".")
    else:
        lines.append("No character is complete: convert the release with "
                     "`kamishibai checkpoints convert PATH/TO/AnimeGamer/checkpoints`.")
    return "\n".join(lines)
