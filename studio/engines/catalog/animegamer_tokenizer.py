"""AnimeGamer's tokenizer files checked one by one, naming the first that can't be read.

A damaged ``tokenizer.model`` was copied by the converter as if whole, and the engine's load
then failed in transformers with "`tiktoken` is required to read a `tiktoken` file. Install
it with `pip install tiktoken`" (its fallback for a file that is no SentencePiece model),
which sent users to install a package instead of copying the file again.

It lives in the catalogue so that the engine's check (what `kamishibai doctor`, the window's
engine picker and the generating commands see) names such a file before a load fails on it.
Without torch; SentencePiece is imported only to read a ``tokenizer.model``.
"""

from __future__ import annotations

import functools
import json
import os
import stat
from pathlib import Path

from studio.engines.catalog import animegamer_layout as layout
from studio.engines.requirements import Requirement, RequirementKind

TOKENIZER_CURE = ("Convert again: `kamishibai checkpoints convert` copies it from the code release "
                  "(MLLM/VisualAR/animegamer_tokenizer).")
"""What fixes a damaged tokenizer (`doctor` and `checkpoints doctor` say it alike)."""


def tokenizer_problem(folder: Path) -> str | None:
    """What is wrong with the tokenizer in ``folder`` (a file missing, a JSON file that is
    not a JSON object, a ``tokenizer.model`` that is not a SentencePiece model), or None."""
    for name in layout.TOKENIZER_FILES:
        path = folder / name
        if not path.is_file():
            return f"{path} is missing" if not path.exists() else f"{path} is not a file"
        if name.endswith(".json"):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
                return f"{path} can't be read as JSON: {error}"
            if not isinstance(data, dict):
                return f"{path} is not a JSON object"
    return _sentencepiece_problem(folder / "tokenizer.model")


def _sentencepiece_problem(path: Path) -> str | None:
    try:
        import sentencepiece
    except ImportError:  # installed without the engines' libraries: the engine can't run, nothing to check
        return None

    processor = sentencepiece.SentencePieceProcessor()
    try:
        processor.Load(str(path))
    except (RuntimeError, OSError):
        return f"{path} is not a SentencePiece model (damaged, or another file)"
    return None


def damaged_tokenizer(folder: Path) -> Requirement | None:
    """The tokenizer file in ``folder`` (the engine folder's ``tokenizer/``) that the engine
    can't load, as a reason naming it and the cure; None when it loads, or when a file is not
    there (the engine's check names a missing file as such).

    Each version of the files (their paths, sizes and modification times) is read once: the
    window checks every engine at each refresh of its picker, and a real tokenizer.model
    (half a megabyte) takes a SentencePiece load to check."""
    paths = tuple(folder / name for name in layout.TOKENIZER_FILES)
    try:
        found = [os.stat(path) for path in paths]
    except OSError:  # missing, or a folder that can't be entered: named elsewhere
        return None
    if not all(stat.S_ISREG(item.st_mode) for item in found):
        return None
    versions = tuple((str(path), item.st_size, item.st_mtime_ns) for path, item in zip(paths, found, strict=True))
    problem = _problem_of_version(folder, versions)
    if problem is None:
        return None
    path = next((path for path in paths if problem.startswith(str(path))), folder)
    return Requirement(RequirementKind.FILE, f"{problem}: the engine can't load AnimeGamer's tokenizer.",
                       hint=TOKENIZER_CURE, path=str(path))


@functools.lru_cache(maxsize=32)
def _problem_of_version(folder: Path, versions: tuple[tuple[str, int, int], ...]) -> str | None:
    """:func:`tokenizer_problem` for one version of the files (``versions`` is the cache key)."""
    return tokenizer_problem(folder)
