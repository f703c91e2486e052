"""A new turn's Character, Background and Time are not filled in from the turn before: the
branch's character, place and time are grey hints in the empty fields, so a character, place
and time written in the free text alone are the ones drawn; a turn that names none goes on
with the branch's, as the hints say.

Before, the new turn's form was filled with the previous turn's Character (Qiqi) and
Background (night bedroom), and "Yuzu runs to the beach at sunset" typed as free text drew
Qiqi in the bedroom at night, without a word. Real widgets, real sketch generations."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.ui.conftest import generate_first_branch


def _new_turn(window, qtbot, parent: str, field: str, words: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """Enter on ``parent``, ``words`` typed in the editor's ``field`` alone, generated: the new
    turn's take's conditioning (what the engine drew)."""
    ws = window.workspace
    before = set(ws.project.tree.nodes)
    ws.select(parent, center=False)
    ws.view.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    qtbot.keyClick(ws.view, Qt.Key.Key_Return)
    editor = ws.inspector.editor
    assert ws.inspector.draft_parent == parent
    assert [editor.character.text(), editor.background.text(), editor.time.currentText()] == ["", "", ""]
    assert editor.character.placeholderText() == "Qiqi (as before)"
    assert editor.background.placeholderText() == "bedroom (as before)"
    assert editor.time.lineEdit().placeholderText() == "night (as before)"
    box = getattr(editor, field)
    box.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClicks(box, words)
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(ws.project.tree.nodes) == len(before) + 1, timeout=10_000)
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=120_000)
    tree = ws.project.tree
    (made,) = set(tree.nodes) - before
    take = tree.selected_take(made)
    assert take is not None and take.clip_path, take
    return dict(take.conditioning)


def test_the_free_text_names_who_where_and_when_and_an_unnamed_turn_goes_on(
        make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)

    drawn = _new_turn(window, qtbot, leaf, "free_text", "Yuzu runs to the beach at sunset")
    assert (drawn["character"], drawn["location"], drawn["time_of_day"]) == ("Yuzu", "beach", "sunset"), drawn

    drawn = _new_turn(window, qtbot, leaf, "motion", "jump")
    assert (drawn["character"], drawn["location"], drawn["time_of_day"]) == ("Qiqi", "bedroom", "night"), drawn


def test_a_saved_new_turn_is_titled_by_who_its_free_text_names_or_the_branchs_character(
        make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Saved without generating, a new turn's card names who acts in it: the free text's
    character, else the branch's (its Character field is empty now: no longer "Turn")."""
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    titles = []
    for field, words in (("free_text", "Yuzu runs to the beach at sunset"), ("motion", "jump")):
        before = set(ws.project.tree.nodes)
        ws.select(leaf, center=False)
        ws.start_new_turn()
        getattr(ws.inspector.editor, field).setText(words)
        ws.inspector.editor.save_button.click()
        qtbot.waitUntil(lambda before=before: len(ws.project.tree.nodes) == len(before) + 1, timeout=10_000)
        (made,) = set(ws.project.tree.nodes) - before
        qtbot.waitUntil(lambda made=made: made in ws.scene.cards, timeout=5000)
        titles.append(ws.scene.cards[made].summary.title)
    assert titles == ["Yuzu", "Qiqi"]
