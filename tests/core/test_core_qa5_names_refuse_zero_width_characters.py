"""A speaker's, a character's or a location's name can't hold a character that shows as
nothing: "Qi", U+200B, "qi" printed as "Qiqi" on cards, sheets and subtitles, yet was another
speaker. U+200B, U+2060 and U+FEFF are refused anywhere; the joiners U+200C and U+200D only
where they join nothing (they are kept in emoji sequences, Persian words and Indic half-forms).
The refusal names the character and its position, as the control-character checks do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core.commands import AddCastMember, AddDialogueLine, AddLocation, AddTurn, CommandError, RenameCastMember
from studio.core.model import CastMember, Location
from studio.core.story import StoryFieldError, check_dialogue_line
from studio.core.text import first_zero_width
from studio.storage import Project

REPO = Path(__file__).resolve().parents[2]

REFUSED = [
    ("Qi\u200bqi", "U+200B, a zero-width space at character 3"),
    ("\ufeffQiqi", "U+FEFF, a zero-width no-break space at character 1"),
    ("Qiqi\u2060", "U+2060, a word joiner at character 5"),
    ("Qi\u200dqi", "U+200D, a zero-width joiner at character 3"),
    ("Qi\u200cqi", "U+200C, a zero-width non-joiner at character 3"),
    ("\u30ad\u200d\u30ad", "U+200D, a zero-width joiner at character 2"),  # kana join nothing
    ("\U0001F308\u200d", "U+200D, a zero-width joiner at character 2"),  # joins the emoji to nothing
]
KEPT = [
    "\U0001F468\u200d\U0001F469\u200d\U0001F467",  # a family
    "\U0001F3F3\ufe0f\u200d\U0001F308",  # a rainbow flag
    "\U0001F9D1\U0001F3FD\u200d\U0001F4BB",  # a technologist with a skin tone
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian, with its non-joiner
    "\u0915\u094d\u200d\u0937",  # Devanagari half-form
]


@pytest.mark.parametrize("name,shown", REFUSED)
def test_a_speaker_name_with_a_zero_width_character_is_refused(name: str, shown: str) -> None:
    with pytest.raises(StoryFieldError) as refused:
        check_dialogue_line(name, "Hello!")
    assert f"The speaker's name {name!r} holds {shown}: it shows as nothing" in refused.value.message
    assert refused.value.hint


@pytest.mark.parametrize("name", KEPT)
def test_joiners_that_join_are_kept_in_names(project: Project, name: str) -> None:
    assert first_zero_width(name) is None
    assert check_dialogue_line(name, "Hello!").speaker == name
    project.apply(AddCastMember(CastMember(id="m1", name=name)))
    assert project.tree.cast["m1"].name == name


@pytest.mark.parametrize("name,shown", REFUSED)
def test_cast_and_location_names_with_a_zero_width_character_are_refused(project: Project, name: str,
                                                                          shown: str) -> None:
    with pytest.raises(CommandError) as refused:
        project.apply(AddCastMember(CastMember(id="m1", name=name)))
    assert f"The name {name!r} holds {shown}" in refused.value.message and "zero-width" in refused.value.hint
    assert "m1" not in project.tree.cast
    with pytest.raises(CommandError) as refused:
        project.apply(AddLocation(Location(id="l1", name=name)))
    assert f"The location name {name!r} holds {shown}" in refused.value.message
    assert "zero-width" in refused.value.hint


def test_renaming_a_character_to_a_lookalike_keeps_the_old_name(project: Project) -> None:
    project.apply(AddCastMember(CastMember(id="m1", name="Mei")))
    with pytest.raises(CommandError, match="U\\+200B, a zero-width space at character 2"):
        project.apply(RenameCastMember("m1", "M\u200bei"))
    assert project.tree.cast["m1"].name == "Mei"


def test_a_dialogue_line_added_to_a_turn_refuses_the_lookalike_speaker(project: Project) -> None:
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: wave.", node_id="turn1"))
    with pytest.raises(StoryFieldError, match="U\\+200B"):
        project.apply(AddDialogueLine("turn1", "Qi\u200bqi", "Hello!"))
    assert project.tree.node("turn1").story.dialogue == ()


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=120, check=False, env=dict(os.environ))


def test_say_refuses_a_speaker_with_a_zero_width_space(tmp_path: Path) -> None:
    folder = tmp_path / "story.kamishibai"
    with Project.create(folder) as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: wave.", node_id="turn1"))
    done = _kamishibai("say", str(folder), "turn1", "--speaker", "Qi\u200bqi", "Hello!")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "U+200B, a zero-width space at character 3" in done.stderr and "Traceback" not in done.stderr
    said = _kamishibai("say", str(folder), "turn1", "--speaker", "Qiqi", "Hello!")
    assert said.returncode == 0, said.stderr
    with Project.open(folder, read_only=True) as project:
        assert [line.speaker for line in project.tree.node("turn1").story.dialogue] == ["Qiqi"]
