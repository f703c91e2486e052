"""A take whose clip path in the project file leads outside the project (``../../x.mp4``, an
absolute path) is not read: the project empties that path when it opens. The export then
called the turn "a take without a clip", which the user could not square with the take the
tree lists as finished. It now says the clip is named by a path outside the project folder,
quoting the path, and the commands it names make the export work."""

from __future__ import annotations

import shlex
import sqlite3
from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main

from .helpers import Fixture


def _point_clip_at(story: Fixture, node: str, stored: str) -> Path:
    path = story.project.path
    story.project.close()
    with sqlite3.connect(path / "project.db") as db:  # as a hand edit or another program would
        db.execute("UPDATE takes SET clip_path = ? WHERE node_id = ?", (stored, node))
    db.close()
    return path


@pytest.mark.parametrize("stored", ["../../x.mp4", "/etc/passwd"])
def test_the_path_outside_is_named(story: Fixture, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   stored: str) -> None:
    node = story.nodes[1]
    project = _point_clip_at(story, node, stored)
    assert main(["export", str(project), "--leaf", story.leaf, "--out", str(tmp_path / "e.mp4"), "-q"]) \
        == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"the clip of turn 2 (node {node}" in err and "a path outside the project folder" in err, err
    assert repr(stored) in err, err
    assert "a take without a clip" not in err, err
    assert f"`kamishibai reroll {shlex.quote(str(project))} {node}`" in err, err
    assert not (tmp_path / "e.mp4").exists()


def test_the_commands_named_make_the_export_work(story: Fixture, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    project = _point_clip_at(story, story.nodes[0], "../../x.mp4")
    out = tmp_path / "e.mp4"
    assert main(["export", str(project), "--leaf", story.leaf, "--out", str(out), "-q"]) == EXIT_BAD_INPUT
    hint = next(line for line in capsys.readouterr().err.splitlines() if line.startswith("  hint: "))
    commands = [shlex.split(part)[1:] for part in hint.split("`")[1::2] if part.startswith("kamishibai reroll")
                or part.startswith("kamishibai use")]
    assert [command[0] for command in commands] == ["reroll", "use"], hint
    for command in commands:
        assert main(command) == 0
    capsys.readouterr()
    assert main(["export", str(project), "--leaf", story.leaf, "--out", str(out), "-q"]) == 0
    assert out.stat().st_size > 0


def test_a_clip_file_that_links_outside_is_called_a_link(story: Fixture, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    take = story.project.tree.selected_take(story.nodes[1])
    assert take is not None
    clip = story.project.resolve(take.clip_path)
    outside = tmp_path / "elsewhere.mp4"
    clip.rename(outside)
    clip.symlink_to(outside)
    project = story.project.path
    story.project.close()
    assert main(["export", str(project), "--leaf", story.leaf, "--out", str(tmp_path / "e.mp4"), "-q"]) \
        == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "is a link to a file outside the project folder" in err and str(outside) in err, err
    assert "a copy of that file put in place of the link" in err and "a take without a clip" not in err, err
