"""File digests: the SHA-256 a project records for its media and a checkpoint's manifest lists
for its weights."""

from __future__ import annotations

import hashlib
from pathlib import Path


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, read in 1 MiB pieces (so a large file is never held in memory)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
