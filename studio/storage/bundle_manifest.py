"""A bundle's manifest, ``kamishibai-bundle.json``: which program made the bundle, in which
bundle format, and every file it holds with its size and SHA-256.

Unbundling reads it before anything is unpacked: a bundle of a newer format is refused (this
version can't know what it holds), one without a manifest of ours was not made by the studio,
files listed but absent (a bundle cut short, files taken out), present but not listed (files
put in after) or of another size are named, and each unpacked file's digest is checked as it
is unpacked (:class:`DigestWriter`). The manifest is no signature: whoever rewrites a bundle
can rewrite it too, so the bundle is still checked as untrusted; it catches damage in transit
and hand edits, and says which file it was.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import IO, Any

from studio.core.text import first_few
from studio.storage.rows import stored_repr

APP = "kamishibai-studio"
BUNDLE_FORMAT = 2
"""The bundle format this version writes and the newest it reads. Format 1 (the manifest
named only the app, its version and the project) lists no files: such bundles are read
without the checks of the list."""
MAX_MANIFEST_BYTES = 256 * 1024 * 1024
"""Most a manifest may unpack to (a million files of long names fit)."""
_SHA256_HEX = frozenset("0123456789abcdef")


class ManifestError(Exception):
    """The manifest can't be used; ``reason`` completes "Refused the bundle NAME: ..."."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NewerFormatError(ManifestError):
    """The bundle was written in a format newer than :data:`BUNDLE_FORMAT`."""

    def __init__(self, found: int, version: str) -> None:
        made_by = f"Kamishibai Studio {version}" if version else "a newer Kamishibai Studio"
        super().__init__(f"it was made by {made_by} in bundle format {found}; this version "
                         f"reads bundle formats up to {BUNDLE_FORMAT}")
        self.found = found


@dataclass(frozen=True)
class ListedFile:
    """One file as the manifest lists it."""

    path: str
    size: int
    sha256: str


@dataclass(frozen=True)
class Manifest:
    format: int
    version: str
    files: dict[str, ListedFile] | None
    """By path; None for format 1, which lists none."""


class DigestWriter:
    """Writes through to ``sink`` while counting the bytes and hashing them (SHA-256)."""

    def __init__(self, sink: IO[bytes]) -> None:
        self._sink = sink
        self._hash = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> int:
        self._hash.update(data)
        self.size += len(data)
        return self._sink.write(data)

    @property
    def sha256(self) -> str:
        return self._hash.hexdigest()

    def listed(self, path: str) -> ListedFile:
        return ListedFile(path, self.size, self.sha256)


def manifest_text(project_name: str, version: str, files: list[ListedFile]) -> str:
    """The manifest of a bundle holding ``files`` (the manifest itself is not among them)."""
    return json.dumps({
        "app": APP, "format": BUNDLE_FORMAT, "version": version, "name": project_name,
        "files": [{"path": f.path, "size": f.size, "sha256": f.sha256} for f in files],
    }, ensure_ascii=False, indent=1)


def parse_manifest(raw: bytes) -> Manifest:
    """The manifest in ``raw``, or :class:`ManifestError` saying why it can't be used."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ManifestError("its manifest is not the JSON text Kamishibai Studio writes (a bundle made by "
                            "another program, or a damaged one)") from None
    if not isinstance(data, dict) or data.get("app") != APP:
        app = data.get("app") if isinstance(data, dict) else None
        made_by = (f"says it was made by {_shown(app)}, not by" if isinstance(app, str) and app
                   else "does not say it was made by")
        raise ManifestError(f"its manifest {made_by} Kamishibai Studio (a bundle made by another program?)")
    version = data.get("version")
    version_text = _shown(version).strip("'\"") if isinstance(version, str) else ""
    found = data.get("format", 1)
    if not isinstance(found, int) or isinstance(found, bool) or found < 1:
        raise ManifestError(f"its manifest names the bundle format {_shown(found)}, which is not a format number")
    if found > BUNDLE_FORMAT:
        raise NewerFormatError(found, version_text)
    if found == 1:
        return Manifest(1, version_text, None)
    return Manifest(found, version_text, _listed_files(data.get("files")))


def _listed_files(value: Any) -> dict[str, ListedFile]:
    if not isinstance(value, list):
        raise ManifestError("its manifest has no list of files")
    files: dict[str, ListedFile] = {}
    for position, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            raise ManifestError(f"file {position} of its manifest's list is not a file entry")
        path, size, digest = item.get("path"), item.get("size"), item.get("sha256")
        if not isinstance(path, str) or not path:
            raise ManifestError(f"file {position} of its manifest's list has no path")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise ManifestError(f"its manifest gives {_shown(path)} the size {_shown(size)}, not a number of bytes")
        if not isinstance(digest, str) or len(digest) != 64 or not set(digest) <= _SHA256_HEX:
            raise ManifestError(f"its manifest gives {_shown(path)} no SHA-256 digest")
        if path in files:
            raise ManifestError(f"its manifest lists {_shown(path)} twice")
        files[path] = ListedFile(path, size, digest)
    return files


def _shown(value: Any) -> str:
    """``value`` read from the manifest as a message shows it (see :func:`stored_repr`)."""
    return stored_repr(value, limit=80)


def shown_names(names: list[str], most: int = 5) -> str:
    """Up to ``most`` of ``names`` for a message, then how many more."""
    return first_few([_shown(name) for name in names], limit=most)
