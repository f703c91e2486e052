"""`kamishibai play --engine E` refuses, before adding a turn, an engine whose weights file is
cut short, naming the file and its sizes, as `kamishibai doctor` does. QA: the command's
check (``registry.check``) did not look at the file's header, so the turn was added, its job
failed with the loader's "Error while deserializing header: incomplete metadata, file not
fully covered", and nothing said which file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio import composition
from studio.cli import main


@pytest.fixture
def damaged_weights(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, int]:
    """The app's engines plus the fake heavy one, its weights under ``tmp_path/checkpoints``
    cut short by 10 bytes; their path and whole size."""
    from engines.contract.heavy_engine import INFO, write_weights  # tests/ is on sys.path

    monkeypatch.setattr(composition, "ENGINE_INFOS", (*composition.ENGINE_INFOS, INFO))
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    weights = write_weights(tmp_path / "checkpoints" / "heavy")
    whole = weights.stat().st_size
    os.truncate(weights, whole - 10)
    return weights, whole


def test_play_names_the_damaged_file_and_adds_no_turn(damaged_weights: tuple[Path, int], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    weights, whole = damaged_weights
    project = tmp_path / "story.kamishibai"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    code = main(["play", str(project), "-i", "Character: Qiqi; Motion: run.", "--engine", "heavy",
                 "--checkpoints", str(weights.parent.parent)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"The heavy engine can't run here: {weights} is {whole - 10:,} bytes, but its header describes " \
           f"{whole:,} (incomplete copy?)." in err, err
    assert "deserializing" not in err, err
    assert main(["tree", str(project)]) == 0
    assert capsys.readouterr().out.count("\n") == 1, "only the story's start: no turn was added"
