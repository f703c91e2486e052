"""Where the files that ship with the studio are: ``resources/`` (icons, the theme, the sample
story, the sketch engine's cast and world) and ``checkpoints/`` (the mini engine's weights).

A checkout keeps both beside ``studio/``, at the repository's top level. An installed wheel
holds them inside the package, in ``studio/_shipped/`` (pyproject.toml maps them there), so
that site-packages gets no top-level folders with such common names. A frozen build keeps
``resources/`` beside ``studio/`` in its ``_internal/`` folder, as a checkout does, and
``checkpoints/`` beside its executable (packaging/kamishibai.spec), where the user puts weights.

What only a checkout has (the benchmarks in ``tests/bench``, ``docs/BENCHMARKS.md``) is found
through :func:`source_checkout`, which is None for an installed wheel and a frozen app.
"""

from __future__ import annotations

import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
INSIDE = PACKAGE / "_shipped"
"""Where an installed wheel holds the shipped folders."""
BESIDE = PACKAGE.parent
"""The folder holding ``studio/``: the repository in a checkout."""
BESIDE_THE_EXECUTABLE = frozenset({"checkpoints"})
"""The shipped folders a frozen build keeps beside its executable rather than in ``_internal/``."""


def shipped(name: str) -> Path:
    """The shipped folder ``name`` ("resources" or "checkpoints"): the installed wheel's copy,
    else the frozen build's, else the one beside the package."""
    inside = INSIDE / name
    if inside.is_dir():
        return inside
    if getattr(sys, "frozen", False) and name in BESIDE_THE_EXECUTABLE:
        # where the engines look too (AppPaths), and where `checkpoints convert` writes
        return Path(sys.executable).resolve().parent / name
    return BESIDE / name


def is_frozen() -> bool:
    """Whether this is the one-folder (PyInstaller) build."""
    return bool(getattr(sys, "frozen", False))


def is_installed() -> bool:
    """Whether this is an installed wheel (its shipped folders inside the package), not a
    checkout (an editable install is one) nor a frozen app."""
    return not is_frozen() and INSIDE.is_dir()


def source_checkout() -> Path | None:
    """The source checkout holding ``studio/`` (its ``pyproject.toml`` beside it); None for an
    installed wheel or a frozen app, which have no ``tests/`` nor ``docs/`` of their own."""
    if is_frozen() or INSIDE.is_dir():
        return None
    return BESIDE if (BESIDE / "pyproject.toml").is_file() else None
