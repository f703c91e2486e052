"""Generate and Save text are off, saying why, for a line that can't be sent: empty, or over
the 2,000-character limit (they stayed on for a long line, and each click repeated the red
note's error). A new turn prefilled with its parent's character and place shows no grey
examples ("gently sit on railing") beside them: they read as copied from the turn before."""

from __future__ import annotations

from studio.core import AddTurn, Document, StoryTree
from studio.core.instruction import MAX_INSTRUCTION_CHARS, Instruction, parse_instruction
from studio.core.model import CastMember, Node
from studio.ui.inspector.inspector import Inspector
from studio.ui.inspector.instruction_editor import InstructionEditor
from studio.ui.media_cache import ClipCache


def test_generate_and_save_are_off_for_a_line_too_long_and_say_why(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = InstructionEditor()
    qtbot.addWidget(editor)
    editor.show()
    refused: list[object] = []
    editor.refused.connect(refused.append)
    editor.set_instruction(parse_instruction("Character: Qiqi; Motion: run"))
    assert editor.generate_button.isEnabled() and editor.save_button.isEnabled()
    tips = (editor.generate_button.toolTip(), editor.save_button.toolTip())
    assert "Ctrl+Enter" in tips[0]

    editor.free_text.setText("market lanterns " * (MAX_INSTRUCTION_CHARS // 16 + 5))
    assert not editor.length_note.isHidden()
    for button in (editor.generate_button, editor.save_button):
        assert not button.isEnabled()
        assert button.toolTip() == editor.length_note.text() and "Remove at least" in button.toolTip()
        button.click()
    assert refused == [], "a button that is off sends nothing"

    editor.free_text.setText("")
    assert editor.generate_button.isEnabled() and editor.generate_button.toolTip() == tips[0]
    assert editor.save_button.isEnabled() and editor.save_button.toolTip() == tips[1]
    for edit in editor.fields():
        edit.setText("")
    for button in (editor.generate_button, editor.save_button):
        assert not button.isEnabled() and "empty" in button.toolTip()


def _tree() -> Document:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""))
    document = Document(StoryTree.from_entities([root]))
    line = "Character: Qiqi; Motion: gently sit on railing; Background: day town"
    document.apply(AddTurn("root", line, node_id="q1"))
    return document


def test_a_prefilled_new_turn_shows_no_examples(qtbot) -> None:  # type: ignore[no-untyped-def]
    inspector = Inspector(ClipCache(), str)
    qtbot.addWidget(inspector)
    inspector.show()
    inspector.show_draft(_tree().tree, "q1")
    editor = inspector.editor
    # the turn before's character and place are hints of what the turn goes on with, not values
    assert (editor.character.text(), editor.background.text()) == ("", "")
    assert [edit.placeholderText() for edit in editor.fields()] == ["Qiqi (as before)", "", "town (as before)", "",
                                                                   ""]


def test_a_blank_new_turn_shows_the_examples(qtbot) -> None:  # type: ignore[no-untyped-def]
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""))
    tree = StoryTree.from_entities([root, CastMember("c1", "")])
    inspector = Inspector(ClipCache(), str)
    qtbot.addWidget(inspector)
    inspector.show()
    inspector.show_draft(tree, "root")
    assert inspector.editor.motion.placeholderText() == "gently sit on railing"
