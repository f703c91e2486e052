"""U+2028 and U+2029 lay text out on two lines (Qt, browsers, JSON readers): the demo reader
refused them in a turn's line, but `play`, the editor and the document commands accepted them in
an instruction, and in a dialogue line. One-line fields now refuse them, naming them and where
they are; narration and shot notes, which may hold line breaks, keep them."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.core.commands import AddDialogueLine, AddTurn, EditInstruction, SetNarration
from studio.core.instruction import InstructionError
from studio.core.story import StoryFieldError
from studio.storage import Project
from studio.storage.demo_import import parse_demo_text


@pytest.mark.parametrize("char,shown", [("\u2028", "U+2028, a line separator"),
                                        ("\u2029", "U+2029, a paragraph separator")])
def test_an_instruction_refuses_a_unicode_line_break(project: Project, char: str, shown: str) -> None:
    with pytest.raises(InstructionError) as raised:
        project.apply(AddTurn(project.tree.root_id, f"Qiqi runs{char}Qiqi sits"))
    assert raised.value.message == f"The instruction holds a line break ({shown}) at character 10."
    project.apply(AddTurn(project.tree.root_id, "Qiqi runs", node_id="t1"))
    with pytest.raises(InstructionError, match="U\\+2028|U\\+2029"):
        project.apply(EditInstruction("t1", f"Qiqi{char}runs"))
    with pytest.raises(StoryFieldError) as story_raised:
        project.apply(AddDialogueLine("t1", "Qiqi", f"I'm{char}late"))
    assert story_raised.value.message == f"The dialogue line holds a line break ({shown}) at character 4."
    project.apply(SetNarration("t1", f"The town{char}wakes up."))  # narration may hold line breaks
    assert project.tree.nodes["t1"].story.narration == f"The town{char}wakes up."


def test_play_refuses_it_and_the_demo_reader_still_reports_it(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "story.kamishibai"
    assert main(["new", str(folder)]) == 0
    assert main(["play", str(folder), "-i", "Qiqi runs\u2028Qiqi sits"]) == 2
    assert "line break (U+2028, a line separator) at character 10" in capsys.readouterr().err
    story = parse_demo_text("Qiqi jumps\u2028Qiqi runs\nQiqi sits\n")
    assert [number for number, _reason in story.problems] == [1] and "U+2028" in story.problems[0][1]
