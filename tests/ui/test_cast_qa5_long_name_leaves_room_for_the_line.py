"""Long character names and the dialogue lines: a long name in the cast leaves the lines
room to be read and typed (each line's speaker box grew to the longest name it offered, and
squeezed the line's text box beside it to a sliver); a name longer than a speaker may be
(a cast name may have 100 characters, a speaker's 60) is not offered as a speaker (chosen,
it was cut to 60 characters: a speaker the cast does not know)."""

from __future__ import annotations

from pathlib import Path

from studio.core.story import MAX_SPEAKER_CHARS

LONG_NAME = "Wolfeschlegelsteinhausenbergerdorff the Elder of the Mountain"[:MAX_SPEAKER_CHARS]
TOO_LONG_TO_SPEAK = "Wolfeschlegelsteinhausenbergerdorff the Elder of the Kamishibai Mountain and Seven Valleys"


def _offered(row) -> list[str]:  # type: ignore[no-untyped-def]
    return [row.speaker.itemText(i) for i in range(row.speaker.count())]


def test_a_long_cast_name_leaves_room_for_the_lines(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    assert len(LONG_NAME) == MAX_SPEAKER_CHARS
    ws.select(leaf, center=False)
    assert ws.inspector.story.rows, "the sample's last turn has a line"
    wanted = ws.inspector.story.rows[0].speaker.sizeHint().width()  # with the sample's short names
    ws.cast.add_character(LONG_NAME)
    ws.cast.add_character(TOO_LONG_TO_SPEAK)
    session.settle()
    qtbot.waitUntil(lambda: len(session.project.tree.cast) == len(tree.cast) + 2, timeout=5000)
    ws.select(tree.root_id, center=False)
    ws.select(leaf, center=False)
    story = ws.inspector.story
    row = story.rows[0]
    qtbot.waitUntil(lambda: LONG_NAME in _offered(row), timeout=5000)
    qtbot.wait(50)  # laid out
    assert row.speaker.sizeHint().width() == wanted  # not the long name's width
    assert row.text.width() >= 100
    assert row.speaker.currentText() == "Qiqi"  # the line's speaker, untouched
    row.speaker.setCurrentText(LONG_NAME)  # the long name can be chosen, and is kept whole
    assert row.line().speaker == LONG_NAME

    assert TOO_LONG_TO_SPEAK not in _offered(row)
    assert not any(name.startswith(TOO_LONG_TO_SPEAK[:MAX_SPEAKER_CHARS]) for name in _offered(row))


def test_a_new_line_of_a_character_too_long_to_speak_starts_without_a_speaker(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot) -> None:
    """A new line started with the acting character as its speaker could never be saved when
    that name was longer than a speaker's ("The speaker's name is 88 characters long")."""
    from studio.core.commands import EditInstruction

    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    ws.cast.add_character(TOO_LONG_TO_SPEAK)
    session.settle()
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    ws.apply(EditInstruction(turn, f"Character: {TOO_LONG_TO_SPEAK}; Motion: wave; Background: day town."))
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.acting_character(turn) == TOO_LONG_TO_SPEAK, timeout=5000)
    ws.select(tree.root_id, center=False)
    ws.select(turn, center=False)
    row = ws.inspector.story.add_dialogue_line()
    assert row.line().speaker == ""
