"""`kamishibai doctor` reports a weights file the engine's loader would refuse: a safetensors
file cut short (an interrupted copy or download) or grown, whose size is not the one its
header gives, or one whose header is not a safetensors header. QA: the doctor said the
engine was "available" (its check looks at the files being there), and its first turn then
failed while loading the weights."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from studio import composition
from studio.cli import main


@pytest.fixture
def heavy_weights(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The app's engines plus the fake heavy one, its weights written under ``tmp_path``."""
    from engines.contract.heavy_engine import INFO, write_weights  # tests/ is on sys.path

    monkeypatch.setattr(composition, "ENGINE_INFOS", (*composition.ENGINE_INFOS, INFO))
    return write_weights(tmp_path / "heavy")


def _heavy(capsys: pytest.CaptureFixture[str], checkpoints: Path) -> dict[str, Any]:
    capsys.readouterr()
    main(["doctor", "--json", "--checkpoints", str(checkpoints)])
    engines: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["engines"]
    return {e["name"]: e for e in engines}["heavy"]


def test_whole_weights_are_available(heavy_weights: Path, capsys: pytest.CaptureFixture[str]) -> None:
    heavy = _heavy(capsys, heavy_weights.parent.parent)
    assert heavy["available"] and heavy["reasons"] == []


@pytest.mark.parametrize("change", [-10, 7], ids=["cut-short", "grown"])
def test_weights_of_the_wrong_size_are_not_available(heavy_weights: Path, capsys: pytest.CaptureFixture[str],
                                                     change: int) -> None:
    whole = heavy_weights.stat().st_size
    os.truncate(heavy_weights, whole + change)
    heavy = _heavy(capsys, heavy_weights.parent.parent)
    assert not heavy["available"]
    assert heavy["reasons"] == [{
        "kind": "file", "path": str(heavy_weights), "expected_bytes": None, "hint": "Copy or convert the file again.",
        "message": f"{heavy_weights} is {whole + change:,} bytes, but its header describes {whole:,} "
                   "(incomplete copy?)."}]
    assert main(["doctor", "--checkpoints", str(heavy_weights.parent.parent)]) == 0  # sketch still runs here
    text = capsys.readouterr().out
    assert f"is {whole + change:,} bytes, but its header describes {whole:,}" in text


@pytest.mark.parametrize("content", [b"", b"\x05\x00\x00", b"\x10\x00\x00\x00\x00\x00\x00\x00not json at all!",
                                     b"\xff" * 64], ids=["empty", "too-short", "not-json", "huge-header"])
def test_a_file_that_is_no_safetensors_file_is_not_available(heavy_weights: Path, capsys: pytest.CaptureFixture[str],
                                                             content: bytes) -> None:
    heavy_weights.write_bytes(content)
    heavy = _heavy(capsys, heavy_weights.parent.parent)
    assert not heavy["available"]
    (reason,) = heavy["reasons"]
    assert reason["path"] == str(heavy_weights) and "not a safetensors file" in reason["message"], reason


def test_a_size_the_engine_checks_itself_is_reported_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from studio.composition import default_checkpoints

    shutil.copytree(default_checkpoints() / "mini", tmp_path / "mini")
    lm = tmp_path / "mini" / "lm.safetensors"
    os.truncate(lm, lm.stat().st_size - 100)
    capsys.readouterr()
    main(["doctor", "--json", "--checkpoints", str(tmp_path)])
    mini = {e["name"]: e for e in json.loads(capsys.readouterr().out)["engines"]}["mini"]
    assert [reason["path"] for reason in mini["reasons"]] == [str(lm)], mini["reasons"]
