"""What a weights file really is, told from its first bytes: a PyTorch file (a zip archive or a
bare pickle, as ``torch.save`` writes them) or a web page saved under a weights file's name.

Nothing is unpickled or unzipped: the first bytes say enough to name the mistake (a pickle saved
as ``.safetensors`` was called "an incomplete copy" for its size, and an HTML error page saved as
``3d-vae.pt`` was "found").
"""

from __future__ import annotations

from pathlib import Path

ZIP_MAGIC = b"PK\x03\x04"
PICKLE_PROTOCOLS = range(2, 6)
"""A pickle of protocol 2 or later starts with PROTO (0x80) and its number."""
TORCH_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt")
"""Suffixes PyTorch's own weight files go by."""


def foreign_kind(path: Path) -> str | None:
    """What ``path`` is when it is not what its name says it may be: "a PyTorch file (a zip
    archive, as torch.save writes)", "a PyTorch pickle" or "a web page (HTML)"; None for
    anything else (a safetensors file, a file that can't be read: its own checks say)."""
    try:
        with path.open("rb") as file:
            head = file.read(64)
    except OSError:
        return None
    if head.startswith(ZIP_MAGIC):
        return "a PyTorch file (a zip archive, as torch.save writes)"
    if len(head) >= 2 and head[0] == 0x80 and head[1] in PICKLE_PROTOCOLS:
        return "a PyTorch pickle (as older torch.save writes)"
    text = head.lstrip().lower()
    if text.startswith((b"<!doctype html", b"<html", b"<?xml", b"<head")):
        return "a web page (HTML), saved where the download should be"
    return None


def torch_file_beside(path: Path) -> Path | None:
    """A PyTorch weights file with ``path``'s name and another suffix (mllm.bin beside a
    missing mllm.safetensors): the released file, not converted yet."""
    for suffix in TORCH_SUFFIXES:
        candidate = path.with_suffix(suffix)
        if candidate.is_file():
            return candidate
    return None


def torch_archive_problem(path: Path) -> str | None:
    """Why ``path``, a released PyTorch weights file (``pytorch_model.bin``, ``3d-vae.pt``), can't
    be converted, from its bytes only: a web page, or a zip archive cut short (its end-of-central-
    directory record is missing). None when it looks whole, or is a bare pickle (whose end
    can't be checked without reading it)."""
    try:
        size = path.stat().st_size
        with path.open("rb") as file:
            head = file.read(64)
            if not head.startswith(ZIP_MAGIC):
                kind = foreign_kind(path)
                if kind is not None and "web page" in kind:
                    return f"{path} is {kind}, not the released weights: download it again."
                if not head:
                    return f"{path} is empty: download it again."
                return None
            file.seek(max(0, size - 65_536 - 22))
            tail = file.read()
    except OSError as error:
        return f"{path} can't be read: {error.strerror or error}."
    if b"PK\x05\x06" not in tail:
        return f"{path} is cut short ({size:,} bytes; its zip archive has no end): download it again."
    return None
