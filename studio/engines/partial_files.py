"""Converted weight files written whole or not at all.

A converter writes gigabytes per file: a failed or interrupted write (a full disk, Ctrl+C)
must leave neither a cut-short file that a later load takes for a converted one nor the
partial one beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch


def write_whole(path: Path, write: Callable[[Path], object], write_error: Callable[[Path, OSError], Exception]) -> None:
    """Make ``path`` with ``write(partial)`` through ``path.partial``, renamed into place once
    complete and removed on any failure (Ctrl+C too); an ``OSError`` is raised as
    ``write_error(path, it)``."""
    partial = path.with_name(path.name + ".partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write(partial)
        partial.replace(path)
    except BaseException as error:
        partial.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise write_error(path, error) from None
        raise


def save_whole(tensors: Mapping[str, torch.Tensor], path: Path, metadata: Mapping[str, str] | None,
               write_error: Callable[[Path, OSError], Exception]) -> None:
    """Write ``tensors`` to ``path`` whole or not at all (:func:`write_whole`)."""
    from safetensors.torch import save_file

    write_whole(path, lambda partial: save_file(dict(tensors), str(partial),
                                                metadata=dict(metadata) if metadata is not None else None),
                write_error)


def check_writable(folder: Path, write_error: Callable[[Path, OSError], Exception]) -> None:
    """Make ``folder`` and write a scratch file in it, so that a destination that can't be
    written is refused before gigabytes of release files are read (it ended in an internal
    error once the first file was written); an ``OSError`` is raised as ``write_error``."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise write_error(folder, error) from None
