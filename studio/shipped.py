"""Where the files that ship with the studio are: ``resources/`` (icons, the theme, the sample
story, the sketch engine's cast and world) and ``checkpoints/`` (the mini engine's weights).

A checkout keeps both beside ``studio/``, at the repository's top level. An installed wheel
holds them inside the package, in ``studio/_shipped/`` (pyproject.toml maps them there), so
that site-packages gets no top-level folders with such common names. A frozen build keeps
``resources/`` beside ``studio/`` in its ``_internal/`` folder, as a checkout does.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
INSIDE = PACKAGE / "_shipped"
"""Where an installed wheel holds the shipped folders."""
BESIDE = PACKAGE.parent
"""The folder holding ``studio/``: the repository in a checkout."""


def shipped(name: str) -> Path:
    """The shipped folder ``name`` ("resources" or "checkpoints"): the installed wheel's copy,
    else the one beside the package."""
    inside = INSIDE / name
    return inside if inside.is_dir() else BESIDE / name
