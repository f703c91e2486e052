"""`--checkpoints` given one engine's own weights folder (`checkpoints/mini`) instead of the
folder that holds it (QA: `play --engine mini --checkpoints checkpoints/mini` said
"Missing checkpoints/mini/mini/config.json" with the hint "Put the mini weights in
checkpoints/mini/mini", about weights that were right there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main


@pytest.fixture
def project(tmp_path: Path) -> Path:
    assert main(["new", str(tmp_path / "story")]) == 0
    return tmp_path / "story.kamishibai"


def _engine_folder(parent: Path) -> Path:
    """A folder laid out as an engine's weights (its config.json and a weights file)."""
    folder = parent / "mini"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"model": {}}), encoding="utf-8")
    (folder / "lm.safetensors").write_bytes(b"\0" * 16)
    return folder


@pytest.mark.parametrize("command", ["play", "fill", "run-queue"])
def test_an_engines_own_folder_is_refused_naming_the_folder_to_give(
        project: Path, tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _engine_folder(tmp_path / "weights")
    extra = ["-i", "Motion: wave.", "--engine", "mini"] if command == "play" else []
    capsys.readouterr()
    assert main([command, str(project), "--checkpoints", str(folder), *extra]) == 2
    err = capsys.readouterr().err
    assert f"--checkpoints {folder} is the mini engine's own weights folder" in err, err
    assert f"Give the folder that holds it: --checkpoints {tmp_path / 'weights'}" in err, err
    assert "mini/mini" not in err
    capsys.readouterr()
    assert main(["tree", str(project), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["nodes"]) == 1  # no turn was added


def test_a_checkpoints_folder_that_happens_to_be_named_like_an_engine_is_used(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    checkpoints = tmp_path / "mini"  # holds mini/ (and nothing else): a checkpoints folder
    _engine_folder(checkpoints)
    capsys.readouterr()
    assert main(["play", str(project), "-i", "Motion: wave.", "--checkpoints", str(checkpoints), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["job_status"] == "done"  # the sketch engine needs no weights
