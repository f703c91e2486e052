"""Atomic file writes: temp file in the same folder, fsync, rename, fsync the folder."""

from __future__ import annotations

import contextlib
import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def temp_path_for(target: Path) -> Path:
    """A hidden sibling of ``target`` with the same suffix (encoders pick formats by it)."""
    return target.with_name(f".{target.stem}.{uuid.uuid4().hex[:8]}.part{target.suffix}")


_TEMP_NAME_RE = re.compile(r"\..*\.[0-9a-f]{8}\.part(\.[^./]*)?", re.DOTALL)


def is_temp_name(name: str) -> bool:
    """Whether ``name`` is one :func:`temp_path_for` makes (hidden, with ``.XXXXXXXX.part``)."""
    return _TEMP_NAME_RE.fullmatch(name) is not None


@contextlib.contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temp path to write; on success it replaces ``target`` atomically.

    On any error the temp file is removed and ``target`` is left as it was.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path_for(target)
    try:
        yield tmp
        if not tmp.exists():
            raise FileNotFoundError(f"nothing was written to {tmp}")
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, target)
        fsync_dir(target.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_bytes_atomic(target: Path, data: bytes) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)
