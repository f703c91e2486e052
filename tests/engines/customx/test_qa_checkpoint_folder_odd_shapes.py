"""A CustomX checkpoint "folder" that is a file, or a model.json that is a folder, or one
written for another model, is a load error that says so and what to do; nothing is removed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")

from studio.engines.base import EngineConfig, EngineLoadError
from studio.engines.catalog.customx import TEST_INFO
from studio.engines.customx.engine import CustomXEngine


def _load(checkpoints: Path) -> EngineLoadError:
    engine = CustomXEngine(EngineConfig(checkpoints=checkpoints), info=TEST_INFO)
    with pytest.raises(EngineLoadError) as raised:
        engine.load()
    assert not engine.loaded
    return raised.value


def test_a_file_where_the_folder_belongs_is_named_as_such(tmp_path: Path) -> None:
    (tmp_path / "customx").write_text("downloaded notes")
    error = _load(tmp_path)
    assert error.message == f"{tmp_path / 'customx'} is a file, not the folder of CustomX's converted weights."
    assert "Move or rename that file" in error.hint and "convert-customx" in error.hint
    assert (tmp_path / "customx").read_text() == "downloaded notes"


def test_a_model_json_that_is_a_folder_says_so_in_words(tmp_path: Path) -> None:
    (tmp_path / "customx" / "model.json").mkdir(parents=True)
    error = _load(tmp_path)
    assert error.message == f"{tmp_path / 'customx' / 'model.json'} can't be read: Is a directory."
    assert "convert-customx" in error.hint


def test_another_models_description_is_not_taken_for_customx(tmp_path: Path) -> None:
    folder = tmp_path / "customx"
    folder.mkdir()
    (folder / "model.json").write_text(json.dumps({"engine": "animegamer", "lora_rank": 32}))
    error = _load(tmp_path)
    assert "not a CustomX size description" in error.message and str(folder / "model.json") in error.message
    assert json.loads((folder / "model.json").read_text())["engine"] == "animegamer"
