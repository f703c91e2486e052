"""A project opened read-only shows the inspector for reading: its text can be selected and
copied but not changed, and Generate, Save text, Use, Re-roll ×, Add a line, the bookmark and
the chips' words are off with the reason as their tooltip. The fields stayed editable, and an
edit was refused only once it was sent."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from studio.core import AddTake, AddTurn, Document, StoryTree, Take
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Node, TakeStatus
from studio.ui.inspector.inspector import Inspector
from studio.ui.media_cache import ClipCache

WHY = "Read-only: sample.kamishibai is on a read-only disk"
LINE = "Character: Qiqi; Motion: run; Background: day town."


def _tree() -> StoryTree:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""))
    document = Document(StoryTree.from_entities([root, CastMember("c1", "Qiqi")]))
    document.apply(AddTurn("root", LINE, node_id="q1"))
    document.apply(AddTurn("q1", "Character: Qiqi; Motion: wave; Background: night park.", node_id="q2"))
    for take_id in ("t1", "t2"):
        document.apply(AddTake(Take(id=take_id, node_id="q1", engine="fake", status=TakeStatus.DONE,
                                    instruction_raw=LINE)))
    return document.tree


def _inspector(qtbot) -> Inspector:  # type: ignore[no-untyped-def]
    inspector = Inspector(ClipCache(), str)
    qtbot.addWidget(inspector)
    inspector.resize(480, 900)
    inspector.show()
    return inspector


def test_the_inspector_reads_only_and_says_why(qtbot) -> None:  # type: ignore[no-untyped-def]
    inspector = _inspector(qtbot)
    tree = _tree()
    inspector.show_node(tree, "q1")
    sent: list[object] = []
    for signal in (inspector.generate_requested, inspector.save_requested, inspector.take_chosen,
                   inspector.instruction_fixed, inspector.bookmark_toggled, inspector.notes_changed):
        signal.connect(lambda *args: sent.append(args))
    use = [tile.use_button for tile in inspector.takes.tiles if not tile.selected]
    assert use and all(button.isEnabled() for button in use)

    inspector.set_read_only(WHY)
    editor = inspector.editor
    for edit in editor.fields():
        assert edit.isReadOnly()
    qtbot.keyClicks(editor.motion, " fast")  # typing changes nothing
    assert editor.motion.text() == "run"
    editor.motion.selectAll()
    editor.motion.copy()  # still selectable and copyable
    assert QApplication.clipboard().text() == "run"
    assert editor.time.lineEdit() is not None and editor.time.lineEdit().isReadOnly()
    qtbot.keyClick(editor.time, Qt.Key.Key_Down)
    assert editor.time.currentText() == "day", "the time can't be picked either"
    for button in (editor.generate_button, editor.save_button, *use, inspector.takes.reroll_many_button,
                   inspector.story.add_line, inspector.bookmark):
        assert not button.isEnabled(), button
        assert button.toolTip() == WHY, (button, button.toolTip())
    qtbot.keyClick(editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    chip = inspector.chips.chips[0]
    menu = inspector.chips.menu_for(chip)
    assert [a.text() for a in menu.actions() if a.isEnabled()] == [], "no word to replace with"
    assert any(WHY in a.text() for a in menu.actions())
    inspector.chips.fix(chip.field, "walk")
    assert inspector.notes.isReadOnly() and inspector.story.narration.isReadOnly()
    assert inspector.story.narration.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByKeyboard
    inspector.show_node(tree, "q2")  # moving on keeps it so
    assert editor.background.isReadOnly() and not inspector.bookmark.isEnabled()
    assert sent == []

    inspector.set_read_only(None)  # reopened for editing
    inspector.show_node(tree, "q1")
    assert not editor.motion.isReadOnly() and editor.generate_button.isEnabled()
    assert editor.generate_button.toolTip() != WHY
    assert inspector.bookmark.isEnabled() and inspector.story.add_line.isEnabled()
    assert any(tile.use_button.isEnabled() for tile in inspector.takes.tiles)
    qtbot.keyClicks(editor.motion, "s")
    assert editor.motion.text() != "run"


def test_takes_arriving_on_a_read_only_turn_are_off_too(qtbot) -> None:  # type: ignore[no-untyped-def]
    inspector = _inspector(qtbot)
    inspector.set_read_only(WHY)
    inspector.show_node(_tree(), "q1")
    use = [tile.use_button for tile in inspector.takes.tiles if not tile.selected]
    assert use and not any(button.isEnabled() for button in use)
    assert all(button.toolTip() == WHY for button in use)
