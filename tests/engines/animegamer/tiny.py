"""Tiny converted AnimeGamer checkpoints for tests: the release's formats, converted once per
session and copied into each test's checkpoints folder."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from studio.engines.animegamer.convert import convert_release
from studio.engines.animegamer.sizes import TINY
from studio.engines.catalog import animegamer_layout as layout

from .released_files import write_release

_converted: dict[tuple[str, ...], Path] = {}


def _session_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="animegamer-tiny-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def tiny_checkpoints(checkpoints: Path, characters: tuple[str, ...] = ("qiqi",)) -> Path:
    """Fill ``checkpoints/animegamer/`` with tiny converted weights; returns the engine folder."""
    if characters not in _converted:
        root = _session_folder()
        write_release(root / "release", TINY, characters=characters)
        convert_release(root / "release", root / "checkpoints", size=TINY)
        _converted[characters] = root / "checkpoints"
    target = layout.engine_folder(checkpoints)
    shutil.copytree(layout.engine_folder(_converted[characters]), target, dirs_exist_ok=True)
    return target
