"""CustomX loading a converted folder whose weights file was cut short after the conversion
(an interrupted copy): a load error naming the file, not a bare SafetensorError."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.engines.base import EngineConfig, EngineLoadError  # noqa: E402
from studio.engines.catalog import customx as catalog  # noqa: E402
from studio.engines.catalog.customx import TEST_INFO  # noqa: E402
from studio.engines.customx.engine import CustomXEngine  # noqa: E402
from studio.engines.customx.tiny import write_tiny_checkpoints  # noqa: E402


def test_a_cut_short_weights_file_is_a_load_error_naming_it(tmp_path: Path) -> None:
    write_tiny_checkpoints(tmp_path)
    path = tmp_path / catalog.NAME / catalog.VAE_FILE
    path.write_bytes(path.read_bytes()[:200])
    engine = CustomXEngine(EngineConfig(checkpoints=tmp_path), info=TEST_INFO)
    with pytest.raises(EngineLoadError) as raised:
        engine.load()
    assert str(path) in raised.value.message and "convert" in raised.value.hint
    assert not engine.loaded
