"""`kamishibai say PATH root ...` and `narrate` on the story's start were refused with the
hint "Select a turn instead", the window's wording, though nothing is selected on the
command line. The refusal now says the start holds no story fields and that a turn does, in
words that fit the window and the command line alike."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core.commands import AddDialogueLine, CommandError, Fork, SetNarration
from studio.storage import Project

REPO = Path(__file__).resolve().parents[2]
REFUSAL = ("The story's start holds no story fields: dialogue, narration, a duration and shot notes belong to "
           "a turn.")
HINT = "Use one of the story's turns instead."


def test_story_fields_on_the_start_are_refused_naming_what_a_turn_holds(project: Project) -> None:
    root = project.tree.root_id
    for command in (AddDialogueLine(root, "Qiqi", "Hello!"), SetNarration(root, "It rained.")):
        with pytest.raises(CommandError) as refused:
            project.apply(command)
        assert refused.value.message == REFUSAL and refused.value.hint == HINT
    assert project.tree.node(root).story.is_empty


def test_other_refusals_of_the_start_keep_their_action_and_the_neutral_hint(project: Project) -> None:
    with pytest.raises(CommandError) as refused:
        project.apply(Fork(project.tree.root_id))
    assert refused.value.message == "The story's start can't be forked." and refused.value.hint == HINT


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=120, check=False, env=dict(os.environ))


def test_say_and_narrate_on_root_say_what_to_do_on_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "story.kamishibai"
    assert _kamishibai("new", str(folder)).returncode == 0
    for args in (("say", str(folder), "root", "--speaker", "Qiqi", "Hello!"),
                 ("narrate", str(folder), "root", "It rained.")):
        done = _kamishibai(*args)
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert REFUSAL in done.stderr and HINT in done.stderr, done.stderr
        assert "Select" not in done.stderr and "Traceback" not in done.stderr
