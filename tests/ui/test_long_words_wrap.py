"""A long word of the author's wraps in the inspector and under the queue instead of widening
them. (QA: a place named after its image file, ``IMG_20240513_142355_HDR_forest_background_
final_v3``, in a turn's Background, or a character's long name, made the inspector wider than
its dock: a sideways scroll bar appeared and Generate, and the start state boxes, were out of
sight; a failed job's error quoting a long path widened the queue the same way, and one that
quoted ``<b>`` lost it, read as markup.)"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QWidget

from studio.core.commands import AddLocation, EditInstruction, RenameCastMember
from studio.core.model import Location, new_id
from studio.ui.text_wrap import ZERO_WIDTH_SPACE, breakable, unbroken
from tests.ui.conftest import fake_engine_window

PLACE = "IMG_20240513_142355_HDR_forest_background_final_v3"
NAME = "Anastasiyaaleksandrovnakuznetsovamikhailovna"
TIMEOUT_MS = 60_000


def _fits(inspector) -> bool:  # type: ignore[no-untyped-def]
    """No sideways scrolling: the inspector's contents fit its width."""
    body = inspector.widget()
    return bool(body.minimumSizeHint().width() <= inspector.viewport().width()
                and inspector.horizontalScrollBar().maximum() == 0)


def _in_sight(inspector, widget: QWidget) -> bool:  # type: ignore[no-untyped-def]
    right = widget.mapTo(inspector.viewport(), widget.rect().topRight()).x()
    return bool(0 <= right <= inspector.viewport().width())


def test_breakable_only_splits_long_words() -> None:
    assert breakable("Character: Qiqi; Motion: gently sits.") == "Character: Qiqi; Motion: gently sits."
    broken = breakable(f"Background: {PLACE}.")
    assert unbroken(broken) == f"Background: {PLACE}."
    assert all(len(part) <= 20 for word in broken.split() for part in word.split(ZERO_WIDTH_SPACE))


def test_a_long_word_wraps_in_the_inspector(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    window.resize(1280, 720)
    ws, project = window.workspace, window.session.project
    tree = project.tree
    turn = tree.child_ids(tree.root_id)[0]
    member = next(iter(tree.cast.values()))
    project.apply(AddLocation(Location(id=new_id(), name=PLACE)))
    project.apply(RenameCastMember(member.id, NAME))
    line = f"Character: {NAME}; Motion: gently sits on the railing; Background: {PLACE}."
    project.apply(EditInstruction(turn, line))
    window.session.settle()
    qtbot.waitUntil(lambda: ws.tree.nodes[turn].instruction.raw == line, timeout=5000)

    ws.select(turn)
    inspector, editor = ws.inspector, ws.inspector.editor
    qtbot.waitUntil(lambda: unbroken(editor.preview.text()) == editor.text(), timeout=5000)
    qtbot.waitUntil(lambda: _fits(inspector), timeout=5000)
    assert _in_sight(inspector, editor.generate_button), "Generate was pushed out of sight"

    ws.select(tree.root_id)
    start = inspector.start
    qtbot.waitUntil(lambda: start.isVisible() and NAME in start.spins, timeout=5000)
    qtbot.waitUntil(lambda: _fits(inspector), timeout=5000)
    assert all(_in_sight(inspector, spin) for spin in start.spins[NAME].values())
    shown = QTextDocument()
    shown.setHtml(start.summary.text())
    assert PLACE in unbroken(shown.toPlainText()) and NAME in unbroken(shown.toPlainText())


def test_a_failed_job_says_its_error_as_written_without_widening_the_queue(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot, settings, registry) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws, project = window.workspace, window.session.project
    turn = project.tree.child_ids(project.tree.root_id)[0]
    line = f"Character: Qiqi; Motion: holds up a <b>sign</b>; Background: {PLACE}."
    project.apply(EditInstruction(turn, line))
    window.session.settle()
    script.fail_on.add(line)  # its error quotes the line
    qtbot.waitUntil(lambda: ws.tree.nodes[turn].instruction.raw == line, timeout=5000)
    ws.select(turn)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: ws.queue.list.topLevelItemCount() == 1, timeout=TIMEOUT_MS)
    job_id = window.session.service.jobs(include_finished=True)[0].id
    ws.queue.select_job(job_id)
    qtbot.waitUntil(lambda: "Failed:" in ws.queue.detail.text(), timeout=TIMEOUT_MS)

    shown = QTextDocument()
    shown.setHtml(ws.queue.detail.text())
    assert "<b>sign</b>" in unbroken(shown.toPlainText()), shown.toPlainText()
    assert PLACE in unbroken(shown.toPlainText())
    assert ws.queue.detail.minimumSizeHint().width() < 300


def test_a_long_name_wraps_in_the_cast_panel_and_is_shown_as_written(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, project = window.workspace, window.session.project
    member = next(iter(project.tree.cast.values()))
    name = f"<i>{NAME}</i>"
    project.apply(RenameCastMember(member.id, name))
    window.session.settle()
    qtbot.waitUntil(lambda: any(m.name == name for m in ws.tree.cast.values()), timeout=5000)
    ws.cast.select_character(name)
    note = ws.cast.views_note
    qtbot.waitUntil(lambda: unbroken(note.text()).startswith(f"{name}: "), timeout=5000)
    assert note.textFormat() is Qt.TextFormat.PlainText, "the name was read as markup"
    assert note.minimumSizeHint().width() < 250


def test_copying_a_wrapped_label_gives_its_words_without_break_marks(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A path copied from a failed job's error pastes as the path (the label shows it with
    invisible break opportunities)."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QLabel

    from studio.ui.text_wrap import copy_without_breaks

    path = f"/home/ayaka/stories/{PLACE}/media/takes/0123456789/clip.mp4"
    for rich in (False, True):
        label = QLabel()
        qtbot.addWidget(label)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        copy_without_breaks(label)
        label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
        label.setText(f"<b>Failed:</b> {breakable(path)}" if rich else breakable(path))
        label.show()
        assert ZERO_WIDTH_SPACE in label.text()
        QGuiApplication.clipboard().clear()
        shown = QTextDocument()
        shown.setHtml(label.text()) if rich else shown.setPlainText(label.text())
        label.setSelection(0, len(shown.toPlainText()))  # all it shows, break marks included
        assert label.hasSelectedText()
        qtbot.keyClick(label, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
        copied = QGuiApplication.clipboard().text()
        assert ZERO_WIDTH_SPACE not in copied
        assert copied.endswith(path), copied


def test_the_export_dialog_shows_the_ending_as_written_and_wraps_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.export_dialog import BranchFacts, ExportDialog

    ending = f"Qiqi holds up a <b>sign</b> in {PLACE}"
    dialog = ExportDialog(Path("/tmp/episode.mp4"), "story", branch=BranchFacts(3, 3, ending))
    qtbot.addWidget(dialog)
    label = dialog.branch_label
    assert label.textFormat() is Qt.TextFormat.PlainText, "the turn's words were read as markup"
    assert ending in unbroken(label.text())
    assert label.minimumSizeHint().width() < 300
