"""A long warning chip in a narrow inspector (QA: a turn of 1,900 characters, generated with
the sketch engine, got the chip "⚠ instruction is 1,909 characters long; only the first 400
…", whose button asked for 370 pixels; the inspector at 1280x720 has 369, so it scrolled
sideways and cut off the Generate button, the bookmark star and the takes' controls). The
chip now takes the row's width and ends its label with "…"; its tooltip shows it whole."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from studio.core.instruction import parse_instruction
from studio.core.model import Take
from studio.ui.inspector.chips_view import ChipsView
from tests.ui.keys import press_story_key

WARNING = ("instruction is 1,909 characters long; only the first 400 are read by the sketch engine's "
           "world rules")


def test_a_long_warning_chip_narrows_to_its_row_and_tells_all_in_its_tooltip(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = ChipsView()
    qtbot.addWidget(view)
    take = Take(id="t", node_id="n", engine="sketch", conditioning={"location": "town", "motion": "walk"},
                warnings=(WARNING,))
    view.set_turn(parse_instruction("Character: Qiqi; Motion: walk; Background: town."), take)
    view.resize(220, 200)
    view.show()
    qtbot.waitExposed(view)
    assert view.minimumSizeHint().width() <= 220
    (chip,) = [b for b in view.buttons if b.objectName() == "chipWarning"]
    qtbot.waitUntil(lambda: chip.geometry().right() < view.width())
    assert chip.text().endswith("…") and chip.text().startswith("⚠ instruction is")
    assert chip.fontMetrics().horizontalAdvance(chip.text()) < chip.width()  # the label fits the button
    assert WARNING in chip.toolTip()  # whole, where the label is cut

    view.resize(1400, 200)  # room again: the label comes back (up to its 60 characters)
    qtbot.waitUntil(lambda: chip.text() == f"⚠ {WARNING}"[:59] + "…")
    short = next(b for b in view.buttons if b.objectName() == "chip")
    assert "…" not in short.text() and short.toolTip() != short.text()  # a short chip keeps its own tip


def test_a_long_instruction_leaves_the_inspector_without_a_sideways_scroll(make_window, sample_project: Path,
                                                                          qtbot) -> None:
    window = make_window(sample_project)
    window.resize(1280, 720)
    ws = window.workspace
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf)
    press_story_key(window, qtbot, Qt.Key.Key_Return)
    editor = ws.inspector.editor
    editor.motion.clear()
    qtbot.keyClicks(editor.motion, "walk")
    editor.free_text.setText(("Qiqi walks along the old harbour wall while the gulls circle overhead " * 30)[:1850])
    qtbot.mouseClick(editor.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.current_id != leaf and not window.session.active_jobs(), timeout=60_000)
    qtbot.waitUntil(lambda: ws.inspector.chips.warning_count > 0, timeout=10_000)
    warning = next(b for b in ws.inspector.chips.buttons if b.objectName() == "chipWarning")
    assert "characters long" in warning.toolTip()
    viewport = ws.inspector.viewport()
    qtbot.waitUntil(lambda: ws.inspector.widget().width() <= viewport.width())
    assert ws.inspector.horizontalScrollBar().maximum() == 0
    for button in (editor.generate_button, warning):  # wholly in sight
        right = button.mapTo(viewport, QPoint(button.width() - 1, 0)).x()
        assert right < viewport.width(), (button.text(), right, viewport.width())


def test_a_warning_that_is_its_own_tooltip_is_not_said_twice(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = ChipsView()
    qtbot.addWidget(view)
    unmatched = "the sketch engine draws no umbrellas, so the one in this turn is left out of the picture"
    take = Take(id="t", node_id="n", engine="sketch", conditioning={"location": "town"}, warnings=(unmatched,))
    view.set_turn(parse_instruction("Character: Qiqi; Motion: walk; Background: town."), take)
    view.resize(200, 200)
    view.show()
    qtbot.waitExposed(view)
    (chip,) = [b for b in view.buttons if b.objectName() == "chipWarning"]
    qtbot.waitUntil(lambda: chip.text().endswith("…"))
    assert chip.toolTip().count(unmatched) == 1
    assert chip.accessibleName() == f"⚠ {unmatched}"  # read whole by a screen reader


def test_a_cut_chip_with_a_tip_of_its_own_shows_its_whole_text_above_the_tip(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = ChipsView()
    qtbot.addWidget(view)
    warning = "'pirouette on the harbour wall' unknown, shown as 'dance'"
    take = Take(id="t", node_id="n", engine="sketch", conditioning={"motion": "dance"}, warnings=(warning,))
    view.set_turn(parse_instruction("Character: Qiqi; Motion: pirouette on the harbour wall; Background: town."), take)
    view.resize(200, 200)
    view.show()
    qtbot.waitExposed(view)
    (chip,) = [b for b in view.buttons if b.objectName() == "chipWarning"]
    qtbot.waitUntil(lambda: chip.text().endswith("…"))
    assert chip.toolTip().startswith(f"⚠ {warning}\n\n")  # the whole warning, then what a click does
    assert chip.toolTip() != f"⚠ {warning}\n\n"
