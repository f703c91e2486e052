"""A model.json whose sizes are not those of the weights beside it (edited, or from another
conversion) is blamed at load, not the weights file: the error named the 14 GB Mistral file and
said "Convert the weights again"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")

from studio.engines.animegamer.engine import AnimeGamerEngine
from studio.engines.base import EngineLoadError
from studio.engines.catalog import animegamer_layout as layout
from studio.engines.catalog.animegamer import TEST_INFO
from studio.engines.config import EngineConfig


def test_the_load_error_names_model_json(tiny: Path) -> None:
    record = tiny / "animegamer" / "qiqi" / layout.MODEL_FILE
    data = json.loads(record.read_text(encoding="utf-8"))
    data["size"]["mllm"]["hidden"] *= 2
    record.write_text(json.dumps(data), encoding="utf-8")
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    with pytest.raises(EngineLoadError) as raised:
        engine.load()
    assert raised.value.message.startswith(f"{record} does not describe these weights: "), raised.value.message
    assert "has shape" in raised.value.message
    assert raised.value.hint.startswith(f"{record} was edited or comes from another conversion"), raised.value.hint
    assert "--character qiqi" in raised.value.hint
    assert not engine.loaded
