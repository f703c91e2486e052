"""An instruction of invisible characters only is empty, and a blank ``Character:`` beside a
motion is refused by every way in, as the demo file reader refuses it.

``kamishibai play P "<U+200B>"`` made a turn whose SRT cue read "<U+200B>." while "" and "   "
were refused; ``play P "Character: ; Motion: run; Background: park"`` made a turn captioned
"Run in the park." (no one in it) where import-demo refuses the same line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio.core.commands import AddTurn
from studio.core.instruction import InstructionError, parse_instruction, validate_instruction_text

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200e", "\u200f", "\u200b \u200b", " \u2060\t"[:2],
             "\u00ad", "\u3164", "\ufe0f"]


@pytest.mark.parametrize("text", INVISIBLE)
def test_only_invisible_characters_are_an_empty_instruction(text: str) -> None:
    with pytest.raises(InstructionError, match="The instruction is empty"):
        validate_instruction_text(text)
    assert parse_instruction(text).is_empty


def test_the_message_names_what_was_typed() -> None:
    with pytest.raises(InstructionError) as raised:
        validate_instruction_text("\u200b")
    assert "U+200B, a zero-width space" in raised.value.message


@pytest.mark.parametrize("text", ["👨\u200d👩\u200d👧 waves", "👨\u200d👩\u200d👧", "Qiqi\u200b runs", "❤\ufe0f",
                                  "\u200fשלום"])
def test_text_that_shows_something_is_kept(text: str) -> None:
    assert validate_instruction_text(text) == text
    assert not parse_instruction(text).is_empty


@pytest.mark.parametrize("text", [
    "Character: ; Motion: run; Background: park",
    "Character:; Motion: run",
    "Character: \u200b; Motion: run; Background: park",
    "Character: ; Background: park",
    "Character: ; Qiqi waves",
    "キャラクター：；動作：走る；背景：公園",
    "角色：；动作：跑步",
])
def test_a_blank_character_beside_what_happens_is_refused(text: str) -> None:
    with pytest.raises(InstructionError, match="leaves its character empty") as raised:
        validate_instruction_text(text)
    assert "leave the field out" in (raised.value.hint or "")


@pytest.mark.parametrize("text", [
    "Motion: run; Background: park",  # no Character field: the branch's character goes on
    "Character: ; Motion: ; Background: .",  # a form with nothing filled in says nothing
    "Character: Qiqi; Motion: ; Background: .",
    "Qiqi runs in the park",
])
def test_other_turns_stay_accepted(text: str) -> None:
    assert validate_instruction_text(text) == text


def test_the_window_and_the_command_line_refuse_through_the_core(project) -> None:  # type: ignore[no-untyped-def]
    before = len(project.tree.nodes)
    for text in ("\u200b", "Character: ; Motion: run; Background: park"):
        with pytest.raises(InstructionError):
            project.apply(AddTurn(project.tree.root_id, text))
    assert len(project.tree.nodes) == before  # nothing lost, nothing added


def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


def test_play_refuses_them_as_import_demo_does(tmp_path: Path) -> None:
    assert kamishibai("new", "P", cwd=tmp_path).returncode == 0
    invisible = kamishibai("play", "P", "\u200b", cwd=tmp_path)
    assert invisible.returncode != 0
    assert "The instruction is empty" in invisible.stderr and "Traceback" not in invisible.stderr
    line = "Character: ; Motion: run; Background: park"
    blank = kamishibai("play", "P", line, cwd=tmp_path)
    assert blank.returncode != 0
    assert "leaves its character empty" in blank.stderr and "Traceback" not in blank.stderr
    demo = tmp_path / "demo.txt"
    demo.write_text(line + "\n", encoding="utf-8")
    imported = kamishibai("import-demo", str(demo), "--project", "P", cwd=tmp_path)
    assert imported.returncode != 0 and "leaves its character empty" in imported.stderr  # the same words
    tree = kamishibai("tree", "P", "--json", cwd=tmp_path)
    assert '"Run' not in tree.stdout and "\u200b" not in tree.stdout
