"""A take's id given where a turn is asked for (`play` prints both: "node 0d03…  take 42fa…")
is refused naming the turn it belongs to; it said only "No node '42fa…' in this project"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main

QUICK = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")


def test_a_take_id_for_a_turn_names_the_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    assert main(["new", "story"]) == 0
    capsys.readouterr()
    assert main(["play", "story", "-i", "Character: Qiqi; Motion: run; Background: day town.", *QUICK,
                 "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    node, take = played["node"], played["take"]
    for command in (["reroll", "story", take], ["play", "story", "--parent", take[:6], "Motion: wave."],
                    ["export", "story", "--leaf", take.upper(), "--out", "x.srt"], ["say", "story", take, "Hi!"]):
        assert main(command) == EXIT_BAD_INPUT, command
        err = capsys.readouterr().err
        assert f"of turn {node}, not a turn's id." in err and f"hint: Give the turn's id: {node}." in err, err
    assert not (tmp_path / "x.srt").exists()
    assert main(["reroll", "story", node[:6], *QUICK]) == 0  # the turn's own id still works
    capsys.readouterr()
    assert main(["reroll", "story", "zz"]) == EXIT_BAD_INPUT  # an id of neither: as before
    assert "No node 'zz' in this project." in capsys.readouterr().err
