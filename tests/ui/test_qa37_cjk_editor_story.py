"""Dialogue and narration written in Japanese or Chinese in the story editor: speakers with
Japanese or Chinese names, a line written as a script writes it (美咲：こんにちは), typed through an
input method, are kept and shown as written; a line cut to what a line may hold is cut between
the characters a reader sees (it kept the thumbs-up and dropped its skin tone)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QWidget

from studio.core.story import MAX_LINE_CHARS, MAX_NARRATION_CHARS


def _commit(widget: QWidget, text: str) -> None:
    widget.setFocus()
    event = QInputMethodEvent("", [])
    event.setCommitString(text)
    QApplication.sendEvent(widget, event)


def test_japanese_and_chinese_dialogue_is_kept_as_written(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    other = tree.child_ids(turn)[0]
    ws.select(turn)
    story = ws.inspector.story
    row = story.add_dialogue_line()
    speaker = row.speaker.lineEdit()
    assert speaker is not None
    speaker.clear()
    _commit(speaker, "美咲")
    _commit(row.text, "美咲：こんにちは、翔太くん！")
    row.text.editingFinished.emit()
    second = story.add_dialogue_line()
    second_speaker = second.speaker.lineEdit()
    assert second_speaker is not None
    second_speaker.clear()
    _commit(second_speaker, "小明")
    _commit(second.text, "你好，我们走吧。")
    second.text.editingFinished.emit()
    story.narration.clear()
    _commit(story.narration, "晚上，小明在公园跑步。\n夜の港は静かだ。")

    ws.select(other)  # leaving the turn saves what the boxes hold
    session.settle()
    qtbot.wait(50)
    session.settle()
    saved = session.project.tree.node(turn).story
    assert [(line.speaker, line.text) for line in saved.dialogue][-2:] == [
        ("美咲", "美咲：こんにちは、翔太くん！"), ("小明", "你好，我们走吧。")]
    assert saved.narration == "晚上，小明在公园跑步。\n夜の港は静かだ。"

    ws.select(turn)
    qtbot.waitUntil(lambda: len(story.rows) >= 2, timeout=5000)
    assert [(row.speaker.currentText(), row.text.text()) for row in story.rows][-2:] == [
        ("美咲", "美咲：こんにちは、翔太くん！"), ("小明", "你好，我们走吧。")]
    assert story.narration.toPlainText() == "晚上，小明在公园跑步。\n夜の港は静かだ。"


def test_a_line_cut_to_its_limit_keeps_whole_characters(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    tree = window.session.project.tree
    window.workspace.select(tree.child_ids(tree.root_id)[0])
    story = window.workspace.inspector.story
    row = story.add_dialogue_line()
    row.text.setText("あ" * (MAX_LINE_CHARS - 1) + "👍🏽")  # one code point too many
    assert row.text.text() == "あ" * (MAX_LINE_CHARS - 1)  # no lone thumbs-up without its tone
    row.text.setText("あ" * (MAX_LINE_CHARS - 1) + "か\u3099")  # が written as か and a dakuten
    assert row.text.text() == "あ" * (MAX_LINE_CHARS - 1)

    story.narration.setPlainText("夜" * (MAX_NARRATION_CHARS - 1) + "👨\u200d👩\u200d👧")
    assert story.narration.toPlainText() == "夜" * (MAX_NARRATION_CHARS - 1)
