"""Ways a weight file gets damaged on disk, for the load and check tests."""

from __future__ import annotations

from pathlib import Path


def truncate(path: Path, size: int = 100) -> None:
    """Cut the last ``size`` bytes (an interrupted copy)."""
    path.write_bytes(path.read_bytes()[:-size])


def alter_one_byte(path: Path) -> None:
    """Flip one byte near the end: the same size, one weight changed."""
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    path.write_bytes(bytes(data))
