"""An argument too many is reported by the command it was given to, with that command's usage
line (``kamishibai say ...``), not the top level's usage, which does not show the option the
user needed (``say P NODE Yuzu "Hello"`` wants ``--speaker Yuzu``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main


def test_a_surplus_argument_shows_the_commands_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p.kamishibai"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as stopped:
        main(["say", str(project), "abc", "Yuzu", "Hello there!"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "usage: kamishibai say" in err and "--speaker" in err
    assert "kamishibai say: error: unrecognized arguments: Hello there!" in err


def test_a_nested_command_names_itself(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["checkpoints", "doctor", "--no-such-option"])
    err = capsys.readouterr().err
    assert "usage: kamishibai checkpoints doctor" in err
    assert "unrecognized arguments: --no-such-option" in err


def test_a_surplus_option_before_the_command_stays_the_top_levels(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--bogus"])
    err = capsys.readouterr().err
    assert err.startswith("usage: kamishibai [-h]") and "unrecognized arguments: --bogus" in err
