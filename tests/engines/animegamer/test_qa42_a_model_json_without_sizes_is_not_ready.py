"""A converted character whose model.json lacks the model's dimensions ({"foo": 1}, say) is
named by `checkpoints doctor` and by the engine's check, before a turn loads it: it passed
("Ready: Qiqi.") and the load then failed with "…model.json can't be read: 'size'." (a bare
key). A dimension group missing from "size" is named in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")

from studio.cli import main
from studio.engines.animegamer.sizes import ModelSize
from studio.engines.catalog import animegamer_layout as layout
from studio.engines.catalog.animegamer import TEST_INFO
from studio.engines.config import EngineConfig


def _rewrite(tiny: Path, record: object) -> Path:
    path = tiny / "animegamer" / "qiqi" / layout.MODEL_FILE
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_checkpoints_doctor_names_it_and_is_not_ready(tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _rewrite(tiny, {"foo": 1})
    assert main(["checkpoints", "doctor", "--checkpoints", str(tiny)]) == 1
    out = capsys.readouterr().out
    assert f"DAMAGED {path} has no \"size\" entry (the model's dimensions, which the conversion writes)" in out, out
    assert "Ready: Qiqi." not in out, out


def test_the_engines_check_names_it(tiny: Path) -> None:
    path = _rewrite(tiny, {"foo": 1})
    reasons = TEST_INFO.check(EngineConfig(checkpoints=tiny))
    named = [reason for reason in reasons if reason.path == str(path)]
    assert named, reasons
    assert "has no \"size\" entry" in named[0].message
    assert "Convert Qiqi again" in named[0].hint and "--character qiqi" in named[0].hint


def test_a_missing_group_is_said_in_words(tiny: Path) -> None:
    path = tiny / "animegamer" / "qiqi" / layout.MODEL_FILE
    record = json.loads(path.read_text(encoding="utf-8"))
    del record["size"]["name"]
    with pytest.raises(ValueError, match="not an AnimeGamer size description: it has no 'name' entry"):
        ModelSize.from_json(record["size"])
    _rewrite(tiny, record)
    assert "it has no 'name' entry" in (layout.model_json_problem(tiny / "animegamer", "qiqi") or "")
