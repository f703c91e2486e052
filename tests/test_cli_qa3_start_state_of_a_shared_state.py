"""`start-state --character` in a project whose one state runs down each branch.

QA: `kamishibai start-state P --character Qiqi 5 5 5` in a project of the *branch* scope
printed "Qiqi starts at stamina 5, social 5, entertainment 5" and exited 0, but no turn reads
a character's own start there: `story P root`, the tree and the window's Start card went on
showing the shared start of 50. It is refused, saying why and how to switch the scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main


def _start(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(["story", str(path), "root", "--json"]) == 0
    return json.loads(capsys.readouterr().out)["start_states"]  # type: ignore[no-any-return]


def test_a_characters_start_is_refused_where_one_state_runs_down_each_branch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = import_demo_project(tmp_path, monkeypatch)
    assert main(["state-scope", str(path), "branch"]) == 0
    before = _start(path, capsys)

    assert main(["start-state", str(path), "--character", "Qiqi", "5", "5", "5"]) == 2
    out, err = capsys.readouterr()
    assert "starts at" not in out, out  # no claim of a change that nothing uses
    assert "one state down each branch" in err and "'Qiqi'" in err, err
    assert f"kamishibai state-scope {path} character" in err, err
    assert _start(path, capsys) == before  # nothing stored

    assert main(["start-state", str(path), "7", "8", "9"]) == 0  # the shared start is what this scope reads
    assert "each branch's state starts at stamina 7, social 8, fun 9" in capsys.readouterr().out
    with_scope = _start(path, capsys)
    assert with_scope["everyone"] == {"stamina": 7, "social": 8, "entertainment": 9}


def test_a_characters_start_is_set_once_each_turn_changes_its_characters_state(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = import_demo_project(tmp_path, monkeypatch)
    assert main(["state-scope", str(path), "branch"]) == 0
    assert main(["state-scope", str(path), "character"]) == 0
    capsys.readouterr()
    assert main(["start-state", str(path), "--character", "Qiqi", "5", "5", "5"]) == 0
    assert "Qiqi starts at stamina 5, social 5, fun 5" in capsys.readouterr().out
    assert _start(path, capsys)["characters"] == {"Qiqi": {"stamina": 5, "social": 5, "entertainment": 5}}
