"""Keys pressed faster than the window hears of a change: an action on a turn just deleted is
ignored quietly, two selections in one pass of the event loop show no row of dialogue as a
window of its own, and an undo right after Save text shows the turn's instruction again."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QWidget

from studio.core.commands import DeleteSubtree, SetDialogue
from studio.core.story import DialogueLine

Key = Qt.Key


def _settle(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=60_000)
    window.session.settle()
    qtbot.wait(150)


def _quiet_window(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    """A window whose error boxes are recorded, not shown (one would take the activation)."""
    window = make_window(sample_project)
    errors: list[str] = []
    window.show_error = lambda error: errors.append(getattr(error, "message", str(error)))  # type: ignore[method-assign]
    window.workspace.confirm = lambda title, text: True  # type: ignore[method-assign]
    return window, errors


def _leaf_without_takes(window) -> str:  # type: ignore[no-untyped-def]
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[1].id
    assert not tree.takes_of(leaf) and not tree.child_ids(leaf)
    return str(leaf)


def _tree_focused_on_a_leaf(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    """The window (and its error list) with a leaf without takes selected, the tree focused."""
    window, errors = _quiet_window(make_window, sample_project)
    leaf = _leaf_without_takes(window)
    window.workspace.select(leaf)
    _settle(window, qtbot)
    window.workspace.view.setFocus()
    return window, errors, leaf


@pytest.mark.parametrize("key", [Key.Key_Return, Key.Key_F, Key.Key_R, Key.Key_B])
def test_key_after_the_delete_is_made_before_the_window_hears_of_it(make_window, sample_project: Path, qtbot,
                                                                       key: Qt.Key) -> None:
    """The writer has deleted the turn (the latest tree lacks it), its change set is still on
    its way (up to COALESCE_MS): the selection names a turn that is gone."""
    window, errors, leaf = _tree_focused_on_a_leaf(make_window, sample_project, qtbot)
    ws, project = window.workspace, window.session.project
    project.apply(DeleteSubtree(leaf))  # made on the writer now; the window hears of it later
    assert leaf not in project.tree.nodes and ws.current_id == leaf
    qtbot.keyClick(ws.view, key)  # an uncaught TreeError fails the test (pytest-qt)
    _settle(window, qtbot)
    assert errors == []
    assert ws.current_id in project.tree.nodes
    assert ws.inspector.draft_parent is None or ws.inspector.draft_parent in project.tree.nodes


@pytest.mark.parametrize("key", [Key.Key_Return, Key.Key_F, Key.Key_R, Key.Key_B, Key.Key_Delete])
def test_key_queued_behind_the_delete_on_the_writer(make_window, sample_project: Path, qtbot, key: Qt.Key,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Delete and the next key in one breath: the key's command reaches the writer after the
    delete it followed, on a turn that is gone by then."""
    window, errors, leaf = _tree_focused_on_a_leaf(make_window, sample_project, qtbot)
    ws, project = window.workspace, window.session.project
    hold = threading.Event()
    safety = threading.Timer(10, hold.set)  # never a deadlock, whatever waits for the writer
    safety.start()
    window.session.writer.submit(hold.wait)  # the writer is busy: both keys queue behind this
    monkeypatch.setattr(window.session, "active_jobs", lambda: [])  # Delete's count waits for the writer
    try:
        qtbot.keyClick(ws.view, Key.Key_Delete)
        qtbot.keyClick(ws.view, key)
        assert leaf in project.tree.nodes  # neither has been made yet
    finally:
        hold.set()
        safety.cancel()
        monkeypatch.undo()
    _settle(window, qtbot)
    assert leaf not in project.tree.nodes
    assert errors == []
    assert ws.current_id in project.tree.nodes


class _WindowShowSpy(QObject):
    """Records every top-level widget (other than the main window) that is shown."""

    def __init__(self, main: QWidget) -> None:
        super().__init__()
        self.main = main
        self.shown: list[str] = []

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Show and isinstance(obj, QWidget) and obj.isWindow() and obj is not self.main:
            self.shown.append(type(obj).__name__)
        return False


def _dialogue_everywhere(window, qtbot) -> list[str]:  # type: ignore[no-untyped-def]
    """The first branch's turns, each given a line of dialogue."""
    ws, project = window.workspace, window.session.project
    tree = project.tree
    branch: list[str] = []
    node = tree.root_id
    while tree.child_ids(node):  # down the first alternatives
        node = tree.child_ids(node)[0]
        branch.append(node)
    for number, node_id in enumerate(branch):
        ws.apply(SetDialogue(node_id, (DialogueLine("Hana", f"Line {number}"), DialogueLine("", "Off screen"))))
    _settle(window, qtbot)
    return branch


@pytest.mark.parametrize("keys", [[Key.Key_Right] * 3, [Key.Key_Right, Key.Key_Left]])
def test_selections_in_one_pass_show_no_stray_window(make_window, sample_project: Path, qtbot,
                                                     keys: list[Qt.Key]) -> None:
    """Keys delivered together (a held key, a slow frame) select several turns in one pass of
    the event loop; the dialogue rows of a turn shown only in passing must not come up as
    windows of their own, taking the activation (and every shortcut with it).

    The window is not re-activated between keys (as tests/ui/keys.py does): the activation
    is what this checks."""
    window, errors = _quiet_window(make_window, sample_project)
    ws = window.workspace
    branch = _dialogue_everywhere(window, qtbot)
    ws.select(branch[0])
    _settle(window, qtbot)
    ws.view.setFocus()
    assert QApplication.activeWindow() is window
    spy = _WindowShowSpy(window)
    app = QApplication.instance()
    assert app is not None
    app.installEventFilter(spy)
    try:
        for key in keys:
            qtbot.keyClick(ws.view, key)  # no event loop pass between them
        _settle(window, qtbot)
    finally:
        app.removeEventFilter(spy)
    assert spy.shown == []
    strays = [type(w).__name__ for w in QApplication.topLevelWidgets() if w.isVisible() and w is not window
              and type(w).__name__ == "DialogueRow"]
    assert strays == []
    assert QApplication.activeWindow() is window
    assert errors == []
    qtbot.keyClick(ws.view, Key.Key_Left)  # the story keys still work, without re-activating
    _settle(window, qtbot)
    assert QApplication.activeWindow() is window


def test_undo_right_after_save_text_shows_the_undone_instruction(make_window, sample_project: Path, qtbot) -> None:
    """Save text, then Undo before the inspector heard of the save: the editor shows the turn's
    instruction as the undo left it, and moving on does not save the undone text again."""
    window, errors = _quiet_window(make_window, sample_project)
    ws, project, actions = window.workspace, window.session.project, window.actions_
    tree = project.tree
    turn = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(tree.root_id)
    actions.bookmark.trigger()  # an earlier edit: Undo is enabled
    _settle(window, qtbot)
    ws.select(turn)
    _settle(window, qtbot)
    original = project.tree.nodes[turn].instruction.raw
    shown = ws.inspector.editor.text()
    ws.inspector.editor.camera.setText("orbit")
    edited = ws.inspector.editor.text()
    assert edited != shown
    ws.inspector.editor.save_button.click()
    qtbot.waitUntil(lambda: project.tree.nodes[turn].instruction.raw != original, timeout=5000)
    actions.undo.trigger()  # at once: the inspector has not shown the saved text yet
    _settle(window, qtbot)
    assert project.tree.nodes[turn].instruction.raw == original
    assert ws.inspector.editor.text() == shown
    ws.view.setFocus()
    qtbot.keyClick(ws.view, Key.Key_Left)  # move on
    _settle(window, qtbot)
    assert project.tree.nodes[turn].instruction.raw == original
    assert actions.redo.isEnabled()  # the save can be redone: nothing was saved over it
    assert errors == []


def test_saved_text_then_typing_is_still_typing(make_window, sample_project: Path, qtbot) -> None:
    """Text typed after Save text (once the save is shown) is the user's, kept on moving on."""
    window, errors = _quiet_window(make_window, sample_project)
    ws, project = window.workspace, window.session.project
    tree = project.tree
    turn = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(turn)
    _settle(window, qtbot)
    ws.inspector.editor.camera.setText("orbit")
    ws.inspector.editor.save_button.click()
    _settle(window, qtbot)
    assert "orbit" in project.tree.nodes[turn].instruction.raw
    ws.inspector.editor.camera.setText("pan left")
    ws.select(tree.root_id)
    _settle(window, qtbot)
    assert "pan left" in project.tree.nodes[turn].instruction.raw
    assert errors == []


def test_undo_right_after_generate_shows_the_undone_instruction(make_window, sample_project: Path, qtbot) -> None:
    """The same with Generate (Ctrl+Enter, the window's action): its edit of the instruction,
    undone at once, leaves the editor showing the turn's instruction."""
    window, errors = _quiet_window(make_window, sample_project)
    ws, project, actions = window.workspace, window.session.project, window.actions_
    tree = project.tree
    turn = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(tree.root_id)
    actions.bookmark.trigger()  # an earlier edit: Undo is enabled
    ws.select(turn)
    _settle(window, qtbot)
    assert window.session.service is not None
    window.session.service.pause()  # the re-roll stays queued: only the edit is in question
    original = project.tree.nodes[turn].instruction.raw
    shown = ws.inspector.editor.text()
    ws.inspector.editor.camera.setText("orbit")
    actions.generate.trigger()
    qtbot.waitUntil(lambda: project.tree.nodes[turn].instruction.raw != original, timeout=5000)
    actions.undo.trigger()
    qtbot.wait(300)
    assert project.tree.nodes[turn].instruction.raw == original
    assert ws.inspector.editor.text() == shown
    ws.select(tree.root_id)  # move on: nothing typed to keep
    qtbot.wait(300)
    assert project.tree.nodes[turn].instruction.raw == original
    window.session.service.resume()
    _settle(window, qtbot)
    assert errors == []


def test_rows_replaced_twice_in_one_pass_show_no_window(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The story editor's dialogue rows, rebuilt twice before the event loop runs (two turns
    shown in passing), and a chip row likewise: none comes up as a window."""
    from types import SimpleNamespace

    from studio.core.instruction import parse_instruction
    from studio.core.story import StoryFields
    from studio.ui.inspector.chips_view import ChipsView
    from studio.ui.inspector.story_editor import StoryEditor

    host = QWidget()
    qtbot.addWidget(host)
    story, chips = StoryEditor(host), ChipsView(host)
    from PySide6.QtWidgets import QVBoxLayout

    layout = QVBoxLayout(host)
    layout.addWidget(story)
    layout.addWidget(chips)
    host.show()
    qtbot.waitExposed(host)

    def take(name: str) -> SimpleNamespace:
        return SimpleNamespace(conditioning={"character": name, "motion": "walk", "location": "town"},
                               motion_level=None, deltas={}, warnings=())

    spy = _WindowShowSpy(host)
    app = QApplication.instance()
    assert app is not None
    app.installEventFilter(spy)
    try:
        for number in range(3):
            lines = (DialogueLine("Hana", f"Line {number}"),)
            story.set_story(StoryFields(dialogue=lines), ["Hana"], "Hana", reset=True)
            chips.set_turn(parse_instruction(f"Character: Hana {number}; Motion: walks"), take(f"hana {number}"))
        qtbot.wait(50)
    finally:
        app.removeEventFilter(spy)
    assert spy.shown == []
    assert [row.line().text for row in story.rows] == ["Line 2"]
    assert len(chips.buttons) > 0 and all(button.isVisible() for button in chips.buttons)
