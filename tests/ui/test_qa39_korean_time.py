"""A Korean time word typed in Background moves into the Time box, as a Japanese or Chinese
one does ("夜の公園" -> Background 公園, Time 夜). "밤의 공원" stayed in Background, beside the
Time box's own word, and no note said which of the two times the turn is drawn in."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from studio.core import AddTurn, Document, StoryTree
from studio.core.instruction import Instruction, parse_instruction, time_words
from studio.core.model import CastMember, Node
from studio.ui.inspector.inspector import Inspector
from studio.ui.inspector.instruction_editor import background_time, compose_instruction
from studio.ui.media_cache import ClipCache


def _inspector(qtbot, line: str) -> Inspector:  # type: ignore[no-untyped-def]
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""))
    document = Document(StoryTree.from_entities([root, CastMember("c1", "민수")]))
    document.apply(AddTurn("root", "캐릭터: 민수; 동작: 걷는다; 배경: 공원", node_id="k1"))
    inspector = Inspector(ClipCache(), str)
    qtbot.addWidget(inspector)
    inspector.show()
    inspector.show_draft(document.tree, "k1", line)  # the next turn, typed as ``line``
    return inspector


def _type_background(qtbot, inspector: Inspector, text: str) -> None:  # type: ignore[no-untyped-def]
    editor = inspector.editor
    editor.background.setFocus()
    editor.background.selectAll()
    editor.background.insert(text)  # as an input method commits it
    qtbot.keyClick(editor.background, Qt.Key.Key_Return)  # done with Background


@pytest.mark.parametrize(("typed", "time", "place"), [
    ("밤의 공원", "밤", "공원"),
    ("아침에 공원", "아침", "공원"),
    ("저녁 바다", "저녁", "바다"),
    ("새벽", "새벽", ""),
    ("낮에", "낮", ""),
    ("해 질 녘 공원", "해질녘", "공원"),
    ("해질녘의 강가", "해질녘", "강가"),
    ("학교의 밤", "밤", "학교"),
])
def test_a_korean_time_word_typed_in_background_moves_into_the_time_box(  # type: ignore[no-untyped-def]
        qtbot, typed: str, time: str, place: str) -> None:
    inspector = _inspector(qtbot, "캐릭터: 민수; 동작: 달린다")
    editor = inspector.editor
    _type_background(qtbot, inspector, typed)
    assert (editor.background.text(), editor.time.currentText()) == (place, time)
    line = editor.text()
    read = parse_instruction(line)
    assert read.time_of_day == time, line
    assert time not in read.background, f"the time is said twice in {line!r}"
    sent: list[tuple[str, str]] = []
    inspector.generate_requested.connect(lambda target, text: sent.append((target, text)))
    qtbot.keyClick(editor.background, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert sent == [("k1", line)]


def test_the_note_says_which_time_a_korean_word_replaces(qtbot) -> None:  # type: ignore[no-untyped-def]
    inspector = _inspector(qtbot, "캐릭터: 민수; 동작: 달린다; 배경: 공원; 시간: 낮")
    editor = inspector.editor
    assert editor.time.currentText() == "낮"
    editor.background.setFocus()
    editor.background.selectAll()
    editor.background.insert("밤의 공원")
    assert "replaces '낮'" in editor.time_note.text(), "told before it moves"
    qtbot.keyClick(editor.background, Qt.Key.Key_Return)
    assert (editor.background.text(), editor.time.currentText()) == ("공원", "밤")
    assert "replaced '낮'" in editor.time_note.text()
    assert editor.text() == "캐릭터: 민수; 동작: 달린다; 배경: 공원; 시간: 밤."


@pytest.mark.parametrize("place", ["밤하늘", "낮은 언덕", "공원", "저녁노을공원"])
def test_a_place_that_only_starts_like_a_time_word_stays(qtbot, place: str) -> None:  # type: ignore[no-untyped-def]
    inspector = _inspector(qtbot, "캐릭터: 민수; 동작: 달린다; 시간: 밤")
    editor = inspector.editor
    _type_background(qtbot, inspector, place)
    assert (editor.background.text(), editor.time.currentText()) == (place, "밤")
    assert "replace" not in editor.time_note.text()


def test_every_korean_time_word_of_the_core_is_read_in_background() -> None:
    for word in time_words("ko"):
        assert background_time(f"{word.written}의 공원") == (word.written, "공원"), word
        assert background_time(word.written) == (word.written, ""), word
    assert compose_instruction("민수", "달린다", "공원의 밤", "낮") == \
        "캐릭터: 민수; 동작: 달린다; 배경: 공원; 시간: 밤."
