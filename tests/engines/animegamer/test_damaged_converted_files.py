"""The engines loading converted folders that were damaged after the conversion: a weights
file cut short (an interrupted copy) and a hand-edited ``model.json`` are load errors that
name the file, not a SafetensorError or a TypeError from deep inside building the model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from studio.engines.animegamer.engine import AnimeGamerEngine  # noqa: E402
from studio.engines.animegamer.sizes import TINY, ModelSize  # noqa: E402
from studio.engines.base import EngineLoadError  # noqa: E402
from studio.engines.catalog import animegamer_layout as layout  # noqa: E402
from studio.engines.catalog.animegamer import TEST_INFO  # noqa: E402
from studio.engines.config import EngineConfig  # noqa: E402


def _cut_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:200])


@pytest.mark.parametrize("name", [layout.BASE_FILE, f"qiqi/{layout.DECODER_FILE}"])
def test_a_cut_short_weights_file_is_a_load_error_naming_it(tiny: Path, name: str) -> None:
    path = tiny / "animegamer" / name
    _cut_short(path)
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    with pytest.raises(EngineLoadError) as raised:
        engine.load()
    assert str(path) in raised.value.message and "convert" in raised.value.hint
    assert not engine.loaded


@pytest.mark.parametrize(("part", "field", "value"), [("mllm", "hidden", "32"), ("decoder", "layers", 0),
                                                       ("mllm", "rms_eps", None), ("vae", "channels", [8, True])])
def test_a_hand_edited_size_is_a_load_error_naming_the_field(tiny: Path, part: str, field: str,
                                                             value: object) -> None:
    path = tiny / "animegamer" / "qiqi" / layout.MODEL_FILE
    record = json.loads(path.read_text(encoding="utf-8"))
    record["size"][part][field] = value
    path.write_text(json.dumps(record), encoding="utf-8")
    engine = AnimeGamerEngine(EngineConfig(checkpoints=tiny), info=TEST_INFO)
    with pytest.raises(EngineLoadError, match=rf"model\.json can't be read: .*\.{field} is"):
        engine.load()


def test_the_sizes_still_read_back() -> None:
    assert ModelSize.from_json(TINY.to_json()) == TINY and ModelSize.from_json(ModelSize().to_json()) == ModelSize()
