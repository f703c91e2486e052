"""`kamishibai note` reads and writes a turn's notes (the window's Notes box, the document's
SetNotes), `tree` and `story` show them; bad input is refused with the notes unchanged, a
project the window holds is read but not written, and Ctrl+C while waiting for it changes
nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from stop_midway import interrupt_once_said  # tests/ is on sys.path

from studio.storage import Project


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)


@pytest.fixture
def story(tmp_path: Path) -> tuple[Path, str]:
    """A project of one turn (with a take), and that turn's id."""
    project = tmp_path / "n.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    played = kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park")
    assert played.returncode == 0, played.stderr
    with Project.open(project, read_only=True) as opened:
        (turn,) = [node.id for node in opened.tree.nodes.values() if not node.is_root]
    return project, turn


def _notes(project: Path, turn: str) -> str:
    with Project.open(project, read_only=True) as opened:
        return opened.tree.node(turn).notes


def test_notes_are_written_read_back_and_shown(story: tuple[Path, str]) -> None:
    project, turn = story
    empty = kamishibai("note", str(project), turn)
    assert empty.returncode == 0 and "has no notes" in empty.stdout, empty.stdout
    written = kamishibai("note", str(project), turn[:5], "wide shot first\r\n\tthen a close-up")
    assert written.returncode == 0, written.stderr
    assert _notes(project, turn) == "wide shot first\n\tthen a close-up", "Windows line ends read as line breaks"
    read = kamishibai("note", str(project), turn, "--json")
    assert json.loads(read.stdout) == {"node": turn, "notes": "wide shot first\n\tthen a close-up"}

    tree = kamishibai("tree", str(project)).stdout.splitlines()
    assert tree[2].strip() == "note: wide shot first then a close-up", tree
    tree_json = json.loads(kamishibai("tree", str(project), "--json").stdout)
    assert [node["notes"] for node in tree_json["nodes"] if node["id"] == turn] == [_notes(project, turn)]
    shown = kamishibai("story", str(project), turn)
    assert "  notes: wide shot first⏎ then a close-up" in shown.stdout.splitlines(), shown.stdout
    assert json.loads(kamishibai("story", str(project), turn, "--json").stdout)["notes"] == _notes(project, turn)

    start = kamishibai("note", str(project), "start", "the cast meets here")  # the start keeps notes too
    assert start.returncode == 0 and "notes of the story's start" in start.stdout

    cleared = kamishibai("note", str(project), turn, "--clear")
    assert cleared.returncode == 0 and _notes(project, turn) == ""
    kamishibai("note", str(project), turn, "again")
    assert kamishibai("note", str(project), turn, "").returncode == 0 and _notes(project, turn) == ""


def test_a_text_starting_with_a_dash_is_the_notes(story: tuple[Path, str]) -> None:
    project, turn = story
    written = kamishibai("note", str(project), turn, "- a list item")
    assert written.returncode == 0, written.stderr
    assert _notes(project, turn) == "- a list item"


@pytest.mark.parametrize(("args", "said"), [
    (["zz99", "x"], "No node 'zz99' in this project."),
    (["TURN", "bell\x07"], "The notes hold a control character (U+0007"),
    (["TURN", "x", "--clear"], "Give the new notes or --clear, not both."),
])
def test_bad_input_is_refused_and_changes_nothing(story: tuple[Path, str], args: list[str], said: str) -> None:
    project, turn = story
    kamishibai("note", str(project), turn, "kept")
    refused = kamishibai("note", str(project), *[turn if arg == "TURN" else arg for arg in args])
    assert refused.returncode == 2
    assert said in refused.stderr, refused.stderr
    assert _notes(project, turn) == "kept"


def test_a_project_held_by_the_window_is_read_not_written(story: tuple[Path, str]) -> None:
    project, turn = story
    kamishibai("note", str(project), turn, "kept")
    with Project.open(project):  # as the window holds it
        read = kamishibai("note", str(project), turn)
        refused = kamishibai("note", str(project), turn, "new words", "--wait", "0")
    assert read.returncode == 0 and "kept" in read.stdout
    assert refused.returncode == 2 and "is being changed by" in refused.stderr, refused.stderr
    assert _notes(project, turn) == "kept"


def test_ctrl_c_while_waiting_for_the_window_writes_nothing(story: tuple[Path, str]) -> None:
    project, turn = story
    kamishibai("note", str(project), turn, "kept")
    with Project.open(project):
        running = subprocess.Popen([sys.executable, "-m", "studio", "note", str(project), turn, "new", "--wait", "60"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
        assert interrupt_once_said(running, b"waiting for") == 130
    assert _notes(project, turn) == "kept"
