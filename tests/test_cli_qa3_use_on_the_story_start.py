"""`kamishibai use P root TAKE` says the story's start has no takes.

QA: it said "Turn f77e6b04ca has no take yet." with the hint "Generate one: kamishibai
reroll PATH f77e6b04ca.", a command that is refused ("The story's start has no clip to
generate"): the start is not a turn, and no command gives it a take."""

from __future__ import annotations

from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project


@pytest.mark.parametrize("start", ["root", "start"])
def test_use_on_the_story_start_names_the_start_and_suggests_no_refused_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], start: str) -> None:
    path = import_demo_project(tmp_path, monkeypatch, generate=True)
    with Project.open(path, read_only=True) as project:
        root_id = project.tree.root_id
    capsys.readouterr()
    assert main(["use", str(path), start, "1"]) == 2
    err = capsys.readouterr().err
    assert "The story's start has no takes" in err, err
    assert "reroll" not in err and f"Turn {root_id}" not in err, err
    assert main(["use", str(path), root_id[:6], "1"]) == 2  # by its id: the same
    assert "The story's start has no takes" in capsys.readouterr().err
    assert main(["reroll", str(path), root_id]) == 2  # what the old hint offered is still refused
