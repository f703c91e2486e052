"""Argument types for options that name a folder, checked when the arguments are read
(light: no project or engine code is imported)."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path


def checkpoints_folder(text: str) -> str:
    """``--checkpoints`` of a command that reads the converted weights: as
    :func:`conversion_target`, and refused when it is AnimeGamer's release folder (the one
    `kamishibai checkpoints convert` takes), saying so and giving the command that converts
    it. QA: the engines listed each of their converted files missing under it, and said to
    convert "PATH/TO/AnimeGamer/checkpoints", never that this folder was that release."""
    conversion_target(text)
    path = Path(text).expanduser()
    release = release_folder(path) if path.is_dir() else None
    if release is not None:
        what = "" if release == path else f" is inside {str(release)!r}, which"
        raise argparse.ArgumentTypeError(
            f"{text!r}{what} is AnimeGamer's release folder (the released weights), not a checkpoints folder of "
            f"converted ones: convert it first with `kamishibai checkpoints convert {shlex.quote(str(release))} "
            "--checkpoints DIR`, then give --checkpoints DIR (or leave --checkpoints out of both to use "
            "checkpoints/ beside the app)")
    return text


def release_folder(path: Path) -> Path | None:
    """The AnimeGamer release folder ``path`` is, or whose ``AnimeGamer/`` folder it is;
    else None. Its marks are the released files' own folders, which a converted
    ``animegamer/`` never has (a case-insensitive file system gives it the same name)."""
    from studio.engines.catalog import animegamer_layout as layout

    def holds_release(folder: Path) -> bool:
        marks = [folder / layout.RELEASE_VAE, folder / layout.RELEASE_BASE_DIR]
        for name in layout.DISPLAY.values():
            marks += [(folder / layout.RELEASE_MLLM.format(name=name)).parent,
                      folder / layout.RELEASE_DECODER_DIR.format(name=name)]
        return any(mark.exists() for mark in marks)

    try:
        if holds_release(path):
            return path
        inner = Path(layout.RELEASE_DECODER_DIR).parts[0]  # AnimeGamer/
        return path.parent if path.name == inner and holds_release(path.parent) else None
    except OSError:  # a folder that can't be looked into: the engines say what they find
        return None


def conversion_target(text: str) -> str:
    """``--checkpoints`` of a conversion (where it writes), and the check every ``--checkpoints``
    gets: a folder, or a path where one will be made. A path that names
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


CHECKPOINTS_FOLDER_HINT = ("Give the checkpoints folder that holds the converted weights (animegamer/, customx/ "
                           "...), or leave --checkpoints out to look in the default one.")


def require_folder(option: str, value: str, hint: str) -> None:
    """Refuse ``value`` (given with ``option``) unless it is a folder, saying what it is
    instead: looking for the release's files under a file (or a typo) listed each of them
    as missing, which hid the mistake."""
    from studio.core.errors import StudioError

    path = Path(value)
    if path.is_dir():
        return
    if path.exists():
        what = "a file, not a folder" if path.is_file() else "neither a file nor a folder"
        raise StudioError(f"{option} {value} is {what}.", hint=hint)
    raise StudioError(f"{option} {value}: no such folder.", hint=hint)
