"""AnimeGamer's tokenizer files checked one by one, naming the first that can't be read.

A damaged ``tokenizer.model`` was copied by the converter as if whole, and the engine's load
then failed in transformers with "`tiktoken` is required to read a `tiktoken` file. Install
it with `pip install tiktoken`" (its fallback for a file that is no SentencePiece model),
which sent users to install a package instead of copying the file again. Without torch.
"""

from __future__ import annotations

import json
from pathlib import Path

from studio.engines.catalog import animegamer_layout as layout


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
