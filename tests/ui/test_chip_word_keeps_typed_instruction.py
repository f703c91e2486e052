"""Choosing one of the engine's words on a chip while the instruction is being edited keeps the
edit: the word goes into the typed line (it was put into the turn's stored line, and the
editor then showed that, throwing the unsaved typing away)."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import generate_first_branch


def test_a_chip_word_goes_into_the_line_being_typed(make_window, sample_project: Path, qtbot) -> None:
    from studio.ui.inspector.understanding import ChipField

    window = make_window(sample_project)
    generate_first_branch(window, qtbot)
    session, ws = window.session, window.workspace
    tree = session.project.tree
    turn = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(turn)
    inspector = ws.inspector
    qtbot.waitUntil(lambda: any(chip.field is ChipField.CAMERA for chip in inspector.chips.chips), timeout=5000)
    camera = next(chip for chip in inspector.chips.chips if chip.field is ChipField.CAMERA)
    word = "orbit" if camera.word != "orbit" else "follow"
    inspector.editor.motion.setText("slowly walk")  # typed, not saved
    inspector.editor.free_text.setText("with a big smile")

    inspector.chips.fix(ChipField.CAMERA, word)
    session.settle()

    stored = session.project.tree.node(turn).instruction
    assert stored.camera == word
    assert stored.motion == "walk" and stored.adverb == "slowly", stored.raw
    assert "with a big smile" in stored.raw
    qtbot.waitUntil(lambda: inspector.editor.camera.text() == word, timeout=5000)  # the turn's line shown
    assert inspector.editor.motion.text() == "slowly walk"
    assert inspector.editor.free_text.text() == "with a big smile"


def test_a_chip_word_without_typing_changes_only_that_field(make_window, sample_project: Path, qtbot) -> None:
    from studio.ui.inspector.understanding import ChipField

    window = make_window(sample_project)
    generate_first_branch(window, qtbot)
    session, ws = window.session, window.workspace
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    before = tree.node(turn).instruction
    ws.select(turn)
    inspector = ws.inspector
    qtbot.waitUntil(lambda: bool(inspector.chips.chips), timeout=5000)

    inspector.chips.fix(ChipField.CAMERA, "orbit")
    session.settle()

    after = session.project.tree.node(turn).instruction
    assert after.camera == "orbit"
    assert (after.character, after.motion, after.adverb, after.background) == (
        before.character, before.motion, before.adverb, before.background)
