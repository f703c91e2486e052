"""AnimeGamer loading a character whose hand-edited ``model.json`` lacks a dimension: a load
error naming ``model.json`` and the dimension, not the released model's value filled in for
it (the load then failed on the first weight's shape, far from the file's mistake)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from studio.engines.animegamer.engine import AnimeGamerEngine  # noqa: E402
from studio.engines.base import EngineLoadError  # noqa: E402
from studio.engines.catalog import animegamer_layout as layout  # noqa: E402
from studio.engines.catalog.animegamer import TEST_INFO  # noqa: E402
from studio.engines.config import EngineConfig  # noqa: E402


@pytest.mark.parametrize(("part", "field", "said"), [("mllm", "hidden", "MLLMSize lacks hidden"),
                                                     ("decoder", "layers", "DecoderSize lacks layers"),
                                                     ("vae", "channels", "VAESize lacks channels")])
def test_a_missing_dimension_is_a_load_error_naming_it(tiny: Path, part: str, field: str, said: str) -> None:
    path = tiny / "animegamer" / "qiqi" / layout.MODEL_FILE
    record = json.loads(path.read_text(encoding="utf-8"))
    del record["size"][part][field]
    path.write_text(json.dumps(record), encoding="utf-8")
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    with pytest.raises(EngineLoadError) as raised:
        engine.load()
    assert str(path) in raised.value.message and said in raised.value.message
    assert not engine.loaded


def test_a_size_part_that_is_not_an_object_is_named(tiny: Path) -> None:
    path = tiny / "animegamer" / "qiqi" / layout.MODEL_FILE
    record = json.loads(path.read_text(encoding="utf-8"))
    record["size"]["decoder"] = [32, 2]
    path.write_text(json.dumps(record), encoding="utf-8")
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    with pytest.raises(EngineLoadError, match="DecoderSize is list, not an object"):
        engine.load()
