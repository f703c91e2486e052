"""Fixtures for the engine tests."""

from __future__ import annotations

import pytest

from studio.engines.sketch import SketchEngine


@pytest.fixture(scope="session")
def engine() -> SketchEngine:
    eng = SketchEngine()
    eng.load()
    return eng
