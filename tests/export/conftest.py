"""Fixtures for export tests (helpers live in :mod:`.helpers`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import Fixture, build


@pytest.fixture
def story(tmp_path: Path) -> Iterator[Fixture]:
    fixture = build(tmp_path)
    yield fixture
    fixture.project.close()
