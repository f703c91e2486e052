"""CustomX loading a converted folder whose ``model.json`` was edited by hand: a dimension of
the wrong type, left out, negative, or a part that is not an object is a load error naming
``model.json`` and the field, not a TypeError from deep inside building the model or a
weight "of the wrong shape" (the released model's dimension filled in for the missing one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
pytest.importorskip("transformers")

from studio.engines.base import EngineConfig, EngineLoadError  # noqa: E402
from studio.engines.catalog import customx as catalog  # noqa: E402
from studio.engines.catalog.customx import TEST_INFO  # noqa: E402
from studio.engines.customx.engine import CustomXEngine  # noqa: E402
from studio.engines.customx.sizes import RELEASED, TINY, ModelSize  # noqa: E402
from studio.engines.customx.tiny import write_tiny_checkpoints  # noqa: E402

REMOVE = object()


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("customx")
    write_tiny_checkpoints(folder)
    return folder


@pytest.mark.parametrize(("part", "field", "value", "said"), [
    ("transformer", "heads", "2", "TransformerSize.heads is '2'"),
    ("transformer", "heads", REMOVE, "TransformerSize lacks heads"),
    ("transformer", "heads", -2, "TransformerSize.heads is -2"),
    ("transformer", "rope_axes", [4, 6], "TransformerSize.rope_axes is [4, 6]"),
    ("text", "max_length", 1.5, "TextSize.max_length is 1.5"),
    ("vae", None, [1], "VaeSize is list"),
])
def test_a_hand_edited_size_is_a_load_error_naming_the_field(converted: Path, tmp_path: Path, part: str,
                                                             field: str | None, value: object, said: str) -> None:
    import shutil

    shutil.copytree(converted, tmp_path / "checkpoints")
    path = tmp_path / "checkpoints" / catalog.NAME / catalog.MODEL_FILE
    record = json.loads(path.read_text(encoding="utf-8"))
    if field is None:
        record["size"][part] = value
    elif value is REMOVE:
        del record["size"][part][field]
    else:
        record["size"][part][field] = value
    path.write_text(json.dumps(record), encoding="utf-8")
    engine = CustomXEngine(EngineConfig(checkpoints=tmp_path / "checkpoints"), info=TEST_INFO)
    with pytest.raises(EngineLoadError) as raised:
        engine.load()
    assert str(path) in raised.value.message and said in raised.value.message
    assert not engine.loaded


def test_a_model_json_without_sizes_is_named(converted: Path, tmp_path: Path) -> None:
    import shutil

    shutil.copytree(converted, tmp_path / "checkpoints")
    path = tmp_path / "checkpoints" / catalog.NAME / catalog.MODEL_FILE
    path.write_text("[1, 2]", encoding="utf-8")
    engine = CustomXEngine(EngineConfig(checkpoints=tmp_path / "checkpoints"), info=TEST_INFO)
    with pytest.raises(EngineLoadError, match="model.json can't be read: not a CustomX size description"):
        engine.load()


def test_the_sizes_still_read_back() -> None:
    for size in (TINY, RELEASED):
        assert ModelSize.from_json(json.loads(json.dumps(size.to_json()))) == size
