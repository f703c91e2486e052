"""A dialogue line made only of characters that show nothing (an ideographic space, a
zero-width space, joiners, direction marks, variation selectors, a Hangul filler) was
stored, and exported as an empty caption or subtitle. It is refused, as an empty line is,
by the check every edit goes through (`kamishibai say` and the window alike); a speaker's
name of such characters is refused too. Narration and shot notes that show nothing are
stored as empty, as blank ones are: the turn then has no narration."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.core import AddTurn
from studio.core.commands import AddDialogueLine, SetNarration, SetShotNotes, SetStory
from studio.core.story import DialogueLine, StoryFieldError, StoryFields, check_dialogue_line, check_story
from studio.storage import Project

SHOWING_NOTHING = ["\u3000\u200b", "\u200b", "\u2060", "\u200d", "\u200c\u200c", "\u200e", "\u200f\ufe0f",
                   "\ufe0f", "\u3164", " \ufeff ", "\u3000"]


def _project(folder: Path) -> Path:
    with Project.create(folder) as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town",
                              node_id="n1"))
        return project.path


@pytest.mark.parametrize("text", [t for t in SHOWING_NOTHING if t.strip()])
def test_a_dialogue_line_that_shows_nothing_is_refused(text: str) -> None:
    with pytest.raises(StoryFieldError) as raised:
        check_dialogue_line("Qiqi", text)
    message = raised.value.message
    assert message.startswith("The dialogue line ") and "shows as nothing" in message
    first = text.strip(" ")[0]
    assert f"U+{ord(first):04X}" in message  # it names what the line is made of


def test_an_ideographic_space_is_named_though_stripping_takes_it_away() -> None:
    with pytest.raises(StoryFieldError) as raised:
        check_dialogue_line("Qiqi", "\u3000\u200b")
    assert "U+3000, an ideographic space" in raised.value.message
    assert "U+200B, a zero-width space" in raised.value.message


def test_a_speaker_name_that_shows_nothing_is_refused() -> None:
    for name in ("\u200f", "\ufe0f", "\u3164", "\u200e\u200f"):
        with pytest.raises(StoryFieldError, match="The speaker's name .* shows as nothing"):
            check_dialogue_line(name, "Hello!")


@pytest.mark.parametrize(("speaker", "text"), [
    ("Qiqi", "Hello!"), ("", "\u2764\ufe0f"), ("Qiqi", "\u200f!"),
    ("\u0642\u0627\u0644", "\u0645\u0631\u062d\u0628\u0627"),
    ("Qiqi", "\u3000\u3053\u3093\u306b\u3061\u306f"), ("Qiqi", "\U0001f468\u200d\U0001f469\u200d\U0001f467"),
])
def test_lines_that_show_something_are_kept(speaker: str, text: str) -> None:
    line = check_dialogue_line(speaker, text)
    assert line.text == text.strip()


def test_narration_and_notes_that_show_nothing_are_stored_as_empty() -> None:
    checked = check_story(StoryFields(narration="\u3000\u200b\n\u200f", shot_notes="\ufe0f \u2060"))
    assert checked.narration == "" and checked.shot_notes == ""
    assert checked.is_empty
    kept = check_story(StoryFields(narration="\u200bIt rains.\n", shot_notes="Pan \u2060left"))
    assert kept.narration == "\u200bIt rains." and kept.shot_notes == "Pan \u2060left"


def test_a_stored_project_keeps_nothing_of_a_refused_line(tmp_path: Path) -> None:
    path = _project(tmp_path / "p")
    with Project.open(path) as project:
        project.apply(AddDialogueLine("n1", "Qiqi", "Hello!"))
        with pytest.raises(StoryFieldError, match="shows as nothing"):
            project.apply(AddDialogueLine("n1", "Qiqi", "\u3000\u200b"))
        with pytest.raises(StoryFieldError, match="shows as nothing"):  # the window's form saves this way
            project.apply(SetStory("n1", StoryFields(dialogue=(DialogueLine("Qiqi", "Hello!"),
                                                               DialogueLine("Sosuke", "\u200b\u200d")))))
        project.apply(SetNarration("n1", "\u200b\u3000"))
        project.apply(SetShotNotes("n1", "\u2060"))
    with Project.open(path, read_only=True) as project:  # read back from the file
        story = project.tree.nodes["n1"].story
        assert story.dialogue == (DialogueLine("Qiqi", "Hello!"),)
        assert story.narration == "" and story.shot_notes == ""


def test_say_refuses_it_and_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _project(tmp_path / "p")
    assert main(["say", str(path), "n1", "--speaker", "Qiqi", "\u3000\u200b"]) == 2
    err = capsys.readouterr().err
    assert "The dialogue line" in err and "shows as nothing" in err and "U+200B" in err
    with Project.open(path, read_only=True) as project:
        assert project.tree.nodes["n1"].story.dialogue == ()
    assert main(["say", str(path), "n1", "--speaker", "Qiqi", "\u3000Hello\u200b"]) == 0
    with Project.open(path, read_only=True) as project:
        assert project.tree.nodes["n1"].story.dialogue == (DialogueLine("Qiqi", "Hello\u200b"),)
