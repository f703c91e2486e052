"""KAMISHIBAI_ENGINE_HOST set to a value that is not a host mode (a typo: `inprocess`,
`bogus`) ended `play`, `reroll`, `fill` and `run-queue` with "internal error: ValueError:
'bogus' is not a valid HostMode": argparse checks --engine-host's choices only for a value
typed on the command line, not for its default, which comes from the variable. It is refused
now with exit status 2, naming the variable and its values, before anything is written; a
value written in another case is read, and --engine-host on the command line still wins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main

TURN = "Character: Qiqi; Motion: run; Background: day town."


def _turns(project: Path, capsys: pytest.CaptureFixture[str]) -> int:
    capsys.readouterr()
    assert main(["tree", str(project), "--json"]) == 0
    return len(json.loads(capsys.readouterr().out)["nodes"]) - 1


@pytest.mark.parametrize("command", [["play", "{project}", TURN], ["fill", "{project}", "--run"]])
def test_a_mistyped_variable_is_refused_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    project = tmp_path / "story.kamishibai"
    assert main(["new", str(project)]) == 0
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "inprocess")
    capsys.readouterr()
    assert main([item.format(project=project) for item in command]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "kamishibai: error: KAMISHIBAI_ENGINE_HOST is 'inprocess'" in err, err
    assert "'process' (the default) or 'in-process'" in err and "internal error" not in err
    assert _turns(project, capsys) == 0  # play kept no turn


def test_other_cases_are_read_and_the_option_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "story.kamishibai"
    assert main(["new", str(project)]) == 0
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "In-Process")
    assert main(["play", str(project), TURN]) == 0
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "bogus")
    assert main(["play", str(project), TURN, "--engine-host", "in-process"]) == 0
    assert _turns(project, capsys) == 2
