"""Fixtures for the AnimeGamer tests: the real tokenizer, tiny converted checkpoints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .released_files import ANIMEGAMER_FIXTURES


@pytest.fixture(scope="session")
def real_tokenizer() -> Any:
    """AnimeGamer's tokenizer from the shared fixtures (skipped when absent)."""
    folder = ANIMEGAMER_FIXTURES / "tokenizer"
    if not (folder / "tokenizer.model").is_file():
        pytest.skip(f"AnimeGamer's tokenizer is not at {folder}")
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(folder))


@pytest.fixture(scope="session")
def demo_lines() -> list[str]:
    path = ANIMEGAMER_FIXTURES / "game_demo" / "demo.txt"
    if not path.is_file():
        pytest.skip(f"AnimeGamer's demo is not at {path}")
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A checkpoints folder with tiny converted weights for Qiqi."""
    from .tiny import tiny_checkpoints

    checkpoints = tmp_path / "checkpoints"
    tiny_checkpoints(checkpoints)
    return checkpoints
