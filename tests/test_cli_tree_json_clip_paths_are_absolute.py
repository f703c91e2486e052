"""`tree --json` gives each take's `clip` as `play --json` gives it: an absolute path a script
can open from any folder (it was relative to the project in one and absolute in the other)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main

QUICK = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")


def test_tree_json_and_play_json_give_the_same_clip_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    monkeypatch.chdir(tmp_path)
    assert main(["new", "story"]) == 0
    capsys.readouterr()
    assert main(["play", "story.kamishibai", "-i", "Character: Qiqi; Motion: run; Background: day town.", *QUICK,
                 "--seed", "1", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # a script run from another folder, given a relative project path
    assert main(["tree", "../story.kamishibai", "--json"]) == 0
    nodes = json.loads(capsys.readouterr().out)["nodes"]
    (take,) = next(node for node in nodes if node["id"] == played["node"])["takes"]
    assert take["id"] == played["take"]
    assert take["clip"] == played["clip"]
    assert Path(take["clip"]).is_absolute() and Path(take["clip"]).is_file()
    folder = (tmp_path / "story.kamishibai").resolve() / "media" / "takes" / take["id"]
    assert Path(take["clip"]) == folder / f"take-{take['id']}.mp4"
