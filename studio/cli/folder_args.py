"""Argument types for options that name a folder, checked when the arguments are read
(light: no project or engine code is imported)."""

from __future__ import annotations

import argparse
from pathlib import Path


def checkpoints_folder(text: str) -> str:
    """``--checkpoints``: a folder, or a path where one will be made. A path that names
    something else (a file, as when a weights file is given instead of its folder) is
    refused here: the engines would otherwise report each of their files missing under it
    (``Missing FILE/mini/config.json``), which hides the mistake. So is an empty one, which
    named the current folder (``Missing mini/config.json``)."""
    if not text:  # an unset shell variable ("--checkpoints $DIR"): Path("") is the current folder
        raise argparse.ArgumentTypeError("an empty path names no checkpoints folder (give the folder that holds "
                                         "mini/, animegamer/ or customx/, or leave the option out)")
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        what = "a file" if path.is_file() else "a device or other special file"
        raise argparse.ArgumentTypeError(
            f"{text!r} is {what}, not a checkpoints folder (give the folder that holds mini/, "
            "animegamer/ or customx/)")
    return text


def checkpoints_path(text: str) -> Path:
    """:func:`checkpoints_folder`, as a path."""
    return Path(checkpoints_folder(text))
