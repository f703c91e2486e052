"""A node's notes were stored whatever they held (NUL, ESC, a bell...), while every other
field a user types refuses control characters. Notes are the author's multi-line scratch pad:
line breaks and tabs stay allowed; any other control character is refused by its code point
and position, and the notes stay as they were."""

from __future__ import annotations

import pytest

from studio.core.commands import AddTurn, CommandError, SetNotes
from studio.storage import Project

LINE = "Character: Qiqi; Motion: run; Background: day town."


@pytest.mark.parametrize("notes,shown,position", [
    ("rain\x00later", "U+0000, NUL", 5), ("\x1b[2Jwipe", "U+001B, ESC", 1), ("ding\x07", "U+0007, BEL", 5),
    ("a\rb", "U+000D, a carriage return", 2), ("next\x85line", "U+0085, a next-line control", 5),
    ("del\x7f", "U+007F, DEL", 4),
])
def test_notes_name_the_control_character_and_where_it_is(project: Project, notes: str, shown: str,
                                                           position: int) -> None:
    project.apply(AddTurn(project.tree.root_id, LINE, node_id="t1"))
    project.apply(SetNotes("t1", "kept"))
    with pytest.raises(CommandError) as raised:
        project.apply(SetNotes("t1", notes))
    assert raised.value.message == f"The notes hold a control character ({shown}) at character {position}."
    assert "line breaks and tabs" in raised.value.hint
    assert project.tree.nodes["t1"].notes == "kept"
    project.close()
    with Project.open(project.path, read_only=True) as again:
        assert again.tree.nodes["t1"].notes == "kept"


def test_line_breaks_and_tabs_are_kept_and_windows_line_ends_become_line_breaks(project: Project) -> None:
    root = project.tree.root_id
    project.apply(SetNotes(root, "todo:\n\t- rain\r\n\t- bakery \u2028ok"))
    assert project.tree.nodes[root].notes == "todo:\n\t- rain\n\t- bakery \u2028ok"
    project.undo()
    assert project.tree.nodes[root].notes == ""


def test_a_lone_surrogate_is_refused_before_it_reaches_the_database(project: Project) -> None:
    root = project.tree.root_id
    with pytest.raises(CommandError, match=r"not valid text \(a lone surrogate, U\+D800, at character 3\)"):
        project.apply(SetNotes(root, "ab\ud800"))
    assert project.tree.nodes[root].notes == ""


@pytest.mark.parametrize("name,message", [
    ("", "A location needs a name."), ("  ", "A location needs a name."),
    ("Day\x1btown", "The location name 'Day\\x1btown' holds a control character (U+001B, ESC) at character 4."),
])
def test_a_location_needs_a_name_without_control_characters(project: Project, name: str, message: str) -> None:
    from studio.core.commands import AddLocation
    from studio.core.model import Location

    with pytest.raises(CommandError) as raised:
        project.apply(AddLocation(Location(id="l1", name=name)))
    assert raised.value.message == message
    assert project.tree.locations == {}
