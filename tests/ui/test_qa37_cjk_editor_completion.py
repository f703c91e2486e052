"""Completion of the cast's and the world's names in the instruction editor as a Japanese or
Chinese author types them: through an input method, which first shows the reading being
composed (preedit) and then commits the characters."""

from __future__ import annotations

from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QLineEdit


def _editor(qtbot):  # type: ignore[no-untyped-def]
    from studio.ui.inspector.instruction_editor import InstructionEditor
    from studio.ui.inspector.vocabulary import Vocabulary

    editor = InstructionEditor()
    qtbot.addWidget(editor)
    editor.set_vocabulary(Vocabulary(characters=["美咲", "小明", "Qiqi"], backgrounds=["港", "公园", "夜の港"]))
    editor.show()
    qtbot.waitExposed(editor)
    return editor


def _send(edit: QLineEdit, commit: str = "", preedit: str = "") -> None:
    event = QInputMethodEvent(preedit, [])
    if commit:
        event.setCommitString(commit)
    QApplication.sendEvent(edit, event)


def test_a_committed_name_offers_the_cast(qtbot) -> None:
    editor = _editor(qtbot)
    edit = editor.character
    edit.setFocus()
    _send(edit, commit="美")
    completer = edit.completer()
    qtbot.waitUntil(lambda: completer.popup().isVisible(), timeout=3000)
    assert completer.currentCompletion() == "美咲"
    assert completer.completionCount() == 1


def test_a_place_is_offered_from_inside_its_name(qtbot) -> None:
    editor = _editor(qtbot)
    edit = editor.background
    edit.setFocus()
    _send(edit, commit="港")  # 港 and 夜の港: the name need not start with what was typed
    completer = edit.completer()
    qtbot.waitUntil(lambda: completer.popup().isVisible(), timeout=3000)
    shown = {completer.completionModel().index(row, 0).data() for row in range(completer.completionCount())}
    assert shown == {"港", "夜の港"}


def test_no_list_pops_up_over_a_reading_being_composed(qtbot) -> None:
    editor = _editor(qtbot)
    edit = editor.character
    edit.setFocus()
    _send(edit, preedit="みさき")
    qtbot.wait(100)
    assert not edit.completer().popup().isVisible()
    assert edit.text() == ""  # the reading is no text yet
    _send(edit, commit="美咲")
    assert edit.text() == "美咲"
