"""A game_demo file that gives one turn two `> duration:` lines: the second is reported on
its line like any other odd line (the first is not silently replaced); --skip-bad keeps the
first."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project
from studio.storage.demo_import import parse_demo_text

DEMO = """Character: Qiqi; Motion: run; Background: day town.
> duration: 3
> narration: The town wakes up.
> duration: 5s
Character: Qiqi; Motion: wave; Background: day town.
> duration: 2
"""


def test_a_second_duration_for_a_turn_is_reported_on_its_line() -> None:
    story = parse_demo_text(DEMO)
    assert story.problems == [(4, "a second '> duration:' for the turn of line 1 (line 2 gave 3 s): give a turn "
                                  "one duration")]
    first, second = story.branches[0].turns
    assert first.story.duration == 3.0 and first.story.narration == "The town wakes up."
    assert second.story.duration == 2.0, "a duration for the next turn is its own"


def test_import_demo_refuses_it_and_skip_bad_keeps_the_first(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(DEMO, encoding="utf-8")
    folder = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(folder)]) == 2
    assert "line 4: a second '> duration:' for the turn of line 1" in capsys.readouterr().err
    assert not folder.exists(), "nothing was imported"
    assert main(["import-demo", str(demo), "--project", str(folder), "--skip-bad"]) == 0
    assert "skipped line 4: a second '> duration:'" in capsys.readouterr().out
    with Project.open(folder, read_only=True) as project:
        tree = project.tree
        turns = tree.descendants(tree.root_id)
        assert [node.story.duration for node in turns] == [3.0, 2.0]
