"""A turn written in Japanese or Chinese in the instruction editor's fields keeps its time of
day and its language.

The editor wrote every line in English form with the time inside the background
("Character: 美咲; Motion: 走る; Background: 夜 港."): the core then read a place called "夜 港"
and no time at all, so the time typed in the Time box was lost on saving (the box showed it
empty on coming back) and the turn showed the harbour by day; a Chinese turn shown and saved
unchanged lost its time the same way, and its Chinese field names.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QWidget

from studio.core.commands import EditInstruction
from studio.core.instruction import parse_instruction


def _commit(widget: QWidget, text: str) -> None:
    """``text`` typed as an input method commits it (a Japanese or Chinese author's typing)."""
    widget.setFocus()
    event = QInputMethodEvent("", [])
    event.setCommitString(text)
    QApplication.sendEvent(widget, event)


def _a_turn(window):  # type: ignore[no-untyped-def]
    tree = window.session.project.tree
    return tree.child_ids(tree.root_id)[0]


def test_a_japanese_turn_typed_in_the_fields_keeps_its_time(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, turn = window.workspace, _a_turn(window)
    ws.select(turn)
    editor = ws.inspector.editor
    for edit in editor.fields():
        edit.clear()
    _commit(editor.character, "美咲")
    _commit(editor.motion, "ゆっくり歩く")
    _commit(editor.background, "港")
    time_edit = editor.time.lineEdit()
    assert time_edit is not None
    time_edit.clear()
    _commit(time_edit, "夜")
    assert editor.time.currentText() == "夜"

    line = editor.text()
    assert line == "キャラクター：美咲；動作：ゆっくり歩く；背景：港；時間帯：夜。"
    assert editor.preview.text().replace("\u200b", "") == line  # the preview shows the line saved
    editor.save_button.click()
    window.session.settle()

    stored = window.session.project.tree.node(turn).instruction
    assert (stored.character, stored.motion, stored.background, stored.time_of_day) == (
        "美咲", "ゆっくり歩く", "港", "夜")
    other = next(n for n in window.session.project.tree.nodes if n not in (turn, window.session.project.tree.root_id))
    ws.select(other)
    ws.select(turn)
    qtbot.waitUntil(lambda: editor.background.text() == "港", timeout=5000)
    assert editor.time.currentText() == "夜"  # the time comes back with the turn


def test_a_chinese_turn_shown_and_saved_keeps_its_time_and_field_names(make_window, sample_project: Path,
                                                                        qtbot) -> None:
    window = make_window(sample_project)
    ws, turn = window.workspace, _a_turn(window)
    raw = "角色：小明；动作：跑步；背景：公园；时间：晚上"
    ws.apply(EditInstruction(turn, raw))
    window.session.settle()
    ws.select(turn)
    editor = ws.inspector.editor
    qtbot.waitUntil(lambda: editor.motion.text() == "跑步", timeout=5000)
    assert editor.time.currentText() == "晚上"

    assert editor.text() == raw + "。"
    shown = parse_instruction(editor.text())
    assert (shown.character, shown.motion, shown.background, shown.time_of_day) == ("小明", "跑步", "公园", "晚上")


def test_han_characters_typed_into_a_chinese_turn_stay_chinese(make_window, sample_project: Path, qtbot) -> None:
    """Han characters alone could be either language: a Chinese turn's fields stay Chinese."""
    window = make_window(sample_project)
    ws, turn = window.workspace, _a_turn(window)
    ws.apply(EditInstruction(turn, "角色：李华；动作：游泳；背景：大海"))
    window.session.settle()
    ws.select(turn)
    editor = ws.inspector.editor
    qtbot.waitUntil(lambda: editor.motion.text() == "游泳", timeout=5000)
    editor.motion.clear()
    _commit(editor.motion, "散步")
    assert editor.text() == "角色：李华；动作：散步；背景：大海。"


def test_a_japanese_free_text_ends_with_a_japanese_full_stop(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, turn = window.workspace, _a_turn(window)
    ws.select(turn)
    editor = ws.inspector.editor
    for edit in editor.fields():
        edit.clear()
    editor.time.setCurrentIndex(0)  # no time
    _commit(editor.free_text, "美咲が夜の港でゆっくり歩く")
    assert editor.text() == "美咲が夜の港でゆっくり歩く。"


def test_english_lines_are_written_as_before() -> None:
    from studio.ui.inspector.instruction_editor import compose_instruction

    assert compose_instruction("Qiqi", "gently sit on railing", "town", "day") == (
        "Character: Qiqi; Motion: gently sit on railing; Background: day town.")
    assert compose_instruction("美咲", "wave", "公園", "night") == (
        "Character: 美咲; Motion: wave; Background: night 公園.")
