"""Shared fixtures: a fresh project in a temp folder, the AnimeGamer fixture folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO_ROOT = Path(__file__).resolve().parents[1]
ANIMEGAMER_FIXTURES = REPO_ROOT.parent / "shared" / "fixtures" / "animegamer"


@pytest.fixture
def animegamer_fixtures() -> Path:
    if not ANIMEGAMER_FIXTURES.is_dir():
        pytest.skip(f"AnimeGamer fixtures not found at {ANIMEGAMER_FIXTURES}")
    return ANIMEGAMER_FIXTURES


@pytest.fixture
def demo_file(animegamer_fixtures: Path) -> Path:
    return animegamer_fixtures / "game_demo" / "demo.txt"


@pytest.fixture
def project(tmp_path: Path):  # type: ignore[no-untyped-def]
    from studio.storage import Project

    with Project.create(tmp_path / "story") as opened:
        yield opened
